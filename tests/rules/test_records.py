"""Game records: a faithful record verifies; every kind of tampering is caught and named
by ``verify_record``; ``GameRecord.from_json`` refuses malformed input saying where."""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import cache
from typing import Any

import attrs
import pytest

from quaymoor.bots.prng import SplitMix64
from quaymoor.rules import actions as a
from quaymoor.rules.fairness import ALGORITHM_1, fingerprint, seed_to_hex
from quaymoor.rules.game import Game
from quaymoor.rules.record import GameRecord, RecordedAction
from quaymoor.rules.verify import verify_record
from quaymoor.tools.selfplay import game_seed, play_random

SEED = game_seed(2024, 0)
OTHER_SEED = game_seed(2024, 1)


@cache
def finished(players: int = 3, client_seeds: tuple[str, ...] = ()) -> Game:
    game = Game(players, SEED, client_seeds, events=False)
    play_random(game, SplitMix64(99))
    assert game.is_over()
    return game


def record(players: int = 3, client_seeds: tuple[str, ...] = ()) -> GameRecord:
    return finished(players, client_seeds).record()


def as_dict(rec: GameRecord) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(rec.to_json())
    return data


def edited(rec: GameRecord, edit: Callable[[dict[str, Any]], object]) -> GameRecord:
    data = as_dict(rec)
    edit(data)
    return GameRecord.from_json(json.dumps(data))


def refused(rec: GameRecord) -> str:
    verdict = verify_record(rec)
    assert not verdict.ok, f"tampered record verified: {verdict.message}"
    assert verdict.message
    return verdict.message


ALL_ACTIONS: list[a.Action] = [
    *a.PICK, *a.TAKE_PLOT, a.TAKE_STONE_PIT, a.DRAW_PLOT, *a.PLACE_ON_PLOT,
    *a.PLACE_ON_BUILDING, *a.TAKE_BACK_FROM_PLOT, *a.TAKE_BACK_FROM_BUILDING, *a.BUILD,
    *a.TAKE_EXTRA_GOOD, *a.SELL, *(x for row in a.LOAD for x in row), *a.SHIP_ON_BOATYARD,
    *a.STORE_GOODS, *a.KEEP_GOOD, a.DONE, a.PASS,
]


# --------------------------------------------------------------------------- faithful


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_a_faithful_record_verifies(players: int) -> None:
    rec = record(players)
    verdict = verify_record(rec)
    assert verdict.ok, verdict.message
    assert verdict.message.startswith("ok: fingerprint matches")
    assert f"{len(rec.actions)} actions replayed" in verdict.message
    totals = ", ".join(str(x.total) for x in rec.result.scores) if rec.result else "?"
    assert f"scores {totals}" in verdict.message


def test_record_holds_what_a_player_checks() -> None:
    game = finished()
    rec = game.record()
    assert rec.algorithm == ALGORITHM_1  # a game with no deal: quaymoor-fair-1, format 3
    assert rec.format == 3
    assert rec.players == 3
    assert rec.seed == seed_to_hex(SEED)
    assert rec.fingerprint == fingerprint(SEED) == game.fingerprint
    assert len(rec.seats) == 3
    assert len(rec.actions) == game.version
    assert rec.result is not None
    assert [x.total for x in rec.result.scores] == [x.total for x in game.scores()]
    assert rec.result.reasons == game.state.end_reasons


def test_record_round_trips_through_json() -> None:
    rec = record(4, ("alice", "bob"))
    assert GameRecord.from_json(rec.to_json()) == rec
    assert verify_record(GameRecord.from_json(rec.to_json())).ok


def test_an_unfinished_record_verifies_as_unfinished() -> None:
    rec = record()
    part = attrs.evolve(rec, actions=rec.actions[:40], result=None)
    verdict = verify_record(part)
    assert verdict.ok, verdict.message
    assert "40 actions replayed" in verdict.message
    assert "not finished" in verdict.message


# --------------------------------------------------------------------------- tampering


def test_changed_seed_is_a_fingerprint_mismatch() -> None:
    rec = attrs.evolve(record(), seed=seed_to_hex(OTHER_SEED))
    message = refused(rec)
    assert "fingerprint mismatch" in message
    assert fingerprint(OTHER_SEED) in message


def test_changed_fingerprint_is_a_fingerprint_mismatch() -> None:
    rec = record()
    fake = fingerprint(OTHER_SEED)
    message = refused(attrs.evolve(rec, fingerprint=fake))
    assert "fingerprint mismatch" in message
    assert fake in message


def test_seed_and_fingerprint_changed_together_fail_on_replay_or_result() -> None:
    rec = attrs.evolve(record(), seed=seed_to_hex(OTHER_SEED), fingerprint=fingerprint(OTHER_SEED))
    message = refused(rec)
    assert "fingerprint" not in message


def test_a_seed_that_is_not_hex_is_refused() -> None:
    message = refused(attrs.evolve(record(), seed="zz" * 32))
    assert message.startswith("seed:")


def _illegal_at(rec: GameRecord, index: int) -> RecordedAction:
    """A replacement for action ``index`` that is not legal at that point."""
    game = Game(rec.players, bytes.fromhex(rec.seed), rec.client_seeds, events=False)
    for step in rec.actions[:index]:
        game.apply(step.seat, step.action)
    seat = rec.actions[index].seat
    allowed = {*game.legal_actions(seat), *game.takeback_actions(seat)}
    for action in ALL_ACTIONS:
        if action not in allowed:
            return RecordedAction(seat, action)
    raise AssertionError("every action is legal")


@pytest.mark.parametrize("index", [0, 1, 57, 150, -1])
def test_an_illegal_action_is_named_by_its_number(index: int) -> None:
    rec = record()
    i = index % len(rec.actions)
    actions = list(rec.actions)
    actions[i] = _illegal_at(rec, i)
    message = refused(attrs.evolve(rec, actions=actions))
    assert message.startswith(f"action {i + 1} (seat {actions[i].seat}, "), message
    assert type(actions[i].action).__name__ in message


def test_an_action_by_the_wrong_seat_is_named_by_its_number() -> None:
    rec = record()
    game = Game(rec.players, SEED, events=False)
    for i, step in enumerate(rec.actions):
        waiting = game.deciding()
        if i >= 10 and len(waiting) == 1:
            break
        game.apply(step.seat, step.action)
    wrong = (waiting[0] + 1) % rec.players
    actions = list(rec.actions)
    actions[i] = RecordedAction(wrong, actions[i].action)
    message = refused(attrs.evolve(rec, actions=actions))
    assert message.startswith(f"action {i + 1} (seat {wrong}, ")
    assert "not your decision" in message


@pytest.mark.parametrize("bad_seat", [-8, -7, -5, -1, 3, 8, 11])
def test_an_action_by_a_seat_not_at_the_table_is_refused(bad_seat: int) -> None:
    # Each action repeated right after itself by a seat that is not at the table.
    rec = record()
    for i in range(0, 30):
        actions = [*rec.actions[: i + 1], RecordedAction(bad_seat, rec.actions[i].action),
                   *rec.actions[i + 1:]]
        message = refused(attrs.evolve(rec, actions=actions))
        assert message.startswith(f"action {i + 2} (seat {bad_seat}, "), message


@pytest.mark.parametrize("seat", [0, 1, 2])
def test_a_changed_score_names_the_seat(seat: int) -> None:
    def bump(data: dict[str, Any]) -> None:
        data["result"]["scores"][seat]["total"] += 1

    message = refused(edited(record(), bump))
    assert message.startswith(f"seat {seat}: ")
    assert "replay scores total" in message


def test_changed_seals_in_the_result_names_the_seat() -> None:
    def bump(data: dict[str, Any]) -> None:
        data["result"]["scores"][1]["seals"] -= 2

    assert refused(edited(record(), bump)).startswith("seat 1: ")


def test_changed_winners_are_refused() -> None:
    rec = record()
    assert rec.result is not None
    losers = [x for x in range(rec.players) if x not in rec.result.winners]
    result = attrs.evolve(rec.result, winners=losers)
    message = refused(attrs.evolve(rec, result=result))
    assert "result differs" in message


def test_changed_end_reasons_are_refused() -> None:
    rec = record()
    assert rec.result is not None
    result = attrs.evolve(rec.result, reasons=["high_street", *rec.result.reasons])
    assert "result differs" in refused(attrs.evolve(rec, result=result))


def test_a_client_seed_added_is_refused() -> None:
    rec = record()
    refused(attrs.evolve(rec, client_seeds=["mallory"]))


def test_a_client_seed_changed_is_refused() -> None:
    rec = record(3, ("alice", "bob"))
    assert verify_record(rec).ok
    refused(attrs.evolve(rec, client_seeds=["alice", "bod"]))
    refused(attrs.evolve(rec, client_seeds=["bob", "alice"]))
    refused(attrs.evolve(rec, client_seeds=["alice"]))


# ------------------------------------------------ the seat binding (seat_seeds, format 3)


def test_a_record_binds_its_seeds_to_seats_and_its_bots_hold_none() -> None:
    rec = record(3, ("alice", "bob"))
    assert rec.format == 3
    assert rec.seat_seeds == ["alice", "bob", None]
    assert [s.bot for s in rec.seats] == [False, False, True]
    alone = record(3)
    assert alone.seat_seeds == [None, None, None]
    assert all(s.bot for s in alone.seats)
    assert verify_record(alone).ok


@pytest.mark.parametrize("strip", ["null", "missing"])
def test_a_stripped_seat_binding_is_refused(strip: str) -> None:
    for rec in (record(3, ("alice", "bob")), record(3)):
        def edit(d: dict[str, Any]) -> None:
            if strip == "null":
                d["seat_seeds"] = None
            else:
                del d["seat_seeds"]
        message = refused(edited(rec, edit))
        assert message.startswith("seat_seeds: a format-3 record binds every client seed")
        assert "the binding was stripped" in message


def test_a_bot_holding_a_seed_is_refused() -> None:
    rec = record(3, ("alice",))
    seats = [attrs.evolve(rec.seats[0], bot=True), *rec.seats[1:]]
    message = refused(attrs.evolve(rec, seats=seats))
    assert message == ("seat_seeds: seat 0 (Seat 1) is a bot, and bots hold no seed, but "
                       "the record gives it 'alice'")


def test_a_persons_seed_moved_to_a_bots_seat_is_refused() -> None:
    """The key is the same (the seeds keep their order), so only the bot check sees it."""
    rec = record(3, ("alice", "bob"))
    moved = edited(rec, lambda d: d.__setitem__("seat_seeds", ["alice", None, "bob"]))
    assert [s for s in moved.seat_seeds or [] if s is not None] == moved.client_seeds
    message = refused(moved)
    assert "seat 2 (Seat 3) is a bot, and bots hold no seed" in message
    assert "'bob'" in message


def test_a_seat_binding_in_an_older_format_is_refused() -> None:
    rec = record(3, ("alice",))
    assert "a format-2 record has none" in refused(attrs.evolve(rec, format=2))
    assert verify_record(attrs.evolve(rec, format=2, seat_seeds=None)).ok


def test_an_unknown_algorithm_is_refused() -> None:
    message = refused(attrs.evolve(record(), algorithm="quaymoor-fair-0"))
    assert message.startswith("algorithm: a format-3 record is played with quaymoor-fair-1")
    assert "quaymoor-fair-0" in message


def test_missing_result_is_refused() -> None:
    assert "no result" in refused(attrs.evolve(record(), result=None))


def test_result_without_the_end_is_refused() -> None:
    rec = record()
    message = refused(attrs.evolve(rec, actions=rec.actions[:-1]))
    assert "end before the game does" in message


def test_an_action_after_the_end_is_refused() -> None:
    rec = record()
    actions = [*rec.actions, rec.actions[-1]]
    message = refused(attrs.evolve(rec, actions=actions))
    assert message.startswith(f"action {len(actions)}: the game was already over")


def test_seats_not_matching_players_are_refused() -> None:
    rec = record()
    assert "2 seats listed for 3 players" in refused(attrs.evolve(rec, seats=rec.seats[:2]))


@pytest.mark.parametrize("players", [1, 6])
def test_an_impossible_player_count_is_refused(players: int) -> None:
    rec = record()
    seats = [rec.seats[0]] * players
    message = refused(attrs.evolve(rec, players=players, seats=seats))
    assert message.startswith("setup:")


# --------------------------------------------------------------------------- from_json


def _bad_json(edit: Callable[[dict[str, Any]], object]) -> str:
    data = as_dict(record())
    edit(data)
    text = json.dumps(data)
    with pytest.raises(ValueError) as info:
        GameRecord.from_json(text)
    return str(info.value)


def test_from_json_rejects_text_that_is_not_json() -> None:
    for text in ["", "{", "{'format': 1}", "not json", '{"format": 1,}']:
        with pytest.raises(ValueError, match=r"^not JSON"):
            GameRecord.from_json(text)


@pytest.mark.parametrize("text", ["[]", "3", '"record"', "null", "[1, 2]"])
def test_from_json_rejects_a_document_that_is_not_an_object(text: str) -> None:
    with pytest.raises(ValueError) as info:
        GameRecord.from_json(text)
    kind = type(json.loads(text)).__name__
    assert str(info.value) == f"not a game record: expected a JSON object, got {kind}"


@pytest.mark.parametrize(
    ("edit", "where"),
    [
        (lambda d: d.__setitem__("players", "3"), "$.players"),
        (lambda d: d.__setitem__("players", 3.0), "$.players"),
        (lambda d: d.__setitem__("format", True), "$.format"),
        (lambda d: d.__setitem__("seed", 7), "$.seed"),
        (lambda d: d.pop("fingerprint"), "$.fingerprint"),
        (lambda d: d.__setitem__("seats", {}), "$.seats"),
        (lambda d: d.__setitem__("seats", "Seat 1"), "$.seats"),
        (lambda d: d.__setitem__("client_seeds", "abc"), "$.client_seeds"),
        (lambda d: d.__setitem__("client_seeds", {"a": 1}), "$.client_seeds"),
        (lambda d: d.__setitem__("client_seeds", [1]), "$.client_seeds[0]"),
        (lambda d: d.__setitem__("actions", None), "$.actions"),
        (lambda d: d.__setitem__("actions", "pass"), "$.actions"),
        (lambda d: d["seats"][1].__setitem__("bot", "yes"), "$.seats[1].bot"),
        (lambda d: d["seats"][1].__setitem__("bot", 1), "$.seats[1].bot"),
        (lambda d: d["actions"][2].__setitem__("seat", "1"), "$.actions[2].seat"),
        (lambda d: d["actions"][2].__setitem__("seat", 1.5), "$.actions[2].seat"),
        (lambda d: d["actions"][2].__setitem__("at", "noon"), "$.actions[2].at"),
        (lambda d: d["actions"][3].__setitem__("action", 5), "$.actions[3].action"),
        (lambda d: d["actions"][3]["action"].__setitem__("extra", 1), "$.actions[3].action"),
        (lambda d: d["actions"][0]["action"].__setitem__("role", "king"),
         "$.actions[0].action.role"),
        (lambda d: d["result"]["scores"][1].__setitem__("total", "x"),
         "$.result.scores[1].total"),
        (lambda d: d["result"].__setitem__("winners", [0.5]), "$.result.winners[0]"),
        (lambda d: d["result"].__setitem__("reasons", "seals"), "$.result.reasons"),
        (lambda d: d.__setitem__("result", "x"), "$.result"),
    ],
)
def test_from_json_rejects_wrong_types_saying_where(
    edit: Callable[[dict[str, Any]], object], where: str
) -> None:
    message = _bad_json(edit)
    assert message.startswith("not a game record"), message
    assert where in message, message


def test_from_json_rejects_an_extra_key() -> None:
    message = _bad_json(lambda d: d.__setitem__("winner", 0))
    assert "extra fields found (winner)" in message


def test_from_json_names_an_unknown_action_type() -> None:
    message = _bad_json(lambda d: d["actions"][4]["action"].__setitem__("type", "cheat"))
    assert "$.actions[4].action" in message
    assert "cheat" in message, message


def test_an_unknown_record_format_is_refused() -> None:
    from quaymoor.bots.prng import SplitMix64
    from quaymoor.rules.game import Game
    from quaymoor.rules.verify import verify_record
    from quaymoor.tools.selfplay import play_random

    game = Game(2, bytes(32), events=False)
    play_random(game, SplitMix64(1))
    record = game.record()
    assert verify_record(record).ok
    verdict = verify_record(attrs.evolve(record, format=99))
    assert not verdict.ok and "format" in verdict.message

"""``quaymoor verify`` (``verify_record``) does not trust the record's list of turned-up
plots: the replay turns them up itself and any turn-up missing, added or changed in the
record is named; the seeds bound to seats must be the key's. The browser's verifier is
checked the same way in ``test_tampering`` and ``test_fairness_js``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs
import pytest

from quaymoor.rules.data import Good
from quaymoor.rules.record import LEGACY_FORMAT, READABLE_FORMATS, GameRecord, TurnedUp
from quaymoor.rules.verify import verify_record
from tests.fairness.conftest import GAMES, game_record

GAME = "a0a0a0a0a4"


def turned(record: GameRecord) -> list[TurnedUp]:
    assert record.turned_up is not None
    return list(record.turned_up)


def middle(record: GameRecord) -> int:
    """A Surveyor turn-up in the middle of the game (not the setup, not the last)."""
    listed = turned(record)
    return next(i for i in range(len(listed) // 2, len(listed)) if listed[i].source == "surveyor")


def truncate(record: GameRecord) -> tuple[GameRecord, str]:
    listed = turned(record)
    return attrs.evolve(record, turned_up=listed[:-3]), (
        f"plots turned up #{len(listed) - 2}: the replay turns up")


def drop(record: GameRecord) -> tuple[GameRecord, str]:
    listed = turned(record)
    k = middle(record)
    return attrs.evolve(record, turned_up=listed[:k] + listed[k + 1:]), (
        f"plots turned up #{k + 1}: the replay turns up")


def add(record: GameRecord) -> tuple[GameRecord, str]:
    listed = turned(record)
    k = middle(record)
    fake = TurnedUp(listed[k].step + 1, "farmstead", [Good.AMBER])
    return attrs.evolve(record, turned_up=[*listed[:k + 1], fake, *listed[k + 1:]]), (
        f"plots turned up #{k + 2}: the record shows [amber] (farmstead")


def alter(record: GameRecord) -> tuple[GameRecord, str]:
    listed = turned(record)
    k = middle(record)
    goods = list(reversed(listed[k].goods))
    if goods == listed[k].goods:
        goods = [Good.AMBER] * len(goods)
    listed[k] = attrs.evolve(listed[k], goods=goods)
    return attrs.evolve(record, turned_up=listed), f"plots turned up #{k + 1}: the replay gives"


def farmstead_dropped(record: GameRecord) -> tuple[GameRecord, str]:
    listed = turned(record)
    k = next(i for i, t in enumerate(listed) if t.source == "farmstead")
    return attrs.evolve(record, turned_up=listed[:k] + listed[k + 1:]), (
        f"plots turned up #{k + 1}: the replay turns up")


@pytest.mark.parametrize("game_id", list(GAMES))
def test_the_faithful_records_verify(game_id: str) -> None:
    record = game_record(game_id)
    assert record.format == LEGACY_FORMAT == 3 and max(READABLE_FORMATS) == 5  # old records
    verdict = verify_record(record)
    assert verdict.ok, verdict.message


@pytest.mark.parametrize("edit", [truncate, drop, add, alter, farmstead_dropped])
def test_every_turn_up_is_replayed_and_a_wrong_list_is_named(
    edit: Callable[[GameRecord], tuple[GameRecord, str]]
) -> None:
    tampered, named = edit(game_record(GAME))
    verdict = verify_record(tampered)
    assert not verdict.ok
    assert verdict.message.startswith(named), verdict.message
    if edit in (truncate, drop, farmstead_dropped):
        assert "missing from the record" in verdict.message
    if edit is add:
        assert "which the replay never turns up" in verdict.message


@pytest.mark.parametrize(("seat_seeds", "named"), [
    (["alice", None, "Bob \U0001f3b2", None], "client seeds: the seats gave"),  # moved
    (["alice", "Bob \U0001f3b2", "mallory", None], "client seeds: the seats gave"),  # added
    (["alice", "Bob \U0001f3b2", None], "seat_seeds: 3 listed for 4 seats"),
])
def test_the_seeds_bound_to_seats_must_be_the_keys(seat_seeds: list[Any], named: str) -> None:
    record = game_record(GAME)
    assert record.seat_seeds == ["alice", "Bob \U0001f3b2", None, None]
    changed = attrs.evolve(record, seat_seeds=seat_seeds)
    if seat_seeds[1] is None:  # only the binding moved: the key is the same
        assert [s for s in seat_seeds if s is not None] == record.client_seeds
        to_bot = attrs.evolve(changed, seat_seeds=["alice", None, None, "Bob \U0001f3b2"])
        verdict = verify_record(to_bot)  # same order, the same key: but seat 3 is a bot's
        assert not verdict.ok and "seat 3 (Player 4) is a bot, and bots hold no seed" in (
            verdict.message), verdict.message
        changed = attrs.evolve(changed, seat_seeds=["Bob \U0001f3b2", "alice", None, None])
    verdict = verify_record(changed)
    assert not verdict.ok and verdict.message.startswith(named), verdict.message


def test_older_formats_read_as_before() -> None:
    record = game_record(GAME)
    older = attrs.evolve(record, format=2, seat_seeds=None)
    assert verify_record(older).ok
    text = older.to_json()
    assert GameRecord.from_json(text).seat_seeds is None
    assert not verify_record(attrs.evolve(record, format=2)).ok  # format 2 binds no seeds

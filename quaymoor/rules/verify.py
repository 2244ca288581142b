"""Verify a game record: fingerprint, the client seeds' seats, replay of every action,
every plot turned up, final result.

The full check behind ``quaymoor verify``: it trusts nothing in the record but the rules.
The plots turned up are not read from the record: the replay turns them up itself (from
the seed, the client seeds and the actions) and the record's list must be exactly that
one, turn-up for turn-up; a missing, extra or changed turn-up is named.
"""

from __future__ import annotations

import attrs

from quaymoor.rules.errors import RulesError
from quaymoor.rules.fairness import (
    DealError,
    bot_names,
    fingerprint,
    seed_from_hex,
    table_fingerprint,
)
from quaymoor.rules.game import Game
from quaymoor.rules.record import (
    ALGORITHM_OF,
    DEALT_FORMATS,
    RECORD_FORMAT,
    EndReason,
    GameRecord,
    TurnedUp,
    removed_name,
    result_of,
)
from quaymoor.rules.views import FinalScore


@attrs.frozen
class Verdict:
    ok: bool
    message: str


def verify_record(record: GameRecord) -> Verdict:
    """Check a record: the algorithm, the fingerprint against the seed, the first Warden
    and the plots turned up (recomputed from the seed and client seeds), every action
    replayed through the rules, and the final result. Names the first discrepancy."""
    if record.format not in ALGORITHM_OF:
        return Verdict(False, f"unknown record format {record.format} (expected {RECORD_FORMAT})")
    algorithm = ALGORITHM_OF[record.format]
    if record.algorithm != algorithm:
        return Verdict(False, f"algorithm: a format-{record.format} record is played with "
                              f"{algorithm}, this one says {record.algorithm!r}")
    try:
        seed = seed_from_hex(record.seed)
    except ValueError as exc:
        return Verdict(False, f"seed: {exc}")
    if len(record.seats) != record.players:
        return Verdict(False, f"{len(record.seats)} seats listed for {record.players} players")
    mismatch = _check_fingerprint(record, seed)
    if mismatch is not None:
        return mismatch
    if record.format < 4:
        committed = [i for i, s in enumerate(record.seats) if s.commitment is not None]
        if committed:
            return Verdict(False, f"seats: a format-{record.format} record has no "
                                  f"commitments, this one gives seat {committed[0]} one")
    removed = _check_removed(record)
    if removed is not None:
        return removed
    try:
        game = Game.from_record(record, events=record.turned_up is not None)
    except DealError as exc:
        return Verdict(False, f"seats: {exc}")
    except (RulesError, ValueError) as exc:
        return Verdict(False, f"setup: {exc}")
    drawn = _check_draws(record, game)
    if drawn is not None:
        return drawn
    bound = _check_seat_seeds(record)  # after the draws: they name a changed client seed
    if bound is not None:
        return bound
    for i, step in enumerate(record.actions):
        if game.is_over():
            return Verdict(False, f"action {i + 1}: the game was already over")
        try:
            game.apply(step.seat, step.action)
        except RulesError as exc:
            return Verdict(False, f"action {i + 1} (seat {step.seat}, {step.action!r}): {exc}")
    if record.turned_up is not None and game.turned_up is not None:
        differs = _compare_turn_ups(game.turned_up, record.turned_up)
        if differs is not None:
            return differs
    if not game.is_over():
        if record.result is not None:
            return Verdict(False, "the actions end before the game does, but a result is given")
        if record.end_reason == EndReason.FINISHED:
            return Verdict(False, "end reason: the record says finished, but the actions end "
                                  "before the game does")
        why = f" (ended: {record.end_reason})" if record.end_reason else ""
        return Verdict(True, f"{len(record.actions)} actions replayed; "
                             f"the game was not finished{why}")
    if record.end_reason not in (None, EndReason.FINISHED):
        return Verdict(False, f"end reason: the record says {record.end_reason}, but the game "
                              "was played to its end")
    replayed = result_of(game.state)
    if record.result is None:
        return Verdict(False, "the game ends but the record has no result")
    for mine, theirs in zip(replayed.scores, record.result.scores, strict=False):
        if mine != theirs:
            return Verdict(False, f"seat {mine.seat}: replay scores {_show(mine)}, "
                                  f"the record says {_show(theirs)}")
    if replayed != record.result:
        return Verdict(False, f"result differs: replay gives {replayed}, record says "
                              f"{record.result}")
    totals = ", ".join(str(x.total) for x in replayed.scores)
    return Verdict(
        True,
        f"ok: fingerprint matches, {len(record.actions)} actions replayed, "
        f"scores {totals}, winners {replayed.winners}",
    )


def _check_fingerprint(record: GameRecord, seed: bytes) -> Verdict | None:
    """The fingerprint against the seed: SHA-256(seed) in formats 1-3; in format 4 the
    table's (``fairness.table_fingerprint``: the table's id and seats too), so a record
    moved to another table, or turned into an older format, no longer matches."""
    if record.format in DEALT_FORMATS:
        if not record.game:
            return Verdict(False, f"game: a format-{record.format} record names the table it "
                                  "was dealt at, and this one names none")
        try:
            mine = table_fingerprint(seed, record.game, record.players,
                                     ALGORITHM_OF[record.format])
        except DealError as exc:
            return Verdict(False, f"game: {exc}")
        what = (f"SHA-256 of the algorithm, table {record.game!r}, {record.players} seats "
                "and the seed")
    else:
        mine, what = fingerprint(seed), "SHA-256 of the seed"
    if mine != record.fingerprint:
        return Verdict(False, f"fingerprint mismatch: {what} is {mine}, the record says "
                              f"{record.fingerprint}")
    return None


def _show(sc: FinalScore) -> str:
    return (f"total {sc.total} (seals {sc.seals}, buildings {sc.building_points}, "
            f"bonuses {sc.bonuses}, coins+goods {sc.tiebreak})")


_KEY_HINT = ("the seed, or the table, its seats, commitments and client seeds, are not the "
             "ones this game was dealt with")


def _check_draws(record: GameRecord, game: Game) -> Verdict | None:
    """The draws the seed and client seeds give before any action, against what the record
    shows of them: the first Warden (format 1: the seat of the first action, always the
    Warden's pick) and the plots turned up at the setup."""
    derived = game.first_warden
    shown = record.first_warden
    if shown is None and record.actions:
        shown = record.actions[0].seat
    if shown is not None and shown != derived:
        return Verdict(False, f"first Warden: the seed and client seeds {record.client_seeds!r} "
                              f"give seat {derived}, the record shows seat {shown} ({_KEY_HINT})")
    if record.turned_up and game.turned_up:
        mine, theirs = game.turned_up[0], record.turned_up[0]
        if mine != theirs:
            return Verdict(False, f"plots turned up at the setup: the seed and client seeds "
                                  f"{record.client_seeds!r} give {_turn_up(mine)}, the record "
                                  f"shows {_turn_up(theirs)} ({_KEY_HINT})")
    return None


def _check_seat_seeds(record: GameRecord) -> Verdict | None:
    """Format 3: every record binds the client seeds to seats (``seat_seeds`` null or
    missing is a binding stripped, refused), one per seat; the non-null ones, in seat
    order, are exactly the key's client seeds; and a bot's seat holds none (bots hold no
    seed, so a person's seed moved to a bot's seat is caught even where the key stays
    the same)."""
    bound = record.seat_seeds
    if record.format == 4:  # the deal was checked where the game was dealt
        return _bots_named_by_the_rule(record) or _keyed_seeds(record, bound or [])
    if record.format in DEALT_FORMATS:  # format 5: the names are not in the key
        return _keyed_seeds(record, bound or [])
    if record.format < 3:
        if bound is not None:
            return Verdict(False, f"seat_seeds: a format-{record.format} record has none")
        return None
    if bound is None:
        return Verdict(False, "seat_seeds: a format-3 record binds every client seed to the "
                              "seat that gave it, and this one has no seat_seeds (null or "
                              "missing): the binding was stripped")
    if len(bound) != record.players:
        return Verdict(False, f"seat_seeds: {len(bound)} listed for {record.players} seats")
    keyed = _keyed_seeds(record, bound)
    if keyed is not None:
        return keyed
    for i, (seat, given) in enumerate(zip(record.seats, bound, strict=True)):
        if seat.bot and given is not None:
            return Verdict(False, f"seat_seeds: seat {i} ({seat.name}) is a bot, and bots "
                                  f"hold no seed, but the record gives it {given!r}")
    return None


def _check_removed(record: GameRecord) -> Verdict | None:
    """A seat's name is taken out (``removed``) only in format 5, only a person's, and its
    name is then exactly ``removed_name(seat)``."""
    for i, seat in enumerate(record.seats):
        if not seat.removed:
            continue
        if record.format != RECORD_FORMAT:
            return Verdict(False, f"seats: seat {i} says its name was removed, which only a "
                                  f"format-{RECORD_FORMAT} record can (this one is format "
                                  f"{record.format}, whose key binds the names)")
        if seat.bot:
            return Verdict(False, f"seats: seat {i} is a bot, and a bot's name is never "
                                  "removed")
        if seat.name != removed_name(i):
            return Verdict(False, f"seats: seat {i}'s name was removed, so it reads "
                                  f"{removed_name(i)!r}, not {seat.name!r}")
    return None


def _bots_named_by_the_rule(record: GameRecord) -> Verdict | None:
    """Format 4: each bot has the name the people's names give it (``fairness.bot_names``),
    so that nobody could have chosen bots' names to move the key."""
    expected = bot_names([None if s.bot else s.name for s in record.seats])
    for i, (seat, name) in enumerate(zip(record.seats, expected, strict=True)):
        if seat.bot and seat.name != name:
            return Verdict(False, f"seats: seat {i} is a bot named {seat.name!r}, but a bot "
                                  f"there is named {name!r} (bots take the first free names "
                                  "of the list, in seat order: docs/fairness.md)")
    return None


def _keyed_seeds(record: GameRecord, bound: list[str | None]) -> Verdict | None:
    """The record's ``client_seeds`` are exactly the seats' seeds in seat order."""
    keyed = [s for s in bound if s is not None]
    if keyed != record.client_seeds:
        return Verdict(False, f"client seeds: the seats gave {bound!r}, so the key is made "
                              f"from {keyed!r}, but the record's client_seeds are "
                              f"{record.client_seeds!r}")
    return None


def _compare_turn_ups(replayed: list[TurnedUp], shown: list[TurnedUp]) -> Verdict | None:
    """The record's turn-ups against the replay's, in order; names the first one missing
    from the record, added to it, or changed in it."""
    for k, (ours, theirs) in enumerate(zip(replayed, shown, strict=False)):
        if ours == theirs:
            continue
        if (ours.step, ours.source) != (theirs.step, theirs.source):
            if theirs in replayed[k + 1:]:
                return Verdict(False, f"plots turned up #{k + 1}: the replay turns up "
                                      f"{_turn_up(ours)}, missing from the record")
            return Verdict(False, f"plots turned up #{k + 1}: the record shows "
                                  f"{_turn_up(theirs)}, which the replay never turns up "
                                  f"(it turns up {_turn_up(ours)})")
        return Verdict(False, f"plots turned up #{k + 1}: the replay gives {_turn_up(ours)}, "
                              f"the record shows {_turn_up(theirs)}")
    if len(replayed) > len(shown):
        k = len(shown)
        return Verdict(False, f"plots turned up #{k + 1}: the replay turns up "
                              f"{_turn_up(replayed[k])}, missing from the record (it lists "
                              f"{len(shown)} turn-ups, the replay {len(replayed)})")
    if len(shown) > len(replayed):
        k = len(replayed)
        return Verdict(False, f"plots turned up #{k + 1}: the record shows "
                              f"{_turn_up(shown[k])}, which the replay never turns up (it "
                              f"lists {len(shown)} turn-ups, the replay {len(replayed)})")
    return None


def _turn_up(t: TurnedUp) -> str:
    goods = ", ".join(g.name.lower() for g in t.goods) or "nothing"
    return f"[{goods}] ({t.source}, after action {t.step})"

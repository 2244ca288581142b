"""Verify a game record: fingerprint, replay of every action, final result.

The full check behind ``quaymoor verify``: it trusts nothing in the record but the rules.
"""

from __future__ import annotations

import attrs

from quaymoor.rules.errors import RulesError
from quaymoor.rules.fairness import ALGORITHM, fingerprint, seed_from_hex
from quaymoor.rules.game import Game
from quaymoor.rules.record import RECORD_FORMAT, GameRecord, result_of
from quaymoor.rules.views import FinalScore


@attrs.frozen
class Verdict:
    ok: bool
    message: str


def verify_record(record: GameRecord) -> Verdict:
    """Check a record: the algorithm, the fingerprint against the seed, every action
    replayed through the rules, and the final result. Names the first discrepancy."""
    if record.format != RECORD_FORMAT:
        return Verdict(False, f"unknown record format {record.format} (expected {RECORD_FORMAT})")
    if record.algorithm != ALGORITHM:
        return Verdict(False, f"unknown algorithm {record.algorithm!r} (expected {ALGORITHM})")
    try:
        seed = seed_from_hex(record.seed)
    except ValueError as exc:
        return Verdict(False, f"seed: {exc}")
    if fingerprint(seed) != record.fingerprint:
        return Verdict(
            False,
            f"fingerprint mismatch: SHA-256 of the seed is {fingerprint(seed)}, "
            f"the record says {record.fingerprint}",
        )
    if len(record.seats) != record.players:
        return Verdict(False, f"{len(record.seats)} seats listed for {record.players} players")
    try:
        game = Game(record.players, seed, record.client_seeds, events=False)
    except (RulesError, ValueError) as exc:
        return Verdict(False, f"setup: {exc}")
    for i, step in enumerate(record.actions):
        if game.is_over():
            return Verdict(False, f"action {i + 1}: the game was already over")
        try:
            game.apply(step.seat, step.action)
        except RulesError as exc:
            return Verdict(False, f"action {i + 1} (seat {step.seat}, {step.action!r}): {exc}")
    if not game.is_over():
        if record.result is not None:
            return Verdict(False, "the actions end before the game does, but a result is given")
        return Verdict(True, f"{len(record.actions)} actions replayed; the game was not finished")
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


def _show(sc: FinalScore) -> str:
    return (f"total {sc.total} (seals {sc.seals}, buildings {sc.building_points}, "
            f"bonuses {sc.bonuses}, coins+goods {sc.tiebreak})")

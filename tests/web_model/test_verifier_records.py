"""The verify page's checks (``web/verifier.js``, under node) on records the Python engine
wrote: format 5 (``quaymoor-fair-3``, every table's game) and format 4 (a game dealt with
``quaymoor-fair-2``): games dealt from a deal with people who revealed, people who withheld
and bots, played to their end with random legal moves, and the same games ended early. A
finished game's record passes every check and fails one with its last turn-up left out
(docs/fairness.md: a game played to its end lists every turn-up, the last Surveyor
phase's too: the rules turn it up before the game can end); a game ended early passes
with or without the turn-up of a Surveyor phase it ended in or right after. A format-5
record whose person's name was removed (an account deleted: ``removed_name``, ``removed``)
still passes every check, in the page as in ``quaymoor verify``; the same edit to a
format-4 record fails both."""

from __future__ import annotations

import json
import shutil
import subprocess
from functools import cache
from pathlib import Path
from typing import Any

import attrs
import pytest

from quaymoor.bots.prng import SplitMix64
from quaymoor.rules import engine
from quaymoor.rules.actions import PickRole
from quaymoor.rules.data import Role
from quaymoor.rules.fairness import (
    ALGORITHM,
    ALGORITHM_2,
    Deal,
    DealtSeat,
    bot_names,
    seed_commitment,
)
from quaymoor.rules.game import Game
from quaymoor.rules.record import GameRecord, removed_name
from quaymoor.rules.state import Phase
from quaymoor.rules.verify import verify_record
from quaymoor.tools.selfplay import game_seed, play_random

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
GAMES = 24


def deal(table: str, players: int, i: int) -> Deal:
    """Seat 0 a person who revealed; seat 1 (by turns) a person who withheld or a bot;
    the others bots."""
    people: list[str | None] = ["Ada", "Bede" if i % 2 else None, *[None] * (players - 2)]
    named = bot_names(people)  # the bots' names, fixed by the people's
    seats = [DealtSeat("Ada", False, seed_commitment(table, 0, f"ada {i}"), f"ada {i}")]
    if i % 2:
        seats.append(DealtSeat("Bede", False, seed_commitment(table, 1, f"bede {i}"), None))
    seats += [DealtSeat(str(named[k]), True) for k in range(len(seats), players)]
    return Deal(table, tuple(seats))


def surveyor_at_end(game: Game) -> bool:
    """The last role picked is the Surveyor's (the last turn-up is that phase's)."""
    picks = [s.action for s in game.history if isinstance(s.action, PickRole)]
    return bool(picks) and picks[-1].role is Role.SURVEYOR


@cache
def records(algorithm: str) -> tuple[list[dict[str, Any]], list[dict[str, Any]], int]:
    """Whole games dealt with ``algorithm``, and the same games cut right after a Surveyor
    turn-up; how many whole games ended in a Surveyor phase. (Made once: read, not changed.)"""
    whole: list[dict[str, Any]] = []
    early: list[dict[str, Any]] = []
    last_surveyor = 0
    for i in range(GAMES * 40):
        players = 2 + i % 4
        table = f"{i:010x}"
        game = Game(players, game_seed(424, i), deal=deal(table, players, i), events=True,
                    algorithm=algorithm)
        play_random(game, SplitMix64(i))
        ends_surveying = surveyor_at_end(game)
        if len(whole) >= GAMES and not ends_surveying:
            continue
        last_surveyor += ends_surveying
        whole.append(json.loads(game.record(end_reason="finished").to_json()))
        # the same deal, ended early right after a Surveyor phase's turn-up
        cut = Game(players, game_seed(424, i), deal=deal(table, players, i), events=True,
                   algorithm=algorithm)
        for step in game.history:
            cut.apply(step.seat, step.action)
            if cut.state.phase is Phase.PICK_ROLE and surveyed(cut) and len(cut.history) > 40:
                break
        assert not engine.is_over(cut.state)
        early.append(json.loads(cut.record(end_reason="shutdown").to_json()))
        if len(whole) >= GAMES and last_surveyor >= 6:
            break
    return whole, early, last_surveyor


def surveyed(game: Game) -> bool:
    """The last action ended a Surveyor phase (its turn-up is the game's last)."""
    turned = game.turned_up or []
    return bool(turned) and turned[-1].step == len(game.history) and turned[-1].source == "surveyor"


def check(tmp_path: Path, listed: list[dict[str, Any]]) -> list[dict[str, Any]]:
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    path = tmp_path / "records.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in listed))
    run = subprocess.run([node, str(HERE / "check_records.mjs"), str(path)], cwd=ROOT,
                         capture_output=True, text=True, timeout=120, check=False)
    assert run.returncode == 0, run.stderr[-2000:]
    out: list[dict[str, Any]] = json.loads(run.stdout)
    return out


@pytest.mark.parametrize(("algorithm", "format_"), [(ALGORITHM, 5), (ALGORITHM_2, 4)])
def test_engine_records_pass_and_a_finished_games_last_turn_up_may_not_be_missing(
    tmp_path: Path, algorithm: str, format_: int,
) -> None:
    whole, early, last_surveyor = records(algorithm)
    assert last_surveyor >= 6, "too few games ended in a Surveyor phase"
    assert all(r["format"] == format_ and r["algorithm"] == algorithm for r in whole)
    assert any(r["seat_seeds"][1] is None and r["seats"][1]["commitment"] for r in whole)
    for r, seen in zip(whole, check(tmp_path, whole), strict=True):
        assert seen["failed"] == [], (r["game"], seen)
        assert "turn-ups" in seen["cut"], (r["game"], seen)  # finished: nothing may be missing
    for r, seen in zip(early, check(tmp_path, early), strict=True):
        assert seen["failed"] == [], (r["game"], seen)
        # ended right after a Surveyor phase: its turn-up may or may not have happened
        assert seen["cut"] == [], (r["game"], seen)


def removed(data: dict[str, Any], seat: int) -> dict[str, Any]:
    """The record as the server rewrites it when the player at ``seat`` deletes their
    account: the seat renamed ``removed_name(seat)`` and marked ``removed``."""
    record = GameRecord.from_json(json.dumps(data))
    seats = list(record.seats)
    seats[seat] = attrs.evolve(seats[seat], name=removed_name(seat), removed=True)
    out: dict[str, Any] = json.loads(attrs.evolve(record, seats=seats).to_json())
    return out


def test_a_removed_name_passes_in_format_5_and_fails_in_format_4(tmp_path: Path) -> None:
    fair3 = records(ALGORITHM)[0][:6]
    gone = [removed(r, 0) for r in fair3]  # seat 0: a person's, who revealed a seed
    assert all(r["seats"][0]["name"] == "Seat 1 (name removed)" and r["seats"][0]["removed"] is True
               for r in gone)
    # ``removed`` is written only when true
    assert all("removed" not in seat for r in fair3 for seat in r["seats"])
    for r, seen in zip(gone, check(tmp_path, gone), strict=True):
        assert seen["failed"] == [], (r["game"], seen)
        assert verify_record(GameRecord.from_json(json.dumps(r))).ok, r["game"]
    fair2 = [removed(r, 0) for r in records(ALGORITHM_2)[0][:6]]
    for r, seen in zip(fair2, check(tmp_path, fair2), strict=True):
        assert "names-removed" in seen["failed"], (r["game"], seen)
        assert not verify_record(GameRecord.from_json(json.dumps(r))).ok, r["game"]

"""The post-game analysis over HTTP, with the whole server in this process: the first ask
starts it (202 with progress), it ends with every scored decision and each player's
figures, it is kept with the archive (a restarted server answers at once, computing
nothing), a claim left by a killed process is taken over, and a running or unknown game
is a 404 like any other."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import trio

from quaymoor.actors.supervisor import Supervisor
from quaymoor.bots.analysis import analysed_seats, decision_points
from quaymoor.store.analyses import STALE_SECONDS
from quaymoor.store.archive import Archive
from tests.actors.test_end_to_end import http
from tests.fairness.conftest import game_record
from tests.http.test_games_http import WAITING, serving

GAME = "a0a0a0a0a5"
ITERATIONS = 6


async def _until_done(port: int, supervisor: Supervisor) -> tuple[list[int], dict[str, Any]]:
    """Ask until the analysis is done: the statuses seen and the analysis."""
    supervisor.analyst.iterations = ITERATIONS
    seen = []
    while True:
        got = await http(port, "GET", f"/api/games/{GAME}/analysis")
        seen.append(got.status)
        if got.status != 202:
            return seen, got.body
        assert got.body["status"] == "running"
        assert 0 <= got.body["done"] <= got.body["total"]
        assert "ask again" in got.body["message"]
        await trio.sleep(0.2)


async def test_an_analysis_is_started_by_asking_and_kept(tmp_path: Path) -> None:
    path = tmp_path / "a.sqlite3"
    record = game_record(GAME)
    Archive(path).submit(GAME, record)  # no writer running: written at once
    points = decision_points(record)
    with trio.fail_after(120):
        async with serving(WAITING, path) as (port, supervisor):
            seen, body = await _until_done(port, supervisor)
            assert seen[0] == 202 and seen[-1] == 200
            assert body["status"] == "done" and body["id"] == GAME
            assert body["iterations"] == ITERATIONS
            assert [d["step"] for d in body["decisions"]] == [p.step for p in points]
            assert [p["seat"] for p in body["players"]] == analysed_seats(record)
            for player in body["players"]:
                mine = [d for d in body["decisions"] if d["seat"] == player["seat"]]
                assert player["decisions"] == len(mine)
                assert abs(player["points_lost"] - sum(d["loss"] for d in mine)) < 0.05
                assert 0 <= player["accuracy"] <= 100
                losses = [m["loss"] for m in player["mistakes"]]
                assert losses == sorted(losses, reverse=True) and len(losses) <= 3
                for m in player["mistakes"]:
                    assert m["loss"] >= body["mistake_from"] and m["better"] != m["chosen"]
                    assert m["better_words"].lower() in m["why"].lower()
            for d in body["decisions"]:
                assert d["loss"] >= 0
                assert d["chosen"] != d["best"] or d["loss"] == 0
                assert abs(d["loss"] - max(0.0, d["best_value"] - d["chosen_value"])) < 0.02
                assert record.actions[d["step"]].seat == d["seat"]
            again = await http(port, "GET", f"/api/games/{GAME}/analysis")
            assert again.status == 200 and again.body == body
            assert supervisor.analyst.completed == 1

            missing = await http(port, "GET", "/api/games/0123456789/analysis")
            assert (missing.status, missing.body["error"]["code"]) == (404, "unknown_game")
            refused = await http(port, "POST", f"/api/games/{GAME}/analysis", {})
            assert refused.status == 405
        # a new process over the same archive serves it at once, computing nothing
        async with serving(WAITING, path) as (port, supervisor):
            kept = await http(port, "GET", f"/api/games/{GAME}/analysis")
            assert kept.status == 200 and kept.body == body
            assert supervisor.analyst.completed == 0 and not supervisor.analyst.jobs


async def test_a_claim_left_by_a_killed_process_is_taken_over(tmp_path: Path) -> None:
    path = tmp_path / "a.sqlite3"
    archive = Archive(path)
    archive.submit(GAME, game_record(GAME))
    # another process claimed it, scored 3 decisions and died: no progress since
    assert archive.analyses.claim_analysis(GAME, 40, "dead-1", time.time() - 10)
    archive.analyses.analysis_progress(GAME, "dead-1", 3, time.time() - 10)
    with trio.fail_after(120):
        async with serving(WAITING, path) as (port, supervisor):
            supervisor.analyst.iterations = ITERATIONS
            fresh = await http(port, "GET", f"/api/games/{GAME}/analysis")
            # its claim is still fresh: this process only reports its progress
            assert fresh.status == 202 and fresh.body["done"] == 3
            assert not supervisor.analyst.jobs
            archive.analyses.analysis_progress(GAME, "dead-1", 3,
                                               time.time() - STALE_SECONDS - 1)
            seen, body = await _until_done(port, supervisor)
            assert seen[-1] == 200 and body["status"] == "done"
            assert supervisor.analyst.completed == 1

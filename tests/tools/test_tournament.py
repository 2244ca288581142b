"""``quaymoor tournament``: seats rotated, the JSON line, records that verify."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from quaymoor.rules.record import GameRecord
from quaymoor.rules.verify import verify_record
from quaymoor.tools.tournament import run, seat_bots, wilson

ROOT = Path(__file__).resolve().parents[2]
BOT_KEYS = {"name", "games", "wins", "win_rate", "ci95", "mean_score", "mean_decision_ms"}


def test_seats_rotate() -> None:
    bots = ["hard", "normal", "easy"]
    assert seat_bots(bots, 0) == bots
    assert seat_bots(bots, 1) == ["normal", "easy", "hard"]
    assert seat_bots(bots, 3) == bots


def test_wilson_interval() -> None:
    lo, hi = wilson(95, 100)
    assert 0.88 < lo < 0.9 and 0.97 < hi < 0.99
    assert wilson(0, 0) == (0.0, 1.0)
    assert wilson(10, 10)[1] == 1.0


def test_json_line_and_records(tmp_path: Path) -> None:
    out = io.StringIO()
    summary = run(3, 3, ["hard", "normal", "normal"], seed=4, budget=0.01,
                  record_dir=tmp_path, json_line=True, out=out)
    last = json.loads(out.getvalue().splitlines()[-1])
    assert last == summary
    assert set(last) == {"players", "games", "bots"}
    assert last["players"] == 3 and last["games"] == 3
    assert [b["name"] for b in last["bots"]] == ["hard", "normal"]
    for bot in last["bots"]:
        assert set(bot) == BOT_KEYS
        lo, hi = bot["ci95"]
        assert 0 <= lo <= bot["win_rate"] <= hi <= 1
    hard, normal = last["bots"]
    assert hard["games"] == 3 and normal["games"] == 6  # seats with the same bot pooled
    assert hard["wins"] + normal["wins"] >= 3  # a shared win counts for each winner
    records = sorted(tmp_path.glob("*.json"))
    assert len(records) == 3
    for path in records:
        verdict = verify_record(GameRecord.from_json(path.read_text()))
        assert verdict.ok, verdict.message


def test_a_run_played_in_parts_has_the_same_games(tmp_path: Path) -> None:
    whole, part = tmp_path / "whole", tmp_path / "part"
    bots = ["normal", "easy", "random"]
    run(3, 3, bots, seed=9, record_dir=whole, out=io.StringIO())
    out = io.StringIO()
    summary = run(3, 2, bots, seed=9, first=1, record_dir=part, out=out)
    assert "games 1 to 2" in out.getvalue().splitlines()[0]
    assert sorted(p.name for p in part.iterdir()) == ["game-9-1.json", "game-9-2.json"]
    for name in ("game-9-1.json", "game-9-2.json"):
        assert (part / name).read_text() == (whole / name).read_text()
    assert sum(b["games"] for b in summary["bots"]) == 6  # two games of three seats
    with pytest.raises(ValueError, match="first game"):
        run(3, 1, bots, first=-1, out=io.StringIO())


def test_bad_bot_lists_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown bot"):
        run(2, 1, ["normal", "genius"], out=io.StringIO())
    with pytest.raises(ValueError, match="need 3 bots"):
        run(3, 1, ["normal", "normal"], out=io.StringIO())


def test_command_line(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "quaymoor", "tournament", "--players", "2", "--games", "2",
         "--bots", "normal,random", "--seed", "3", "--json", "--record", str(tmp_path)],
        cwd=ROOT, capture_output=True, text=True, timeout=120, check=False,
    )
    assert done.returncode == 0, done.stderr
    last = json.loads(done.stdout.splitlines()[-1])
    assert [b["name"] for b in last["bots"]] == ["normal", "random"]
    assert last["bots"][0]["wins"] == 2
    verify = subprocess.run(
        [sys.executable, "-m", "quaymoor", "verify", str(tmp_path / "game-3-0.json")],
        cwd=ROOT, capture_output=True, text=True, timeout=120, check=False,
    )
    assert verify.returncode == 0, verify.stderr
    bad = subprocess.run(
        [sys.executable, "-m", "quaymoor", "tournament", "--players", "2", "--bots", "x,y"],
        cwd=ROOT, capture_output=True, text=True, timeout=120, check=False,
    )
    assert bad.returncode == 2 and "unknown bot" in bad.stderr

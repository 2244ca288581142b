"""The ``quaymoor`` console command, run as a user runs it: ``python -m quaymoor ...``."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from quaymoor.rules.record import GameRecord

ROOT = Path(__file__).resolve().parents[1]
KEYS = {"seed", "players", "rounds", "decisions", "end_reasons", "scores", "winners"}


def quaymoor(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "quaymoor", *map(str, args)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,  # a guard against a hang, not a timing assertion
        check=False,
    )


def lines(out: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in out.splitlines()]


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> tuple[subprocess.CompletedProcess[str], Path]:
    folder = tmp_path_factory.mktemp("records") / "new-folder"
    done = quaymoor("selfplay", "--players", "3", "--games", "3", "--seed", "41",
                    "--record", folder)
    assert done.returncode == 0, done.stderr
    return done, folder


def test_selfplay_prints_one_json_line_per_game(
    run: tuple[subprocess.CompletedProcess[str], Path],
) -> None:
    done, _ = run
    results = lines(done.stdout)
    assert len(results) == 3
    assert done.stderr == ""
    seeds = set()
    for result in results:
        assert set(result) == KEYS
        assert result["players"] == 3
        assert len(result["seed"]) == 64
        int(result["seed"], 16)
        seeds.add(result["seed"])
        assert result["rounds"] >= 1
        assert result["decisions"] > 0
        assert result["end_reasons"]
        assert set(result["end_reasons"]) <= {"seals", "apprentices", "high_street"}
        assert len(result["scores"]) == 3
        assert all(isinstance(x, int) for x in result["scores"])
        assert result["winners"]
        best = max(result["scores"])
        assert all(result["scores"][w] == best for w in result["winners"])
    assert len(seeds) == 3, "each game of a run has its own seed"


def test_selfplay_writes_a_record_per_game(
    run: tuple[subprocess.CompletedProcess[str], Path],
) -> None:
    done, folder = run
    files = sorted(folder.iterdir())
    assert [f.name for f in files] == [f"game-41-{i}.json" for i in range(3)]
    for path, result in zip(files, lines(done.stdout), strict=True):
        record = GameRecord.from_json(path.read_text())
        assert record.seed == result["seed"]
        assert record.players == 3
        assert len(record.actions) == result["decisions"]
        assert record.result is not None
        assert [x.total for x in record.result.scores] == result["scores"]
        assert record.result.winners == result["winners"]
        assert record.result.reasons == result["end_reasons"]


def test_selfplay_with_the_same_seed_prints_the_same(
    run: tuple[subprocess.CompletedProcess[str], Path],
) -> None:
    first, _ = run
    again = quaymoor("selfplay", "--players", "3", "--games", "3", "--seed", "41")
    assert again.returncode == 0, again.stderr
    assert again.stdout == first.stdout
    other = quaymoor("selfplay", "--players", "3", "--games", "3", "--seed", "42")
    assert other.returncode == 0, other.stderr
    assert lines(other.stdout) != lines(first.stdout)


@pytest.mark.parametrize("players", [2, 5])
def test_selfplay_one_game_finishes(players: int) -> None:
    done = quaymoor("selfplay", "--players", str(players), "--games", "1")
    assert done.returncode == 0, done.stderr
    (result,) = lines(done.stdout)
    assert result["players"] == players
    assert result["end_reasons"]


def test_verify_accepts_a_written_record(
    run: tuple[subprocess.CompletedProcess[str], Path],
) -> None:
    _, folder = run
    path = folder / "game-41-1.json"
    done = quaymoor("verify", path)
    assert done.returncode == 0, done.stderr
    out = done.stdout.splitlines()
    assert len(out) == 1
    assert out[0].startswith(f"{path}: ok: fingerprint matches")
    record = GameRecord.from_json(path.read_text())
    assert f"{len(record.actions)} actions replayed" in out[0]
    assert done.stderr == ""


def test_verify_checks_the_fingerprint_you_were_shown(
    run: tuple[subprocess.CompletedProcess[str], Path],
) -> None:
    """A self-play record is a table's (format 5, its id selfplay-S-G, every seat a bot's);
    ``--fingerprint`` holds it to the one the table showed."""
    _, folder = run
    path = folder / "game-41-1.json"
    record = GameRecord.from_json(path.read_text())
    assert (record.format, record.game) == (5, "selfplay-41-1")
    assert all(s.bot and s.commitment is None for s in record.seats)
    assert quaymoor("verify", path, "--fingerprint", record.fingerprint.upper()).returncode == 0
    shown = "f" * 64
    done = quaymoor("verify", path, "--fingerprint", shown)
    assert done.returncode == 1 and done.stdout == ""
    assert f"the table showed you {shown}, the record's is {record.fingerprint}" in done.stderr


def test_verify_names_a_changed_score(
    run: tuple[subprocess.CompletedProcess[str], Path], tmp_path: Path
) -> None:
    _, folder = run
    data = json.loads((folder / "game-41-0.json").read_text())
    data["result"]["scores"][2]["total"] += 3
    tampered = tmp_path / "tampered.json"
    tampered.write_text(json.dumps(data))
    done = quaymoor("verify", tampered)
    assert done.returncode != 0
    assert done.stdout == ""
    assert "seat 2:" in done.stderr
    assert "replay scores total" in done.stderr
    assert "ok:" not in done.stderr


def test_verify_names_a_changed_seed(
    run: tuple[subprocess.CompletedProcess[str], Path], tmp_path: Path
) -> None:
    _, folder = run
    data = json.loads((folder / "game-41-0.json").read_text())
    data["seed"] = "0" * 64
    tampered = tmp_path / "seed.json"
    tampered.write_text(json.dumps(data))
    done = quaymoor("verify", tampered)
    assert done.returncode != 0
    assert "fingerprint mismatch" in done.stderr


def test_verify_refuses_a_file_that_is_not_json(tmp_path: Path) -> None:
    path = tmp_path / "notes.json"
    path.write_text("this is not a record\n")
    done = quaymoor("verify", path)
    assert done.returncode != 0
    assert done.stdout == ""
    assert str(path) in done.stderr
    assert "not JSON" in done.stderr


def test_verify_refuses_json_that_is_not_a_record(tmp_path: Path) -> None:
    path = tmp_path / "list.json"
    path.write_text("[1, 2, 3]")
    done = quaymoor("verify", path)
    assert done.returncode != 0
    assert "not a game record" in done.stderr


def test_verify_refuses_a_missing_file(tmp_path: Path) -> None:
    done = quaymoor("verify", tmp_path / "nowhere.json")
    assert done.returncode != 0
    assert "nowhere.json" in done.stderr


@pytest.mark.parametrize("args", [["--players", "6"], ["--players", "1"], ["--games", "0"]])
def test_selfplay_refuses_bad_arguments(args: list[str]) -> None:
    done = quaymoor("selfplay", *args)
    assert done.returncode == 2
    assert done.stdout == ""
    assert "error" in done.stderr


def test_serve_on_a_trio_websocket_it_does_not_know_says_so_and_exits_2(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """No traceback for an operator: one line saying what is installed and what to do."""
    import importlib.metadata

    from quaymoor.cli import main

    real = importlib.metadata.version
    monkeypatch.setattr(importlib.metadata, "version",
                        lambda name: "0.13.0" if name == "trio-websocket" else real(name))
    assert main(["serve", "--port", "0", "--archive", str(tmp_path / "a.sqlite3")]) == 2
    said = capsys.readouterr().err
    assert said.startswith("quaymoor serve: trio-websocket 0.13.0 is installed")
    assert "Traceback" not in said and not (tmp_path / "a.sqlite3").exists()


def test_output_cut_short_by_its_reader_ends_quietly() -> None:
    """``quaymoor selfplay ... | head -1``: the first line reaches the reader, and when it
    goes away the command stops with 141 (128 + SIGPIPE, as a Unix tool) and no
    traceback."""
    with subprocess.Popen([sys.executable, "-m", "quaymoor", "selfplay", "--players", "2",
                           "--games", "400", "--seed", "7"], cwd=ROOT,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE) as proc:
        assert proc.stdout is not None and proc.stderr is not None
        first = proc.stdout.readline()
        proc.stdout.close()  # the reader goes, as `head -1` does
        err = proc.stderr.read()
        code = proc.wait(timeout=300)  # a guard against a hang, not a timing assertion
    assert set(json.loads(first)) == KEYS
    assert code == 141
    assert b"Traceback" not in err and b"BrokenPipe" not in err, err.decode()

"""A tampered record (the seed, one action, one score, a client seed) fails both verifiers,
each naming the right item: ``quaymoor verify`` (the full check, a subprocess as a user
runs it) and the verify page in the browser (a pasted record, checked against the game on
the server and the seed's draws recomputed in JavaScript). The faithful record passes both.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from quaymoor.rules.fairness import fingerprint
from tests.fairness.conftest import game_record
from tests.server_process import ROOT, Served

GAME = "a0a0a0a0a4"  #: four players, two client seeds


def record_data() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(game_record(GAME).to_json())
    return data


def change_seed(data: dict[str, Any]) -> None:
    data["seed"] = "5e" * 32


def change_action(data: dict[str, Any]) -> int:
    """Give a role pick (a decision only one seat can make) to another seat; returns the
    action's number."""
    for i, step in enumerate(data["actions"]):
        if i >= 20 and step["action"]["type"] == "pick_role":
            step["seat"] = (step["seat"] + 1) % data["players"]
            return i + 1
    raise AssertionError("no role pick after action 20")


def change_score(data: dict[str, Any]) -> None:
    """One more seal for seat 1, its total raised to match (so only a replay finds it)."""
    score = data["result"]["scores"][1]
    score["seals"] += 1
    score["total"] += 1


def change_client_seed(data: dict[str, Any]) -> None:
    data["client_seeds"][0] = data["client_seeds"][0] + "!"


def verify_cli(path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "quaymoor", "verify", str(path)], cwd=ROOT,
                          capture_output=True, text=True, timeout=120, check=False)


def test_the_cli_passes_the_faithful_record_and_names_each_tampering(tmp_path: Path) -> None:
    faithful = tmp_path / "faithful.json"
    faithful.write_text(json.dumps(record_data()))
    done = verify_cli(faithful)
    assert done.returncode == 0, done.stderr
    assert "ok: fingerprint matches" in done.stdout

    def tampered(edit: Callable[[dict[str, Any]], object], name: str) -> tuple[str, object]:
        data = record_data()
        extra = edit(data)
        path = tmp_path / f"{name}.json"
        path.write_text(json.dumps(data))
        done = verify_cli(path)
        assert done.returncode == 1, (name, done.stdout, done.stderr)
        assert done.stdout == ""
        return done.stderr, extra

    message, _ = tampered(change_seed, "seed")
    assert "fingerprint mismatch" in message
    assert fingerprint(bytes.fromhex("5e" * 32)) in message

    message, number = tampered(change_action, "action")
    assert f": action {number} (seat " in message
    assert "not your decision" in message

    message, _ = tampered(change_score, "score")
    assert ": seat 1: replay scores total" in message

    message, _ = tampered(change_client_seed, "client-seed")
    assert "the seed and client seeds" in message
    assert "not the ones this game was played with" in message


# ---------------------------------------------------------------- the browser page


def check_pasted(page: Any, server: Served, data: dict[str, Any]) -> list[tuple[str, str]]:
    page.goto(server.url + "/verify.html")
    page.locator("#paste summary").click()
    page.fill("#record-text", json.dumps(data))
    page.click("#check-record")
    page.wait_for_selector("#outcome[data-done]")
    rows: list[tuple[str, str]] = page.eval_on_selector_all(
        "#checks tbody tr", "rows => rows.map((r) => [r.dataset.check, r.dataset.status])")
    return rows


def failed(rows: list[tuple[str, str]]) -> list[str]:
    return [check for check, status in rows if status == "fail"]


def test_the_page_passes_the_faithful_record(page: Any, archived_server: Served) -> None:
    rows = check_pasted(page, archived_server, record_data())
    assert failed(rows) == []
    checks = dict(rows)
    for name in ("algorithm", "fingerprint", "client-seeds", "first-warden", "plots-1",
                 "actions", "scores"):
        assert checks[name] == "pass", name
    assert page.inner_text("#verdict").startswith("✔ All")


@pytest.mark.parametrize(("edit", "first"), [
    (change_seed, "fingerprint"),
    (change_action, "actions"),
    (change_score, "scores"),
    (change_client_seed, "client-seeds"),
])
def test_the_page_names_each_tampering(
    page: Any, archived_server: Served, edit: Callable[[dict[str, Any]], object], first: str
) -> None:
    data = record_data()
    extra = edit(data)
    rows = check_pasted(page, archived_server, data)
    bad = failed(rows)
    assert bad and bad[0] == first, rows
    assert page.locator("#verdict").get_attribute("data-first") == first
    assert "FAILED" in page.inner_text("#verdict")
    row = page.locator(f'#checks tr[data-check="{first}"]')
    text = row.inner_text()
    if first == "fingerprint":
        assert fingerprint(bytes.fromhex("5e" * 32)) in text  # the values side by side
        assert data["fingerprint"] in text
    elif first == "actions":
        assert f"action {extra}: this record says seat" in text
    elif first == "scores":
        assert "seat 1: this record says total" in text
    else:
        assert json.dumps(data["client_seeds"], separators=(",", ":"), ensure_ascii=False) in text
        assert set(bad) >= {"client-seeds", "first-warden"} or any(
            b.startswith("plots-") for b in bad)
    if first != "actions":
        assert dict(rows)["actions"] == "pass"

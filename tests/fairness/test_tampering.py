"""A tampered record (the seed, one action, one score, a client seed, the seeds' seats, the
list of plots turned up: truncated, one dropped, added or changed) fails both verifiers,
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


def change_seat_seed(data: dict[str, Any]) -> None:
    """Move seat 0's seed to seat 3: the key is not the seats' seeds in seat order."""
    data["seat_seeds"][0], data["seat_seeds"][3] = None, data["seat_seeds"][0]


def _surveyor_turn_up(data: dict[str, Any]) -> int:
    listed = data["turned_up"]
    return next(i for i in range(len(listed) // 2, len(listed))
                if listed[i]["source"] == "surveyor")


def truncate_turn_ups(data: dict[str, Any]) -> int:
    """Cut the last three turn-ups; returns the number of the first one missing."""
    data["turned_up"] = data["turned_up"][:-3]
    return len(data["turned_up"]) + 1


def drop_turn_up(data: dict[str, Any]) -> int:
    k = _surveyor_turn_up(data)
    del data["turned_up"][k]
    return k + 1


def add_turn_up(data: dict[str, Any]) -> int:
    k = _surveyor_turn_up(data)
    step = data["turned_up"][k]["step"] + 1
    data["turned_up"].insert(k + 1, {"step": step, "source": "farmstead", "goods": ["amber"]})
    return k + 2


def alter_turn_up(data: dict[str, Any]) -> int:
    k = _surveyor_turn_up(data)
    goods = data["turned_up"][k]["goods"]
    data["turned_up"][k]["goods"] = ["amber"] * len(goods) if set(goods) != {"amber"} else [
        "clay"] * len(goods)
    return k + 1


TURN_UP_EDITS = [truncate_turn_ups, drop_turn_up, add_turn_up, alter_turn_up]

TWO = "a0a0a0a0a2"  #: two players: "alice" at seat 0, a bot at seat 1


def strip_seat_seeds_null(data: dict[str, Any]) -> None:
    data["seat_seeds"] = None


def strip_seat_seeds_missing(data: dict[str, Any]) -> None:
    del data["seat_seeds"]


def seed_on_a_bot(data: dict[str, Any]) -> None:
    """Mark seat 0, which gave "alice", a bot's: the key and the draws stay the same."""
    data["seats"][0]["bot"] = True


def seed_moved_to_a_bot(data: dict[str, Any]) -> None:
    """The two-player game's "alice" moved from seat 0 (a person) to seat 1 (a bot): the
    key's client seeds are the same, so only "bots hold no seed" catches it."""
    assert data["seat_seeds"] == ["alice", None] and data["seats"][1]["bot"]
    data["seat_seeds"] = [None, "alice"]


#: (game, edit, what quaymoor verify says, what the page's seat-seeds row says)
SEAT_EDITS: list[tuple[str, Callable[[dict[str, Any]], None], str, str]] = [
    (GAME, strip_seat_seeds_null, "the binding was stripped", "the binding was stripped"),
    (GAME, strip_seat_seeds_missing, "the binding was stripped", "the binding was stripped"),
    (GAME, seed_on_a_bot, "seat 0 (Player 1) is a bot, and bots hold no seed",
     "Player 1 is a bot, and bots hold no seed"),
    (TWO, seed_moved_to_a_bot, "seat 1 (Player 2) is a bot, and bots hold no seed",
     "Player 2 is a bot, and bots hold no seed"),
]


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
    assert "are not the ones this game was dealt with" in message

    message, _ = tampered(change_seat_seed, "seat-seed")
    assert ": client seeds: the seats gave [None, " in message

    for edit in TURN_UP_EDITS:
        message, number = tampered(edit, edit.__name__)
        assert f": plots turned up #{number}: " in message, (edit.__name__, message)

    for game, seat_edit, words, _ in SEAT_EDITS:
        data = json.loads(game_record(game).to_json())
        seat_edit(data)
        path = tmp_path / f"{seat_edit.__name__}.json"
        path.write_text(json.dumps(data))
        done = verify_cli(path)
        assert done.returncode == 1, (seat_edit.__name__, done.stdout, done.stderr)
        assert ": seat_seeds: " in done.stderr and words in done.stderr, done.stderr


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
    for name in ("algorithm", "fingerprint", "client-seeds", "seat-seeds", "turn-ups",
                 "first-warden", "plots-1", "actions", "scores"):
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
    # names unlike "Player 2", so that the page is seen to name seats by their players
    names = ["Wren", "Ash", "Rowan", "Hazel"]
    for seat, name in zip(data["seats"], names, strict=True):
        seat["name"] = name
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
        assert isinstance(extra, int)  # change_action returns the action's number
        moved = names[data["actions"][extra - 1]["seat"]]
        assert f"action {extra}: this record says {moved}: " in text
    elif first == "scores":
        assert "Ash: this record says total" in text  # seat 1 by its player's name
    else:
        assert json.dumps(data["client_seeds"], separators=(",", ":"), ensure_ascii=False) in text
        assert set(bad) >= {"client-seeds", "first-warden"} or any(
            b.startswith("plots-") for b in bad)
    if first != "actions":
        assert dict(rows)["actions"] == "pass"


@pytest.mark.parametrize("edit", TURN_UP_EDITS)
def test_the_page_works_out_every_turn_up_and_names_a_wrong_list(
    page: Any, archived_server: Served, edit: Callable[[dict[str, Any]], int]
) -> None:
    """The game is on the server, but its replay is no help: the page works the turn-ups
    out from the seed and the record's actions, and names the one that is wrong."""
    data = record_data()
    number = edit(data)
    rows = check_pasted(page, archived_server, data)
    bad = failed(rows)
    expected_first = "client-seeds" if edit is alter_turn_up else "turn-ups"
    assert bad and bad[0] == expected_first, rows
    assert f"plots-{number}" in bad, rows
    assert "turn-ups" in bad and dict(rows)["actions"] == "pass"
    note = page.locator('#checks tr[data-check="turn-ups"]').inner_text()
    assert f"first #{number} " in note, note
    row = page.locator(f'#checks tr[data-check="plots-{number}"]').inner_text()
    if edit in (truncate_turn_ups, drop_turn_up):
        assert "missing from the list" in note and "not shown" in row
    elif edit is add_turn_up:
        assert "never turned up" in note and "no turn-up here" in row
    else:
        assert "the seed gives" in note


def test_the_page_names_a_seed_moved_to_another_seat(page: Any, archived_server: Served) -> None:
    data = record_data()
    change_seat_seed(data)
    rows = check_pasted(page, archived_server, data)
    assert failed(rows) == ["seat-seeds"], rows


@pytest.mark.parametrize(("game", "edit", "words"), [(g, e, w) for g, e, _, w in SEAT_EDITS],
                         ids=[e.__name__ for _, e, _, _ in SEAT_EDITS])
def test_the_page_refuses_a_stripped_or_moved_seat_binding(
    page: Any, archived_server: Served, game: str, edit: Callable[[dict[str, Any]], None],
    words: str,
) -> None:
    """Every draw still checks out (the key is the same): only the binding fails."""
    data = json.loads(game_record(game).to_json())
    assert failed(check_pasted(page, archived_server, data)) == []
    edit(data)
    rows = check_pasted(page, archived_server, data)
    assert failed(rows) == ["seat-seeds"], rows
    assert page.locator("#verdict").get_attribute("data-first") == "seat-seeds"
    row = page.locator('#checks tr[data-check="seat-seeds"]').inner_text()
    assert words in row, row


FORGED_RULES = {"setups": {str(n): {"players": n, "face_up_plots": 1, "plots": [1] * 5}
                           for n in range(2, 6)}}


def test_a_forged_api_rules_changes_nothing_the_page_computes(
    page: Any, archived_server: Served
) -> None:
    """A server that forges /api/rules (one plot face up) decides nothing: the page never
    asks for it, and every check and value is what it is with the true answer."""
    data = record_data()
    tampered = record_data()
    drop_turn_up(tampered)

    def checks(record: dict[str, Any]) -> list[list[str]]:
        check_pasted(page, archived_server, record)
        rows: list[list[str]] = page.eval_on_selector_all(
            "#checks tbody tr",
            "rows => rows.map((r) => [r.dataset.check, r.dataset.status, r.innerText])")
        return rows

    honest = [checks(data), checks(tampered)]
    asked: list[str] = []
    def forge(route: Any) -> None:
        asked.append(route.request.url)
        route.fulfill(status=200, content_type="application/json",
                      body=json.dumps(FORGED_RULES))

    page.route("**/api/rules*", forge)
    page.on("request", lambda r: asked.append(r.url) if "/api/rules" in r.url else None)
    forged = [checks(data), checks(tampered)]
    assert forged == honest
    assert asked == []
    assert failed([(c, s) for c, s, _ in honest[0]]) == []
    assert "turn-ups" in failed([(c, s) for c, s, _ in honest[1]])

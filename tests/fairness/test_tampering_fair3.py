"""A format-5 record (``quaymoor-fair-3``, what the server writes) before both verifiers,
``quaymoor verify`` (a subprocess, as a user runs it) and the verify page (the record
pasted, the checks in JavaScript). Every tamper with what the key binds is refused by
both: the binding stripped, the record downgraded or its format and algorithm mismatched
(format 5 labelled fair-2 too), two seats swapped, a seed moved to a bot's seat. What the
key does not bind, the names, may change: an account's deletion takes a name out ("Seat 1
(name removed)", ``removed``), and such a record passes both, while ``removed`` put on a
bot's seat or with another name is refused by both. Screenshot:
test-artifacts/screenshots/fair-verify-removed.png (the page on a record with a name
removed)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from quaymoor.rules.fairness import ALGORITHM
from tests.fairness.test_tampering import check_pasted, failed, verify_cli
from tests.fairness.test_tampering_fair2 import (
    dealt_record_data,
    downgrade,
    seed_to_a_bot,
    strip_commitment,
    strip_game,
    strip_seat_seeds,
    swap_seats,
)
from tests.server_process import Served
from tests.web.table_page import SHOTS

TABLE = "a0a0a0a0f5"  #: not in the archive: the page has no replay of its rules


def record_data() -> dict[str, Any]:
    return dealt_record_data(TABLE, 5050, ALGORITHM)


def labelled_fair2(data: dict[str, Any]) -> None:
    data["algorithm"] = "quaymoor-fair-2"


def removed_from_a_bot(data: dict[str, Any]) -> None:
    data["seats"][2].update(name="Seat 3 (name removed)", removed=True)


def removed_misnamed(data: dict[str, Any]) -> None:
    data["seats"][0]["removed"] = True  # still called Wren


def wren_removed(data: dict[str, Any]) -> None:
    """What deleting Wren's account does to the record."""
    data["seats"][0].update(name="Seat 1 (name removed)", removed=True)


def names_swapped(data: dict[str, Any]) -> None:
    data["seats"][0]["name"], data["seats"][1]["name"] = "Ash", "Wren"


def bot_renamed(data: dict[str, Any]) -> None:
    data["seats"][2]["name"] = "Bede (bot)"


Edit = Callable[[dict[str, Any]], None]
#: (edit, words quaymoor verify says (empty: the key's draws differ), the first check the
#: page fails)
REFUSED: list[tuple[Edit, str, str]] = [
    (strip_game, "leaves out game: the binding was stripped", "fingerprint"),
    (strip_commitment, "leaves out seats[1].commitment: the binding was stripped", "seats"),
    (strip_seat_seeds, "the binding was", "seats"),
    (downgrade, "fingerprint mismatch", "fingerprint"),
    (labelled_fair2, "a format-5 record is played with quaymoor-fair-3", "algorithm"),
    (swap_seats, "does not match its commitment", "seats"),
    (seed_to_a_bot, "is a bot, and bots hold no seed nor commitment", "seats"),
    (removed_from_a_bot, "seat 2 is a bot, and a bot's name is never removed",
     "names-removed"),
    (removed_misnamed, "seat 0's name was removed, so it reads 'Seat 1 (name removed)'",
     "names-removed"),
]
#: Names changed only: the key binds none, so both verifiers pass the record.
PASSED: list[Edit] = [wren_removed, names_swapped, bot_renamed]


def _write(tmp_path: Path, name: str, data: dict[str, Any]) -> Path:
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps(data))
    return path


def test_the_cli_refuses_each_tamper_and_passes_the_names_changed(tmp_path: Path) -> None:
    data = record_data()
    assert (data["format"], data["algorithm"]) == (5, ALGORITHM)
    done = verify_cli(_write(tmp_path, "faithful", data))
    assert done.returncode == 0 and "ok: fingerprint matches" in done.stdout, done.stderr
    faithful = done.stdout.split(": ", 1)[1]  # after the file's path
    for edit, words, _ in REFUSED:
        data = record_data()
        edit(data)
        done = verify_cli(_write(tmp_path, edit.__name__, data))
        assert done.returncode in (1, 2), (edit.__name__, done.stdout, done.stderr)
        assert words in done.stderr, (edit.__name__, done.stderr)
    for edit in PASSED:
        data = record_data()
        edit(data)
        done = verify_cli(_write(tmp_path, edit.__name__, data))
        assert done.returncode == 0, (edit.__name__, done.stderr)
        assert done.stdout.split(": ", 1)[1] == faithful, done.stdout


@pytest.mark.parametrize(("edit", "first"), [(e, f) for e, _, f in REFUSED],
                         ids=[e.__name__ for e, _, _ in REFUSED])
def test_the_page_refuses_each_tamper(page: Any, archived_server: Served, edit: Edit,
                                      first: str) -> None:
    data = record_data()
    edit(data)
    rows = check_pasted(page, archived_server, data)
    bad = failed(rows)
    assert bad and bad[0] == first, rows
    assert page.locator("#verdict").get_attribute("data-first") == first


@pytest.mark.parametrize("edit", PASSED, ids=[e.__name__ for e in PASSED])
def test_the_page_passes_a_record_whose_names_changed(page: Any, archived_server: Served,
                                                      edit: Edit) -> None:
    data = record_data()
    edit(data)
    rows = check_pasted(page, archived_server, data)
    assert failed(rows) == [], rows
    checks = dict(rows)
    for name in ("algorithm", "fingerprint", "seats", "client-seeds", "turn-ups",
                 "first-warden"):
        assert checks[name] == "pass", name
    if edit is wren_removed:
        assert checks["names-removed"] == "pass"
        assert "Seat 1 (name removed)" in page.inner_text("#checks")
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / "fair-verify-removed.png"), full_page=True)
    else:
        assert "names-removed" not in checks

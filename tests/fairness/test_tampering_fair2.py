"""A format-4 record (``quaymoor-fair-2``) tampered with is refused by both verifiers,
``quaymoor verify`` (a subprocess, as a user runs it) and the verify page (the record
pasted, the checks in JavaScript): the binding stripped (``game``, a seat's commitment,
``seat_seeds``), the record downgraded to format 3 or its format and algorithm mismatched,
two seats swapped, the seats' names swapped, a seed moved to a bot's seat, a bot renamed.
The faithful record passes both. Screenshot: test-artifacts/screenshots/fair-verify-tampered.png.

Format 4 is no longer what the server writes (format 5, ``quaymoor-fair-3``, whose key
binds no name: ``test_tampering_fair3``), but its records must go on verifying, and go on
being refused when tampered with."""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from quaymoor.bots.prng import SplitMix64
from quaymoor.rules.fairness import ALGORITHM_2, Deal, DealtSeat, seed_commitment
from quaymoor.rules.game import Game
from quaymoor.tools.selfplay import game_seed, play_random
from tests.fairness.test_tampering import check_pasted, failed, verify_cli
from tests.server_process import Served
from tests.web.table_page import SHOTS

TABLE = "a0a0a0a0f4"  #: not in the archive: the page has no replay of its rules


@cache
def dealt_record_text(table: str, seed: int, algorithm: str) -> str:
    """A finished three-seat game at ``table``, dealt with ``algorithm``: Wren revealed
    "wren's dice", Ash committed and did not reveal, a bot (named by the rule: Ada)."""
    deal = Deal(table, (
        DealtSeat("Wren", False, seed_commitment(table, 0, "wren's dice"), "wren's dice"),
        DealtSeat("Ash", False, seed_commitment(table, 1, "ash's dice"), None),
        DealtSeat("Ada (bot)", True),  # the bots' names are fixed by the people's
    ))
    game = Game(3, game_seed(seed, 0), deal=deal, events=True, algorithm=algorithm)
    play_random(game, SplitMix64(seed))
    return game.record(end_reason="finished", ended_at=1_800_000_000.0).to_json()


def dealt_record_data(table: str, seed: int, algorithm: str) -> dict[str, Any]:
    """``dealt_record_text`` as a fresh JSON object, to tamper with."""
    data: dict[str, Any] = json.loads(dealt_record_text(table, seed, algorithm))
    return data


def record_text() -> str:
    return dealt_record_text(TABLE, 4040, ALGORITHM_2)


def record_data() -> dict[str, Any]:
    return dealt_record_data(TABLE, 4040, ALGORITHM_2)


def strip_game(data: dict[str, Any]) -> None:
    del data["game"]


def strip_commitment(data: dict[str, Any]) -> None:
    del data["seats"][1]["commitment"]


def strip_seat_seeds(data: dict[str, Any]) -> None:
    data["seat_seeds"] = None


def downgrade(data: dict[str, Any]) -> None:
    data["format"], data["algorithm"] = 3, "quaymoor-fair-1"
    for seat in data["seats"]:
        seat.pop("commitment")


def mismatch_algorithm(data: dict[str, Any]) -> None:
    data["algorithm"] = "quaymoor-fair-1"


def swap_seats(data: dict[str, Any]) -> None:
    """Wren and Ash change chairs, each with its name, commitment and seed."""
    data["seats"][0], data["seats"][1] = data["seats"][1], data["seats"][0]
    data["seat_seeds"][0], data["seat_seeds"][1] = data["seat_seeds"][1], data["seat_seeds"][0]


def swap_names(data: dict[str, Any]) -> None:
    data["seats"][0]["name"], data["seats"][1]["name"] = "Ash", "Wren"


def seed_to_a_bot(data: dict[str, Any]) -> None:
    data["seat_seeds"] = [None, None, "wren's dice"]


def rename_a_bot(data: dict[str, Any]) -> None:
    """Nobody chooses a bot's name (the key binds it): another name is refused."""
    data["seats"][2]["name"] = "Bede (bot)"


#: (edit, what quaymoor verify says, the first check the page fails, words in that row)
EDITS: list[tuple[Callable[[dict[str, Any]], None], str, str, str]] = [
    (strip_game, "leaves out game: the binding was stripped", "fingerprint", ""),
    (strip_commitment, "leaves out seats[1].commitment: the binding was stripped", "seats",
     'seat 1 has no "commitment" entry'),
    (strip_seat_seeds, "the binding was", "seats", "the binding was stripped"),
    (downgrade, "fingerprint mismatch", "fingerprint", ""),
    (mismatch_algorithm, "a format-4 record is played with quaymoor-fair-2", "algorithm",
     "a format-4 record is played with quaymoor-fair-2"),
    (swap_seats, "does not match its commitment", "seats", "does not match its commitment"),
    (swap_names, "", "client-seeds", "do not give what the game showed"),
    (seed_to_a_bot, "is a bot, and bots hold no seed nor commitment", "seats",
     "seat 2 (Ada (bot)) is a bot, and bots hold no seed nor commitment"),
    # the CLI: the name is in the key, so the draws differ first
    (rename_a_bot, "", "seats",
     'seat 2 is a bot named "Bede (bot)", but a bot there is named "Ada (bot)"'),
]
IDS = [e.__name__ for e, _, _, _ in EDITS]


def test_the_cli_passes_the_faithful_record_and_refuses_each_tampering(tmp_path: Path) -> None:
    path = tmp_path / "faithful.json"
    path.write_text(record_text())
    done = verify_cli(path)
    assert done.returncode == 0 and "ok: fingerprint matches" in done.stdout, done.stderr
    for edit, words, _, _ in EDITS:
        data = record_data()
        edit(data)
        path = tmp_path / f"{edit.__name__}.json"
        path.write_text(json.dumps(data))
        done = verify_cli(path)
        # 1: refused; 2: not even read as a record (the binding left out)
        assert done.returncode in (1, 2), (edit.__name__, done.stdout, done.stderr)
        if not words:  # the key changed: the first Warden or the setup's plots
            assert "first Warden" in done.stderr or "plots turned up at the setup" in (
                done.stderr), done.stderr
        else:
            assert words in done.stderr, (edit.__name__, done.stderr)


def test_the_page_passes_the_faithful_format_4_record(page: Any, archived_server: Served) -> None:
    rows = check_pasted(page, archived_server, record_data())
    assert failed(rows) == [], rows
    checks = dict(rows)
    for name in ("algorithm", "fingerprint", "seats", "client-seeds", "seat-seeds", "turn-ups",
                 "first-warden", "plots-1"):
        assert checks[name] == "pass", name
    assert "Ash: " in page.inner_text('#checks tr[data-check="seats"]')
    assert "did not reveal its seed" in page.inner_text('#checks tr[data-check="seats"]')


@pytest.mark.parametrize(("edit", "first", "words"), [(e, f, w) for e, _, f, w in EDITS],
                         ids=IDS)
def test_the_page_refuses_each_tampering(
    page: Any, archived_server: Served, edit: Callable[[dict[str, Any]], None], first: str,
    words: str,
) -> None:
    data = record_data()
    edit(data)
    rows = check_pasted(page, archived_server, data)
    bad = failed(rows)
    assert bad and bad[0] == first, rows
    assert page.locator("#verdict").get_attribute("data-first") == first
    if words:
        assert words in page.locator(f'#checks tr[data-check="{first}"]').inner_text()
    if edit is seed_to_a_bot:
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / "fair-verify-tampered.png"), full_page=True)

"""The one table of wire codes: every code has its place (an HTTP status or the websocket
only), docs/protocol.md lists exactly these codes and statuses, and the rules' errors map
to their codes."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from quaymoor.protocol.codes import HTTP_STATUS, Close, Code, http_status, rules_code
from quaymoor.rules.converter import converter, wire_name
from quaymoor.rules.errors import GameOver, IllegalAction, NotYourDecision, RulesError
from quaymoor.rules.game import Game
from quaymoor.rules.state import Phase

DOC = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"


def _section(number: int) -> str:
    text = DOC.read_text()
    start = text.index(f"\n## {number}. ")
    return text[start:text.index("\n## ", start + 1)]


def _ws_rows() -> dict[str, str]:
    """Section 8's websocket table: code -> when."""
    ws_part = _section(8).split("Over HTTP")[0]
    return dict(re.findall(r"^\| `([a-z_]+)` \| (.*) \|$", ws_part, re.MULTILINE))


def _http_rows() -> dict[str, int]:
    """Section 8's HTTP table: code -> status."""
    http_part = _section(8).split("Over HTTP")[1]
    return {code: int(status)
            for status, code in re.findall(r"^\| (\d{3}) \| `([a-z_]+)` \|", http_part,
                                           re.MULTILINE)}


def test_the_doc_lists_every_code_and_only_those() -> None:
    listed = set(_ws_rows()) | set(_http_rows())
    assert listed == {c.value for c in Code}


def test_the_doc_gives_every_http_code_its_status() -> None:
    assert _http_rows() == {c.value: s for c, s in HTTP_STATUS.items()}


def test_every_code_has_an_http_status_or_is_sent_on_the_websocket() -> None:
    ws_only = {c for c in Code if c not in HTTP_STATUS}
    assert ws_only <= {Code(c) for c in _ws_rows()}
    for code in Code:
        if code in HTTP_STATUS:
            assert 400 <= http_status(code) < 600
        else:
            with pytest.raises(KeyError):
                http_status(code)


def test_the_doc_lists_every_close_code() -> None:
    listed = {int(c) for c in re.findall(r"^\| (\d{4}) \|", _section(7), re.MULTILINE)}
    assert {c.value for c in Close} <= listed
    assert listed - {c.value for c in Close} == {1009}  # trio-websocket's own


def test_codes_are_their_wire_strings() -> None:
    assert str(Code.TABLE_FULL) == "table_full" and f"{Code.BAD_JSON}" == "bad_json"
    assert int(Close.TOO_SLOW) == 4003


@pytest.mark.parametrize(("error", "code"), [
    (IllegalAction("no"), Code.ILLEGAL_ACTION),
    (NotYourDecision("no"), Code.NOT_YOUR_DECISION),
    (GameOver("no"), Code.GAME_OVER),
])
def test_rules_errors_map_to_their_codes(error: RulesError, code: Code) -> None:
    assert rules_code(error) is code


def test_a_phase_on_the_wire_is_its_lowercase_name() -> None:
    game = Game(2, bytes(32))
    board = converter.unstructure(game.view(None).board)
    assert board["phase"] == wire_name(game.phase) == "pick_role"
    assert [wire_name(p) for p in Phase][-1] == "game_over"

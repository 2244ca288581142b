"""One syntax for every whole number in a query (``http.query``): ASCII digits only, at
most 6 of them. Each bad form a stranger tried (a sign, ``-0``, an underscore, spaces,
other scripts' digits, a decimal point, an exponent, nothing, too many digits) is 400
``bad_request`` naming the parameter, on every endpoint that reads a query number, with
the whole server in this process and an archived game; the plain form is answered."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import quote

import pytest
import trio

from quaymoor.http.query import MAX_DIGITS, QueryError, query_int
from tests.actors.test_end_to_end import http
from tests.http.test_games_http import WAITING, serving
from tests.http.test_replay_http import GAME, archive_with_game

#: Each bad form of "1" (or of a number), as a stranger sent it, before URL-encoding.
BAD = ["+1", "-0", "-1", "1_0", " 1", "1 ", "1\t", "\u0661", "\u06f1", "\uff11", "1.0",
       "1e0", "0x1", "", "1" * (MAX_DIGITS + 1), "\u00b9", "\u0661\u0660", "1,0", "one", "1\x00"]
#: The endpoints that read a query number: the parameter and a value each answers 200.
ENDPOINTS = [("/api/games", "limit", "1"), (f"/api/games/{GAME}/replay", "step", "1"),
             (f"/api/games/{GAME}/views", "seat", "1")]


@pytest.mark.parametrize("text", BAD)
def test_the_parser_refuses_each_bad_form_naming_the_parameter(text: str) -> None:
    with pytest.raises(QueryError, match=r"@ \?step$"):
        query_int({"step": text}, "step")


def test_the_parser_reads_ascii_digits_and_keeps_the_range() -> None:
    assert query_int({"step": "10"}, "step") == 10
    assert query_int({"step": "007"}, "step") == 7
    assert query_int({}, "step") is None
    with pytest.raises(QueryError, match="1 to 5, not 6"):
        query_int({"n": "6"}, "n", 1, 5)


async def test_every_query_number_has_one_syntax(tmp_path: Path) -> None:
    path = tmp_path / "a.sqlite3"
    archive_with_game(path)
    with trio.fail_after(60):
        async with serving(WAITING, path) as (port, _):
            for route, name, good in ENDPOINTS:
                assert (await http(port, "GET", f"{route}?{name}={good}")).status == 200
                for text in BAD:
                    got = await http(port, "GET", f"{route}?{name}={quote(text)}")
                    assert got.status == 400, (route, text, got.body)
                    error = got.body["error"]
                    assert error["code"] == "bad_request"
                    assert error["message"].endswith(f"@ ?{name}"), error

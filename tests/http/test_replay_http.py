"""The replay-on-the-board and charts endpoints over HTTP, with the whole server in this
process: a seat's views and the charts of an archived game; a stranger's ``?seat`` (not a
number, out of range, huge, other digits) refused with what and where; 404 for a game
that is not there or still running (nothing of it, least of all its seed)."""

from __future__ import annotations

import json
from pathlib import Path

import trio

from quaymoor.store.archive import Archive
from tests.actors.test_end_to_end import http, play_now
from tests.fairness.conftest import game_record
from tests.http.test_games_http import WAITING, raw_get, serving
from tests.patching import apply_patch

LIMIT = 30
GAME = "a0a0a0a0a3"


def archive_with_game(path: Path) -> None:
    archive = Archive(path)
    archive.submit(GAME, game_record(GAME))  # no writer running: written at once


async def test_views_and_charts_are_served_and_bad_seats_refused(tmp_path: Path) -> None:
    path = tmp_path / "a.sqlite3"
    archive_with_game(path)
    record = game_record(GAME)
    assert record.result is not None
    with trio.fail_after(LIMIT):
        async with serving(WAITING, path) as (port, _):
            got = await http(port, "GET", f"/api/games/{GAME}/views?seat=2")
            assert got.status == 200
            views = got.body
            assert views["id"] == GAME and views["seat"] == 2
            assert len(views["patches"]) == len(record.actions)
            view = views["start"]
            for patch in views["patches"]:
                view = apply_patch(view, patch)
            assert view["result"]["winners"] == list(record.result.winners)
            spectator = (await http(port, "GET", f"/api/games/{GAME}/views")).body
            assert spectator["seat"] is None
            assert all(m["seals"] is None for m in spectator["start"]["mats"])

            charts = (await http(port, "GET", f"/api/games/{GAME}/charts")).body
            assert [s["total"] for s in charts["sources"]] == [
                sc.total for sc in record.result.scores]

            for bad in ("5", "-1", "x", "1.0", "%EF%BC%91", "9" * 5000, "", "%00"):
                refused = await http(port, "GET", f"/api/games/{GAME}/views?seat={bad}")
                assert refused.status == 400, bad
                assert refused.body["error"]["code"] == "bad_request"
                assert "@ ?seat" in refused.body["error"]["message"]
            # a seat any table could have, but this 3-seat game has not: no such seat
            refused = await http(port, "GET", f"/api/games/{GAME}/views?seat=3")
            assert (refused.status, refused.body["error"]["code"]) == (404, "bad_seat")
            assert "0 to 2" in refused.body["error"]["message"]
            # not UTF-8 (a lone surrogate): the front door refuses the request itself
            status, _, _ = await raw_get(port, f"/api/games/{GAME}/views?seat=%ED%A0%80")
            assert status == 400
            for path_ in ("/api/games/0123456789/views", "/api/games/0123456789/charts"):
                missing = await http(port, "GET", path_)
                assert missing.status == 404 and missing.body["error"]["code"] == "unknown_game"
            refused = await http(port, "POST", f"/api/games/{GAME}/charts", {})
            assert refused.status == 405


async def test_a_running_games_views_and_charts_are_a_404_without_its_seed(
    tmp_path: Path
) -> None:
    with trio.fail_after(LIMIT):
        async with serving(WAITING, tmp_path / "a.sqlite3") as (port, supervisor):
            game = await play_now(port, players=3, name="Ada")
            table = game["table"]
            seed = supervisor.tables[table].seed.hex()
            for path in (f"/api/games/{table}/views", f"/api/games/{table}/views?seat=0",
                         f"/api/games/{table}/views?seat=4", f"/api/games/{table}/charts"):
                status, _, body = await raw_get(port, path)
                assert status == 404, path
                assert json.loads(body)["error"]["code"] == "unknown_game"
                assert seed.encode() not in body and b'"start"' not in body

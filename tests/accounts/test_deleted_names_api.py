"""An account's deletion takes its name out of the games it played, through the HTTP API
(``HttpApi``, no sockets) on a server with a SQLite archive and on one without (its
records and analyses in memory): Ada plays a game signed in to its end; after she
deletes her account, the game's record, its entry in the games list, its analysis and
its page's JSON say "Seat 1 (name removed)", the record still verifies (its key
binds no name: docs/fairness.md, "Names and deleted accounts"), her player page is gone,
and the other seat, a bot, is untouched."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import trio

from quaymoor.accounts.service import Accounts
from quaymoor.actors.supervisor import Supervisor
from quaymoor.config import TableConfig
from quaymoor.http.api import HttpApi
from quaymoor.rules.record import GameRecord
from quaymoor.rules.verify import verify_record
from quaymoor.store.archive import Archive
from tests.accounts.test_accounts_api import SITE, Browser, Clock, code
from tests.actors.running import running
from tests.actors.test_table import Client


@pytest.fixture(params=["sqlite-archive", "no-archive"])
async def served(tmp_path: Path, request: pytest.FixtureRequest,
                 ) -> AsyncIterator[tuple[HttpApi, Supervisor, Archive | None]]:
    """A server with a SQLite archive, and one without (its records and analyses are the
    supervisor's, in memory)."""
    archive = Archive(tmp_path / "games.sqlite3") if request.param == "sqlite-archive" else None
    sup = Supervisor(TableConfig(bot_delay=0.0), max_tables=8, archive=archive)
    sup.analyst.iterations = 8  # what is checked is the names, not the search
    async with running(sup):
        yield HttpApi(sup, accounts=Accounts(sup.players.accounts, SITE, clock=Clock())), sup, \
            archive
    if archive is not None:
        await archive.close()


async def _flushed(archive: Archive | None) -> None:
    if archive is not None:
        await archive.flush()


async def _analysis(browser: Browser, game_id: str) -> dict[str, Any]:
    with trio.fail_after(120):
        while True:
            status, body = await browser.call("GET", f"/api/games/{game_id}/analysis")
            if status == 200:
                assert isinstance(body, dict)
                return body
            assert status == 202, body
            await trio.sleep(0.05)


async def _get(browser: Browser, path: str) -> tuple[int, Any]:
    return await browser.call("GET", path)


async def test_a_deleted_accounts_name_leaves_its_games(
        served: tuple[HttpApi, Supervisor, Archive | None]) -> None:
    api, sup, archive = served
    ada, guest = Browser(api), Browser(api)
    assert (await ada.register("Ada"))[0] == 201
    status, made = await ada.call("POST", "/api/tables", {"players": 2, "bots": "easy"})
    assert status == 201, made
    table_id = made["table"]
    status, seated = await ada.call("POST", f"/api/tables/{table_id}/join", {"name": "x"})
    assert status == 200, seated
    status, _ = await ada.call("POST", f"/api/tables/{table_id}/start",
                               {"token": seated["token"]})
    assert status == 200
    client = Client(sup.get(table_id), seated["token"])
    await client.attach()
    with trio.fail_after(120):
        ended = await client.play_to_end()
    assert ended["reason"] == "finished"
    await _flushed(archive)

    status, game = await _get(guest, f"/api/games/{table_id}")
    assert status == 200
    bot_name = game["seats"][1]["name"]
    assert bot_name.endswith(" (bot)")
    assert [(s["name"], s["bot"], s["removed"]) for s in game["seats"]] == [
        ("Ada", False, False), (bot_name, True, False)]
    assert game["rated"] is False
    before = (await _get(guest, f"/games/{table_id}.json"))[1]
    assert before["format"] == 5 and before["seats"][0]["name"] == "Ada"
    assert "rated" not in before  # written only for a rated game
    assert (await _get(guest, "/api/players/Ada"))[0] == 200
    analysed = await _analysis(guest, table_id)
    assert [p["name"] for p in analysed["players"]] == ["Ada"]

    assert await ada.call("POST", "/api/accounts/delete", {"name": "Ada"}) == (
        200, {"deleted": "Ada"})

    status, game = await _get(guest, f"/api/games/{table_id}")
    assert status == 200
    assert [(s["name"], s["bot"], s["removed"]) for s in game["seats"]] == [
        ("Seat 1 (name removed)", False, True), (bot_name, True, False)]
    listed = (await _get(guest, "/api/games"))[1]["games"]
    assert [s["name"] for s in listed[0]["seats"]] == ["Seat 1 (name removed)", bot_name]
    after = (await _get(guest, f"/games/{table_id}.json"))[1]
    assert after["seats"][0] == {**before["seats"][0], "name": "Seat 1 (name removed)",
                                 "removed": True}
    assert {k: v for k, v in after.items() if k != "seats"} == {
        k: v for k, v in before.items() if k != "seats"}
    record = GameRecord.from_json(json.dumps(after))
    verdict = verify_record(record)
    assert verdict.ok and verdict.message == verify_record(
        GameRecord.from_json(json.dumps(before))).message, verdict.message
    assert code(await _get(guest, "/api/players/Ada")) == (404, "no_player")
    renamed = await _analysis(guest, table_id)
    assert [p["name"] for p in renamed["players"]] == ["Seat 1 (name removed)"]
    assert {k: v for k, v in renamed.items() if k != "players"} == {
        k: v for k, v in analysed.items() if k != "players"}


async def _started(ada: Browser, sup: Supervisor) -> tuple[str, Client]:
    """A 2-seat table against an easy bot, started, Ada's client attached."""
    status, made = await ada.call("POST", "/api/tables", {"players": 2, "bots": "easy"})
    assert status == 201, made
    table_id = made["table"]
    status, seated = await ada.call("POST", f"/api/tables/{table_id}/join", {"name": "x"})
    assert status == 200, seated
    assert (await ada.call("POST", f"/api/tables/{table_id}/start",
                           {"token": seated["token"]}))[0] == 200
    client = Client(sup.get(table_id), seated["token"])
    await client.attach()
    return table_id, client


async def test_the_tables_a_deleted_account_sits_at_show_no_name(
        served: tuple[HttpApi, Supervisor, Archive | None]) -> None:
    """Deleted while one of its games has ended (the table lingers for reconnects) and
    another is being played: both tables show "Seat 1 (name removed)" at once, in the
    lobby's list and to the connections at the table, and the second game's record,
    written at its end, has the name taken out."""
    api, sup, archive = served
    ada, guest = Browser(api), Browser(api)
    assert (await ada.register("Ada"))[0] == 201
    ended_id, first = await _started(ada, sup)
    with trio.fail_after(120):
        assert (await first.play_to_end())["reason"] == "finished"
    playing_id, second = await _started(ada, sup)
    listed = {t["id"]: t for t in (await _get(guest, "/api/tables"))[1]["tables"]}
    assert listed[ended_id]["seats"][0]["name"] == "Ada"

    assert (await ada.call("POST", "/api/accounts/delete", {"name": "Ada"}))[0] == 200
    listed = {t["id"]: t for t in (await _get(guest, "/api/tables"))[1]["tables"]}
    for table_id in (ended_id, playing_id):
        names = [s["name"] for s in listed[table_id]["seats"]]
        assert names[0] == "Seat 1 (name removed)" and "Ada" not in names, names
    status = json.loads(await sup.status_json())
    assert "\"Ada\"" not in json.dumps(status)
    frames: list[dict[str, Any]] = []
    with trio.fail_after(120):
        assert (await second.play_to_end(seen=frames))["reason"] == "finished"
    told = [f["seats"][0]["name"] for f in frames if f["type"] == "update" and f.get("seats")]
    assert "Seat 1 (name removed)" in told  # the players at the table were told
    await _flushed(archive)
    record = (await _get(guest, f"/games/{playing_id}.json"))[1]
    assert record["seats"][0]["name"] == "Seat 1 (name removed)" and record["seats"][0][
        "removed"] is True
    assert verify_record(GameRecord.from_json(json.dumps(record))).ok

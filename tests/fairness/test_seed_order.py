"""The order that keeps the server honest, over HTTP and the websocket with the whole
server in this process: a seat's client seed goes in only after the answer that seats it
has shown the fingerprint (``POST /api/tables/<id>/seed``), once per seat, before the
start; a seed that cannot go into the key is refused and the table lives on; the seeds are
bound to their seats at the start (``game_started``, ``welcome``), at the end
(``game_ended``) and in the record (format 3), and the record verifies."""

from __future__ import annotations

from typing import Any

import trio

from quaymoor.protocol.codes import Close
from quaymoor.rules.record import EndReason, GameRecord
from quaymoor.rules.verify import verify_record
from tests.actors.test_end_to_end import (
    LIMIT,
    MADE_UP,
    connect,
    create_table,
    http,
    serving,
    start,
)


def seed_path(table: str) -> str:
    return f"/api/tables/{table}/seed"


async def give_seed(port: int, table: str, token: str, client_seed: Any) -> tuple[int, Any]:
    reply = await http(port, "POST", seed_path(table), {"token": token, "client_seed": client_seed})
    return reply.status, reply.body


def refusal(answer: tuple[int, Any]) -> tuple[int, str, str]:
    status, body = answer
    return status, body["error"]["code"], body["error"]["message"]


async def state_of(port: int, table: str) -> str:
    listed = (await http(port, "GET", "/api/tables")).body["tables"]
    (found,) = [t for t in listed if t["id"] == table]
    state: str = found["state"]
    return state


async def test_play_now_seats_the_player_and_waits_for_the_seed_and_the_start() -> None:
    with trio.fail_after(LIMIT):
        async with serving() as (port, _):
            early = await http(port, "POST", "/api/play-now",
                               {"name": "Ada", "players": 2, "client_seed": "mine"})
            status, code, message = refusal((early.status, early.body))
            assert (status, code) == (400, "bad_request")
            assert "after the fingerprint" in message and "/seed" in message
            assert message.endswith("@ $.client_seed")
            assert (await http(port, "GET", "/api/tables")).body["tables"] == []  # none made

            made = await http(port, "POST", "/api/play-now", {"name": "Ada", "players": 2})
            assert made.status == 201
            info = made.body
            assert {"table", "seat", "token", "fingerprint"} <= set(info)
            assert len(info["fingerprint"]) == 64 and info["seat"] == 0
            assert await state_of(port, info["table"]) == "waiting"  # not started

            status, _ = await give_seed(port, info["table"], info["token"], "Ada's dice")
            assert status == 200
            await start(port, info["table"], info["token"])
            assert await state_of(port, info["table"]) == "playing"
            late = await give_seed(port, info["table"], info["token"], "another")
            assert refusal(late)[:2] == (409, "already_started")


async def test_join_answers_the_fingerprint_and_refuses_a_seed_in_its_body() -> None:
    with trio.fail_after(LIMIT):
        async with serving() as (port, _):
            table = await create_table(port, 2)
            path = f"/api/tables/{table['table']}/join"
            early = await http(port, "POST", path, {"name": "Ada", "client_seed": None})
            status, code, message = refusal((early.status, early.body))
            assert (status, code) == (400, "bad_request")
            assert f"/api/tables/{table['table']}/seed" in message
            joined = await http(port, "POST", path, {"name": "Ada"})
            assert joined.status == 200
            assert joined.body["fingerprint"] == table["fingerprint"]
            assert set(joined.body) == {"table", "seat", "token", "fingerprint"}
            unknown = await give_seed(port, MADE_UP, joined.body["token"], "x")
            assert refusal(unknown)[:2] == (404, "unknown_table")


async def test_a_seed_that_cannot_go_into_the_key_is_refused_and_the_table_lives() -> None:
    """A lone surrogate once crashed the waiting table at ``client_seed.encode()``: it is
    refused, wherever it is sent, and the table goes on to a game."""
    with trio.fail_after(LIMIT):
        async with serving() as (port, supervisor):
            table = (await create_table(port, 2))["table"]
            path = f"/api/tables/{table}/join"
            # where the seed went before (a body with a lone surrogate, as JSON allows)
            lone = await http(port, "POST", path, {"name": "Ada", "client_seed": "\ud800"})
            assert lone.status == 400, lone
            assert supervisor.crash_count == 0 and await state_of(port, table) == "waiting"
            ada = (await http(port, "POST", path, {"name": "Ada"})).body["token"]
            for bad, why in (("\ud800", "valid Unicode"), ("dice \udfff", "valid Unicode"),
                             ("", "may not be empty"), ("s" * 257, "at most 256 UTF-8 bytes"),
                             ("é" * 129, "at most 256 UTF-8 bytes"), (7, "a string"),
                             (None, "a string"), ({"a": 1}, "a string")):
                status, code, message = refusal(await give_seed(port, table, ada, bad))
                assert (status, code) == (400, "bad_client_seed"), (bad, message)
                assert why in message and message.endswith("@ $.client_seed"), message
            assert supervisor.crash_count == 0 and await state_of(port, table) == "waiting"
            assert (await give_seed(port, table, ada, "é" * 128))[0] == 200  # the limit
            twice = await give_seed(port, table, ada, "again")
            assert refusal(twice)[:2] == (409, "already_seeded")
            await start(port, table, ada)
            assert await state_of(port, table) == "playing"
            assert supervisor.crash_count == 0


async def test_seeds_are_bound_to_seats_at_the_start_the_end_and_in_the_record() -> None:
    with trio.fail_after(LIMIT):
        async with serving() as (port, supervisor):
            table = (await create_table(port, 3))["table"]
            path = f"/api/tables/{table}/join"
            ada = (await http(port, "POST", path, {"name": "Ada"})).body["token"]
            bede = (await http(port, "POST", path, {"name": "Bede"})).body["token"]
            assert (await give_seed(port, table, bede, "Bede's dice"))[0] == 200
            async with connect(port) as early:  # attached before the start
                await early.hello(table, ada)
                welcome = await early.until("welcome")
                assert welcome["started"] is False and welcome["client_seeds"] is None
                await start(port, table, ada)
                started = await early.until("game_started")
                assert started == {"table": table, "client_seeds": [None, "Bede's dice", None],
                                   "type": "game_started"}
                assert (await early.next() or {}).get("type") == "update"  # then the game
            async with connect(port) as late:  # attached after the start
                await late.hello(table, bede)
                welcome = await late.until("welcome")
                assert welcome["client_seeds"] == [None, "Bede's dice", None]
                supervisor.tables[table].shutdown_now(EndReason.SHUTDOWN, Close.SHUTDOWN)
                ended = await late.until("game_ended")
                assert ended["client_seeds"] == [None, "Bede's dice", None]
            record: GameRecord = supervisor.records[table]
            assert record.format == 3
            assert record.seat_seeds == [None, "Bede's dice", None]
            assert record.client_seeds == ["Bede's dice"]
            assert verify_record(record).ok, verify_record(record).message
            again = GameRecord.from_json(record.to_json())
            assert again == record


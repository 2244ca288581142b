"""Commit, then reveal, over HTTP and the websocket with the whole server in this process
(docs/protocol.md, "The order of a seat's client seed"): a seat's commitment goes in only
after the answer that seats it has shown the fingerprint (``POST .../commit``), once per
seat, before the start; its client seed only between the start and the deal (``POST
.../reveal``), matching its commitment; a seed that cannot go into the key is refused and
the table lives on; the commitments and seeds are bound to their seats at the start
(``seeds_committed``), at the deal (``game_started``, ``welcome``), at the end
(``game_ended``) and in the record (format 4), and the record verifies. The old ``/seed``
endpoint is gone."""

from __future__ import annotations

from typing import Any

import trio

from quaymoor.protocol.codes import Close
from quaymoor.rules.fairness import seed_commitment
from quaymoor.rules.record import RECORD_FORMAT, EndReason, GameRecord
from quaymoor.rules.verify import verify_record
from tests.actors.test_end_to_end import (
    LIMIT,
    MADE_UP,
    connect,
    create_table,
    http,
    seed_matches,
    serving,
    start,
)


async def send(port: int, table: str, verb: str, body: dict[str, Any]) -> tuple[int, Any]:
    reply = await http(port, "POST", f"/api/tables/{table}/{verb}", body)
    return reply.status, reply.body


async def commit(port: int, table: str, token: str, commitment: Any) -> tuple[int, Any]:
    return await send(port, table, "commit", {"token": token, "commitment": commitment})


async def reveal(port: int, table: str, token: str, client_seed: Any) -> tuple[int, Any]:
    return await send(port, table, "reveal", {"token": token, "client_seed": client_seed})


def refusal(answer: tuple[int, Any]) -> tuple[int, str, str]:
    status, body = answer
    return status, body["error"]["code"], body["error"]["message"]


async def state_of(port: int, table: str) -> str:
    listed = (await http(port, "GET", "/api/tables")).body["tables"]
    (found,) = [t for t in listed if t["id"] == table]
    state: str = found["state"]
    return state


async def test_play_now_seats_the_player_then_commit_start_reveal() -> None:
    with trio.fail_after(LIMIT):
        async with serving() as (port, _):
            for field, where in (("client_seed", "/reveal"), ("commitment", "/commit")):
                early = await http(port, "POST", "/api/play-now",
                                   {"name": "Ada", "players": 2, field: "mine"})
                status, code, message = refusal((early.status, early.body))
                assert (status, code) == (400, "bad_request")
                assert where in message and message.endswith(f"@ $.{field}"), message
            assert (await http(port, "GET", "/api/tables")).body["tables"] == []  # none made

            made = await http(port, "POST", "/api/play-now", {"name": "Ada", "players": 2})
            assert made.status == 201
            info = made.body
            table, token = info["table"], info["token"]
            assert {"table", "seat", "token", "fingerprint"} <= set(info)
            assert len(info["fingerprint"]) == 64 and info["seat"] == 0
            assert await state_of(port, table) == "waiting"  # not started

            early_seed = await reveal(port, table, token, "Ada's dice")
            assert refusal(early_seed)[:2] == (409, "not_revealing")  # before the start
            mine = seed_commitment(table, 0, "Ada's dice")
            assert (await commit(port, table, token, mine))[0] == 200
            assert await start(port, table, token) == [mine, None]
            late = await commit(port, table, token, mine)
            assert refusal(late)[:2] == (409, "already_started")
            wrong = await reveal(port, table, token, "Ada's other dice")
            assert refusal(wrong)[:2] == (400, "seed_mismatch")
            assert (await reveal(port, table, token, "Ada's dice"))[0] == 200
            assert await state_of(port, table) == "playing"  # dealt: every seat revealed
            again = await reveal(port, table, token, "Ada's dice")
            assert refusal(again)[:2] == (409, "not_revealing")
            old = await http(port, "POST", f"/api/tables/{table}/seed",
                             {"token": token, "client_seed": "x"})
            assert old.status == 404, old  # the old endpoint is gone


async def test_join_answers_the_fingerprint_and_refuses_a_seed_in_its_body() -> None:
    with trio.fail_after(LIMIT):
        async with serving() as (port, _):
            table = await create_table(port, 2)
            path = f"/api/tables/{table['table']}/join"
            for field, verb in (("client_seed", "reveal"), ("commitment", "commit")):
                early = await http(port, "POST", path, {"name": "Ada", field: None})
                status, code, message = refusal((early.status, early.body))
                assert (status, code) == (400, "bad_request")
                assert f"/api/tables/{table['table']}/{verb}" in message, message
            joined = await http(port, "POST", path, {"name": "Ada"})
            assert joined.status == 200
            assert joined.body["fingerprint"] == table["fingerprint"]
            assert set(joined.body) == {"table", "seat", "token", "fingerprint"}
            unknown = await commit(port, MADE_UP, joined.body["token"], "0" * 64)
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
            for bad in ("ABC", "0" * 63, "G" * 64, "0" * 64 + "0", 7, None):
                status, code, _ = refusal(await commit(port, table, ada, bad))
                assert (status, code) == (400, "bad_commitment"), bad
            limit = "é" * 128  # 256 UTF-8 bytes: the longest seed there is
            assert (await commit(port, table, ada, seed_commitment(table, 0, limit)))[0] == 200
            twice = await commit(port, table, ada, seed_commitment(table, 0, "again"))
            assert refusal(twice)[:2] == (409, "already_committed")
            await start(port, table, ada)
            bad_seeds: list[tuple[Any, str]] = [
                ("\ud800", "valid Unicode"), ("dice \udfff", "valid Unicode"),
                ("", "may not be empty"), ("s" * 257, "at most 256 UTF-8 bytes"),
                ("é" * 129, "at most 256 UTF-8 bytes"), ("a\x00b", "NUL"),
                (7, "a string"), (None, "a string"), ({"a": 1}, "a string")]
            for bad, why in bad_seeds:
                status, code, message = refusal(await reveal(port, table, ada, bad))
                assert (status, code) == (400, "bad_client_seed"), (bad, message)
                assert why in message and message.endswith("@ $.client_seed"), message
            assert supervisor.crash_count == 0
            assert (await reveal(port, table, ada, limit))[0] == 200
            assert await state_of(port, table) == "playing"
            assert supervisor.crash_count == 0


async def test_seeds_are_bound_to_seats_at_the_start_the_deal_the_end_and_in_the_record(
) -> None:
    with trio.fail_after(LIMIT):
        async with serving() as (port, supervisor):
            made = await create_table(port, 3)
            table = made["table"]
            path = f"/api/tables/{table}/join"
            ada = (await http(port, "POST", path, {"name": "Ada"})).body["token"]
            bede = (await http(port, "POST", path, {"name": "Bede"})).body["token"]
            bedes = seed_commitment(table, 1, "Bede's dice")
            assert (await commit(port, table, bede, bedes))[0] == 200
            async with connect(port) as early:  # attached before the start
                await early.hello(table, ada)
                welcome = await early.until("welcome")
                assert welcome["started"] is False and welcome["client_seeds"] is None
                assert welcome["commitments"] is None
                assert await start(port, table, ada) == [None, bedes, None]
                fixed = await early.until("seeds_committed")
                assert fixed["commitments"] == [None, bedes, None]
                assert fixed["seats"][2]["bot"] is True and fixed["reveal_seconds"] > 0
                assert (await reveal(port, table, bede, "Bede's dice"))[0] == 200
                started = await early.until("game_started")
                assert started == {"table": table, "client_seeds": [None, "Bede's dice", None],
                                   "commitments": [None, bedes, None], "type": "game_started"}
                assert (await early.next() or {}).get("type") == "update"  # then the game
            async with connect(port) as late:  # attached after the deal
                await late.hello(table, bede)
                welcome = await late.until("welcome")
                assert welcome["client_seeds"] == [None, "Bede's dice", None]
                assert welcome["commitments"] == [None, bedes, None]
                supervisor.tables[table].shutdown_now(EndReason.SHUTDOWN, Close.SHUTDOWN)
                ended = await late.until("game_ended")
                assert ended["client_seeds"] == [None, "Bede's dice", None]
                assert seed_matches(ended["seed"], made)
            record: GameRecord = supervisor.records[table]
            assert record.format == RECORD_FORMAT == 5
            assert record.algorithm == "quaymoor-fair-3" and record.game == table
            assert record.seat_seeds == [None, "Bede's dice", None]
            assert [s.commitment for s in record.seats] == [None, bedes, None]
            assert record.client_seeds == ["Bede's dice"]
            assert verify_record(record).ok, verify_record(record).message
            again = GameRecord.from_json(record.to_json())
            assert again == record

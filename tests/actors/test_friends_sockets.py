"""Friends at one table over real sockets: two players chat through the websocket (a
spectator reads it), play a game to its end, and one's rematch seats both at a new table
in the same chairs once the other accepts; each gets only their own token, gives their
commitment over HTTP, the rematch starts by itself, and both reveal their seeds. A
stranger's chat frames (wrong types, huge, a lone surrogate) are answered with errors and
the connection goes on."""

from __future__ import annotations

import json
from typing import Any

import trio

from quaymoor.rules.fairness import seed_commitment
from tests.actors.test_end_to_end import (
    LIMIT,
    connect,
    create_table,
    http,
    join,
    serving,
    start,
)


async def post(port: int, table: str, verb: str, body: dict[str, Any]) -> None:
    reply = await http(port, "POST", f"/api/tables/{table}/{verb}", body)
    assert reply.status == 200, reply


async def test_two_friends_chat_play_and_rematch_over_sockets() -> None:
    with trio.fail_after(LIMIT):
        async with serving() as (port, supervisor):
            info = await create_table(port, 3)
            table = info["table"]
            tokens = [await join(port, table, name) for name in ("Ada", "Bede")]
            await start(port, table, tokens[0])
            offers: dict[int, dict[str, Any]] = {}
            chairs: dict[int, dict[str, Any]] = {}
            heard: dict[int, list[str]] = {0: [], 1: []}
            ada_ended = trio.Event()

            async def player(seat: int) -> None:
                async with connect(port) as client:
                    await client.hello(table, tokens[seat])
                    await client.until("welcome")
                    if seat == 0:
                        await client.send({"type": "chat", "text": "good luck \u202eBede"})
                    assert await client.play() is not None
                    if seat == 0:
                        ada_ended.set()
                        await client.send({"type": "chat", "text": "gg — again?"})
                        await client.send({"type": "rematch"})
                    else:
                        await ada_ended.wait()
                        offers[seat] = await client.until("rematch_offer")
                        await client.send({"type": "rematch"})
                    chairs[seat] = await client.until("rematch_seat")
                    if seat == 0:
                        offers[seat] = await client.until("rematch_offer")
                    heard[seat] = [f["text"] for f in client.of_type("chat_line")]

            async def spectator(lines: list[str]) -> None:
                async with connect(port) as client:
                    await client.hello(table)
                    await client.until("welcome")
                    await client.send({"type": "chat", "text": "may I?"})
                    refused = await client.until("error")
                    assert refused["code"] == "spectator"
                    await client.until("game_ended")
                    while len(client.of_type("chat_line")) < 2:
                        assert await client.next() is not None
                    lines.extend(f["text"] for f in client.of_type("chat_line"))

            watched: list[str] = []
            async with trio.open_nursery() as nursery:
                nursery.start_soon(spectator, watched)
                await trio.sleep(0.1)
                for seat in (0, 1):
                    nursery.start_soon(player, seat)

            assert watched == ["good luck Bede", "gg — again?"]  # the RTL override is gone
            assert heard[1][0] == "good luck Bede"
            # Bede was offered the rematch before he had a chair; then both had one
            assert offers[1]["by"] == 0 and offers[1]["name"] == "Ada"
            assert offers[1]["accepted"] == [0]
            rematch = chairs[0]["rematch"]
            assert chairs[1]["rematch"] == rematch and rematch != table
            assert [chairs[s]["seat"] for s in (0, 1)] == [0, 1]
            assert chairs[0]["token"] != chairs[1]["token"]
            assert not {chairs[0]["token"], chairs[1]["token"]} & set(tokens)
            listed = await http(port, "GET", "/api/tables")
            new = next(t for t in listed.body["tables"] if t["id"] == rematch)
            assert new["state"] == "waiting"
            assert [s["name"] for s in new["seats"]] == ["Ada", "Bede", None]
            assert chairs[0]["token"] not in json.dumps(listed.body)

            # both show the fingerprint, commit and come: the rematch starts by itself;
            # a connection during the reveal is told the commitments; both reveal
            assert chairs[0]["fingerprint"] == supervisor.tables[rematch].fingerprint
            dice = ["Ada's dice", "Bede's dice"]
            commitments = [seed_commitment(rematch, seat, dice[seat]) for seat in (0, 1)]
            for seat in (0, 1):
                await post(port, rematch, "commit", {"token": chairs[seat]["token"],
                                                     "commitment": commitments[seat]})
            async with connect(port) as early:
                await early.hello(rematch, chairs[1]["token"])
                welcome = await early.until("welcome")
                assert welcome["started"] is False and welcome["commitments"][:2] == commitments
                told = await early.until("seeds_committed")
                assert told["commitments"] == [*commitments, None]
                assert told["seats"][2]["bot"] and 0 < told["reveal_seconds"] <= 10
                for seat in (0, 1):
                    await post(port, rematch, "reveal", {"token": chairs[seat]["token"],
                                                         "client_seed": dice[seat]})
                started = await early.until("game_started")
                assert started["client_seeds"] == [*dice, None]
                assert started["commitments"] == [*commitments, None]
            for seat in (0, 1):
                async with connect(port) as client:
                    await client.hello(rematch, chairs[seat]["token"])
                    welcome = await client.until("welcome")
                    assert welcome["seat"] == seat and welcome["started"] is True
                    names = [s["name"] for s in welcome["seats"]]
                    assert names[:2] == ["Ada", "Bede"] and names[2].endswith("(bot)")
                    assert welcome["client_seeds"][:2] == ["Ada's dice", "Bede's dice"]
                    assert welcome["commitments"] == [*commitments, None]
            # the finished game's record holds no chat
            record = await http(port, "GET", f"/games/{table}.json")
            assert record.status == 200 and "good luck" not in json.dumps(record.body)


async def test_hostile_chat_frames_are_answered_and_the_connection_goes_on() -> None:
    with trio.fail_after(LIMIT):
        async with serving() as (port, _):
            info = await create_table(port, 2)
            table = info["table"]
            token = await join(port, table, "Ada")
            async with connect(port) as client:
                await client.hello(table, token)
                await client.until("welcome")
                for frame, code in (
                    ('{"type": "chat", "text": 12}', "bad_message"),
                    ('{"type": "chat", "text": null}', "bad_message"),
                    ('{"type": "chat"}', "bad_message"),
                    ('{"type": "chat", "text": "\\ud800"}', "bad_chat"),
                    ('{"type": "chat", "text": "\\u0000"}', "bad_chat"),
                    (json.dumps({"type": "chat", "text": "x" * 60_000}), "bad_chat"),
                    ('{"type": "rematch", "now": true}', "bad_message"),
                    ('{"type": "rematch"}', "not_finished"),
                ):
                    await client.send(frame)
                    error = await client.until("error")
                    assert error["code"] == code, (frame, error)
                    assert "@ $" in error["message"] or code == "not_finished"
                await client.send({"type": "chat", "text": "still fine"})
                line = await client.until("chat_line")
                assert line["text"] == "still fine" and client.close_code is None

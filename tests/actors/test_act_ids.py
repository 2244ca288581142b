"""An ``act`` with an ``id`` is answered exactly (docs/protocol.md, ``act``): ``acted`` with
that id and the version, after the update that carries it, to the sender alone; or the
``error`` that refuses it, with the id. Without an id nothing changes on the wire."""

from __future__ import annotations

from typing import Any

import trio

from quaymoor.actors.supervisor import Supervisor
from quaymoor.protocol.messages import MAX_ACT_ID
from quaymoor.rules.game import Game
from tests.actors.test_end_to_end import (
    LIMIT,
    Client,
    connect,
    create_table,
    join,
    serving,
    start,
)


async def answer(client: Client, frame: Any) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Send ``frame``; the frames read up to its answer (an ``acted`` or an ``error``) and
    that answer."""
    await client.send(frame)
    before = len(client.frames)
    while True:
        got = await client.next()
        assert got is not None, f"closed ({client.close_code}) before an answer"
        if got["type"] in ("acted", "error"):
            return client.frames[before:-1], got


async def started(port: int, supervisor: Supervisor) -> tuple[str, list[str], Game]:
    """A two-player table, Ada's and Bede's, started: its id, their tokens, its game."""
    table = (await create_table(port, 2))["table"]
    tokens = [await join(port, table, name) for name in ("Ada", "Bede")]
    await start(port, table, tokens[0])
    game = supervisor.tables[table].game
    assert game is not None
    return table, tokens, game


async def test_an_act_id_comes_back_in_acted_or_in_the_error() -> None:
    with trio.fail_after(LIMIT):
        async with serving() as (port, supervisor):
            table, tokens, game = await started(port, supervisor)
            async with connect(port) as ada, connect(port) as bede, connect(port) as watcher:
                clients = (ada, bede)
                for client, token in ((ada, tokens[0]), (bede, tokens[1]), (watcher, None)):
                    await client.hello(table, token)
                    assert (await client.until("welcome"))["act_ids"] is True
                    await client.until("update")
                deciding = ada.of_type("update")[-1]["view"]["deciding"][0]
                mover, waiting = clients[deciding], clients[1 - deciding]
                legal = mover.of_type("update")[-1]["view"]["legal"][0]
                before = game.version

                # refused: each error names the id of the act it refuses
                refusals = [
                    (mover, {"type": "fly"}, 8, "bad_action"),
                    (mover, {"type": "load", "good": "wool", "barge": "1"}, 9, "bad_action"),
                    (waiting, {"type": "pick_role", "role": "miller"}, 10, "not_your_decision"),
                    (watcher, legal, 11, "spectator"),
                    (mover, {"type": "done"}, 0, "illegal_action"),
                ]
                for client, action, ack, code in refusals:
                    _, error = await answer(client, {"type": "act", "action": action, "id": ack})
                    assert (error["code"], error["id"]) == (code, ack), error
                # malformed as a message, not as an action: still the act's id
                malformed: tuple[dict[str, Any], ...] = (
                    {"type": "act", "action": "pass"}, {"type": "act", "action": None},
                    {"type": "act"}, {"type": "act", "action": legal, "extra": 1})
                for ack, frame in enumerate(malformed, start=20):
                    _, error = await answer(mover, {**frame, "id": ack})
                    assert (error["code"], error["id"]) == ("bad_message", ack), error
                # an id that is not one: refused as the message's shape, so no id to name
                for bad in (-1, MAX_ACT_ID + 1, "7", 1.5, True, [1]):
                    _, error = await answer(mover, {"type": "act", "action": legal, "id": bad})
                    assert error["code"] == "bad_message" and "$.id" in error["message"], error
                    assert "id" not in error
                _, error = await answer(mover, {"type": "act", "action": {"type": "fly"}})
                assert "id" not in error  # no id sent, none in the error
                assert game.version == before  # nothing refused changed anything

                # applied: the update first, then acted with the version it moved to
                read, acted = await answer(mover, {"type": "act", "action": legal,
                                                   "id": MAX_ACT_ID})
                assert acted == {"type": "acted", "id": MAX_ACT_ID, "version": before + 1}
                assert [f["version"] for f in read if f["type"] == "update"] == [before + 1]
                assert game.version == before + 1
                for other in (waiting, watcher):  # the update reaches everyone; acted not
                    update = await other.until("update")
                    assert update["version"] == before + 1
                await ada.send({"type": "ping"})
                await bede.send({"type": "ping"})
                await watcher.send({"type": "ping"})
                for client in (ada, bede, watcher):
                    await client.until("pong")
                for client in (waiting, watcher):
                    assert not client.of_type("acted")
                assert len(mover.of_type("acted")) == 1


async def test_without_an_id_an_applied_act_gets_no_acted() -> None:
    with trio.fail_after(LIMIT):
        async with serving() as (port, supervisor):
            table, tokens, game = await started(port, supervisor)
            async with connect(port) as ada, connect(port) as bede:
                clients = (ada, bede)
                for client, token in zip(clients, tokens, strict=True):
                    await client.hello(table, token)
                    await client.until("update")
                mover = clients[ada.of_type("update")[-1]["view"]["deciding"][0]]
                before = game.version
                await mover.send({"type": "act", "id": None,  # null: as no id
                                  "action": mover.of_type("update")[-1]["view"]["legal"][0]})
                while (await mover.until("update"))["version"] <= before:
                    pass
                await mover.send({"type": "ping"})
                await mover.until("pong")
                assert not mover.of_type("acted") and not mover.of_type("error")


async def test_an_act_before_the_start_is_refused_with_its_id() -> None:
    with trio.fail_after(LIMIT):
        async with serving() as (port, _):
            table = (await create_table(port, 2))["table"]
            token = await join(port, table, "Ada")
            async with connect(port) as ada:
                await ada.hello(table, token)
                await ada.until("lobby")
                _, error = await answer(ada, {"type": "act", "action": {"type": "pass"},
                                              "id": 42})
                assert (error["code"], error["id"]) == ("not_playing", 42), error

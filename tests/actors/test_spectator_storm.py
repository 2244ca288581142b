"""A spectator storm on a running game: spectators' attaches change nothing any seat shows,
so they send the seated player nothing; only a seat's own coming and going is broadcast.

Driven through the table's inbox (no sockets) with the gateway's real outbox size, so a
broadcast per attach would fill the player's outbox and drop it (close 4003)."""

from __future__ import annotations

import itertools
import json
from typing import Any

import trio

from quaymoor.actors.connection import Connection
from quaymoor.actors.inbox import Attach, Detach, Reply
from quaymoor.actors.outlet import Outlet
from quaymoor.actors.supervisor import Supervisor
from quaymoor.actors.table import Table
from quaymoor.config import TableConfig
from quaymoor.protocol.messages import WATCHERS_EVERY

SPECTATORS = 150
_ids = itertools.count(5000)
#: Bots that never answer in the test's time, and the player's timer far away: nothing but
#: attaches and detaches changes the table while the test runs.
STILL = TableConfig(bot_delay=600.0, decision_seconds=600.0)


def new_connection() -> tuple[Connection, Outlet]:
    outlet = Outlet(STILL.outbox_size)
    return Connection(next(_ids), outlet), outlet


async def attach(table: Table, conn: Connection, token: str | None) -> None:
    reply = Reply()
    await table.inbox.send(Attach(conn, token, None, reply))
    await reply.wait()


async def round_trip(table: Table) -> None:
    """One more spectator attached: the table has handled everything sent before."""
    conn, _ = new_connection()
    await attach(table, conn, None)


#: every ``watchers`` message each connection's ``waiting`` set aside, by outlet
WATCHERS: dict[int, list[dict[str, Any]]] = {}


def waiting(outlet: Outlet) -> list[dict[str, Any]]:
    """What waits for a connection, but its ``watchers`` messages (set aside in
    ``WATCHERS``: they are coalesced, at most one per ``WATCHERS_EVERY``)."""
    batch = outlet.take()
    frames: list[dict[str, Any]] = []
    for frame in map(json.loads, [f.text for f in batch.frames] if batch else []):
        if frame["type"] == "watchers":
            WATCHERS.setdefault(id(outlet), []).append(frame)
        else:
            frames.append(frame)
    return frames


async def test_a_spectator_storm_sends_the_seated_player_nothing() -> None:
    began = trio.current_time()
    with trio.fail_after(30):
        sup = Supervisor(STILL)
        async with trio.open_nursery() as nursery:
            await nursery.start(sup.run)
            table, joined = await sup.play_now(2, "Ada")
            await sup.start(table.id, joined.token)
            player, inbox = new_connection()
            await attach(table, player, joined.token)
            first = waiting(inbox)
            assert [f["type"] for f in first][:2] == ["welcome", "update"]

            spectators = []
            for _ in range(SPECTATORS):
                conn, recv = new_connection()
                await attach(table, conn, None)
                spectators.append((conn, recv))
            # The player read nothing meanwhile, yet is still attached and was sent nothing.
            assert not player.outlet.dropped.is_set()
            assert player.id in table.fanout.connections
            assert waiting(inbox) == []
            for _, recv in spectators:  # each got its welcome and its own snapshot
                assert [f["type"] for f in waiting(recv)] == ["welcome", "update"]

            for conn, _ in spectators[:50]:  # spectators leaving: nothing either
                await table.inbox.send(Detach(conn))
            await round_trip(table)
            assert waiting(inbox) == []

            # A second connection of the seat changes nothing shown; the seat's last
            # connection leaving does, and the others get one snapshot of it.
            second, _ = new_connection()
            await attach(table, second, joined.token)
            assert waiting(inbox) == []
            await table.inbox.send(Detach(second))
            await table.inbox.send(Detach(player))
            watcher = spectators[-1][1]
            await round_trip(table)
            seen = waiting(watcher)
            assert len(seen) == 1 and seen[0]["type"] == "update" and seen[0]["events"] == []
            assert seen[0]["seats"][0]["connected"] is False
            # and its coming back is one snapshot more
            back, _ = new_connection()
            await attach(table, back, joined.token)
            seen = waiting(watcher)
            assert len(seen) == 1 and seen[0]["seats"][0]["connected"] is True
            # Only who watches reached the player: its catch-up, then one at most per 2 s.
            told = WATCHERS.get(id(inbox), [])
            assert 2 <= len(told) <= 2 + (trio.current_time() - began) / WATCHERS_EVERY
            nursery.cancel_scope.cancel()

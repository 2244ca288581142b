"""Faults over real loopback sockets, each with what was lost (it must be nothing).

- Players who vanish mid-decision (the TCP connection closed or reset under the websocket,
  no close frame): their tables go on (timers play safe moves, then a bot holds the seat),
  the games finish, and each player coming back with ``since`` gets every event it missed.
- A reconnect storm: 50 clients of 10 tables leave and come back over and over while the
  games run; every client's events form one unbroken chain across its connections, equal
  to every other client's at its table, and the server's connection count comes back to
  the number of live connections.
- A client that never reads: its outbox fills, it is dropped (4003), and its table and
  the table's other clients go on to the end of the game.
- Tables whose code raises (an unknown inbox message, a bot, the rules) in the middle of
  heavy traffic on other tables: they end alone and every other game finishes.

SIGTERM in the middle of games (every running game archived, seeds revealed) is covered
by ``tests/fairness/test_sigterm.py`` against a real ``quaymoor serve`` process.

The server runs in the test's own process, like the tests in ``test_end_to_end``, whose
harness these reuse. Real sockets mean the real clock: each test runs under
``trio.fail_after``.
"""

from __future__ import annotations

import random
import socket
import struct
import weakref
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import trio

from quaymoor.actors.table import TableState
from quaymoor.config import ServerConfig, TableConfig
from quaymoor.rules.verify import verify_record
from quaymoor.server import run_server
from tests.actors.test_end_to_end import (
    Client,
    check_chain,
    connect,
    connect_narrow,
    create_table,
    http,
    join,
    own_part,
    play_now,
    seed_matches,
    serving,
    start,
    version_of,
)

LIMIT = 30  #: seconds for a whole test
CLOSE_TOO_SLOW = 4003
CLOSE_TABLE_CRASHED = 4001
#: Refusals of acts that lost a race (sent on a view the game had left, in a simultaneous
#: phase or just before the game ended): each changes nothing.
REFUSALS = ("not_your_decision", "illegal_action", "not_playing")

# ---------------------------------------------------------------- helpers


_SCOPES: weakref.WeakKeyDictionary[Client, trio.CancelScope] = weakref.WeakKeyDictionary()


@asynccontextmanager
async def connect_and_maybe_vanish(port: int) -> AsyncIterator[Client]:
    """``connect``, for a block that may end with ``vanish``."""
    with trio.CancelScope() as scope:
        async with connect(port) as client:
            _SCOPES[client] = scope
            yield client


async def vanish(client: Client, *, reset: bool = False) -> None:
    """Close the TCP connection under the websocket, without a close frame; with
    ``reset``, abort it (SO_LINGER 0: the server sees a reset, not an end of stream). The
    connection's block is cancelled (its next checkpoint ends it): leaving it normally
    could wait forever, as trio-websocket's reader task may be parked on its full message
    queue, and with the stream closed under it nothing would wake it."""
    stream = client.ws._stream
    assert isinstance(stream, trio.SocketStream)
    if reset:
        stream.socket.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    await stream.aclose()
    _SCOPES[client].cancel()


async def server_connections(port: int) -> int:
    status = await http(port, "GET", "/status.json")
    assert status.status == 200
    count: int = status.body["connections"]
    return count


async def settled_connections(port: int, expected: int, within: float = 3.0) -> int:
    """The server's connection count once it equals ``expected``, or after ``within``
    seconds (it counts a connection until it has seen the socket close)."""
    count = await server_connections(port)
    with trio.move_on_after(within):
        while count != expected:
            await trio.sleep(0.02)
            count = await server_connections(port)
    return count


def deciding_now(update: dict[str, Any], client: Client) -> bool:
    """A decision of ours is open in this update and we have not acted on it."""
    view = update["view"]
    return bool(view["legal"]) and update["version"] == view["version"] > client.acted_at


async def take_part(client: Client, *, seated: bool, think: float = 0.0) -> bool:
    """Watch, or play every decision offered (like ``Client.play``, after ``think``
    seconds), until ``game_ended`` (True) or until the server closes (False)."""
    while True:
        frame = await client.next()
        if frame is None:
            return False
        if frame["type"] == "game_ended":
            return True
        if frame["type"] == "error":
            client.pending = None
        if not seated or frame["type"] != "update" or not deciding_now(frame, client):
            continue
        mine = own_part(frame["view"])
        if mine == client.pending and trio.current_time() - client.pending_at < 1.0:
            continue
        if think:
            await trio.sleep(think)
        client.acted_at, client.pending = frame["view"]["version"], mine
        client.pending_at = trio.current_time()
        await client.send({"type": "act", "action": frame["view"]["legal"][0]})
        client.acts += 1


def updates_of(connections: list[Client]) -> list[dict[str, Any]]:
    return [u for c in connections for u in c.of_type("update")]


def events_of(connections: list[Client]) -> list[dict[str, Any]]:
    return [e for c in connections for e in c.events()]


def last_seen(connections: list[Client]) -> int | None:
    updates = updates_of(connections)
    return updates[-1]["version"] if updates else None


def check_errors(connections: list[Client]) -> None:
    unexpected = [e for c in connections for e in c.of_type("error")
                  if e["code"] not in REFUSALS]
    assert not unexpected


# ---------------------------------------------------------------- vanishing players


async def test_players_who_vanish_mid_decision_lose_no_event() -> None:
    """Four 3-seat tables: a player who stays, a player who vanishes mid-decision (two
    tables close the TCP connection, two reset it) and a bot; a spectator watches. The
    vanished seat's timer plays two safe moves, then a bot holds it; two players come back
    mid-game (as soon as the bot holds their seat), two after the game has finished."""
    config = TableConfig(bot_delay=0.0, decision_seconds=0.25, takeover_after=2,
                         linger_seconds=30.0)
    tables = 4
    with trio.fail_after(LIMIT):
        async with serving(config) as (port, supervisor):
            games = []
            for _ in range(tables):
                info = await create_table(port, 3)
                table = info["table"]
                stays = await join(port, table, "Stays")
                goes = await join(port, table, "Vanishes")
                await start(port, table, stays)
                games.append((info, stays, goes))
            seen: dict[str, dict[str, Any]] = {}

            async def one_table(i: int, info: dict[str, Any], stays: str, goes: str) -> None:
                table = info["table"]
                actor = supervisor.tables[table]
                async with connect(port) as watcher, connect(port) as stayer:
                    await watcher.hello(table, None, since=0)
                    await stayer.hello(table, stays, since=0)
                    watched = trio.Event()

                    async def watch() -> None:
                        await watcher.until("game_ended")
                        watched.set()

                    async with trio.open_nursery() as nursery:
                        nursery.start_soon(watch)
                        nursery.start_soon(stayer.play)
                        async with connect_and_maybe_vanish(port) as first:
                            await first.hello(table, goes, since=0)
                            assert await first.play(acts=2) is None
                            while not deciding_now(await first.until("update"), first):
                                pass
                            await vanish(first, reset=i % 2 == 1)
                        last = first.last_version()
                        if i < tables // 2:  # back mid-game, once a bot holds the seat
                            while not actor.seats[1].bot_playing:
                                assert actor.state is TableState.PLAYING
                                await trio.sleep(0.01)
                            assert actor.state is TableState.PLAYING
                        else:
                            await watched.wait()
                        async with connect(port) as second:
                            await second.hello(table, goes, since=last)
                            welcome = await second.until("welcome")
                            assert welcome["seat"] == 1 and welcome["started"] is True
                            ended = await second.play()
                            assert ended is not None
                seen[table] = {"watcher": watcher, "stayer": stayer, "first": first,
                               "second": second, "last": last, "ended": ended,
                               "timeouts": actor.turns.timeouts}

            async with trio.open_nursery() as nursery:
                for i, (info, stays, goes) in enumerate(games):
                    nursery.start_soon(one_table, i, info, stays, goes)

            for info, _, _ in games:
                table = info["table"]
                s = seen[table]
                watcher, stayer, first, second = s["watcher"], s["stayer"], s["first"], \
                    s["second"]
                record = supervisor.records[table]
                assert record.end_reason == "finished" and verify_record(record).ok
                final = len(record.actions)
                for client in (watcher, stayer, second):
                    ended = client.of_type("game_ended")
                    assert len(ended) == 1 and ended[0]["reason"] == "finished"
                    assert seed_matches(ended[0]["seed"], info)
                    assert client.last_version() == final
                # Nothing lost: the spectator saw every event from version 0, and so did
                # the player who stayed and the one who vanished, over its two connections.
                check_chain(watcher.of_type("update"), start=0)
                check_chain(stayer.of_type("update"), start=0)
                check_chain(updates_of([first, second]), start=0)
                catch_up = second.of_type("update")[0]
                assert catch_up["since"] == s["last"] and catch_up["version"] > s["last"]
                assert catch_up["events"]
                assert watcher.events()
                assert stayer.events() == watcher.events()
                assert events_of([first, second]) == watcher.events()
                # The table went on without the player: its seat was seen disconnected,
                # its timer ran out twice, then a bot held the seat.
                seats = [u["seats"][1] for u in watcher.of_type("update")]
                assert any(not seat["connected"] for seat in seats)
                assert any(seat["bot_playing"] for seat in seats)
                assert s["timeouts"] >= 2
                check_errors([watcher, stayer, first, second])
            assert supervisor.crash_count == 0
            assert await settled_connections(port, 0) == 0


# ---------------------------------------------------------------- a reconnect storm


async def test_a_reconnect_storm_loses_no_event_and_no_connection() -> None:
    """10 tables of 3 players and 2 spectators (50 clients) leave and come back 5 times
    each while the games run (a third of the leavings close the websocket, a third close
    the TCP connection, a third reset it), each coming back with ``since`` = the last
    version it saw; then each stays to the end of its game."""
    config = TableConfig(bot_delay=0.0, decision_seconds=0.3, takeover_after=2,
                         linger_seconds=30.0)
    tables, players, watchers, rounds = 10, 3, 2, 5
    rng = random.Random(7)
    with trio.fail_after(LIMIT):
        async with serving(config) as (port, supervisor):
            seats: list[tuple[dict[str, Any], str | None]] = []
            for _ in range(tables):
                info = await create_table(port, players)
                tokens = [await join(port, info["table"], f"P{i}") for i in range(players)]
                await start(port, info["table"], tokens[0])
                seats += [(info, token) for token in tokens]
                seats += [(info, None)] * watchers
            assert len(seats) == 50
            history: list[list[Client]] = [[] for _ in seats]
            closed_by_server: list[int | None] = []
            live = 0
            ended = 0
            everyone_ended = trio.Event()
            leave = trio.Event()
            storm_over = trio.Event()
            storming = len(seats)

            async def connection(n: int, *, final: bool, style: int, stay: float) -> bool:
                """One connection of client ``n``: hello with ``since``, take part for
                ``stay`` seconds (or to the end, when ``final``), then leave."""
                nonlocal live, ended
                info, token = seats[n]
                conns = history[n]
                since = last_seen(conns)
                async with connect_and_maybe_vanish(port) as client:
                    live += 1
                    try:
                        conns.append(client)
                        await client.hello(info["table"], token, since=0 if since is None
                                           else since)
                        with trio.move_on_after(LIMIT if final else stay):
                            done = await take_part(client, seated=token is not None,
                                                   think=0.0 if final else 0.02)
                            if not done:
                                closed_by_server.append(client.close_code)
                            elif final:
                                # Stay connected, silent, until every client has seen its
                                # game end: then the server must count exactly 50.
                                ended += 1
                                if ended == len(seats):
                                    everyone_ended.set()
                                await leave.wait()
                            return done
                        if style:
                            await vanish(client, reset=style == 2)
                        return False
                    finally:
                        live -= 1

            async def client(n: int) -> None:
                nonlocal storming
                for r in range(rounds):
                    if await connection(n, final=False, style=(n + r) % 3,
                                        stay=rng.uniform(0.1, 0.4)):
                        break  # the game ended already: nothing left to storm
                    await trio.sleep(rng.uniform(0.0, 0.1))
                storming -= 1
                if storming == 0:
                    storm_over.set()
                while not await connection(n, final=True, style=0, stay=0.0):
                    pass

            async with trio.open_nursery() as nursery:
                for n in range(len(seats)):
                    nursery.start_soon(client, n)
                await storm_over.wait()
                playing_after_storm = sum(
                    t.state is TableState.PLAYING for t in supervisor.tables.values())
                await everyone_ended.wait()
                assert live == len(seats)
                assert await settled_connections(port, live) == live
                leave.set()

            assert await settled_connections(port, 0) == 0
            # The storm hit games in progress (most games outlast it).
            assert playing_after_storm >= tables // 2, playing_after_storm
            # Only drops for falling behind (a connection that may come back) closed a
            # connection from the server's side.
            assert set(closed_by_server) <= {CLOSE_TOO_SLOW}, closed_by_server
            assert supervisor.crash_count == 0
            by_table: dict[str, list[int]] = {}
            for n, (info, _) in enumerate(seats):
                by_table.setdefault(info["table"], []).append(n)
            for table, clients in by_table.items():
                record = supervisor.records[table]
                assert record.end_reason == "finished"
                reference = events_of(history[clients[0]])
                assert reference
                for n in clients:
                    conns = history[n]
                    assert len(conns) >= 2
                    # One unbroken chain across every connection: each came back at the
                    # version it had last seen, and no event fell into a gap.
                    check_chain(updates_of(conns), start=0)
                    seen_before: int = 0
                    for conn in conns:
                        updates = conn.of_type("update")
                        if updates:
                            assert updates[0]["since"] == seen_before
                            seen_before = updates[-1]["version"]
                    assert seen_before == len(record.actions)
                    assert events_of(conns) == reference
                    ends = [f for c in conns for f in c.of_type("game_ended")]
                    assert ends and all(e["reason"] == "finished" for e in ends)
                    check_errors(conns)


# ---------------------------------------------------------------- a client that never reads


async def test_a_client_that_never_reads_is_dropped_and_its_table_goes_on() -> None:
    """A spectator says hello and never reads while a 5-seat table (one human playing as
    fast as it may, four bots at no delay) plays a whole game: its outbox fills and the
    table drops it (4003); the player and another spectator see the game to its end. When
    it reads at last it gets what was queued, in order, then the 4003; coming back with
    ``since`` it gets the rest."""
    config = TableConfig(bot_delay=0.0, decision_seconds=30.0, linger_seconds=10.0)
    with trio.fail_after(LIMIT):
        async with serving(config) as (port, supervisor):
            info = await play_now(port, players=5)
            table = info["table"]
            async with connect_narrow(port) as lazy, connect(port) as watcher, \
                    connect(port) as me:
                await lazy.hello(table, None, since=0)
                await watcher.hello(table, None, since=0)
                await me.hello(table, info["token"], since=0)
                async with trio.open_nursery() as nursery:
                    nursery.start_soon(watcher.until, "game_ended")
                    ended = await me.play()
                assert ended is not None and ended["reason"] == "finished"
                final = version_of(supervisor, table)
                assert await lazy.drain() == CLOSE_TOO_SLOW
            assert not lazy.of_type("game_ended")
            dropped_at = lazy.last_version()
            assert 0 < dropped_at < final  # dropped in the middle of the game
            check_chain(lazy.of_type("update"), start=0)
            async with connect(port) as back:
                await back.hello(table, None, since=dropped_at)
                await back.until("game_ended")
            assert back.of_type("update")[0]["since"] == dropped_at
            check_chain(back.of_type("update"), start=dropped_at)
            for client in (me, watcher):
                assert client.close_code is None  # never dropped
                check_chain(client.of_type("update"), start=0)
                assert client.last_version() == final
            assert watcher.events() == me.events() == events_of([lazy, back])
            assert supervisor.records[table].end_reason == "finished"
            assert supervisor.crash_count == 0


async def test_a_dropped_client_that_never_reads_is_let_go() -> None:
    """The table drops a client that never reads; the server must then let go of its
    connection too, even if the client never reads again (else every such client pins a
    socket and up to ``outbox_size`` messages for as long as it likes)."""
    config = TableConfig(bot_delay=0.0, decision_seconds=30.0, linger_seconds=0.2)
    server = ServerConfig(port=0, table=config, archive_path=":memory:", drop_grace=0.5)
    with trio.fail_after(LIMIT):
        async with trio.open_nursery() as nursery:
            port, supervisor = await nursery.start(run_server, server)
            info = await play_now(port, players=5)
            table = info["table"]
            async with connect_narrow(port) as lazy:
                await lazy.hello(table, None, since=0)
                async with connect(port) as me:
                    await me.hello(table, info["token"], since=0)
                    assert await me.play() is not None
                while table in supervisor.tables:  # lingering, then closed
                    await trio.sleep(0.05)
                held = await settled_connections(port, 0, within=3.0)
                assert held == 0, f"{held} connection still held 3 s after its table closed"
            nursery.cancel_scope.cancel()


# ---------------------------------------------------------------- tables that raise


async def test_tables_that_raise_under_load_end_alone() -> None:
    """Nine 4-seat tables, each with a human playing and two spectators (27 websockets).
    Mid-game, three tables' code raises: one table's handler (an unknown inbox message),
    one table's bots (in a seat worker's task), one table's rules (on the next action).
    Those three end alone (4001, seeds revealed, records kept); the six others finish
    with every client's events complete and in order."""
    config = TableConfig(bot_delay=0.0, decision_seconds=30.0, linger_seconds=0.5)
    tables, spectators = 9, 2
    with trio.fail_after(LIMIT):
        async with serving(config) as (port, supervisor):
            games = [await play_now(port, players=4, name=f"P{i}") for i in range(tables)]
            doomed = {g["table"] for g in games[:3]}
            actors = {g["table"]: supervisor.tables[g["table"]] for g in games}
            clients: dict[str, list[Client]] = {g["table"]: [] for g in games}

            def boom(*_: Any, **__: Any) -> Any:
                raise RuntimeError("injected fault")

            async def sabotage() -> None:
                # Every game under way first, so that traffic is heavy when they raise.
                while min(version_of(supervisor, g["table"]) for g in games) < 10:
                    await trio.sleep(0.01)
                handler, bots, rules = (actors[g["table"]] for g in games[:3])
                await handler.inbox.send(object())  # type: ignore[arg-type]  # not an inbox message: the table raises
                for seat in list(bots.turns.bots):
                    bots.turns.bots[seat] = boom
                assert rules.game is not None
                rules.game.apply = boom  # type: ignore[method-assign]

            async def one_table(game: dict[str, Any]) -> None:
                table = game["table"]
                async with connect(port) as me:
                    mine = clients[table]
                    mine.append(me)
                    await me.hello(table, game["token"], since=0)
                    async with trio.open_nursery() as nursery:
                        for _ in range(spectators):
                            nursery.start_soon(watch, table, mine)
                        await take_part(me, seated=True)
                        await me.drain()

            async def watch(table: str, mine: list[Client]) -> None:
                async with connect(port) as watcher:
                    mine.append(watcher)
                    await watcher.hello(table, None, since=0)
                    await watcher.drain()

            async with trio.open_nursery() as nursery:
                for game in games:
                    nursery.start_soon(one_table, game)
                nursery.start_soon(sabotage)

            assert supervisor.crash_count == 3
            status = await http(port, "GET", "/status.json")
            assert status.body["crash_count"] == 3
            assert {c["table"] for c in status.body["crashes"]} == doomed
            assert supervisor.games_finished == tables - 3
            for game in games:
                table = game["table"]
                mine = clients[table]
                assert len(mine) == 1 + spectators
                record = supervisor.records[table]
                for client in mine:
                    ends = client.of_type("game_ended")
                    assert len(ends) == 1
                    assert seed_matches(ends[0]["seed"], game)
                    check_chain(client.of_type("update"), start=0)
                    assert client.last_version() == len(record.actions)
                    assert client.events() == mine[0].events()
                    if table in doomed:
                        assert ends[0]["reason"] == "crashed" and ends[0]["result"] is None
                        assert client.close_code == CLOSE_TABLE_CRASHED
                    else:
                        assert ends[0]["reason"] == "finished" and ends[0]["result"]
                        assert client.close_code != CLOSE_TABLE_CRASHED
                assert record.end_reason == ("crashed" if table in doomed else "finished")
                check_errors(mine)
            assert doomed.isdisjoint(supervisor.tables)

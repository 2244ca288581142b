"""The whole server over real loopback sockets: the lobby over HTTP, games over websockets.

Each test starts ``run_server`` on a free port inside the test, talks to it with a tiny
HTTP/1.1 client and trio-websocket clients, and cancels it at the end. Real sockets mean
the real clock (no autojump), so every test runs under ``trio.fail_after``.

The clients pace what they send under the server's rate limit (20 messages a second, a
burst of 60): a client acting on every decision against instant bots would otherwise be
closed with 1008 partway through a game.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, suppress
from itertools import pairwise
from typing import Any

import attrs
import pytest
import trio
from trio_websocket import (
    ConnectionClosed,
    ConnectionRejected,
    WebSocketConnection,
    open_websocket_url,
    wrap_client_stream,
)

from quaymoor.actors.supervisor import Supervisor
from quaymoor.config import ServerConfig, TableConfig
from quaymoor.rules.fairness import seed_commitment, table_fingerprint
from quaymoor.rules.record import GameRecord
from quaymoor.rules.verify import verify_record
from quaymoor.server import run_server
from tests.patching import Views

LIMIT = 60  #: seconds for a whole test
PLAY = TableConfig(bot_delay=0.0, decision_seconds=30.0, linger_seconds=1.0)
MADE_UP = "0000000000"

# ---------------------------------------------------------------- harness


@asynccontextmanager
async def serving(table: TableConfig = PLAY) -> AsyncIterator[tuple[int, Supervisor]]:
    """The whole server on a free loopback port, cancelled on the way out."""
    async with trio.open_nursery() as nursery:
        config = ServerConfig(port=0, table=table, archive_path=":memory:")
        port, supervisor = await nursery.start(run_server, config)
        yield port, supervisor
        nursery.cancel_scope.cancel()


@attrs.frozen
class HttpReply:
    status: int
    headers: dict[str, str]
    body: Any  #: the JSON body, decoded


async def http(port: int, method: str, path: str, body: Any = None,
               headers: dict[str, str] | None = None) -> HttpReply:
    """One HTTP/1.1 request on its own connection (``Connection: close``), with
    ``headers`` besides the usual ones."""
    payload = b"" if body is None else json.dumps(body).encode()
    head = [f"{method} {path} HTTP/1.1", f"Host: 127.0.0.1:{port}", "Connection: close",
            "Accept: application/json", *(f"{k}: {v}" for k, v in (headers or {}).items())]
    if body is not None:
        head += ["Content-Type: application/json", f"Content-Length: {len(payload)}"]
    stream = await trio.open_tcp_stream("127.0.0.1", port)
    async with stream:
        await stream.send_all(("\r\n".join(head) + "\r\n\r\n").encode() + payload)
        raw = b""
        while chunk := await stream.receive_some(65536):
            raw += chunk
    top, _, rest = raw.partition(b"\r\n\r\n")
    status_line, *lines = top.decode("latin-1").split("\r\n")
    got = {}
    for line in lines:
        name, _, value = line.partition(":")
        got[name.strip().lower()] = value.strip()
    assert len(rest) == int(got["content-length"]), "a short or overlong body"
    return HttpReply(int(status_line.split()[1]), got, json.loads(rest) if rest else None)


async def create_table(port: int, players: int) -> dict[str, Any]:
    reply = await http(port, "POST", "/api/tables", {"players": players})
    assert reply.status == 201, reply
    info: dict[str, Any] = reply.body
    return info


async def join(port: int, table: str, name: str) -> str:
    reply = await http(port, "POST", f"/api/tables/{table}/join", {"name": name})
    assert reply.status == 200, reply
    token: str = reply.body["token"]
    return token


async def start(port: int, table: str, token: str) -> list[str | None]:
    """Start the table; returns the commitments the start fixed."""
    reply = await http(port, "POST", f"/api/tables/{table}/start", {"token": token})
    assert reply.status == 200, reply
    assert {k: v for k, v in reply.body.items() if k != "commitments"} == {
        "table": table, "started": True}, reply
    fixed: list[str | None] = reply.body["commitments"]
    return fixed


async def play_now(port: int, players: int = 2, name: str = "Ada") -> dict[str, Any]:
    """Play now as the browser does it: the table and seat (with the fingerprint), the
    seat's commitment, the start (our commitment listed at our seat), the seed revealed."""
    reply = await http(port, "POST", "/api/play-now", {"name": name, "players": players})
    assert reply.status == 201, reply
    info: dict[str, Any] = reply.body
    table, seed = info["table"], f"{name}'s dice"
    commitment = seed_commitment(table, info["seat"], seed)
    committed = await http(port, "POST", f"/api/tables/{table}/commit",
                           {"token": info["token"], "commitment": commitment})
    assert committed.status == 200, committed
    assert (await start(port, table, info["token"]))[info["seat"]] == commitment
    revealed = await http(port, "POST", f"/api/tables/{table}/reveal",
                          {"token": info["token"], "client_seed": seed})
    assert revealed.status == 200, revealed
    return info


def version_of(supervisor: Supervisor, table: str) -> int:
    game = supervisor.tables[table].game
    assert game is not None
    return game.version


def seed_matches(seed: str, made: dict[str, Any]) -> bool:
    """The seed revealed is the one the table ``made`` (its answer: id, seats and
    fingerprint) committed to at its creation."""
    shown: str = made["fingerprint"]
    return table_fingerprint(bytes.fromhex(seed), made["table"], made["players"]) == shown


class Client:
    """One websocket client: keeps every frame and the close code, paces its sends."""

    RATE, BURST = 19.0, 55.0  #: under the server's 20 a second, burst 60

    def __init__(self, ws: WebSocketConnection) -> None:
        self.ws = ws
        self.frames: list[dict[str, Any]] = []
        self.views = Views()  #: deltas applied: each update has its whole view
        self.close_code: int | None = None
        self.acted_at = -1  #: the version last acted on: one action per version
        self.pending: str | None = None  #: our side of the view when we last acted
        self.pending_at = 0.0
        self.acts = 0
        self._tokens = self.BURST
        self._last = trio.current_time()

    async def send(self, message: Any) -> None:
        """Send a JSON message (or a raw str/bytes frame), paced; a closing socket is
        not an error here: what the server sent before closing is still read."""
        while True:
            now = trio.current_time()
            self._tokens = min(self.BURST, self._tokens + (now - self._last) * self.RATE)
            self._last = now
            if self._tokens >= 1:
                break
            await trio.sleep((1 - self._tokens) / self.RATE)
        self._tokens -= 1
        frame = message if isinstance(message, str | bytes) else json.dumps(message)
        with suppress(ConnectionClosed):
            await self.ws.send_message(frame)

    async def hello(self, table: str, token: str | None = None, since: int | None = None) -> None:
        await self.send({"type": "hello", "table": table, "token": token, "since": since})

    async def next(self) -> dict[str, Any] | None:
        """The next frame, or None once the server has closed (``close_code`` is set)."""
        try:
            text = await self.ws.get_message()
        except ConnectionClosed as exc:
            assert exc.reason is not None
            self.close_code = exc.reason.code
            return None
        assert isinstance(text, str), "the server sends text frames only"
        frame: dict[str, Any] = self.views.feed(json.loads(text))
        self.frames.append(frame)
        return frame

    async def until(self, kind: str) -> dict[str, Any]:
        """Read up to and including the next frame of type ``kind``."""
        while True:
            frame = await self.next()
            assert frame is not None, f"closed ({self.close_code}) before a {kind} frame"
            if frame["type"] == kind:
                return frame

    async def drain(self) -> int | None:
        """Read everything until the server closes; returns the close code."""
        while await self.next() is not None:
            pass
        return self.close_code

    async def play(self, *, acts: int | None = None,
                   stop_at: int | None = None) -> dict[str, Any] | None:
        """Take every decision offered (the view's first legal action) until
        ``game_ended`` (returned), or return None after ``acts`` actions, or as soon as an
        update at version ``stop_at`` or later comes (acting on none from then on).

        One action per version, and none while the last one is still on its way: in a
        simultaneous phase others' moves bring updates in which our own part has not
        changed yet (acting on those would only draw errors, and use up the rate limit).
        """
        done = 0
        # The last update read before (a resync's snapshot, say) may offer a decision
        # nobody has acted on yet: it comes first (acted_at keeps it to one action).
        held = [f for f in self.frames[-1:] if f["type"] == "update"]
        while True:
            frame = held.pop() if held else await self.next()
            assert frame is not None, f"closed ({self.close_code}) before the game ended"
            if frame["type"] == "game_ended":
                return frame
            if frame["type"] == "error":
                self.pending = None
            if frame["type"] != "update":
                continue
            if stop_at is not None and frame["version"] >= stop_at:
                return None
            view = frame["view"]
            if not view["legal"] or not frame["version"] == view["version"] > self.acted_at:
                continue
            mine = own_part(view)
            if mine == self.pending and trio.current_time() - self.pending_at < 1.0:
                continue
            self.acted_at, self.pending = view["version"], mine
            self.pending_at = trio.current_time()
            await self.send({"type": "act", "action": view["legal"][0]})
            self.acts += 1
            done += 1
            if acts is not None and done >= acts:
                return None

    def of_type(self, kind: str) -> list[dict[str, Any]]:
        return [f for f in self.frames if f["type"] == kind]

    def events(self) -> list[dict[str, Any]]:
        return [e for f in self.of_type("update") for e in f["events"]]

    def last_version(self) -> int:
        version: int = self.of_type("update")[-1]["version"]
        return version


def own_part(view: dict[str, Any]) -> str:
    """What an action of the viewer changes: its mat, its choices, whose turn it is."""
    board = view["board"]
    return json.dumps([
        view["mats"][view["seat"]], view["deciding"], view["legal"], view["takebacks"],
        view["keep"], board["phase"], board["role"], board["turn"], board["roles"],
    ], sort_keys=True)


@asynccontextmanager
async def connect(
    port: int, *, headers: list[tuple[bytes, bytes]] | None = None
) -> AsyncIterator[Client]:
    async with open_websocket_url(f"ws://127.0.0.1:{port}/ws", extra_headers=headers) as ws:
        yield Client(ws)


@asynccontextmanager
async def connect_narrow(port: int, window: int = 2048) -> AsyncIterator[Client]:
    """A client whose socket takes in at most about ``window`` bytes it has not read: one
    that stops reading fills the server's side after a few frames, however small they are
    (deltas are; the kernel's usual buffers would hold a whole game of them)."""
    sock = trio.socket.socket()
    sock.setsockopt(trio.socket.SOL_SOCKET, trio.socket.SO_RCVBUF, window)
    await sock.connect(("127.0.0.1", port))
    async with trio.open_nursery() as nursery:
        ws = await wrap_client_stream(nursery, trio.SocketStream(sock), "127.0.0.1", "/ws")
        try:
            yield Client(ws)
        finally:
            await ws.aclose()


def check_chain(updates: list[dict[str, Any]], start: int | None = None) -> None:
    """Updates form one unbroken chain: each starts where the previous ended (``since``
    equals the previous ``version``), so no event can fall in a gap. An update either
    moves the version on or, with no events, repeats it (a fresh snapshot: a seat came
    or went); the moves' versions are strictly increasing."""
    previous = start
    for update in updates:
        assert update["version"] == update["view"]["version"]
        if previous is not None:
            assert update["since"] == previous, (update["since"], previous)
        assert update["version"] >= update["since"]
        if update["events"]:
            assert update["version"] > update["since"]
        previous = update["version"]
    moves = [u["version"] for u in updates if u["version"] > u["since"]]
    assert all(a < b for a, b in pairwise(moves))


# ---------------------------------------------------------------- games


async def test_four_humans_play_a_whole_game_over_sockets() -> None:
    with trio.fail_after(LIMIT):
        async with serving() as (port, supervisor):
            info = await create_table(port, 4)
            table, fingerprint = info["table"], info["fingerprint"]
            assert len(fingerprint) == 64 and info["players"] == 4
            tokens = [await join(port, table, name) for name in ("Ada", "Bede", "Cy", "Di")]
            await start(port, table, tokens[0])
            missing = await http(port, "GET", f"/games/{table}.json")
            assert missing.status == 404 and missing.body["error"]["code"] == "unknown_game"

            clients: dict[int, Client] = {}
            ended: dict[int, dict[str, Any]] = {}

            async def player(seat: int) -> None:
                async with connect(port) as client:
                    clients[seat] = client
                    await client.hello(table, tokens[seat])
                    welcome = await client.until("welcome")
                    assert welcome["seat"] == seat and welcome["started"] is True
                    assert welcome["fingerprint"] == fingerprint
                    assert welcome["seats"][seat]["connected"] is True
                    result = await client.play()
                    assert result is not None
                    ended[seat] = result

            async with trio.open_nursery() as nursery:
                for seat in range(4):
                    nursery.start_soon(player, seat)
                    if seat == 1:
                        await trio.sleep(0.2)  # let the game begin before the last two come
                        still = await http(port, "GET", f"/games/{table}.json")
                        assert still.status == 404

            final = supervisor.records[table]
            for seat, client in clients.items():
                result = ended[seat]
                assert result["reason"] == "finished" and result["table"] == table
                assert result["fingerprint"] == fingerprint
                assert seed_matches(result["seed"], info)
                assert result["record_url"] == f"/games/{table}.json"
                assert result["result"]["winners"]
                updates = client.of_type("update")
                check_chain(updates)
                assert updates[-1]["version"] == len(final.actions)
                assert updates[-1]["view"]["result"] == result["result"]
                assert client.acts > 0
                unexpected = [e for e in client.of_type("error")
                              if e["code"] not in ("not_your_decision", "illegal_action")]
                assert not unexpected
            # Everyone saw the same events from the version the last of them came in at.
            latest = max(c.of_type("update")[0]["since"] for c in clients.values())
            tails = [[e for u in c.of_type("update") if u["since"] >= latest for e in u["events"]]
                     for c in clients.values()]
            assert tails[0] and all(tail == tails[0] for tail in tails)
            assert len({r["seed"] for r in ended.values()}) == 1

            served = await http(port, "GET", f"/games/{table}.json")
            assert served.status == 200
            record = GameRecord.from_json(json.dumps(served.body))
            assert record.seed == ended[0]["seed"] and record.fingerprint == fingerprint
            assert [s.name for s in record.seats] == ["Ada", "Bede", "Cy", "Di"]
            assert verify_record(record).ok


async def test_a_spectator_never_sees_hidden_information() -> None:
    with trio.fail_after(LIMIT):
        async with serving() as (port, _supervisor):
            info = await play_now(port, players=3)
            table = info["table"]
            spectator_ended: dict[str, Any] = {}

            async with connect(port) as me, connect(port) as watcher:
                await me.hello(table, info["token"])
                await watcher.hello(table, None, since=0)

                async def watch() -> None:
                    spectator_ended.update(await watcher.until("game_ended"))

                async with trio.open_nursery() as nursery:
                    nursery.start_soon(watch)
                    mine = await me.play()
                    assert mine is not None and mine["reason"] == "finished"

            seed = mine["seed"]
            assert spectator_ended["seed"] == seed
            assert seed_matches(seed, info)
            welcome = watcher.of_type("welcome")[0]
            assert welcome["seat"] is None
            for client, own in ((watcher, None), (me, 0)):
                check_chain(client.of_type("update"))
                before_end = client.frames[: client.frames.index(client.of_type("game_ended")[0])]
                for frame in before_end:
                    assert seed not in json.dumps(frame)
                    if frame["type"] != "update":
                        continue
                    view = frame["view"]
                    assert view["seat"] == own
                    assert isinstance(view["board"]["stack"], int)
                    if own is None:
                        assert view["legal"] == [] and view["takebacks"] == []
                    if view["result"] is not None:
                        continue  # the final position: everything is revealed
                    for mat in view["mats"]:
                        if mat["seat"] != own:
                            assert mat["seals"] is None and mat["score"] is None
                        else:
                            assert isinstance(mat["seals"], int)
            last = watcher.of_type("update")[-1]["view"]
            assert all(isinstance(m["seals"], int) for m in last["mats"])
            # The spectator, attached from version 0, saw every event of the record.
            assert watcher.of_type("update")[0]["since"] == 0


async def test_a_human_who_never_acts_is_timed_out_and_the_game_moves_on() -> None:
    seconds = 0.3
    config = TableConfig(bot_delay=0.0, decision_seconds=seconds, linger_seconds=1.0)
    with trio.fail_after(LIMIT):
        async with serving(config) as (port, supervisor):
            info = await play_now(port, players=2)
            table = supervisor.tables[info["table"]]
            async with connect(port) as idle:
                await idle.hello(info["table"], info["token"])
                welcome = await idle.until("welcome")
                assert welcome["decision_seconds"] == seconds
                passed = 0
                update = await idle.until("update")
                while passed < 6:
                    view = update["view"]
                    clock = {c["seat"]: c["remaining"] for c in update["clocks"]}
                    if 0 in view["deciding"]:
                        # Every decision of ours runs a live timer: bots act at once, so
                        # nothing but our own timer moves the game late in it.
                        assert seconds / 3 <= clock[0] <= seconds, (update["version"], clock)
                    else:
                        assert 0 not in clock
                    if view["deciding"] != [0]:
                        update = await idle.until("update")
                        continue
                    # A decision of ours alone: only our timer can move the game on.
                    asked_at, version = trio.current_time(), update["version"]
                    update = await idle.until("update")
                    while update["version"] == version:
                        update = await idle.until("update")  # a seats snapshot
                    assert update["since"] == version
                    assert trio.current_time() - asked_at >= seconds / 2
                    assert any(e.get("seat") == 0 for e in update["events"])  # our safe move
                    passed += 1
                assert table.turns.timeouts >= 6
                assert not idle.of_type("error") and idle.acts == 0
                assert table.seats[0].bot_playing is False  # connected: no bot takes over
                check_chain(idle.of_type("update"))


async def test_reconnect_with_since_loses_no_event() -> None:
    # No bot takes the seat over while we are away: the game must still be on when we return.
    config = TableConfig(bot_delay=0.0, decision_seconds=0.5, linger_seconds=1.0,
                         takeover_after=1000)
    with trio.fail_after(LIMIT):
        async with serving(config) as (port, supervisor):
            info = await play_now(port, players=3)
            table, token = info["table"], info["token"]
            watcher_done = trio.Event()

            async with connect(port) as watcher:
                await watcher.hello(table, None, since=0)

                async def watch() -> None:
                    await watcher.until("game_ended")
                    watcher_done.set()

                async with trio.open_nursery() as nursery:
                    nursery.start_soon(watch)
                    async with connect(port) as first:
                        await first.hello(table, token, since=0)
                        assert await first.play(acts=3) is None
                    last = first.last_version()
                    # Away: the timer (and then a bot) plays for us while the game goes on.
                    while version_of(supervisor, table) < last + 5:
                        await trio.sleep(0.05)
                    async with connect(port) as second:
                        await second.hello(table, token, since=last)
                        welcome = await second.until("welcome")
                        assert welcome["seat"] == 0 and welcome["started"] is True
                        catch_up = await second.until("update")
                        assert catch_up["since"] == last
                        assert catch_up["version"] >= last + 5 and catch_up["events"]
                        ended = await second.play()
                        assert ended is not None and ended["reason"] == "finished"
                    await watcher_done.wait()

            check_chain(first.of_type("update"))
            check_chain(second.of_type("update"), start=last)
            check_chain(watcher.of_type("update"))
            assert first.of_type("update")[0]["since"] == 0
            mine = first.events() + second.events()
            assert mine == watcher.events()
            assert len(mine) > 0
            assert second.last_version() == watcher.last_version()


# ---------------------------------------------------------------- refusals


async def test_bad_input_is_refused_and_changes_nothing() -> None:
    with trio.fail_after(LIMIT):
        async with serving() as (port, supervisor):
            info = await create_table(port, 2)
            table = info["table"]
            tokens = [await join(port, table, name) for name in ("Ada", "Bede")]
            await start(port, table, tokens[0])
            other = await play_now(port, players=2, name="Cy")
            game = supervisor.tables[table].game
            assert game is not None
            before = game.version

            async with connect(port) as ada, connect(port) as bede, connect(port) as watcher:
                await ada.hello(table, tokens[0])
                await bede.hello(table, tokens[1])
                await watcher.hello(table)
                update = await ada.until("update")
                deciding = update["view"]["deciding"]
                assert len(deciding) == 1
                waiting = (ada, bede)[1 - deciding[0]]  # the seat whose turn it is not
                await bede.until("update")
                await watcher.until("update")

                async def refused(client: Client, frame: Any, code: str) -> dict[str, Any]:
                    await client.send(frame)
                    error = await client.until("error")
                    assert error["code"] == code, error
                    return error

                await refused(ada, "this is not JSON", "bad_json")
                await refused(ada, b"\x00\x01binary", "bad_message")
                await refused(ada, "[1, 2]", "bad_message")
                await refused(ada, {"type": "shout"}, "unknown_type")
                barge = await refused(ada, {"type": "act", "action": {
                    "type": "load", "good": "wool", "barge": "1"}}, "bad_action")
                assert "$.action.barge" in barge["message"]
                await refused(ada, {"type": "act", "action": {"type": "fly"}}, "bad_action")
                await refused(ada, {"type": "act", "action": {
                    "type": "pass", "extra": 1}}, "bad_action")
                await refused(ada, {"type": "hello", "table": table}, "already_attached")
                await refused(watcher, {"type": "act", "action": {"type": "pass"}}, "spectator")
                out_of_turn = await refused(waiting, {"type": "act", "action": {
                    "type": "pick_role", "role": "miller"}}, "not_your_decision")
                assert out_of_turn["message"]
                await ada.send({"type": "ping"})
                await ada.until("pong")
                assert game.version == before

            # Closing refusals, each on a connection of its own.
            async def closed_with(hello: Any, code: int, error: str | None) -> Client:
                async with connect(port) as client:
                    await client.send(hello)
                    assert await client.drain() == code
                if error is not None:
                    assert [e["code"] for e in client.of_type("error")] == [error]
                return client

            await closed_with({"type": "hello", "table": table, "token": other["token"]},
                              4005, "bad_token")
            await closed_with({"type": "hello", "table": table, "token": "made-up-token"},
                              4005, "bad_token")
            await closed_with({"type": "hello", "table": MADE_UP}, 4004, "unknown_table")
            await closed_with({"type": "ping"}, 1008, "hello_first")
            await closed_with("{", 1008, "bad_json")

            async with connect(port) as big:
                await big.hello(table, tokens[0])
                await big.until("update")
                await big.send({"type": "ping", "pad": "x" * (64 * 1024)})
                assert await big.drain() == 1009
                assert not big.of_type("pong")

            async with connect(port) as flood:
                await flood.hello(table, tokens[1])
                await flood.until("update")
                for _ in range(200):  # unpaced: straight onto the socket
                    try:
                        await flood.ws.send_message(json.dumps({"type": "ping"}))
                    except ConnectionClosed:
                        break
                assert await flood.drain() == 1008
                assert 50 <= len(flood.of_type("pong")) <= 65

            with pytest.raises(ConnectionRejected) as rejected:
                async with connect(port, headers=[(b"Origin", b"http://evil.example")]):
                    pass
            assert rejected.value.status_code == 403

            # Plain-HTTP refusals use the error shape and change nothing either.
            bad = await http(port, "POST", f"/api/tables/{table}/start", {"token": "nope"})
            assert bad.status == 409 and bad.body["error"]["code"] == "already_started"
            bad = await http(port, "POST", "/api/tables", {"players": 9})
            assert bad.status == 400 and bad.body["error"]["code"] == "bad_players"
            bad = await http(port, "POST", f"/api/tables/{MADE_UP}/join", {"name": "X"})
            assert bad.status == 404 and bad.body["error"]["code"] == "unknown_table"
            bad = await http(port, "POST", "/api/play-now", {"players": "2"})
            assert bad.status == 400 and bad.body["error"]["code"] == "bad_request"

            assert game.version == before
            async with connect(port) as late:
                await late.hello(table)
                assert (await late.until("update"))["version"] == before
            assert supervisor.crash_count == 0


# ---------------------------------------------------------------- endings


async def test_a_crashing_table_ends_alone_over_sockets() -> None:
    with trio.fail_after(LIMIT):
        async with serving() as (port, supervisor):
            doomed = await play_now(port, players=2, name="Ada")
            healthy = await play_now(port, players=2, name="Bede")
            results: dict[str, Any] = {}

            async def survivor() -> None:
                async with connect(port) as client:
                    await client.hello(healthy["table"], healthy["token"])
                    results["healthy"] = await client.play()

            async with connect(port) as victim, connect(port) as watcher:
                await victim.hello(doomed["table"], doomed["token"])
                await watcher.hello(doomed["table"])
                await victim.until("update")
                await watcher.until("update")
                async with trio.open_nursery() as nursery:
                    nursery.start_soon(survivor)
                    await trio.sleep(0.1)  # the other game is under way
                    await supervisor.tables[doomed["table"]].inbox.send(object())  # type: ignore[arg-type]  # not an inbox message: the table raises
                    for client in (victim, watcher):
                        assert await client.drain() == 4001
                        ended = client.of_type("game_ended")
                        assert len(ended) == 1 and ended[0]["reason"] == "crashed"
                        assert seed_matches(ended[0]["seed"], doomed)
                        assert ended[0]["result"] is None

            assert results["healthy"]["reason"] == "finished"
            assert supervisor.crash_count == 1
            assert doomed["table"] not in supervisor.tables
            assert set(supervisor.records) == {doomed["table"], healthy["table"]}
            status = await http(port, "GET", "/status.json")
            assert status.body["crash_count"] == 1
            assert status.body["crashes"][0]["table"] == doomed["table"]
            async with connect(port) as late:
                await late.hello(doomed["table"])
                assert await late.drain() == 4004


async def test_shutdown_ends_every_game_and_keeps_the_records() -> None:
    with trio.fail_after(LIMIT):
        async with serving() as (port, supervisor):
            games = [await play_now(port, players=2, name=n) for n in ("Ada", "Bede")]
            clients: list[tuple[dict[str, Any], Client]] = []
            async with (connect(port) as a, connect(port) as b, connect(port) as watcher):
                for game, client, token in ((games[0], a, games[0]["token"]),
                                            (games[1], b, games[1]["token"]),
                                            (games[0], watcher, None)):
                    await client.hello(game["table"], token)
                    clients.append((game, client))

                async def until_shut(client: Client) -> None:
                    if client is not watcher:
                        ended = await client.play()
                        assert ended is not None and ended["reason"] == "shutdown"
                    assert await client.drain() == 4002

                async with trio.open_nursery() as nursery:
                    for _, client in clients:
                        nursery.start_soon(until_shut, client)
                    # Both games under way before the shutdown.
                    while min(version_of(supervisor, g["table"]) for g in games) < 4:
                        await trio.sleep(0.02)
                    await supervisor.shutdown()

            for game, client in clients:
                ended = client.of_type("game_ended")
                assert len(ended) == 1 and ended[0]["reason"] == "shutdown"
                assert seed_matches(ended[0]["seed"], game)
            assert set(supervisor.records) == {g["table"] for g in games}
            assert not supervisor.tables
            for game in games:
                record = supervisor.records[game["table"]]
                assert record.fingerprint == game["fingerprint"] and record.actions


async def test_resync_over_the_socket_gets_a_snapshot() -> None:
    """``resync`` goes through the gateway to the table; the answer is the whole view at
    the current version (no events), and the deltas go on from it."""
    with trio.fail_after(LIMIT):
        async with serving() as (port, _), connect(port) as ada:
            info = await play_now(port)
            await ada.hello(info["table"], info["token"])
            await ada.play(acts=3)
            assert ada.views.deltas > 0
            await ada.send({"type": "resync"})
            while ada.views.snapshots < 2:
                assert await ada.next() is not None
            snapshot = ada.of_type("update")[-1]
            assert snapshot["since"] == snapshot["version"] and snapshot["events"] == []
            before = ada.views.deltas
            await ada.play(acts=2)
            assert ada.views.deltas > before


async def test_resync_with_since_brings_the_events_missed() -> None:
    """A client that gives the version its log is complete to gets, with the snapshot,
    every event after it: exactly the events of the updates it got after that version."""
    with trio.fail_after(LIMIT):
        async with serving() as (port, _), connect(port) as ada:
            info = await play_now(port)
            await ada.hello(info["table"], info["token"])
            await ada.play(acts=2)
            updates = ada.of_type("update")
            mark = updates[1]["version"]
            await ada.play(acts=2)
            missed = [e for u in ada.of_type("update") if u["since"] >= mark
                      for e in u["events"]]
            assert missed  # the test needs some events after the mark
            seen = len(ada.of_type("update"))
            await ada.send({"type": "resync", "since": mark})
            while ada.views.snapshots < 2:
                assert await ada.next() is not None
            answer = next(u for u in ada.of_type("update")[seen:] if "patch" not in u)
            assert answer["since"] == mark
            # The events between the last update before the answer and the answer's
            # version are the bots' moves since; the prefix is what the client saw.
            assert answer["events"][:len(missed)] == missed
            assert answer["view"]["version"] == answer["version"]


async def test_resync_with_a_version_the_table_never_had_gets_no_events() -> None:
    with trio.fail_after(LIMIT):
        async with serving() as (port, _), connect(port) as ada:
            info = await play_now(port)
            await ada.hello(info["table"], info["token"])
            await ada.play(acts=1)
            for since in (-1, 10**30):
                seen = len(ada.of_type("update"))
                snapshots = ada.views.snapshots
                await ada.send({"type": "resync", "since": since})
                while ada.views.snapshots == snapshots:
                    assert await ada.next() is not None
                answer = next(u for u in ada.of_type("update")[seen:] if "patch" not in u)
                assert answer["since"] == answer["version"] and answer["events"] == []
            await ada.send({"type": "resync", "since": "7"})
            while not ada.of_type("error"):
                assert await ada.next() is not None
            error = ada.of_type("error")[-1]
            assert "since" in error["message"]

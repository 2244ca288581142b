"""Tables in every phase to fuzz against, made through the public API.

The server runs with bots and timers slowed to a standstill, so a table changes only when
an input is accepted. ``make_table`` creates a table over HTTP, seats people in some or
all chairs (their tokens are kept: ``Target.tokens``), starts it if asked, then plays
random legal actions for every seat over websockets until the target phase is on the
board (``pick_role`` ... ``keep_goods``, ``game_over``) or the cap of actions is reached.
"""

from __future__ import annotations

import json
import random
from typing import Any, Final

import attrs
import trio
import trio_websocket

from quaymoor.protocol.patch import ViewKeeper
from quaymoor.tools.fuzz.wire import HttpClient, Hung, connect_ws, open_ws, receive

#: The phases a table can be put in; "lobby" is a table not started.
TARGETS: Final = ("lobby", "pick_role", "surveyor", "reeve", "mason", "miller", "chandler",
                  "bargemaster", "keep_goods", "game_over")
#: Sends on one connection before it is replaced (under the burst of 60).
SENDS_PER_CONNECTION: Final = 50


class SetupError(Exception):
    """The server refused to make a table (it is full, or broken)."""


@attrs.define
class Target:
    """A table the fuzzer owns: what it should be, as last checked."""

    id: str
    players: int
    tokens: list[str | None]  #: per seat, None for a bot's chair or an empty one
    phase: str  #: the target it was made for
    version: int = 0
    seats: list[tuple[Any, ...]] = attrs.field(factory=list)  #: (name, bot) per seat
    started: bool = False

    @property
    def where(self) -> str:
        return f"table {self.id} ({self.players} seats, {self.phase})"

    def seat_tokens(self) -> list[str]:
        return [t for t in self.tokens if t is not None]


def seats_of(message: dict[str, Any]) -> list[tuple[Any, ...]]:
    """What a refused input may not change of the seats: names and bots (not who is
    connected, which attaching itself changes)."""
    return [(s.get("name"), s.get("bot")) for s in message.get("seats", [])]


async def make_table(http: HttpClient, port: int, phase: str, rng: random.Random,
                     max_actions: int = 600, *, with_bots: bool = False,
                     humans: int | None = None, players: int | None = None) -> Target:
    """A table in ``phase``: people in every chair (``with_bots``: only in seat 0; a lobby:
    some, or ``humans``), all their tokens known. Raises ``SetupError`` when the server
    refuses."""
    players = players or rng.randint(2, 5)
    status, made = await http.json("POST", "/api/tables", {"players": players})
    if status != 201 or not isinstance(made, dict):
        raise SetupError(f"POST /api/tables answered {status}: {made}")
    table = Target(made["table"], players, [None] * players, phase)
    if humans is None:
        humans = players if not with_bots else 1
        if phase == "lobby":
            humans = rng.randint(0, players - 1)
    for i in range(humans):
        status, joined = await http.json("POST", f"/api/tables/{table.id}/join",
                                         {"name": f"Fuzz {i}"})
        if status != 200 or not isinstance(joined, dict):
            raise SetupError(f"join answered {status}: {joined}")
        table.tokens[joined["seat"]] = joined["token"]
    if phase != "lobby":
        status, answer = await http.json("POST", f"/api/tables/{table.id}/start",
                                         {"token": table.seat_tokens()[0]})
        if status != 200:
            raise SetupError(f"start answered {status}: {answer}")
        table.started = True
        if not with_bots:
            try:
                await _play_to(port, table, phase, rng, max_actions)
            except BaseExceptionGroup as group:
                raise SetupError(f"playing {table.id} to {phase}: {group!r}") from None
    return table


async def _play_to(port: int, table: Target, phase: str, rng: random.Random,
                   max_actions: int) -> None:
    """Random legal actions for every seat until ``phase`` is on the board."""
    latest: dict[int, dict[str, Any]] = {}
    moved = trio.Event()
    sent = dict.fromkeys(range(table.players), 0)
    keepers = {seat: ViewKeeper() for seat in range(table.players)}

    async def read(ws: trio_websocket.WebSocketConnection, seat: int) -> None:
        nonlocal moved
        try:
            while True:
                msg = json.loads(await ws.get_message())
                if msg.get("type") == "update":
                    msg["view"] = keepers[seat].feed(msg)
                    latest[seat] = msg
                    moved.set()
                    moved = trio.Event()
        except trio_websocket.ConnectionClosed:
            return

    async with trio.open_nursery() as nursery:
        sockets: dict[int, trio_websocket.WebSocketConnection] = {}

        async def attach(seat: int) -> None:
            ws = await connect_ws(nursery, port)
            await ws.send_message(json.dumps({"type": "hello", "table": table.id,
                                              "token": table.tokens[seat]}))
            sockets[seat] = ws
            sent[seat] = 0
            nursery.start_soon(read, ws, seat)

        for seat in range(table.players):
            await attach(seat)
        with trio.fail_after(60):
            while len(latest) < table.players:
                await moved.wait()
        for _ in range(max_actions):
            version = max(m["version"] for m in latest.values())
            board = latest[0]["view"]["board"]
            if board["phase"] in (phase, "game_over"):
                break
            choices = [(s, a) for s, m in latest.items() if m["version"] == version
                       for a in m["view"]["legal"]]
            if not choices:
                with trio.move_on_after(2):
                    await moved.wait()
                continue
            seat, action = _choose(choices, phase, rng)
            if sent[seat] >= SENDS_PER_CONNECTION:
                await sockets[seat].aclose()
                await attach(seat)
            await sockets[seat].send_message(json.dumps({"type": "act", "action": action}))
            sent[seat] += 1
            with trio.fail_after(5):
                while max(m["version"] for m in latest.values()) == version:
                    await moved.wait()
        table.version = max(m["version"] for m in latest.values())
        table.seats = seats_of(latest[0])
        for ws in sockets.values():
            await ws.aclose()
        nursery.cancel_scope.cancel()


def _choose(choices: list[tuple[int, dict[str, Any]]], phase: str,
            rng: random.Random) -> tuple[int, dict[str, Any]]:
    """Pick the target phase's role when it can be picked, else any legal action (a
    little less often ``done``, so that simultaneous phases are seen filling up)."""
    for seat, action in choices:
        if action.get("type") == "pick_role" and action.get("role") == phase:
            return seat, action
    if len(choices) > 1 and rng.random() < 0.7:
        not_done = [c for c in choices if c[1].get("type") != "done"]
        if not_done:
            return rng.choice(not_done)
    return rng.choice(choices)


async def snapshot(port: int, table_id: str) -> tuple[Any, ...] | None:
    """(version, seats, started) as a spectator sees them; None when the table is gone."""
    async with open_ws(port) as ws:
        try:
            await ws.send_message(json.dumps({"type": "hello", "table": table_id}))
            seats: list[tuple[Any, ...]] = []
            while True:
                text = await receive(ws, 2.0)
                if text is None:
                    raise Hung(f"a spectator's hello to {table_id} had no answer in 2 s")
                msg = json.loads(text)
                if msg["type"] == "welcome":
                    seats = seats_of(msg)
                    if not msg["started"]:
                        return (0, seats, False)
                elif msg["type"] == "update":
                    return (msg["version"], seats_of(msg), True)
                elif msg["type"] == "error":
                    return None
        except trio_websocket.ConnectionClosed:
            return None
        finally:
            await ws.aclose()

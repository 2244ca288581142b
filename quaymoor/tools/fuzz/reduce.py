"""Minimal reproducers: each failing batch's inputs sent again one at a time, each on a
fresh table, until one alone does it (a server crash, a table crash or a hang). Inputs
after a hello go to a started table of two (attached as seat 0); first frames and HTTP
requests to a table of two with both seats taken, not started (its tokens fill the
slots again), then started."""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any, Final

import trio_websocket

from quaymoor.tools.fuzz.checks import Input, Tally
from quaymoor.tools.fuzz.tables import Target, make_table, snapshot
from quaymoor.tools.fuzz.wire import ANSWER_SECONDS, HttpClient, Hung, open_ws, receive

#: Failing batches reduced per column, and inputs tried per batch.
MAX_FAILURES: Final = 5
MAX_INPUTS: Final = 60
_REDUCIBLE: Final = ("server crashes", "table crashes", "hung requests")


async def reduce_all(port: int, tally: Tally, tokens_of: dict[str, Target]) -> None:
    """Set ``Failure.reduced`` for the first failures that have inputs."""
    http = HttpClient(port)
    fresh = _Fresh(port, http, random.Random(7))
    done: Counter[str] = Counter()
    for failure in tally.failures:
        if (failure.column not in _REDUCIBLE or not failure.inputs
                or done[failure.column] >= MAX_FAILURES):
            continue
        done[failure.column] += 1
        for item in failure.inputs[:MAX_INPUTS]:
            if item.channel not in ("ws", "ws-first", "http"):
                continue
            try:
                if await _alone(fresh, item, failure.column, tokens_of):
                    failure.reduced = item
                    break
            except (OSError, ValueError, KeyError, trio_websocket.HandshakeError,
                    trio_websocket.ConnectionClosed):
                continue  # this one cannot be sent again: try the next
    await http.aclose()


class _Fresh:
    """A table of two for the reducer, made again once an input has ended it."""

    def __init__(self, port: int, http: HttpClient, rng: random.Random) -> None:
        self.port, self.http, self.rng = port, http, rng
        self.tables: dict[bool, Target] = {}
        self.facts: dict[bool, tuple[Any, ...] | None] = {}

    async def table(self, started: bool) -> Target:
        """The table of that kind, as it was made (else a new one)."""
        table = self.tables.get(started)
        if table is None or await snapshot(self.port, table.id) != self.facts[started]:
            table = await make_table(self.http, self.port, "pick_role" if started else "lobby",
                                     self.rng, 0, humans=None if started else 2, players=2)
            self.tables[started] = table
            self.facts[started] = await snapshot(self.port, table.id)
        return table


async def _alone(fresh: _Fresh, item: Input, column: str,
                 tokens_of: dict[str, Target]) -> bool:
    """Does ``item`` alone, on a fresh table, do what ``column`` says?"""
    started = item.channel == "ws"
    port, http = fresh.port, fresh.http
    table = await fresh.table(started)
    payload = _retarget(item.payload, tokens_of, table)
    try:
        if item.channel == "http":
            head, _, body = (payload if isinstance(payload, bytes) else payload.encode(
                "utf-8", "surrogatepass")).partition(b"\n")
            method, path = head.decode("utf-8", "replace").split(" ", 1)  # ValueError: skip
            try:
                code, _ = await http.request(method, path, body or None)
            except Hung:
                return column == "hung requests"
            if code >= 500:
                return column == "server crashes"
        else:
            code_or_hang = await _send_ws(port, table, payload, started)
            if code_or_hang == "hung":
                return column == "hung requests"
            if code_or_hang == 1011:
                return column == "server crashes"
            if code_or_hang == 4001:
                return column == "table crashes"
    except Hung:
        return column == "hung requests"
    if await snapshot(port, table.id) is None:
        del fresh.tables[started]
        return column == "table crashes"
    return False


def _retarget(payload: str | bytes, tokens_of: dict[str, Target],
              table: Target) -> str | bytes:
    """The input with the original tables' ids and tokens replaced by the fresh table's."""
    text = payload.decode("utf-8", "surrogateescape") if isinstance(payload, bytes) \
        else payload
    for token, old in tokens_of.items():
        if old.id in text:
            text = text.replace(old.id, table.id)
        if token in text:
            seat = old.tokens.index(token) % table.players
            text = text.replace(token, table.tokens[seat] or table.seat_tokens()[0])
    return text.encode("utf-8", "surrogateescape") if isinstance(payload, bytes) else text


async def _send_ws(port: int, table: Target, payload: str | bytes,
                   after_hello: bool) -> int | str | None:
    """Send one frame (after a seat's hello, or as the first frame); the close code,
    "hung", or None when it was answered."""
    async with open_ws(port) as ws:
        try:
            if after_hello:
                await ws.send_message(json.dumps({"type": "hello", "table": table.id,
                                                  "token": table.tokens[0]}))
                for _ in range(2):  # welcome, catch-up
                    await receive(ws, ANSWER_SECONDS)
            await ws.send_message(payload)
            text = await receive(ws, ANSWER_SECONDS)
            if text is None:
                return "hung"
            while text is not None and json.loads(text).get("type") == "welcome":
                text = await receive(ws, ANSWER_SECONDS)
            return None
        except trio_websocket.ConnectionClosed as exc:
            return exc.reason.code if exc.reason else None
        finally:
            await ws.aclose()

"""A spectator client of the fan-out step: watches one table, counting the frames and
bytes it gets after go, parsing none but the ``game_ended`` that must end its stream."""

from __future__ import annotations

import json
import math
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

import trio
import trio_websocket

from quaymoor.tools.server_bench.game_socket import run_connected


class WatchStats:
    """What the spectators of one client process saw."""

    def __init__(self) -> None:
        self.welcomed = 0
        self.frames = 0  #: frames received after go
        self.bytes = 0
        self.updates = 0  #: of those, updates (snapshots and deltas)
        self.update_bytes = 0
        self.first = math.inf  #: time.monotonic() of the first frame after go
        self.last = 0.0  #: ... and of the last
        self.ended = 0  #: streams that ended with game_ended
        self.closed_early: Counter[str] = Counter()
        self.connect_failures: Counter[str] = Counter()

    def as_dict(self) -> dict[str, Any]:
        return {k: (dict(v) if isinstance(v, Counter) else v) for k, v in vars(self).items()}


def _text(frame: str | bytes) -> str:
    return frame if isinstance(frame, str) else frame.decode(errors="replace")


def is_type(text: str, kind: str) -> bool:
    """Whether a server frame is a message of type ``kind``, without parsing the frames
    that are not: the tag is looked for at either end, then confirmed by parsing."""
    tag = f'"{kind}"'
    if tag not in text[:40] and tag not in text[-40:]:
        return False
    try:
        return bool(json.loads(text).get("type") == kind)
    except (ValueError, AttributeError):
        return False


async def watch(table: str, port: int, stats: WatchStats, gate: trio.Semaphore, *,
                on_welcome: Callable[[], None], going: trio.Event) -> None:
    """A spectator: counts the frames and bytes it gets after go, until game_ended."""

    async def talk(ws: trio_websocket.WebSocketConnection, welcomed: Callable[[], None]) -> None:
        await ws.send_message(json.dumps({"type": "hello", "table": table, "token": None}))
        welcome = _text(await ws.get_message())
        if not is_type(welcome, "welcome"):
            stats.connect_failures[f"no welcome: {welcome[:60]}"] += 1
            return
        welcomed()
        stats.welcomed += 1
        on_welcome()
        while True:
            text = _text(await ws.get_message())
            if not going.is_set():
                continue  # lobby frames before the start
            now = time.monotonic()
            stats.frames += 1
            stats.bytes += len(text)
            if text.endswith('"update"}'):  # the tag is last (no parsing)
                stats.updates += 1
                stats.update_bytes += len(text)
            stats.first = min(stats.first, now)
            stats.last = max(stats.last, now)
            if is_type(text, "game_ended"):
                stats.ended += 1
                return

    await run_connected(port, table, gate, stats, talk)

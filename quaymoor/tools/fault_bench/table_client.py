"""The fault bench's player: one human seat of a bot-filled table, as a browser plays it.

It plays the first legal action of each decision it is offered, a few of them before the
fault (``moves_before``: the game is then mid-game and waits on this seat), holds still
while the fault is injected (it keeps reading), and plays on to the end once released.
When its connection closes it does what the web client does: connects again through the
same address with ``hello`` ``since`` its last version, every ``RECONNECT_SECONDS``, until
the game has ended for it or the bench's deadline passes.

What it keeps is what the bench counts: whether it was connected when the fault came,
every ``game_ended`` (reason, seed, when), the notices of a paused or resumed table, and
each version it saw with the time it saw it (a record served before a later version shows
that the game still played: its seed went out early).
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any, Final

import trio
import trio_websocket

from quaymoor.protocol.patch import PatchError, ViewKeeper
from quaymoor.tools.server_bench.player import Bucket
from quaymoor.tools.server_bench.settings import CLIENT_BURST, CLIENT_RATE, HOST

RECONNECT_SECONDS: Final = 0.5  #: between attempts, as web/net.js retries (bounded here)
READ_SECONDS: Final = 0.25
RETRY_SECONDS: Final = 1.0  #: a held client wakes this often to see whether it may act
#: Frames that tell a player the table is paused (its process lost its database) or goes
#: on again: issue 23's leases send them; until those are merged none come.
NOTICES: Final = frozenset({"paused", "resumed", "table_paused", "table_resumed"})


class TableClient:
    """One seat's client; ``run`` until the game ends for it or the deadline passes."""

    def __init__(self, table: str, token: str, fingerprint: str, moves_before: int) -> None:
        self.table = table
        self.token = token
        self.fingerprint = fingerprint
        self.moves_before = moves_before
        self.released = False  #: may play on past ``moves_before``
        self.acts = 0
        self.version: int | None = None  #: the last version seen
        self.seen: list[tuple[float, int]] = []  #: (trio time, version) of each update
        self.connected = False
        self.connects = 0
        self.ended: str | None = None  #: the reason of the ``game_ended`` received
        self.ended_at: float | None = None
        self.ended_seed: str | None = None
        self.notices = 0
        self.errors: Counter[str] = Counter()  #: error codes received
        self.closes: Counter[str] = Counter()  #: why connections ended early
        self._keeper = ViewKeeper()
        self._scope = trio.CancelScope()
        self._acted_at = -1  #: the version last acted on: one act per version ...
        self._acted_when = 0.0
        self._current = False  #: this connection has sent an update
        self._refused = False  #: ... unless one was refused: then again after RETRY_SECONDS
        self._bucket = Bucket(CLIENT_RATE, CLIENT_BURST)

    @property
    def held(self) -> bool:
        """Mid-game and waiting on this seat: its first moves played."""
        return self.acts >= self.moves_before and self.ended is None

    def told_since(self, moment: float) -> bool:
        """Whether this player was told anything after ``moment``: a ``game_ended``, or a
        paused/resumed notice (``notices`` counts those of the whole run: none come
        before a fault)."""
        return self.notices > 0 or (self.ended_at is not None and self.ended_at >= moment)

    async def run(self, port: int, deadline: float) -> None:
        """Play (connecting again after every close) until the game ends for this seat or
        trio's clock passes ``deadline``, or ``stop`` is called."""
        self._scope.deadline = deadline
        with self._scope:
            while self.ended is None:
                await self._connection(port)
                if self.ended is None:
                    await trio.sleep(RECONNECT_SECONDS)
        self.connected = False

    def stop(self) -> None:
        """The player leaves (its ``run`` returns)."""
        self._scope.cancel()

    async def _connection(self, port: int) -> None:
        try:
            async with trio_websocket.open_websocket_url(
                    f"ws://{HOST}:{port}/ws?table={self.table}", connect_timeout=5,
                    disconnect_timeout=1, max_message_size=1 << 22) as ws:
                self.connected = True
                self.connects += 1
                await ws.send_message(json.dumps({"type": "hello", "table": self.table,
                                                  "token": self.token,
                                                  "since": self.version}))
                await self._talk(ws)
        except trio_websocket.ConnectionClosed as exc:
            reason = exc.reason
            self.closes[f"{reason.code}" if reason is not None else "no reason"] += 1
        except trio_websocket.HandshakeError as exc:
            self.closes[type(exc).__name__] += 1
        except OSError as exc:
            self.closes[type(exc).__name__] += 1
        finally:
            self.connected = False

    async def _talk(self, ws: trio_websocket.WebSocketConnection) -> None:
        """Read frames until ``game_ended`` (or the close, raised); act when allowed, on a
        view this connection has brought up to date (not before its first update)."""
        self._current = False
        while True:
            text: str | bytes | None = None
            with trio.move_on_after(READ_SECONDS):
                text = await ws.get_message()
            if text is not None and self._take(json.loads(text)):
                return
            view = self._keeper.view
            if (self._current and view is not None and view.get("legal")
                    and view["version"] == self.version
                    and (view["version"] > self._acted_at or self._may_retry())
                    and (self.released or self.acts < self.moves_before)):
                await trio.sleep(self._bucket.wait_needed())
                self._acted_at, self._acted_when = view["version"], trio.current_time()
                self._refused = False
                self.acts += 1
                await ws.send_message(json.dumps({"type": "act", "action": view["legal"][0]}))

    def _may_retry(self) -> bool:
        """An act was refused since the last one (an act on a view that was already
        stale: the error comes after the next update), and no newer version came for
        ``RETRY_SECONDS``: the game may be waiting on us, act again."""
        return self._refused and trio.current_time() - self._acted_when > RETRY_SECONDS

    def _take(self, msg: dict[str, Any]) -> bool:
        """Keep what a frame says; True at ``game_ended``."""
        kind = msg.get("type")
        if kind == "update":
            try:
                view = self._keeper.feed(msg)
            except PatchError:
                view = None
            if view is None:  # a delta that does not follow on: start again from a snapshot
                self._keeper = ViewKeeper()
                self.version = None
                raise trio_websocket.ConnectionClosed(None)
            self.version = int(view["version"])
            self._current = True
            self.seen.append((trio.current_time(), self.version))
        elif kind == "game_ended":
            self.ended = str(msg.get("reason"))
            self.ended_at = trio.current_time()
            seed = msg.get("seed")
            self.ended_seed = seed if isinstance(seed, str) else None
            return True
        elif kind == "error":
            self.errors[str(msg.get("code"))] += 1
            self._refused = True
        elif kind in NOTICES:
            self.notices += 1
        return False

    def last_version_after(self, moment: float) -> int | None:
        """The highest version this seat saw after ``moment`` (None: none seen)."""
        later = [v for t, v in self.seen if t > moment]
        return max(later) if later else None

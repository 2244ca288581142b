"""What the bench watches from outside while a fault runs: whether the public port
answers, and whether a record (with its seed) is served for a game that still plays.

``outage``: ``GET /healthz`` on the public port every ``PROBE_SECONDS``; a probe answered
200 within ``PROBE_TIMEOUT`` is an answer, anything else (refused, reset, silence, a 503
from HAProxy with no process behind it) is not. The figure is the longest time between
two answers (or from the last answer to the end of the watch, if it never answers again).

``seeds``: ``GET /games/<id>.json`` on the public port every ``SEED_POLL_SECONDS`` for
every game its player has not yet seen end. The first record served for each game is kept
with the time it was served; the bench later compares it with what the player saw after
that time (``early``).
"""

from __future__ import annotations

import json
from typing import Any, Final

import attrs
import trio

from quaymoor.tools.fault_bench.http_get import request
from quaymoor.tools.fault_bench.table_client import TableClient

PROBE_SECONDS: Final = 0.1
PROBE_TIMEOUT: Final = 1.0
SEED_POLL_SECONDS: Final = 0.5


@attrs.define
class Outage:
    """The public port's answers, probed until cancelled."""

    last_answer: float | None = None
    longest: float = 0.0
    probes: int = 0
    answered: int = 0

    async def probe(self, port: int) -> None:
        """Probe until cancelled (then the last gap, to now, counts too)."""
        self.last_answer = trio.current_time()
        try:
            while True:
                got = await request(port, "GET", "/healthz", timeout=PROBE_TIMEOUT)
                now = trio.current_time()
                self.probes += 1
                if got is not None and got[0] == 200:
                    self.answered += 1
                    self.longest = max(self.longest, now - self.last_answer)
                    self.last_answer = now
                await trio.sleep(PROBE_SECONDS)
        finally:
            self.longest = max(self.longest, trio.current_time() - self.last_answer)


@attrs.frozen
class Served:
    """A record as the public port served it while the bench watched."""

    at: float  #: trio time
    actions: int
    reason: str | None


@attrs.define
class Seeds:
    """The first record served for each watched game, by table id."""

    served: dict[str, Served] = attrs.field(factory=dict)

    async def poll(self, port: int, clients: list[TableClient]) -> None:
        """Poll every game not yet ended for its player, until cancelled."""
        while True:
            for client in clients:
                if client.ended is None and client.table not in self.served:
                    await self._look(port, client.table)
            await trio.sleep(SEED_POLL_SECONDS)

    async def _look(self, port: int, table: str) -> None:
        at = trio.current_time()
        got = await request(port, "GET", f"/games/{table}.json", timeout=2.0)
        if got is None or got[0] != 200:
            return
        try:
            record: Any = json.loads(got[1])
        except ValueError:
            return
        if isinstance(record, dict) and record.get("seed"):
            self.served[table] = Served(at, len(record.get("actions") or []),
                                        record.get("end_reason"))

    def early(self, clients: list[TableClient]) -> list[str]:
        """The games whose record (with its seed) was served while the game still
        played: its player saw a version beyond the record's last action after it was
        served, or the game ended for its player later for another reason."""
        found = []
        for client in clients:
            seen = self.served.get(client.table)
            if seen is None:
                continue
            later = client.last_version_after(seen.at)
            if ((later is not None and later > seen.actions)
                    or (client.ended is not None and client.ended_at is not None
                        and client.ended_at > seen.at and client.ended != seen.reason)):
                found.append(client.table)
        return found

"""A table's public facts for the operators' status page and the lobby's list of tables:
who sits where, the round and phase, who is deciding and how long they have left. Nothing
hidden (no seals, no seed, no tokens)."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import trio

from quaymoor.rules.converter import wire_name

if TYPE_CHECKING:
    from quaymoor.actors.table import Table


#: What the lobby's list of tables shows of each (``GET /api/tables``).
LOBBY_FIELDS = ("id", "players", "bots", "pace", "hints", "rated", "state", "seats", "round",
                "phase")


def summary(table: Table) -> dict[str, Any]:
    """The table's status now, as JSON-ready data."""
    game = table.game
    deciding = list(game.deciding()) if game is not None else []
    return {**_fixed(table, deciding), "time_left": time_left(table, deciding),
            **_counts(table)}


def time_left(table: Table, deciding: list[int]) -> float | None:
    """Seconds until the first deadline of a deciding seat (None: no clock runs)."""
    now = trio.current_time()
    left = [
        round(deadline - now, 1)
        for i in deciding if (deadline := table.turns.workers[i].deadline) is not None
    ]
    return min(left) if left else None


class StatusTexts:
    """A table's summary as JSON text, for the status page and the lobby's list, kept
    while nothing in it but the clock has changed: at 2,500 tables, building every
    table's summary afresh for each ``/status.json`` took 80-130 ms of the server's CPU
    (7.8% of it, read once a second)."""

    __slots__ = ("deciding", "head", "key", "lobby", "tail")

    def __init__(self) -> None:
        self.key: tuple[object, ...] | None = None
        self.head = self.tail = self.lobby = ""
        self.deciding: list[int] = []

    def status(self, table: Table) -> str:
        """``json.dumps(summary(table))``."""
        self._refresh(table)
        return self.head + json.dumps(time_left(table, self.deciding)) + self.tail

    def lobby_entry(self, table: Table) -> str:
        """``json.dumps`` of the ``LOBBY_FIELDS`` of ``summary(table)``."""
        self._refresh(table)
        return self.lobby

    def _refresh(self, table: Table) -> None:
        game = table.game
        key = (table.state, game.version if game is not None else -1, table.players,
               table.bot_level, table.turns.pace, len(table.fanout.connections),
               tuple((s.name, s.bot, s.bot_playing, s.connections > 0) for s in table.seats))
        if key == self.key:
            return
        self.key = key
        self.deciding = list(game.deciding()) if game is not None else []
        fixed = _fixed(table, self.deciding)
        self.head = json.dumps(fixed)[:-1] + ', "time_left": '
        self.tail = ", " + json.dumps(_counts(table))[1:]
        self.lobby = json.dumps({k: fixed[k] for k in LOBBY_FIELDS})


def _fixed(table: Table, deciding: list[int]) -> dict[str, Any]:
    """The summary's fields before ``time_left``: they change only with the game's
    version, the seats and the table's state."""
    game = table.game
    return {
        "id": table.id,
        "players": table.players,
        "bots": table.bot_level,
        "pace": table.turns.pace.value,
        "hints": table.hints.agreed,
        "rated": table.rated,
        "state": table.state.value,
        "seats": [
            {"seat": s.index, "name": s.name, "bot": s.bot, "bot_playing": s.bot_playing,
             "connected": s.connections > 0}
            for s in table.seats
        ],
        "round": game.round if game else None,
        "phase": wire_name(game.phase) if game else None,
        "deciding": deciding,
    }


def _counts(table: Table) -> dict[str, Any]:
    """The summary's fields after ``time_left``."""
    game = table.game
    return {
        "actions": game.version if game else 0,
        "connections": len(table.fanout.connections),
    }

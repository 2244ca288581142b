"""A table's public facts for the operators' status page and the lobby's list of tables:
who sits where, the round and phase, who is deciding and how long they have left. Nothing
hidden (no seals, no seed, no tokens)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import trio

from quaymoor.rules.converter import wire_name

if TYPE_CHECKING:
    from quaymoor.actors.table import Table


def summary(table: Table) -> dict[str, Any]:
    """The table's status now, as JSON-ready data."""
    game = table.game
    now = trio.current_time()
    deciding = list(game.deciding()) if game is not None else []
    left = [
        round(deadline - now, 1)
        for i in deciding if (deadline := table.workers[i].deadline) is not None
    ]
    return {
        "id": table.id,
        "players": table.players,
        "bots": table.bot_level,
        "state": table.state.value,
        "seats": [
            {"seat": s.index, "name": s.name, "bot": s.bot, "bot_playing": s.bot_playing,
             "connected": s.connections > 0}
            for s in table.seats
        ],
        "round": game.round if game else None,
        "phase": wire_name(game.phase) if game else None,
        "deciding": deciding,
        "time_left": min(left) if left else None,
        "actions": game.version if game else 0,
        "connections": len(table.fanout.connections),
    }

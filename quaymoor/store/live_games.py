"""A running game as its process writes it down while it is played, and its record when
that process is gone: the one replay both stores use.

A process writes, for each game it runs, the seeds once at the start and each action as
it happens: in a cluster to PostgreSQL (``pg_lobby``: ``operators.table_seeds`` and
``table_actions``), which a survivor reads when the process dies
(``cluster.heartbeat``); alone to SQLite beside its archive (``sqlite_live``), which the
process reads itself when it starts again after a SIGKILL or a power loss. Either way the
game is ended the same way (``ended_record``): its actions replayed through the rules from
its seeds, ended as "shutdown" (the server stopped) now, seed revealed, a record that
``verify_record`` accepts like any other.
"""

from __future__ import annotations

import time
from typing import Any

import attrs

from quaymoor.rules.converter import converter
from quaymoor.rules.game import Game
from quaymoor.rules.record import (
    DEALT_FORMAT_OF,
    LEGACY_FORMAT,
    RECORD_FORMAT,
    EndReason,
    GameRecord,
    RecordedAction,
    SeatInfo,
)
from quaymoor.store.ratings import GameAccounts


@attrs.frozen
class LiveGame:
    """What a store holds of a game being played (the seeds are hidden: this never
    leaves the server before the game has ended)."""

    table_id: str
    players: int
    seed: str  #: 64 hex digits
    client_seeds: list[str]  #: what the key is made from, in seat order
    seat_seeds: list[str | None]  #: per seat, the client seed it gave (None: a bot)
    #: per seat, ``{"name": ..., "bot": ..., "commitment": ...}`` at the start (before
    #: record format 4 without ``commitment``)
    seats: list[dict[str, Any]]
    actions: list[RecordedAction]  #: every action written, in order
    #: per seat, the hints its player was given (none kept: zeros)
    hints: list[int] = attrs.field(factory=list)
    #: who sat where, as last told (None: no account sat at it); archived with its record
    accounts: GameAccounts | None = None
    #: the algorithm that dealt it ("": written by a process that did not say, dealt as
    #: the current format's)
    algorithm: str = ""


def action_rows(actions: list[RecordedAction]) -> list[Any]:
    """Actions as the stores keep them (JSON values)."""
    return [converter.unstructure(a) for a in actions]


def actions_from_rows(rows: list[Any]) -> list[RecordedAction]:
    return [converter.structure(r, RecordedAction) for r in rows]


def ended_record(live: LiveGame, *, ended_at: float | None = None) -> GameRecord:
    """The record of a game its process left mid-way: its actions replayed through the
    rules from its seeds, ended as a shutdown at ``ended_at`` (default: now), or as
    finished when its last action ended it (the process went before its record was
    written). Raises the engine's errors when an action written is not legal (a store
    that was tampered with). CPU-bound: call it in a worker thread."""
    # A game started by a process of before record format 4 has seats without
    # commitments: its key is quaymoor-fair-1's, from its client seeds. A dealt one is
    # written in the format of the algorithm that dealt it (a process of another version
    # may have: an upgrade), the current one when its process did not say.
    dealt = all("commitment" in s for s in live.seats)
    if dealt and live.algorithm and live.algorithm not in DEALT_FORMAT_OF:
        raise ValueError(f"table {live.table_id} was dealt with {live.algorithm!r}, an "
                         "algorithm this process does not know")
    form = (DEALT_FORMAT_OF.get(live.algorithm, RECORD_FORMAT) if dealt else LEGACY_FORMAT)
    partial = GameRecord(
        format=form, algorithm="", players=live.players,
        seed=live.seed, fingerprint="", client_seeds=[] if dealt else live.client_seeds,
        seats=[SeatInfo(s["name"], s["bot"], s.get("commitment")) for s in live.seats],
        actions=live.actions, result=None, game=live.table_id, seat_seeds=live.seat_seeds,
        turned_up=[])  # replayed with the turn-ups tracked again
    game = Game.replay(partial)
    # Played to its end, its record not yet written when its process went: finished.
    reason = EndReason.FINISHED if game.is_over() else EndReason.SHUTDOWN
    record = game.record(None if dealt else partial.seats, game=live.table_id,
                         end_reason=reason,
                         ended_at=time.time() if ended_at is None else ended_at,
                         hints=live.hints if len(live.hints) == live.players else None,
                         rated=live.accounts is not None and live.accounts.rated)
    return record if dealt else attrs.evolve(record, seat_seeds=live.seat_seeds)

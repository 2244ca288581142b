"""What a process of a cluster answers for a table it does not hold: HAProxy sends a
request about a table to its process while that one is up, and to any other once it is
down. So the table's game has ended with its process (a survivor archives its record), or
is about to be archived: the client is told the game ended, with its seed and record, or
to come back in a moment."""

from __future__ import annotations

import re

from quaymoor.actors.supervisor import Supervisor
from quaymoor.protocol.messages import EndOfGame
from quaymoor.rules.record import EndReason
from quaymoor.store.archive import ArchiveError

#: A table id as the server makes them: anything else (a stranger's NUL, a lone
#: surrogate) is no table of anyone's, and is never sent to the database.
_TABLE_ID = re.compile(r"[0-9a-f]{10}")


async def ended_elsewhere(supervisor: Supervisor, table_id: str) -> EndOfGame | None:
    """The ``game_ended`` message of an archived game, or None when it is not archived."""
    archive = supervisor.archive
    if archive is None or supervisor.shared is None or not _TABLE_ID.fullmatch(table_id):
        return None
    try:
        record = await archive.record(table_id)
    except (ArchiveError, ValueError):
        return None
    if record is None:
        return None
    try:
        reason = EndReason(record.reason)
    except ValueError:
        reason = EndReason.SHUTDOWN
    seat_seeds: list[str | None] = (
        record.seat_seeds if record.seat_seeds is not None else list(record.client_seeds))
    return EndOfGame(table_id, reason, record.seed, record.fingerprint, seat_seeds,
                     record.result, f"/games/{table_id}.json")


async def live_elsewhere(supervisor: Supervisor, table_id: str) -> bool:
    """Whether another process's table of that id is still in the lobby (its process died
    and a survivor has not archived its game yet)."""
    if supervisor.shared is None or not _TABLE_ID.fullmatch(table_id):
        return False
    try:
        rows = await supervisor.shared.store.read(
            "SELECT 1 FROM live_tables WHERE id = %s", table_id)
    except ArchiveError:
        return False
    return bool(rows)

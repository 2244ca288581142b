"""The lobby rows of a cluster's PostgreSQL store: what each process writes about its
running tables as it happens, and what any process reads of everyone's.

A table opened (``live_tables``: its public summary, the lobby row; and by which client
address: ``operators.table_creators``), its lobby row changed, it started (its seeds go to
``operators.table_seeds``, which only the servers' role may read), its new actions
(``table_actions``), it closed. Each write is an operation queued on the store's one
writer (``pg_archive.PgArchive.put``), in the order it happened, and applied in batches
(``compacted``: fewer statements, the same effect); a write of a table's seeds, creator or
actions applies only while its live row exists, so that nothing is left behind a table
that has gone. A survivor replays a dead process's game from these rows
(``cluster.heartbeat``, through ``live_games``, which also turns actions into rows).

The reads (``lobby``, ``open_tables_elsewhere``, ``is_live``) are every live process's
rows, as their writers have committed them: a batch behind, milliseconds.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, TypeAlias

import attrs
from psycopg.types.json import Jsonb

from quaymoor.store.pg_db import Db, Statement
from quaymoor.store.ratings import GameAccounts

if TYPE_CHECKING:
    from quaymoor.store.pg_archive import PgArchive


# ---------------------------------------------------------------- what is written


@attrs.frozen
class Opened:
    table_id: str
    instance: str
    players: int
    lobby: dict[str, Any]

    def apply(self, db: Db) -> None:
        db.execute("INSERT INTO live_tables (id, instance, players, lobby) VALUES"
                   " (%s, %s, %s, %s) ON CONFLICT (id) DO UPDATE SET lobby = EXCLUDED.lobby",
                   (self.table_id, self.instance, self.players, Jsonb(self.lobby)))


@attrs.frozen
class Changed:
    """The table's public summary now (seats, state, round, phase)."""

    table_id: str
    lobby: dict[str, Any]

    def apply(self, db: Db) -> None:
        db.execute("UPDATE live_tables SET lobby = %s, updated_at = now() WHERE id = %s",
                   (Jsonb(self.lobby), self.table_id))


@attrs.frozen
class Started:
    """The game began: its seeds, hidden in ``operators.table_seeds`` until it ends."""

    table_id: str
    seed: str
    client_seeds: list[str]
    seat_seeds: list[str | None]
    seats: list[dict[str, Any]]
    algorithm: str  #: that dealt it (migration 0008)

    def apply(self, db: Db) -> None:
        db.execute("INSERT INTO operators.table_seeds (table_id, seed, client_seeds,"
                   " seat_seeds, seats, algorithm) SELECT %s, %s, %s, %s, %s, %s WHERE EXISTS"
                   " (SELECT 1 FROM live_tables WHERE id = %s) ON CONFLICT DO NOTHING",
                   (self.table_id, self.seed, Jsonb(self.client_seeds),
                    Jsonb(self.seat_seeds), Jsonb(self.seats), self.algorithm, self.table_id))


@attrs.frozen
class CreatedBy:
    """The client address that opened the table (``operators.table_creators``), which the
    cluster-wide cap on open tables per address counts (``open_tables_elsewhere``)."""

    table_id: str
    address: str

    def apply(self, db: Db) -> None:
        db.execute("INSERT INTO operators.table_creators (table_id, address) SELECT %s, %s"
                   " WHERE EXISTS (SELECT 1 FROM live_tables WHERE id = %s)"
                   " ON CONFLICT DO NOTHING", (self.table_id, self.address, self.table_id))


@attrs.frozen
class Acted:
    """Actions ``first``, ``first + 1``, ... of the game (unstructured)."""

    table_id: str
    first: int
    actions: list[Any]

    def apply(self, db: Db) -> None:
        with db.cursor() as cur:
            cur.executemany(
                "INSERT INTO table_actions (table_id, n, action) SELECT %s, %s, %s WHERE"
                " EXISTS (SELECT 1 FROM live_tables WHERE id = %s) ON CONFLICT DO NOTHING",
                [(self.table_id, self.first + i, Jsonb(a), self.table_id)
                 for i, a in enumerate(self.actions)])


@attrs.frozen
class Hinted:
    """The hints each seat of the game was given so far (migration 0005)."""

    table_id: str
    given: list[int]

    def apply(self, db: Db) -> None:
        db.execute("INSERT INTO table_hints (table_id, given) SELECT %s, %s WHERE EXISTS"
                   " (SELECT 1 FROM live_tables WHERE id = %s)"
                   " ON CONFLICT (table_id) DO UPDATE SET given = excluded.given",
                   (self.table_id, Jsonb(self.given), self.table_id))


@attrs.frozen
class Seated:
    """Who sits at the game (``ratings.GameAccounts``: accounts, bot levels, who left), so
    that the record of a game whose process died is archived with its accounts
    (migration 0007)."""

    table_id: str
    accounts: GameAccounts

    def apply(self, db: Db) -> None:
        db.execute("INSERT INTO table_accounts (table_id, accounts) SELECT %s, %s WHERE"
                   " EXISTS (SELECT 1 FROM live_tables WHERE id = %s)"
                   " ON CONFLICT (table_id) DO UPDATE SET accounts = excluded.accounts",
                   (self.table_id, Jsonb(self.accounts.to_json()), self.table_id))


@attrs.frozen
class Closed:
    """The table is gone (never started, or its record is archived already)."""

    table_id: str

    def apply(self, db: Db) -> None:
        db.execute("DELETE FROM live_tables WHERE id = %s", (self.table_id,))


LobbyOp: TypeAlias = (Opened | Changed | Started | CreatedBy | Acted | Hinted | Seated
                      | Closed)


class ActedMany:
    """Several tables' actions in one statement (what ``compacted`` makes of ``Acted``)."""

    def __init__(self, acted: list[Acted]) -> None:
        self.rows = [(op.table_id, op.first + i, Jsonb(a), op.table_id)
                     for op in acted for i, a in enumerate(op.actions)]

    def apply(self, db: Db) -> None:
        with db.cursor() as cur:
            cur.executemany(
                "INSERT INTO table_actions (table_id, n, action) SELECT %s, %s, %s WHERE"
                " EXISTS (SELECT 1 FROM live_tables WHERE id = %s) ON CONFLICT DO NOTHING",
                self.rows)


def compacted(batch: Sequence[Statement]) -> list[Statement]:
    """``batch`` with the same effect in fewer statements: within each run of ``Acted``
    and ``Changed`` ops (the other kinds keep their places and order), every action row in
    one statement, and only each table's last summary (a later one replaces it anyway).
    The two kinds touch different rows, so their order within a run does not matter."""
    out: list[Statement] = []
    acted: list[Acted] = []
    changed: dict[str, Changed] = {}

    def flush() -> None:
        if acted:
            out.append(ActedMany(acted))
            acted.clear()
        out.extend(changed.values())
        changed.clear()

    for op in batch:
        if isinstance(op, Acted):
            acted.append(op)
        elif isinstance(op, Changed):
            changed.pop(op.table_id, None)
            changed[op.table_id] = op
        else:
            flush()
            out.append(op)
    flush()
    return out


# ---------------------------------------------------------------- what is read


async def lobby(store: PgArchive) -> list[dict[str, Any]]:
    """Every open or running table of every live process, oldest first."""
    rows = await store.read(
        "SELECT t.lobby FROM live_tables t JOIN processes p USING (instance)"
        " WHERE p.stopped_at IS NULL ORDER BY (t.lobby->>'created')::float, t.id")
    return [dict(r[0]) for r in rows]


async def open_tables_elsewhere(store: PgArchive, address: str) -> int:
    """Tables waiting or playing on the other live processes that ``address`` opened
    (as their owners' writers have committed them: a batch behind, milliseconds)."""
    rows = await store.read(
        "SELECT count(*) FROM operators.table_creators c JOIN live_tables t ON"
        " t.id = c.table_id JOIN processes p ON p.instance = t.instance"
        " WHERE c.address = %s AND t.instance <> %s AND p.stopped_at IS NULL"
        " AND t.lobby->>'state' IN ('waiting', 'playing')", address, store.instance)
    return int(rows[0][0])


async def is_live(store: PgArchive, table_id: str) -> bool:
    """Whether a table of that id has a live row (on any process, dead ones too)."""
    return bool(await store.read("SELECT 1 FROM live_tables WHERE id = %s", table_id))

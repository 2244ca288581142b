"""The PostgreSQL connection of a cluster's store: connecting, bringing the schema up to
date (``migrations``), and what one queued write is to the writer's transaction.

Why psycopg 3's sync API in worker threads: its async API is built on asyncio and does not
run under trio; a blocking connection used from ``trio.to_thread.run_sync`` does, and the
event loop never waits on the database.
"""

from __future__ import annotations

from typing import Any, Protocol, TypeAlias

import psycopg

from quaymoor.store.archive import ArchiveError
from quaymoor.store.migrations import MigrationError, migrate

Db: TypeAlias = psycopg.Connection[tuple[Any, ...]]


class Statement(Protocol):
    """A write applied inside the writer's transaction (``pg_archive``)."""

    def apply(self, db: Db) -> None: ...


def connect(url: str) -> Db:
    """A connection in autocommit mode (transactions are explicit). Raises
    ``ArchiveError`` saying why when the database cannot be reached."""
    try:
        return psycopg.connect(url, autocommit=True, connect_timeout=10)
    except psycopg.Error as exc:
        raise ArchiveError(f"cannot connect to PostgreSQL: {exc}") from exc


def check_database(url: str) -> None:
    """Connect and bring the schema up to date; raises ``ArchiveError`` saying why not."""
    db = connect(url)
    try:
        migrate(db)
    except (psycopg.Error, MigrationError) as exc:
        raise ArchiveError(f"the database's schema: {exc}") from exc
    finally:
        db.close()

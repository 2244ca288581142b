"""The PostgreSQL store's migrations: plain SQL files here, ``NNNN_name.sql``, applied in
order, each once, each in its own transaction, recorded in ``schema_migrations``.

``migrate`` takes a transaction-scoped advisory lock first, so that processes starting at
the same moment apply each file once between them. A database that has applied a file
this code does not have (a newer server's) is refused: this server would not know its
schema.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Final

import psycopg

HERE: Final = Path(__file__).resolve().parent
_NAME = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")
#: Any constant: the advisory lock the migrating process holds.
_LOCK: Final = 0x5175_6179


class MigrationError(Exception):
    """The database's schema is not one this server can use."""


def migration_files() -> list[tuple[int, str, str]]:
    """(number, file name, SQL) of every migration kept here, in order."""
    found = []
    for path in HERE.iterdir():
        match = _NAME.match(path.name)
        if match:
            found.append((int(match.group(1)), path.name, path.read_text(encoding="utf-8")))
    found.sort()
    numbers = [n for n, _, _ in found]
    if numbers != list(range(1, len(found) + 1)):
        raise MigrationError(f"migrations must be numbered 1, 2, 3 ... without gaps: {numbers}")
    return found


def migrate(db: psycopg.Connection[Any]) -> list[str]:
    """Apply every migration not yet applied; returns the names of those applied now."""
    files = migration_files()
    applied_now = []
    with db.transaction():
        db.execute("SELECT pg_advisory_xact_lock(%s)", (_LOCK,))
        db.execute("CREATE TABLE IF NOT EXISTS schema_migrations ("
                   " number integer PRIMARY KEY, name text NOT NULL,"
                   " applied_at timestamptz NOT NULL DEFAULT now())")
        done = {int(str(row[0])) for row in db.execute("SELECT number FROM schema_migrations")}
        newer = sorted(done - {n for n, _, _ in files})
        if newer:
            raise MigrationError(f"the database has migrations {newer} that this server "
                                 "does not know: it is newer than this code")
        for number, name, sql in files:
            if number in done:
                continue
            db.execute(sql.encode())  # our own files: several statements, no parameters
            db.execute("INSERT INTO schema_migrations (number, name) VALUES (%s, %s)",
                       (number, name))
            applied_now.append(name)
    return applied_now

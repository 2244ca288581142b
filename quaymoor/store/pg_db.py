"""The PostgreSQL connection of a cluster's store: connecting, bringing the schema up to
date (``migrations``), and what one queued write is to the writer's transaction.

Why psycopg 3's sync API in worker threads: its async API is built on asyncio and does not
run under trio; a blocking connection used from ``trio.to_thread.run_sync`` does, and the
event loop never waits on the database.

Where the database is. ``url`` is anything libpq takes: a URL
(``postgresql://user@h1:p1,h2:p2/db?target_session_attrs=read-write``) or key=value
conninfo (``host=h1,h2 port=p1,p2 dbname=db target_session_attrs=read-write``), one host
or several. With several, libpq tries each in turn; ``conninfo`` adds
``target_session_attrs=read-write`` when the string does not say, so that after a failover
(``cluster.pg_standby``) every new connection lands on the new primary, never on a
standby. A host gone silent (a crashed machine, a partition: no refusal, no reset) must
not hold a connection for the kernel's minutes: ``conninfo`` also bounds each host's
connect (``CONNECT_TIMEOUT_EACH_OF_SEVERAL``) and sets TCP keepalives and a user timeout
(``TCP_DEFAULTS``), so a connection to it fails within seconds and the next one is made
to the host that now takes writes. ``redacted`` is the form that may be printed or
logged (no password).
"""

from __future__ import annotations

from typing import Any, Final, Protocol, TypeAlias

import psycopg
from psycopg.conninfo import conninfo_to_dict, make_conninfo

from quaymoor.store.archive import ArchiveError
from quaymoor.store.migrations import MigrationError, migrate

Db: TypeAlias = psycopg.Connection[tuple[Any, ...]]


class Statement(Protocol):
    """A write applied inside the writer's transaction (``pg_archive``)."""

    def apply(self, db: Db) -> None: ...


#: Seconds libpq waits for each host of the connection string (a host that is gone
#: without refusing, a lost machine, costs this much before the next host is tried).
CONNECT_TIMEOUT: Final = 10
CONNECT_TIMEOUT_EACH_OF_SEVERAL: Final = 4
#: TCP settings that end a connection to a host gone silent (a crash, a partition) in
#: seconds rather than the kernel's minutes: keepalives after 5 s idle, 3 missed 1 s
#: apart; unacknowledged data for 5 s. The string's own values win.
TCP_DEFAULTS: Final = {"keepalives": "1", "keepalives_idle": "5",
                       "keepalives_interval": "1", "keepalives_count": "3",
                       "tcp_user_timeout": "5000"}


def _params(url: str) -> dict[str, Any]:
    try:
        return conninfo_to_dict(url)
    except psycopg.Error:
        # libpq's message quotes the string around the fault: it may be a password.
        raise ArchiveError("not a PostgreSQL connection string (neither a postgresql:// "
                           "URL nor key=value pairs libpq can parse)") from None


def conninfo(url: str) -> str:
    """``url`` as key=value conninfo; with several hosts and no ``target_session_attrs``,
    ``read-write`` added (the module's docstring); a connect timeout per host and
    ``TCP_DEFAULTS`` where it gives none. ``ArchiveError`` when libpq cannot parse it."""
    params = _params(url)
    several = "," in str(params.get("host", "")) or "," in str(params.get("hostaddr", ""))
    if several:
        params.setdefault("target_session_attrs", "read-write")
    params.setdefault("connect_timeout",
                      str(CONNECT_TIMEOUT_EACH_OF_SEVERAL if several else CONNECT_TIMEOUT))
    return make_conninfo("", **{**TCP_DEFAULTS, **params})


def redacted(url: str) -> str:
    """``url`` to print or log: its hosts, ports, database and user, never its password
    (the unparsable string itself is not shown: it may hold one)."""
    try:
        params = _params(url)
    except ArchiveError:
        return "(a connection string libpq cannot parse)"
    shown = {k: v for k, v in params.items() if k not in ("password", "passfile")}
    return make_conninfo("", **shown)


def connect(url: str) -> Db:
    """A connection in autocommit mode (transactions are explicit), to the host of
    ``url`` that takes writes. Raises ``ArchiveError`` saying why when the database
    cannot be reached."""
    target = conninfo(url)
    try:
        return psycopg.connect(target, autocommit=True)
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

"""A PostgreSQL server of the cluster's own, in a folder (``var/cluster/pg`` by default),
from Debian's packages (``/usr/lib/postgresql/<version>/bin``).

``initdb`` and ``postgres`` refuse to run as root: as root they run as the ``postgres``
user (``runuser``), and the folder is made theirs. Trust authentication on 127.0.0.1 and
a socket in the data folder only: this database is for one machine's cluster (and the
tests); docs/deploy.md says how to point the cluster at a real one (``--database``).
"""

from __future__ import annotations

import os
import pwd
import shutil
import socket
import subprocess
from pathlib import Path
from typing import Final

USER: Final = "quaymoor"
DATABASE: Final = "quaymoor"
PG_ROOT: Final = Path("/usr/lib/postgresql")


class PostgresError(Exception):
    """The local PostgreSQL cannot be set up or started."""


def find_bin() -> Path:
    """The newest installed server's binaries (initdb, pg_ctl)."""
    found = sorted((p for p in PG_ROOT.glob("*/bin") if (p / "pg_ctl").exists()),
                   key=lambda p: int(p.parent.name) if p.parent.name.isdigit() else 0)
    if not found:
        raise PostgresError(f"no PostgreSQL server under {PG_ROOT}: install Debian's "
                            "postgresql package (apt-get install postgresql)")
    return found[-1]


def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket() as s:
        s.bind((host, 0))
        return int(s.getsockname()[1])


class LocalPostgres:
    """A PostgreSQL in ``folder`` on a free port of 127.0.0.1; ``start``, then ``stop``.
    ``settings`` are ``-c NAME=VALUE`` options on its command line (not in its
    configuration files, so a base backup of it does not copy them: ``pg_standby``)."""

    def __init__(self, folder: Path, settings: dict[str, str] | None = None) -> None:
        self.folder = folder.resolve()
        self.settings = dict(settings or {})
        self.data = self.folder / "data"
        self.port = 0
        self.bin = find_bin()
        self._as: list[str] = []
        if os.geteuid() == 0:
            try:
                pwd.getpwnam("postgres")
            except KeyError:
                raise PostgresError("running as root needs the postgres user (Debian's "
                                    "postgresql package creates it)") from None
            self._as = ["runuser", "-u", "postgres", "--"]

    @property
    def url(self) -> str:
        return f"postgresql://{USER}@127.0.0.1:{self.port}/{DATABASE}"

    def run(self, *args: str) -> str:
        """One of the server's programs (``bin``) as its user; its output."""
        # A session of its own: a terminal's Ctrl-C must not stop the database before the
        # table processes have archived their games (the cluster stops it last).
        done = subprocess.run([*self._as, *args], capture_output=True, text=True,
                              check=False, start_new_session=True)
        if done.returncode != 0:
            raise PostgresError(f"{Path(args[0]).name} failed: {done.stderr.strip()[-800:]}")
        return done.stdout

    def prepare(self) -> None:
        """The folder, made the server's user's."""
        self.folder.mkdir(parents=True, exist_ok=True)
        if self._as:
            shutil.chown(self.folder, "postgres", "postgres")

    def start(self) -> str:
        """Create the database cluster when it is not there, start the server; its URL."""
        self.prepare()
        if not (self.data / "PG_VERSION").exists():
            self.run(str(self.bin / "initdb"), "-D", str(self.data), "-A", "trust",
                     "-U", USER, "-E", "UTF8", "--no-instructions")
        self.port = free_port()
        options = (f"-p {self.port} -k {self.data} -c listen_addresses=127.0.0.1"
                   " -c max_connections=200 -c fsync=on"
                   + "".join(f" -c {k}={v}" for k, v in self.settings.items()))
        self.run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-o", options,
                 "-l", str(self.folder / "postgres.log"), "-w", "-t", "30", "start")
        self._create_database()
        return self.url

    def pg_ctl(self, *args: str) -> None:
        """``pg_ctl -D <data> ARGS`` as the server's user (an operator's stop or start)."""
        self.run(str(self.bin / "pg_ctl"), "-D", str(self.data), *args)

    def _create_database(self) -> None:
        import psycopg  # noqa: PLC0415  # only the cluster needs it

        admin = f"postgresql://{USER}@127.0.0.1:{self.port}/postgres"
        with psycopg.connect(admin, autocommit=True) as db:
            if not db.execute("SELECT 1 FROM pg_database WHERE datname = %s",
                              (DATABASE,)).fetchone():
                db.execute(f"CREATE DATABASE {DATABASE}")

    @property
    def pid(self) -> int | None:
        """The postmaster's pid from its pid file (None without one: a killed server's
        is left behind, so the pid may be gone)."""
        try:
            return int((self.data / "postmaster.pid").read_text().split()[0])
        except (OSError, ValueError, IndexError):
            return None

    def stop(self) -> None:
        """Stop the server (fast: connections are closed, what committed is kept)."""
        if (self.data / "postmaster.pid").exists():
            self.run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "fast", "-w",
                      "stop")

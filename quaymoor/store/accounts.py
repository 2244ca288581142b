"""Accounts kept with the archive: accounts, their passkeys, sessions and the passkey
ceremonies under way.

The same statements run on SQLite (one process: ``Archive``, or ``SqliteAccounts`` on its
own) and PostgreSQL (a cluster: ``PgArchive``, migration ``0004_accounts.sql``); ``?``
placeholders here, ``%s`` for psycopg (``analyses.pg``). Every method blocks: the HTTP
side runs them in worker threads. What must hold together runs in one transaction (an
account and its first passkey; an account's deletion).

- ``accounts``: ``id`` is the WebAuthn user handle (random, never personal data), ``name``
  as shown, ``name_key`` the name's uniqueness key (``accounts.names``: UNIQUE, so two
  registrations racing for look-alike names on two processes cannot both win).
- ``credentials``: a passkey's id (base64url), its COSE public key (base64url) and its
  signature counter, which only goes up (a lower or equal one is a cloned authenticator
  or a replay: refused by ``webauthn``).
- ``sessions``: the SHA-256 of a session's cookie (the cookie itself is never stored: a
  copy of the database does not sign anyone in), its account, its CSRF token, when it
  expires.
- ``ceremonies``: a registration's, sign-in's or added passkey's challenge, taken
  (deleted) by the one request that completes it, so an answer cannot be replayed; expired
  ones are swept when a new one is added.

An account holds 1 to ``MAX_PASSKEYS`` passkeys: one is added by a signed-in person
(``add_credential``) and removed while another stays (``remove_credential``); both lock the
account's row first, so two removals at once on two processes cannot leave it none.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable
from typing import Any, Final, Protocol, TypeVar

import attrs

T = TypeVar("T")

SCHEMA: Final = """
CREATE TABLE IF NOT EXISTS accounts (
    id         TEXT PRIMARY KEY,
    name       TEXT NOT NULL,
    name_key   TEXT NOT NULL UNIQUE,
    created_at DOUBLE PRECISION NOT NULL
);
CREATE TABLE IF NOT EXISTS credentials (
    id         TEXT PRIMARY KEY,
    account_id TEXT NOT NULL,
    public_key TEXT NOT NULL,
    sign_count BIGINT NOT NULL,
    created_at DOUBLE PRECISION NOT NULL,
    used_at    DOUBLE PRECISION
);
CREATE INDEX IF NOT EXISTS credentials_by_account ON credentials (account_id);
CREATE TABLE IF NOT EXISTS sessions (
    token_hash TEXT PRIMARY KEY,
    account_id TEXT NOT NULL,
    csrf       TEXT NOT NULL,
    created_at DOUBLE PRECISION NOT NULL,
    expires_at DOUBLE PRECISION NOT NULL
);
CREATE INDEX IF NOT EXISTS sessions_by_account ON sessions (account_id);
CREATE TABLE IF NOT EXISTS ceremonies (
    id         TEXT PRIMARY KEY,
    kind       TEXT NOT NULL,
    challenge  TEXT NOT NULL,
    account_id TEXT,
    name       TEXT,
    expires_at DOUBLE PRECISION NOT NULL
);
"""

#: The most passkeys one account may hold (a phone, a laptop, a security key or two...).
MAX_PASSKEYS: Final = 10

#: A statement runner: ``run(sql, params) -> rows`` (``?`` placeholders).
Run = Callable[[str, tuple[Any, ...]], list[Any]]


class Transact(Protocol):
    """Runs ``work(run)`` in one transaction: committed when it returns, rolled back when
    it raises."""

    def __call__(self, work: Callable[[Run], T]) -> T: ...


@attrs.frozen
class Ceremony:
    id: str
    kind: str  #: "register", "signin" or "add_passkey"
    challenge: str  #: base64url
    account_id: str | None  #: a registration's new user handle; the account adding a passkey
    name: str | None  #: a registration's name; the account's, adding a passkey
    expires_at: float


@attrs.frozen
class Credential:
    id: str
    account_id: str
    public_key: str  #: base64url of the COSE key
    sign_count: int
    name: str  #: its account's


@attrs.frozen
class Passkey:
    """One of an account's passkeys, as its owner may see it."""

    id: str  #: the credential's id (base64url)
    created_at: float
    used_at: float | None  #: its last sign-in (None: never)


@attrs.frozen
class Session:
    account_id: str
    name: str
    csrf: str
    created_at: float
    expires_at: float


@attrs.frozen
class Account:
    id: str
    name: str
    created_at: float
    passkeys: int
    sessions: int


class AccountError(Exception):
    """A write that cannot be made: ``code`` says which (``name_taken``,
    ``passkey_taken``, ``too_many_passkeys``, ``last_passkey``, ``unknown_passkey``,
    ``account_gone``)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


class AccountStore:
    """The statements of the four tables over a store's transaction runner."""

    def __init__(self, transact: Transact,
                 forget: Callable[[Run, str], object] | None = None) -> None:
        self._transact = transact
        #: what else an account's deletion removes, in its transaction (its ratings and
        #: its name in the records: ``store.ratings.forget_account``)
        self._forget = forget

    def _one(self, sql: str, params: tuple[Any, ...]) -> list[Any]:
        return self._transact(lambda run: run(sql, params))

    # ---------------------------------------------------------------- ceremonies

    def add_ceremony(self, c: Ceremony, now: float) -> int:
        """Keep ``c`` (sweeping the expired); how many are under way now."""
        def work(run: Run) -> int:
            run("DELETE FROM ceremonies WHERE expires_at < ?", (now,))
            run("INSERT INTO ceremonies (id, kind, challenge, account_id, name, expires_at) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (c.id, c.kind, c.challenge, c.account_id, c.name, c.expires_at))
            return int(run("SELECT COUNT(*) FROM ceremonies", ())[0][0])
        return self._transact(work)

    def take_ceremony(self, ceremony_id: str, kind: str, now: float) -> Ceremony | None:
        """The ceremony, removed (so it completes once), when it is of ``kind`` and has
        not expired; None otherwise."""
        rows = self._one(
            "DELETE FROM ceremonies WHERE id = ? AND kind = ? "
            "RETURNING id, kind, challenge, account_id, name, expires_at",
            (ceremony_id, kind))
        if not rows:
            return None
        cid, k, challenge, account_id, name, expires_at = rows[0]
        if float(expires_at) < now:
            return None
        return Ceremony(str(cid), str(k), str(challenge), account_id, name, float(expires_at))

    # ---------------------------------------------------------------- accounts

    def name_taken(self, name_key: str) -> bool:
        return bool(self._one("SELECT 1 FROM accounts WHERE name_key = ?", (name_key,)))

    def create_account(self, account_id: str, name: str, name_key: str, *,
                       credential_id: str, public_key: str, sign_count: int,
                       now: float) -> None:
        """An account with its first passkey, both or neither; ``AccountError`` when the
        name (by its key) or the passkey is taken."""
        def work(run: Run) -> None:
            if not run("INSERT INTO accounts (id, name, name_key, created_at) "
                       "VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING RETURNING id",
                       (account_id, name, name_key, now)):
                raise AccountError("name_taken", "that name, or one that looks like it, "
                                   "is taken")
            if not run("INSERT INTO credentials (id, account_id, public_key, sign_count, "
                       "created_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING RETURNING id",
                       (credential_id, account_id, public_key, sign_count, now)):
                raise AccountError("passkey_taken", "this passkey is registered already")
        self._transact(work)

    def credential(self, credential_id: str) -> Credential | None:
        rows = self._one(
            "SELECT c.id, c.account_id, c.public_key, c.sign_count, a.name FROM credentials c "
            "JOIN accounts a ON a.id = c.account_id WHERE c.id = ?", (credential_id,))
        if not rows:
            return None
        cid, account_id, key, count, name = rows[0]
        return Credential(str(cid), str(account_id), str(key), int(count), str(name))

    def credential_used(self, credential_id: str, old_count: int, new_count: int,
                        now: float) -> bool:
        """Move the counter from ``old_count`` to ``new_count``; False when another
        sign-in moved it first."""
        return bool(self._one(
            "UPDATE credentials SET sign_count = ?, used_at = ? "
            "WHERE id = ? AND sign_count = ? RETURNING id",
            (new_count, now, credential_id, old_count)))

    def _lock_account(self, run: Run, account_id: str) -> None:
        """Lock the account's row for the transaction (PostgreSQL: a write takes the row
        lock, and what runs after it in this transaction sees what the other committed;
        SQLite runs one transaction at a time); ``account_gone`` when it is not there."""
        if not run("UPDATE accounts SET created_at = created_at WHERE id = ? RETURNING id",
                   (account_id,)):
            raise AccountError("account_gone", "this account was deleted")

    def add_credential(self, account_id: str, *, credential_id: str, public_key: str,
                       sign_count: int, now: float) -> int:
        """Another passkey for the account; how many it has now. ``AccountError`` when
        the account is gone, holds ``MAX_PASSKEYS`` already, or the passkey is taken."""
        def work(run: Run) -> int:
            self._lock_account(run, account_id)
            held = int(run("SELECT COUNT(*) FROM credentials WHERE account_id = ?",
                           (account_id,))[0][0])
            if held >= MAX_PASSKEYS:
                raise AccountError("too_many_passkeys", f"an account holds at most "
                                   f"{MAX_PASSKEYS} passkeys: remove one first")
            if not run("INSERT INTO credentials (id, account_id, public_key, sign_count, "
                       "created_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING RETURNING id",
                       (credential_id, account_id, public_key, sign_count, now)):
                raise AccountError("passkey_taken", "this passkey is registered already")
            return held + 1
        return self._transact(work)

    def passkeys(self, account_id: str) -> list[Passkey]:
        """The account's passkeys, oldest first."""
        rows = self._one("SELECT id, created_at, used_at FROM credentials WHERE account_id = ? "
                         "ORDER BY created_at, id", (account_id,))
        return [Passkey(str(cid), float(created), None if used is None else float(used))
                for cid, created, used in rows]

    def remove_credential(self, account_id: str, credential_id: str) -> int:
        """One of the account's passkeys removed; how many it has left. ``AccountError``
        when it is not one of the account's, or is its last (an account with no passkey
        could never be signed in to again)."""
        def work(run: Run) -> int:
            self._lock_account(run, account_id)
            held = int(run("SELECT COUNT(*) FROM credentials WHERE account_id = ?",
                           (account_id,))[0][0])
            mine = run("SELECT 1 FROM credentials WHERE id = ? AND account_id = ?",
                       (credential_id, account_id))
            if not mine:
                raise AccountError("unknown_passkey", "this account has no such passkey")
            if held <= 1:
                raise AccountError("last_passkey", "this is the account's only passkey: add "
                                   "another before removing it, or delete the account")
            run("DELETE FROM credentials WHERE id = ? AND account_id = ?",
                (credential_id, account_id))
            return held - 1
        return self._transact(work)

    def account(self, account_id: str) -> Account | None:
        def work(run: Run) -> Account | None:
            rows = run("SELECT id, name, created_at FROM accounts WHERE id = ?", (account_id,))
            if not rows:
                return None
            keys = run("SELECT COUNT(*) FROM credentials WHERE account_id = ?", (account_id,))
            live = run("SELECT COUNT(*) FROM sessions WHERE account_id = ?", (account_id,))
            aid, name, created = rows[0]
            return Account(str(aid), str(name), float(created), int(keys[0][0]),
                           int(live[0][0]))
        return self._transact(work)

    def delete_account(self, account_id: str) -> bool:
        """The account, its passkeys and sessions gone, at once; False when it was not
        there. The account's row goes first: on PostgreSQL that locks it before anything
        else, as the record of a game does before its ratings (``ratings.record_game``),
        so a deletion and the first record of one of its games never wait on each other
        crosswise."""
        def work(run: Run) -> bool:
            there = bool(run("DELETE FROM accounts WHERE id = ? RETURNING id", (account_id,)))
            if self._forget is not None:
                self._forget(run, account_id)
            run("DELETE FROM sessions WHERE account_id = ?", (account_id,))
            run("DELETE FROM credentials WHERE account_id = ?", (account_id,))
            run("DELETE FROM ceremonies WHERE account_id = ?", (account_id,))
            return there
        return self._transact(work)

    # ---------------------------------------------------------------- sessions

    def open_session(self, token_hash: str, account_id: str, csrf: str, now: float,
                     expires_at: float) -> None:
        def work(run: Run) -> None:
            run("DELETE FROM sessions WHERE expires_at < ?", (now,))
            run("INSERT INTO sessions (token_hash, account_id, csrf, created_at, expires_at) "
                "VALUES (?, ?, ?, ?, ?)", (token_hash, account_id, csrf, now, expires_at))
        self._transact(work)

    def session(self, token_hash: str, now: float) -> Session | None:
        rows = self._one(
            "SELECT s.account_id, a.name, s.csrf, s.created_at, s.expires_at FROM sessions s "
            "JOIN accounts a ON a.id = s.account_id WHERE s.token_hash = ? AND s.expires_at > ?",
            (token_hash, now))
        if not rows:
            return None
        account_id, name, csrf, created, expires = rows[0]
        return Session(str(account_id), str(name), str(csrf), float(created), float(expires))

    def end_session(self, token_hash: str) -> None:
        self._one("DELETE FROM sessions WHERE token_hash = ?", (token_hash,))

    def end_sessions(self, account_id: str) -> int:
        """Every session of the account ended (sign out everywhere); how many."""
        return len(self._one("DELETE FROM sessions WHERE account_id = ? RETURNING token_hash",
                             (account_id,)))


def sqlite_transact(db: sqlite3.Connection, lock: threading.Lock,
                    before: Callable[[], sqlite3.Connection] | None = None) -> Transact:
    """A ``Transact`` on an autocommit SQLite connection (``isolation_level=None``),
    serialised by ``lock``; ``before`` gives the connection to use when it may change
    (a reopened archive)."""
    def transact(work: Callable[[Run], T]) -> T:
        with lock:
            conn = before() if before is not None else db

            def run(sql: str, params: tuple[Any, ...]) -> list[Any]:
                return conn.execute(sql, params).fetchall()

            conn.execute("BEGIN IMMEDIATE")
            try:
                out = work(run)
                conn.execute("COMMIT")
                return out
            except BaseException:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                raise
    return transact


__all__ = ["MAX_PASSKEYS", "SCHEMA", "Account", "AccountError", "AccountStore", "Ceremony",
           "Credential", "Passkey", "Session", "Transact", "sqlite_transact"]

"""Accounts, ratings and players' games in an in-memory SQLite database, for a server
without an archive (tests, throwaway runs): the archive's own statements (``store.accounts``,
``store.ratings``), lost at exit. Nothing is archived here: the records such a server
serves are the supervisor's in memory, and it takes a deleted account's name out of them
itself (``Supervisor.account_gone``); a game's accounts and ratings are written when its
record would be (``submit``, on the caller's thread: an in-memory database answers in
microseconds)."""

from __future__ import annotations

import sqlite3
import threading

from quaymoor.rules.record import GameRecord
from quaymoor.store import ratings
from quaymoor.store.accounts import SCHEMA as ACCOUNTS_SCHEMA
from quaymoor.store.accounts import AccountStore, sqlite_transact
from quaymoor.store.archive import GAMES_SCHEMA
from quaymoor.store.ratings import GameAccounts, RatingStore


class MemoryStore:
    """One in-memory database: ``accounts`` and ``ratings`` as the archive has them."""

    def __init__(self) -> None:
        db = sqlite3.connect(":memory:", check_same_thread=False, isolation_level=None)
        db.executescript(GAMES_SCHEMA + ACCOUNTS_SCHEMA + ratings.SCHEMA)
        self._transact = sqlite_transact(db, threading.Lock())
        self.accounts = AccountStore(self._transact, ratings.forget_account)
        self.ratings = RatingStore(self._transact)

    def submit(self, game_id: str, record: GameRecord, who: GameAccounts | None = None) -> None:
        """A game's accounts and, rated, their ratings (the record itself is not kept)."""
        if who is not None:
            self._transact(lambda run: ratings.record_game(run, game_id, record, who))


__all__ = ["MemoryStore"]

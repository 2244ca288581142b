"""Players' ratings and games, kept with the archive and written in the same transaction
as each game's record.

The same statements run on SQLite (one process: ``Archive``'s writer) and PostgreSQL (a
cluster: ``PgArchive``'s, migration ``0006_ratings.sql``); ``?`` placeholders here.

- ``ratings``: an account's OpenSkill rating (``quaymoor.ratings``), its rated games and
  when it last played one. No row: a new player's rating.
- ``account_games``: every archived game an account sat at (rated or not: ``rated`` says
  the table was), its seat and, for a finished game, its place; for a rated one that
  finished, the rating before and after (null otherwise: the rating did not move). Its key
  (account, game) and the check that a game has no rows yet make the update happen
  **once per game**, however often its record is written (a record is rewritten when a
  batch is retried or a process's games are claimed).

``record_game`` is what the writers call, inside the record's transaction. Only a rated
game that *finished* changes ratings: one ended by a shutdown or a crash changes none.
Two rated games of one player ending at once on two processes: each transaction first
makes sure every account of the game has a row, then reads the rows ``FOR UPDATE`` (in
account order, so two games never wait on each other crosswise): the second waits for the
first to commit and rates from the rating the first wrote. SQLite has one writer, so its
transactions are in order anyway.

Deleting an account (``forget_account``) removes its rating and its list of games, and
takes its name out of the archived records of those games (``store.removed_names``: format
5, whose key binds no name; a format-4 record keeps it). A game still running when its
player's account goes is written with that seat as a guest's, its name taken out too.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

import attrs

from quaymoor.ratings import BOT_RATINGS, Rating, places, rate
from quaymoor.rules.record import EndReason, GameRecord
from quaymoor.store.accounts import Run, Transact
from quaymoor.store.removed_names import remove_names

SCHEMA: Final = """
CREATE TABLE IF NOT EXISTS ratings (
    account_id  TEXT PRIMARY KEY,
    mu          DOUBLE PRECISION NOT NULL,
    sigma       DOUBLE PRECISION NOT NULL,
    games       INTEGER NOT NULL,
    last_played DOUBLE PRECISION
);
CREATE INDEX IF NOT EXISTS ratings_by_mu ON ratings (mu);
CREATE TABLE IF NOT EXISTS account_games (
    account_id   TEXT NOT NULL,
    game_id      TEXT NOT NULL,
    seat         INTEGER NOT NULL,
    ended_at     DOUBLE PRECISION NOT NULL,
    players      INTEGER NOT NULL,
    reason       TEXT NOT NULL,
    place        INTEGER,
    rated        INTEGER NOT NULL,
    mu_before    DOUBLE PRECISION,
    sigma_before DOUBLE PRECISION,
    mu           DOUBLE PRECISION,
    sigma        DOUBLE PRECISION,
    PRIMARY KEY (account_id, game_id)
);
CREATE INDEX IF NOT EXISTS account_games_by_game ON account_games (game_id);
CREATE INDEX IF NOT EXISTS account_games_by_account ON account_games (account_id, ended_at);
"""

#: Games listed on a player's page, newest first.
RECENT: Final = 50


@attrs.frozen
class SeatAccount:
    """Who sat in one seat, as the rating needs it: the account signed in there (None: a
    guest or a bot), the bot level of a bot's own chair, and whether its player *left*
    (a bot played for them after timeouts or a vote)."""

    account_id: str | None = None
    bot_level: str | None = None
    left: bool = False


@attrs.frozen
class GameAccounts:
    """What the store keeps of a game beside its record: whether it was rated and who sat
    where (``seats`` in seat order)."""

    rated: bool
    seats: tuple[SeatAccount, ...]

    def any_account(self) -> bool:
        return any(s.account_id is not None for s in self.seats)

    def to_json(self) -> dict[str, Any]:
        """As a running game's store keeps it (a killed game's record is archived with it)."""
        return {"rated": self.rated, "seats": [
            {"account": s.account_id, "bot": s.bot_level, "left": s.left} for s in self.seats]}

    @classmethod
    def from_json(cls, data: Any) -> GameAccounts | None:
        """What ``to_json`` wrote (None for anything else: a row no process of ours wrote
        is not trusted to rate anyone)."""
        if not isinstance(data, dict) or not isinstance(data.get("rated"), bool):
            return None
        seats = data.get("seats")
        if not isinstance(seats, list):
            return None
        out = []
        for seat in seats:
            if not isinstance(seat, dict):
                return None
            account, bot, left = seat.get("account"), seat.get("bot"), seat.get("left")
            if not (isinstance(account, str | None) and isinstance(bot, str | None)
                    and isinstance(left, bool)):
                return None
            out.append(SeatAccount(account, bot, left))
        return cls(data["rated"], tuple(out))


def record_game(run: Run, game_id: str, record: GameRecord, who: GameAccounts, *,
                lock: str = "") -> bool:
    """Inside the record's transaction: the game's rows in ``account_games`` and, for a
    rated game that finished, every account's new rating. ``lock`` is appended to the
    read of the ratings (PostgreSQL: ``" FOR UPDATE"``). False when the game was already
    written (nothing done) or had no account at it. An account deleted while its game
    was played is a guest's seat here, and its name is taken out of the record just
    written (``removed_names``)."""
    if not who.any_account():
        return False
    who = _without_deleted(run, game_id, who, lock)
    if not who.any_account():
        return False
    if run("SELECT 1 FROM account_games WHERE game_id = ? LIMIT 1", (game_id,)):
        return False
    ended_at = record.ended_at or 0.0
    finished = record.result is not None and record.reason == EndReason.FINISHED
    placed: list[int] | None = None
    if finished:
        assert record.result is not None
        scores = [(s.total, s.tiebreak) for s in sorted(record.result.scores,
                                                         key=lambda s: s.seat)]
        placed = places(scores, [s.left for s in who.seats])
    before: dict[str, Rating] = {}
    after: dict[str, Rating] = {}
    if who.rated and placed is not None:
        before = _locked_ratings(run, who, lock)
        seat_ratings = [_seat_rating(s, before) for s in who.seats]
        for seat, moved in zip(who.seats, rate(seat_ratings, placed), strict=True):
            if seat.account_id is not None:
                after[seat.account_id] = moved
        for account_id, rated in after.items():
            run("UPDATE ratings SET mu = ?, sigma = ?, games = games + 1, last_played = ? "
                "WHERE account_id = ?", (rated.mu, rated.sigma, ended_at, account_id))
    for index, seat in enumerate(who.seats):
        aid = seat.account_id
        if aid is None:
            continue
        old, new = before.get(aid), after.get(aid)
        run("INSERT INTO account_games (account_id, game_id, seat, ended_at, players, reason,"
            " place, rated, mu_before, sigma_before, mu, sigma)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
            (aid, game_id, index, ended_at, record.players, record.reason,
             None if placed is None else placed[index], 1 if who.rated else 0,
             None if old is None else old.mu, None if old is None else old.sigma,
             None if new is None else new.mu, None if new is None else new.sigma))
    return True


def _without_deleted(run: Run, game_id: str, who: GameAccounts, lock: str) -> GameAccounts:
    """``who`` with the seats of accounts that no longer exist made guests' seats, their
    names taken out of the game's record. The accounts' rows are read with ``lock``, in
    account order: a deletion under way is waited for (it then finds this game's rows and
    takes the name out itself, or has gone before and is seen gone here)."""
    ids = sorted({s.account_id for s in who.seats if s.account_id is not None})
    marks = ", ".join("?" for _ in ids)
    alive = {str(row[0]) for row in run(
        f"SELECT id FROM accounts WHERE id IN ({marks}) ORDER BY id{lock}", tuple(ids))}
    gone = [i for i, s in enumerate(who.seats)
            if s.account_id is not None and s.account_id not in alive]
    if not gone:
        return who
    remove_names(run, [(game_id, seat) for seat in gone])
    return attrs.evolve(who, seats=tuple(
        attrs.evolve(s, account_id=None) if i in gone else s for i, s in enumerate(who.seats)))


def _locked_ratings(run: Run, who: GameAccounts, lock: str) -> dict[str, Rating]:
    """The game's accounts' ratings, each made a row first (a new player's) and read
    with ``lock``, in account order."""
    ids = sorted({s.account_id for s in who.seats if s.account_id is not None})
    fresh = Rating.new()
    for aid in ids:
        run("INSERT INTO ratings (account_id, mu, sigma, games, last_played)"
            " VALUES (?, ?, ?, 0, NULL) ON CONFLICT (account_id) DO NOTHING",
            (aid, fresh.mu, fresh.sigma))
    marks = ", ".join("?" for _ in ids)
    rows = run(f"SELECT account_id, mu, sigma FROM ratings WHERE account_id IN ({marks})"
               f" ORDER BY account_id{lock}", tuple(ids))
    return {str(aid): Rating(float(mu), float(sigma)) for aid, mu, sigma in rows}


def _seat_rating(seat: SeatAccount, ratings: dict[str, Rating]) -> Rating:
    if seat.account_id is not None:
        return ratings[seat.account_id]
    if seat.bot_level is not None and seat.bot_level in BOT_RATINGS:
        return BOT_RATINGS[seat.bot_level]
    return Rating.new()  # a guest: cannot sit at a rated table, rated as a newcomer


@attrs.frozen
class Standing:
    """A row of the leaderboard."""

    name: str
    rating: Rating
    games: int
    last_played: float | None


@attrs.frozen
class PlayedGame:
    """One game on a player's page."""

    game_id: str
    ended_at: float
    players: int
    seat: int
    place: int | None
    rated: bool
    reason: str
    before: Rating | None
    after: Rating | None


@attrs.frozen
class Profile:
    account_id: str
    name: str
    since: float
    rating: Rating
    games: int
    last_played: float | None
    history: list[PlayedGame]  #: rated games, oldest first
    recent: list[PlayedGame]  #: the last ``RECENT`` games, newest first


_GAME_COLUMNS: Final = ("game_id, ended_at, players, seat, place, rated, reason, mu_before,"
                        " sigma_before, mu, sigma")


def _played(row: Sequence[Any]) -> PlayedGame:
    gid, ended, players, seat, place, rated, reason, mb, sb, mu, sigma = row
    return PlayedGame(str(gid), float(ended), int(players), int(seat),
                      None if place is None else int(place), bool(rated), str(reason),
                      None if mb is None else Rating(float(mb), float(sb)),
                      None if mu is None else Rating(float(mu), float(sigma)))


class RatingStore:
    """The reads of the two tables, and an account's ratings forgotten, over a store's
    transaction runner (``accounts.Transact``)."""

    def __init__(self, transact: Transact) -> None:
        self._transact = transact

    def leaderboard(self, limit: int) -> list[Standing]:
        """Accounts with at least one rated game, best rating first (ties: more games,
        then the name)."""
        rows = self._transact(lambda run: run(
            "SELECT a.name, r.mu, r.sigma, r.games, r.last_played FROM ratings r"
            " JOIN accounts a ON a.id = r.account_id WHERE r.games > 0"
            " ORDER BY r.mu DESC, r.games DESC, a.name LIMIT ?", (limit,)))
        return [Standing(str(name), Rating(float(mu), float(sigma)), int(games),
                         None if last is None else float(last))
                for name, mu, sigma, games, last in rows]

    def profile(self, name_key: str) -> Profile | None:
        """The account whose name's key is ``name_key``, with its games; None: none."""
        def work(run: Run) -> Profile | None:
            rows = run("SELECT id, name, created_at FROM accounts WHERE name_key = ?",
                       (name_key,))
            if not rows:
                return None
            aid, name, created = rows[0]
            rated = run("SELECT mu, sigma, games, last_played FROM ratings"
                        " WHERE account_id = ?", (aid,))
            rating, games, last = Rating.new(), 0, None
            if rated:
                mu, sigma, games, last = rated[0]
                rating = Rating(float(mu), float(sigma))
            history = run(f"SELECT {_GAME_COLUMNS} FROM account_games WHERE account_id = ?"
                          " AND mu IS NOT NULL ORDER BY ended_at, game_id", (aid,))
            recent = run(f"SELECT {_GAME_COLUMNS} FROM account_games WHERE account_id = ?"
                         " ORDER BY ended_at DESC, game_id LIMIT ?", (aid, RECENT))
            return Profile(str(aid), str(name), float(created), rating, int(games),
                           None if last is None else float(last),
                           [_played(r) for r in history], [_played(r) for r in recent])
        result: Profile | None = self._transact(work)
        return result

    def rating(self, account_id: str) -> tuple[Rating, int]:
        """An account's rating and rated games (a new player's when it has none)."""
        rows = self._transact(lambda run: run(
            "SELECT mu, sigma, games FROM ratings WHERE account_id = ?", (account_id,)))
        if not rows:
            return Rating.new(), 0
        mu, sigma, games = rows[0]
        return Rating(float(mu), float(sigma)), int(games)


def forget_account(run: Run, account_id: str) -> int:
    """Inside an account's deletion: its rating and its list of games gone, and its name
    taken out of those games' records (``removed_names``); how many games it had."""
    games = run("DELETE FROM account_games WHERE account_id = ? RETURNING game_id, seat",
                (account_id,))
    run("DELETE FROM ratings WHERE account_id = ?", (account_id,))
    remove_names(run, [(str(game_id), int(seat)) for game_id, seat in games])
    return len(games)


__all__ = ["SCHEMA", "GameAccounts", "PlayedGame", "Profile", "RatingStore",
           "SeatAccount", "Standing", "forget_account", "record_game"]

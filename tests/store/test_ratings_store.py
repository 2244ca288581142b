"""Players' ratings kept with the archive, alike in SQLite, a real PostgreSQL and memory:
a sequence of rated games moves each account exactly as ``openskill``'s own Plackett-Luce
model does, game after game; a game written again changes nothing; a game that did not
finish, or was not rated, changes no rating; a player who left is placed last; bots keep
their ladder ratings; two rated games of one player committing at once on two connections
are applied one after the other; deleting an account forgets its rating and its games and
takes its name out of its format-5 records, which still verify (a format-4 record, whose
key binds the names, keeps it)."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import attrs
import pytest
from openskill.models import PlackettLuce

from quaymoor.bots.prng import SplitMix64
from quaymoor.ratings import BOT_RATINGS, Rating
from quaymoor.rules.fairness import ALGORITHM, ALGORITHM_2, Deal, DealtSeat, seed_commitment
from quaymoor.rules.game import Game
from quaymoor.rules.record import GameRecord, SeatInfo
from quaymoor.rules.verify import verify_record
from quaymoor.store.accounts import AccountStore, Run
from quaymoor.store.archive import Archive
from quaymoor.store.memory_store import MemoryStore
from quaymoor.store.pg_archive import Archived, PgArchive, statements
from quaymoor.store.pg_db import connect
from quaymoor.store.ratings import GameAccounts, RatingStore, SeatAccount, forget_account
from quaymoor.tools.selfplay import game_seed, play_random

NOW = 1_800_000_000.0
PEOPLE = {"u-ada": "Ada", "u-bede": "Bede", "u-cuthbert": "Cuthbert"}


def record(i: int, names: list[str], *, reason: str = "finished") -> GameRecord:
    """A game of ``len(names)`` seats played to its end by random moves (or 5 moves in,
    for another ``reason``), ended at NOW + i."""
    game = Game(len(names), game_seed(77, i), [f"c{i}"], events=False)
    if reason == "finished":
        play_random(game, SplitMix64(i))
    else:
        for _ in range(5):
            seat = game.deciding()[0]
            game.apply(seat, game.legal_actions(seat)[0])
    seats = [SeatInfo(n, n.endswith("(bot)")) for n in names]
    return game.record(seats, game=f"{i:010x}", end_reason=reason, ended_at=NOW + i)


class Stores:
    """One store under test: its accounts, its ratings, and how a game is written (the
    archive's own write path, in one transaction with the record)."""

    def __init__(self, accounts: AccountStore, rated: RatingStore,
                 write: Callable[[str, GameRecord, GameAccounts], None],
                 transact: Callable[[Callable[[Run], Any]], Any], *,
                 memory: bool = False) -> None:
        self.accounts, self.ratings, self.write, self.transact = accounts, rated, write, transact
        self.memory = memory  #: no archive: records are not kept


def _wipe(run: Run) -> None:
    for table in ("account_games", "ratings", "sessions", "credentials", "ceremonies",
                  "accounts", "analyses", "games"):
        run(f"DELETE FROM {table}", ())


@pytest.fixture(params=["sqlite", "postgresql", "memory"])
def stores(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Stores]:
    if request.param == "sqlite":
        archive = Archive(tmp_path / "r.sqlite3")

        def write(game_id: str, rec: GameRecord, who: GameAccounts) -> None:
            archive._write([(1, game_id, rec, who)])  # the writer's batch, synchronously
        yield Stores(archive.accounts, archive.ratings, write, archive._transact)
    elif request.param == "memory":
        memory = MemoryStore()
        yield Stores(memory.accounts, memory.ratings, memory.submit, memory._transact,
                     memory=True)
    else:
        database: str = request.getfixturevalue("database")
        pg = PgArchive(database, "p1")
        pg._transact(_wipe)
        db = connect(database)

        def write_pg(game_id: str, rec: GameRecord, who: GameAccounts) -> None:
            with db.transaction():  # as the writer applies a batch
                Archived(game_id, rec, who).apply(db)
        yield Stores(pg.accounts, pg.ratings, write_pg, pg._transact)
        db.close()


def _people(store: Stores) -> None:
    for n, (aid, name) in enumerate(PEOPLE.items()):
        store.accounts.create_account(aid, name, name.lower(), credential_id=f"cred{n}",
                                      public_key="k", sign_count=0, now=NOW)


def _places(rec: GameRecord, left: list[bool]) -> list[int]:
    """Places computed here, from the record, independently of the module under test."""
    assert rec.result is not None
    key = {s.seat: (s.total, s.tiebreak) for s in rec.result.scores}
    stayed = [i for i in range(rec.players) if not left[i]]
    out = []
    for i in range(rec.players):
        if left[i]:
            out.append(len(stayed) + 1)
        else:
            out.append(1 + sum(1 for j in stayed if key[j] > key[i]))
    return out


def test_a_sequence_of_rated_games_matches_openskill(stores: Stores) -> None:
    _people(stores)
    model = PlackettLuce()
    expected = {aid: model.rating() for aid in PEOPLE}
    lineups = [
        ["u-ada", "u-bede"], ["u-ada", "u-bede", "u-cuthbert"], ["u-bede", "hard"],
        ["u-cuthbert", "u-ada", "normal", "easy"], ["u-ada", "u-bede"],
        ["expert", "u-bede", "u-cuthbert", "u-ada", "random"],
    ]
    for i, lineup in enumerate(lineups):
        names = [PEOPLE.get(s, f"{s} (bot)") for s in lineup]
        rec = record(i, names)
        who = GameAccounts(True, tuple(
            SeatAccount(s, None) if s in PEOPLE else SeatAccount(None, s) for s in lineup))
        stores.write(f"{i:010x}", rec, who)
        teams = []
        for s in lineup:
            if s in PEOPLE:
                teams.append([expected[s]])
            else:
                bot = BOT_RATINGS[s]
                teams.append([model.rating(mu=bot.mu, sigma=bot.sigma)])
        rated = model.rate(teams, ranks=[float(p) for p in _places(rec, [False] * len(lineup))])
        for s, team in zip(lineup, rated, strict=True):
            if s in PEOPLE:
                expected[s] = team[0]
    board = {row.name: row for row in stores.ratings.leaderboard(10)}
    games = {"u-ada": 5, "u-bede": 5, "u-cuthbert": 3}
    for aid, name in PEOPLE.items():
        mine, count = stores.ratings.rating(aid)
        assert mine.mu == pytest.approx(expected[aid].mu, abs=1e-9)
        assert mine.sigma == pytest.approx(expected[aid].sigma, abs=1e-9)
        assert count == games[aid] and board[name].games == games[aid]
    assert [r.name for r in stores.ratings.leaderboard(10)] == sorted(
        PEOPLE.values(), key=lambda n: -board[n].rating.mu)
    profile = stores.ratings.profile("ada")
    assert profile is not None and profile.name == "Ada" and len(profile.history) == 5
    assert [g.game_id for g in profile.history] == [f"{i:010x}" for i in (0, 1, 3, 4, 5)]
    last = profile.history[-1]
    assert last.after is not None and last.after.mu == pytest.approx(expected["u-ada"].mu)
    # each game's "before" is the one before's "after": no update lost or doubled
    for before, after in zip(profile.history, profile.history[1:], strict=False):
        assert after.before == before.after
    assert profile.recent[0].game_id == f"{5:010x}" and profile.recent[0].rated


def test_a_game_written_again_changes_nothing(stores: Stores) -> None:
    _people(stores)
    rec = record(1, ["Ada", "Bede"])
    who = GameAccounts(True, (SeatAccount("u-ada"), SeatAccount("u-bede")))
    stores.write("0000000001", rec, who)
    once = stores.ratings.rating("u-ada")
    stores.write("0000000001", rec, who)  # a retried batch, a reaper's claim
    assert stores.ratings.rating("u-ada") == once and once[1] == 1


def test_unfinished_or_unrated_games_change_no_rating(stores: Stores) -> None:
    _people(stores)
    fresh = stores.ratings.rating("u-ada")
    stores.write("0000000002", record(2, ["Ada", "Bede"], reason="shutdown"),
                 GameAccounts(True, (SeatAccount("u-ada"), SeatAccount("u-bede"))))
    stores.write("0000000003", record(3, ["Ada", "Bede"]),
                 GameAccounts(False, (SeatAccount("u-ada"), SeatAccount("u-bede"))))
    assert stores.ratings.rating("u-ada") == fresh == (fresh[0], 0)
    profile = stores.ratings.profile("ada")
    assert profile is not None and profile.history == []
    recent = {g.game_id: g for g in profile.recent}
    stopped, unrated = recent["0000000002"], recent["0000000003"]
    assert stopped.place is None and stopped.rated and stopped.after is None  # did not move
    assert unrated.place in (1, 2) and not unrated.rated and unrated.after is None
    assert stores.ratings.leaderboard(10) == []  # nobody has a rated game


def test_a_player_who_left_is_placed_last(stores: Stores) -> None:
    _people(stores)
    for i in range(20):  # a game whose seat 0 scored the most
        rec = record(100 + i, ["Ada", "Bede"])
        assert rec.result is not None
        if rec.result.winners == [0]:
            break
    else:
        raise AssertionError("no game won by seat 0 in 20")
    stores.write("00000000aa", rec, GameAccounts(True, (SeatAccount("u-ada", left=True),
                                                        SeatAccount("u-bede"))))
    ada, bede = stores.ratings.rating("u-ada")[0], stores.ratings.rating("u-bede")[0]
    assert ada.mu < 25 < bede.mu  # Ada won on points and left: she lost
    profile = stores.ratings.profile("ada")
    assert profile is not None and profile.history[0].place == 2


def dealt(i: int, algorithm: str = ALGORITHM) -> GameRecord:
    """A table's game (format 5, or 4 with ``quaymoor-fair-2``) played to its end: Ada
    (committed and revealed), Bede (no seed) and a bot."""
    table = f"{i:010x}"
    deal = Deal(table, (DealtSeat("Ada", False, seed_commitment(table, 0, "ada's"), "ada's"),
                        DealtSeat("Bede", False), DealtSeat("Cuthbert (bot)", True)))
    game = Game(3, game_seed(78, i), deal=deal, events=True, algorithm=algorithm)
    play_random(game, SplitMix64(i))
    return game.record(end_reason="finished", ended_at=NOW + i)


TRIO = GameAccounts(True, (SeatAccount("u-ada"), SeatAccount("u-bede"),
                           SeatAccount(bot_level="easy")))


def _stored(stores: Stores, game_id: str) -> tuple[GameRecord, list[Any]]:
    """The archived record of ``game_id`` and its games-list seats."""
    rows = stores.transact(lambda run: run("SELECT record, seats FROM games WHERE id = ?",
                                           (game_id,)))
    seats = rows[0][1]
    return GameRecord.from_json(rows[0][0]), json.loads(seats) if isinstance(seats, str) else seats


def test_deleting_an_account_takes_its_name_out_of_its_records(stores: Stores) -> None:
    """Ada deletes her account: her rating and games are gone, and in each format-5 record
    she played her seat reads "Seat 1 (name removed)" (in the record, the games list and
    the analysis), and the record still verifies for Bede; a format-4 record, whose key
    binds the names, keeps hers."""
    if stores.memory:
        pytest.skip("a server without an archive keeps no records to rename")
    _people(stores)
    five, four = dealt(4), dealt(5, ALGORITHM_2)
    stores.write(f"{4:010x}", five, TRIO)
    stores.write(f"{5:010x}", four, TRIO)
    analysis = {"game": f"{4:010x}", "players": [{"seat": 0, "name": "Ada", "accuracy": 80.0},
                                                 {"seat": 1, "name": "Bede", "accuracy": 70.0}]}
    stores.transact(lambda run: run(
        "INSERT INTO analyses (id, status, done, total, owner, updated_at, body)"
        " VALUES (?, 'done', 1, 1, 'p', ?, ?)", (f"{4:010x}", NOW, json.dumps(analysis))))
    assert stores.accounts.delete_account("u-ada")
    assert stores.ratings.profile("ada") is None
    assert [r.name for r in stores.ratings.leaderboard(10)] == ["Bede"]
    gone = stores.transact(lambda run: run(
        "SELECT COUNT(*) FROM account_games WHERE account_id = ?", ("u-ada",)))
    assert gone[0][0] == 0 and stores.ratings.rating("u-ada") == (Rating.new(), 0)

    renamed, listed = _stored(stores, f"{4:010x}")
    assert [(s.name, s.removed) for s in renamed.seats] == [
        ("Seat 1 (name removed)", True), ("Bede", False), ("Cuthbert (bot)", False)]
    assert attrs.evolve(renamed, seats=five.seats) == five  # nothing else changed
    assert "Ada" not in renamed.to_json().replace("Ada's", "")
    assert [x["name"] for x in listed] == ["Seat 1 (name removed)", "Bede", "Cuthbert (bot)"]
    verdict = verify_record(renamed)
    assert verdict.ok and verdict.message == verify_record(five).message, verdict.message
    body = stores.transact(lambda run: run("SELECT body FROM analyses WHERE id = ?",
                                           (f"{4:010x}",)))[0][0]
    assert [p["name"] for p in json.loads(body)["players"]] == ["Seat 1 (name removed)", "Bede"]

    kept, _ = _stored(stores, f"{5:010x}")
    assert kept == four and verify_record(kept).ok  # format 4: as played


def test_an_account_deleted_while_its_game_runs_is_written_as_a_guest(stores: Stores) -> None:
    """The record of a game Ada left by deleting her account mid-game: her seat is a
    guest's (no row of games, no rating made again for her), her name is taken out, and
    Bede is rated against a newcomer in her place."""
    if stores.memory:
        pytest.skip("a server without an archive keeps no records to rename")
    _people(stores)
    assert stores.accounts.delete_account("u-ada")
    five = dealt(6)
    stores.write(f"{6:010x}", five, TRIO)
    renamed, _ = _stored(stores, f"{6:010x}")
    assert renamed.seats[0].removed and renamed.seats[0].name == "Seat 1 (name removed)"
    assert verify_record(renamed).ok
    rows = stores.transact(lambda run: run(
        "SELECT account_id FROM account_games WHERE game_id = ?", (f"{6:010x}",)))
    assert [r[0] for r in rows] == ["u-bede"]
    assert not stores.transact(lambda run: run(
        "SELECT 1 FROM ratings WHERE account_id = ?", ("u-ada",)))
    assert stores.ratings.rating("u-bede")[1] == 1


def test_two_games_of_one_player_at_once_are_applied_in_turn(database: str) -> None:
    """Two processes' writers commit rated games of Ada at the same moment: the second
    waits for the first to commit and rates from the rating the first wrote. (What makes
    it wait is Ada's row, written by the first: its upsert or its ``FOR UPDATE`` read;
    the test holds the outcome, not which of the two.)"""
    pg = PgArchive(database, "p1")
    pg._transact(_wipe)
    stores = Stores(pg.accounts, pg.ratings, lambda *a: None, pg._transact)
    _people(stores)
    db = connect(database)
    with db.transaction():  # Ada has a rating row already: only the row lock can order them
        Archived(f"{9:010x}", record(9, ["Ada", "Bede"]), GameAccounts(True, (
            SeatAccount("u-ada"), SeatAccount("u-bede")))).apply(db)
    db.close()
    first_in, errors = threading.Event(), []
    done: dict[str, float] = {}

    def writer(game: int, opponent: str, hold: float) -> None:
        db = connect(database)
        try:
            rec = record(game, ["Ada", PEOPLE[opponent]])
            with db.transaction():
                Archived(f"{game:010x}", rec, GameAccounts(True, (
                    SeatAccount("u-ada"), SeatAccount(opponent)))).apply(db)
                first_in.set()
                time.sleep(hold)  # still holding Ada's row
            done[opponent] = time.monotonic()
        except Exception as exc:  # pragma: no cover - reported below
            errors.append(exc)
        finally:
            db.close()

    one = threading.Thread(target=writer, args=(10, "u-bede", 0.6))
    one.start()
    assert first_in.wait(10)
    two = threading.Thread(target=writer, args=(11, "u-cuthbert", 0.0))
    two.start()
    one.join(20)
    two.join(20)
    assert not errors, errors
    assert done["u-bede"] <= done["u-cuthbert"]  # the second waited for the first
    profile = pg.ratings.profile("ada")
    assert profile is not None and [g.game_id for g in profile.history] == [
        f"{9:010x}", f"{10:010x}", f"{11:010x}"]
    _, first, second = profile.history
    assert second.before == first.after  # applied in turn: neither update lost
    assert pg.ratings.rating("u-ada")[1] == 3
    rows = statements(connect(database))("SELECT COUNT(*) FROM account_games", ())
    assert rows[0][0] == 6


@pytest.mark.parametrize("first", ["record", "deletion"])
def test_a_deletion_and_a_record_of_its_game_at_once_take_the_name_out(
        database: str, first: str) -> None:
    """Ada deletes her account while a process writes the record of a game she played,
    on two connections, ``first`` holding its transaction open while the other begins:
    either way the record ends with her name taken out, no row of games or rating is left
    for her, and neither waits on the other crosswise (no deadlock)."""
    pg = PgArchive(database, "p1")
    pg._transact(_wipe)
    stores = Stores(pg.accounts, pg.ratings, lambda *a: None, pg._transact)
    _people(stores)
    game_id = f"{12:010x}"
    entered, errors = threading.Event(), []
    hold = {"record": 0.6 if first == "record" else 0.0,
            "deletion": 0.6 if first == "deletion" else 0.0}

    def held_forget(run: Run, account_id: str) -> int:
        games = forget_account(run, account_id)
        entered.set()
        time.sleep(hold["deletion"])  # the account's row deleted, not yet committed
        return games

    deleting = AccountStore(pg._transact, held_forget)

    def write() -> None:
        db = connect(database)
        try:
            with db.transaction():
                Archived(game_id, dealt(12), TRIO).apply(db)
                entered.set()
                time.sleep(hold["record"])
        except Exception as exc:  # pragma: no cover - reported below
            errors.append(exc)
        finally:
            db.close()

    def delete() -> None:
        try:
            assert deleting.delete_account("u-ada")
        except Exception as exc:  # pragma: no cover - reported below
            errors.append(exc)

    one, two = ((write, delete) if first == "record" else (delete, write))
    threads = [threading.Thread(target=one), threading.Thread(target=two)]
    threads[0].start()
    assert entered.wait(10)
    threads[1].start()
    for thread in threads:
        thread.join(20)
    assert not errors, errors
    stored, _ = _stored(stores, game_id)
    assert stored.seats[0].removed and stored.seats[0].name == "Seat 1 (name removed)"
    assert verify_record(stored).ok
    left = pg._transact(lambda run: run(
        "SELECT (SELECT COUNT(*) FROM account_games WHERE account_id = ?),"
        " (SELECT COUNT(*) FROM ratings WHERE account_id = ?)", ("u-ada", "u-ada")))
    assert tuple(left[0]) == (0, 0)
    assert pg.ratings.rating("u-bede")[1] == 1  # Bede's game counted, once

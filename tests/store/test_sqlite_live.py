"""The single process's running games in SQLite (``store.sqlite_live``): what is written
as a game is played survives the process's being killed, the next start ends it as a
shutdown with every action and every hint given, seed revealed and verifiable, exactly
once, with who sat there (Ada's account: the game is among hers, and rated when its last
action ended it); a game whose
record the archive already holds is left as archived; rows go only once the record is
written. (The real SIGKILL of a real server: ``tests/fairness/test_sigkill.py``.)"""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import attrs
import pytest
import trio

from quaymoor.bots.prng import SplitMix64
from quaymoor.rules.fairness import (
    ALGORITHM,
    ALGORITHM_2,
    Deal,
    DealtSeat,
    seed_commitment,
    seed_to_hex,
)
from quaymoor.rules.game import Game
from quaymoor.rules.record import SeatInfo
from quaymoor.rules.verify import verify_record
from quaymoor.store.archive import Archive, ArchiveError
from quaymoor.store.live_games import LiveGame, ended_record
from quaymoor.store.ratings import GameAccounts, SeatAccount
from quaymoor.store.sqlite_live import LiveStore, live_path
from quaymoor.tools.selfplay import game_seed, play_random
from tests.server_process import ROOT

TABLE = "00000000ab"
HINTS = 2  #: hints Ada was given before the kill
COMMITMENT = seed_commitment(TABLE, 0, "Ada's dice")
SEATS = [{"name": "Ada", "bot": False, "commitment": COMMITMENT},
         {"name": "Bede (bot)", "bot": True, "commitment": None}]
DEAL = Deal(TABLE, (DealtSeat("Ada", False, COMMITMENT, "Ada's dice"),
                    DealtSeat("Bede (bot)", True)))
#: Ada signed in, at a rated table, against an easy bot
WHO = GameAccounts(True, (SeatAccount("u-ada"), SeatAccount(bot_level="easy")))


def played(steps: int, *, legacy: bool = False, algorithm: str = ALGORITHM) -> Game:
    """The game after ``steps`` actions (each seat's first legal one); to its end when
    ``steps`` is -1 (random legal ones). ``legacy``: dealt as before record format 4
    (``quaymoor-fair-1``, no commitments), as a process of then wrote it; else dealt with
    ``algorithm``."""
    if legacy:
        game = Game(2, game_seed(7, 1), ["Ada's dice"], events=True)
    else:
        game = Game(2, game_seed(7, 1), events=True, deal=DEAL, algorithm=algorithm)
    if steps == -1:
        play_random(game, SplitMix64(3))
        return game
    for _ in range(steps):
        seat = game.deciding()[0]
        game.apply(seat, game.legal_actions(seat)[0], 1_800_000_000.0 + game.version)
    return game


def began(game: Game) -> LiveGame:
    seats = SEATS if game.deal is not None else [
        {"name": s["name"], "bot": s["bot"]} for s in SEATS]  # a row from before format 4
    return LiveGame(TABLE, 2, seed_to_hex(game.seed), list(game.client_seeds),
                    ["Ada's dice", None], seats, [],
                    algorithm="" if game.deal is None else game.algorithm)


def rows(archive: Path) -> tuple[int, int]:
    db = sqlite3.connect(live_path(str(archive)))
    try:
        return (db.execute("SELECT count(*) FROM live_games").fetchone()[0],
                db.execute("SELECT count(*) FROM live_actions").fetchone()[0])
    finally:
        db.close()


def hints_kept(archive: Path, table: str = "live_hints") -> bool:
    db = sqlite3.connect(live_path(str(archive)))
    try:
        return bool(db.execute(f"SELECT count(*) FROM {table}").fetchone()[0])
    finally:
        db.close()


#: How a killed game was dealt: the current algorithm, the one before it (a process of
#: the version before an upgrade), or before record format 4.
KINDS = {"format-5": (False, ALGORITHM), "format-4": (False, ALGORITHM_2),
         "before-format-4": (True, ALGORITHM)}


def write_and_die(path: Path, steps: int, split: int, kind: str = "format-5") -> None:
    """A process that plays ``played(steps)`` (its actions in two writes), then is killed
    (SIGKILL) once they are committed: its writers are never told, its lock is dropped by
    the kernel."""
    code = ("import sys, trio; from pathlib import Path; "
            "from tests.store.test_sqlite_live import _play_then_die; "
            "trio.run(_play_then_die, Path(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), "
            "sys.argv[4])")
    done = subprocess.run([sys.executable, "-c", code, str(path), str(steps), str(split),
                           kind],
                          cwd=ROOT, capture_output=True, text=True, timeout=30, check=False)
    assert done.returncode == -signal.SIGKILL, done.stderr


async def _play_then_die(path: Path, steps: int, split: int, kind: str) -> None:
    legacy, algorithm = KINDS[kind]
    game = played(steps, legacy=legacy, algorithm=algorithm)
    async with trio.open_nursery() as nursery:
        archive = Archive(path)
        await nursery.start(archive.run)
        archive.accounts.create_account("u-ada", "Ada", "ada", credential_id="c", public_key="k",
                                        sign_count=0, now=1_800_000_000.0)
        live = LiveStore.beside(archive)
        assert live is not None
        await nursery.start(live.run)
        live.began(began(game))
        live.acted(TABLE, 0, game.history[:split])
        live.acted(TABLE, split, game.history[split:])
        live.hinted(TABLE, [HINTS, 0])  # Ada was given hints: hers to keep, as her actions
        live.seated(TABLE, WHO)
        while (rows(path)[1] < len(game.history) or not hints_kept(path)
               or not hints_kept(path, "live_accounts")):
            await trio.sleep(0.01)
        os.kill(os.getpid(), signal.SIGKILL)


@pytest.mark.parametrize("kind", list(KINDS))
async def test_a_game_left_running_is_ended_once_at_the_next_start(
    tmp_path: Path, kind: str
) -> None:
    """Killed mid-game, ended by the next start: every action, the seeds, the hints, the
    accounts; in the format it was dealt in, with the fingerprint its players were shown
    (a game of the version before an upgrade too: ``quaymoor-fair-2``, format 4)."""
    path = tmp_path / "var" / "games.sqlite3"
    legacy, algorithm = KINDS[kind]
    game = played(9, legacy=legacy, algorithm=algorithm)
    await trio.to_thread.run_sync(write_and_die, path, 9, 4, kind)
    assert rows(path) == (1, 9)
    with trio.fail_after(10):
        async with trio.open_nursery() as nursery:
            archive = Archive(path)
            await nursery.start(archive.run)
            live = LiveStore.beside(archive)
            assert live is not None
            await nursery.start(live.run)
            assert await live.end_unfinished() == [TABLE]
            record = await archive.record(TABLE)
            assert record is not None
            assert record.end_reason == "shutdown" and record.game == TABLE
            assert record.actions == game.history  # every action, in order
            assert record.seed == seed_to_hex(game.seed)
            assert record.seat_seeds == ["Ada's dice", None]
            assert record.format == {"format-5": 5, "format-4": 4, "before-format-4": 3}[kind]
            assert record.fingerprint == game.fingerprint  # as its players were shown
            assert record.seats == [SeatInfo("Ada", False, None if legacy else COMMITMENT,
                                             hints=HINTS),
                                    SeatInfo("Bede (bot)", True)]
            verdict = verify_record(record)
            assert verdict.ok, verdict.message
            await archive.flush()
            ada = archive.ratings.profile("ada")  # the game is among Ada's; unfinished: unrated
            assert ada is not None and [g.game_id for g in ada.recent] == [TABLE]
            assert (ada.games, ada.recent[0].place, ada.recent[0].after) == (0, None, None)
            await live.close()
            await archive.close()
            nursery.cancel_scope.cancel()
    assert rows(path) == (0, 0)  # its record written, its rows gone: nothing to end again
    assert not hints_kept(path) and not hints_kept(path, "live_accounts")


async def test_a_game_archived_before_the_kill_keeps_its_record(tmp_path: Path) -> None:
    """Killed between the record's write and its rows' removal: the archived record
    stands (not replaced by a "shutdown" one), the rows go."""
    path = tmp_path / "games.sqlite3"
    game = played(6)
    await trio.to_thread.run_sync(write_and_die, path, 6, 6)
    finished = game.record([SeatInfo("Ada", False), SeatInfo("Bede (bot)", True)],
                           game=TABLE, end_reason="crashed", ended_at=1_800_000_100.0)
    with trio.fail_after(10):
        async with trio.open_nursery() as nursery:
            archive = Archive(path)
            await nursery.start(archive.run)
            archive.submit(TABLE, finished)
            await archive.flush()
            live = LiveStore.beside(archive)
            assert live is not None
            await nursery.start(live.run)
            assert await live.end_unfinished() == [TABLE]
            assert await archive.record(TABLE) == finished
            await live.close()
            await archive.close()
            nursery.cancel_scope.cancel()
    assert rows(path) == (0, 0)


async def test_a_game_killed_before_its_record_was_written_ends_as_finished(
    tmp_path: Path,
) -> None:
    """Its last action ended it, then the kill came before the record's write: written
    as finished, and Ada's rated game rates as it would have (once)."""
    path = tmp_path / "games.sqlite3"
    game = played(-1)
    assert game.is_over()
    await trio.to_thread.run_sync(write_and_die, path, -1, 10)
    with trio.fail_after(10):
        async with trio.open_nursery() as nursery:
            archive = Archive(path)
            await nursery.start(archive.run)
            live = LiveStore.beside(archive)
            assert live is not None
            await nursery.start(live.run)
            assert await live.end_unfinished() == [TABLE]
            record = await archive.record(TABLE)
            assert record is not None and record.end_reason == "finished"
            assert record.result is not None and record.actions == game.history
            assert verify_record(record).ok and record.rated
            await archive.flush()
            ada = archive.ratings.profile("ada")
            assert ada is not None and ada.games == 1 and ada.recent[0].rated
            assert ada.recent[0].place is not None and ada.recent[0].after is not None
            assert ada.recent[0].after != ada.recent[0].before
            await live.close()
            nursery.cancel_scope.cancel()


async def test_an_archive_in_memory_keeps_no_running_games() -> None:
    assert LiveStore.beside(Archive(":memory:")) is None


async def test_a_second_server_on_the_same_archive_is_refused(tmp_path: Path) -> None:
    """Its start would end the first one's running games and publish their seeds."""
    path = tmp_path / "games.sqlite3"
    archive = Archive(path)
    first = LiveStore.beside(archive)
    assert first is not None
    with pytest.raises(ArchiveError, match="another quaymoor serve"):
        LiveStore.beside(Archive(path))
    async with trio.open_nursery() as nursery:
        await nursery.start(archive.run)
        await first.close()  # a clean exit lets the next one in
        nursery.cancel_scope.cancel()
    second = LiveStore.beside(Archive(path))
    assert second is not None


def test_a_game_dealt_by_an_algorithm_this_process_does_not_know_is_not_written() -> None:
    """A newer process's deal: no record (it would carry another fingerprint than the one
    its players were shown); the rows stay for a process that knows it."""
    game = played(5)
    live = attrs.evolve(began(game), actions=game.history, algorithm="quaymoor-fair-9")
    with pytest.raises(ValueError, match="quaymoor-fair-9"):
        ended_record(live)
    assert ended_record(attrs.evolve(live, algorithm=game.algorithm)).fingerprint == \
        game.fingerprint

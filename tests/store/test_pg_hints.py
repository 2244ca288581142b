"""A cluster's process dies mid-game on a real PostgreSQL: the record another process
makes of its game (the reaper's ``_end_games_of``) says how many hints each player was
given, and is archived with who sat there (the game is among its account's), as the
single process's live file does (``test_sqlite_live``)."""

from __future__ import annotations

import trio

from quaymoor.actors.supervisor import Supervisor
from quaymoor.cluster.heartbeat import Membership
from quaymoor.config import TableConfig
from quaymoor.rules.fairness import seed_to_hex
from quaymoor.store.live_games import action_rows
from quaymoor.store.pg_archive import PgArchive
from quaymoor.store.pg_lobby import Acted, Hinted, Opened, Seated, Started
from quaymoor.store.ratings import GameAccounts, SeatAccount
from tests.store.test_sqlite_live import SEATS, TABLE, played


async def test_the_record_of_a_dead_processs_game_keeps_its_hints(database: str) -> None:
    game = played(9)
    dead, survivor = PgArchive(database, "hints-dead"), PgArchive(database, "hints-alive")
    with trio.fail_after(30):
        async with trio.open_nursery() as nursery:
            await nursery.start(dead.run)
            await nursery.start(survivor.run)
            await trio.to_thread.run_sync(lambda: survivor.accounts.create_account(
                "u-reaped", "Reaped", "reaped", credential_id="c-reaped", public_key="k",
                sign_count=0, now=1_800_000_000.0))
            await Membership(dead, "w40", Supervisor(TableConfig())).join("127.0.0.1:1")
            reaper = Membership(survivor, "w41", Supervisor(TableConfig()))
            await reaper.join("127.0.0.1:2")
            dead.put(Opened(TABLE, dead.instance, 2,
                            {"id": TABLE, "state": "playing", "created": 1.0}))
            dead.put(Started(TABLE, seed_to_hex(game.seed), list(game.client_seeds),
                             ["Ada's dice", None], SEATS, game.algorithm))
            dead.put(Acted(TABLE, 0, action_rows(game.history)))
            dead.put(Hinted(TABLE, [1, 0]))
            dead.put(Hinted(TABLE, [3, 0]))  # the later count replaces the earlier
            seated = GameAccounts(True, (SeatAccount("u-reaped"), SeatAccount(bot_level="easy")))
            dead.put(Seated(TABLE, seated))
            dead.put(Seated(TABLE, GameAccounts(True, (SeatAccount("u-reaped", left=True),
                                                      seated.seats[1]))))
            await dead.flush()
            assert await reaper._end_games_of(dead.instance) == 1
            await survivor.flush()
            record = await survivor.record(TABLE)
            assert record is not None and record.actions == game.history
            assert record.fingerprint == game.fingerprint  # in the format it was dealt in
            assert [s.hints for s in record.seats] == [3, 0]
            mine = await trio.to_thread.run_sync(survivor.ratings.profile, "reaped")
            assert mine is not None and [(g.game_id, g.seat, g.rated, g.place) for g in
                                         mine.recent] == [(TABLE, 0, True, None)]
            nursery.cancel_scope.cancel()

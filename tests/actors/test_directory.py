"""The table directory (``actors.directory``): one process's knows no table elsewhere
(its lobby is its own tables, no address holds a table elsewhere, no game ended
elsewhere), and the gateway answers a hello for a table it does not hold from whatever
directory the supervisor has: the game ended elsewhere (its ``game_ended``, then 4000),
still being archived (4008: come back for the ``game_ended``; 4002 means only a
shutdown whose ``game_ended`` came first), or unknown (4004)."""

from __future__ import annotations

import json

import trio

from quaymoor.actors.directory import LocalDirectory
from quaymoor.actors.supervisor import Supervisor
from quaymoor.config import TableConfig
from quaymoor.protocol.codes import Close
from quaymoor.rules.record import GameRecord
from quaymoor.store.archive import Archive
from quaymoor.tools.selfplay import random_game
from tests.actors.running import running
from tests.actors.test_end_to_end import LIMIT, MADE_UP, connect, serving

ENDED, ARCHIVING = "e0e0e0e0e0", "a0a0a0a0a0"


def finished_record(table_id: str) -> GameRecord:
    game, _ = random_game(2, b"\x05" * 32)
    return game.record(game=table_id, end_reason="finished", ended_at=1e9)


class ClusterLike(LocalDirectory):
    """A directory with one game ended on another process and one being archived."""

    async def archived_elsewhere(self, table_id: str) -> GameRecord | None:
        return finished_record(ENDED) if table_id == ENDED else None

    async def live_elsewhere(self, table_id: str) -> bool:
        return table_id == ARCHIVING


async def test_one_process_knows_no_table_elsewhere() -> None:
    archive = Archive(":memory:")
    sup = Supervisor(TableConfig(), archive=archive)
    assert isinstance(sup.directory, LocalDirectory)
    with trio.fail_after(LIMIT):
        async with running(sup):
            made = [(await sup.create_table(players)).id for players in (2, 3)]
            lobby = await sup.directory.lobby_json()
            assert lobby == await sup.lobby_json()
            assert [t["id"] for t in json.loads(lobby)["tables"]] == made
            assert await sup.directory.open_elsewhere("127.0.0.1") == 0
            archive.submit(ENDED, finished_record(ENDED))  # archived here, not elsewhere
            for table_id in (*made, ENDED, MADE_UP):
                assert await sup.directory.ended_elsewhere(table_id) is None
                assert not await sup.directory.live_elsewhere(table_id)


async def test_the_gateway_asks_the_directory_about_a_table_it_does_not_hold() -> None:
    with trio.fail_after(LIMIT):
        async with serving() as (port, supervisor):
            supervisor.directory = ClusterLike(supervisor.lobby_json)
            async with connect(port) as ended:
                await ended.hello(ENDED)
                assert await ended.drain() == Close.TABLE_CLOSED
            (message,) = ended.frames
            record = finished_record(ENDED)
            assert message["type"] == "game_ended" and message["table"] == ENDED
            assert message["reason"] == "finished" and message["seed"] == record.seed
            assert message["fingerprint"] == record.fingerprint
            assert message["client_seeds"] == record.seat_seeds  # per seat (game_ended)
            assert message["record_url"] == f"/games/{ENDED}.json"
            async with connect(port) as archiving:
                await archiving.hello(ARCHIVING)
                assert await archiving.drain() == Close.RECORD_PENDING
            assert archiving.frames == []
            async with connect(port) as unknown:
                await unknown.hello(MADE_UP)
                assert await unknown.drain() == Close.UNKNOWN_TABLE
            assert [f.get("code") for f in unknown.frames] == ["unknown_table"]

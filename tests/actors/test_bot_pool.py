"""Bots at the table: levels from the lobby, the hard bot's search in worker processes,
and the fallback to the heuristic when every worker is busy."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
import trio

from quaymoor.actors.bot_pool import BotPool
from quaymoor.actors.inbox import TableError
from quaymoor.actors.supervisor import Supervisor
from quaymoor.actors.table import TableState
from quaymoor.config import TableConfig
from quaymoor.rules.game import Game
from tests.actors.running import running


@pytest.fixture
async def supervisor() -> AsyncIterator[Supervisor]:
    sup = Supervisor(TableConfig(bot_delay=0.0, linger_seconds=1.0, decision_seconds=0.2),
                     bot_pool=BotPool(budget=0.02, workers=2))
    async with running(sup):
        yield sup


@pytest.mark.parametrize("level", ["hard", "expert"])
async def test_searching_bots_play_a_whole_game_through_worker_processes(
    supervisor: Supervisor, level: str,
) -> None:
    with trio.fail_after(240):
        table = await supervisor.create_table(3, level)
        host = await supervisor.join(table.id, "Host")
        await supervisor.start(table.id, host.token)
        assert [s.bot for s in table.seats] == [False, True, True]
        # The host never connects: its timer plays safe moves, then a bot plays for it.
        while table.state is TableState.PLAYING:
            await trio.sleep(0.1)
        assert table.state is TableState.FINISHED
        assert table.game is not None and table.game.is_over()
        assert supervisor.bots.searches >= 10
        assert table.seats[0].bot_playing


async def test_a_busy_pool_falls_back_to_the_heuristic_at_once() -> None:
    pool = BotPool(budget=5.0, workers=1)
    choose = pool.chooser("hard")
    game = Game(2, bytes(32))
    seat = game.deciding()[0]
    view = game.view(seat)
    busy = object()
    await pool.limiter.acquire_on_behalf_of(busy)  # every worker busy
    try:
        with trio.fail_after(2):  # a search would take its 5 s budget
            action = await choose(view)
    finally:
        pool.limiter.release_on_behalf_of(busy)
    assert action in view.legal
    assert pool.fallbacks == 1 and pool.searches == 0


async def test_unknown_bot_levels_are_refused(supervisor: Supervisor) -> None:
    with pytest.raises(TableError) as refused:
        await supervisor.create_table(2, "genius")
    assert refused.value.code == "bad_bots" and "$.bots" in refused.value.message

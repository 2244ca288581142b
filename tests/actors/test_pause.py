"""A table paused while its process cannot renew its lease (``actors.pause``), driven
through its inbox on trio's autojump clock: timers held with the time they had left, bots
waiting, acts refused with ``table_paused``, everyone told, and play going on after."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
import trio

from quaymoor.actors.inbox import TableError
from quaymoor.actors.pause import WAITING_FOR_DATABASE
from quaymoor.actors.supervisor import Supervisor
from quaymoor.config import TableConfig
from quaymoor.protocol.codec import unstructure_with
from quaymoor.protocol.codes import Code
from quaymoor.rules.actions import Action
from tests.actors.running import running
from tests.actors.test_table import FAST, Client, play_now


@pytest.fixture
async def supervisor() -> AsyncIterator[Supervisor]:
    sup = Supervisor(FAST)
    async with running(sup):
        yield sup


def of_type(frames: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [f for f in frames if f["type"] == kind]


async def test_a_paused_table_holds_its_timers_and_refuses_acts(
    supervisor: Supervisor, autojump_clock: trio.testing.MockClock
) -> None:
    table = await supervisor.create_table(2)
    a = await supervisor.join(table.id, "Ada")
    b = await supervisor.join(table.id, "Bede")
    await supervisor.start(table.id, a.token)
    ada = Client(table, a.token)
    await ada.attach()
    watcher = Client(table, None)
    await watcher.attach()
    assert table.game is not None
    deciding = table.game.deciding()
    assert deciding
    await trio.sleep(30)
    ada.read_waiting()
    watcher.read_waiting()

    table.pause(WAITING_FOR_DATABASE)
    told = ada.read_waiting()
    paused = of_type(told, "table_paused")
    assert paused and paused[0]["reason"] == WAITING_FOR_DATABASE
    clocks = {c["seat"]: c["remaining"] for c in paused[0]["clocks"]}
    assert set(clocks) == set(deciding) and all(59 <= r <= 61 for r in clocks.values())
    assert of_type(watcher.read_waiting(), "table_paused"), "the spectator was not told"

    # Nothing moves while paused, however long it lasts: no timeout, no act.
    version = table.game.version
    await trio.sleep(600)
    assert table.turns.timeouts == 0 and table.game.version == version
    seat = deciding[0]
    decider = ada if seat == 0 else Client(table, b.token)
    if decider is not ada:
        await decider.attach()
        decider.read_waiting()
    await decider.act(unstructure_with(table.game.view(seat).legal[0], Action))
    await trio.sleep(1)
    refused = of_type(decider.read_waiting(), "error")
    assert refused and refused[0]["code"] == "table_paused"
    assert table.game.version == version

    # A connection attaching meanwhile is told after its catch-up.
    late = Client(table, None)
    await late.attach()
    assert of_type(late.read_waiting(), "table_paused")

    table.resume()
    resumed = of_type(ada.read_waiting(), "table_resumed")
    assert resumed
    again = {c["seat"]: c["remaining"] for c in resumed[0]["clocks"]}
    assert again == clocks  # the time they had left, not a fresh 90 s
    started = trio.current_time()
    while table.turns.timeouts < 1:
        await trio.sleep(0.5)
    assert min(clocks.values()) - 1 <= trio.current_time() - started <= max(clocks.values()) + 1


async def test_bots_wait_while_paused_and_play_on_after(
    supervisor: Supervisor, autojump_clock: trio.testing.MockClock
) -> None:
    table, joined = await play_now(supervisor, 3, "Ada")
    ada = Client(table, joined.token)
    await ada.attach()
    assert table.game is not None
    game = table.game
    # Ada plays until a bot's decision is running.
    while not any(s != 0 for s in game.deciding()):
        frame = await ada.next()
        assert frame is not None
        if frame["type"] == "update" and frame["view"]["legal"]:
            await ada.act(frame["view"]["legal"][0])
    table.pause(WAITING_FOR_DATABASE)
    version = game.version
    await trio.sleep(300)
    assert game.version == version, "a bot moved while the table was paused"
    table.resume()
    await trio.sleep(5)
    assert game.version > version, "the bots did not play on after the pause"


async def test_a_start_waits_for_the_resume(
    supervisor: Supervisor, autojump_clock: trio.testing.MockClock
) -> None:
    table = await supervisor.create_table(2)
    a = await supervisor.join(table.id, "Ada")
    table.pause(WAITING_FOR_DATABASE)
    with pytest.raises(TableError) as refused:
        await supervisor.start(table.id, a.token)
    assert refused.value.code is Code.TABLE_PAUSED
    assert table.game is None
    table.resume()
    await supervisor.start(table.id, a.token)
    assert table.game is not None


async def test_a_player_back_while_paused_gets_no_running_timer(
    autojump_clock: trio.testing.MockClock
) -> None:
    """A seat's player coming back from a bot during the pause gets a fresh decision
    (``Play.back``: ``Turns.restart``): that timer waits for the resume too."""
    slow_bots = Supervisor(TableConfig(bot_delay=5.0, linger_seconds=5.0))
    async with running(slow_bots):
        await _back_while_paused(slow_bots)


async def _back_while_paused(supervisor: Supervisor) -> None:
    table = await supervisor.create_table(2)
    a = await supervisor.join(table.id, "Ada")
    b = await supervisor.join(table.id, "Bede")
    await supervisor.start(table.id, a.token)
    assert table.game is not None
    game = table.game
    # Bede never connects: after two timeouts a bot plays his seat (5 s a move). Pause
    # while it is the bot's decision for him.
    while not (table.seats[1].bot_playing and 1 in game.deciding()):
        await trio.sleep(0.5)
    table.pause(WAITING_FOR_DATABASE)
    assert table.turns.workers[1].deadline is None
    bede = Client(table, b.token)
    await bede.attach()
    await trio.sleep(0.1)
    assert not table.seats[1].bot_playing  # he is back ...
    assert all(w.deadline is None for w in table.turns.workers), "a timer runs while paused"
    held = {c.seat: c.remaining for c in table.pause_state.told().clocks}
    assert 89 <= held[1] <= 90  # ... with a fresh decision, held
    timeouts = table.turns.timeouts
    await trio.sleep(600)
    assert table.turns.timeouts == timeouts
    table.resume()
    await trio.sleep(held[1] - 1)
    assert table.turns.timeouts == timeouts, "his decision timed out early"

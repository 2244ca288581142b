"""Issue 21 at the table, through its inbox on trio's autojump clock: the host starts the
table (others get ``not_host`` until the host has been away 30 s), the bots' pace (a table
setting any seat may change), the ``timed_out`` event, spectators' names and the
coalesced ``watchers``, and ``explain``."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
import trio

from quaymoor.actors.gateway import watcher_name
from quaymoor.actors.inbox import (
    ActFrom,
    Attach,
    Detach,
    ExplainFrom,
    PaceFrom,
    Reply,
    TableError,
)
from quaymoor.actors.supervisor import Supervisor
from quaymoor.actors.table import Table, TableState
from quaymoor.config import TableConfig
from quaymoor.protocol.codes import Code
from quaymoor.protocol.messages import WATCHERS_EVERY, Hello
from quaymoor.protocol.pace import PACE_SECONDS, Pace
from tests.actors.running import running
from tests.actors.test_chat import frames_until_quiet
from tests.actors.test_table import FAST, Client

#: Bots that wait by their table's pace (no server override), timers far away.
PACED = TableConfig(linger_seconds=5.0, decision_seconds=600.0)


@pytest.fixture
async def supervisor() -> AsyncIterator[Supervisor]:
    sup = Supervisor(FAST)
    async with running(sup):
        yield sup


def of_type(frames: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [f for f in frames if f["type"] == kind]


# ---------------------------------------------------------------- the host


async def test_only_the_host_starts_until_the_host_has_been_away_30_s(
    supervisor: Supervisor, autojump_clock: trio.testing.MockClock
) -> None:
    table = await supervisor.create_table(3)
    assert table.host.seat is None
    ada = await supervisor.join(table.id, "Ada")
    bede = await supervisor.join(table.id, "Bede")
    assert table.host.seat == 0
    host, other = Client(table, ada.token), Client(table, bede.token)
    await host.attach()
    await other.attach()
    got = await frames_until_quiet(other)
    assert got[0]["type"] == "welcome" and got[0]["host"] == 0
    lobby = of_type(got, "lobby")[-1]
    assert (lobby["host"], lobby["host_away"], lobby["pace"]) == (0, False, "people")

    with pytest.raises(TableError) as refused:
        await supervisor.start(table.id, bede.token)
    assert refused.value.code is Code.NOT_HOST
    assert "only the table's host, Ada, may start" in refused.value.message
    assert table.state is TableState.WAITING

    await table.inbox.send(Detach(host.conn))  # the host leaves: 30 s, then anyone
    await trio.sleep(29)
    with pytest.raises(TableError):
        await supervisor.start(table.id, bede.token)
    assert not table.host.away
    assert all(not f["host_away"] for f in of_type(await frames_until_quiet(other), "lobby"))
    await trio.sleep(2)
    assert table.host.away
    assert of_type(await frames_until_quiet(other), "lobby")[-1]["host_away"] is True

    back = Client(table, ada.token)  # the host comes back: the start is theirs again
    await back.attach()
    assert of_type(await frames_until_quiet(other), "lobby")[-1]["host_away"] is False
    with pytest.raises(TableError):
        await supervisor.start(table.id, bede.token)
    await table.inbox.send(Detach(back.conn))
    await trio.sleep(31)
    await supervisor.start(table.id, bede.token)
    assert table.state is TableState.PLAYING


async def test_a_host_who_never_attaches_lets_the_others_start_after_30_s(
    supervisor: Supervisor, autojump_clock: trio.testing.MockClock
) -> None:
    table = await supervisor.create_table(2)
    await supervisor.join(table.id, "Ada")
    bede = await supervisor.join(table.id, "Bede")
    await trio.sleep(30.5)
    await supervisor.start(table.id, bede.token)
    assert table.state is TableState.PLAYING


async def test_play_now_makes_its_caller_the_host(
    supervisor: Supervisor, autojump_clock: trio.testing.MockClock
) -> None:
    table, joined = await supervisor.play_now(3, "Ada", pace="fast")
    assert (table.host.seat, joined.seat, table.turns.pace) == (0, 0, Pace.FAST)
    client = Client(table, joined.token)
    await client.attach()
    welcome = (await frames_until_quiet(client))[0]
    assert (welcome["type"], welcome["host"], welcome["pace"]) == ("welcome", 0, "fast")


# ---------------------------------------------------------------- the pace


async def test_a_bad_pace_opens_no_table(supervisor: Supervisor) -> None:
    before = set(supervisor.tables)
    for bad in ("warp", "", "PEOPLE", 3, None):
        with pytest.raises(TableError) as refused:
            await supervisor.create_table(2, pace=bad)  # type: ignore[arg-type]
        assert refused.value.code is Code.BAD_PACE and "@ $.pace" in refused.value.message
    assert set(supervisor.tables) == before


async def test_any_seat_sets_the_pace_and_the_next_bot_move_waits_for_it(
    autojump_clock: trio.testing.MockClock,
) -> None:
    sup = Supervisor(PACED)
    async with running(sup):
        table, joined = await sup.play_now(2, "Ada")
        assert table.turns.bot_delay() == PACE_SECONDS[Pace.PEOPLE] == 1.6
        ada, watcher = Client(table, joined.token), Client(table, None)
        await ada.attach()
        await watcher.attach()
        await table.inbox.send(PaceFrom(watcher.conn, "fast"))
        (error,) = of_type(await frames_until_quiet(watcher), "error")
        assert error["code"] == "spectator"
        await table.inbox.send(PaceFrom(ada.conn, "warp"))
        (error,) = of_type(await frames_until_quiet(ada), "error")
        assert error["code"] == "bad_pace" and "'warp'" in error["message"]
        assert table.turns.pace is Pace.PEOPLE
        await table.inbox.send(PaceFrom(ada.conn, "fast"))
        for client in (ada, watcher):
            (told,) = of_type(await frames_until_quiet(client), "pace")
            assert told == {"type": "pace", "pace": "fast", "by": 0}
        assert table.turns.bot_delay() == PACE_SECONDS[Pace.FAST]

        delays: list[float] = []
        worker = table.turns.workers[1]  # the bot's seat
        start_bot = worker.start_bot

        def record(view: Any, choose: Any, delay: float) -> None:
            delays.append(delay)
            start_bot(view, choose, delay)

        worker.start_bot = record  # type: ignore[method-assign]
        await sup.start(table.id, joined.token)
        game = table.game
        assert game is not None
        while not delays and not game.is_over():  # Ada plays until the bot's turn
            if 0 in game.deciding():
                action = game.safe_action(0)
                assert action is not None
                await table.inbox.send(ActFrom(ada.conn, action))
            await trio.sleep(0.1)
        assert delays and set(delays) == {PACE_SECONDS[Pace.FAST]}


async def test_the_servers_bot_delay_overrides_every_pace() -> None:
    table = Table("t", 2, TableConfig(bot_delay=0.0), pace=Pace.PEOPLE)
    assert table.turns.bot_delay() == 0.0
    assert Table("u", 2, TableConfig(), pace=Pace.STEADY).turns.bot_delay() == 0.8


# ---------------------------------------------------------------- timeouts


async def test_a_timeout_says_what_was_played_before_its_events(
    autojump_clock: trio.testing.MockClock,
) -> None:
    sup = Supervisor(TableConfig(bot_delay=0.0, decision_seconds=5.0, linger_seconds=5.0))
    async with running(sup):
        table, joined = await sup.play_now(2, "Ada")
        ada, watcher = Client(table, joined.token), Client(table, None)
        await ada.attach()
        await watcher.attach()
        await sup.start(table.id, joined.token)
        await trio.sleep(200)  # Ada never acts: her timer plays for her, again and again
        seen = [f for f in await frames_until_quiet(watcher) if f["type"] == "update"]
        timed = [(u, i) for u in seen for i, e in enumerate(u["events"])
                 if e["type"] == "timed_out"]
        assert timed
        for update, index in timed:
            assert index == 0  # first, before the events of the moves played
            event = update["events"][0]
            assert event["seat"] == 0 and event["actions"]
            assert update["version"] - update["since"] == len(event["actions"])
        # A catch-up from the start carries them the same way.
        late = Client(table, None)
        await late.attach(since=0)
        catch_up = of_type(await frames_until_quiet(late), "update")[0]
        replayed = [e for e in catch_up["events"] if e["type"] == "timed_out"]
        assert replayed == [u["events"][0] for u, _ in timed][:len(replayed)]
        assert len(replayed) >= len(timed)


# ---------------------------------------------------------------- watchers


async def test_watchers_count_every_spectator_name_ten_and_come_at_most_every_2_s(
    supervisor: Supervisor, autojump_clock: trio.testing.MockClock
) -> None:
    table, joined = await supervisor.play_now(2, "Ada")
    ada = Client(table, joined.token)
    await ada.attach()
    first = await frames_until_quiet(ada)
    assert of_type(first, "watchers") == [{"type": "watchers", "count": 0, "names": []}]
    spectators = []
    began = trio.current_time()
    for i in range(40):
        spectator = Client(table, None)
        reply = Reply()
        name = f"Watcher {i}" if i % 2 else None
        await table.inbox.send(Attach(spectator.conn, None, None, reply, name))
        await reply.wait()
        spectators.append(spectator)
    got = of_type(await frames_until_quiet(ada), "watchers")
    assert len(got) == 1 and 1 <= got[0]["count"] < 40  # the first, at once
    await trio.sleep(WATCHERS_EVERY)
    got = of_type(await frames_until_quiet(ada), "watchers")
    assert len(got) == 1, "the rest gathered into one"
    assert got[0]["count"] == 40
    assert got[0]["names"] == [f"Watcher {i}" for i in range(1, 21, 2)]  # ten, in order
    assert trio.current_time() - began < 3 * WATCHERS_EVERY
    for spectator in spectators[:5]:
        await table.inbox.send(Detach(spectator.conn))
    await trio.sleep(3 * WATCHERS_EVERY)
    (left,) = of_type(await frames_until_quiet(ada), "watchers")
    assert left["count"] == 35 and left["names"][0] == "Watcher 5"
    # One more comes (told at once); another comes and goes within the 2 s after that:
    # nothing new to say when they have passed.
    await Client(table, None).attach()
    (more,) = of_type(await frames_until_quiet(ada), "watchers")
    assert more["count"] == 36
    comer = Client(table, None)
    await comer.attach()
    await table.inbox.send(Detach(comer.conn))
    await trio.sleep(3 * WATCHERS_EVERY)
    assert of_type(await frames_until_quiet(ada), "watchers") == []


@pytest.mark.parametrize(("given", "kept"), [
    ("  Wulf\u202estan \x00 ", "Wulfstan"),
    ("x" * 40, "x" * 24),
    (None, None),
])
def test_a_spectators_name_is_cleaned_as_a_players(given: str | None, kept: str | None) -> None:
    assert watcher_name(Hello("t", name=given)) == kept


@pytest.mark.parametrize("bad", ["", "   ", "\u200b", "\ud800"])
def test_a_bad_spectator_name_is_refused_as_a_players(bad: str) -> None:
    with pytest.raises(TableError) as refused:
        watcher_name(Hello("t", name=bad))
    assert refused.value.code is Code.BAD_NAME


# ---------------------------------------------------------------- explain


async def test_explain_answers_the_sender_alone_in_its_person(
    supervisor: Supervisor, autojump_clock: trio.testing.MockClock
) -> None:
    table, joined = await supervisor.play_now(2, "Ada")
    ada, watcher = Client(table, joined.token), Client(table, None)
    await ada.attach()
    await watcher.attach()
    await table.inbox.send(ExplainFrom(ada.conn))
    (error,) = of_type(await frames_until_quiet(ada), "error")
    assert error["code"] == "not_playing"
    await supervisor.start(table.id, joined.token)
    game = table.game
    assert game is not None
    while 0 not in game.deciding():
        await trio.sleep(0.1)
    await frames_until_quiet(watcher)
    await table.inbox.send(ExplainFrom(ada.conn))
    (mine,) = of_type(await frames_until_quiet(ada), "explanation")
    assert mine["version"] == game.version and mine["text"]
    assert "You" in " ".join(mine["text"]) or "you" in " ".join(mine["text"])
    assert of_type(await frames_until_quiet(watcher), "explanation") == []
    await table.inbox.send(ExplainFrom(watcher.conn))
    (theirs,) = of_type(await frames_until_quiet(watcher), "explanation")
    assert "Ada" in theirs["title"] + " ".join(theirs["text"])

"""Hints at the table: a seat whose every opponent is a bot gets the hard bot's move for
its own decision (a legal one, in words, with why), worked out in the bot pool's worker
processes; asked again for the same decision it is answered again and counted once; the
count goes into the record and ``game_ended``. Refused (``hints_off``, nothing counted)
with another person at the table, to a spectator and for a decision not the seat's."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import pytest
import trio

from quaymoor.actors.bot_pool import BotPool
from quaymoor.actors.directory import GameProgress
from quaymoor.actors.hints import Hints
from quaymoor.actors.inbox import HintFrom
from quaymoor.actors.lobby import Seats
from quaymoor.actors.supervisor import Supervisor
from quaymoor.actors.table import Table
from quaymoor.config import TableConfig
from quaymoor.protocol.codec import unstructure_with
from quaymoor.rules.actions import Action
from quaymoor.rules.game import Game
from tests.actors.running import running
from tests.actors.test_table import Client

#: Bots at once, a person's timer far away.
SLOW_PEOPLE = TableConfig(bot_delay=0.0, decision_seconds=600.0, linger_seconds=5.0)


@pytest.fixture
async def supervisor() -> AsyncIterator[Supervisor]:
    sup = Supervisor(SLOW_PEOPLE, bot_pool=BotPool(budget=0.2, workers=1))
    async with running(sup):
        yield sup


async def _frames(client: Client, kind: str, wait: float = 0.3) -> list[dict[str, Any]]:
    await trio.sleep(wait)
    return [f for f in (json.loads(t) for t in client.waiting_texts()) if f["type"] == kind]


async def _hint(client: Client) -> dict[str, Any]:
    await client.table.inbox.send(HintFrom(client.conn))
    with trio.fail_after(30):
        while True:
            got = await _frames(client, "hint", 0.1)
            if got:
                (hint,) = got
                return hint


async def test_a_seat_among_bots_gets_the_hard_bots_move_counted_once(
    supervisor: Supervisor,
) -> None:
    table, joined = await supervisor.play_now(3, "Ada")
    ada = Client(table, joined.token)
    await ada.attach()
    await supervisor.start(table.id, joined.token)
    game = table.game
    assert game is not None
    with trio.fail_after(30):
        while 0 not in game.deciding():
            await trio.sleep(0.05)
    # what the directory passes on to its store (a single process's live file: what a
    # SIGKILL must not take) includes each hint as it is counted
    told: list[list[int]] = []
    progress = GameProgress()
    progress.news(table)

    def passed_on(t: Table) -> None:
        news = progress.news(t)
        if news is not None and news.hints is not None:
            told.append(news.hints)

    table.on_change = passed_on
    view = game.view(0)
    hint = await _hint(ada)
    assert told == [[1, 0, 0]]
    assert hint["version"] == view.version
    assert hint["action"] in [unstructure_with(a, Action) for a in view.legal]
    assert hint["words"] and hint["why"]
    again = await _hint(ada)
    assert again == hint
    assert told == [[1, 0, 0]]  # counted once, passed on once
    assert table.hints.given == [1, 0, 0]
    assert table.play is not None
    assert [s.hints for s in table.play.record(None).seats] == [1, 0, 0]
    assert table.play.ended(None).hints == [1, 0, 0]


async def test_no_hints_with_another_person_for_a_spectator_or_out_of_turn(
    supervisor: Supervisor,
) -> None:
    table = await supervisor.create_table(3)
    ada_joined = await supervisor.join(table.id, "Ada")
    bede_joined = await supervisor.join(table.id, "Bede")
    ada, bede = Client(table, ada_joined.token), Client(table, bede_joined.token)
    watcher = Client(table, None)
    for c in (ada, bede, watcher):
        await c.attach()
    await table.inbox.send(HintFrom(ada.conn))
    (before,) = await _frames(ada, "error")
    assert before["code"] == "hints_off"
    await supervisor.start(table.id, ada_joined.token)
    game = table.game
    assert game is not None
    for client in (ada, bede, watcher):
        await table.inbox.send(HintFrom(client.conn))
        (refused,) = await _frames(client, "error")
        assert refused["code"] == "hints_off", refused
        assert "@ $.type" in refused["message"]
    assert "every other seat is a bot" in refused["message"] or "spectator" in refused["message"]
    assert table.hints.given == [0, 0, 0]


def test_no_hint_for_a_decision_not_the_seats() -> None:
    seats = Seats(2)
    seats.join("Ada")
    seats.fill_with_bots()
    game = Game(2, bytes(32))
    deciding = game.deciding()[0]
    other = 1 - deciding
    hints = Hints(2, trio.open_memory_channel[Any](1)[0], None)
    if other == 0:  # Ada waits for the bot: not her decision
        refused = hints.refusal(game, seats, 0)
        assert refused is not None and "not your decision" in refused
    else:  # the bot waits for Ada: hers, and hints are on
        assert hints.refusal(game, seats, 0) is None
    assert hints.refusal(game, seats, None) is not None
    assert hints.refusal(None, seats, 0) is not None


async def test_a_table_opened_with_hints_gives_them_to_every_person_at_it(
    supervisor: Supervisor,
) -> None:
    table = await supervisor.create_table(2, hints=True)
    ada_joined = await supervisor.join(table.id, "Ada")
    bede_joined = await supervisor.join(table.id, "Bede")
    ada, bede = Client(table, ada_joined.token), Client(table, bede_joined.token)
    for c in (ada, bede):
        await c.attach()
    (welcome,) = await _frames(ada, "welcome", 0.1)
    assert welcome["hints"] is True
    await supervisor.start(table.id, ada_joined.token)
    game = table.game
    assert game is not None
    # both people get hints, each for its own decision only
    clients = {0: ada, 1: bede}
    for _ in range(60):
        if all(table.hints.given) or game.is_over():
            break
        seat = game.deciding()[0]
        asker, other = clients[seat], clients[1 - seat]
        view = game.view(seat)
        if len(view.legal) < 2 or table.hints.given[seat]:
            await asker.act(unstructure_with(view.legal[0], Action))
            await trio.sleep(0.05)
            continue
        if 1 - seat not in game.deciding():
            await _frames(other, "update", 0.1)
            await table.inbox.send(HintFrom(other.conn))
            (refused,) = await _frames(other, "error")
            assert "not your decision" in refused["message"]
        hint = await _hint(asker)
        assert hint["action"] in [unstructure_with(a, Action) for a in view.legal]
        await asker.act(hint["action"])
        await trio.sleep(0.1)
    assert table.hints.given == [1, 1]

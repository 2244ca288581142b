"""Rematch, through the tables' inboxes on trio's autojump clock: after the end a player's
rematch opens one new table with the same people in the same chairs; only the player
who asks gets a chair (its token reaches that seat alone), the others get an offer; the
new table starts once everyone has come, or earlier with bots in the chairs of those who
did not; spectators and unfinished games are refused."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
import trio

from quaymoor.actors.inbox import RematchFrom
from quaymoor.actors.supervisor import Supervisor
from quaymoor.actors.table import Table, TableState
from quaymoor.rules.fairness import seed_commitment
from tests.actors.running import running
from tests.actors.test_chat import frames_until_quiet
from tests.actors.test_table import FAST, Client


@pytest.fixture
async def supervisor() -> AsyncIterator[Supervisor]:
    sup = Supervisor(FAST)
    async with running(sup):
        yield sup


async def ask(client: Client) -> None:
    await client.table.inbox.send(RematchFrom(client.conn))


def of_type(frames: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [f for f in frames if f["type"] == kind]


async def finished_game(sup: Supervisor) -> tuple[Table, Client, Client, Client]:
    """Ada (seat 0) and Bede (seat 1) play a 3-seat game with a bot (seat 2) to its end,
    watched by a spectator; returns the table and the three clients, all read up."""
    table = await sup.create_table(3)
    ada_seat = await sup.join(table.id, "Ada")
    bede_seat = await sup.join(table.id, "Bede")
    ada, bede, watcher = Client(table, ada_seat.token), Client(table, bede_seat.token), \
        Client(table, None)
    for c in (ada, bede, watcher):
        await c.attach()
    await sup.start(table.id, ada_seat.token)
    async with trio.open_nursery() as nursery:
        nursery.start_soon(ada.play_to_end)
        nursery.start_soon(bede.play_to_end)
    assert table.state is TableState.FINISHED
    for c in (ada, bede, watcher):
        await frames_until_quiet(c)
    return table, ada, bede, watcher


async def test_rematch_seats_the_same_people_and_asks_the_others(
    supervisor: Supervisor, autojump_clock: trio.testing.MockClock
) -> None:
    old, ada, bede, watcher = await finished_game(supervisor)
    old_tokens = {s.token for s in old.seats}
    before = set(supervisor.tables)

    await ask(ada)
    ada_got, bede_got, watcher_got = [await frames_until_quiet(c) for c in (ada, bede, watcher)]
    (seat,) = of_type(ada_got, "rematch_seat")
    new_id = seat["rematch"]
    assert set(supervisor.tables) - before == {new_id}
    new = supervisor.tables[new_id]
    assert seat["seat"] == 0 and seat["table"] == old.id
    assert seat["fingerprint"] == new.fingerprint and seat["token"] == new.seats[0].token
    assert seat["token"] not in old_tokens
    # the others are asked, not moved: no chair (no token) reaches them
    assert of_type(bede_got, "rematch_seat") == [] and of_type(watcher_got, "rematch_seat") == []
    for got in (ada_got, bede_got, watcher_got):
        (offer,) = of_type(got, "rematch_offer")
        assert offer == {"type": "rematch_offer", "table": old.id, "rematch": new_id, "by": 0,
                         "name": "Ada", "accepted": [0]}
    assert seat["token"] not in str(bede_got) + str(watcher_got)

    # the new table holds the humans' chairs, in the same seats; the bot's chair is free
    assert [(s.name, s.bot, s.held) for s in new.seats] == [
        ("Ada", False, True), ("Bede", False, True), (None, False, False)]
    assert new.state is TableState.WAITING and new.rematch_of == old.id
    at_new = Client(new, None)  # the new table's lobby says it is a rematch
    await at_new.attach()
    lobby = of_type(await frames_until_quiet(at_new), "lobby")[0]
    assert lobby["rematch_of"] == old.id
    assert [s["name"] for s in lobby["seats"]] == ["Ada", "Bede", None]

    await ask(bede)
    bede_got = await frames_until_quiet(bede)
    (bede_seat,) = of_type(bede_got, "rematch_seat")
    assert bede_seat["seat"] == 1 and bede_seat["rematch"] == new_id
    assert bede_seat["token"] == new.seats[1].token != seat["token"]
    assert of_type(bede_got, "rematch_offer")[-1]["accepted"] == [0, 1]
    assert of_type(await frames_until_quiet(ada), "rematch_seat") == []  # Ada's came once
    assert set(supervisor.tables) - before == {new_id}  # still one rematch table

    # a page of Bede's that comes back to the old table later gets his chair again
    again = Client(old, old.seats[1].token)
    await again.attach()
    frames = await frames_until_quiet(again)
    assert of_type(frames, "rematch_seat")[0]["token"] == bede_seat["token"]
    assert of_type(frames, "rematch_offer")[0]["accepted"] == [0, 1]

    # the rematch starts by itself once both have committed, and is dealt once both
    # have revealed
    states = [(new.state, new.revealing)]
    dice = {0: (seat["token"], "Ada's dice"), 1: (bede_seat["token"], "Bede's dice")}
    for index, (token, seed) in dice.items():
        await supervisor.commit(new_id, token, seed_commitment(new_id, index, seed))
        states.append((new.state, new.revealing))
    for token, seed in dice.values():
        await supervisor.reveal(new_id, token, seed)
        states.append((new.state, new.revealing))
    assert states == [(TableState.WAITING, False), (TableState.WAITING, False),
                      (TableState.WAITING, True), (TableState.WAITING, True),
                      (TableState.PLAYING, False)]
    assert new.game is not None and new.game.client_seeds == ("Ada's dice", "Bede's dice")
    assert [(s.name, s.bot) for s in new.seats][:2] == [("Ada", False), ("Bede", False)]
    assert new.seats[2].bot and new.seats[2].name is not None
    assert new.bot_level == old.bot_level and new.players == old.players


async def test_a_double_click_opens_one_table(
    supervisor: Supervisor, autojump_clock: trio.testing.MockClock
) -> None:
    _, ada, bede, _ = await finished_game(supervisor)
    before = set(supervisor.tables)
    await ask(ada)
    await ask(ada)
    await ask(bede)
    await trio.sleep(0.1)
    assert len(set(supervisor.tables) - before) == 1
    for client, seat in ((ada, 0), (bede, 1)):
        seats = of_type(await frames_until_quiet(client), "rematch_seat")
        assert {s["seat"] for s in seats} == {seat}


async def test_starting_early_gives_the_absent_players_chair_to_a_bot(
    supervisor: Supervisor, autojump_clock: trio.testing.MockClock
) -> None:
    _, ada, _, _ = await finished_game(supervisor)
    await ask(ada)
    (seat,) = of_type(await frames_until_quiet(ada), "rematch_seat")
    new = supervisor.tables[seat["rematch"]]
    held_token = new.seats[1].token
    assert held_token is not None
    await supervisor.start(new.id, seat["token"])
    assert new.state is TableState.PLAYING
    assert new.seats[0].name == "Ada" and not new.seats[0].bot
    assert new.seats[1].bot and new.seats[1].name != "Bede" and new.seats[1].token is None
    assert new.seats.seat_for_token(held_token) is None  # Bede's held chair is gone


async def test_rematch_is_refused_before_the_end_and_to_spectators(
    supervisor: Supervisor, autojump_clock: trio.testing.MockClock
) -> None:
    table = await supervisor.create_table(2)
    joined = await supervisor.join(table.id, "Ada")
    ada, watcher = Client(table, joined.token), Client(table, None)
    await ada.attach()
    await watcher.attach()
    await frames_until_quiet(ada)
    await frames_until_quiet(watcher)
    before = set(supervisor.tables)
    await ask(ada)
    (error,) = of_type(await frames_until_quiet(ada), "error")
    assert error["code"] == "not_finished" and "once the game has finished" in error["message"]
    await supervisor.start(table.id, joined.token)
    await frames_until_quiet(ada)
    await ask(ada)  # while playing
    assert of_type(await frames_until_quiet(ada), "error")[0]["code"] == "not_finished"
    await ask(watcher)
    (error,) = of_type(await frames_until_quiet(watcher), "error")
    assert error["code"] == "spectator"
    assert set(supervisor.tables) == before


async def test_a_full_server_answers_the_rematch_with_an_error(
    autojump_clock: trio.testing.MockClock,
) -> None:
    sup = Supervisor(FAST, max_tables=1)
    async with running(sup):
        table = await sup.create_table(2)
        joined = await sup.join(table.id, "Ada")
        ada = Client(table, joined.token)
        await ada.attach()
        await sup.start(table.id, joined.token)
        await ada.play_to_end()
        await frames_until_quiet(ada)
        await ask(ada)
        (error,) = of_type(await frames_until_quiet(ada), "error")
        assert error["code"] == "server_full" and "no rematch table" in error["message"]
        assert list(sup.tables) == [table.id]

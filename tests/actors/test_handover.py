"""Handing an away seat to a bot by vote (issue 14, Fix 4), driven through the table's
inbox on trio's autojump clock: who may vote and when, what every client is shown, the
refusals (which change nothing), the majority, a voter leaving, the player returning."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import pytest
import trio

from quaymoor.actors.inbox import Detach, JoinResult, VoteFrom
from quaymoor.actors.supervisor import Supervisor
from quaymoor.actors.table import Table
from quaymoor.protocol.codec import ProtocolError, decode_client
from quaymoor.protocol.messages import VoteBot
from tests.actors.running import running
from tests.actors.test_table import FAST, Client


@pytest.fixture
async def supervisor() -> AsyncIterator[Supervisor]:
    sup = Supervisor(FAST)
    async with running(sup):
        yield sup


async def seated(
    supervisor: Supervisor, names: list[str]
) -> tuple[Table, list[JoinResult]]:
    """A started table of people only (no bots), nobody attached yet."""
    table = await supervisor.create_table(len(names))
    joined = [await supervisor.join(table.id, n) for n in names]
    await supervisor.start(table.id, joined[0].token)
    return table, joined


async def vote(client: Client, seat: int) -> None:
    """Vote from ``client`` (what it had queued read first, so that its next frames are
    the answer)."""
    await drain(client)
    await client.table.inbox.send(VoteFrom(client.conn, seat))


async def answer(client: Client) -> dict[str, Any]:
    """The next error, or the next update showing seats, this client gets."""
    while True:
        frame = await client.next()
        assert frame is not None
        if frame["type"] == "error" or (frame["type"] == "update" and "seats" in frame):
            return frame


async def refused(client: Client, seat: int) -> dict[str, Any]:
    await vote(client, seat)
    while True:
        frame = await client.next()
        assert frame is not None
        if frame["type"] == "error":
            return frame


async def first_timeout(table: Table, seat: int) -> None:
    """Sleep on the fake clock until ``seat`` has timed out once while away."""
    while table.seats[seat].missed_timeouts < 1:
        await trio.sleep(1)
    assert not table.seats[seat].bot_playing


def seat_entry(frame: dict[str, Any], seat: int) -> dict[str, Any]:
    entry: dict[str, Any] = frame["seats"][seat]
    return entry


async def drain(client: Client) -> dict[str, Any]:
    """Every frame queued for ``client`` now; returns the last update that showed seats."""
    last: dict[str, Any] = {}
    await trio.sleep(0.01)
    while True:
        try:
            text = client.recv.receive_nowait()
        except trio.WouldBlock:
            return last
        client.conn.frame_written()
        frame = client.views.feed(json.loads(text))
        client.frames.append(frame)
        if frame["type"] == "update" and "seats" in frame:
            last = frame


async def test_a_majority_of_the_connected_players_hands_an_away_seat_to_a_bot(
    supervisor: Supervisor, autojump_clock: trio.testing.MockClock
) -> None:
    table, (a, b, c) = await seated(supervisor, ["Ada", "Bede", "Cy"])
    ada, cy, watcher = Client(table, a.token), Client(table, c.token), Client(table, None)
    for client in (ada, cy, watcher):
        await client.attach()

    # Bede never came: away, but no decision of his has timed out yet.
    assert seat_entry(await drain(ada), 1)["bot_vote"] is None
    error = await refused(ada, 1)
    assert error["code"] == "vote_not_open"
    assert error["message"] == ("Bede is away, but the vote opens only after one of their "
                                "decisions has timed out @ $.seat")

    await first_timeout(table, 1)
    shown = seat_entry(await drain(ada), 1)
    assert shown["bot_vote"] == {"voters": [0, 2], "votes": [], "needed": 2}
    assert seat_entry(await drain(watcher), 1)["bot_vote"] == shown["bot_vote"]

    # Refusals: each to the sender alone, with a code and where; nothing changes.
    assert (await refused(watcher, 1))["code"] == "spectator"
    assert (await refused(ada, 0))["message"] == "you cannot vote on your own seat @ $.seat"
    assert (await refused(ada, 2))["code"] == "not_away"  # Cy is connected
    for far in (3, -1, 10**40):
        error = await refused(ada, far)
        assert error["code"] == "bad_seat" and "@ $.seat" in error["message"]
    assert table.seats[1].votes == set() and not table.seats[1].bot_playing

    # Ada votes: 1 of 2, shown to everyone; again is refused.
    await vote(ada, 1)
    assert seat_entry(await answer(ada), 1)["bot_vote"] == {
        "voters": [0, 2], "votes": [0], "needed": 2}
    assert seat_entry(await drain(cy), 1)["bot_vote"]["votes"] == [0]
    assert (await refused(ada, 1))["code"] == "already_voted"
    assert not table.seats[1].bot_playing

    # Cy votes: the majority; a bot plays Bede's seat at once.
    before = table.turns.bot_moves
    await vote(cy, 1)
    entry = seat_entry(await answer(cy), 1)
    assert entry["bot_playing"] is True and entry["bot_vote"] is None
    assert table.seats[1].bot is False  # a bot standing in, not a bot's chair
    assert (await refused(ada, 1))["code"] == "not_away"
    # The bot plays Bede's decisions from now on.
    while table.turns.bot_moves == before:
        await trio.sleep(1)
    assert table.turns.bot_moves > before

    # Bede comes back: his seat is his again, with no vote open.
    bede = Client(table, b.token)
    await bede.attach()
    await trio.sleep(0.01)
    assert not table.seats[1].bot_playing
    assert seat_entry(await drain(ada), 1) == {
        "seat": 1, "name": "Bede", "bot": False, "bot_playing": False, "connected": True,
        "bot_vote": None}


async def test_a_voter_who_leaves_takes_its_vote_and_the_rest_may_carry_it(
    supervisor: Supervisor, autojump_clock: trio.testing.MockClock
) -> None:
    table, (a, _b, c, d) = await seated(supervisor, ["Ada", "Bede", "Cy", "Dee"])
    ada, cy, dee = Client(table, a.token), Client(table, c.token), Client(table, d.token)
    for client in (ada, cy, dee):
        await client.attach()
    await first_timeout(table, 1)
    assert seat_entry(await drain(ada), 1)["bot_vote"] == {
        "voters": [0, 2, 3], "votes": [], "needed": 2}

    await vote(cy, 1)
    assert seat_entry(await answer(cy), 1)["bot_vote"]["votes"] == [2]
    await table.inbox.send(Detach(cy.conn))
    shown = seat_entry(await drain(ada), 1)["bot_vote"]
    assert shown == {"voters": [0, 3], "votes": [], "needed": 2}  # Cy's vote went with Cy

    await vote(ada, 1)
    assert seat_entry(await answer(ada), 1)["bot_vote"]["votes"] == [0]
    assert not table.seats[1].bot_playing
    # Dee leaves without voting: Ada alone is the voters' majority, and it carries.
    await table.inbox.send(Detach(dee.conn))
    entry = seat_entry(await drain(ada), 1)
    assert entry["bot_playing"] is True and entry["bot_vote"] is None
    assert table.seats[1].bot_playing


async def test_a_player_who_comes_back_ends_the_vote_and_timeouts_count_afresh(
    supervisor: Supervisor, autojump_clock: trio.testing.MockClock
) -> None:
    table, (a, b, c) = await seated(supervisor, ["Ada", "Bede", "Cy"])
    ada, cy = Client(table, a.token), Client(table, c.token)
    for client in (ada, cy):
        await client.attach()
    await first_timeout(table, 1)
    await vote(ada, 1)
    assert seat_entry(await answer(ada), 1)["bot_vote"]["votes"] == [0]

    bede = Client(table, b.token)
    await bede.attach()
    assert seat_entry(await drain(ada), 1)["bot_vote"] is None
    assert table.seats[1].votes == set() and table.seats[1].missed_timeouts == 0
    # Bede leaves again: away, but the vote waits for a new timeout; Ada's old vote is gone.
    await table.inbox.send(Detach(bede.conn))
    assert (await refused(ada, 1))["code"] == "vote_not_open"
    assert (await refused(cy, 1))["code"] == "vote_not_open"


async def test_no_vote_before_the_start_or_after_the_end(
    supervisor: Supervisor, autojump_clock: trio.testing.MockClock
) -> None:
    table = await supervisor.create_table(2)
    a = await supervisor.join(table.id, "Ada")
    ada = Client(table, a.token)
    await ada.attach()
    assert (await refused(ada, 1))["code"] == "not_playing"
    assert table.seats[1].votes == set()


@pytest.mark.parametrize(("text", "where"), [
    ('{"type": "vote_bot"}', "$.seat"),
    ('{"type": "vote_bot", "seat": "1"}', "$.seat"),
    ('{"type": "vote_bot", "seat": 1.5}', "$.seat"),
    ('{"type": "vote_bot", "seat": true}', "$.seat"),
    ('{"type": "vote_bot", "seat": 1, "why": "\\ud800"}', "$"),
])
def test_a_malformed_vote_is_a_bad_message_saying_where(text: str, where: str) -> None:
    with pytest.raises(ProtocolError) as caught:
        decode_client(text)
    assert caught.value.code == "bad_message"
    assert f"@ {where}" in caught.value.message


def test_a_vote_decodes_to_its_seat() -> None:
    assert decode_client('{"type": "vote_bot", "seat": 2}') == VoteBot(2)

"""Commit, then reveal (docs/fairness.md): a table takes commitments before its start and
seeds only between the start and the deal; every seat is told the commitments before any
seed is revealed; a seat that does not reveal in time plays on without its seed, and
everyone sees it; a seat in league with the server cannot try seeds, only withhold.

Driven through the supervisor and a connection attached to the table's inbox (the tests
of the HTTP order are in tests/fairness/test_seed_order.py)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
import trio
import trio.testing

from quaymoor.actors.inbox import TableError
from quaymoor.actors.supervisor import Supervisor
from quaymoor.config import TableConfig
from quaymoor.rules.fairness import Deal, deal_key, draw_below, seed_commitment
from quaymoor.rules.game import Game
from quaymoor.rules.verify import verify_record
from tests.actors.running import running
from tests.actors.test_table import Client

CONFIG = TableConfig(bot_delay=0.0, linger_seconds=5.0, reveal_seconds=10.0)


@pytest.fixture
async def supervisor() -> AsyncIterator[Supervisor]:
    sup = Supervisor(CONFIG)
    async with running(sup):
        yield sup


async def refused(request: Any) -> str:
    with pytest.raises(TableError) as refusal:
        await request
    return refusal.value.code


def of_type(frames: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [f for f in frames if f["type"] == kind]


async def test_every_seat_sees_every_commitment_before_any_seed_and_a_silent_seat_is_named(
    supervisor: Supervisor, autojump_clock: trio.testing.MockClock
) -> None:
    table = await supervisor.create_table(3)
    ada = await supervisor.join(table.id, "Ada")
    bede = await supervisor.join(table.id, "Bede")
    dice = {ada.seat: "ada's dice", bede.seat: "bede's dice"}
    made = {s: seed_commitment(table.id, s, d) for s, d in dice.items()}
    assert await refused(supervisor.reveal(table.id, ada.token, dice[0])) == "not_revealing"
    await supervisor.commit(table.id, ada.token, made[0])
    await supervisor.commit(table.id, bede.token, made[1])
    clients = [Client(table, ada.token), Client(table, bede.token), Client(table, None)]
    for client in clients:
        await client.attach()
        client.read_waiting()
    fixed = await supervisor.start(table.id, ada.token)
    assert fixed == [made[0], made[1], None] and table.revealing and table.game is None
    for client in clients:  # players and the spectator alike, before any seed
        told = of_type(client.read_waiting(), "seeds_committed")
        assert len(told) == 1 and told[0]["commitments"] == fixed
        assert told[0]["reveal_seconds"] == 10.0 and told[0]["seats"][2]["bot"]
    # nothing of the lobby is open during the reveal
    assert await refused(supervisor.join(table.id, "Cy")) == "already_started"
    assert await refused(supervisor.commit(table.id, bede.token, made[1])) == "already_started"
    assert await refused(supervisor.start(table.id, ada.token)) == "already_started"
    late = Client(table, None)  # one who comes during the reveal is told too
    await late.attach()
    frames = late.read_waiting()
    assert frames[0]["type"] == "welcome" and frames[0]["commitments"] == fixed
    assert frames[0]["started"] is False
    assert of_type(frames, "seeds_committed")[0]["reveal_seconds"] <= 10.0

    await supervisor.reveal(table.id, ada.token, dice[0])  # Bede stays silent
    assert table.game is None
    await trio.sleep(9.9)
    assert table.game is None  # the reveal is open for its 10 s
    await trio.sleep(0.2)
    game = table.game
    assert game is not None and game.client_seeds == ("ada's dice",)
    started = of_type(clients[2].read_waiting(), "game_started")[0]
    assert started["client_seeds"] == ["ada's dice", None, None]
    assert started["commitments"] == fixed  # Bede's commitment stays, with no seed
    assert await refused(supervisor.reveal(table.id, bede.token, dice[1])) == "not_revealing"
    record = table.play.record(None) if table.play is not None else None
    assert record is not None and record.format == 5
    assert [s.commitment for s in record.seats] == fixed
    assert record.seat_seeds == ["ada's dice", None, None]
    assert verify_record(record).ok


async def test_a_seat_that_knows_the_seed_and_every_other_seed_cannot_try_seeds(
    supervisor: Supervisor, autojump_clock: trio.testing.MockClock
) -> None:
    """Bede works with the server: he knows the server's seed and sees Ada's seed the
    moment she reveals. Wanting to be first Warden he tries 40 other seeds: each is
    refused (it is not the one he committed to before the start) and changes nothing.
    What is left to him is to reveal or to withhold: two deals, no more."""
    table = await supervisor.create_table(3)
    ada = await supervisor.join(table.id, "Ada")
    bede = await supervisor.join(table.id, "Bede")
    await supervisor.commit(table.id, ada.token, seed_commitment(table.id, 0, "ada's dice"))
    await supervisor.commit(table.id, bede.token, seed_commitment(table.id, 1, "bede 0"))
    await supervisor.start(table.id, ada.token)
    await supervisor.reveal(table.id, ada.token, "ada's dice")
    before = table.seats.deal(table.id)
    for tried in range(1, 41):
        code = await refused(supervisor.reveal(table.id, bede.token, f"bede {tried}"))
        assert code == "seed_mismatch"
        assert table.seats.deal(table.id) == before and table.revealing
    # the only choices were to reveal what he committed to, or not: the game is the
    # first of those two deals
    seats = list(before.seats)
    revealed = Deal(table.id, (seats[0], seats[1]._replace(client_seed="bede 0"), seats[2]))
    await supervisor.reveal(table.id, bede.token, "bede 0")
    game = table.game
    assert game is not None and game.client_seeds == ("ada's dice", "bede 0")
    assert game.first_warden == draw_below(deal_key(table.seed, revealed), "first-warden", 3)
    mine, dealt = game.turned_up, Game(3, table.seed, deal=revealed).turned_up
    assert mine is not None and dealt is not None and mine[0] == dealt[0]


async def test_with_no_commitment_the_game_is_dealt_at_the_start(
    supervisor: Supervisor, autojump_clock: trio.testing.MockClock
) -> None:
    table = await supervisor.create_table(2)
    ada = await supervisor.join(table.id, "Ada")
    assert await supervisor.start(table.id, ada.token) == [None, None]
    assert table.game is not None and not table.revealing and table.game.client_seeds == ()
    assert await refused(supervisor.reveal(table.id, ada.token, "late")) == "not_revealing"


async def test_the_lobby_hour_never_cuts_a_reveal_short(
    autojump_clock: trio.testing.MockClock
) -> None:
    sup = Supervisor(TableConfig(bot_delay=0.0, lobby_seconds=60.0, reveal_seconds=10.0))
    async with running(sup):
        table = await sup.create_table(2)
        ada = await sup.join(table.id, "Ada")
        await sup.commit(table.id, ada.token, seed_commitment(table.id, 0, "dice"))
        await trio.sleep(55)
        await sup.start(table.id, ada.token)
        await trio.sleep(8)  # past the lobby's minute, inside the reveal
        await sup.reveal(table.id, ada.token, "dice")
        assert table.game is not None and table.game.client_seeds == ("dice",)

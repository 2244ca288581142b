"""Input from strangers, through the table's inbox, the supervisor and the HTTP API (no
sockets), on trio's autojump clock: each refusal is answered with a clear code, changes
nothing and leaves the table running; a table that crashes still answers the request it
was handling; a timeout answers only the decision that ran out."""

from __future__ import annotations

import itertools
import json
from collections.abc import AsyncIterator
from typing import Any

import pytest
import trio

from quaymoor.actors.connection import Connection
from quaymoor.actors.inbox import ActFrom, Attach, Detach, InboxMessage, Reply, TableError
from quaymoor.actors.outlet import Outlet
from quaymoor.actors.seat import SeatWorker
from quaymoor.actors.supervisor import Supervisor
from quaymoor.actors.table import TableState
from quaymoor.http.api import HttpApi
from quaymoor.http.frontdoor import HttpRequest
from quaymoor.protocol.codec import ProtocolError, decode_client
from quaymoor.protocol.codes import Close
from quaymoor.rules.actions import Action
from quaymoor.rules.events import Event
from quaymoor.rules.fairness import seed_commitment
from quaymoor.rules.state import Phase
from tests.actors.running import running
from tests.actors.test_table import FAST, Client

#: Tokens no seat holds: non-ASCII, a lone surrogate, NUL, an RTL mark, empty, huge.
HOSTILE_TOKENS = ["ñ", "\udc80", "\udc80" * 40, "\x00", "\u202e" + "a" * 32, "", "é" * 10_000]


@pytest.fixture
async def supervisor() -> AsyncIterator[Supervisor]:
    sup = Supervisor(FAST)
    async with running(sup):
        yield sup


async def post(api: HttpApi, path: str, body: bytes) -> tuple[int, Any]:
    headers = {"content-type": "application/json"}
    response = await api(HttpRequest("POST", path, {}, headers, body, "::1"))
    return response.status, json.loads(response.body)


# ---------------------------------------------------------------- 1. tokens


@pytest.mark.parametrize("token", HOSTILE_TOKENS)
async def test_a_hostile_token_is_refused_with_bad_token_and_changes_nothing(
    supervisor: Supervisor, autojump_clock: trio.testing.MockClock, token: str
) -> None:
    table = await supervisor.create_table(2)
    joined = await supervisor.join(table.id, "Ada")
    with trio.fail_after(2):
        with pytest.raises(TableError) as start:
            await supervisor.start(table.id, token)
        assert start.value.code == "bad_token"
        assert table.game is None and table.state is TableState.WAITING
        client = Client(table, token)
        with pytest.raises(TableError) as attach:
            await client.attach()
        assert attach.value.code == "bad_token"
    # The table is alive and the real token still works.
    await supervisor.start(table.id, joined.token)
    assert table.game is not None and supervisor.crash_count == 0
    with trio.fail_after(2):
        with pytest.raises(TableError) as late:
            await Client(table, token).attach()
    assert late.value.code == "bad_token"
    assert table.id in supervisor.tables and supervisor.crash_count == 0


async def test_a_hostile_token_over_http_start_is_bad_token(
    supervisor: Supervisor, autojump_clock: trio.testing.MockClock
) -> None:
    api = HttpApi(supervisor)
    table = await supervisor.create_table(2)
    await supervisor.join(table.id, "Ada")
    for token in ("ñ", "\udc80"):
        with trio.fail_after(2):
            status, body = await post(api, f"/api/tables/{table.id}/start",
                                      json.dumps({"token": token}).encode())
        assert (status, body["error"]["code"]) == (403, "bad_token")
    assert table.state is TableState.WAITING and supervisor.crash_count == 0


# ---------------------------------------------------------------- 2. a crash answers


async def test_a_crash_while_handling_a_start_still_answers_it(
    autojump_clock: trio.testing.MockClock,
) -> None:
    def broken_bot() -> Any:
        raise RuntimeError("the bot factory is broken")

    sup = Supervisor(FAST)
    async with trio.open_nursery() as nursery:
        await nursery.start(sup.run)
        table = await sup.create_table(2)
        table.turns.bot_factory = broken_bot  # the start seats a bot: the table raises
        joined = await sup.join(table.id, "Ada")
        api = HttpApi(sup)
        with trio.fail_after(2):
            status, body = await post(api, f"/api/tables/{table.id}/start",
                                      json.dumps({"token": joined.token}).encode())
        assert (status, body["error"]["code"]) == (409, "table_closed")
        assert sup.crash_count == 1 and table.id not in sup.tables
        nursery.cancel_scope.cancel()


async def test_a_crash_while_handling_an_attach_still_answers_it(
    supervisor: Supervisor, autojump_clock: trio.testing.MockClock,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    table, joined = await supervisor.play_now(2, "Ada")
    await supervisor.start(table.id, joined.token)

    def boom(msg: Attach) -> None:
        raise RuntimeError("attach is broken")

    monkeypatch.setattr(table, "_attach", boom)
    client = Client(table, joined.token)
    with trio.fail_after(2):
        reply = Reply()
        with pytest.raises(TableError) as closed:
            await supervisor.ask(table, Attach(client.conn, joined.token, None, reply), reply)
    assert closed.value.code == "table_closed"
    assert supervisor.crash_count == 1
    assert await client.next() is None  # its outbox is closed


async def test_requests_queued_behind_a_crash_are_answered(
    supervisor: Supervisor, autojump_clock: trio.testing.MockClock
) -> None:
    table = await supervisor.create_table(2)
    await table.inbox.send(object())  # type: ignore[arg-type]  # not an inbox message
    with trio.fail_after(2):
        with pytest.raises(TableError) as closed:
            await supervisor.join(table.id, "Ada")
    assert closed.value.code in ("table_closed", "unknown_table")


# ---------------------------------------------------------------- 3. JSON


HUGE = "9" * 5000
BAD_JSON = [
    HUGE, "-" + HUGE, "1e999", "-1e999", "NaN", "Infinity", "-Infinity",
    "[" * 100_000 + "]" * 100_000, '{"a":' * 50_000 + "1" + "}" * 50_000,
]


@pytest.mark.parametrize("value", BAD_JSON, ids=lambda v: v[:12])
def test_websocket_frames_with_unreadable_numbers_are_bad_json(value: str) -> None:
    for frame in (f'{{"type": "hello", "table": "x", "since": {value}}}',
                  f'{{"type": "act", "action": {{"type": "load", "good": "grain", '
                  f'"barge": {value}}}}}'):
        with pytest.raises(ProtocolError) as refused:
            decode_client(frame)
        assert refused.value.code == "bad_json"


@pytest.mark.parametrize("value", ["-0", "-0.0", "0.5", "1e300", "9" * 4000, "true", "[[[[[]]]]]"])
def test_websocket_numbers_of_the_wrong_kind_are_bad_message(value: str) -> None:
    if value == "-0":  # JSON -0 is the integer 0: a valid since
        assert decode_client(f'{{"type": "hello", "table": "x", "since": {value}}}')
        return
    if value == "9" * 4000:  # a big but readable integer is an int: valid, and matches nothing
        assert decode_client(f'{{"type": "hello", "table": "x", "since": {value}}}')
        return
    with pytest.raises(ProtocolError) as refused:
        decode_client(f'{{"type": "hello", "table": "x", "since": {value}}}')
    assert refused.value.code == "bad_message" and "@ $.since" in refused.value.message


@pytest.mark.parametrize("value", BAD_JSON, ids=lambda v: v[:12])
async def test_http_bodies_with_unreadable_numbers_are_bad_request(
    supervisor: Supervisor, autojump_clock: trio.testing.MockClock, value: str
) -> None:
    api = HttpApi(supervisor)
    status, body = await post(api, "/api/tables", f'{{"players": {value}}}'.encode())
    assert (status, body["error"]["code"]) == (400, "bad_request")
    assert "not JSON" in body["error"]["message"]
    assert not supervisor.tables


@pytest.mark.parametrize("value", ["-0.0", "1e300", "9" * 4000, "true", "[[[[[]]]]]"])
async def test_http_numbers_of_the_wrong_kind_are_bad_request_or_bad_players(
    supervisor: Supervisor, autojump_clock: trio.testing.MockClock, value: str
) -> None:
    api = HttpApi(supervisor)
    status, body = await post(api, "/api/tables", f'{{"players": {value}}}'.encode())
    assert status == 400 and body["error"]["code"] in ("bad_request", "bad_players")
    assert "@ $.players" in body["error"]["message"]
    assert not supervisor.tables


# ---------------------------------------------------------------- 4. timeouts


async def test_a_timeout_answers_only_the_decision_that_ran_out(
    supervisor: Supervisor, autojump_clock: trio.testing.MockClock
) -> None:
    """Nobody acts, both players stay connected (no bot takes over): every action is a
    timer's. One timeout plays one action, or in a simultaneous phase the seat's part of
    that one phase; the seat's next decision waits its own 90 s."""
    table = await supervisor.create_table(2)
    a = await supervisor.join(table.id, "Ada")
    b = await supervisor.join(table.id, "Bede")
    await supervisor.start(table.id, a.token)
    ada, bede = Client(table, a.token), Client(table, b.token)
    await ada.attach()
    await bede.attach()
    game = table.game
    assert game is not None
    played: list[tuple[int, int, Phase, float]] = []  # (timeout, seat, phase, when)
    apply = game.apply

    def recording_apply(seat: int, action: Action, at: float | None = None) -> list[Event]:
        played.append((table.turns.timeouts, seat, game.phase, trio.current_time()))
        return apply(seat, action, at=at)

    game.apply = recording_apply  # type: ignore[method-assign]  # record each timer move
    while table.turns.timeouts < 40 and not game.is_over():
        await trio.sleep(1)
    by_timeout: dict[int, list[tuple[int, Phase, float]]] = {}
    for timeout, seat, phase, when in played:
        by_timeout.setdefault(timeout, []).append((seat, phase, when))
    assert len(by_timeout) >= 30
    for timeout, moves in by_timeout.items():
        seats = {seat for seat, _, _ in moves}
        phases = {phase for _, phase, _ in moves}
        assert len(seats) == 1 and len(phases) == 1, (timeout, moves)
        if len(moves) > 1:
            assert next(iter(phases)).simultaneous, (timeout, moves)
    # Each of a seat's decisions waited its own full timer after the previous one ended.
    last: dict[int, float] = {}
    for moves in by_timeout.values():
        seat, _, when = moves[0]
        if seat in last:
            assert when - last[seat] >= 90 - 0.01, (seat, when, last[seat])
        last[seat] = when


# ---------------------------------------------------------------- what the property test found


async def test_a_drop_in_the_middle_of_a_broadcast_leaves_no_gap_for_the_others(
    supervisor: Supervisor, autojump_clock: trio.testing.MockClock
) -> None:
    """A seat's connection that never reads is dropped while an update goes out; the
    snapshot its leaving causes reaches the others after that update, not before it."""
    table, joined = await supervisor.play_now(2, "Ada")
    await supervisor.start(table.id, joined.token)
    slow = Connection(999_001, Outlet(3))  # first in the table's connections, never read
    reply = Reply()
    await supervisor.ask(table, Attach(slow, joined.token, None, reply), reply)
    watcher = Client(table, None)
    await watcher.attach()
    await trio.sleep(200)  # the bot and the timer move: the slow one is dropped
    assert slow.outlet.close_code == Close.TOO_SLOW
    previous = None
    for frame in watcher.read_waiting():
        if frame["type"] == "update":
            if previous is not None:
                assert frame["since"] == previous, (frame["since"], frame["version"], previous)
            previous = frame["version"]
    assert previous is not None and previous >= 2


async def test_slow_seats_dropped_in_one_broadcast_leave_every_other_chain_whole(
    supervisor: Supervisor, autojump_clock: trio.testing.MockClock
) -> None:
    """Two seats' only connections never read, and fill up at the same update: each is
    dropped in the middle of a broadcast (others before and after them in the table's
    connections). Every other connection, a seat's and the spectators', reads one chain of
    versions without a gap, shows both seats away in the end, and is never dropped."""
    table = await supervisor.create_table(3)
    joined = [await supervisor.join(table.id, name) for name in ("Ada", "Bede", "Cy")]
    await supervisor.start(table.id, joined[0].token)
    readers = [Client(table, None)]  # before the slow ones in the table's connections
    await readers[0].attach()
    # Sizes that fill both at the same update (Ada's had more to take before: Bede came)
    slow = [Connection(999_100, Outlet(13)), Connection(999_101, Outlet(11))]
    for conn, seat in zip(slow, joined[:2], strict=True):
        reply = Reply()
        await supervisor.ask(table, Attach(conn, seat.token, None, reply), reply)
    readers += [Client(table, joined[2].token), Client(table, None)]  # and after them
    for reader in readers[1:]:
        await reader.attach()
    got: list[list[dict[str, Any]]] = [[] for _ in readers]
    for _ in range(400):  # Cy acts, the timers play Ada's and Bede's seats
        await trio.sleep(1)
        for frames, reader in zip(got, readers, strict=True):
            frames += reader.read_waiting()
        cy = [f for f in got[1] if f["type"] == "update"][-1]
        if cy["view"]["legal"] and cy["version"] == cy["view"]["version"]:
            await readers[1].act(cy["view"]["legal"][0])
        if all(conn.outlet.dropped.is_set() for conn in slow):
            break
    assert [conn.outlet.close_code for conn in slow] == [Close.TOO_SLOW] * 2
    for frames, reader in zip(got, readers, strict=True):
        await trio.sleep(1)
        frames += reader.read_waiting()
        updates = [f for f in frames if f["type"] == "update"]
        for before, after in itertools.pairwise(updates):
            assert after["since"] == before["version"], (before["version"], after["since"])
        assert [s["connected"] for s in updates[-1]["seats"]] == [False, False, True]
        assert not reader.conn.outlet.dropped.is_set()


async def test_an_act_from_a_connection_the_table_let_go_changes_nothing(
    supervisor: Supervisor, autojump_clock: trio.testing.MockClock
) -> None:
    table, joined = await supervisor.play_now(2, "Ada")
    await supervisor.start(table.id, joined.token)
    game = table.game
    assert game is not None
    ada = Client(table, joined.token)
    await ada.attach()
    await table.inbox.send(Detach(ada.conn))
    while 0 not in game.deciding():
        await trio.sleep(0.1)
    before = game.version
    await table.inbox.send(ActFrom(ada.conn, game.legal_actions(0)[0]))
    await trio.sleep(0.01)
    assert game.version == before


async def test_a_worker_cancelled_with_its_table_ignores_a_last_timer_or_bot() -> None:
    worker = SeatWorker(0, trio.open_memory_channel[InboxMessage](1)[0])
    async with trio.open_nursery() as nursery:
        await nursery.start(worker.run)
        nursery.cancel_scope.cancel()
        with trio.CancelScope(shield=True):
            await trio.sleep(0)  # the worker's own nursery closes to new tasks
            await trio.sleep(0)
        worker.start_timer(1, 90.0)  # the table handling a message in that same tick
        assert worker.deadline is None


async def test_a_lone_surrogate_client_seed_is_refused(
    supervisor: Supervisor, autojump_clock: trio.testing.MockClock
) -> None:
    table = await supervisor.create_table(2)
    joined = await supervisor.join(table.id, "Ada")
    await supervisor.commit(table.id, joined.token, seed_commitment(table.id, 0, "mine"))
    await supervisor.start(table.id, joined.token)
    for bad in ("\udc80", "mi\x00ne"):
        with trio.fail_after(2):
            with pytest.raises(TableError) as refused:
                await supervisor.reveal(table.id, joined.token, bad)
        assert refused.value.code == "bad_client_seed"
    assert table.revealing and table.seats.seat_seeds() == [None, None]
    assert supervisor.crash_count == 0


@pytest.mark.parametrize(("sent", "shown"), [
    ("\u202eAda", "Ada"),  # a right-to-left override cannot turn the names around it
    ("A\x00da\u200b", "Ada"),  # NUL and zero-width characters are dropped
    ("  Ada \n\t Lovelace ", "Ada Lovelace"),
    ("\u202e\u200b\x00", None),  # nothing left: bad_name
    ("Ada\udc80", None),  # not valid Unicode: bad_name
])
async def test_a_name_is_cleaned_or_refused(
    supervisor: Supervisor, autojump_clock: trio.testing.MockClock, sent: str, shown: str | None
) -> None:
    table = await supervisor.create_table(2)
    with trio.fail_after(2):
        if shown is None:
            with pytest.raises(TableError) as refused:
                await supervisor.join(table.id, sent)
            assert refused.value.code == "bad_name" and "@ $.name" in refused.value.message
        else:
            joined = await supervisor.join(table.id, sent)
            assert table.seats.all[joined.seat].name == shown
    assert supervisor.crash_count == 0

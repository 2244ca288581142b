"""The table actor and the supervisor, driven through their inboxes (no sockets), with
trio's autojump clock so that 90-second timers fire in milliseconds."""

from __future__ import annotations

import itertools
import json
from collections.abc import AsyncIterator
from typing import Any

import pytest
import trio

from quaymoor.actors.connection import Connection
from quaymoor.actors.inbox import (
    ActFrom,
    Attach,
    Detach,
    JoinResult,
    Reply,
    ResyncFrom,
    TableError,
)
from quaymoor.actors.outlet import Outlet
from quaymoor.actors.supervisor import Supervisor
from quaymoor.actors.table import Table
from quaymoor.config import TableConfig
from quaymoor.protocol.codec import decode_action, unstructure_with
from quaymoor.protocol.codes import Close
from quaymoor.rules.fairness import seed_commitment, table_fingerprint
from quaymoor.rules.views import SeatView
from tests.actors.running import running
from tests.patching import Views

_ids = itertools.count(1000)
FAST = TableConfig(bot_delay=0.0, linger_seconds=5.0)


async def play_now(
    supervisor: Supervisor, players: int, name: str, client_seed: str | None = None
) -> tuple[Table, JoinResult]:
    """Play now as the browser does it: the table and the seat, the commitment, the start,
    the seed revealed."""
    table, joined = await supervisor.play_now(players, name)
    if client_seed is not None:
        await supervisor.commit(table.id, joined.token,
                                seed_commitment(table.id, joined.seat, client_seed))
    await supervisor.start(table.id, joined.token)
    if client_seed is not None:
        await supervisor.reveal(table.id, joined.token, client_seed)
    return table, joined


@pytest.fixture
async def supervisor() -> AsyncIterator[Supervisor]:
    sup = Supervisor(FAST)
    async with running(sup):
        yield sup


class Client:
    """A connection attached straight to a table's inbox, as the gateway would."""

    def __init__(self, table: Table, token: str | None) -> None:
        self.table = table
        self.token = token
        self.conn = Connection(next(_ids), Outlet(10_000))
        self.frames: list[dict[str, Any]] = []
        self.views = Views()  #: deltas applied: each update has its whole view
        self.update_sizes: list[int] = []  #: each update frame's length in UTF-8 bytes

    async def attach(self, since: int | None = None) -> None:
        reply = Reply()
        await self.table.inbox.send(Attach(self.conn, self.token, since, reply))
        await reply.wait()

    async def next(self) -> dict[str, Any] | None:
        """The next frame sent to this connection (None once its outlet is closed), taken
        as the gateway's writer takes it, one at a time."""
        outlet = self.conn.outlet
        batch = await outlet.next_batch(whole=False)
        if batch is None:
            return None
        outlet.sent(batch)  # as the gateway's writer does once the socket has it
        return self._read(batch.frames[0].text)

    def waiting_texts(self) -> list[str]:
        """Every text waiting for this connection now, taken (and counted as written) as
        the gateway's writer would, without waiting."""
        outlet = self.conn.outlet
        batch = outlet.take()
        if batch is None:
            return []
        outlet.sent(batch)
        return [frame.text for frame in batch.frames]

    def read_waiting(self) -> list[dict[str, Any]]:
        """``waiting_texts``, read as ``next`` reads each."""
        return [self._read(text) for text in self.waiting_texts()]

    def _read(self, text: str) -> dict[str, Any]:
        frame: dict[str, Any] = self.views.feed(json.loads(text))
        if frame["type"] == "update":
            self.update_sizes.append(len(text.encode()))
        self.frames.append(frame)
        return frame

    async def act(self, action: dict[str, Any]) -> None:
        await self.table.inbox.send(
            ActFrom(self.conn, decode_action(action), received=trio.current_time()))

    async def play_to_end(self, choose: int = 0,
                          seen: list[dict[str, Any]] | None = None) -> dict[str, Any]:
        """Act on every decision of this seat (the ``choose``-th legal action) until the
        game ends; returns the game_ended message (every frame on the way in ``seen``)."""
        while True:
            frame = await self.next()
            assert frame is not None, "connection closed before the game ended"
            if seen is not None:
                seen.append(frame)
            if frame["type"] == "game_ended":
                return frame
            if frame["type"] == "update":
                view = frame["view"]
                if view["legal"] and frame["version"] == view["version"]:
                    legal = view["legal"]
                    await self.act(legal[min(choose, len(legal) - 1)])


async def test_play_now_game_against_bots_ends_with_seed_revealed(
    supervisor: Supervisor, autojump_clock: trio.testing.MockClock
) -> None:
    table, joined = await play_now(supervisor, 4, "Ada")
    client = Client(table, joined.token)
    await client.attach()
    welcome = await client.next()
    assert welcome is not None and welcome["type"] == "welcome"
    assert welcome["seat"] == 0 and welcome["fingerprint"] == table.fingerprint
    bots = [s for s in welcome["seats"] if s["bot"]]
    assert len(bots) == 3 and all(s["name"].endswith("(bot)") for s in bots)
    ended = await client.play_to_end()
    assert ended["reason"] == "finished"
    assert (table_fingerprint(bytes.fromhex(ended["seed"]), table.id, 4) == ended["fingerprint"]
            == table.fingerprint)
    assert ended["result"]["winners"]
    assert table.id in supervisor.records
    assert supervisor.games_finished == 1


async def test_seat_views_never_show_other_seals_or_the_seed(
    supervisor: Supervisor, autojump_clock: trio.testing.MockClock
) -> None:
    table, joined = await play_now(supervisor, 3, "Ada")
    me = Client(table, joined.token)
    watcher = Client(table, None)
    await me.attach()
    await watcher.attach()
    ended = await me.play_to_end(choose=1)
    while (await watcher.next()) is not None:
        pass
    seed = ended["seed"]
    for client, own in ((me, 0), (watcher, None)):
        for frame in client.frames:
            if frame["type"] == "game_ended":
                break
            assert seed not in json.dumps(frame)
            if frame["type"] == "update" and frame["view"]["result"] is None:
                for mat in frame["view"]["mats"]:
                    if mat["seat"] != own:
                        assert mat["seals"] is None and mat["score"] is None
                assert isinstance(frame["view"]["board"]["stack"], int)


async def test_timeout_plays_the_safe_move_and_a_bot_takes_over_an_absent_seat(
    supervisor: Supervisor, autojump_clock: trio.testing.MockClock
) -> None:
    table = await supervisor.create_table(2)
    a = await supervisor.join(table.id, "Ada")
    b = await supervisor.join(table.id, "Bede")
    await supervisor.start(table.id, a.token)
    ada = Client(table, a.token)
    await ada.attach()
    assert table.game is not None
    game = table.game
    start = trio.current_time()
    # Nobody acts: each decision times out after 90 s and gets its safe move.
    while table.turns.timeouts < 1:
        await trio.sleep(1)
    assert 90 <= trio.current_time() - start < 92
    assert game.version >= 1
    # Bede never connected: after two timeouts in a row a bot plays his seat.
    while not table.seats[1].bot_playing:
        await trio.sleep(1)
    assert table.seats[1].bot is False
    # Bede comes back: the seat is handed back.
    bede = Client(table, b.token)
    await bede.attach()
    await trio.sleep(0)
    await trio.sleep(0)
    assert not table.seats[1].bot_playing


async def test_reconnect_gets_every_missed_event(
    supervisor: Supervisor, autojump_clock: trio.testing.MockClock
) -> None:
    table, joined = await play_now(supervisor, 2, "Ada")
    first = Client(table, joined.token)
    await first.attach()
    seen: list[dict[str, Any]] = []
    acted = 0
    while acted < 5:
        frame = await first.next()
        assert frame is not None
        if frame["type"] == "update":
            seen.extend(frame["events"])
            if frame["view"]["legal"] and frame["version"] == frame["view"]["version"]:
                await first.act(frame["view"]["legal"][0])
                acted += 1
    last_version = first.frames[-1]["version"]
    await table.inbox.send(Detach(first.conn))
    # While away, the timer plays for us and bots play on.
    await trio.sleep(100)
    second = Client(table, joined.token)
    await second.attach(since=last_version)
    await second.next()  # welcome
    catch_up = await second.next()
    assert catch_up is not None and catch_up["type"] == "update"
    assert catch_up["since"] == last_version
    assert catch_up["version"] > last_version
    # The events of the catch-up are exactly those logged since last_version.
    changes = table.history.changes
    expected = [e for v, evs in changes if last_version <= v < catch_up["version"] for e in evs]
    assert len(catch_up["events"]) == len(expected) > 0


async def test_a_crashing_table_ends_alone(
    supervisor: Supervisor, autojump_clock: trio.testing.MockClock
) -> None:
    doomed, a = await play_now(supervisor, 2, "Ada")
    healthy, b = await play_now(supervisor, 2, "Bede")
    victim = Client(doomed, a.token)
    player = Client(healthy, b.token)
    await victim.attach()
    await player.attach()
    await doomed.inbox.send(object())  # type: ignore[arg-type]  # not an inbox message: the table raises
    frames = []
    while (frame := await victim.next()) is not None:
        frames.append(frame)
    ended = [f for f in frames if f["type"] == "game_ended"]
    assert ended and ended[0]["reason"] == "crashed" and ended[0]["seed"]
    assert victim.conn.outlet.close_code == Close.TABLE_CRASHED
    assert supervisor.crash_count == 1 and doomed.id in supervisor.records
    assert doomed.id not in supervisor.tables
    result = await player.play_to_end()
    assert result["reason"] == "finished"


async def test_lobby_refusals_change_nothing(
    supervisor: Supervisor, autojump_clock: trio.testing.MockClock
) -> None:
    table = await supervisor.create_table(2)
    with pytest.raises(TableError) as bad_name:
        await supervisor.join(table.id, "   ")
    assert bad_name.value.code == "bad_name"
    a = await supervisor.join(table.id, "Ada")
    with pytest.raises(TableError) as bad_commitment:
        await supervisor.commit(table.id, a.token, "s" * 64)
    assert bad_commitment.value.code == "bad_commitment"
    with pytest.raises(TableError) as early:
        await supervisor.reveal(table.id, a.token, "s" * 256)
    assert early.value.code == "not_revealing"
    await supervisor.commit(table.id, a.token, seed_commitment(table.id, 0, "s" * 256))
    with pytest.raises(TableError) as twice:
        await supervisor.commit(table.id, a.token, seed_commitment(table.id, 0, "again"))
    assert twice.value.code == "already_committed"
    assert table.seats.commitments() == [seed_commitment(table.id, 0, "s" * 256), None]
    assert table.seats.seat_seeds() == [None, None]
    with pytest.raises(TableError) as bad_token:
        await supervisor.start(table.id, "not-a-token")
    assert bad_token.value.code == "bad_token"
    assert table.game is None
    await supervisor.join(table.id, "Bede")
    with pytest.raises(TableError) as full:
        await supervisor.join(table.id, "Cuthbert")
    assert full.value.code == "table_full"
    assert await supervisor.start(table.id, a.token) == table.seats.commitments()
    assert table.game is None and table.revealing  # Ada committed: her reveal comes first
    await supervisor.reveal(table.id, a.token, "s" * 256)
    assert table.game is not None and table.game.client_seeds == ("s" * 256,)
    with pytest.raises(TableError) as unknown:
        await supervisor.join("0000000000", "X")
    assert unknown.value.code == "unknown_table"


async def test_illegal_and_out_of_turn_actions_get_errors_and_change_nothing(
    supervisor: Supervisor, autojump_clock: trio.testing.MockClock
) -> None:
    table = await supervisor.create_table(2)
    a = await supervisor.join(table.id, "Ada")
    b = await supervisor.join(table.id, "Bede")
    await supervisor.start(table.id, a.token)
    assert table.game is not None
    ada, bede = Client(table, a.token), Client(table, b.token)
    await ada.attach()
    await bede.attach()
    waiting = table.game.deciding()[0]
    other = bede if waiting == 0 else ada
    before = table.game.version
    await other.act({"type": "pick_role", "role": "miller"})
    await other.act({"type": "build", "building": "flax_shed"})
    errors: list[dict[str, Any]] = []
    while len(errors) < 2:
        frame = await other.next()
        assert frame is not None
        if frame["type"] == "error":
            errors.append(frame)
    assert [e["code"] for e in errors] == ["not_your_decision", "not_your_decision"]
    assert "waiting for seat" in errors[0]["message"]
    assert table.game.version == before


def _latency_count(table: Table) -> float:
    return table.metrics.registry.get_sample_value(
        "quaymoor_action_latency_seconds_count") or 0.0


async def test_action_latency_ends_when_the_last_connection_has_the_update(
    supervisor: Supervisor, autojump_clock: trio.testing.MockClock
) -> None:
    """The action-to-broadcast latency of an act is taken when the slowest connection's
    writer hands the resulting update to its socket, not when the table queues it."""
    table = await supervisor.create_table(2)
    a = await supervisor.join(table.id, "Ada")
    b = await supervisor.join(table.id, "Bede")
    await supervisor.start(table.id, a.token)
    ada, bede, watcher = Client(table, a.token), Client(table, b.token), Client(table, None)
    for client in (ada, bede, watcher):
        await client.attach()
    await trio.sleep(1)
    for client in (ada, bede, watcher):  # welcome and the snapshots as others came
        client.read_waiting()
    assert table.game is not None
    mover = ada if 0 in table.game.deciding() else bede
    view = [f for f in mover.frames if f["type"] == "update"][-1]["view"]
    await mover.act(view["legal"][0])
    update = await mover.next()
    assert update is not None and update["version"] > view["version"]
    other = bede if mover is ada else ada
    await other.next()
    assert _latency_count(table) == 0, "taken before the watcher's writer had the update"
    await trio.sleep(0.25)
    await watcher.next()
    assert _latency_count(table) == 1
    assert (table.metrics.registry.get_sample_value("quaymoor_action_latency_seconds_sum")
            or 0.0) >= 0.25


async def test_updates_after_the_first_are_small_deltas(
    supervisor: Supervisor, autojump_clock: trio.testing.MockClock
) -> None:
    """Four-seat games (a player, three bots) watched by a spectator: after each
    connection's first update (a snapshot) the updates are deltas, each rebuilding the
    whole view (``Views`` checks the chain), and the mean update frame is small: a
    player's under 600 B, a spectator's under 400 B (whole views were about 4.6 KB)."""
    mine: list[int] = []
    watched: list[int] = []
    for game in range(3):
        table, joined = await play_now(supervisor, 4, f"Ada{game}")
        me = Client(table, joined.token)
        watcher = Client(table, None)
        await me.attach()
        await watcher.attach()
        await me.play_to_end(choose=game)
        while (await watcher.next()) is not None:
            pass
        for client, sizes in ((me, mine), (watcher, watched)):
            assert client.views.snapshots == 1 and client.views.deltas > 100
            assert table.game is not None
            assert client.views.view == unstructure_with(table.game.view(client.conn.seat),
                                                         SeatView)
            sizes.extend(client.update_sizes)
    player, spectator = sum(mine) / len(mine), sum(watched) / len(watched)
    print(f"mean update frame: player {player:.0f} B, spectator {spectator:.0f} B")
    assert player < 600
    assert spectator < 400


async def test_resync_answers_with_a_snapshot(
    supervisor: Supervisor, autojump_clock: trio.testing.MockClock
) -> None:
    table, joined = await play_now(supervisor, 2, "Ada")
    me = Client(table, joined.token)
    await me.attach()
    while len(me.frames) < 4:
        frame = await me.next()
        assert frame is not None
        if frame["type"] == "update" and frame["view"]["legal"]:
            await me.act(frame["view"]["legal"][0])
    assert me.views.deltas > 0
    await table.inbox.send(ResyncFrom(me.conn))
    while True:
        frame = await me.next()
        assert frame is not None
        if frame["type"] == "update" and me.views.snapshots == 2:
            break
    assert frame["since"] == frame["version"] and frame["events"] == []
    # The view is the table's at the frame's version (the bot may have moved since).
    assert frame["view"]["version"] == frame["version"]
    assert table.game is not None and table.game.version >= frame["version"]

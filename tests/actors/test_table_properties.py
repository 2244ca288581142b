"""The table actor against any sequence of inbox messages from strangers.

Each example runs one supervisor and one table in ``trio.run`` on a ``MockClock`` with
autojump (hypothesis drives a sync test; pytest-trio is not involved), and draws its
steps one at a time (``st.data()``), so that an act can pick one of the legal actions a
connection was just shown: joins with hostile names and seeds, starts with good, bad
and hostile tokens, attaches as seats and spectators (with any ``since``, reading or
never reading), detaches, acts that are legal, illegal or out of turn from any seat or
spectator, time passing (timers run out, bots move), shutdown. Every connection is
drained by a task as the gateway's writer would (or never, to be dropped as too slow).

After the steps: the table never crashed; every request was answered (each is asked
under ``fail_after``: on the autojump clock a hang fails at once); each connection's
updates form one chain (every update after the first continues from the previous one's
``version``); no frame shows another seat's seals or score, the stack's order, the seed
before ``game_ended``, or any seat's token; every frame can go on a socket (UTF-8).

Budget: ``QUAYMOOR_TABLE_EXAMPLES`` examples (25 by default, a few seconds) of up to
``QUAYMOOR_TABLE_STEPS`` steps (40). A longer run (1000 examples of 80 steps: about 80 s)::

    QUAYMOOR_TABLE_EXAMPLES=1000 QUAYMOOR_TABLE_STEPS=80 \
        .venv/bin/pytest tests/actors/test_table_properties.py
"""

from __future__ import annotations

import contextlib
import itertools
import json
import os
from typing import Any
from unittest import mock

import attrs
import trio
import trio.testing
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from quaymoor.actors import table as table_module
from quaymoor.actors.bot_pool import AsyncChooser, BotPool
from quaymoor.actors.connection import Connection
from quaymoor.actors.inbox import ActFrom, Attach, Detach, Reply, Shutdown, TableError
from quaymoor.actors.outlet import Outlet
from quaymoor.actors.supervisor import Supervisor
from quaymoor.actors.table import Table
from quaymoor.bots import make_bot
from quaymoor.config import TableConfig
from quaymoor.protocol.codec import decode_action
from quaymoor.rules.actions import ACTION_TYPES, Action, Load
from quaymoor.rules.fairness import seed_commitment, seed_to_hex
from quaymoor.rules.record import EndReason
from quaymoor.rules.views import SeatView
from tests.patching import Views

EXAMPLES = int(os.environ.get("QUAYMOOR_TABLE_EXAMPLES", "25"))
STEPS = int(os.environ.get("QUAYMOOR_TABLE_STEPS", "40"))
#: Longer than any answer can take on the autojump clock, shorter than a decision timer.
ANSWER_WITHIN = 5.0

NASTY = ["", " ", "ñ", "\udc80", "\ud800x", "\x00", "\u202e\u202d", "\ufeff", "a" * 300,
         "💥" * 30, "\n\t\r", "null", '"', "\\"]
#: Any text at all, lone surrogates included.
TEXT = st.one_of(st.text(st.characters(exclude_categories=()), max_size=30),
                 st.sampled_from(NASTY))
#: A client seed as a stranger may send it: any text (lone surrogates included), or not a
#: string at all.
SEED_VALUE: st.SearchStrategy[object] = st.one_of(
    TEXT, st.none(), st.integers(), st.lists(st.text(max_size=3), max_size=2))
HOSTILE_INTS = st.one_of(st.integers(-3, 6), st.sampled_from(
    [2**31, 2**63, -(2**63), 10**4000, -(10**4000)]))
SINCE = st.one_of(st.none(), HOSTILE_INTS)
WAITS = st.sampled_from([0.0, 0.001, 0.5, 5.0, 45.0, 91.0, 200.0])
#: Any action at all (most illegal now), with hostile barge numbers.
ANY_ACTION: st.SearchStrategy[Action] = st.one_of(
    *[st.builds(cl) for cl in ACTION_TYPES if cl is not Load],
    st.builds(Load, barge=HOSTILE_INTS),
)
#: What a step does, by weight (a shutdown ends the rest of the example's play: rare).
STEP_KINDS = st.sampled_from(
    ["join"] * 2 + ["commit"] * 2 + ["start"] * 2 + ["reveal"] * 2 + ["attach"] * 4
    + ["detach"] * 2 + ["act"] * 12 + ["wait"] * 6 + ["shutdown"])

_ids = itertools.count(1)


class SeededBots(BotPool):
    """Bots whose own choices are fixed, so that hypothesis can replay an example."""

    def __init__(self) -> None:
        super().__init__()
        self._seeds = itertools.count(1)

    def chooser(self, level: str) -> AsyncChooser:
        bot = make_bot(level, seed=next(self._seeds), takebacks=True)

        async def choose(view: SeatView) -> Action | None:
            return bot.choose(view)

        return choose


@attrs.define(eq=False)
class Watcher:
    """One connection attached (or tried) as the gateway would, its frames kept."""

    conn: Connection = attrs.field(repr=lambda c: f"#{c.id} seat {c.seat}")
    reading: bool
    texts: list[str] = attrs.field(factory=list, repr=False)
    attached: bool = False

    async def drain(self) -> None:
        """Read every frame, one at a time, as the gateway's writer takes them."""
        outlet = self.conn.outlet
        while (batch := await outlet.next_batch(whole=False)) is not None:
            self.texts.append(batch.frames[0].text)
            outlet.sent(batch)

    def take_queued(self) -> None:
        """A never-reading connection's frames, once the table is done with it."""
        batch = self.conn.outlet.take()
        if batch is not None:
            self.texts += [frame.text for frame in batch.frames]

    def frames(self) -> list[dict[str, Any]]:
        views = Views()
        return [views.feed(json.loads(t)) for t in self.texts]

    def legal(self) -> list[dict[str, Any]]:
        """The legal actions of the last update this connection was shown."""
        for frame in reversed(self.frames()):
            if frame["type"] == "update":
                legal: list[dict[str, Any]] = frame["view"]["legal"]
                return legal
        return []


@attrs.define
class Run:
    """One example's supervisor, table and connections."""

    sup: Supervisor
    table: Table
    nursery: trio.Nursery
    data: st.DataObject
    tokens: list[str] = attrs.Factory(list)
    watchers: list[Watcher] = attrs.Factory(list)

    async def ask(self, make: Any) -> None:
        """A request through the supervisor, answered within ANSWER_WITHIN."""
        with trio.fail_after(ANSWER_WITHIN):
            with contextlib.suppress(TableError):
                await make()

    async def send(self, message: Any) -> None:
        """A message without an answer (a gateway's or a worker's)."""
        with trio.fail_after(ANSWER_WITHIN):
            with contextlib.suppress(trio.BrokenResourceError, trio.ClosedResourceError):
                await self.table.inbox.send(message)

    def token(self) -> str | None:
        draw = self.data.draw
        choices: list[st.SearchStrategy[str | None]] = [st.none(), TEXT]
        if self.tokens:
            choices += [st.sampled_from(self.tokens)] * 2
        return draw(st.one_of(choices))

    def watcher(self) -> Watcher:
        return self.data.draw(st.sampled_from(self.watchers))

    async def step(self, kind: str) -> None:
        draw, sup, table = self.data.draw, self.sup, self.table
        if kind == "join":
            name = draw(TEXT)

            async def join() -> None:
                self.tokens.append((await sup.join(table.id, name)).token)

            await self.ask(join)
        elif kind == "commit":  # a good commitment to "dice N", or anything at all
            token = self.token()
            chair = table.seats.seat_for_token(token) if token is not None else None
            honest = (seed_commitment(table.id, chair.index, f"dice {chair.index}")
                      if chair is not None else None)
            # the strategies drawn from are the same in every run (the table's id is not)
            commitment = honest if draw(st.booleans()) else draw(SEED_VALUE)
            await self.ask(lambda: sup.commit(table.id, token or "", commitment))
        elif kind == "reveal":
            token = self.token()
            chair = table.seats.seat_for_token(token) if token is not None else None
            own = f"dice {chair.index}" if chair is not None else "dice"
            seed = own if draw(st.booleans()) else draw(SEED_VALUE)
            await self.ask(lambda: sup.reveal(table.id, token or "", seed))
        elif kind == "start":
            token = self.token()
            await self.ask(lambda: sup.start(table.id, token if token is not None else ""))
        elif kind == "attach":
            reading = draw(st.booleans())
            watcher = Watcher(Connection(next(_ids), Outlet(64 if reading else 4)), reading)
            self.watchers.append(watcher)
            if reading:
                self.nursery.start_soon(watcher.drain)
            token, since = self.token(), draw(SINCE)

            async def attach() -> None:
                reply = Reply()
                await sup.ask(sup.get(table.id), Attach(watcher.conn, token, since, reply),
                              reply)
                watcher.attached = True

            await self.ask(attach)
        elif kind == "detach" and self.watchers:
            await self.send(Detach(self.watcher().conn))
        elif kind == "act" and self.watchers:
            sender = self.watcher()
            shown = self.watcher().legal()  # maybe another seat's, or a spectator's: none
            if len(shown) > 0 and self.data.draw(st.booleans(), label="a legal action"):
                action = decode_action(self.data.draw(st.sampled_from(shown)))
            else:
                action = draw(ANY_ACTION)
            await self.send(ActFrom(sender.conn, action, received=trio.current_time()))
        elif kind == "wait":
            await trio.sleep(draw(WAITS))
        elif kind == "shutdown":
            await self.send(Shutdown(draw(st.sampled_from(EndReason))))
        await trio.sleep(0)


def check_connection(watcher: Watcher, table: Table, tokens: list[str]) -> None:
    seed = seed_to_hex(table.seed)
    for text in watcher.texts:
        text.encode("utf-8")  # a lone surrogate here would fail the gateway's send
        assert not any(token in text for token in tokens), "a token went out"
    frames = watcher.frames()
    if watcher.attached:
        assert frames and frames[0]["type"] == "welcome"
    else:
        assert not frames, "a refused attach got frames"
    seat = frames[0]["seat"] if frames else None
    previous: int | None = None
    for frame in frames:
        if frame["type"] == "game_ended":
            assert frame["seed"] == seed
            break
        assert seed not in json.dumps(frame), "the seed before game_ended"
        if frame["type"] != "update":
            continue
        version, since = frame["version"], frame["since"]
        assert since <= version == frame["view"]["version"]
        if since == version:
            assert frame["events"] == []
        if previous is not None:
            assert since == previous, (
                f"a gap: update {since}->{version} after {previous} in "
                f"{[(f['type'], f.get('since'), f.get('version')) for f in frames]}")
        previous = version
        view = frame["view"]
        assert isinstance(view["board"]["stack"], int)
        if view["result"] is None:
            for mat in view["mats"]:
                if mat["seat"] != seat:
                    assert mat["seals"] is None and mat["score"] is None, "hidden seals"


async def scenario(data: st.DataObject) -> None:
    players = data.draw(st.integers(2, 4), label="players")
    bots = data.draw(st.sampled_from(["easy", "normal"]), label="bots")
    config = TableConfig(bot_delay=data.draw(st.sampled_from([0.0, 0.5])), linger_seconds=60.0)
    sup = Supervisor(config, bot_pool=SeededBots())
    seed = data.draw(st.binary(min_size=32, max_size=32), label="seed")
    async with trio.open_nursery() as nursery:
        await nursery.start(sup.run)
        # the seed and the table's id (which the key binds) the same in every run
        with (mock.patch.object(table_module, "new_seed", lambda: seed),
              mock.patch.object(sup, "_new_id", lambda: "0123456789")):
            table = await sup.create_table(players, bots)
        run = Run(sup, table, nursery, data)
        # Most examples seat someone and start, so that the steps meet a game in play.
        for _ in range(data.draw(st.integers(0, players + 1), label="joins")):
            await run.step("join")
        if run.tokens and data.draw(st.integers(0, 9), label="start at once") < 8:
            for _ in range(data.draw(st.integers(0, 3), label="attaches")):
                await run.step("attach")
            await run.ask(lambda: sup.start(table.id, run.tokens[0]))
        for _ in range(data.draw(st.integers(1, STEPS), label="steps")):
            await run.step(data.draw(STEP_KINDS))
        await trio.sleep(1)  # let what is in flight land
        event(f"table {table.state.value}")
        version = table.game.version if table.game is not None else -1
        event("game version " + ("none" if version < 0 else "0-9" if version < 10 else "10+"))
        assert sup.crash_count == 0 and table.crash is None, f"the table crashed: {table.crash}"
        for watcher in run.watchers:
            if not watcher.reading:
                watcher.take_queued()
            check_connection(watcher, table, run.tokens)
        nursery.cancel_scope.cancel()


@settings(max_examples=EXAMPLES, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.data())
def test_no_sequence_of_inbox_messages_crashes_a_table_or_leaks(data: st.DataObject) -> None:
    trio.run(scenario, data, clock=trio.testing.MockClock(autojump_threshold=0))


def test_the_property_harness_sees_a_crash() -> None:
    """The harness is not blind: a table made to raise fails its check."""

    async def crash() -> None:
        sup = Supervisor(TableConfig(bot_delay=0.0))
        async with trio.open_nursery() as nursery:
            await nursery.start(sup.run)
            table = await sup.create_table(2, "easy")
            await table.inbox.send(object())  # type: ignore[arg-type]  # the table raises
            await trio.sleep(1)
            assert sup.crash_count == 1 and table.crash is not None
            nursery.cancel_scope.cancel()

    trio.run(crash, clock=trio.testing.MockClock(autojump_threshold=0))

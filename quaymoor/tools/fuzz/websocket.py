"""Fuzzing over websockets: many frames per connection, many connections at once.

A worker owns some tables (nobody else sends to them while it runs). Each round it picks
one, attaches (as a seat, as another seat, or as a spectator), checks that the catch-up
shows exactly the version and seats it left the table with, sends a batch of frames
(under the per-connection burst), and reads until every frame is answered:

- each frame gets exactly one answer: an ``error``, a ``pong``, a snapshot (or before the
  start a ``lobby``) for a ``resync``, or, for an accepted action, an ``update`` that moves
  the version by one. More version than accepted frames
  means a refused frame changed the table ("state changes from refused inputs");
- an answer that does not come within 2 s is a hung request;
- close 1011 (the handler raised) is a server crash, close 4001 a table crash; the table is
  then made again in the same phase.

A round of ``ws hello fields`` instead opens one connection per case: the first frame is
the case (a mutated hello or anything else) and the answer is a welcome or an error and a
close, within 2 s.
"""

from __future__ import annotations

import json
from typing import Any, Final

import attrs
import trio
import trio_websocket

from quaymoor.tools.fuzz.checks import Input
from quaymoor.tools.fuzz.context import Run
from quaymoor.tools.fuzz.strategies import Case
from quaymoor.tools.fuzz.tables import SetupError, Target, make_table, seats_of
from quaymoor.tools.fuzz.wire import ANSWER_SECONDS, HttpClient, Hung, open_ws, receive

#: Frames per connection: under the burst of 60 (the hello does not count).
BATCH: Final = 55
_CATEGORIES: Final = ("ws message fields", "ws action fields", "ws raw frames",
                      "ws hello fields")


@attrs.define
class Answers:
    """What came back on one connection after its catch-up."""

    answered: int = 0
    resyncs: int = 0  #: snapshots (or lobbies) that answered a ``resync``
    #: ``chat_line`` and ``rematch_seat``: an accepted ``chat`` or ``rematch`` (neither
    #: moves the version)
    chats: int = 0
    errors: int = 0
    pongs: int = 0
    moved: int = 0  #: versions the table moved on
    last_version: int | None = None
    seats: list[tuple[Any, ...]] | None = None
    close: int | None = None
    texts: list[str] = attrs.field(factory=list)


async def worker(run: Run, tables: list[Target], http: HttpClient) -> None:
    """Rounds until the websocket categories' budgets are spent."""
    while tables:
        open_ = [c for c in _CATEGORIES if run.spent[c] < run.budget[c]]
        if not open_:
            return
        category = run.rng.choices(open_, [run.budget[c] for c in open_])[0]
        table = run.rng.choice(tables)
        began = trio.current_time()
        try:
            if category == "ws hello fields":
                gone = await _hello_round(run, table)
            else:
                gone = await _batch_round(run, table, category)
        except Hung as exc:
            run.tally.fail("hung requests", str(exc), table.where, [])
            table.seats = []  # what came of the batch is unknown: no check next time
            gone = False
        run.busy[category] += trio.current_time() - began
        if gone:
            tables.remove(table)
            await _replace(run, tables, table, http)


async def _replace(run: Run, tables: list[Target], lost: Target, http: HttpClient) -> None:
    """A new table in the phase of one that crashed (with fewer actions to get there)."""
    try:
        table = await make_table(http, run.port, lost.phase, run.rng, max_actions=80)
    except (SetupError, Hung, OSError, trio_websocket.ConnectionClosed,
            trio_websocket.HandshakeError, trio.TooSlowError, KeyError):
        return
    run.remember(table)
    tables.append(table)


def _case(run: Run, category: str) -> Case:
    maker = run.maker
    if category == "ws action fields":
        return maker.act()
    if category == "ws raw frames":
        return maker.raw()
    return maker.message()


async def _hello_round(run: Run, table: Target) -> bool:
    """One fuzzed first frame on a fresh connection. Returns True when the table is gone."""
    if not run.take("ws hello fields", 1):
        return False
    case = run.maker.first_frame()
    token = run.rng.choice([*table.seat_tokens(), None])
    sent = run.render(case, run.slots(table, token))
    run.tally.tried_one("ws hello fields", case.field, case.kind)
    inputs = [Input("ws-first", case.field, case.kind, sent)]
    async with open_ws(run.port) as ws:
        try:
            await ws.send_message(sent)
            while True:
                text = await receive(ws, ANSWER_SECONDS)
                if text is None:
                    run.tally.fail("hung requests", "a first frame had no answer in 2 s",
                                   table.where, inputs)
                    break
                run.secrets.scan_frame(text, f"an answer to a hello ({table.where})",
                                       str(sent))
                kind = json.loads(text).get("type")
                run.tally.outcomes[f"ws hello: {kind}"] += 1
                if kind in ("lobby", "update", "error", "game_ended"):
                    break
        except trio_websocket.ConnectionClosed as exc:
            return _closed(run, exc, table, inputs, "a first frame")
        finally:
            await ws.aclose()
    return False


def _closed(run: Run, exc: trio_websocket.ConnectionClosed, table: Target,
            inputs: list[Input], what: str) -> bool:
    """Count a close; True when the table is gone (crashed or closed)."""
    code = exc.reason.code if exc.reason else None
    run.tally.outcomes[f"ws close {code}"] += 1
    if code == 1011:
        run.tally.fail("server crashes", f"{what} closed the connection with 1011",
                       table.where, inputs)
    if code == 4001:
        run.tally.fail("table crashes", f"{what} crashed the table (close 4001)",
                       table.where, inputs)
    return code in (4000, 4001)


async def _batch_round(run: Run, table: Target, category: str) -> bool:
    """Attach, check the catch-up, send a batch, read every answer. True when gone."""
    count = run.take(category, run.rng.randint(BATCH // 2, BATCH))
    if not count:
        return False
    token = run.rng.choice([*table.seat_tokens(), *table.seat_tokens(), None])
    slots = run.slots(table, token)
    cases = [_case(run, category) for _ in range(count)]
    frames = [run.render(c, slots) for c in cases]
    inputs = [Input("ws", c.field, c.kind, f) for c, f in zip(cases, frames, strict=True)]
    for c in cases:
        run.tally.tried_one(category, c.field, c.kind)
    sent_text = json.dumps(slots) + "".join(f for f in frames if isinstance(f, str))
    where = f"{table.where}, attached as {'a seat' if token else 'a spectator'}"
    async with open_ws(run.port) as ws:
        answers = Answers()
        try:
            hello = json.dumps({"type": "hello", "table": table.id, "token": token})
            await ws.send_message(hello)
            if not await _catch_up(run, ws, table, where, hello):
                return True
            for f in frames:
                await ws.send_message(f)
            await _read_answers(run, ws, answers, count, where=where, sent=sent_text)
        except trio_websocket.ConnectionClosed as exc:
            answers.close = exc.reason.code if exc.reason else None
            table.seats = []  # answers may have been cut short: no check next time
            if _closed(run, exc, table, inputs, f"a batch of {count} frames"):
                return True
        finally:
            await ws.aclose()
    _judge(run, table, answers, count=count, inputs=inputs, where=where)
    return False


async def _catch_up(run: Run, ws: trio_websocket.WebSocketConnection, table: Target,
                    where: str, hello: str) -> bool:
    """Read the welcome and the catch-up; the table must be as it was left. False when
    the table is gone."""
    while True:
        text = await receive(ws, ANSWER_SECONDS)
        if text is None:
            raise Hung(f"a valid hello had no welcome and catch-up in 2 s ({where})")
        msg = json.loads(text)
        run.secrets.scan_frame(text, where, hello)
        kind = msg.get("type")
        if kind == "error":
            return False
        if kind in ("lobby", "update"):
            version = msg.get("version", 0)
            seats = seats_of(msg)
            if table.seats and (version, seats) != (table.version, table.seats):
                run.tally.fail(
                    "state changes from refused inputs",
                    f"the table moved from version {table.version} {table.seats} to "
                    f"{version} {seats} with no input accepted", where, [])
            table.version, table.seats = version, seats
            return True


async def _read_answers(run: Run, ws: trio_websocket.WebSocketConnection, answers: Answers,
                        count: int, *, where: str, sent: str) -> None:
    """Until ``count`` answers came (and a moment more for a surplus update)."""
    while answers.answered < count:
        text = await receive(ws, ANSWER_SECONDS)
        if text is None:
            run.tally.fail("hung requests", f"{count - answers.answered} of {count} frames "
                           "had no answer in 2 s", where, [], count - answers.answered)
            return
        _note(run, answers, text, where, sent)
    while (text := await receive(ws, 0.02)) is not None:
        _note(run, answers, text, where, sent)


def _note(run: Run, answers: Answers, text: str, where: str, sent: str) -> None:
    run.secrets.scan_frame(text, where, sent)
    msg = json.loads(text)
    kind = msg.get("type")
    run.tally.outcomes[f"ws answer: {kind}" + (f" {msg.get('code')}" if kind == "error"
                                               else "")] += 1
    if kind == "error":
        answers.errors += 1
        answers.answered += 1
    elif kind == "pong":
        answers.pongs += 1
        answers.answered += 1
    elif kind == "update" and "view" in msg:  # a snapshot answers a resync
        # Its events may reach back past versions already seen (a resync's ``since``):
        # the table moved only from the last version seen.
        if answers.last_version is not None:
            answers.moved += max(0, msg["version"] - answers.last_version)
        answers.last_version = msg["version"]
        answers.answered += 1
        answers.resyncs += 1
        if "seats" in msg:
            answers.seats = seats_of(msg)
    elif kind == "update" and msg["version"] != msg["since"]:
        answers.moved += msg["version"] - msg["since"]
        answers.answered += 1
        answers.last_version = msg["version"]
        if "seats" in msg:  # a delta leaves unchanged seats out
            answers.seats = seats_of(msg)
    elif kind == "update":
        if "seats" in msg:  # a delta leaves unchanged seats out
            answers.seats = seats_of(msg)
    elif kind == "lobby":  # before the start, the lobby answers a resync
        answers.answered += 1
        answers.resyncs += 1
    elif kind in ("chat_line", "rematch_seat"):  # an accepted chat line or rematch
        answers.answered += 1
        answers.chats += 1
    elif kind in ("explanation", "pace"):  # "?" explained, or the bots' pace set
        answers.answered += 1


def _judge(run: Run, table: Target, answers: Answers, *, count: int,
           inputs: list[Input], where: str) -> None:
    """Accepted frames = answers that were not errors or pongs; the table may have moved
    by exactly that many versions."""
    accepted = count - answers.errors - answers.pongs - answers.resyncs - answers.chats
    if answers.close is None and answers.moved > max(0, accepted):
        run.tally.fail("state changes from refused inputs",
                       f"{answers.errors} of {count} frames were refused, yet the version "
                       f"moved by {answers.moved}", where, inputs)
    if answers.last_version is not None:
        table.version = answers.last_version
    if answers.seats is not None and answers.moved:
        table.seats = answers.seats

"""Stateful fuzzing: hello, join, commit, reveal, act, reconnect, spectate and start in any order,
from any seat, with valid and invalid tokens.

A sequence runs on a table of its own: a new one (not started), or the last sequence's
table, further on. Each step is one input. After every step the table must still be open
(else: a table crash, with the steps so far as the reproducer), and after a refused HTTP
step a spectator must see the same version, seats and start as before it.
"""

from __future__ import annotations

import json
from typing import Any, Final

import trio
import trio_websocket

from quaymoor.protocol.patch import ViewKeeper
from quaymoor.rules.fairness import seed_commitment
from quaymoor.tools.fuzz.checks import Input
from quaymoor.tools.fuzz.context import Run
from quaymoor.tools.fuzz.tables import SetupError, Target, make_table, snapshot
from quaymoor.tools.fuzz.values import dumps, kind_of
from quaymoor.tools.fuzz.wire import ANSWER_SECONDS, HttpClient, Hung, open_ws, receive

STEPS: Final = ("join", "join", "commit", "start", "reveal", "act", "act", "act",
                "reconnect", "spectate")
_LOBBY_STEPS: Final = ("join", "commit", "start", "reveal")
LENGTH: Final = (4, 14)


async def worker(run: Run, http: HttpClient) -> None:
    """Sequences until the ``sequences`` budget is spent."""
    table: Target | None = None
    failed = 0
    while run.spent["sequences"] < run.budget["sequences"] and failed < 20:
        if table is None or run.rng.random() < 0.5:
            try:
                table = await make_table(http, run.port, "lobby", run.rng, 0)
            except (SetupError, OSError, Hung):
                failed += 1  # a crash in flight can hang the setup too: try again
                continue
            run.remember(table)
        began = trio.current_time()
        await _sequence(run, http, table)
        run.busy["sequences"] += trio.current_time() - began


def _token(run: Run, table: Target) -> Any:
    """A seat's token, another table's, a made-up one, a hostile value or none."""
    rng = run.rng
    roll = rng.random()
    if roll < 0.5 and table.seat_tokens():
        return rng.choice(table.seat_tokens())
    if roll < 0.65:
        return run.slots(table, None)["foreign_token"]
    if roll < 0.8:
        return None
    return run.maker.hostile()


async def _sequence(run: Run, http: HttpClient, table: Target) -> None:
    steps: list[Input] = []
    for _ in range(run.rng.randint(*LENGTH)):
        if not run.take("sequences", 1):
            return
        step = run.rng.choice(STEPS)
        before = await snapshot(run.port, table.id)
        if before is None:
            return
        try:
            accepted, kind, text = await _step(run, http, table, step)
        except Hung as exc:
            run.tally.fail("hung requests", str(exc), table.where, steps)
            accepted, kind, text = True, "hung", f"(the {step} step had no answer)"
        channel = "http" if step in _LOBBY_STEPS else "ws-first"
        steps.append(Input(channel if kind != "hung" else "note", f"sequence.{step}", kind,
                           text))
        run.tally.tried_one("sequences", f"sequence.{step}", kind)
        after = await snapshot(run.port, table.id)
        if after is None:
            run.tally.fail("table crashes", f"the table was gone after {step}", table.where,
                           steps)
            return
        if not accepted and after != before:
            run.tally.fail("state changes from refused inputs",
                           f"a refused {step} changed {before} to {after}", table.where,
                           steps)
        table.version = after[0]


async def _step(run: Run, http: HttpClient, table: Target,
                step: str) -> tuple[bool, str, str | bytes]:
    """Run one step; (accepted, kind of its odd value, what was sent)."""
    rng = run.rng
    if step in _LOBBY_STEPS:
        body: dict[str, Any] = {}
        if step == "join":
            body["name"] = rng.choice(("Ada", run.maker.hostile(), rng.choice(
                run.maker.pools.texts)))
        else:
            body["token"] = _token(run, table)
        if step == "commit":  # "my dice" at seat 0, or hostile
            body["commitment"] = rng.choice((
                seed_commitment(table.id, 0, "my dice"), None, run.maker.hostile(),
                rng.choice(run.maker.pools.texts)))
        if step == "reveal":
            body["client_seed"] = rng.choice(("my dice", None, run.maker.hostile(),
                                              rng.choice(run.maker.pools.texts)))
        raw = dumps(body).encode("utf-8", "surrogatepass")
        path = f"/api/tables/{table.id}/{step}"
        request = f"POST {path}\n".encode() + raw
        try:
            code, answer = await http.request("POST", path, raw)
        except OSError as exc:
            run.tally.fail("server crashes", f"POST {path}: {exc}", table.where,
                           [Input("http", step, "", f"POST {path}\n".encode() + raw)])
            return True, "failed", request
        run.tally.outcomes[f"sequence {step}: {code}"] += 1
        if code >= 500:
            run.tally.fail("server crashes", f"POST {path} answered {code}", table.where,
                           [Input("http", step, "", f"POST {path}\n".encode() + raw)])
        issued = ""
        if step == "join" and code == 200:
            token = json.loads(answer).get("token")
            if isinstance(token, str):
                seat = json.loads(answer).get("seat", 0)
                if isinstance(seat, int) and 0 <= seat < table.players:
                    table.tokens[seat] = token
                run.tokens[token] = f"a seat of table {table.id}"
                issued = token
        if step == "start" and code == 200:
            table.started = True
        run.secrets.scan_body(answer, f"POST {path}", issued + raw.decode("utf-8", "replace"))
        odd = [v for k, v in body.items() if k != "token" or step == "start"]
        return 200 <= code < 300, kind_of(odd[0]) if odd else "valid", request
    token = None if step == "spectate" else _token(run, table)
    since = table.version if step == "reconnect" else rng.choice((None, 0, table.version))
    return await _attach(run, table, token, since, acts=rng.randint(0, 3) if step == "act"
                         else 0)


async def _attach(run: Run, table: Target, token: Any, since: Any,
                  acts: int) -> tuple[bool, str, str | bytes]:
    """Hello, then ``acts`` actions (legal ones from the view when there are some)."""
    hello = dumps({"type": "hello", "table": table.id, "token": token, "since": since})
    sent = hello
    moved = False
    async with open_ws(run.port) as ws:
        try:
            await ws.send_message(hello)
            view: dict[str, Any] | None = None
            keeper = ViewKeeper()
            answered = 0
            while True:
                text = await receive(ws, ANSWER_SECONDS)
                if text is None:
                    if answered == 0 or acts:
                        raise Hung(f"a hello and {acts} actions had no answer in 2 s")
                    break
                answered += 1
                run.secrets.scan_frame(text, f"a sequence on {table.where}", sent)
                msg = json.loads(text)
                if msg["type"] == "update":
                    view = keeper.feed(msg)
                    moved = moved or (msg["version"] != msg["since"] and acts == 0)
                if msg["type"] in ("error", "game_ended") or (msg["type"] in (
                        "update", "lobby") and acts == 0):
                    break
                if msg["type"] in ("update", "lobby", "error") and acts:
                    legal = (view or {}).get("legal") or []
                    action = run.rng.choice(legal) if legal and run.rng.random() < 0.7 \
                        else run.maker.action_value()
                    frame = dumps({"type": "act", "action": action})
                    sent += frame
                    await ws.send_message(frame)
                    acts -= 1
        except trio_websocket.ConnectionClosed as exc:
            code = exc.reason.code if exc.reason else None
            run.tally.outcomes[f"sequence close {code}"] += 1
            if code == 1011:
                run.tally.fail("server crashes", "a sequence's connection closed with 1011",
                               table.where, [Input("ws-first", "hello", kind_of(token), sent)])
        finally:
            await ws.aclose()
    return True, kind_of(token), sent

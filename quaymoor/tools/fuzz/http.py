"""Fuzzing the HTTP API from its OpenAPI document, over keep-alive connections.

The route table is the document the server serves (``GET /api/openapi.json``, walked by
``schema.routes``): for every operation with a body, its path and its fields. A batch
sends bodies cased like messages (``Maker.body``) to routes aimed at the worker's own
tables (or at ids that are no table), plus the read-only routes with odd ids and queries.
Every answer must come within 2 s and be no 5xx. After a batch, a spectator's look at each
of the worker's tables must show it as the worker expects: a table whose requests were all
refused keeps its version, seats and whether it started, and no table has vanished.

Creating tables is an accepted input like any other, but each one lives for an hour: the
create routes are taken off the list after ``CREATE_BUDGET`` tables.
"""

from __future__ import annotations

import json
from typing import Any, Final

import trio

from quaymoor.tools.fuzz.checks import Input
from quaymoor.tools.fuzz.context import Run
from quaymoor.tools.fuzz.schema import Shape, get_routes
from quaymoor.tools.fuzz.strategies import PATH_IDS
from quaymoor.tools.fuzz.tables import Target, make_table, snapshot
from quaymoor.tools.fuzz.wire import HttpClient, Hung

BATCH: Final = 20
CREATE_BUDGET: Final = 150
_CREATES: Final = ("/api/tables", "/api/play-now")
_ISSUERS: Final = ("join", "play_now")


async def status(http: HttpClient) -> dict[str, Any]:
    code, answer = await http.json("GET", "/status.json")
    if code != 200 or not isinstance(answer, dict):
        raise OSError(f"/status.json answered {code}")
    return answer


async def worker(run: Run, http: HttpClient, routes: tuple[Shape, ...],
                 document: dict[str, Any]) -> None:
    """Batches until the ``http body fields`` budget is spent."""
    mine: list[Target] = []
    reads = get_routes(document)
    for phase in ("lobby", "lobby", "lobby", "pick_role"):
        table = await make_table(http, run.port, phase, run.rng, max_actions=0)
        run.remember(table)
        mine.append(table)
    known = {t.id: await snapshot(run.port, t.id) for t in mine}
    while (count := run.take("http body fields", BATCH)) > 0:
        began = trio.current_time()
        changed: set[str] = set()
        sent: list[Input] = []
        for _ in range(count):
            await _one(run, http, routes=routes, reads=reads, mine=mine, changed=changed,
                       sent=sent)
        for table in list(mine):
            facts = await snapshot(run.port, table.id)
            if facts is None:
                run.tally.fail("table crashes", "a batch of requests ended the table",
                               table.where, sent)
                mine.remove(table)
                replacement = await make_table(http, run.port, table.phase, run.rng, 0)
                run.remember(replacement)
                mine.append(replacement)
                known[replacement.id] = await snapshot(run.port, replacement.id)
                continue
            if facts != known.get(table.id) and table.id not in changed:
                run.tally.fail("state changes from refused inputs",
                               f"every request was refused, yet {known.get(table.id)} "
                               f"became {facts}", table.where, sent)
            known[table.id] = facts
        run.busy["http body fields"] += trio.current_time() - began


async def _one(run: Run, http: HttpClient, *, routes: tuple[Shape, ...],
               reads: tuple[tuple[str, str], ...], mine: list[Target], changed: set[str],
               sent: list[Input]) -> None:
    rng = run.rng
    table = rng.choice(mine)
    usable = [r for r in routes if r.path not in _CREATES or run.created < CREATE_BUDGET]
    if rng.random() < 0.1:
        method, template = rng.choice(reads)
        route = None
        field, kind, body = f"{method} {template}", "read", None
    else:
        route = rng.choice(usable)
        method, template = route.method, route.path
        case = run.maker.body(route)
        token = rng.choice([*table.seat_tokens(), None])
        rendered = run.render(case, run.slots(table, token))
        body = rendered if isinstance(rendered, bytes) else rendered.encode(
            "utf-8", "surrogatepass")
        field, kind = case.field, case.kind
    target_id = table.id if rng.random() < 0.85 else rng.choice(PATH_IDS)
    path = template.replace("{table}", target_id).replace("{game}", target_id)
    if route is None and rng.random() < 0.5:
        path += rng.choice(("?limit=", "?limit=0", "?limit=101", "?step=-1",
                            "?step=99999999999999999999", "?limit=\u00f1", "?step=1e999"))
    run.tally.tried_one("http body fields", field, kind)
    request = Input("http", field, kind, f"{method} {path}\n".encode() + (body or b""))
    sent.append(request)
    where = f"{method} {template} on {table.where}"
    try:
        code, answer = await http.request(method, path, body)
    except Hung:
        run.tally.fail("hung requests", f"{method} {path}: no answer in 2 s", where,
                       [request])
        return
    except OSError as exc:
        run.tally.fail("server crashes", f"the connection failed: {exc}", where,
                       [request])
        return
    run.tally.outcomes[f"http {code}"] += 1
    if code >= 500:
        run.tally.fail("server crashes", f"{method} {path} answered {code}", where,
                       [request])
    issued = ""
    if 200 <= code < 300 and route is not None:
        changed.add(target_id)
        if template in _CREATES:
            run.created += 1
            made = json.loads(answer)
            if isinstance(made, dict) and isinstance(made.get("table"), str):
                run.other_ids.append(made["table"])
        issued = _issued(run, answer, route.name)
    run.secrets.scan_body(answer, f"{method} {template}", issued + str(body))


def _issued(run: Run, answer: bytes, operation: str) -> str:
    """The token an accepted join or play-now issued (its own answer is no leak)."""
    if operation not in _ISSUERS:
        return ""
    try:
        data = json.loads(answer)
    except ValueError:
        return ""
    token = data.get("token") if isinstance(data, dict) else None
    if isinstance(token, str):
        run.tokens[token] = f"seat {data.get('seat')} of table {data.get('table')}"
        return token
    return ""

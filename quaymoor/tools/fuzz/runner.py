"""``quaymoor fuzz``: start a server, make tables in every phase, fuzz them, report.

1. A server on loopback, bots and timers slowed to a standstill (nothing changes at a
   table unless an input is accepted), its archive in a temporary folder.
2. The route table from ``GET /api/openapi.json``; value pools from hypothesis.
3. Tables in every phase; then websocket workers (each owning some tables), HTTP workers
   and a sequence worker run at once until the budget of every category is spent; then the
   fixed probes.
4. ``crash_count`` from ``/status.json``; failing batches reduced to one input each;
   schemathesis against the live document, with all its checks.
5. SIGTERM; every game's seed read from the archive (a second server on it); every frame
   and body received checked for those seeds and for tokens of other seats.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Final

import trio

from quaymoor.tools.fuzz import http as http_fuzz
from quaymoor.tools.fuzz import probes, reduce, sequences, websocket
from quaymoor.tools.fuzz.context import Run
from quaymoor.tools.fuzz.report import render
from quaymoor.tools.fuzz.schema import routes
from quaymoor.tools.fuzz.strategies import Maker, pools
from quaymoor.tools.fuzz.tables import TARGETS, Target, make_table
from quaymoor.tools.fuzz.wire import HOST, HttpClient

WS_WORKERS: Final = 8
#: Many, though they use little CPU: a hung request holds its worker for 2 s.
HTTP_WORKERS: Final = 4
SEQUENCE_WORKERS: Final = 3
#: The reducer's time, at most (what it has not reduced is shown as sent).
REDUCE_SECONDS: Final = 20.0


def start_server(archive: Path) -> tuple[subprocess.Popen[str], int]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "quaymoor", "serve", "--host", HOST, "--port", "0",
         "--bot-delay", "3600", "--decision-seconds", "3600", "--archive", str(archive),
         # every worker is on this machine: one address for thousands of tables
         "--no-address-limits"],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"})
    assert proc.stdout is not None
    line = proc.stdout.readline()
    if "serving on" not in line:
        proc.kill()
        raise SystemExit(f"quaymoor fuzz: the server did not start: {line!r}")
    return proc, int(line.rsplit(":", 1)[1].strip().strip("/"))


def stop_server(proc: subprocess.Popen[str]) -> int:
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
    try:
        return proc.wait(30)
    except subprocess.TimeoutExpired:
        proc.kill()
        return proc.wait()


async def _setup(run: Run, per_phase: int) -> list[Target]:
    made: list[Target] = []
    http = HttpClient(run.port)

    async def one(phase: str, with_bots: bool, salt: int) -> None:
        rng = random.Random(salt)
        client = HttpClient(run.port)
        cap = 2000 if phase == "game_over" else 400
        made.append(await make_table(client, run.port, phase, rng, cap, with_bots=with_bots))
        await client.aclose()

    async with trio.open_nursery() as nursery:
        salt = 0
        for _ in range(per_phase):
            for phase in TARGETS:
                salt += 1
                nursery.start_soon(one, phase, False, run.rng.randrange(1 << 30) + salt)
            nursery.start_soon(one, "bots", True, run.rng.randrange(1 << 30))
    await http.aclose()
    for table in made:
        run.remember(table)
    return made


async def _fuzz(port: int, inputs: int, salt: int, reduce_seconds: float) -> tuple[Run, int]:
    http = HttpClient(port)
    code, document = await http.json("GET", "/api/openapi.json")
    if code != 200 or not isinstance(document, dict):
        raise SystemExit(f"quaymoor fuzz: GET /api/openapi.json answered {code}")
    size = min(2000, max(300, inputs // 25))
    value_pools = await trio.to_thread.run_sync(pools, size, salt)
    rng = random.Random(salt)
    run = Run.for_inputs(port, inputs, Maker(random.Random(salt + 1), value_pools), rng)
    mark = time.monotonic()
    tables = await _setup(run, 2 if inputs >= 20_000 else 1)
    run.timings["setting up tables"] = time.monotonic() - mark
    mark = time.monotonic()
    route_table = routes(document)
    run.maker.learn(route_table)
    async with trio.open_nursery() as nursery:
        owned = [tables[i::WS_WORKERS] for i in range(WS_WORKERS)]
        for mine in owned:
            nursery.start_soon(websocket.worker, run, mine, HttpClient(port))
        for _ in range(HTTP_WORKERS):
            nursery.start_soon(http_fuzz.worker, run, HttpClient(port), route_table,
                               document)
        for _ in range(SEQUENCE_WORKERS):
            nursery.start_soon(sequences.worker, run, HttpClient(port))
    if (missing := inputs - run.tally.total - len(probes.TRAVERSALS)) > 0:
        # What a worker could not spend (its tables kept crashing), over websockets.
        run.budget["ws message fields"] += missing
        await websocket.worker(run, [t for mine in owned for t in mine], HttpClient(port))
    run.timings["fuzzing"] = time.monotonic() - mark
    mark = time.monotonic()
    await probes.run_probes(run, await make_table(http, port, "pick_role", rng, 0))
    _, status = await http.json("GET", "/status.json")
    crashes = int(status["crash_count"]) if isinstance(status, dict) else -1
    run.timings["probes"] = time.monotonic() - mark
    mark = time.monotonic()
    owners = {token: table for table in run.tables for token in table.seat_tokens()}
    with trio.move_on_after(reduce_seconds):
        await reduce.reduce_all(port, run.tally, owners)
    run.timings["reducing failures"] = time.monotonic() - mark
    await http.aclose()
    return run, crashes


def schemathesis(port: int, examples: int) -> tuple[int, str]:
    """schemathesis, with all its checks, against the live document: (failures, its
    summary lines)."""
    exe = shutil.which("schemathesis") or str(Path(sys.executable).parent / "schemathesis")
    if not Path(exe).exists():
        return 1, "schemathesis is not installed: pip install -e '.[dev]'"
    cmd = [exe, "run", f"http://{HOST}:{port}/api/openapi.json", "--checks",
           "all", "--max-examples", str(examples),
           "--request-timeout", "2", "--phases", "examples,coverage,fuzzing", "--workers",
           "1", "--seed", "1", "--no-color", "--suppress-health-check", "all"]
    with tempfile.TemporaryDirectory(prefix="quaymoor-schemathesis-") as cwd:  # its cache
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=600, check=False,
                              cwd=cwd)
    lines = [ln for ln in done.stdout.splitlines() if ln.strip()]
    keep = [ln for ln in lines if any(w in ln for w in (
        "passed", "failed", "error", "Failed", "Server error", "Response violates",
        "GET /", "POST /", "Test cases", "Seed", "curl"))]
    text = "\n".join(["$ schemathesis " + " ".join(cmd[1:]),
                      *(ln if len(ln) < 200 else ln[:197] + "..." for ln in keep[-40:])])
    return (0 if done.returncode == 0 else 1), text


async def _seeds(port: int, ids: list[str]) -> dict[str, str]:
    """Every archived game's seed (a seed is secret until its game ends)."""
    http = HttpClient(port)
    found: dict[str, str] = {}
    for table_id in ids:
        code, answer = await http.json("GET", f"/api/games/{table_id}")
        if code == 200 and isinstance(answer, dict) and isinstance(answer.get("seed"), str):
            found[answer["seed"]] = table_id
    await http.aclose()
    return found


def fuzz_command(inputs: int = 100_000, *, seed: int = 0, schemathesis_examples: int = 30,
                 reduce_seconds: float = REDUCE_SECONDS) -> int:
    """Run it all and print the report; 0 when every column is 0."""
    began = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="quaymoor-fuzz-") as tmp:
        archive = Path(tmp) / "fuzz.sqlite3"
        server, port = start_server(archive)
        try:
            run, crashes = trio.run(_fuzz, port, inputs, seed, reduce_seconds)
            seconds = time.monotonic() - began
            st_failures, st_text = (schemathesis(port, schemathesis_examples)
                                    if schemathesis_examples else (0, ""))
        finally:
            exit_code = stop_server(server)
        if exit_code != 0:
            run.tally.fail("server crashes", f"the server exited with {exit_code} on SIGTERM",
                           "shutdown", [])
        again, port = start_server(archive)
        try:
            ids = [t.id for t in run.tables] + run.other_ids
            seeds = trio.run(_seeds, port, ids)
        finally:
            stop_server(again)
    leaks = run.secrets.leaks(seeds, run.tokens)
    columns: dict[str, Any] = {**run.tally.counts, "table crashes": crashes,
                               "leaked secrets": len(leaks),
                               "schemathesis failures": st_failures}
    print(render(run.tally, seconds, columns=columns, schemathesis=st_text, leaks=leaks,
                 timings=run.timings, busy=run.busy))
    print(f"\nseeds read back from the archive: {len(seeds)}; tokens watched: "
          f"{len(run.tokens)}; frames and bodies scanned for them: all")
    print(json.dumps({"inputs": run.tally.total, "seconds": round(seconds, 1), **columns}))
    return 1 if any(v != 0 for v in columns.values()) else 0

"""A ``quaymoor serve`` process killed mid-game with SIGKILL loses nothing: started again
on the same archive it ends every game it was playing as "shutdown", seed revealed, with
every action its players saw, a record that verifies (``verify_record`` and ``quaymoor
verify``); a player reconnecting with its old table id and seat token is told the game
ended, with its record. No seed reached anyone before the end."""

from __future__ import annotations

import json
import signal
import sqlite3
import subprocess
import sys
from functools import partial
from pathlib import Path
from typing import Any

import trio

from quaymoor.rules.record import GameRecord
from quaymoor.rules.verify import verify_record
from quaymoor.store.sqlite_live import GATHER_SECONDS, live_path
from tests.actors.test_end_to_end import (
    Client,
    connect,
    create_table,
    http,
    join,
    play_now,
    seed_matches,
    start,
)
from tests.server_process import ROOT, start_server

LIMIT = 60
#: The clients stop acting once every table has reached this version.
PLAYED = 8
#: Seconds with no new update at any table before the kill: every action the players saw
#: has been through a batch of the live store (``GATHER_SECONDS``), which is what a kill
#: may take (README: what a single process keeps on SIGKILL).
QUIET = 0.6


async def test_sigkill_loses_no_game_and_a_restart_ends_and_archives_them(
    tmp_path: Path,
) -> None:
    assert QUIET > 10 * GATHER_SECONDS
    archive = tmp_path / "var" / "games.sqlite3"
    with trio.fail_after(LIMIT):
        first = await trio.to_thread.run_sync(
            lambda: start_server(archive, "--bot-delay", "0.1", "--decision-seconds", "60"))
        seats: list[dict[str, Any]] = []  #: one per client: table, token, fingerprint
        try:
            port = first.port
            for name in ("Ada", "Bede"):  # against bots
                solo = await play_now(port, players=3, name=name)
                seats.append({"table": solo["table"], "token": solo["token"], "players": 3,
                              "fingerprint": solo["fingerprint"]})
            made = await create_table(port, 2)  # two people, no bot
            tokens = [await join(port, made["table"], name) for name in ("Cy", "Di")]
            await start(port, made["table"], tokens[0])
            seats += [{"table": made["table"], "token": t, "players": 2,
                       "fingerprint": made["fingerprint"]} for t in tokens]

            async with (connect(port) as a, connect(port) as b, connect(port) as c,
                        connect(port) as d):
                clients: list[Client] = [a, b, c, d]
                async with trio.open_nursery() as nursery:
                    for seat, client in zip(seats, clients, strict=True):
                        await client.hello(seat["table"], seat["token"])
                        nursery.start_soon(_play_then_read, client)
                    await _until_quiet(clients)
                    seen = {s["table"]: 0 for s in seats}
                    for seat, client in zip(seats, clients, strict=True):
                        seen[seat["table"]] = max(seen[seat["table"]], client.last_version())
                    assert min(seen.values()) >= PLAYED
                    for table in seen:  # running: no record, no seed
                        running = await http(port, "GET", f"/games/{table}.json")
                        assert running.status == 404 and "seed" not in json.dumps(running.body)
                    # The seeds are on the server's disk, beside the archive, and nowhere else.
                    kept = _live_seeds(archive)
                    assert set(kept) == set(seen)
                    first.proc.send_signal(signal.SIGKILL)
                    code = await trio.to_thread.run_sync(lambda: first.proc.wait(timeout=10))
                    assert code == -signal.SIGKILL
                    nursery.cancel_scope.cancel()
            for client in clients:
                told = json.dumps(client.frames)
                assert not any(seed in told for seed in kept.values())
                assert not client.of_type("game_ended")
        finally:
            first.stop()

        second = await trio.to_thread.run_sync(lambda: start_server(archive, "--bot-delay", "0"))
        try:
            lost = 0
            for table, version in seen.items():
                reply = await http(second.port, "GET", f"/games/{table}.json")
                assert reply.status == 200, reply
                text = json.dumps(reply.body)
                record = GameRecord.from_json(text)
                assert record.game == table and record.end_reason == "shutdown"
                assert record.seed == kept[table]
                seat = next(s for s in seats if s["table"] == table)
                assert record.fingerprint == seat["fingerprint"]
                assert seed_matches(record.seed, seat)  # the table's fingerprint (fair-2)
                lost += max(0, version - len(record.actions))
                assert len(record.actions) == version  # every action played, none more
                verdict = verify_record(record)
                assert verdict.ok and "not finished (ended: shutdown)" in verdict.message
                path = tmp_path / f"{table}.json"
                path.write_text(text)
                done = await trio.to_thread.run_sync(partial(
                    subprocess.run, [sys.executable, "-m", "quaymoor", "verify", str(path)],
                    cwd=ROOT, capture_output=True, text=True, timeout=60, check=False))
                assert done.returncode == 0, done.stderr
            print(f"SIGKILL: {len(seen)} games, {sum(seen.values())} actions seen, "
                  f"{lost} lost")
            assert lost == 0

            for seat in seats:  # the player's browser reconnects with what it kept
                async with connect(second.port) as client:
                    await client.hello(seat["table"], seat["token"])
                    ended = await client.next()
                    assert ended is not None and ended["type"] == "game_ended", client.frames
                    assert ended["reason"] == "shutdown" and ended["seed"] == kept[seat["table"]]
                    assert ended["record_url"] == f"/games/{seat['table']}.json"
                    assert await client.drain() == 4000
            assert await trio.to_thread.run_sync(second.stop) == 0
        finally:
            second.stop()
        assert _live_seeds(archive) == {}  # ended once: a third start has nothing to end


async def _play_then_read(client: Client) -> None:
    """Act on every decision until the table reaches ``PLAYED``, then only read. (A
    client waiting for a decision when another seat's move reaches ``PLAYED`` stops
    there too: its next decision may wait on a seat that only reads now.)"""
    if await client.play(stop_at=PLAYED) is not None:
        raise AssertionError("the game ended before the kill")
    while await client.next() is not None:
        pass


async def _until_quiet(clients: list[Client]) -> None:
    """Until every client has passed ``PLAYED`` and no update came for ``QUIET`` seconds
    (the bots have played what they could: every table waits on a person)."""
    last: list[int] = []
    while True:
        await trio.sleep(QUIET)
        now = [len(c.frames) for c in clients]
        if now == last and all(
                c.of_type("update") and c.last_version() >= PLAYED for c in clients):
            return
        last = now


def _live_seeds(archive: Path) -> dict[str, str]:
    """The running games' seeds in the server's live file, by table id."""
    db = sqlite3.connect(live_path(str(archive)))
    try:
        return dict(db.execute("SELECT table_id, seed FROM live_games").fetchall())
    finally:
        db.close()

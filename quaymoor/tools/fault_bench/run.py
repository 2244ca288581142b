"""One fault from start to row: the system started (a cluster, one process, or the cluster
over hosts of its own), ``tables`` tables seated mid-game, the
fault injected while the public port and the records are watched, the games played to
their end, the records collected and verified, the system stopped.

Seating: each table is what a browser's "play now" makes (``POST /api/play-now`` for two
players, the seat's client seed, the start; the other chair is a bot), with one
``TableClient`` in the human seat that plays ``MOVES_BEFORE`` moves and holds. The fault
comes once every table is held (or ``SEAT_SECONDS`` passed); the players then connected
are the ones who must be told. After ``inject`` and the fault's ``hold`` the players play
on, each to its ``game_ended``, within ``PLAYOUT_SECONDS`` (or until nothing has moved
for ``STUCK_SECONDS``); then the fault's ``recover``, and the records (waited for up to the
fault's ``record_seconds``).
"""

from __future__ import annotations

import time
import traceback
from collections import Counter
from typing import Final

import trio

from quaymoor.rules.fairness import new_client_seed, seed_commitment
from quaymoor.rules.record import GameRecord
from quaymoor.tools.fault_bench.across_hosts import across_hosts
from quaymoor.tools.fault_bench.collect import Records, collect
from quaymoor.tools.fault_bench.fault import Fault, Stage
from quaymoor.tools.fault_bench.http_get import post_json
from quaymoor.tools.fault_bench.row import Row
from quaymoor.tools.fault_bench.system import System, cluster, single
from quaymoor.tools.fault_bench.table_client import TableClient
from quaymoor.tools.fault_bench.watch import Outage, Seeds

#: The empty chair's bot: the quickest (the bench measures faults, not play), so that a
#: game plays out in seconds on a busy machine.
BOTS: Final = "random"
MOVES_BEFORE: Final = 3  #: moves each player makes before the fault: mid-game
SEAT_SECONDS: Final = 60.0
SETTLE_SECONDS: Final = 0.5  #: the last moves' batch commits before the fault (deploy.md)
PLAYOUT_SECONDS: Final = 90.0  #: bound on playing every game to its end after the fault
PLAYING_SECONDS: Final = 0.5  #: a ``playing`` fault comes this long into the play
STUCK_SECONDS: Final = 6.0  #: the play-out ends when nothing moved for this long


def run_fault(fault: Fault, tables: int, pg_outage: float, partition: float) -> Row:
    """The fault's row (its figures, or why it could not run); ``pg_outage`` and
    ``partition`` are the seconds the faults that stop the database or cut a host off
    last."""
    why = fault.unavailable()
    if why is not None:
        return Row(fault.key, fault.title, unavailable=why)
    began = time.monotonic()
    print(f"== {fault.key}: {fault.title} ({tables} tables)", flush=True)
    try:
        if fault.on == "cluster":
            with cluster(fault.cluster_options()) as running:
                row = trio.run(_measure, fault, Stage(running, [], pg_outage, partition),
                               tables)
        elif fault.on == "hosts":
            row = trio.run(_measure_across_hosts, fault, tables, pg_outage, partition)
        else:
            with fault.archive_folder() as folder, single(folder) as server:
                row = trio.run(_measure, fault, Stage(server, [], pg_outage, partition),
                               tables)
    except Exception as exc:  # the row says the bench itself failed, and why
        traceback.print_exc()
        return Row(fault.key, fault.title, broken=f"{type(exc).__name__}: {exc}")
    print(f"   {fault.key} measured in {time.monotonic() - began:.0f} s", flush=True)
    return row


async def _measure_across_hosts(fault: Fault, tables: int, pg_outage: float,
                                partition: float) -> Row:
    """``_measure`` on a cluster over hosts of its own, started and torn down in this run
    (its sockets the ``client`` host's)."""
    async with across_hosts() as system:
        return await _measure(fault, Stage(system, [], pg_outage, partition), tables)


async def _measure(fault: Fault, stage: Stage, tables: int) -> Row:
    system: System = stage.system
    clients = stage.clients
    outage, seeds = Outage(), Seeds()
    stage_began = trio.current_time()
    async with trio.open_nursery() as players:
        deadline = trio.current_time() + SEAT_SECONDS + PLAYOUT_SECONDS + 600
        for i in range(tables):
            client = await _seat(system.host, system.port, i)
            if client is None:
                stage.notes.append(f"table {i + 1} could not be seated")
                continue
            clients.append(client)
            players.start_soon(client.run, system.port, deadline, system.host)
        with trio.move_on_after(SEAT_SECONDS):
            while not all(c.held and c.connected for c in clients):
                await trio.sleep(0.1)
        await trio.sleep(SETTLE_SECONDS)
        moment = trio.current_time()
        seated = moment - stage_began
        connected = [c for c in clients if c.connected]
        async with trio.open_nursery() as watchers:
            watchers.start_soon(outage.probe, system.port, system.host)
            watchers.start_soon(seeds.poll, system.port, clients, system.host)
            if fault.playing:
                for client in clients:
                    client.released = True
                await trio.sleep(PLAYING_SECONDS)
            await fault.inject(stage)
            await trio.sleep(fault.hold)
            for client in clients:
                client.released = True
            released = trio.current_time()
            await _play_out(clients)
            played = trio.current_time() - released
            unended = [c for c in clients if c.ended is None]
            if unended:
                stage.notes.append(f"{len(unended)} games had not ended for their player "
                                   "at the end of the play-out")
            for client in clients:
                client.stop()
            if fault.recover is not None:
                await fault.recover(stage)
            collecting = trio.current_time()
            records = await collect(system, clients, fault.record_seconds)
            watchers.cancel_scope.cancel()
    stage.notes.append(f"seated in {seated:.1f} s, fault and hold {released - moment:.1f} s, "
                       f"play-out {played:.1f} s, records read in "
                       f"{trio.current_time() - collecting:.1f} s")
    early = seeds.early(clients)
    _what_happened(stage, records, early)
    return Row(fault.key, fault.title, games=len(clients), connected=len(connected),
               told=sum(fault.told(stage, c, moment) for c in connected),
               records=len(records.found), verified=len(records.verified),
               early=len(early), outage=outage.longest, outage_target=fault.outage_target,
               unfinished=sum(c.ended != "finished" for c in clients),
               finish_target=fault.finish_target,
               notes=tuple(stage.notes))


def _what_happened(stage: Stage, records: Records, early: list[str]) -> None:
    """The row's notes on its games and players: what has no record and why, which records
    were refused or served early, how each game ended for its player, what the players did
    and what they were refused."""
    clients = stage.clients
    missing = [c for c in clients if c.table not in records.found]
    if never_ended := [c for c in missing if c.ended is None]:
        stage.notes.append(f"{len(never_ended)} of the games without a record had not ended "
                           "for their player: still running where no player could reach "
                           "them, or gone")
    stage.notes.extend(f"record of {t} refused: {why}" for t, why in records.refused.items())
    if differ := _ended_otherwise(clients, records):
        stage.notes.append(f"{len(differ)} records end otherwise than their player was told "
                           f"(record / player): {', '.join(differ)}")
    if early:
        stage.notes.append(f"seeds served while played: {', '.join(sorted(early))}")
    ends = Counter(c.ended or "none" for c in clients)
    stage.notes.append("how the games ended for their players: " + ", ".join(
        f"{k} {v}" for k, v in sorted(ends.items())))
    errors = sum((c.errors for c in clients), Counter[str]())
    closes = sum((c.closes for c in clients), Counter[str]())
    stage.notes.append(f"players: {sum(c.acts for c in clients)} moves, "
                       f"{sum(c.connects for c in clients)} connections; errors received: "
                       f"{_counts(errors)}; connections ended early: {_counts(closes)}")


def _ended_otherwise(clients: list[TableClient], records: Records) -> list[str]:
    """``<id> <record's end> / <player's>`` for each game whose record says it ended
    otherwise than its ``game_ended`` told its player (a game ended twice: by a process
    that took its owner for dead, then by its owner)."""
    differ = []
    for client in clients:
        text = records.found.get(client.table)
        if text is None or client.ended is None:
            continue
        try:
            reason = GameRecord.from_json(text).reason
        except ValueError:
            continue  # a refused record: said already
        if reason != client.ended:
            differ.append(f"{client.table} {reason} / {client.ended}")
    return differ


def _counts(counter: Counter[str]) -> str:
    return ", ".join(f"{k} x{v}" for k, v in counter.most_common()) or "none"


async def _play_out(clients: list[TableClient]) -> None:
    """Until every game has ended for its player, or ``PLAYOUT_SECONDS`` pass, or nothing
    has moved (no new version, no end) for ``STUCK_SECONDS``."""
    def progress() -> tuple[int, int]:
        return sum(len(c.seen) for c in clients), sum(c.ended is not None for c in clients)

    with trio.move_on_after(PLAYOUT_SECONDS):
        last, moved = progress(), trio.current_time()
        while any(c.ended is None for c in clients):
            await trio.sleep(0.2)
            now = progress()
            if now != last:
                last, moved = now, trio.current_time()
            elif trio.current_time() - moved > STUCK_SECONDS:
                return


async def _seat(host: str, port: int, i: int) -> TableClient | None:
    """A play-now table for two (a bot in the other chair): committed, started, the
    seed revealed (docs/fairness.md, "Commit, then reveal")."""
    name = f"Faulty {i + 1}"
    info = await post_json(port, "/api/play-now", {"name": name, "players": 2, "bots": BOTS},
                           host=host)
    if info is None:
        return None
    table, token, seat = str(info["table"]), str(info["token"]), int(info["seat"])
    client_seed = new_client_seed()
    commitment = seed_commitment(table, seat, client_seed)
    for verb, body in (("commit", {"token": token, "commitment": commitment}),
                       ("start", {"token": token}),
                       ("reveal", {"token": token, "client_seed": client_seed})):
        if await post_json(port, f"/api/tables/{table}/{verb}", body, host=host) is None:
            return None
    return TableClient(table, token, str(info["fingerprint"]), MOVES_BEFORE)

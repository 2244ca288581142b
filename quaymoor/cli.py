"""The ``quaymoor`` command: serve, selfplay, verify, analyse, bench, tournament."""

from __future__ import annotations

import argparse
import ipaddress
import json
import os
import signal
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from quaymoor.rules.data import MAX_PLAYERS, MIN_PLAYERS

if TYPE_CHECKING:
    from quaymoor.rules.record import GameRecord


def _players(text: str) -> int:
    n = int(text)
    if not MIN_PLAYERS <= n <= MAX_PLAYERS:
        raise argparse.ArgumentTypeError(f"players must be {MIN_PLAYERS} to {MAX_PLAYERS}")
    return n


def _players_list(text: str) -> list[int]:
    counts = [_players(part) for part in text.split(",") if part.strip()]
    if not counts or len(set(counts)) != len(counts):
        raise argparse.ArgumentTypeError("player counts, each once: 2,3,4,5")
    return counts


def _positive(text: str) -> int:
    n = int(text)
    if n < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return n


def _index(text: str) -> int:
    n = int(text)
    if n < 0:
        raise argparse.ArgumentTypeError("must be 0 or more")
    return n


def _lease_seconds(text: str) -> float:
    try:
        seconds = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError("the lease is a number of seconds") from None
    if not 2.0 <= seconds <= 3600.0:
        raise argparse.ArgumentTypeError("the lease is 2 to 3600 seconds")
    return seconds


def _slot(text: str) -> int:
    n = int(text)
    if not 0 <= n <= 255:
        raise argparse.ArgumentTypeError("a slot is 0 to 255")
    return n


def _ip_address(text: str) -> str:
    """An IP address, written as ``ipaddress`` writes it (as the front door compares it)."""
    try:
        return str(ipaddress.ip_address(text.strip()))
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an IP address: {text!r}") from None


def _not_negative(text: str) -> float:
    x = float(text)
    if not x >= 0:  # also refuses nan
        raise argparse.ArgumentTypeError("must be 0 or more")
    return x


#: The most spectators ``bench server --spectators`` opens for one crowd (each is a
#: websocket client in the bench's client processes).
MAX_CROWD = 10_000


def _counts(text: str) -> tuple[int, ...]:
    """A comma-separated list of whole numbers, each 0 or more (``0,300,1000``)."""
    try:
        counts = tuple(int(x) for x in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected numbers like 0,300,1000, not {text[:40]!r}"
                                         ) from None
    if not counts or any(not 0 <= n <= MAX_CROWD for n in counts):
        raise argparse.ArgumentTypeError(
            f"each count is 0 to {MAX_CROWD}, not {text[:40]!r}")
    return counts


def cmd_selfplay(args: argparse.Namespace) -> int:
    from quaymoor.tools.selfplay import game_seed, random_game

    if args.record:
        args.record.mkdir(parents=True, exist_ok=True)
    for i in range(args.games):
        game, result = random_game(args.players, game_seed(args.seed, i),
                                   f"selfplay-{args.seed}-{i}")
        if args.record:
            path = args.record / f"game-{args.seed}-{i}.json"
            path.write_text(game.record().to_json())
        print(json.dumps(result.as_json()), flush=True)
    return 0


def _read_record(path: Path) -> GameRecord | None:
    """The record in the file at ``path``, or None with why on stderr (unreadable, not
    JSON, not a record)."""
    from quaymoor.rules.record import GameRecord

    try:
        return GameRecord.from_json(path.read_text())
    except (OSError, ValueError) as exc:
        print(f"{path}: {exc}", file=sys.stderr)
        return None


def cmd_verify(args: argparse.Namespace) -> int:
    from quaymoor.rules.verify import Verdict, verify_record

    record = _read_record(args.record)
    if record is None:
        return 2
    shown = None if args.fingerprint is None else args.fingerprint.strip().lower()
    if shown is not None and shown != record.fingerprint:  # before all else: it says most
        verdict = Verdict(False, f"fingerprint: the table showed you {shown}, the record's "
                                 f"is {record.fingerprint} (another game, or a record "
                                 "rewritten)")
    else:
        verdict = verify_record(record)
    print(f"{args.record}: {verdict.message}", file=sys.stdout if verdict.ok else sys.stderr)
    return 0 if verdict.ok else 1


def cmd_analyse(args: argparse.Namespace) -> int:
    from quaymoor.rules.errors import RulesError
    from quaymoor.tools.analyse import analyse

    record = _read_record(args.record)
    if record is None:
        return 2
    try:
        analyse(record, iterations=args.iterations, jobs=args.jobs,
                check=args.check)
    except (RulesError, ValueError) as exc:
        print(f"{args.record}: does not replay: {exc}", file=sys.stderr)
        return 1
    return 0


def cmd_bench(args: argparse.Namespace) -> int:
    if args.what == "rules":
        from quaymoor.tools.bench_rules import bench_rules

        bench_rules(seconds=3.0 if args.seconds is None else args.seconds)
        return 0
    if args.what == "bots":
        from quaymoor.tools.bench_bots import bench_bots

        bench_bots(seconds=5.0 if args.seconds is None else args.seconds)
        return 0
    if args.what in ("server", "load"):
        from quaymoor.tools.server_bench import bench_load, bench_server

        # Only the options given: the commands' own defaults are the one home of theirs.
        given = {k: v for k in ("tables", "players", "client_procs", "seconds", "think",
                                "start_spread") if (v := getattr(args, k)) is not None}
        if args.only is not None and args.what != "server":
            print("--only is for bench server", file=sys.stderr)
            return 2
        if args.what == "server" and (args.cluster is not None or args.compare):
            print("--cluster and --compare are for bench load", file=sys.stderr)
            return 2
        if args.what == "server":
            return bench_server(**given, stalls=args.log_stalls, only=args.only,
                                given_think=args.think is not None,
                                **({"spectators": args.spectators}
                                   if args.spectators is not None else {}))
        if args.compare and args.cluster is None:
            print("bench load --compare needs --cluster N (one process, then the cluster)",
                  file=sys.stderr)
            return 2
        return bench_load(**given, window=args.window, stalls=args.log_stalls,
                          cluster=args.cluster, compare=args.compare)
    if args.what == "faults":
        from quaymoor.tools.fault_bench import bench_faults

        faults = [f.strip() for f in args.faults.split(",") if f.strip()] if args.faults else None
        code, _ = bench_faults(**({"tables": args.tables} if args.tables is not None else {}),
                               faults=faults, pg_outage=args.pg_outage, jobs=args.jobs,
                               partition=args.partition_seconds)
        return code
    print(f"unknown benchmark {args.what!r}", file=sys.stderr)
    return 2


def cmd_fuzz(args: argparse.Namespace) -> int:
    from quaymoor.tools.fuzz import fuzz_command

    return fuzz_command(args.inputs, seed=args.seed, schemathesis_examples=args.schemathesis)


def _origin(text: str) -> str:
    """``--public-origin``: an origin passkeys can be made for."""
    from quaymoor.accounts.passkeys import site_from_origin

    try:
        return site_from_origin(text).origins[0]
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)[:200]) from None


def cmd_wire_js(args: argparse.Namespace) -> int:
    from quaymoor.tools.wire_js import WIRE_JS, render, write

    if args.check:
        if WIRE_JS.exists() and WIRE_JS.read_text(encoding="utf-8") == render():
            return 0
        print(f"{WIRE_JS} is stale: run quaymoor wire-js", file=sys.stderr)
        return 1
    print(f"{WIRE_JS}: {'written' if write() else 'already up to date'}")
    return 0


def cmd_serve(args: argparse.Namespace) -> int:
    from quaymoor.config import ClientLimits, ServerConfig, TableConfig
    from quaymoor.server import UnknownTrioWebsocket, serve
    from quaymoor.store.archive import ArchiveError

    table = TableConfig(decision_seconds=args.decision_seconds, bot_delay=args.bot_delay)
    try:
        token = args.operator_token or os.environ.get("QUAYMOOR_OPERATOR_TOKEN") or None
        serve(ServerConfig(host=args.host, port=args.port, table=table,
                           archive_path=str(args.archive), operator_token=token,
                           scheme=args.scheme, stall_ms=args.log_stalls,
                           public_origin=args.public_origin,
                           database_url=args.database, slot=args.slot,
                           haproxy_socket=args.haproxy_socket,
                           lease_seconds=args.lease_seconds,
                           forwarded_from=frozenset(args.forwarded_from),
                           analysis_iterations=args.analysis_iterations,
                           limits=ClientLimits.per_address_off() if args.no_address_limits
                           else ClientLimits()))
    except (ArchiveError, UnknownTrioWebsocket) as exc:
        print(f"quaymoor serve: {exc}", file=sys.stderr)
        return 2
    except ExceptionGroup as group:  # refused while starting (a cluster's slot is taken)
        refused = [e for e in _leaves(group) if isinstance(e, ArchiveError)]
        if not refused or len(refused) != len(_leaves(group)):
            raise
        for why in refused:
            print(f"quaymoor serve: {why}", file=sys.stderr)
        return 2
    return 0


def cmd_cluster(args: argparse.Namespace) -> int:
    import trio

    from quaymoor.cluster.runner import ClusterOptions, serve_cluster

    workers = args.workers if args.workers is not None else (os.cpu_count() or 1)
    options = ClusterOptions(
        host=args.host, port=args.port, workers=workers, database=args.database,
        folder=args.folder, decision_seconds=args.decision_seconds, bot_delay=args.bot_delay,
        address_limits=not args.no_address_limits, stall_ms=args.log_stalls,
        standby=args.standby, lease_seconds=args.lease_seconds)
    try:
        trio.run(serve_cluster, options)
    except Exception as exc:  # a piece that would not start: say which and why
        for leaf in _leaves(exc):
            print(f"quaymoor cluster: {leaf}", file=sys.stderr)
        return 2
    return 0


def _leaves(exc: BaseException) -> list[BaseException]:
    """The errors inside (nested) exception groups, or ``exc`` itself."""
    if isinstance(exc, BaseExceptionGroup):
        return [leaf for inner in exc.exceptions for leaf in _leaves(inner)]
    return [exc]


def cmd_drain(args: argparse.Namespace) -> int:
    import trio

    from quaymoor.cluster.haproxy import HaproxyError, set_state
    from quaymoor.cluster.runner import SOCKET_FILE, URL_FILE, drain_flag
    from quaymoor.store.archive import ArchiveError

    name = args.process
    if len(name) != 3 or name[0] != "w" or not all(c in "0123456789abcdef" for c in name[1:]):
        print(f"quaymoor drain: a process is named w00 to wff, not {name!r}", file=sys.stderr)
        return 2
    url = args.database
    if url is None:
        try:
            url = (args.folder / URL_FILE).read_text().strip()
        except OSError as exc:
            print(f"quaymoor drain: give --database (no cluster in {args.folder}: {exc})",
                  file=sys.stderr)
            return 2
    try:
        if drain_flag(url, name) == 0:
            print(f"quaymoor drain: no live process {name}", file=sys.stderr)
            return 1
    except ArchiveError as exc:
        print(f"quaymoor drain: {exc}", file=sys.stderr)
        return 2
    socket_path = args.haproxy_socket or str(args.folder / SOCKET_FILE)
    try:
        trio.run(set_state, socket_path, int(name[1:], 16), "drain")
    except HaproxyError as exc:
        print(f"quaymoor drain: {name} will drain, but HAProxy was not told: {exc}",
              file=sys.stderr)
        return 1
    print(f"{name} is draining: no new tables; it exits when its last game ends")
    return 0


def cmd_haproxy_config(args: argparse.Namespace) -> int:
    """Print the HAProxy configuration for table processes on several hosts: the same
    text ``quaymoor cluster`` writes for its own (``haproxy.config_text``)."""
    from quaymoor.cluster.haproxy import MAX_SLOTS, config_text, table_hosts

    try:
        workers = table_hosts(args.table_host)
    except ValueError as exc:
        print(f"quaymoor haproxy-config: {exc}", file=sys.stderr)
        return 2
    highest = max(w.slot for w in workers)
    slots = args.slots if args.slots is not None else min(
        MAX_SLOTS, max(2 * len(workers), highest + 1))
    if not highest < slots <= MAX_SLOTS:
        print(f"quaymoor haproxy-config: --slots must be above the highest slot given "
              f"({highest}) and at most {MAX_SLOTS}", file=sys.stderr)
        return 2
    print(config_text(host=args.host, port=args.port, workers=workers, slots=slots,
                      socket_path=args.socket, address_limits=not args.no_address_limits,
                      maxconn=args.maxconn), end="")
    return 0


def cmd_tournament(args: argparse.Namespace) -> int:
    from quaymoor.tools.tournament import run

    if args.ladder:
        from quaymoor.tools.ladder import run_ladder

        counts = args.ladder_players or [2, 3, 4, 5]
        run_ladder(args.games, counts, seed=args.seed, jobs=args.jobs, json_line=args.json)
        return 0
    bots = [b.strip() for b in args.bots.split(",") if b.strip()]
    try:
        run(args.players, args.games, bots, seed=args.seed, first=args.first,
            budget=args.budget,
            iterations=args.iterations,
            record_dir=args.record, jobs=args.jobs, json_line=args.json)
    except ValueError as exc:
        print(f"tournament: {exc}", file=sys.stderr)
        return 2
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="quaymoor", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)

    srv = sub.add_parser("serve", help="run the online table server")
    srv.add_argument("--host", default="127.0.0.1")
    srv.add_argument("--port", type=int, default=8000, help="0 picks a free port")
    srv.add_argument("--decision-seconds", type=float, default=90.0)
    srv.add_argument("--bot-delay", type=float, default=None,
                     help="seconds every bot waits, whatever its table's pace (default: "
                          "the pace's: people 1.6, steady 0.8, fast 0.2)")
    srv.add_argument("--analysis-iterations", type=_positive, default=None,
                     help="iterations of each decision's search in a post-game analysis "
                          "(default: ITERATIONS in bots/analysis.py)")
    srv.add_argument("--archive", type=Path, default=Path("var/quaymoor.sqlite3"),
                     help="the game archive, SQLite (default: var/quaymoor.sqlite3 here)")
    srv.add_argument("--operator-token", default=None,
                     help="token for /status.json and /metrics (or QUAYMOOR_OPERATOR_TOKEN); "
                          "without one they answer only on loopback")
    srv.add_argument("--no-address-limits", action="store_true",
                     help="no per-address caps on tables and websockets (for load tests "
                          "whose clients share one address); the idle timeout stays")
    srv.add_argument("--scheme", choices=("http", "https"), default="http",
                     help="the scheme browsers reach the server by (https behind a proxy "
                          "that terminates TLS): a websocket's or POST's Origin must have it")
    srv.add_argument("--public-origin", type=_origin, default=None, metavar="ORIGIN",
                     help="the origin browsers reach the site by (https://quaymoor.example):"
                          " passkeys are made for its host (default: "
                          "<scheme>://localhost:<port>)")
    srv.add_argument("--log-stalls", type=float, default=None, metavar="MS",
                     help="log every stall of the event loop longer than MS milliseconds, "
                          "with its CPU time and the code it was running")
    srv.add_argument("--database", default=None,
                     help="a PostgreSQL URL: one process of a cluster (docs/deploy.md), the "
                          "database replacing --archive")
    srv.add_argument("--slot", type=_slot, default=None,
                     help="in a cluster: this process's slot in HAProxy, 0-255 (its tables' "
                          "ids begin with it)")
    srv.add_argument("--haproxy-socket", default=None,
                     help="in a cluster: HAProxy's runtime API socket (its view on /status)")
    srv.add_argument("--lease-seconds", type=_lease_seconds, default=None, metavar="S",
                     help="in a cluster: a process without a heartbeat for S seconds is "
                          "taken for dead (default 45: a failover or a 30 s partition; it "
                          "pauses its tables after a quarter of it, at most 6 s)")
    srv.add_argument("--forwarded-from", type=_ip_address, action="append", default=[],
                     metavar="ADDRESS",
                     help="a proxy's IP address (repeat for several): a request from it is "
                          "its X-Forwarded-For client's, for the per-address limits; the "
                          "proxy must set that header, not append to a client's")
    srv.set_defaults(func=cmd_serve)

    wj = sub.add_parser("wire-js", help="write web/wire.js (the wire's codes and names for "
                                        "the browser) from the server's sources")
    wj.add_argument("--check", action="store_true",
                    help="write nothing: exit 1 if web/wire.js is stale")
    wj.set_defaults(func=cmd_wire_js)

    cl = sub.add_parser("cluster", help="HAProxy, N table processes and PostgreSQL on one "
                                        "address (docs/deploy.md)")
    cl.add_argument("--host", default="127.0.0.1")
    cl.add_argument("--port", type=int, default=8000)
    cl.add_argument("--workers", type=_positive, default=None,
                    help="table processes (default: one per core)")
    cl.add_argument("--database", default=None,
                    help="a PostgreSQL URL or conninfo, one host or several (libpq's "
                         "multi-host form: the one that takes writes is used); default: a "
                         "PostgreSQL of its own in the folder")
    cl.add_argument("--standby", action="store_true",
                    help="without --database: its own PostgreSQL with a streaming standby "
                         "(a failover to try: docs/deploy.md)")
    cl.add_argument("--folder", type=Path, default=Path("var/cluster"),
                    help="configuration, logs and the local database (var/cluster)")
    cl.add_argument("--decision-seconds", type=float, default=90.0)
    cl.add_argument("--bot-delay", type=float, default=None,
                    help="seconds every bot waits, whatever its table's pace (as serve's)")
    cl.add_argument("--no-address-limits", action="store_true",
                    help="no per-address caps in HAProxy (load tests from one machine)")
    cl.add_argument("--lease-seconds", type=_lease_seconds, default=None, metavar="S",
                    help="every process's lease (as serve --lease-seconds; default 45)")
    cl.add_argument("--log-stalls", type=float, default=None, metavar="MS",
                    help="each process logs its event-loop stalls over MS milliseconds "
                         "(as serve --log-stalls)")
    cl.set_defaults(func=cmd_cluster)

    hc = sub.add_parser("haproxy-config", help="print the HAProxy configuration for table "
                                               "processes on several hosts (docs/deploy.md)")
    hc.add_argument("--table-host", action="append", required=True, metavar="[wNN=]HOST:PORT",
                    help="a table process HAProxy reaches at HOST:PORT (repeat for each); "
                         "wNN= gives its slot (its serve --slot), else the lowest free one")
    hc.add_argument("--host", default="0.0.0.0", help="the public address HAProxy binds")
    hc.add_argument("--port", type=_positive, default=80)
    hc.add_argument("--slots", type=_positive, default=None,
                    help="servers in the backend, the spares in maintenance for a deploy "
                         "(default: twice the table hosts)")
    hc.add_argument("--socket", default="/run/haproxy/quaymoor.sock",
                    help="HAProxy's runtime API socket (give it to each serve "
                         "--haproxy-socket, and to quaymoor drain)")
    hc.add_argument("--maxconn", type=_positive, default=10_000,
                    help="client connections at once (HAProxy needs two open files each)")
    hc.add_argument("--no-address-limits", action="store_true",
                    help="no per-address caps in HAProxy")
    hc.set_defaults(func=cmd_haproxy_config)

    dr = sub.add_parser("drain", help="a cluster's process takes no new tables and exits "
                                      "when its games end")
    dr.add_argument("process", help="its name: w00, w01, ... (/status shows them)")
    dr.add_argument("--database", default=None,
                    help="the cluster's PostgreSQL URL (default: the one of --folder)")
    dr.add_argument("--folder", type=Path, default=Path("var/cluster"))
    dr.add_argument("--haproxy-socket", default=None,
                    help="HAProxy's runtime API socket (default: the one of --folder)")
    dr.set_defaults(func=cmd_drain)

    fz = sub.add_parser("fuzz", help="hostile input against a real server, with figures")
    fz.add_argument("--inputs", type=_positive, default=100_000,
                    help="inputs to send, over every category (100000)")
    fz.add_argument("--seed", type=int, default=0, help="seed of the run (an integer)")
    fz.add_argument("--schemathesis", type=int, default=30,
                    help="schemathesis examples per operation, 0 to skip it (30)")
    fz.set_defaults(func=cmd_fuzz)

    sp = sub.add_parser("selfplay", help="play complete games with random legal actions")
    sp.add_argument("--players", type=_players, default=4)
    sp.add_argument("--games", type=_positive, default=1)
    sp.add_argument("--seed", type=int, default=0, help="base seed of the run (an integer)")
    sp.add_argument("--record", type=Path, help="write each game's record into this folder")
    sp.set_defaults(func=cmd_selfplay)

    vp = sub.add_parser("verify", help="check a game record: fingerprint, replay, scores")
    vp.add_argument("record", type=Path)
    vp.add_argument("--fingerprint", metavar="F",
                    help="the fingerprint the table showed you before you joined: the "
                         "record must carry it")
    vp.set_defaults(func=cmd_verify)

    ap = sub.add_parser("analyse", help="a finished game's decisions scored by the search")
    ap.add_argument("record", type=Path)
    ap.add_argument("--iterations", type=_positive, default=None,
                    help="iterations a decision (default: the analysis's, ITERATIONS in "
                         "bots/analysis.py)")
    ap.add_argument("--jobs", type=_positive, default=1, help="processes (1)")
    ap.add_argument("--check", type=_positive, default=0, metavar="K",
                    help="also search each decision with K times the iterations and print "
                         "how often the best moves agree")
    ap.set_defaults(func=cmd_analyse)

    bp = sub.add_parser("bench", help="benchmarks that print figures")
    bp.add_argument("what", choices=["rules", "bots", "server", "load", "faults"],
                    help="load: the load proof (every game finished, every stream complete "
                         "and in order); faults: each fault of issue 23 injected into a "
                         "real cluster or serve, a row of what it cost (docs/fault-bench.md)")
    bp.add_argument("--seconds", type=float, default=None,
                    help="rules: time per player count (3); bots: search time (5); server: "
                         "load bound (120); load: bound (300)")
    bp.add_argument("--tables", type=_positive, default=None,
                    help="server, load: tables to load (500); faults: tables mid-game per "
                         "fault (20)")
    bp.add_argument("--players", type=_players, default=4,
                    help="server, load: seats per table")
    bp.add_argument("--client-procs", type=_positive, default=None,
                    help="server, load: client processes (server 2, load 4)")
    bp.add_argument("--think", type=float, default=None,
                    help="server, load: mean seconds a player thinks before acting "
                         "(server 0: none; load 0.5)")
    bp.add_argument("--start-spread", type=_not_negative, default=10.0,
                    help="server, load: seconds after the start over which the tables are "
                         "started, evenly (10; 0 starts them all at once)")
    bp.add_argument("--window", action="store_true",
                    help="load: games need not finish within the bound (human pace): the "
                         "verdict asks that every connection was held to the end of it "
                         "and every stream was in order")
    bp.add_argument("--cluster", type=_positive, default=None, metavar="N",
                    help="load: through a quaymoor cluster of N table processes behind "
                         "HAProxy (with its own PostgreSQL in a temporary folder), each "
                         "process read directly")
    bp.add_argument("--compare", action="store_true",
                    help="load, with --cluster: the same load on one process, then on the "
                         "cluster, back to back, and their main figures side by side")
    bp.add_argument("--only", choices=["watched"], default=None,
                    help="server: only the watched table (one table of players watched by "
                         "0, 300 and 1,000 spectators; the players' latency with each)")
    bp.add_argument("--spectators", type=_counts, default=None, metavar="N,N,...",
                    help="server: the watched table's crowds, in turn (0,300,1000; the "
                         "target is read at the last)")
    bp.add_argument("--log-stalls", action="store_true",
                    help="server, load: the server logs its event-loop stalls over 20 ms "
                         "and a summary is printed (it costs the server some latency)")
    bp.add_argument("--faults", default=None, metavar="A,B,...",
                    help="faults: which faults, by name (all of them when not given)")
    bp.add_argument("--pg-outage", type=_not_negative, default=20.0, metavar="S",
                    help="faults: seconds PostgreSQL stays stopped (20; the issue's target "
                         "is 90)")
    bp.add_argument("--partition-seconds", type=_not_negative, default=30.0, metavar="S",
                    help="faults: seconds the partition keeps a table host cut off (30, "
                         "the issue's)")
    bp.add_argument("--jobs", type=_positive, default=1,
                    help="faults: how many faults run at once, each on a system of its own "
                         "(1: one after another, the figures least disturbed)")
    bp.set_defaults(func=cmd_bench)

    tp = sub.add_parser("tournament", help="play bots against each other, seats rotated")
    tp.add_argument("--players", type=_players, default=4)
    tp.add_argument("--games", type=_positive, default=20)
    tp.add_argument("--bots", default="hard,normal,normal,normal",
                    help="one per seat, comma-separated: random, easy, normal, hard, expert")
    tp.add_argument("--seed", type=int, default=0, help="base seed of the run (an integer)")
    tp.add_argument("--first", type=_index, default=0, metavar="K",
                    help="play games K to K+G-1 of the run (a long run in parts; game i is "
                         "the same game in every part)")
    tp.add_argument("--budget", type=float, default=None,
                    help="the hard and expert bots' time cap in seconds per decision (1)")
    tp.add_argument("--iterations", type=_positive, default=None,
                    help="the hard and expert bots' iterations per decision (default: each "
                         "level's own, ITERATIONS in bots/tree_bot.py)")
    tp.add_argument("--ladder", action="store_true",
                    help="every level (random, easy, normal, hard, expert) against the others "
                         "at 2-5 players, --games games at each count, rated with OpenSkill "
                         "(ratings with 95%% intervals, win rates per count)")
    tp.add_argument("--ladder-players", type=_players_list, default=None, metavar="N,N",
                    help="with --ladder: the player counts (2,3,4,5)")
    tp.add_argument("--jobs", type=_positive, default=1, help="games played at once")
    tp.add_argument("--json", action="store_true", help="end with the summary as one JSON line")
    tp.add_argument("--record", type=Path, help="write each game's record into this folder")
    tp.set_defaults(func=cmd_tournament)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        code: int = args.func(args)
    except BrokenPipeError:
        # the reader of the output went away (``quaymoor analyse ... | head``): stop
        # quietly, as a Unix tool does, with what it had printed; the rest goes nowhere
        # (so that the interpreter's last flush of stdout does not fail again)
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 128 + signal.SIGPIPE
    return code

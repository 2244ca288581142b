"""``quaymoor serve``: the supervisor and the front door on one port, until a signal.

On SIGINT or SIGTERM every running game ends the same way (players told, seeds revealed,
records archived) and the archive's writes finish before the process exits; every
connection's last frames (``game_ended``) and its close are written first, within a bound
(``Gateway.flush``). A cluster's process taken for dead by another (``cluster.lease``)
ends its tables without records and exits with ``TakenForDead`` (``quaymoor serve`` exits
2; the cluster replaces it). Cancelled or crashing, the server still archives every
running game on the way out. Killed (SIGKILL, a power loss), it ends them when it starts
again, from the running games it keeps beside its archive (``store.sqlite_live``).
"""

from __future__ import annotations

import functools
import logging
import signal

import attrs
import trio

from quaymoor.accounts.passkeys import RelyingParty, site_from_origin
from quaymoor.accounts.service import Accounts
from quaymoor.actors.gateway import Gateway
from quaymoor.actors.live_directory import keep_running_games
from quaymoor.actors.supervisor import Supervisor
from quaymoor.actors.ws_socket import UnknownTrioWebsocket
from quaymoor.actors.ws_socket import check_version as check_trio_websocket
from quaymoor.cluster.heartbeat import Membership, TakenForDead
from quaymoor.cluster.member import join_cluster, open_store, safe_cluster_status
from quaymoor.config import ServerConfig
from quaymoor.http.api import HttpApi
from quaymoor.http.frontdoor import same_origin, serve_frontdoor
from quaymoor.ops.gc_policy import configure_collector, run_full_collections
from quaymoor.ops.logs import configure_json_logs
from quaymoor.ops.open_files import raise_open_files
from quaymoor.ops.stall_watch import StallWatch
from quaymoor.store.archive import check_archive
from quaymoor.store.pg_db import check_database

log = logging.getLogger("quaymoor.server")


#: What the cli may use: it sits above the server and never imports actors itself.
__all__ = ["UnknownTrioWebsocket", "run_server", "serve"]


def site_of(config: ServerConfig) -> RelyingParty:
    """The site passkeys are made for: ``public_origin``, else localhost on this port."""
    return site_from_origin(config.public_origin
                            or f"{config.scheme}://localhost:{config.port}")


async def run_server(
    config: ServerConfig,
    *,
    task_status: trio.TaskStatus[tuple[int, Supervisor]] = trio.TASK_STATUS_IGNORED,
) -> None:
    """Serve until cancelled or signalled; reports (port, supervisor) once listening."""
    archive = open_store(config)
    supervisor = Supervisor(config.table, archive=archive)
    if config.analysis_iterations is not None:
        supervisor.analyst.iterations = config.analysis_iterations
    member = join_cluster(config, supervisor, archive)
    live = keep_running_games(supervisor, archive)
    supervisor.metrics.watch(supervisor.summary)
    supervisor.metrics.watch_gc()
    gateway = Gateway(supervisor, config)
    origin_ok = functools.partial(same_origin, scheme=config.scheme)
    accounts = Accounts(supervisor.players.accounts,
                        site_of(config))
    api = HttpApi(supervisor, operator_token=config.operator_token, limits=config.limits,
                  origin_ok=origin_ok, accounts=accounts,
                  secure_cookies=config.scheme == "https")
    if member is not None:
        api.cluster_status = functools.partial(safe_cluster_status, member,
                                               config.haproxy_socket)
    async with trio.open_nursery() as nursery:
        if archive is not None:
            await nursery.start(archive.run)
        if live is not None:  # a killed run's games, ended before anyone can ask for them
            await nursery.start(live.run)
            await live.end_unfinished()
        if member is not None:  # its row first: its tables' rows refer to it
            await member.join(f"{config.host}:{config.port}")
        await nursery.start(supervisor.run)
        nursery.start_soon(supervisor.metrics.watch_loop_lag)
        nursery.start_soon(run_full_collections)
        if config.stall_ms is not None:
            nursery.start_soon(StallWatch(config.stall_ms / 1000).run)
        nursery.start_soon(gateway.watch_sends)
        port: int = await nursery.start(lambda task_status: serve_frontdoor(
            api, gateway.handle, host=config.host, port=config.port,
            origin_ok=origin_ok, max_message_size=config.max_message_bytes,
            forwarded_from=config.forwarded_from, task_status=task_status,
        ))
        if config.public_origin is None and config.port == 0:  # the port is known now
            accounts.rp = site_of(attrs.evolve(config, port=port))
        if member is not None:
            await member.set_address(f"{config.host}:{port}")
            nursery.start_soon(member.run)
        task_status.started((port, supervisor))
        with trio.open_signal_receiver(signal.SIGINT, signal.SIGTERM) as signals:
            async with trio.open_nursery() as waiting:
                if member is not None:
                    waiting.start_soon(_until_drained, member, waiting.cancel_scope)
                    waiting.start_soon(_until_taken_for_dead, member, waiting.cancel_scope)
                async for signum in signals:
                    log.info("signal %s: ending every game", signal.Signals(signum).name)
                    break
                waiting.cancel_scope.cancel()
        await supervisor.shutdown()
        await gateway.flush()  # every player reads its game_ended before the close
        if member is not None:
            await member.leave()
        if live is not None:
            await live.close()
        if archive is not None:
            await archive.close()
        nursery.cancel_scope.cancel()
    if member is not None and member.fencing.taken.is_set():
        raise TakenForDead(f"process {member.name} was taken for dead by another: its games "
                           "were ended there; it stopped serving")


async def _until_taken_for_dead(member: Membership, done: trio.CancelScope) -> None:
    await member.fencing.taken.wait()
    done.cancel()


async def _until_drained(member: Membership, done: trio.CancelScope) -> None:
    await member.drained.wait()
    log.info("drained: the last game has ended; exiting", extra={"event": "drained"})
    done.cancel()


async def _main(config: ServerConfig) -> None:
    async with trio.open_nursery() as nursery:
        port, _ = await nursery.start(run_server, config)
        print(f"Quaymoor is serving on http://{config.host}:{port}/", flush=True)


def serve(config: ServerConfig) -> None:
    """Serve until a signal. Raises ``ArchiveError`` at once if the archive cannot be
    opened, ``UnknownTrioWebsocket`` if the installed trio-websocket is a release whose
    internals the gateway's writes were not checked against."""
    check_trio_websocket()
    if config.database_url is not None:
        check_database(config.database_url)
    elif config.archive_path is not None:
        check_archive(config.archive_path)
    # Every websocket is a descriptor: a shell's soft limit (often 1,024) would cap the
    # server near a thousand players while its hard limit allows many more.
    raise_open_files()
    configure_collector(young=False)
    configure_json_logs()
    trio.run(_main, config)



"""What a fault is to the bench: how to inject it, into which system, how long the players
hold still after it, and what the operator does afterwards (if anything).

A fault module (``faults/``) defines one ``Fault``. ``inject`` does the fault for real
(a signal to a real process, a real database stopped, a real filesystem filled) and
returns once the fault itself is over (the database started again, the process started
again), with a note for the row; the players then hold still ``hold`` seconds more, so
that what the system does about the fault (a reap, a restart) happens while their games
still run, and are released to play to the end (a ``playing`` fault comes while they play:
they are released just before it). ``recover`` runs after the play-out: the
operator's repair that the fault's row is about (space freed on a full disk).
``unavailable`` says why the fault cannot run on this build or machine (None: it can).
"""

from __future__ import annotations

import contextlib
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any, Literal

import attrs

from quaymoor.tools.fault_bench.table_client import TableClient


@attrs.define
class Stage:
    """What a fault's steps are given: the running system and the bench's settings."""

    system: Any  #: ``system.Cluster`` or ``system.Single``, as the fault's ``on`` says
    clients: list[TableClient]
    pg_outage: float  #: seconds the database stays stopped (``--pg-outage``)
    notes: list[str] = attrs.field(factory=list)  #: what the row says besides its figures
    extra: dict[str, Any] = attrs.field(factory=dict)  #: what a fault keeps between steps


Step = Callable[[Stage], Awaitable[None]]


@contextlib.contextmanager
def no_folder() -> Iterator[Path | None]:
    yield None


def nothing_missing() -> str | None:
    return None


@attrs.frozen
class Fault:
    """One row of the bench."""

    key: str  #: its name on the command line (``--faults``)
    title: str  #: what the row says was done
    on: Literal["cluster", "single"]
    inject: Step
    hold: float = 3.0  #: seconds the players hold still after ``inject`` returned
    #: The players are playing when the fault comes (released just before ``inject``), not
    #: holding still: for a fault whose harm is in the frames in flight (SIGTERM's close).
    playing: bool = False
    recover: Step | None = None
    #: How long records still being written (a queue, a retry) are waited for at the end.
    record_seconds: float = 6.0
    #: The single process's archive folder (a tiny filesystem); None: a temporary one.
    archive_folder: Callable[[], contextlib.AbstractContextManager[Path | None]] = no_folder
    unavailable: Callable[[], str | None] = nothing_missing
    outage_target: bool = False  #: the public port must answer again within 3 s
    #: Options of ``quaymoor cluster`` the fault needs (a standby, hosts of their own).
    cluster_options: Callable[[], tuple[str, ...]] = tuple

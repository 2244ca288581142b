"""The faults whose primitives other parts of issue 23 build (a PostgreSQL standby and its
promotion; network namespaces to cut a host off): each names the module it needs and the
functions it calls there, and is "not available on this build" until that module exists.

The contract, for whoever builds the primitive (functions that block; the bench calls them
in a thread, with the cluster's folder):

- ``quaymoor.cluster.standby``: ``fail_over(folder: Path) -> None`` kills the cluster's
  primary PostgreSQL and promotes its standby, returning once the standby takes writes;
  ``CLUSTER_OPTIONS``: the ``quaymoor cluster`` options that start it with a standby.
- ``quaymoor.cluster.netns``: ``cut(folder: Path, process: str) -> None`` and
  ``heal(folder: Path, process: str) -> None`` take the link of the host of the table
  process named ``process`` (``w01``) down and up again; ``CLUSTER_OPTIONS``: the
  options that lay the cluster over hosts of its own (one namespace each).
"""

from __future__ import annotations

import importlib
import importlib.util
from types import ModuleType


def missing(name: str, what: str) -> str | None:
    """None when ``name`` can be imported, else why the fault cannot run."""
    try:
        found = importlib.util.find_spec(name)
    except ModuleNotFoundError:
        found = None
    return None if found is not None else f"needs {name} ({what}), which is not here"


def load(name: str) -> ModuleType:
    return importlib.import_module(name)


def cluster_options(name: str) -> tuple[str, ...]:
    """The module's ``CLUSTER_OPTIONS`` (none when it is not there)."""
    if missing(name, "") is not None:
        return ()
    return tuple(getattr(load(name), "CLUSTER_OPTIONS", ()))

"""A fault whose primitive another part of issue 23 builds (network namespaces to cut a
host off) names the module it needs and what it calls there, and is "not available on this
build" until that module exists.

The contract (functions that block; the bench calls them in a thread, with the cluster's
folder): ``quaymoor.cluster.netns``: ``cut(folder: Path, process: str) -> None`` and
``heal(folder: Path, process: str) -> None`` take the link of the host of the table
process named ``process`` (``w01``) down and up again; ``CLUSTER_OPTIONS``: the
``quaymoor cluster`` options that lay the cluster over hosts of its own (one namespace
each), so that the folder says which host serves which process.
"""

from __future__ import annotations

import importlib
import importlib.util
from types import ModuleType


def missing(name: str, what: str, *, needs: str | None = None) -> str | None:
    """None when ``name`` can be imported (and has the attribute ``needs``, when given),
    else why the fault cannot run."""
    try:
        found = importlib.util.find_spec(name)
    except ModuleNotFoundError:
        found = None
    if found is None:
        return f"needs {name} ({what}), which is not here"
    if needs is not None and not hasattr(load(name), needs):
        return f"needs {name}.{needs} ({what}), which is not here"
    return None


def load(name: str) -> ModuleType:
    return importlib.import_module(name)


def cluster_options(name: str) -> tuple[str, ...]:
    """The module's ``CLUSTER_OPTIONS`` (none when it is not there)."""
    if missing(name, "") is not None:
        return ()
    return tuple(getattr(load(name), "CLUSTER_OPTIONS", ()))

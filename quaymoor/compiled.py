"""Which modules run compiled, and the switch that runs them pure.

How it works. ``pip install -e .`` (``make``'s set-up) compiles the modules of
``COMPILED`` with mypyc (``setup.py``): each gets an extension module beside its ``.py``
(``engine.cpython-311-x86_64-linux-gnu.so``), all sharing ``quaymoor/_compiled__mypyc``,
and the build writes ``MANIFEST``: the SHA-256 of each source it compiled. Python's import
prefers the extension, so the compiled module runs; where there is none, the ``.py`` runs:
the same source, uncompiled.

``install`` runs first thing in ``quaymoor/__init__.py`` and puts ``PureFinder`` at the
front of ``sys.meta_path``, so that every module of ``COMPILED`` is loaded from its
``.py``, in two cases:

- ``QUAYMOOR_PURE=1`` in the environment (tests, benchmarks, bisecting a compiled bug);
- the build is stale: a compiled module's source differs from the one compiled (the
  manifest's hash), so the extension would run old code. It warns (``StaleBuild``) and runs
  everything pure, never a mix of old and new: ``make rebuild`` compiles again.

Everything in ``COMPILED`` is pure, synchronous code on plain classes and ints (and, in
``protocol.patch``, on JSON-ready dicts and lists: the server's per-seat view diffs). A module
that defines attrs classes stays interpreted (``actions``, ``events``, ``data``, ``views``,
``describe``, ``scoring``, ``splice``, ``record``, ``verify``), and so do ``fairness``
and ``game``, whose tests subclass ``DrawStream`` and replace a ``Game``'s ``apply`` to
inject faults, which a compiled class forbids; so does ``converter``
(cattrs): in a compiled module a class's annotations are erased to their runtime classes
(``int | None`` becomes ``type``, ``list[Good]`` becomes ``list``), and cattrs structures
the wire's values by exactly those annotations.
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
import warnings
from collections.abc import Mapping, Sequence
from pathlib import Path
from types import ModuleType
from typing import Final

#: The modules compiled with mypyc, in the order ``setup.py`` hands them over.
COMPILED: Final = (
    "quaymoor.rules.bargemaster",
    "quaymoor.rules.chandler",
    "quaymoor.rules.common",
    "quaymoor.rules.engine",
    "quaymoor.rules.errors",
    "quaymoor.rules.explain",
    "quaymoor.rules.mason",
    "quaymoor.rules.miller",
    "quaymoor.rules.points",
    "quaymoor.rules.reeve",
    "quaymoor.rules.safe_move",
    "quaymoor.rules.state",
    "quaymoor.rules.surveyor",
    "quaymoor.rules.words",
    "quaymoor.protocol.patch",
    "quaymoor.bots.determinize",
    "quaymoor.bots.heuristic",
    "quaymoor.bots.ismcts",
    "quaymoor.bots.phase_choices",
    "quaymoor.bots.prng",
    "quaymoor.bots.reeve_plan",
    "quaymoor.bots.valuation",
)
#: The environment variable that forces the pure modules ("1").
PURE_ENV: Final = "QUAYMOOR_PURE"
#: Written by the build beside this file: ``{module: sha256 of the source compiled}``.
MANIFEST: Final = "compiled.json"
#: The shared library of the compiled modules (mypyc's group), inside ``quaymoor``.
GROUP: Final = "quaymoor._compiled"

_ROOT = Path(__file__).resolve().parent.parent


class StaleBuild(RuntimeWarning):
    """The compiled modules are older than their sources: the pure ones run instead."""


def source_path(module: str, root: Path = _ROOT) -> Path:
    """The ``.py`` of ``module`` under ``root`` (the folder holding ``quaymoor``)."""
    return root.joinpath(*module.split(".")).with_suffix(".py")


def source_hashes(root: Path = _ROOT) -> dict[str, str]:
    """The SHA-256 of each compiled module's source now: what the build writes."""
    return {m: hashlib.sha256(source_path(m, root).read_bytes()).hexdigest() for m in COMPILED}


def stale_modules(manifest: Mapping[str, str], now: Mapping[str, str]) -> list[str]:
    """The modules whose source ``now`` is not the one ``manifest`` says was compiled.

    >>> stale_modules({"a": "1", "b": "2"}, {"a": "1", "b": "3", "c": "4"})
    ['b', 'c']
    """
    return sorted(m for m, digest in now.items() if manifest.get(m) != digest)


def pure_requested(environ: Mapping[str, str] = os.environ) -> bool:
    """``QUAYMOOR_PURE`` is set to anything but empty or ``0``."""
    return environ.get(PURE_ENV, "") not in ("", "0")


class PureFinder(importlib.abc.MetaPathFinder):
    """Finds the modules of ``COMPILED`` as source (``.py``) only, so that an extension
    module beside one is never loaded; every other import goes on as usual."""

    def __init__(self, names: Sequence[str] = COMPILED) -> None:
        self.names = frozenset(names)

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname not in self.names or path is None:
            return None
        leaf = fullname.rpartition(".")[2] + ".py"
        for entry in path:
            candidate = Path(entry) / leaf
            if candidate.is_file():
                return importlib.util.spec_from_file_location(fullname, candidate)
        return None


def _read_manifest() -> dict[str, str] | None:
    try:
        data = json.loads((_ROOT / "quaymoor" / MANIFEST).read_text())
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def install() -> None:
    """Put ``PureFinder`` first on ``sys.meta_path`` when the pure modules are asked for
    or the build is stale (warning ``StaleBuild`` then). Idempotent."""
    if any(isinstance(f, PureFinder) for f in sys.meta_path):
        return
    if not pure_requested():
        manifest = _read_manifest()
        if manifest is None:
            return  # never compiled here: only the .py files exist
        stale = stale_modules(manifest, source_hashes())
        if not stale:
            return
        shown = ", ".join(stale[:3]) + (" ..." if len(stale) > 3 else "")
        warnings.warn(f"quaymoor: the compiled modules are older than their sources "
                      f"({shown}); running them pure. Run `make rebuild` to compile again.",
                      StaleBuild, stacklevel=2)
    sys.meta_path.insert(0, PureFinder())


def source_module(name: str) -> ModuleType:
    """A fresh copy of module ``name`` run from its ``.py`` (not put in ``sys.modules``):
    what a compiled module no longer has, its docstrings, for the doctests."""
    spec = importlib.util.spec_from_file_location(name, source_path(name))
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def is_compiled(module: ModuleType) -> bool:
    """Whether ``module`` was loaded from an extension module (not its ``.py``)."""
    return not str(module.__file__).endswith(".py")


if __name__ == "__main__":  # the Makefile's list of what a rebuild depends on
    print(" ".join(str(source_path(m).relative_to(_ROOT)) for m in COMPILED))

"""Compiled and pure in one benchmark: the same measurement run here and in a child
process with ``QUAYMOOR_PURE=1`` (``quaymoor/compiled.py``), its figures read back as JSON.

A measurement is a module-level function of a ``tools`` module that takes its arguments
as keywords and returns a JSON-ready dict; the child runs ``python -m quaymoor.tools.
side_by_side MODULE FUNCTION JSON-KWARGS`` and prints that dict.
"""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
from typing import Any

from quaymoor import compiled
from quaymoor.rules import engine


def running() -> str:
    """What this process runs: ``compiled``, or ``pure`` (forced, stale or never built)."""
    return "compiled" if compiled.is_compiled(engine) else "pure"


def measure_pure(module: str, function: str, **kwargs: Any) -> dict[str, Any]:
    """``module.function(**kwargs)`` in a child process running the pure modules."""
    env = os.environ | {compiled.PURE_ENV: "1"}
    out = subprocess.run(
        [sys.executable, "-m", "quaymoor.tools.side_by_side", module, function,
         json.dumps(kwargs)], env=env, capture_output=True, text=True, check=True)
    result: dict[str, Any] = json.loads(out.stdout)
    return result


def ratio(fast: float, slow: float) -> str:
    """``fast / slow`` as "2.7x" ("-" when ``slow`` is 0)."""
    return f"{fast / slow:.1f}x" if slow else "-"


def _child(module: str, function: str, kwargs: str) -> None:
    measure = getattr(importlib.import_module(module), function)
    print(json.dumps(measure(**json.loads(kwargs))))


if __name__ == "__main__":
    _child(*sys.argv[1:4])

"""The compiled modules and their pure fallback (``quaymoor/compiled.py``): a build runs
every module of ``COMPILED`` compiled, ``QUAYMOOR_PURE=1`` runs each from its ``.py``, and
a finder that forces the source never loads the extension beside it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from quaymoor import compiled

ROOT = Path(__file__).resolve().parents[1]
_SHOW_FILES = "import importlib, sys\n" + "\n".join(
    f"print(importlib.import_module({m!r}).__file__)" for m in compiled.COMPILED)


def _files(**env: str) -> list[str]:
    """Where each module of ``COMPILED`` is loaded from, in a fresh interpreter."""
    environ = {k: v for k, v in os.environ.items() if k != compiled.PURE_ENV} | env
    out = subprocess.run([sys.executable, "-c", _SHOW_FILES], env=environ, cwd=ROOT,
                         capture_output=True, text=True, check=True)
    return out.stdout.split()


def test_quaymoor_pure_loads_every_compiled_module_from_its_source() -> None:
    files = _files(QUAYMOOR_PURE="1")
    assert files == [str(compiled.source_path(m)) for m in compiled.COMPILED]


def test_a_build_runs_every_listed_module_compiled() -> None:
    if not (ROOT / "quaymoor" / compiled.MANIFEST).exists():
        pytest.skip("not built here (no quaymoor/compiled.json): make builds it")
    files = _files()
    pure = [f for f in files if f.endswith(".py")]
    assert pure == [], "loaded from source (a stale build? make rebuild)"
    assert all(f.endswith(".so") for f in files)


def test_the_manifest_matches_the_sources() -> None:
    """A stale build runs pure (with a warning); ``make`` rebuilds before the tests."""
    path = ROOT / "quaymoor" / compiled.MANIFEST
    if not path.exists():
        pytest.skip("not built here (no quaymoor/compiled.json): make builds it")
    assert compiled.stale_modules(json.loads(path.read_text()), compiled.source_hashes()) == []


def test_the_pure_finder_takes_the_source_over_an_extension(tmp_path: Path) -> None:
    (tmp_path / "engine.py").write_text("")
    (tmp_path / "engine.cpython-311-x86_64-linux-gnu.so").write_bytes(b"not a library")
    finder = compiled.PureFinder(["pkg.engine"])
    spec = finder.find_spec("pkg.engine", [str(tmp_path)])
    assert spec is not None and spec.origin == str(tmp_path / "engine.py")
    assert finder.find_spec("pkg.other", [str(tmp_path)]) is None
    assert finder.find_spec("pkg.engine", None) is None


def test_quaymoor_pure_is_read_as_a_switch() -> None:
    assert compiled.pure_requested({"QUAYMOOR_PURE": "1"})
    assert not compiled.pure_requested({"QUAYMOOR_PURE": "0"})
    assert not compiled.pure_requested({})


def test_the_makefile_list_names_every_compiled_source() -> None:
    out = subprocess.run([sys.executable, "quaymoor/compiled.py"], cwd=ROOT,
                         capture_output=True, text=True, check=True).stdout.split()
    assert out == [str(compiled.source_path(m).relative_to(ROOT)) for m in compiled.COMPILED]
    assert all((ROOT / f).is_file() for f in out)

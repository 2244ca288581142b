"""The build: the rules and the bots' hot paths compiled with mypyc (``quaymoor/compiled.py``
says which modules, and why the others stay interpreted).

mypyc is part of mypy (a build requirement in pyproject.toml, a dev dependency already):
it compiles type-annotated Python to C extension modules, and the engine's plain
``__slots__`` state and lists of ints are what it compiles best. The compiled modules run
about twice as fast or more (``quaymoor bench rules``); the ``.py`` files stay the source,
and run as they are where no extension module is present or ``QUAYMOOR_PURE=1``.

After a build the SHA-256 of each source compiled goes into ``quaymoor/compiled.json``,
which ``quaymoor.compiled.install`` reads to notice a stale build.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from typing import Any

from setuptools import setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent


def _compiled_module() -> Any:
    """``quaymoor/compiled.py`` loaded by path (importing the package is not needed)."""
    spec = importlib.util.spec_from_file_location("_quaymoor_compiled", ROOT / "quaymoor"
                                                  / "compiled.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


compiled = _compiled_module()
HASHES = compiled.source_hashes(ROOT)


class BuildExt(build_ext):
    """setuptools' build_ext, then the manifest of what was compiled, both in the build
    folder (for a wheel) and beside the sources (for an editable install)."""

    def run(self) -> None:
        super().run()
        text = json.dumps(HASHES, indent=1, sort_keys=True) + "\n"
        for base in {Path(self.build_lib), ROOT}:
            (base / "quaymoor").mkdir(parents=True, exist_ok=True)
            (base / "quaymoor" / compiled.MANIFEST).write_text(text)


def _extensions() -> list[Any]:
    from mypyc.build import mypycify

    paths = [str(compiled.source_path(m, ROOT).relative_to(ROOT)) for m in compiled.COMPILED]
    return mypycify(paths, opt_level="3", group_name=compiled.GROUP)


setup(ext_modules=_extensions(), cmdclass={"build_ext": BuildExt})

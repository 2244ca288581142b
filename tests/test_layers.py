"""The layout tells the architecture: each folder of ``quaymoor`` imports only from the
layers that docs/architecture.md puts below it."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "quaymoor"

#: What each part may import (besides itself), as docs/architecture.md draws it.
ALLOWED: dict[str, set[str]] = {
    "rules": set(),
    "bots": {"rules"},
    "protocol": {"rules"},
    "store": {"rules", "ops", "ratings"},
    "ops": set(),
    "ratings": set(),
    "config": {"store"},
    "accounts": {"protocol", "store"},
    "actors": {"rules", "bots", "protocol", "store", "ops", "config"},
    "http": {"rules", "protocol", "store", "actors", "accounts", "ratings"},
    "cluster": {"rules", "store", "actors", "config", "ops"},
    "server": {"actors", "http", "store", "ops", "config", "cluster", "accounts"},
    "tools": {"rules", "bots", "protocol", "ops", "config", "cluster", "ratings"},
    "cli": {"rules", "store", "config", "server", "tools", "cluster", "accounts"},
    "__main__": {"cli"},
    "__init__": {"compiled"},
    "compiled": set(),
}


def _part(path: Path) -> str:
    rel = path.relative_to(PACKAGE).parts
    return rel[0] if len(rel) > 1 else rel[0].removesuffix(".py")


def _imports() -> set[tuple[str, str, str]]:
    found = set()
    for path in PACKAGE.rglob("*.py"):
        src = _part(path)
        for node in ast.walk(ast.parse(path.read_text())):
            names: list[str] = []
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            for name in names:
                bits = name.split(".")
                if bits[0] == "quaymoor" and len(bits) > 1 and bits[1] != src:
                    found.add((src, bits[1], str(path.relative_to(PACKAGE))))
    return found


def test_every_part_is_listed() -> None:
    assert {_part(p) for p in PACKAGE.rglob("*.py")} == set(ALLOWED)


def test_each_layer_imports_only_from_below() -> None:
    wrong = sorted(f"{where}: {src} imports {dst}" for src, dst, where in _imports()
                   if dst not in ALLOWED[src])
    assert wrong == []


def test_the_rules_import_nothing_of_the_shell() -> None:
    shell = {"trio", "socket", "sqlite3", "random", "time", "asyncio", "threading"}
    for path in (PACKAGE / "rules").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            names: list[str] = []
            if isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            for name in names:
                assert name.split(".")[0] not in shell, (path, name)

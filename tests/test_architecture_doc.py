"""docs/architecture.md names every module, and only modules that exist.

"The parts" is a table with a row per folder (`rules/`, `tools/fuzz/`, ..., `top level`
for ``quaymoor/`` itself, `web/`). Every module must be named in its own folder's row:
every ``.py`` under ``quaymoor/`` but ``__init__.py`` (a package's modules each by name,
in the row of the package's folder: a package is not named by its folder alone), and
every ``web/*.js``. A bare module name in a row is a file of that row's folder, and must
exist there; a name with a folder (``http/games.py``, ``web/net.js``) is a reference from
the repository or from ``quaymoor/``, and a module named anywhere else in the doc (those,
or a bare ``table.js``) must exist too.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "architecture.md"
PACKAGE = ROOT / "quaymoor"
WEB = ROOT / "web"

#: A module's name in the doc: a file name ending in .py or .js, maybe after folders.
MODULE = re.compile(r"(?<![\w./-])((?:[\w-]+/)*[\w-]+\.(?:py|js))(?![\w/])")
#: A row of "The parts": its first cell (a folder in backticks, or "top level"), the rest.
ROW = re.compile(r"^\| *(`[\w/]+/`|top level) *\|(.*)\|\s*$")


def parts_rows() -> dict[Path, str]:
    """Each row of the doc's "The parts" table: the folder it describes and its text."""
    text = DOC.read_text()
    table = text.split("## The parts", 1)[1].split("\n## ", 1)[0]
    rows: dict[Path, str] = {}
    for line in table.splitlines():
        found = ROW.match(line)
        if found is None:
            continue
        head = found.group(1).strip("`")
        if head == "top level":
            folder = PACKAGE
        elif head == "web/":
            folder = WEB
        else:
            folder = PACKAGE / head
        assert folder not in rows, f"two rows for {head}"
        rows[folder] = found.group(2)
    return rows


def modules() -> set[Path]:
    """Every module the doc must name: quaymoor's .py files but __init__.py, web/*.js."""
    python = {p for p in PACKAGE.rglob("*.py") if p.name != "__init__.py"}
    return python | set(WEB.glob("*.js"))


def referenced(name: str) -> bool:
    """Whether a module named with its folder (``web/net.js``, ``http/games.py``) exists."""
    return any((base / name).is_file() for base in (ROOT, PACKAGE))


def test_every_module_is_named_in_its_folders_row() -> None:
    rows = parts_rows()
    unnamed = []
    for module in sorted(modules()):
        row = rows.get(module.parent)
        if row is None or module.name not in MODULE.findall(row):
            unnamed.append(str(module.relative_to(ROOT)))
    assert not unnamed, f"not named in their folder's row of docs/architecture.md: {unnamed}"


def test_every_folder_with_modules_has_a_row() -> None:
    folders = {module.parent for module in modules()}
    missing = sorted(str(f.relative_to(ROOT)) for f in folders - set(parts_rows()))
    assert not missing, f"no row in docs/architecture.md's table for: {missing}"


def test_a_rows_modules_exist_in_its_folder() -> None:
    absent = [
        f"{folder.relative_to(ROOT)}: {name}"
        for folder, row in parts_rows().items()
        for name in MODULE.findall(row)
        if not ((folder / name).is_file() if "/" not in name else referenced(name))
    ]
    assert not absent, f"docs/architecture.md names modules that do not exist: {absent}"


def test_every_module_the_doc_names_exists() -> None:
    names = set(MODULE.findall(DOC.read_text()))
    basenames = {module.name for module in modules()}
    absent = sorted(
        name for name in names
        if not (name in basenames if "/" not in name else referenced(name))
    )
    assert not absent, f"docs/architecture.md names modules that do not exist: {absent}"

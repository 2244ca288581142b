"""The browser client's modules held to the Python side's standard (issue 21): each
``web/*.js`` is small (at most ``MAX_LINES`` lines, as the style guide asks of a module),
and each is type-checked by ``tsc`` (``make lint-js``), which checks a module only when it
opens with ``// @ts-check``. No browser needed: these read the files."""

from __future__ import annotations

from pathlib import Path

WEB = Path(__file__).resolve().parents[2] / "web"
MAX_LINES = 400

#: Modules allowed over MAX_LINES for now.
#: wire.js is generated data (quaymoor wire-js): a table of names, read by nobody line by line.
TOO_LONG_FOR_NOW: frozenset[str] = frozenset({"wire.js"})

#: Modules not yet checked by tsc (no ``// @ts-check``): none now; a module may be listed
#: here for a while only when it cannot open with the pragma and pass ``make lint-js`` yet.
NOT_YET_CHECKED: frozenset[str] = frozenset()

PRAGMA = "// @ts-check"


def modules() -> list[Path]:
    found = sorted(WEB.glob("*.js"))
    assert found, f"no modules in {WEB}"
    return found


def test_every_module_is_at_most_400_lines() -> None:
    lengths = {p.name: len(p.read_text(encoding="utf-8").splitlines()) for p in modules()}
    over = {name: n for name, n in lengths.items()
            if n > MAX_LINES and name not in TOO_LONG_FOR_NOW}
    assert not over, f"over {MAX_LINES} lines (split them): " + ", ".join(
        f"web/{name} ({n})" for name, n in sorted(over.items()))


def test_every_module_opens_with_ts_check() -> None:
    unchecked = [p.name for p in modules()
                 if p.name not in NOT_YET_CHECKED
                 and p.read_text(encoding="utf-8").splitlines()[:1] != [PRAGMA]]
    assert not unchecked, f"not opening with {PRAGMA!r} (so tsc does not check them): " + \
        ", ".join(f"web/{name}" for name in unchecked)


def test_the_lists_of_exceptions_name_real_modules() -> None:
    names = {p.name for p in modules()}
    assert names >= TOO_LONG_FOR_NOW | NOT_YET_CHECKED, "a module listed here is gone"

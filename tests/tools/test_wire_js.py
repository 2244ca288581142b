"""``web/wire.js`` is exactly what ``quaymoor/tools/wire_js.py`` renders from the sources
(a change to the codes without ``quaymoor wire-js`` fails here), it holds every code and
name, and the browser can load it: frozen objects, ``// @ts-check`` first."""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest

from quaymoor.cli import main
from quaymoor.protocol.codes import Close, Code
from quaymoor.protocol.pace import Pace, TableState
from quaymoor.rules.state import Phase
from quaymoor.tools import wire_js


def test_web_wire_js_is_generated_from_the_sources() -> None:
    assert wire_js.WIRE_JS.read_text(encoding="utf-8") == wire_js.render(), \
        "web/wire.js is stale: run quaymoor wire-js"


def test_the_check_command_fails_on_a_stale_file(monkeypatch: pytest.MonkeyPatch) -> None:
    assert main(["wire-js", "--check"]) == 0
    monkeypatch.setattr(wire_js, "render", lambda: "// @ts-check\n")
    assert main(["wire-js", "--check"]) == 1


def test_it_names_every_code_phase_state_and_pace() -> None:
    text = wire_js.render()
    assert text.startswith("// @ts-check\n")
    for code in Code:
        assert f'"{code.name}": "{code.value}"' in text
    for close in Close:
        assert f'"{close.name}": {close.value}' in text
    for name in [*(p.name.lower() for p in Phase), *(t.value for t in TableState),
                 *(p.value for p in Pace), "timed_out", "watchers", "explanation"]:
        assert f'"{name}"' in text


@pytest.mark.skipif(shutil.which("node") is None, reason="needs node")
def test_the_browser_loads_it_frozen() -> None:
    script = (
        "const w = await import(process.argv[1]);"
        "const out = {frozen: Object.entries(w).every(([, v]) => typeof v !== 'object'"
        " || Object.isFrozen(v)), notHost: w.CODES.NOT_HOST, meaning: w.CODE_MEANINGS.not_host,"
        " tooSlow: w.CLOSE.TOO_SLOW, people: w.PACE_SECONDS.people, goods: w.GOODS};"
        "console.log(JSON.stringify(out));")
    done = subprocess.run(["node", "--input-type=module", "-e", script,
                           wire_js.WIRE_JS.as_uri()], capture_output=True, text=True,
                          timeout=30, check=True)
    out = json.loads(done.stdout)
    assert out["frozen"] and out["notHost"] == "not_host" and out["tooSlow"] == 4003
    assert out["people"] == 1.6 and out["goods"][0] == "clay" and out["meaning"]

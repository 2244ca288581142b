"""axe-core inside Chromium: the accessibility check of every page the browser tests open.

``node_modules/axe-core/axe.min.js`` (pinned in package.json; ``make test-all`` installs it)
is injected into the page and run with the WCAG 2.2 A/AA rules and axe's best practices. A
serious or critical violation fails the test that found it; moderate and minor ones are
printed and kept, per page and size, in ``test-artifacts/axe/<name>.json`` for the report.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.web.conftest import ROOT

AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
OUT = ROOT / "test-artifacts" / "axe"
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]
BLOCKING = {"serious", "critical"}

RUN = """async (tags) => {
  const r = await axe.run(document, { runOnly: { type: "tag", values: tags },
                                      resultTypes: ["violations"] });
  return r.violations.map((v) => ({
    id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.map((n) => ({ target: n.target.join(" "), summary: n.failureSummary,
                                 html: n.html.slice(0, 160) })),
  }));
}"""


def violations(page: Any) -> list[dict[str, Any]]:
    """axe's violations on the page as it is now (axe injected on first use)."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        assert AXE.exists(), f"{AXE} is missing: run `npm ci` (make test-all does)"
        page.add_script_tag(path=str(AXE))
    found: list[dict[str, Any]] = page.evaluate(RUN, TAGS)
    return found


def check(page: Any, name: str) -> list[dict[str, Any]]:
    """Run axe on the page: no serious or critical violation (the assertion lists each with
    its elements); the others are printed and recorded as ``name``. Returns them."""
    found = violations(page)
    blocking = [v for v in found if v["impact"] in BLOCKING]
    rest = [v for v in found if v["impact"] not in BLOCKING]
    OUT.mkdir(parents=True, exist_ok=True)
    size = page.viewport_size
    record = {"page": name, "url": page.url, "size": size, "violations": found}
    (OUT / f"{name}.json").write_text(json.dumps(record, indent=1, ensure_ascii=False))
    for v in rest:
        print(f"axe {name}: {v['impact']} {v['id']} ({len(v['nodes'])}): {v['help']}")
    assert not blocking, f"axe on {name}: " + "; ".join(
        f"{v['impact']} {v['id']} ({v['help']}) at "
        + ", ".join(f"{n['target']}: {n['summary']}" for n in v["nodes"][:6])
        for v in blocking)
    return rest


def remaining(path: Path = OUT) -> dict[str, set[str]]:
    """Every non-blocking rule recorded so far, with the pages it was found on."""
    out: dict[str, set[str]] = {}
    for file in sorted(path.glob("*.json")):
        data = json.loads(file.read_text())
        for v in data["violations"]:
            out.setdefault(f"{v['impact']} {v['id']}", set()).add(data["page"])
    return out

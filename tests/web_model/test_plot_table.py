"""One plot table everywhere: the table in ``docs/fairness.md`` (parsed out of the
document), the verify page's own copy (``web/fairness_plots.js`` ``SETUPS``, imported
under node: the page never fetches it) and the rules' data (``quaymoor.rules.data``)."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from quaymoor.rules.data import SETUPS

ROOT = Path(__file__).resolve().parents[2]
GOODS = ["clay", "flax", "wool", "honey", "amber"]
HEADER = "| players | clay, flax, wool, honey, amber | starting plots | face up |"


def document_table() -> dict[int, dict[str, Any]]:
    """The plot table of docs/fairness.md, by player count."""
    lines = [line.strip() for line in (ROOT / "docs/fairness.md").read_text().splitlines()]
    assert lines.count(HEADER) == 1, "docs/fairness.md has no (or more than one) plot table"
    at = lines.index(HEADER)
    assert re.fullmatch(r"\|( --- \|){4}", lines[at + 1])
    table: dict[int, dict[str, Any]] = {}
    for line in lines[at + 2:]:
        if not line.startswith("|"):
            break
        cells = [c.strip() for c in line.strip("|").split("|")]
        players, plots, starting, face_up = cells
        assert int(players) not in table, f"two rows for {players} players"
        table[int(players)] = {
            "plots": [int(x) for x in plots.split(",")],
            "starting": [x.strip() for x in starting.split(",")],
            "faceUp": int(face_up),
        }
    return table


def page_table() -> dict[int, dict[str, Any]]:
    """``SETUPS`` of web/fairness_plots.js, as the page's code holds it."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    script = ("import { SETUPS } from './web/fairness_plots.js';"
              "console.log(JSON.stringify(SETUPS));")
    run = subprocess.run([node, "--input-type=module", "-e", script], cwd=ROOT,
                         capture_output=True, text=True, timeout=60, check=False)
    assert run.returncode == 0, run.stderr
    return {int(k): v for k, v in json.loads(run.stdout).items()}


def rules_table() -> dict[int, dict[str, Any]]:
    return {n: {"plots": list(s.plots), "starting": [g.name.lower() for g in s.starting_plots],
                "faceUp": s.face_up_plots} for n, s in SETUPS.items()}


def test_the_document_the_page_and_the_rules_have_one_plot_table() -> None:
    doc = document_table()
    assert sorted(doc) == [2, 3, 4, 5]
    for row in doc.values():
        assert len(row["plots"]) == len(GOODS)
        assert set(row["starting"]) <= set(GOODS)
    assert page_table() == doc
    assert rules_table() == doc

"""The browser's pure modules under node: the table's model (``web/table_model.js``), the
same code the page runs, driven with views and patches as the server sends them."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]


def test_the_table_model_under_node() -> None:
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    tests = sorted(str(p) for p in HERE.glob("*.test.mjs"))
    assert tests, "no node tests found"
    run = subprocess.run([node, "--test", *tests], cwd=ROOT, capture_output=True, text=True,
                         timeout=120, check=False)
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
    assert "# fail 0" in run.stdout

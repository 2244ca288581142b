"""Fixtures for the browser tests: one real server and one headless Debian Chromium for the
whole run (each test gets its own browser context, so its own storage and table).

Needs /usr/bin/chromium and the ``playwright`` package; Playwright's own browser download is
never used. Without them every browser test is skipped with the reason.
"""

from __future__ import annotations

import importlib.util
import os
import queue
import re
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = Path("/usr/bin/chromium")
ROOT = Path(__file__).resolve().parents[2]
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run",
    "--autoplay-policy=no-user-gesture-required",
]
SERVING = re.compile(r"Quaymoor is serving on (http://\S+?)/?\s*$")


def skip_reason() -> str | None:
    if not CHROMIUM.exists():
        return "browser tests need /usr/bin/chromium (apt-get install -y chromium)"
    if importlib.util.find_spec("playwright") is None:
        return "browser tests need the playwright package (pip install playwright)"
    return None


@pytest.fixture(scope="session")
def server_url() -> Iterator[str]:
    """A real server in a subprocess, on a free port, with bots that move at once."""
    reason = skip_reason()
    if reason:
        pytest.skip(reason)
    proc = subprocess.Popen(
        [sys.executable, "-m", "quaymoor", "serve", "--port", "0", "--bot-delay", "0"],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    lines: queue.Queue[str] = queue.Queue()

    def pump() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            lines.put(line)

    threading.Thread(target=pump, daemon=True).start()
    try:
        deadline = time.monotonic() + 30
        url = None
        while url is None:
            left = deadline - time.monotonic()
            if left <= 0 or proc.poll() is not None:
                pytest.fail("the server did not say where it is serving")
            try:
                match = SERVING.search(lines.get(timeout=left))
            except queue.Empty:
                continue
            if match:
                url = match.group(1)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


@pytest.fixture(scope="session")
def browser(server_url: str) -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    pw = sync_playwright().start()
    try:
        chromium = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            yield chromium
        finally:
            chromium.close()
    finally:
        pw.stop()

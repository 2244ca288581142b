"""Fixtures for the browser tests: one real server and one headless Debian Chromium for the
whole run (each test gets its own browser context, so its own storage and table).

Needs /usr/bin/chromium and the ``playwright`` package; Playwright's own browser download is
never used. Without them every browser test is skipped with the reason.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.server_process import browser_skip_reason as skip_reason
from tests.server_process import serving

CHROMIUM = Path("/usr/bin/chromium")
ROOT = Path(__file__).resolve().parents[2]
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run",
    "--autoplay-policy=no-user-gesture-required",
]


@pytest.fixture(scope="session")
def server_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A real server in a subprocess, on a free port, with bots that move at once and an
    archive of its own."""
    reason = skip_reason()
    if reason:
        pytest.skip(reason)
    archive = tmp_path_factory.mktemp("web-archive") / "games.sqlite3"
    with serving(archive, "--bot-delay", "0") as url:
        yield url


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

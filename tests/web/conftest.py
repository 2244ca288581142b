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
from tests.server_process import chromium, serving

ROOT = Path(__file__).resolve().parents[2]


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
    with chromium() as browser:
        yield browser


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, int]]:
    """A server of the test module's own, for accounts: (http://localhost:<port>, port)
    (passkeys are made for localhost: WebAuthn takes no IP address)."""
    reason = skip_reason()
    if reason:
        pytest.skip(reason)
    archive = tmp_path_factory.mktemp("account-archive") / "games.sqlite3"
    with serving(archive, "--bot-delay", "0") as url:
        port = int(url.rstrip("/").rsplit(":", 1)[1])
        yield f"http://localhost:{port}", port

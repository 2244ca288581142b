"""Smoke test of the web client in a real browser: play a whole game against bots by
clicking the decision bar, then check the revealed seed against the fingerprint.

Needs Debian's chromium at /usr/bin/chromium and the ``playwright`` package (its own
browser download is never used). Screenshots go to ``test-artifacts/screenshots/``.
"""

from __future__ import annotations

import hashlib
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

import pytest

CHROMIUM = Path("/usr/bin/chromium")
ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / "test-artifacts" / "screenshots"
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run",
]
SIZES = {"desktop": (1440, 900), "phone": (375, 812)}
SERVING = re.compile(r"Quaymoor is serving on (http://\S+?)/?\s*$")
GAME_TIMEOUT = 600.0


def _skip_reason() -> str | None:
    if not CHROMIUM.exists():
        return "browser smoke test needs /usr/bin/chromium (apt-get install -y chromium)"
    if importlib.util.find_spec("playwright") is None:
        return "browser smoke test needs the playwright package (pip install playwright)"
    return None


@pytest.fixture
def server_url() -> Iterator[str]:
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


def _shots(page, name: str) -> None:  # type: ignore[no-untyped-def]
    SHOTS.mkdir(parents=True, exist_ok=True)
    for size, (width, height) in SIZES.items():
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(150)
        page.screenshot(path=str(SHOTS / f"{name}-{size}.png"))
    page.set_viewport_size({"width": 1440, "height": 900})


def test_play_a_whole_game_by_clicking(server_url: str) -> None:
    reason = _skip_reason()
    if reason:
        pytest.skip(reason)
    from playwright.sync_api import Error as PlaywrightError
    from playwright.sync_api import sync_playwright

    problems: list[str] = []
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1440, "height": 900})
            page.on("pageerror", lambda exc: problems.append(f"page error: {exc}"))
            page.on("console", lambda msg: problems.append(f"console: {msg.text}")
                    if msg.type == "error" else None)
            page.goto(server_url + "/")
            play_now = page.get_by_role("button", name="Play now against bots")
            play_now.wait_for()
            _shots(page, "lobby")
            play_now.click()

            page.locator("#decision .what").first.wait_for()
            shown = page.locator("#fingerprint")
            page.wait_for_function(
                "document.getElementById('fingerprint').textContent.length > 0")
            header_fp = shown.inner_text()

            seed = page.locator("#seed")
            first_choice = page.locator("#actions button:not([disabled])").first
            clicks = 0
            deadline = time.monotonic() + GAME_TIMEOUT
            while not seed.is_visible():
                assert time.monotonic() < deadline, f"no end after {clicks} clicks"
                if first_choice.count() == 0:
                    page.wait_for_timeout(20)
                    continue
                try:
                    first_choice.click(timeout=2000)
                except PlaywrightError:
                    continue  # the bar moved on under the pointer: look again
                clicks += 1
                if clicks == 40:
                    _shots(page, "midgame")
            assert clicks > 10

            seed_hex = seed.inner_text().strip()
            fingerprint = page.locator("#end-fingerprint").inner_text().strip()
            assert hashlib.sha256(bytes.fromhex(seed_hex)).hexdigest() == fingerprint
            assert fingerprint in header_fp
            assert page.locator("#winners").is_visible()
            page.locator(".verify.ok").wait_for(timeout=5000)
            _shots(page, "end")
        finally:
            browser.close()
    assert not problems, problems

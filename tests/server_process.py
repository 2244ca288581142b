"""A real ``quaymoor serve`` in a subprocess on a free port, for tests that need the
whole program (browser tests, SIGTERM, restarts). One helper for every such test."""

from __future__ import annotations

import contextlib
import importlib.util
import os
import queue
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = Path("/usr/bin/chromium")
SERVING = re.compile(r"Quaymoor is serving on (http://\S+?)/?\s*$")


@dataclass
class Served:
    """A ``quaymoor serve`` subprocess."""

    proc: subprocess.Popen[str]
    url: str
    port: int
    lines: queue.Queue[str]

    def stop(self, sig: int = signal.SIGTERM, timeout: float = 20.0) -> int:
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
        try:
            return self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            raise


def start_server(archive: Path, *extra: str) -> Served:
    """``quaymoor serve`` on a free port with this archive; returns once it is listening."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "quaymoor", "serve", "--port", "0", "--archive", str(archive),
         *extra],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
        env={**{k: v for k, v in os.environ.items() if k != "QUAYMOOR_OPERATOR_TOKEN"},
             "PYTHONUNBUFFERED": "1"},
    )
    lines: queue.Queue[str] = queue.Queue()

    def pump() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            lines.put(line)

    threading.Thread(target=pump, daemon=True).start()
    deadline = time.monotonic() + 30
    while True:
        left = deadline - time.monotonic()
        if left <= 0 or proc.poll() is not None:
            proc.kill()
            proc.wait()
            raise AssertionError("the server did not say where it is serving")
        try:
            match = SERVING.search(lines.get(timeout=min(left, 0.5)))
        except queue.Empty:
            continue
        if match:
            url = match.group(1)
            return Served(proc, url, int(url.rsplit(":", 1)[1]), lines)


@contextmanager
def serving(archive: Path, *extra: str) -> Iterator[str]:
    """A server for the duration of a ``with``: yields its base URL, stops it after."""
    served = start_server(archive, *extra)
    try:
        yield served.url
    finally:
        with contextlib.suppress(subprocess.TimeoutExpired):
            served.stop(timeout=10)


def browser_skip_reason() -> str | None:
    """Why browser tests cannot run here, or None when they can."""
    if not CHROMIUM.exists():
        return "browser tests need /usr/bin/chromium (apt-get install -y chromium)"
    if importlib.util.find_spec("playwright") is None:
        return "browser tests need the playwright package (pip install playwright)"
    return None


#: Debian's chromium, quiet on a machine with no network (shared/notes/browser-tests.md);
#: sound may play without a gesture, for the sound tests.
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run",
    "--autoplay-policy=no-user-gesture-required",
]


@contextlib.contextmanager
def chromium() -> Iterator[Any]:
    """Headless Debian chromium driven by Playwright, closed on the way out."""
    from playwright.sync_api import sync_playwright

    pw = sync_playwright().start()
    try:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()
    finally:
        pw.stop()

"""The operators' status page (/status) in a real browser against a real server.

- It updates live: a table made over HTTP appears with its seats, phase and timer; the
  summary counts it; the SVG charts draw after two polls; nothing hidden (no seed, seat
  token or seals) is in the page text or in the JSON it fetched. Screenshots at desktop and
  phone size go to ``test-artifacts/screenshots/status-{desktop,phone}.png``.
- The operator token: a server started with ``--operator-token`` makes the page ask for it,
  say so when it is wrong, and show the tables once it is right (skipped when the server
  has no such option yet). The same flow, and the loopback-only 403, are also checked with
  the answers rewritten in the browser, so the page's side is tested on any server.

Each test starts its own server (decision timers of three seconds, so timeouts fire and a bot
takes over the absent player's seat) and its own browser context; the first also plays a few
moves at a second table in another page, so messages flow and the action latency has samples.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any

import pytest

from tests.server_process import ROOT, serving
from tests.server_process import browser_skip_reason as skip_reason
from tests.web.table_page import new_page, play_by_clicking
from tests.web.table_page import play_now as play_now_in_lobby

SHOTS = ROOT / "test-artifacts" / "screenshots"
TOKEN = "s3cret"
HIDDEN_WORDS = re.compile(r"seed|token|seal", re.IGNORECASE)
DASH = "\N{EN DASH}"  # what the page shows for a figure it does not have
POLLED = "n => Number(document.body.dataset.polls || 0) >= n"


@pytest.fixture(autouse=True)
def _need_a_browser() -> None:
    reason = skip_reason()
    if reason:
        pytest.skip(reason)


def serve_help() -> str:
    return subprocess.run([sys.executable, "-m", "quaymoor", "serve", "--help"], cwd=ROOT,
                          capture_output=True, text=True, timeout=60, check=True).stdout


def running_server(tmp_path: Path, *extra: str) -> AbstractContextManager[str]:
    """``quaymoor serve`` on a free port with its own archive and 3-second timers."""
    return serving(tmp_path / "archive.sqlite3", "--bot-delay", "0",
                   "--decision-seconds", "3", *extra)


def play_now(url: str, name: str = "Op", players: int = 3) -> dict[str, Any]:
    request = urllib.request.Request(
        url + "/api/play-now", data=json.dumps({"name": name, "players": players}).encode(),
        headers={"Content-Type": "application/json"}, method="POST")
    with urllib.request.urlopen(request, timeout=10) as response:
        answer: dict[str, Any] = json.load(response)
    start = urllib.request.Request(
        f"{url}/api/tables/{answer['table']}/start",
        data=json.dumps({"token": answer["token"]}).encode(),
        headers={"Content-Type": "application/json"}, method="POST")
    with urllib.request.urlopen(start, timeout=10):
        pass
    return answer


def open_status(browser: Any, url: str, *, width: int = 1440, height: int = 900
                ) -> tuple[Any, Any, list[str], list[str]]:
    """A fresh context on /status; returns it, the page, the page's errors and the bodies
    of every /status.json answer it received."""
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    page.set_default_timeout(20000)
    problems: list[str] = []
    bodies: list[str] = []
    page.on("pageerror", lambda exc: problems.append(f"page error: {exc}"))
    page.on("console", lambda msg: problems.append(f"console: {msg.text}")
            if msg.type == "error" and "401" not in msg.text and "403" not in msg.text
            else None)

    def keep(response: Any) -> None:
        if response.url.endswith("/status.json") and response.ok:
            bodies.append(response.text())

    page.on("response", keep)
    page.goto(url + "/status")
    return context, page, problems, bodies


def wait_polls(page: Any, n: int) -> None:
    page.wait_for_function(POLLED, arg=n)


def shot(page: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def keys_of(value: Any) -> Iterator[str]:
    if isinstance(value, dict):
        for k, v in value.items():
            yield str(k)
            yield from keys_of(v)
    elif isinstance(value, list):
        for v in value:
            yield from keys_of(v)


def test_status_page_updates_live_and_shows_nothing_hidden(browser: Any, tmp_path: Path
                                                            ) -> None:
    with running_server(tmp_path) as url:
        game = play_now(url)
        table_id = game["table"]
        context, page, problems, bodies = open_status(browser, url)
        player_context, player, _ = new_page(browser)
        try:
            row = page.locator(f"#tables tr[data-table='{table_id}']")
            row.wait_for()
            assert row.locator("th").inner_text() == table_id
            cells = row.locator("td")
            assert cells.nth(0).inner_text() == "playing"
            seats = row.locator(".seat")
            assert seats.count() == 3
            assert seats.nth(0).locator(".seat-name").inner_text() == "Op"
            assert "disconnected" in seats.nth(0).inner_text().lower()
            assert row.locator(".seat.bot").count() == 2  # the two bots, marked
            assert "bot" in row.locator(".seat.bot .badge").first.inner_text().lower()
            assert cells.nth(2).inner_text().isdigit()  # round
            assert re.fullmatch(r"[a-z ]+", cells.nth(3).inner_text())  # phase
            assert cells.nth(5).inner_text().endswith(" s")  # time left
            # a second table with a player in a browser: messages, actions, latency
            play_now_in_lobby(player, url, players=3, name="Player")
            play_by_clicking(player, until=4)
            page.locator("#tables tr .seat.human").wait_for()
            # the absent player's timers run out (3 s): timeouts fire, then a bot takes over
            page.wait_for_function(
                "() => Number(document.getElementById('v-timeouts').textContent) >= 2")
            page.locator(f"#tables tr[data-table='{table_id}'] .seat.botplaying").wait_for()
            wait_polls(page, 4)
            for chart in ("chart-messages", "chart-lag", "chart-rss", "chart-latency"):
                line = page.locator(f"#{chart} path.line").first
                assert re.match(r"M[\d.]+ [\d.]+ L", line.get_attribute("d") or ""), chart
                assert page.locator(f"#{chart} .nodata").is_hidden(), chart
                label = page.get_attribute(f"#{chart} svg", "aria-label") or ""
                assert re.search(r"last \d minutes?:", label), label

            status = json.loads(bodies[-1])
            summary = page.locator("#summary")
            assert summary.get_attribute("aria-live") == "polite"
            count = status["table_count"]
            assert summary.inner_text().startswith(f"{count} table"), summary.inner_text()
            assert page.locator("#v-tables").inner_text() == str(count)
            assert page.locator("#phases .phase").count() >= 1
            if "live" in status:
                assert page.locator("#v-rss").inner_text().endswith("MiB")
                assert page.locator("#v-lag").inner_text().endswith("ms")
                assert page.locator("#v-lat99").inner_text().endswith("ms")

            # nothing hidden: no seed, seat token or seals in the page or in the JSON
            text = page.locator("body").inner_text()
            assert not HIDDEN_WORDS.search(text), HIDDEN_WORDS.search(text)
            assert game["token"] not in page.content()
            assert len(bodies) >= 2
            for body in bodies:
                assert not HIDDEN_WORDS.search(body), body
                assert game["token"] not in body
                assert not any(HIDDEN_WORDS.search(k) for k in keys_of(json.loads(body)))

            shot(page, "status-desktop")
            page.set_viewport_size({"width": 375, "height": 812})
            wait_polls(page, len(bodies) + 1)
            assert page.evaluate("() => document.documentElement.scrollWidth") <= 375
            shot(page, "status-phone")
        finally:
            player_context.close()
            context.close()
    assert not problems, problems


def test_operator_token_is_asked_for_then_used(browser: Any, tmp_path: Path) -> None:
    if "--operator-token" not in serve_help():
        pytest.skip("this server has no --operator-token yet")
    with running_server(tmp_path, "--operator-token", TOKEN) as url:
        game = play_now(url)
        context, page, problems, _ = open_status(browser, url)
        try:
            form = page.locator("#auth-form")
            form.wait_for()
            assert page.locator("#dashboard").is_hidden()
            assert "operator token" in page.locator("#auth-message").inner_text()
            page.fill("#auth-token", "wrong")
            page.click("#auth-form button[type=submit]")
            page.locator("#auth-message", has_text="not accepted").wait_for()
            assert page.evaluate("() => sessionStorage.getItem('quaymoor.operatorToken')") is None
            shot(page, "status-token")
            page.fill("#auth-token", TOKEN)
            page.click("#auth-form button[type=submit]")
            page.locator(f"#tables tr[data-table='{game['table']}']").wait_for()
            assert page.locator("#auth").is_hidden()
            assert page.evaluate("() => sessionStorage.getItem('quaymoor.operatorToken')") == TOKEN
            # a reload keeps the token for this tab: no question again
            page.reload()
            wait_polls(page, 1)
            assert page.locator("#auth").is_hidden()
            page.locator(f"#tables tr[data-table='{game['table']}']").wait_for()
        finally:
            context.close()
    assert not problems, problems


def test_token_and_loopback_answers_in_the_page(browser: Any, tmp_path: Path) -> None:
    """The page's side of 401 and 403, whatever the server: the answers are rewritten in
    the browser (401 unless the right Bearer token is sent; later 403). The real answers
    that get through are made to look like an older server's (no ``live``) with a crash,
    whose error must show as text."""
    with running_server(tmp_path) as url:
        play_now(url)
        context = browser.new_context(viewport={"width": 375, "height": 812})
        page = context.new_page()
        page.set_default_timeout(20000)
        problems: list[str] = []
        page.on("pageerror", lambda exc: problems.append(f"page error: {exc}"))
        seen: list[str | None] = []
        mode = {"refuse": False}

        def answer(route: Any) -> None:
            given = route.request.headers.get("authorization")
            seen.append(given)
            if mode["refuse"]:
                route.fulfill(status=403, content_type="application/json",
                              body='{"error": {"code": "operators_only", "message": "no"}}')
            elif given != f"Bearer {TOKEN}":
                route.fulfill(status=401, content_type="application/json",
                              headers={"WWW-Authenticate": 'Bearer realm="quaymoor"'},
                              body='{"error": {"code": "operator_token", "message": "no"}}')
            else:
                real = route.fetch()
                status = real.json()
                status.pop("live", None)
                status["crash_count"] = 1
                status["crashes"] = [{"table": "0123456789", "at": 1764400000.0,
                                      "error": "TypeError: <b>boom</b>"}]
                route.fulfill(response=real, json=status)

        try:
            page.route("**/status.json", answer)
            page.goto(url + "/status")
            page.locator("#auth-form").wait_for()
            page.fill("#auth-token", "nope")
            page.press("#auth-token", "Enter")
            page.locator("#auth-message", has_text="not accepted").wait_for()
            page.fill("#auth-token", TOKEN)
            page.press("#auth-token", "Enter")
            page.locator("#tables tr").first.wait_for()
            wait_polls(page, 2)
            assert seen[0] is None
            assert "Bearer nope" in seen
            assert seen[-1] == f"Bearer {TOKEN}"
            crash = page.locator("#crashes li")
            assert crash.count() == 1
            assert "0123456789" in crash.inner_text()
            assert crash.locator(".crash-error").inner_text() == "TypeError: <b>boom</b>"
            assert "1 table crash" in page.locator("#summary").inner_text()
            for figure in ("v-rss", "v-timeouts", "v-in", "v-lat99", "v-lag", "v-bot99"):
                assert page.locator(f"#{figure}").inner_text() == DASH, figure
            assert page.locator("#chart-rss .nodata").inner_text() == "Not reported by this server"
            shot(page, "status-crash-older-server")
            mode["refuse"] = True
            page.locator("#auth-message", has_text="loopback").wait_for(timeout=30000)
            assert page.locator("#auth-form").is_hidden()
            assert page.locator("#dashboard").is_hidden()
            shot(page, "status-loopback-only")
        finally:
            context.close()
    assert not problems, problems

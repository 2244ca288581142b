"""The table teaches and paces itself (issue 21): "?" explains the decision in plain words
and links its part of How to play; Hint shows the hard bot's move among bots (issue 26);
the bots' pace is a table setting a seated player changes from the bar; a timeout says
(and announces) what the table played."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.server_process import serving
from tests.web.table_page import new_page, play_now, shot, wait_turn

#: A decision timer short enough to run out within the test, longer than the 10 s that
#: turn it urgent (whose announcement would otherwise come at once and replace ours).
SHORT_TIMER = "12"


SAID_TIMEOUT = """() => (document.getElementById('announce')?.textContent || '')
  .includes('Time ran out')"""


@pytest.fixture(scope="module")
def short_timer_server(tmp_path_factory: pytest.TempPathFactory, server_url: str
                       ) -> Iterator[str]:
    """A server whose decisions time out after 12 s (server_url: the suite's checks)."""
    archive: Path = tmp_path_factory.mktemp("timer-archive") / "games.sqlite3"
    with serving(archive, "--bot-delay", "0", "--decision-seconds", SHORT_TIMER) as url:
        yield url


def test_the_question_mark_explains_the_decision(browser: Any, server_url: str) -> None:
    context, page, watch = new_page(browser)
    try:
        play_now(page, server_url, players=3)
        assert wait_turn(page) == "mine"
        phase = page.get_attribute("#decision", "data-phase")
        page.click("#help-button")
        panel = page.locator("#help-panel")
        panel.wait_for()
        page.wait_for_function(
            "() => document.querySelectorAll('#help-panel p').length >= 2"
            " && !document.getElementById('help-panel').textContent.includes('Asking')")
        answer = watch.of_type("explanation")[-1]
        assert answer["text"], answer
        shown = panel.inner_text()
        assert answer["title"] in shown
        for paragraph in answer["text"]:
            assert paragraph in shown
        assert {"type": "explain"} in watch.sent
        href = page.get_attribute("#help-rules", "href") or ""
        assert href.startswith("/how-to-play#"), href
        section = {"pick_role": "round", "keep_goods": "keeping"}.get(phase or "", phase)
        assert href.endswith(f"#{section}"), (phase, href)
        assert page.get_attribute("#help-button", "aria-expanded") == "true"
        shot(page, "help-panel-desktop")
        page.keyboard.press("Escape")
        panel.wait_for(state="detached")
        assert page.evaluate("document.activeElement.id") == "help-button"
        # the ? key opens it too
        page.keyboard.press("?")
        panel.wait_for()
        page.keyboard.press("Escape")
        assert not watch.problems, watch.problems
    finally:
        context.close()


def test_a_hint_shows_the_hard_bots_move(
    browser: Any, server_url: str,
) -> None:
    context, page, watch = new_page(browser)
    try:
        play_now(page, server_url, players=2)
        assert wait_turn(page) == "mine"
        page.click("#hint-button")
        page.wait_for_function("() => (document.getElementById('hint-answer')?.textContent"
                               " || '').startsWith('Hint:')", timeout=20_000)
        (answer,) = watch.of_type("hint")
        shown = page.inner_text("#hint-answer")
        assert answer["words"] in shown and answer["why"] in shown
        assert page.is_disabled("#hint-button")  # asked for this decision already
        shot(page, "hint-desktop")
        assert {"type": "hint"} in watch.sent
        assert not watch.problems, watch.problems
    finally:
        context.close()


def test_the_bots_pace_is_a_table_setting(browser: Any, server_url: str) -> None:
    context, page, watch = new_page(browser)
    try:
        play_now(page, server_url, players=3)
        wait_turn(page)
        pace = page.locator("#pace")
        assert pace.input_value() == "people"  # the default: a person can follow each move
        page.select_option("#pace", "fast")
        for _ in range(50):
            if watch.of_type("pace"):
                break
            page.wait_for_timeout(50)
        assert {"type": "pace", "pace": "fast"} in watch.sent
        told = watch.of_type("pace")[-1]
        seat = int(page.get_attribute("#mat", "data-seat"))
        assert told["pace"] == "fast" and told["by"] == seat
        assert pace.input_value() == "fast"
        # it is the table's: a new page (a reconnect) shows it too
        page.reload()
        page.locator("#pace").wait_for()
        assert page.locator("#pace").input_value() == "fast"
        assert not watch.problems, watch.problems
    finally:
        context.close()


def test_a_timeout_says_what_the_table_played(browser: Any, short_timer_server: str) -> None:
    context, page, watch = new_page(browser)
    try:
        play_now(page, short_timer_server, players=2)
        assert wait_turn(page) == "mine"
        # do nothing: the timer runs out and the safe move is played for us
        notice = page.locator("#notice")
        notice.wait_for(timeout=30_000)
        text = notice.inner_text()
        assert text.startswith("Time ran out: the table played "), text
        assert text.endswith("for you."), text
        events = [e for u in watch.of_type("update") for e in u.get("events", [])]
        timed = [e for e in events if e["type"] == "timed_out"]
        assert timed and timed[0]["seat"] == int(page.get_attribute("#mat", "data-seat"))
        page.wait_for_function(SAID_TIMEOUT, timeout=3000)
        said = page.evaluate("document.getElementById('announce').textContent")
        assert "Time ran out" in said
        shot(page, "timeout-notice-desktop")
        assert not watch.problems, watch.problems
    finally:
        context.close()

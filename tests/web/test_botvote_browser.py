"""Handing an away player's seat to a bot by vote, in Chromium (issue 14, Fix 4): two players
at a table of three, the third never comes. After his first timeout each of them sees
"Hand Bede's seat to a bot — 0 of 2 votes"; one click each, and a bot plays his seat.
The last ten seconds of a decision are said in the polite live region.

A server of its own with 10-second decisions (the whole flow within a minute); the votes
must come between Bede's first and second timeouts, so the clicks follow at once."""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.server_process import serving
from tests.web.axe import check
from tests.web.table_page import new_page, shot

DECISION_SECONDS = 10


@pytest.fixture(scope="module")
def quick_url(tmp_path_factory: pytest.TempPathFactory, browser: Any) -> Iterator[str]:
    archive: Path = tmp_path_factory.mktemp("vote-archive") / "games.sqlite3"
    with serving(archive, "--bot-delay", "0",
                 "--decision-seconds", str(DECISION_SECONDS)) as url:
        yield url


def post(url: str, path: str, body: dict[str, Any]) -> dict[str, Any]:
    req = urllib.request.Request(url + path, data=json.dumps(body).encode(), method="POST",
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=10) as res:
        answer: dict[str, Any] = json.load(res)
    return answer


def seated_page(browser: Any, url: str, table: str, token: str) -> tuple[Any, Any, Any]:
    """A page holding ``token``'s seat at ``table`` (as after joining in this browser)."""
    context, page, watch = new_page(browser, axe=True)
    context.add_init_script(
        f"localStorage.setItem('quaymoor.seat.{table}', {json.dumps(token)})")
    page.goto(f"{url}/?table={table}")
    page.wait_for_selector("#pre:not([hidden]) ul.seats")  # seated, before the start
    return context, page, watch


def test_two_players_hand_the_away_seat_to_a_bot(browser: Any, quick_url: str) -> None:
    table = post(quick_url, "/api/tables", {"players": 3})["table"]
    ada = post(quick_url, f"/api/tables/{table}/join", {"name": "Ada"})
    post(quick_url, f"/api/tables/{table}/join", {"name": "Bede"})  # seat 1, who never comes
    cy = post(quick_url, f"/api/tables/{table}/join", {"name": "Cy"})
    a_ctx, a_page, a_watch = seated_page(browser, quick_url, table, ada["token"])
    c_ctx, c_page, c_watch = seated_page(browser, quick_url, table, cy["token"])
    try:
        post(quick_url, f"/api/tables/{table}/start", {"token": ada["token"]})  # the host
        # Bede never comes: after his first timeout both are asked, with the count.
        button = a_page.locator("#bot-vote-1")
        button.wait_for(timeout=(DECISION_SECONDS * 6) * 1000)
        c_page.locator("#bot-vote-1").wait_for(timeout=5000)
        assert button.inner_text() == "Hand Bede's seat to a bot — 0 of 2 votes"
        assert "disconnected · vote 0 of 2 votes" in a_page.inner_text("#others")
        shot(a_page, "botvote-before-desktop")

        button.click()
        a_page.wait_for_selector("#bot-vote-1.bot-vote-count")
        assert a_page.inner_text("#bot-vote-1") == (
            "You voted to hand Bede's seat to a bot — 1 of 2 votes")
        c_page.wait_for_function("""() => (document.getElementById('bot-vote-1') || {})
          .textContent === "Hand Bede's seat to a bot — 1 of 2 votes" """)
        shot(c_page, "botvote-one-vote-desktop")
        c_page.set_viewport_size({"width": 375, "height": 812})
        shot(c_page, "botvote-one-vote-phone")
        c_page.set_viewport_size({"width": 1440, "height": 900})
        check(c_page, "table-bot-vote-desktop")
        c_page.click("#bot-vote-1")

        # The majority: a bot plays Bede's seat at once, and says so; the vote is gone.
        for page in (a_page, c_page):
            page.wait_for_function("""() => document.getElementById('others').textContent
              .includes('Bede (bot playing)')""")
            assert page.locator("#bot-vote-1").count() == 0
        shot(a_page, "botvote-after-desktop")
        votes = [f for f in a_watch.sent + c_watch.sent if f.get("type") == "vote_bot"]
        assert votes == [{"type": "vote_bot", "seat": 1}, {"type": "vote_bot", "seat": 1}]
        errors = [f for f in a_watch.received + c_watch.received if f.get("type") == "error"]
        assert errors == []

        # The last ten seconds of one's own decision are said, not only beeped.
        a_page.wait_for_function("""() => ((document.getElementById('announce') || {})
          .textContent || '').includes('10 seconds left to decide.')""",
                                 timeout=(DECISION_SECONDS * 8) * 1000)
        assert a_page.get_attribute("#announce", "aria-live") == "polite"
    finally:
        a_ctx.close()
        c_ctx.close()
    assert not a_watch.problems, a_watch.problems
    assert not c_watch.problems, c_watch.problems

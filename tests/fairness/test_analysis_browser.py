"""The post-game analysis on the game page, in headless Chromium: "Analyse this game"
starts it and shows its progress, then each analysed player's accuracy and biggest
mistakes as the server computed them; a mistake's link shows its step in the replay,
whose line names the better move, and the timeline carries a tick for every decision
that lost at least the mistake threshold. The end screen's link opens it at once.
Screenshots go to test-artifacts/screenshots/."""

from __future__ import annotations

import json
import urllib.request
from typing import Any

from tests.fairness.test_replay_board_browser import GAME, loaded
from tests.server_process import Served
from tests.web.table_page import SHOTS


def _analysis(url: str) -> dict[str, Any]:
    with urllib.request.urlopen(f"{url}/api/games/{GAME}/analysis") as got:
        assert got.status == 200
        body: dict[str, Any] = json.load(got)
        return body


def test_the_analysis_is_asked_for_shown_and_marked_on_the_replay(
    page: Any, archived_server: Served,
) -> None:
    page.goto(f"{archived_server.url}/games/{GAME}")
    loaded(page)
    page.locator("#analyse").click()
    page.locator("#accuracy").wait_for(timeout=90_000)
    analysis = _analysis(archived_server.url)  # done now: served from the store
    rows = page.locator("#accuracy tbody tr")
    assert rows.count() == len(analysis["players"])
    for i, player in enumerate(analysis["players"]):
        cells = rows.nth(i).locator("td").all_inner_texts()
        assert cells[0] == f"{round(player['accuracy'])}%"
        assert cells[1] == str(player["decisions"])
    marked = [d for d in analysis["decisions"] if d["loss"] >= analysis["mistake_from"]]
    assert page.locator(".replay-mark").count() == len({d["step"] for d in marked})
    mistakes = [m for p in analysis["players"] for m in p["mistakes"]]
    if mistakes:
        first = next(p["mistakes"] for p in analysis["players"] if p["mistakes"])
        page.locator(".mistakes button.link").first.click()
        label = page.locator("#step-label")
        assert label.inner_text().startswith(f"step {first[0]['step']} of")
        assert "better:" in page.locator("#replay-table .decision").inner_text()
        page.locator("#replay").screenshot(path=str(SHOTS / "analysis-replay-desktop.png"))
    page.locator("#analysis-sec").screenshot(path=str(SHOTS / "analysis-desktop.png"))


def test_the_game_pages_analysis_link_starts_it_at_once(page: Any, archived_server: Served) -> None:
    page.goto(f"{archived_server.url}/games/{GAME}#analysis")
    page.locator("#accuracy").wait_for(timeout=90_000)
    assert page.locator("#analyse").count() == 0  # done: nothing left to ask for

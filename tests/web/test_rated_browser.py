"""A rated game in Chromium, from an account made with Chromium's virtual authenticator to
the rating on both players' pages: Ada registers (/account), opens a rated game against a
bot from the lobby (the Rated box is hers to tick once signed in, and it holds off Hints),
the table says it is rated and offers no hint, she plays it to the end by clicking (and its
end screen's New game opens another rated game), and the
leaderboard (/players) and her page (/players/Ada: the rating, the chart, the game with its
change and links) show the rating the server computed, no longer a newcomer's 1500.

Screenshots (phone 360x740, laptop 1366x768): /tmp/rated-<page>-<size>.png.
"""

from __future__ import annotations

from typing import Any

from tests.web import axe
from tests.web.table_page import play_by_clicking
from tests.web.test_account_browser import NO_SIDEWAYS_SCROLL, SHOTS, SIZES, Player, register


def shoot(page: Any, name: str) -> None:
    for size, (width, height) in SIZES.items():
        page.set_viewport_size({"width": width, "height": height})
        assert page.evaluate(NO_SIDEWAYS_SCROLL), f"{name} scrolls sideways at {size}"
        page.screenshot(path=str(SHOTS / f"rated-{name}-{size}.png"), full_page=True)
        axe.check(page, f"rated-{name}-{size}")
    width, height = SIZES["laptop"]
    page.set_viewport_size({"width": width, "height": height})


def test_a_rated_game_moves_the_rating_on_both_pages(browser: Any,
                                                     site: tuple[str, int]) -> None:
    base, _ = site
    ada = Player(browser, axe=True)
    page = ada.page
    try:
        page.goto(base + "/account")
        register(page, "Ada")
        page.goto(base + "/")
        rated = page.locator("#playnow-rated")
        page.wait_for_function("() => !document.querySelector('#playnow-rated').disabled")
        rated.check()
        page.select_option("#playnow-players", "2")
        page.get_by_role("button", name="Play now against bots").click()
        page.locator("#decision .decision-head").wait_for()
        page.locator("#rated-badge").wait_for()
        assert page.locator("#hint").count() == 0 or page.locator("#hint").is_hidden()
        steps = play_by_clicking(page)
        assert steps > 10
        assert page.locator("#winners").is_visible()
        table_id = page.url.split("table=")[1]

        # "New game" from the end screen: another rated game (the lobby's choice kept)
        page.get_by_role("button", name="New game").click()
        page.wait_for_url(lambda url: "table=" in url and table_id not in url)
        page.locator("#rated-badge").wait_for()

        served = ada.context.request.get(base + "/api/players/Ada").json()
        assert served["games"] == 1 and served["rating"] != 1500
        [game] = served["history"]
        assert game["game"] == table_id and game["change"] == served["rating"] - 1500

        page.goto(base + "/players")
        page.locator("#players-page[data-ready='1']").wait_for()
        row = page.locator("#leaderboard-rows tr.leader-row[data-name='Ada']")
        assert row.get_attribute("data-rating") == str(served["rating"])
        assert row.get_attribute("data-place") == "1"
        assert "mine" in (row.get_attribute("class") or "")
        assert page.locator("#bot-rows tr.bot-row").count() == 5
        shoot(page, "leaderboard")

        row.locator("th.name a").click()
        page.locator("#player-page[data-ready='1']").wait_for()
        assert page.url == base + "/players/Ada"
        assert page.locator("#title").inner_text() == "Ada"
        assert page.locator("#rating").inner_text().strip() == str(served["rating"])
        assert page.locator("#games").inner_text().strip().startswith("1")
        assert page.locator("#rating-chart svg.chart-svg").count() == 1
        assert page.locator("#history-rows tr.history-row").count() == 1
        recent = page.locator(f"#recent li.recent-game[data-game='{table_id}']")
        assert recent.get_attribute("data-rated") == "true"
        change = recent.locator(".change").inner_text()
        sign = "+" if game["change"] > 0 else "\u2212" if game["change"] < 0 else "±"
        assert change.startswith(sign) and str(abs(game["change"])) in change, change
        assert recent.locator(f"a[href='/games/{table_id}']").count() == 1
        assert recent.locator(f"a[href='/games/{table_id}#analysis']").count() == 1
        shoot(page, "player")

        # the top bar: her name and her new rating
        page.goto(base + "/")
        page.wait_for_function("(r) => document.querySelector('#account-link')"
                               "?.dataset.rating === r", arg=str(served["rating"]))
    finally:
        ada.close()
    assert not ada.problems, ada.problems

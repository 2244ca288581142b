"""Smoke test of the web client in a real browser: play a whole game against bots by
pointer only (lit targets, lift then Pick / Build, the decision bar), check the revealed
seed against the fingerprint and that every act the page sent was answered by its id, and
save screenshots of the lobby, a mid-game table and the
end screen at phone, tablet and desktop sizes under ``test-artifacts/screenshots/``.
"""

from __future__ import annotations

from typing import Any

from quaymoor.rules.fairness import table_fingerprint
from tests.web.table_page import new_page, play_by_clicking, play_now, screenshots, shot


def test_play_a_whole_game_by_clicking(browser: Any, server_url: str) -> None:
    context, page, watch = new_page(browser)
    try:
        play_now(page, server_url, players=4, shots="lobby")
        page.wait_for_function("document.getElementById('fingerprint').textContent.length > 0")
        header_fp = page.locator("#fingerprint").inner_text()
        # each bot's level beside its name: the lobby's choice, normal unless changed
        page.locator(".other .tag.bot").first.wait_for()
        tags = page.locator(".other .tag.bot").all_inner_texts()
        assert tags == ["bot · normal"] * 3, tags

        def mid_game(step: int) -> None:
            if step == 30:
                screenshots(page, "midgame")
                page.set_viewport_size({"width": 375, "height": 812})
                for tab in ("mat", "others", "log"):
                    page.click(f"#tabs [data-tab={tab}]")
                    shot(page, f"midgame-phone-{tab}")
                page.click("#tabs [data-tab=board]")
                page.mouse.wheel(0, 1500)  # the decision bar stays at the top
                page.wait_for_timeout(100)
                shot(page, "midgame-phone-board-scrolled")
                page.set_viewport_size({"width": 768, "height": 1024})
                page.click("#tabs [data-tab=log]")
                shot(page, "midgame-tablet-log")
                page.click("#tabs [data-tab=others]")
                page.set_viewport_size({"width": 1440, "height": 900})

        kinds: set[str] = set()
        steps = play_by_clicking(page, on_step=mid_game, kinds=kinds)
        assert steps > 10
        assert {"pick_role", "take_plot"} <= kinds, kinds

        seed_hex = page.locator("#seed").inner_text().strip()
        fingerprint = page.locator("#end-fingerprint").inner_text().strip()
        table = page.url.split("table=")[1]  # the table's fingerprint (quaymoor-fair-3)
        assert table_fingerprint(bytes.fromhex(seed_hex), table, 4) == fingerprint
        assert fingerprint in header_fp
        assert page.locator("#winners").is_visible()
        page.locator(".verify.ok").wait_for(timeout=5000)
        screenshots(page, "end")
        # each act numbered 1, 2, ... and answered once, by its id: acted (or an error)
        ids = [f.get("id") for f in watch.sent if f.get("type") == "act"]
        assert len(ids) > 10 and ids == list(range(1, len(ids) + 1)), ids
        answers = [f["id"] for f in watch.received
                   if f["type"] == "acted" or (f["type"] == "error" and "id" in f)]
        assert answers == ids, (answers, watch.of_type("error"))
    finally:
        context.close()
    assert not watch.problems, watch.problems

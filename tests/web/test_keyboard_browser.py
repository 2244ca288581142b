"""Play a whole game against bots by keyboard only: Tab walks the lit targets (and nothing
else while it is your decision but the bar and the scrolling side panels), Enter chooses,
Esc puts back what is lifted, D is Done (after asking: D again), H / B / P focus your mat,
the board and the players, M mutes (kept in localStorage)."""

from __future__ import annotations

import time
from typing import Any

from quaymoor.rules.fairness import table_fingerprint
from tests.web.table_page import GAME_TIMEOUT, new_page, play_now, shot, sounds_of, wait_turn

# What the focused element is, for the walk.
ACTIVE = """() => {
  const a = document.activeElement;
  if (!a || a === document.body) return null;
  const style = getComputedStyle(a);
  return {
    key: a.dataset.key || a.id || a.tagName, id: a.id, type: a.dataset.type || null,
    lift: a.dataset.lift || null, lit: a.classList.contains('lit'),
    inBar: !!a.closest('#decision'), outline: style.outlineStyle, width: style.outlineWidth,
  };
}"""
SKIP = {"pass", "done", "take_back_from_plot", "take_back_from_building"}
MAX_TABS = 80


def active(page: Any) -> dict[str, Any] | None:
    info: dict[str, Any] | None = page.evaluate(ACTIVE)
    return info


def tab_to(page: Any, want: Any) -> dict[str, Any] | None:
    """Press Tab until the focused element satisfies ``want``; None after a whole cycle.
    Checks on the way that only lit targets and the decision bar take the focus, and that
    the focus is visible."""
    seen: set[str] = set()
    for _ in range(MAX_TABS):
        page.keyboard.press("Tab")
        info = active(page)
        if info is None:
            continue
        mine = page.locator("#decision.mine").count() > 0
        if mine:
            # the scrolling side panels are tab stops too: a keyboard scrolls them
            panel = info["id"] in ("others", "log")
            assert info["inBar"] or info["lit"] or panel, f"tab stop outside the targets: {info}"
        assert info["outline"] != "none", f"focus not visible on {info}"
        if want(info):
            return info
        if info["key"] in seen:
            return None
        seen.add(info["key"])
    return None


def test_play_a_whole_game_by_keyboard(browser: Any, server_url: str) -> None:
    context, page, watch = new_page(browser)
    try:
        play_now(page, server_url, players=3)
        assert wait_turn(page) == "mine"

        # the letter keys reach the sections
        for key, section in (("h", "mat"), ("b", "board"), ("p", "others")):
            page.keyboard.press(key)
            assert page.evaluate("document.activeElement.id") == section
        # the sound is off until the player turns it on: no turn chime so far
        assert sounds_of(page) == []
        assert page.get_attribute("#sound", "aria-pressed") == "false"
        page.keyboard.press("m")
        assert page.evaluate("localStorage.getItem('quaymoor.sound')") == "on"
        assert sounds_of(page) == ["tick"]  # turning it on says so

        # M mutes, and the choice is kept
        page.keyboard.press("m")
        assert page.evaluate("localStorage.getItem('quaymoor.sound')") == "off"
        assert page.get_attribute("#sound", "aria-pressed") == "false"
        muted_at = len(sounds_of(page))

        kinds: set[str] = set()
        escaped = False
        kept_in: set[str] = set()
        decisions = 0
        deadline = time.monotonic() + GAME_TIMEOUT
        while True:
            assert time.monotonic() < deadline, f"no end after {decisions} decisions"
            if wait_turn(page) == "ended":
                break
            decisions += 1
            if decisions == 6:
                assert len(sounds_of(page)) == muted_at, "a sound was made while muted"
                page.keyboard.press("m")
                assert page.evaluate("localStorage.getItem('quaymoor.sound')") == "on"
            phase = page.get_attribute("#decision", "data-phase")
            when = f"{page.inner_text('#decision .round')}:{phase}"
            done = page.locator("#actions [data-type=done]").count() > 0
            keep = page.locator("#actions [data-type=keep_good], #actions [data-type=store_goods]")
            if done and (phase != "keep_goods" or when in kept_in or keep.count() == 0):
                page.keyboard.press("d")
                page.wait_for_selector("#done-confirm")  # D asks first, its Yes focused
                assert page.evaluate("document.activeElement.id") == "done-yes"
                page.keyboard.press("d")
                kinds.add("done (D)")
                continue
            found = None
            if "pass" not in kinds and phase in ("surveyor", "mason") and decisions > 8:
                found = tab_to(page, lambda i: i["type"] == "pass")  # let one go, once
            if found is None:
                found = tab_to(page, lambda i: i["type"] is not None and i["type"] not in SKIP)
            if found is None:
                found = tab_to(page, lambda i: i["type"] in ("pass", "done"))
            assert found is not None, "no choice reachable by Tab"
            if not kinds:
                shot(page, "keyboard-focus-desktop")
            kinds.add(found["type"])
            if phase == "keep_goods":
                kept_in.add(when)
            page.keyboard.press("Enter")
            if found["lift"]:
                page.wait_for_selector("#lift-panel")
                assert page.evaluate("document.activeElement.id") == "confirm"
                if not escaped:
                    # Esc puts it back, with the focus on the card again
                    page.keyboard.press("Escape")
                    assert page.locator("#lift-panel").count() == 0
                    now = active(page)
                    assert now is not None and now["key"] == found["key"]
                    page.keyboard.press("Enter")
                    page.wait_for_selector("#lift-panel")
                    escaped = True
                page.keyboard.press("Enter")

        assert escaped
        assert {"pick_role", "take_plot", "place_on_plot", "done (D)", "pass"} <= kinds, kinds
        assert decisions > 10
        seed_hex = page.locator("#seed").inner_text().strip()
        fingerprint = page.locator("#end-fingerprint").inner_text().strip()
        table = page.url.split("table=")[1]  # the table's fingerprint (quaymoor-fair-3)
        assert table_fingerprint(bytes.fromhex(seed_hex), table, 3) == fingerprint
        assert "end" in sounds_of(page)
    finally:
        context.close()
    assert not watch.problems, watch.problems
    print(f"keyboard game: {decisions} decisions, kinds {sorted(kinds)}")

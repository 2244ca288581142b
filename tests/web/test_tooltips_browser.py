"""Tooltips with the rules text from /api/rules: by a long press on a touch screen (which
chooses nothing), and by pointing with a mouse. Also lift-then-confirm by touch, and the
timer turning urgent (with its sound) in the last 10 seconds."""

from __future__ import annotations

from typing import Any

from tests.web.table_page import (
    new_page,
    play_now,
    play_until_phase,
    rules,
    shot,
    sounds_of,
    wait_turn,
)

LONG_PRESS_MS = 700


def long_press(context: Any, page: Any, x: float, y: float) -> None:
    """A finger held still on (x, y): real touch events through the DevTools protocol."""
    cdp = context.new_cdp_session(page)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
    page.wait_for_timeout(LONG_PRESS_MS)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    cdp.detach()


def centre(page: Any, selector: str) -> tuple[float, float]:
    box = page.locator(selector).first.bounding_box()
    assert box is not None, selector
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def test_tooltip_by_long_press_on_a_phone(browser: Any, server_url: str) -> None:
    texts = {r["key"]: r["text"] for r in rules(server_url)["roles"]}
    context, page, watch = new_page(browser, width=375, height=812, touch=True)
    try:
        play_now(page, server_url, players=4)
        play_until_phase(page, "pick_role")
        before = len(watch.acts())
        card = page.locator("button.lit[data-lift=role]").first
        card.wait_for()  # the board tab was shown for this decision
        role = card.get_attribute("data-key").split(":")[1]
        selector = f'[data-key="role:{role}"]'

        x, y = centre(page, selector)
        long_press(context, page, x, y)
        tip = page.locator("#tip")
        tip.wait_for(state="visible")
        assert texts[role] in tip.inner_text()
        assert tip.get_attribute("data-how") == "press"
        page.wait_for_timeout(300)
        # reading chose nothing: nothing lifted, nothing sent
        assert page.locator(".lifted, #lift-panel").count() == 0
        assert len(watch.acts()) == before
        shot(page, "tooltip-longpress-phone")

        # a tap lifts the card and shows its text with Pick; a tap elsewhere puts it back
        page.touchscreen.tap(x, y)
        page.locator("#lift-panel").wait_for()
        assert texts[role] in page.inner_text("#lift-panel")
        assert page.locator(f"{selector}.lifted").count() == 1
        shot(page, "lifted-role-phone")
        wx, wy = centre(page, "#decision .what")
        page.touchscreen.tap(wx, wy)
        page.wait_for_selector("#lift-panel", state="detached")
        assert len(watch.acts()) == before

        # lift again, and a second tap on the lifted card picks it (tapped where the card
        # is at that moment: the decision bar above it may change height as it renders)
        page.locator(selector).first.tap()
        page.locator("#lift-panel").wait_for()
        page.locator(f"{selector}.lifted").first.tap()
        page.wait_for_function("() => !document.querySelector('#lift-panel')")
        for _ in range(100):  # the frame goes out just after the panel closes
            if watch.acts()[before:]:
                break
            page.wait_for_timeout(50)
        assert watch.acts()[before:] == [{"type": "pick_role", "role": role}]
        wait_turn(page)  # the next decision has brought its section into view

        # on a phone the sections are tabs, and H, B, P (and L) reach them too
        for key, tab, section in (("h", "mat", "#mat"), ("p", "others", "#others"),
                                  ("l", "log", "#logpane"), ("b", "board", "#board")):
            page.keyboard.press(key)
            assert page.get_attribute(".table-layout", "data-tab") == tab
            assert page.locator(section).is_visible()
            assert page.get_attribute(f"#tabs [data-tab={tab}]", "aria-pressed") == "true"
        assert not page.locator("#mat").is_visible()
    finally:
        context.close()
    assert not watch.problems, watch.problems


def test_tooltip_by_hover_and_the_urgent_timer(browser: Any, server_url: str) -> None:
    catalogue = rules(server_url)
    roles = {r["key"]: r["text"] for r in catalogue["roles"]}
    buildings = {b["key"]: b["text"] for b in catalogue["buildings"]}
    context, page, watch = new_page(browser)
    try:
        page.clock.install()
        play_now(page, server_url, players=4)
        assert wait_turn(page) == "mine"
        tip = page.locator("#tip")

        role_key = page.get_attribute(".role >> nth=0", "data-key").split(":")[1]
        page.hover(".role >> nth=0")
        tip.wait_for(state="visible")
        assert roles[role_key] in tip.inner_text()
        assert tip.get_attribute("data-how") == "hover"

        page.hover('[data-key="market:cellar"]')
        page.wait_for_function(
            "t => document.getElementById('tip').textContent.includes(t)", arg=buildings["cellar"])
        shot(page, "tooltip-hover-desktop")

        page.hover(".plot >> nth=0")
        page.wait_for_function(
            "() => document.getElementById('tip').textContent.includes('market hall pays')")
        page.mouse.move(5, 5)
        tip.wait_for(state="hidden")
        assert watch.acts() == []

        # the last 10 seconds: the clock turns urgent and beeps (once the player has turned
        # the sound on: it is off until then)
        page.click("#sound")
        page.clock.fast_forward("01:21")
        page.wait_for_selector("#clock.urgent")
        assert "urgent" in sounds_of(page)
    finally:
        context.close()
    assert not watch.problems, watch.problems

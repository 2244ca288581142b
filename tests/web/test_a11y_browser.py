"""Accessibility in a real Chromium (issue 14): axe-core on every page and phase at 1440x900
and 375x812 (no serious or critical violation; the moderate ones are printed and kept in
test-artifacts/axe/), the single-key shortcuts (off, remapped, kept; D asks before Done),
the polite live region, the timer that writes only what changed, and lit targets told
apart in forced-colours (high contrast) mode."""

from __future__ import annotations

import json
import time
import urllib.request
from typing import Any

from tests.web.axe import check, remaining
from tests.web.table_page import (
    DESKTOP,
    GAME_TIMEOUT,
    click_step,
    new_page,
    play_now,
    shot,
    wait_turn,
)

TWO_SIZES = {"desktop": (1440, 900), "phone": (375, 812)}


def at_two_sizes(page: Any, name: str) -> None:
    """axe on the page as it is, at the desktop's size and the phone's."""
    for size, (width, height) in TWO_SIZES.items():
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(150)
        check(page, f"{name}-{size}")
    page.set_viewport_size(DESKTOP)
    page.wait_for_timeout(100)


def phone_tabs(page: Any, name: str) -> None:
    """axe on each of the phone's sections (one shows at a time): your mat, the players,
    the log, then back to the board."""
    page.set_viewport_size({"width": 375, "height": 812})
    for tab in ("mat", "others", "log", "board"):
        page.click(f"#tabs [data-tab={tab}]")
        page.wait_for_timeout(100)
        if tab != "board":
            check(page, f"{name}-phone-{tab}")
    page.set_viewport_size(DESKTOP)
    page.wait_for_timeout(100)


def post(url: str, path: str, body: dict[str, Any]) -> dict[str, Any]:
    req = urllib.request.Request(url + path, data=json.dumps(body).encode(), method="POST",
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=10) as res:
        answer: dict[str, Any] = json.load(res)
    return answer


def table_id(page: Any) -> str:
    tid: str = page.evaluate("new URLSearchParams(location.search).get('table')")
    return tid


def test_axe_finds_nothing_serious_on_any_page_phase_or_size(
    browser: Any, server_url: str
) -> None:
    context, page, watch = new_page(browser, axe=True)
    watcher_context, watcher, _ = new_page(browser, axe=True)
    try:
        page.goto(server_url + "/")
        page.get_by_role("button", name="Play now against bots").wait_for()
        at_two_sizes(page, "lobby")

        waiting = post(server_url, "/api/tables", {"players": 3})
        watcher.goto(f"{server_url}/?table={waiting['table']}")
        watcher.locator("#join-name").wait_for()
        at_two_sizes(watcher, "table-waiting-to-start")

        play_now(page, server_url, players=3)
        tid = table_id(page)
        watcher.goto(f"{server_url}/?table={tid}")
        watcher.locator("#decision .decision-head").wait_for()
        watcher.wait_for_selector("#roles .role")
        at_two_sizes(watcher, "table-spectator")

        seen: set[str] = set()
        steps = 0
        deadline = time.monotonic() + GAME_TIMEOUT
        while True:
            assert time.monotonic() < deadline, f"no end after {steps} steps"
            if wait_turn(page) == "ended":
                break
            phase = page.get_attribute("#decision", "data-phase") or "?"
            lifted = page.locator("#lift-panel").count() > 0
            name = f"table-{phase}{'-lifted' if lifted else ''}"
            if name not in seen:
                seen.add(name)
                at_two_sizes(page, name)
                if phase == "reeve":
                    phone_tabs(page, name)
            click_step(page, steps)
            steps += 1
        phases = {n.removeprefix("table-") for n in seen}
        assert {"pick_role", "pick_role-lifted", "reeve"} <= phases, phases
        assert len(phases) >= 6, phases
        at_two_sizes(page, "end-screen")
        watcher.wait_for_selector("#seed")
        at_two_sizes(watcher, "end-screen-spectator")

        page.goto(f"{server_url}/games/{tid}")
        page.wait_for_selector("#result:not([hidden])")
        page.wait_for_selector("#prev:enabled")  # the replay opens at the end
        page.click("#prev")
        page.wait_for_selector("#log li button")
        steps = page.evaluate("""() => [...document.querySelectorAll('#log li button')]
          .slice(0, 20).map((b) => b.getBoundingClientRect().height)""")
        assert min(steps) >= 44, steps  # replay steps were 19 px tall
        at_two_sizes(page, "game-page")
        page.goto(f"{server_url}/verify.html?game={tid}")
        page.wait_for_selector("#verdict:not(.wait)")
        at_two_sizes(page, "verify-page")
        summary = page.locator("#paste > summary")
        assert summary.bounding_box()["height"] >= 44  # was 20 px
        summary.click()
        at_two_sizes(page, "verify-page-paste")
        page.goto(f"{server_url}/status")
        page.wait_for_function("!/Loading/.test(document.getElementById('summary').textContent)")
        at_two_sizes(page, "status-page")
    finally:
        watcher_context.close()
        context.close()
    assert not watch.problems, watch.problems
    left = remaining()
    print(f"axe: {len(seen)} table states and 8 other pages at two sizes; not serious: "
          + ("; ".join(f"{rule} on {len(pages)}" for rule, pages in sorted(left.items()))
             or "none"))


def focused(page: Any) -> str:
    found: str = page.evaluate("document.activeElement ? document.activeElement.id : ''")
    return found


def test_shortcuts_turn_off_remap_persist_and_d_asks_before_done(
    browser: Any, server_url: str
) -> None:
    context, page, watch = new_page(browser, axe=True)
    try:
        play_now(page, server_url, players=2)
        assert wait_turn(page) == "mine"
        # a new decision of yours is said in the polite live region, not only by sound
        page.wait_for_function(
            "(document.getElementById('announce') || {}).textContent?.startsWith('Your decision')")
        live = page.locator("#announce")
        assert live.get_attribute("aria-live") == "polite"

        page.keyboard.press("b")
        assert focused(page) == "board"

        # off: the letters do nothing, the hints go, and it is kept across a reload
        page.click("#keys > summary")
        page.uncheck("#keys-on")
        page.click("#keys > summary")
        page.locator("#mat").focus()
        page.keyboard.press("b")
        assert focused(page) == "mat"
        assert page.get_attribute("#tabs [data-tab=board] kbd", "hidden") is not None
        assert page.get_attribute("#sound", "aria-keyshortcuts") is None
        assert page.get_attribute("#tabs [data-tab=board]", "aria-keyshortcuts") is None
        page.reload()
        assert wait_turn(page) == "mine"
        page.locator("#mat").focus()
        page.keyboard.press("b")
        assert focused(page) == "mat"
        page.click("#keys > summary")
        assert not page.is_checked("#keys-on")

        # on again, Board moved to X; a key already taken is refused, saying by what
        page.check("#keys-on")
        page.fill("#key-board", "x")
        page.press("#key-board", "Tab")
        page.fill("#key-mat", "x")
        page.press("#key-mat", "Tab")
        assert "X is already the key for Board" in page.inner_text("#keys-note")
        assert page.input_value("#key-mat") == "H"
        shot(page, "a11y-keys-panel")
        page.click("#keys > summary")
        page.locator("#mat").focus()
        page.keyboard.press("b")
        assert focused(page) == "mat"
        page.keyboard.press("x")
        assert focused(page) == "board"
        assert page.get_attribute("#tabs [data-tab=board]", "aria-keyshortcuts") == "X"
        saved = json.loads(page.evaluate("localStorage.getItem('quaymoor.keys')"))
        assert saved["on"] is True and saved["keys"]["board"] == "x"

        # the timer's text is written only when the second shown changes
        writes = page.evaluate("""() => new Promise((done) => {
          const el = document.getElementById('clock');
          let n = 0;
          const seen = new MutationObserver((list) => { n += list.length; });
          seen.observe(el, { childList: true, characterData: true, subtree: true });
          setTimeout(() => { seen.disconnect(); done(n); }, 3000);
        })""")
        assert 1 <= writes <= 4, f"{writes} writes of the clock in 3 s"

        # D asks before Done: the question first (nothing sent), Esc puts it away, D D plays it
        step = 0
        while not page.locator("#actions [data-type=done]").count():
            assert wait_turn(page) == "mine", "the game ended before a Done"
            if page.locator("#actions [data-type=done]").count():
                break
            click_step(page, step)
            step += 1
            assert step < 200
        sent = len(watch.acts())
        page.locator("#decision").focus()
        page.keyboard.press("d")
        page.wait_for_selector("#done-confirm")
        assert focused(page) == "done-yes"
        shot(page, "a11y-done-confirm")
        page.wait_for_timeout(200)
        assert len(watch.acts()) == sent, "D sent Done without asking"
        page.keyboard.press("Escape")
        assert page.locator("#done-confirm").count() == 0
        assert len(watch.acts()) == sent
        page.keyboard.press("d")
        page.keyboard.press("d")
        deadline = time.monotonic() + 5
        while len(watch.acts()) == sent and time.monotonic() < deadline:
            page.wait_for_timeout(50)
        assert watch.acts()[sent:] == [{"type": "done"}]
    finally:
        context.close()
    assert not watch.problems, watch.problems


LIT_STYLE = """() => {
  const style = (el) => { const s = getComputedStyle(el);
    return { outline: s.outlineStyle, width: s.outlineWidth, color: s.outlineColor,
             border: s.borderTopColor }; };
  const lit = document.querySelector('#board button.lit, #mat button.lit');
  const unlit = document.querySelector('#roles .role:not(.lit), #board .bld:not(.lit)');
  return { lit: lit && style(lit), unlit: unlit && style(unlit) };
}"""


def test_lit_targets_stand_out_in_forced_colours(browser: Any, server_url: str) -> None:
    context, page, watch = new_page(browser, axe=True)
    try:
        play_now(page, server_url, players=2)
        assert wait_turn(page) == "mine"
        page.wait_for_selector("#board button.lit")
        normal = page.evaluate(LIT_STYLE)
        page.emulate_media(forced_colors="active")
        page.wait_for_timeout(200)
        forced = page.evaluate(LIT_STYLE)
        shot(page, "a11y-forced-colours")
        assert forced["lit"]["outline"] == "solid" and forced["lit"]["width"] == "4px", forced
        assert forced["unlit"]["outline"] == "none", forced
        assert forced["lit"]["border"] != forced["unlit"]["border"], forced
        assert normal["lit"]["outline"] == "none", normal  # the ring is a shadow otherwise
        marker = page.evaluate("""() => getComputedStyle(
          document.querySelector('#board button.lit'), '::after').content""")
        assert "◆" in marker
        page.emulate_media(forced_colors="none")
    finally:
        context.close()
    assert not watch.problems, watch.problems

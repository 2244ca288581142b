"""Motion that explains, on the live table in headless Chromium: as the game goes on, goods
fly to the barges and the market hall, coins to players and onto role cards, apprentices
from the barge; each flight is over within 400 ms, takes no input, and starts after the
table already shows the new state (the motion delays nothing). Under prefers-reduced-motion
nothing flies at all, and the game plays the same.
"""

from __future__ import annotations

from typing import Any

from tests.web.table_page import new_page, play_by_clicking, play_now, shot

#: Records every flyer as it is added: its kind, target, delay plus duration, whether it
#: takes input (pointer-events and what is under its centre).
FLYERS = """
window.__flyers = [];
document.addEventListener("DOMContentLoaded", () => {
  new MutationObserver((muts) => {
    for (const m of muts) for (const n of m.addedNodes) {
      if (!(n instanceof HTMLElement) || !n.classList.contains("flyer")) continue;
      const a = n.getAnimations()[0];
      const t = a ? a.effect.getTiming() : null;
      const r = n.getBoundingClientRect();
      const under = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      window.__flyers.push({ motion: n.dataset.motion, to: n.dataset.to || "",
        ms: t ? t.duration + t.delay : null, events: getComputedStyle(n).pointerEvents,
        under_is_flyer: under === n });
    }
  }).observe(document.body, { childList: true, subtree: true });
});
"""

STEPS = 40  # your decisions: a few rounds, with shipping and selling among the bots'


def test_goods_coins_and_apprentices_fly_within_400_ms(browser: Any, server_url: str) -> None:
    context, page, watch = new_page(browser)
    context.add_init_script(FLYERS)
    try:
        play_now(page, server_url, players=4)
        play_by_clicking(page, until=STEPS)
        flyers: list[dict[str, Any]] = page.evaluate("window.__flyers")
        kinds = {(f["motion"], f["to"].split(":")[0]) for f in flyers}
        assert ("good", "barge") in kinds, kinds  # goods to the barges
        assert ("coin", "seat") in kinds, kinds  # coins to players
        assert ("coin", "role") in kinds, kinds  # coins onto the role cards left
        assert ("apprentice", "seat") in kinds, kinds  # apprentices off the barge
        for f in flyers:
            assert f["ms"] is not None and f["ms"] <= 400, f
            assert f["events"] == "none" and not f["under_is_flyer"], f
        shot(page, "motion-desktop")
        assert not watch.problems, watch.problems
    finally:
        context.close()


def test_reduced_motion_flies_nothing(browser: Any, server_url: str) -> None:
    context, page, watch = new_page(browser, width=375, height=812, touch=True)
    context.add_init_script(FLYERS)
    page.emulate_media(reduced_motion="reduce")
    try:
        play_now(page, server_url, players=4)
        play_by_clicking(page, until=STEPS // 2)
        assert page.locator("#log .log-line").count() > 10  # the game went on
        assert page.evaluate("window.__flyers") == []
        assert not watch.problems, watch.problems
    finally:
        context.close()

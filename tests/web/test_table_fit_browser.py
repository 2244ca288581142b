"""The table as a player sees it at each size (issue 14): a whole 5-player game fits
1440x900 and 1920x1080 with no scrolling in any phase; on a phone and a tablet a new
decision brings its lit targets into view and J jumps to them; the last round is announced;
lifting a card moves nothing; a resting mouse pops no tooltip; lit barges say what loading
would put on them; the words (plurals, the short fingerprint, the verify page); the log by
round with its filter; one tab selected after a resize.

Screenshots go to test-artifacts/screenshots/fit-*.png.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, field
from typing import Any

from playwright.sync_api import Error as PlaywrightError

from tests.web.table_page import (
    GAME_TIMEOUT,
    click_step_builder,
    new_page,
    play_now,
    shot,
    wait_turn,
)

DESKTOPS = ((1280, 720), (1366, 768), (1440, 900), (1920, 1080))
LARGE = ("dormitory", "toll_house", "moot_hall")
# The phases in which the 5-player test must see a decision of yours (and measure the table)
PHASES = frozenset({"pick_role", "surveyor", "reeve", "mason", "bargemaster"})
# Tables after the first one, if a deal keeps one of PHASES (or a lit barge) from you a whole
# game: each measured the same way until all have come, within GAME_TIMEOUT each.
MORE_GAMES = 2
# The workshops and the crop each makes into goods (clay needs none), the cheapest first.
WORKSHOPS = {"flax_shed": "flax", "wool_shed": "wool", "flax_mill": "flax",
             "wool_mill": "wool", "honey_house": "honey", "amber_works": "amber"}

# What overflows: the page, and each panel that should show all it holds; each large
# building of the market and each other player inside its panel's box.
MEASURE = """(large) => {
  const out = [];
  const d = document.scrollingElement;
  if (d.scrollHeight > d.clientHeight + 1) out.push(`page ${d.scrollHeight} > ${d.clientHeight}`);
  if (d.scrollWidth > d.clientWidth + 1) out.push(`page width ${d.scrollWidth} > ${d.clientWidth}`);
  for (const id of ['decision', 'board', 'mat', 'others']) {
    const e = document.getElementById(id);
    if (e && e.scrollHeight > e.clientHeight + 1)
      out.push(`#${id} ${e.scrollHeight} > ${e.clientHeight}`);
  }
  const inside = (el, box, what) => {
    const r = el.getBoundingClientRect();
    const b = box.getBoundingClientRect();
    if (r.top < b.top - 1 || r.bottom > b.bottom + 1 || r.bottom > innerHeight)
      out.push(`${what} cut off: ${Math.round(r.top)}-${Math.round(r.bottom)}`
        + ` in ${Math.round(b.top)}-${Math.round(b.bottom)}`);
  };
  const board = document.getElementById('board');
  for (const key of large) {
    const el = document.querySelector(`[data-key="market:${key}"]`);
    if (el) inside(el, board, key);
  }
  const others = document.getElementById('others');
  for (const el of others.querySelectorAll('.other'))
    inside(el, others, `player ${el.dataset.seat}`);
  const mat = document.getElementById('mat');
  for (const el of mat.querySelectorAll('.tile')) inside(el, mat, `tile ${el.dataset.key}`);
  return out;
}"""

# The lit targets on the board and your mat that are wholly in view: below the sticky
# decision bar and above the phone's tab bar.
LIT_IN_VIEW = """() => {
  const top = document.getElementById('decision').getBoundingClientRect().bottom;
  const tabs = document.getElementById('tabs');
  const fixed = tabs && getComputedStyle(tabs).position === 'fixed';
  const bottom = fixed ? tabs.getBoundingClientRect().top : innerHeight;
  const lit = [...document.querySelectorAll('#board button.lit, #mat button.lit')]
    .filter((el) => el.offsetParent !== null);
  const seen = lit.filter((el) => {
    const r = el.getBoundingClientRect();
    return r.top >= top - 1 && r.bottom <= bottom + 1;
  });
  return {lit: lit.length, seen: seen.map((el) => el.dataset.key)};
}"""

ACTIVE_IN_VIEW = """() => {
  const a = document.activeElement;
  if (!a || !a.classList.contains('lit')) return null;
  const r = a.getBoundingClientRect();
  const top = document.getElementById('decision').getBoundingClientRect().bottom;
  const tabs = document.getElementById('tabs');
  const bottom = getComputedStyle(tabs).position === 'fixed'
    ? tabs.getBoundingClientRect().top : innerHeight;
  return {key: a.dataset.key, inView: r.top >= top - 1 && r.bottom <= bottom + 1};
}"""

# Before any page script: every state the table is drawn in, whether the decision bar and
# the board said "last round" (and their words), and whether it went away before the end.
LAST_ROUND_WATCH = """
(() => {
  const seen = { bar: [], board: [], lost: 0, shown: false };
  window.__lastRound = seen;
  new MutationObserver(() => {
    const bar = document.getElementById('last-round');
    const board = document.getElementById('board-last-round');
    const ended = !!document.getElementById('seed');
    if (bar) {
      seen.shown = true;
      if (!seen.bar.includes(bar.textContent)) seen.bar.push(bar.textContent);
      if (board && !board.hidden) seen.board.push(board.textContent); // said twice: a defect
    } else if (seen.shown && !ended && document.querySelector('#decision .decision-head')) {
      seen.lost += 1;
    }
  }).observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
})();
"""

RECT = """(sel) => {
  const r = document.querySelector(sel).getBoundingClientRect();
  return [r.x, r.y, r.width, r.height];
}"""

# Text a player reads that has a wrong plural.
BAD_WORDS = re.compile(
    r"\b1 (coins|seals|building points|apprentices)\b|building pts|\(bot\) \(bot\)")


def resize(page: Any, width: int, height: int) -> None:
    """A new viewport, and the page's resize handling done (it fits the panels again)."""
    page.set_viewport_size({"width": width, "height": height})
    page.evaluate("() => new Promise((done) =>"
                  " requestAnimationFrame(() => requestAnimationFrame(done)))")


def last_view(watch: Any) -> dict[str, Any]:
    view: dict[str, Any] = watch.of_type("update")[-1]["view"]
    return view


def visible_text(page: Any, sel: str = "body") -> str:
    text: str = page.inner_text(sel)
    return text


def check_lift_moves_nothing(page: Any) -> bool:
    """Lift the first lit role card or building: the board and the card stay put. (Not one
    lifted already: a second tap on that picks or builds it.)"""
    card = page.locator("button.lit[data-lift]:not(.lifted):visible").first
    if not card.count():
        return False
    key = card.get_attribute("data-key")
    before = (page.evaluate(RECT, "#board"), page.evaluate(RECT, f'[data-key="{key}"]'))
    card.click()
    page.locator("#lift-panel").wait_for()
    after = (page.evaluate(RECT, "#board"), page.evaluate(RECT, f'[data-key="{key}"]'))
    assert before == after, f"lifting {key} moved the board or the card: {before} -> {after}"
    page.keyboard.press("Escape")
    assert page.locator("#lift-panel").count() == 0
    assert page.evaluate(RECT, "#board") == before[0]
    return True


def check_barges(page: Any) -> bool:
    """A lit barge (or, when several goods could go on one, each lit option on it) says in
    visible text what loading would put on it, inside the barge."""
    lit = page.locator("button.barge.lit, button.barge-opt.lit")
    if not lit.count():
        return False
    for i in range(lit.count()):
        b = lit.nth(i)
        label = b.get_attribute("aria-label") or ""  # "Load 3 wool on barge 2"
        m = re.match(r"Load (\d+) (\w+) on barge (\d+)", label)
        assert m, label
        text = b.inner_text()
        assert f"Load +{m.group(1)} {m.group(2)}" in text, (label, text)
        inside = page.evaluate("""(el) => {
          const t = (el.querySelector('.barge-load') || el).getBoundingClientRect();
          const o = el.closest('.barge').getBoundingClientRect();
          return t.width > 0 && t.left >= o.left - 0.5 && t.right <= o.right + 0.5;
        }""", b.element_handle())
        assert inside, f"{label}: its words stick out of the barge"
    return True


def check_last_round(page: Any, watch: Any) -> bool:
    """Once an end trigger has fired, the decision bar says so, and why; once (the board's
    own banner is only the replay's, whose bar holds the step)."""
    reasons = last_view(watch)["board"]["end_reasons"]
    bar = page.locator("#last-round")
    board = page.locator("#board-last-round")
    if not reasons:
        assert bar.count() == 0 and not board.is_visible()
        return False
    why = {"seals": "seals ran out", "apprentices": "apprentice barge",
           "high_street": "high street is full"}  # one or more of them
    assert bar.is_visible() and not board.is_visible()
    for text in (bar.inner_text(),):
        assert "Last round" in text, text
        assert all(why[r] in text for r in reasons), (reasons, text)
    return True


def check_log(page: Any, seat: int) -> None:
    """The log by round under the role picks, the Reeve one line a player, and its filter."""
    rounds = page.locator("#log .log-round")
    assert rounds.count() >= 3
    heads = page.locator("#log .log-round-head").all_inner_texts()
    assert heads[-1].lower().startswith("round")
    numbers = [int(t.split()[-1]) for t in heads if t.lower().startswith("round")]
    assert numbers == sorted(numbers) and len(set(numbers)) == len(numbers), heads
    picks = page.locator("#log .log-head").all_inner_texts()
    assert picks and all(" picked the " in p for p in picks), picks[:5]
    lines = page.locator("#log .log-line").all_inner_texts()
    assert not [x for x in lines if "arranged their apprentices" in x]
    for r in range(rounds.count()):
        arranged = rounds.nth(r).locator(".log-line", has_text="arranged:")
        seats = [arranged.nth(i).get_attribute("data-seat") for i in range(arranged.count())]
        assert len(seats) == len(set(seats)), f"round {r}: a player's Reeve on two lines"
    assert any("arranged:" in x for x in lines)

    page.click("#log-filter [data-filter=roles]")
    assert page.get_attribute("#log-filter [data-filter=roles]", "aria-pressed") == "true"
    assert page.locator("#log .log-line:visible").count() == 0
    assert page.locator("#log .log-head:visible").count() == len(picks)
    page.click("#log-filter [data-filter=mine]")
    mine = page.locator("#log .log-line:visible")
    assert mine.count() > 0
    for i in range(mine.count()):
        cls = mine.nth(i).get_attribute("class") or ""
        assert "mine" in cls or "note" in cls
        if "mine" in cls:
            assert mine.nth(i).get_attribute("data-seat") == str(seat)
            assert mine.nth(i).inner_text().startswith("You")
    page.click("#log-filter [data-filter=all]")
    assert page.locator("#log .log-line:visible").count() == len(lines)


@dataclass
class Seen:
    """What the 5-player test has seen and found, over its games."""

    overflows: list[str] = field(default_factory=list)
    phases: set[str] = field(default_factory=set)  #: the phases of your decisions
    checked: dict[str, int] = field(
        default_factory=lambda: {"lift": 0, "barge": 0, "last": 0})
    shots: set[str] = field(default_factory=set)
    measured: set[str] = field(default_factory=set)
    step: int = 0

    def missing(self) -> set[str]:
        """The PHASES with no decision of yours yet, and "barge" until lit barges' words
        have been checked."""
        return set(PHASES - self.phases) | (set() if self.checked["barge"] else {"barge"})


def makes_goods(mat: dict[str, Any], *, staffed: bool) -> bool:
    """Whether a mat makes goods when the Miller comes: a clay plot, or a plot and a
    workshop of its kind, each with an apprentice (``staffed``), or once they have one."""
    plots = mat["worked"] if staffed else mat["plots"]
    shops = {b["building"] for b in mat["buildings"] if b["apprentices"] or not staffed}
    return bool(plots["clay"]) or any(plots[k] and b in shops for b, k in WORKSHOPS.items())


def shipper_targets(phase: str, mat: dict[str, Any], missing: set[str]) -> list[str]:
    """The targets (CSS selectors) ``click_step_shipper`` prefers in ``phase``, best first:
    what makes goods, keeps them for the barges and brings your decisions in the phases
    still ``missing``."""
    held = sum(mat["goods"].values())
    owned = [b["building"] for b in mat["buildings"]]
    if phase == "pick_role":
        roles = ["bargemaster"] if held and "barge" in missing else []
        roles += [r for r in ("mason", "surveyor", "reeve") if r in missing]
        if held:
            roles.append("bargemaster")
        elif makes_goods(mat, staffed=True):
            roles.append("miller")
        elif makes_goods(mat, staffed=False):
            roles.append("reeve")  # apprentices for the clay plots and workshops
        return [f'button.lit[data-key="role:{r}"]' for r in roles]
    if phase == "surveyor":  # clay, or a crop a workshop of yours works
        kinds = ["clay", *(WORKSHOPS[b] for b in owned if b in WORKSHOPS)]
        return [f"button.lit.plot.good-{k}" for k in kinds]
    if phase == "mason" and not makes_goods(mat, staffed=False):
        # a workshop for a crop you grow, the cheapest (else the builder's dearest)
        return [f'button.lit[data-key="market:{b}"]'
                for b, kind in WORKSHOPS.items() if mat["plots"][kind]]
    if phase == "reeve":  # apprentices on clay plots, then on plot and workshop in pairs
        keys = ["holding:clay"]
        for b in mat["buildings"]:
            kind = WORKSHOPS.get(b["building"])
            if kind:
                pair = [f"holding:{kind}", f"street:{b['building']}"]
                keys += pair if mat["worked"][kind] <= b["apprentices"] else pair[::-1]
        return [f'button.lit[data-key="{k}"]' for k in keys]
    if phase == "chandler":  # keep the goods for the barges
        return ['#actions button[data-type="pass"]']
    return []


def click_step_shipper(page: Any, watch: Any, step: int, missing: set[str]) -> str:
    """``click_step_builder``, steered while a phase (or "barge") is still ``missing``.

    The builder alone held no goods whenever a Bargemaster came in about 1 deal in 140 (no
    clay plot came its way, its first coins went on civic buildings, its apprentices on
    crops no workshop of its worked): no Bargemaster decision, and the test failed. Goods
    need a Miller and a staffed clay plot, or a staffed plot and workshop of one kind. So,
    from your view: pick the Bargemaster while you hold goods, the role of a phase not seen
    yet, the Miller while you could make goods and hold none, the Reeve while what could
    make them lacks apprentices; build the cheapest workshop for a crop you grow while
    nothing of yours could make goods; take clay plots or crops your workshops work, and put
    apprentices there first; sell nothing. Once nothing is missing, the builder plays on as
    it would (a long high street)."""
    if missing and not page.locator("#confirm").count():
        phase = page.get_attribute("#decision", "data-phase")
        view = last_view(watch)
        if view["board"]["phase"] == phase:  # the view the page is drawing
            mat = view["mats"][int(page.get_attribute("#mat", "data-seat"))]
            for sel in shipper_targets(phase, mat, missing):
                target = page.locator(sel)
                if target.count():
                    target.first.click()
                    return sel
    return click_step_builder(page, step)


def play_measuring(page: Any, watch: Any, seen: Seen, *, until_all: bool) -> int:
    """Play by ``click_step_shipper`` to the end screen (``until_all``: or until every one
    of ``seen.missing()`` has come), at each decision measuring what overflows at every
    desktop size and checking the words, the last round, the barges and lifting a card.
    Returns your seat."""
    deadline = time.monotonic() + GAME_TIMEOUT
    seat = -1
    while not (until_all and not seen.missing()):
        assert time.monotonic() < deadline, f"no end after {seen.step} steps"
        if wait_turn(page) == "ended":
            break
        phase = page.get_attribute("#decision", "data-phase")
        seen.phases.add(phase)
        seat = int(page.get_attribute("#mat", "data-seat"))
        step = seen.step
        # every size at each phase's first step and every third step after (the
        # game's growth in between changes what fits little; the end is in the last)
        if phase not in seen.measured or step % 3 == 0:
            seen.measured.add(phase)
            for width, height in DESKTOPS:
                resize(page, width, height)
                problems = page.evaluate(MEASURE, list(LARGE))
                if problems and not seen.overflows:
                    shot(page, f"fit-overflow-{width}")  # what it looked like
                seen.overflows.extend(f"{width}x{height} {phase} step {step}: {p}"
                                      for p in problems)
            resize(page, 1440, 900)
        bad = BAD_WORDS.findall(visible_text(page))
        assert not bad, bad
        if check_last_round(page, watch):
            seen.checked["last"] += 1
            if "last" not in seen.shots:
                seen.shots.add("last")
                shot(page, "fit-last-round-desktop")
        if phase == "bargemaster" and check_barges(page):
            seen.checked["barge"] += 1
            if "barge" not in seen.shots:
                seen.shots.add("barge")
                shot(page, "fit-barges-desktop")
        lifting = phase in ("pick_role", "mason") and seen.checked["lift"] < 4
        if lifting and check_lift_moves_nothing(page):
            seen.checked["lift"] += 1
        if phase not in seen.shots:
            seen.shots.add(phase)
            shot(page, f"fit-{phase}-1440")
            resize(page, 1920, 1080)
            shot(page, f"fit-{phase}-1920")
            resize(page, 1440, 900)
        try:
            click_step_shipper(page, watch, step, seen.missing())
        except PlaywrightError:
            continue  # the table moved on under the pointer: look again
        seen.step += 1
    return seat


def test_desktop_fits_a_whole_five_player_game(browser: Any, server_url: str) -> None:
    context, page, watch = new_page(browser)
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=server_url)
    page.add_init_script(LAST_ROUND_WATCH)
    seen = Seen()
    try:
        play_now(page, server_url, players=5)
        fingerprint = watch.of_type("welcome")[-1]["fingerprint"]
        # the fingerprint: short in one top bar line, whole on demand, and copied whole
        page.locator("#fp-copy").wait_for()
        assert page.evaluate("document.querySelector('.topbar').offsetHeight") <= 44
        assert page.evaluate(RECT, "#fp-value")[2] < 200
        value = page.inner_text("#fp-value")
        assert value.startswith(fingerprint[:8])
        assert value.replace("…", "").endswith(fingerprint[-8:])
        page.click("#fp-whole")
        assert page.get_attribute("#fp-whole", "aria-expanded") == "true"
        assert page.evaluate(RECT, "#fp-value")[2] > 300
        assert page.evaluate(RECT, ".fp-mid")[2] > 200
        page.click("#fp-whole")
        page.click("#fp-copy")
        page.wait_for_function("document.getElementById('fp-copy').textContent === 'Copied'")
        assert page.evaluate("navigator.clipboard.readText()") == fingerprint

        seat = play_measuring(page, watch, seen, until_all=False)
        assert not seen.overflows, seen.overflows[:10]
        assert seen.checked["lift"] >= 2, seen.checked
        # the end came by a trigger: from it to the end screen, both said so in every state
        reasons = watch.of_type("game_ended")[-1]["result"]["reasons"]
        last = page.evaluate("window.__lastRound")
        assert reasons and last["shown"], last
        assert last["lost"] == 0, last
        words = {"seals": "seals ran out", "apprentices": "apprentice barge",
                 "high_street": "high street is full"}
        assert not last["board"], "the last round was said twice"
        for text in last["bar"]:
            assert "Last round" in text and any(words[r] in text for r in reasons), text
        shot(page, "fit-end-1440")
        check_log(page, seat)
        check_end_screen(page)
        # a deal can still keep a phase (or a lit barge) from you a whole game: another
        # table, measured the same way, until each has come
        for _ in range(MORE_GAMES):
            if not seen.missing():
                break
            play_now(page, server_url, players=5)
            play_measuring(page, watch, seen, until_all=True)
        assert not seen.overflows, seen.overflows[:10]
        assert seen.phases >= PHASES, seen.phases
        assert seen.checked["barge"] >= 1, seen.checked
    finally:
        context.close()
    assert not watch.problems, watch.problems


END_IN_VIEW = """() => {
  const d = document.scrollingElement;
  const out = [];
  if (d.scrollHeight > d.clientHeight + 1)
    out.push(`page ${d.scrollHeight} > ${d.clientHeight}`);
  for (const sel of ['#winners', '#end .scores', '#rematch', '#play-again', '#lobby',
                     '#end-how-to-play', '#show-board', '#verify-game', '#seed',
                     '#end-fingerprint']) {
    const el = document.querySelector(sel);
    if (!el) { out.push(`${sel} missing`); continue; }
    const r = el.getBoundingClientRect();
    if (r.top < 0 || r.bottom > innerHeight + 1 || r.height === 0) out.push(`${sel} out of view`);
  }
  return out;
}"""


def check_end_screen(page: Any) -> None:
    """The end screen fits every desktop: the result, the scores and every action in view
    without scrolling, each action named plainly; the final board is one press away, and
    no tooltip pops under a resting mouse when it appears, one does on a real move; on a
    phone the Tie-break heading stays one word on one line; the verify page's words."""
    for width, height in DESKTOPS:
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(100)
        missing = page.evaluate(END_IN_VIEW)
        assert not missing, f"{width}x{height}: {missing}"
        shot(page, f"fit-end-{width}")
    page.set_viewport_size({"width": 1440, "height": 900})
    assert page.inner_text("#play-again") == "New game"
    assert "fresh table" in page.inner_text("#play-again-what")
    assert "Replays the whole game" in page.inner_text("#verify-game-what") or \
        "replays the whole game" in page.inner_text("#verify-game-what")
    assert "matches the fingerprint" in page.inner_text("#verify")
    # the final board: the resting mouse where a role card will be shows no tooltip
    page.locator("#show-board").focus()
    page.keyboard.press("Enter")
    card = page.evaluate(RECT, '[data-key="role:surveyor"]')
    page.keyboard.press("Enter")  # back to the scores
    x, y = card[0] + card[2] / 2, card[1] + card[3] / 2
    page.mouse.move(x, y)
    page.wait_for_timeout(400)
    page.locator("#show-board").focus()
    page.keyboard.press("Enter")  # the board appears under the resting mouse
    tip_at = f"document.elementFromPoint({x}, {y}).closest('[data-tip]')?.dataset.key ?? null"
    assert page.evaluate(tip_at) == "role:surveyor"
    page.wait_for_timeout(600)
    assert page.is_hidden("#tip"), "a tooltip popped under a resting mouse"
    page.mouse.move(x + 3, y + 2)  # a real move on the card: its tooltip
    page.locator("#tip").wait_for(state="visible", timeout=3000)
    assert "Surveyor" in page.inner_text("#tip")
    page.mouse.move(5, 5)
    page.click("#show-board")  # back to the scores
    page.evaluate("window.scrollTo(0, 0)")

    page.set_viewport_size({"width": 375, "height": 812})
    page.wait_for_timeout(100)
    lines = page.evaluate("""() => {
      const th = [...document.querySelectorAll('#end .scores th')]
        .find((x) => /Tie/.test(x.textContent));
      const range = document.createRange();
      range.selectNodeContents(th);
      const r = th.getBoundingClientRect();
      const tops = [...range.getClientRects()].map((r) => Math.round(r.top));
      return {text: th.innerText, lines: new Set(tops).size,
              inView: r.left >= 0 && r.right <= document.documentElement.clientWidth};
    }""")
    assert lines == {"text": "Tie-break", "lines": 1, "inView": True}, lines
    shot(page, "fit-end-phone")
    page.set_viewport_size({"width": 1440, "height": 900})

    page.click("#verify-game")
    page.locator("#verdict:not(.wait)").wait_for(timeout=30_000)
    page.locator("#checks tr").first.wait_for()
    text = visible_text(page)
    assert "(bot) (bot)" not in text
    assert not re.search(r"\bseat 0\b", text), re.findall(r".{40}\bseat 0\b.{20}", text)
    # every seat has a name, so the page says names ("Tester: ..."), never "seat 1"
    assert "Tester:" in text
    assert not re.search(r"\bseat [1-5]\b", text), re.findall(r".{40}\bseat [1-5]\b.{20}", text)
    shot(page, "fit-verify")


def play_checking_view(page: Any, watch: Any, size: str, want: set[str], max_steps: int
                       ) -> set[str]:
    """On a phone or tablet: at each decision of yours a lit target is in view at once (the
    Reeve's on your mat); at some, J from the top of the page (and another section) brings
    the next lit target into view with the focus on it. Returns the phases checked."""
    seen: set[str] = set()
    for step in range(max_steps):
        if wait_turn(page) == "ended" or want <= seen:
            break
        phase = page.get_attribute("#decision", "data-phase")
        info = page.evaluate(LIT_IN_VIEW)
        if info["lit"]:
            assert info["seen"], f"{size} {phase}: none of {info['lit']} lit targets in view"
            if phase == "reeve":
                assert any(k.startswith(("holding:", "street:")) for k in info["seen"]), info
            if phase not in seen:
                seen.add(phase)
                shot(page, f"fit-{phase}-{size}")
                # J from the top of the page, from another section on a phone
                page.evaluate("window.scrollTo(0, 0)")
                if size == "phone":
                    page.keyboard.press("l")
                assert page.locator("#jump-lit").is_visible()
                page.keyboard.press("j")
                got = page.evaluate(ACTIVE_IN_VIEW)
                assert got and got["inView"], f"{size} {phase}: J left {got}"
                page.locator("#jump-lit").click()  # the button: the next one, in view
                again = page.evaluate(ACTIVE_IN_VIEW)
                assert again and again["inView"], again
        try:
            click_step_builder(page, step)
        except PlaywrightError:
            continue
    return seen


def test_phone_and_tablet_bring_the_lit_targets_into_view(browser: Any, server_url: str) -> None:
    for size, (width, height) in (("phone", (375, 812)), ("tablet", (768, 1024))):
        context, page, watch = new_page(browser, width=width, height=height, touch=size == "phone")
        try:
            play_now(page, server_url, players=5)
            seen = play_checking_view(page, watch, size, {"mason", "reeve", "pick_role"}, 60)
            assert {"mason", "reeve"} <= seen, (size, seen)
        finally:
            context.close()
        assert not watch.problems, watch.problems


def test_one_tab_selected_after_a_resize(browser: Any, server_url: str) -> None:
    context, page, watch = new_page(browser, width=768, height=1024)
    pressed = """() => [...document.querySelectorAll('#tabs button')]
      .filter((b) => b.offsetParent !== null && b.getAttribute('aria-pressed') === 'true')
      .map((b) => b.dataset.tab)"""
    shown = """() => ['mat', 'board', 'others', 'logpane']
      .filter((id) => document.getElementById(id).offsetParent !== null)"""
    try:
        play_now(page, server_url, players=3)
        wait_turn(page)
        assert page.evaluate(pressed) == ["others"]
        # a tab chosen at one size (or none), then the window resized
        for width, height, tab in ((375, 812, None), (375, 812, "log"), (768, 1024, None),
                                   (768, 1024, "others"), (375, 812, None), (1440, 900, None),
                                   (375, 812, "mat"), (768, 1024, None), (375, 812, None)):
            page.set_viewport_size({"width": width, "height": height})
            page.wait_for_timeout(50)
            if tab:
                page.click(f"#tabs [data-tab={tab}]")
            on = page.evaluate(pressed)
            if width >= 1000:
                assert on == [], on  # no tabs on a desktop
                continue
            assert len(on) == 1, f"{width}x{height}: {on} selected"
            section = {"others": "others", "log": "logpane", "mat": "mat", "board": "board"}[on[0]]
            assert section in page.evaluate(shown)
            if width < 600:
                assert page.evaluate(shown) == [section]
    finally:
        context.close()
    assert not watch.problems, watch.problems

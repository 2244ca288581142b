"""The game page in headless Chromium: the replay on the real table (read-only), step by
step and round by round, forwards and back, from the spectator's and a seat's view, with
the log beside it; the charts; the motion of a step (and none under reduced motion); the
live end screen's charts. What the page shows is checked against the rules replaying the
record in this process. Screenshots go to test-artifacts/screenshots/.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from quaymoor.http.replay import replay_all
from quaymoor.protocol.codec import unstructure_with
from quaymoor.rules.fairness import seed_from_hex
from quaymoor.rules.game import Game
from quaymoor.rules.record import GameRecord
from quaymoor.rules.views import SeatView
from tests.fairness.conftest import game_record
from tests.server_process import Served
from tests.web.table_page import SHOTS

GAME = "a0a0a0a0a4"  # four players
SIZES = {"desktop": (1440, 900), "phone": (375, 812)}
GAME_TIMEOUT_MS = 40_000

#: Records every flyer of motion.js as it is added: its kind, where it goes, its delay plus
#: duration, whether it takes input, and what its target showed at that moment.
FLYERS = """
window.__flyers = [];
document.addEventListener("DOMContentLoaded", () => {
  new MutationObserver((muts) => {
    for (const m of muts) for (const n of m.addedNodes) {
      if (!(n instanceof HTMLElement) || !n.classList.contains("flyer")) continue;
      const a = n.getAnimations()[0];
      const t = a ? a.effect.getTiming() : null;
      const key = n.dataset.to || "";
      const target = key.startsWith("barge:")
        ? document.querySelector(`[data-key="${key}"]`) : null;
      const r = n.getBoundingClientRect();
      const under = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      window.__flyers.push({ motion: n.dataset.motion, to: key, ms: t ? t.duration + t.delay : null,
        events: getComputedStyle(n).pointerEvents, under_is_flyer: under === n,
        target: target ? target.textContent : null });
    }
  }).observe(document.body, { childList: true, subtree: true });
});
"""


def views_at(record: GameRecord, seat: int | None) -> list[dict[str, Any]]:
    game = Game(record.players, seed_from_hex(record.seed), record.client_seeds)
    out = [unstructure_with(game.view(seat), SeatView)]
    for step in record.actions:
        game.apply(step.seat, step.action, step.at)
        out.append(unstructure_with(game.view(seat), SeatView))
    return out


def plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


@pytest.fixture
def context(browser: Any) -> Iterator[Any]:
    ctx = browser.new_context(viewport={"width": 1440, "height": 900})
    ctx.add_init_script(FLYERS)
    try:
        yield ctx
    finally:
        ctx.close()


def open_game(ctx: Any, url: str) -> tuple[Any, list[str]]:
    page = ctx.new_page()
    problems: list[str] = []
    page.on("pageerror", lambda exc: problems.append(f"page error: {exc}"))
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.goto(f"{url}/games/{GAME}")
    loaded(page)
    return page, problems


def loaded(page: Any) -> None:
    """Wait for the replay to show its first step (the label is empty until then)."""
    page.wait_for_function("() => /^step /.test(document.querySelector('#step-label')"
                           "?.textContent || '')")


def go_to(page: Any, step: int) -> None:
    page.evaluate("(k) => { const r = document.querySelector('#step'); r.value = String(k);"
                  " r.dispatchEvent(new Event('input')); document.activeElement.blur(); }", step)
    label = page.locator("#step-label")
    label.wait_for()
    assert label.inner_text().startswith(f"step {step} of")


def shows_view(page: Any, view: dict[str, Any]) -> None:
    """The board and every other player's panel show what the rules' view says."""
    board = view["board"]
    plots = page.eval_on_selector_all('#board [data-key^="plot:"]',
                                      "els => els.map(e => e.textContent)")
    # the good's letter is drawn by CSS (a11y), or was a text of its own before the name
    assert [re.sub(r"^[A-Z]\s*", "", p.strip()) for p in plots] == board["face_up"]
    assert page.inner_text('[data-key="stack"]') == f"Stack: {board['stack']}"
    for r in board["roles"]:
        text = page.inner_text(f'#roles [data-key="role:{r["role"]}"]')
        assert (plural(r["coins"], "coin") if r["coins"] else "no coins") in text
    for i, bg in enumerate(board["barges"]):
        assert f"{bg['load']}/{bg['capacity']}" in page.inner_text(f'[data-key="barge:{i}"]')
    for mat in view["mats"]:
        if mat["seat"] == view["seat"]:
            continue
        stats = page.inner_text(f'#others .other[data-seat="{mat["seat"]}"] .o-stats')
        assert stats.startswith(plural(mat["coins"], "coin")), (stats, mat)


def test_the_replay_steps_and_rounds_through_the_rules_views(
    context: Any, archived_server: Served
) -> None:
    record = game_record(GAME)
    spectator = views_at(record, None)
    n = len(record.actions)
    page, problems = open_game(context, archived_server.url)
    # a game is watched from its start
    assert page.inner_text("#step-label") == f"step 0 of {n}"
    assert page.locator("[data-act], button.lit").count() == 0  # read-only: nothing to choose
    page.keyboard.press("End")
    assert page.inner_text("#step-label") == f"step {n} of {n}"
    shows_view(page, spectator[n])
    page.keyboard.press("Home")
    assert page.inner_text("#step-label") == f"step 0 of {n}"
    assert "setup" in page.inner_text("#step-action")
    assert page.locator("#log .log-line").count() == 0
    shows_view(page, spectator[0])
    for k in (1, 2, 3):
        page.keyboard.press("ArrowRight")
        assert page.inner_text("#step-label") == f"step {k} of {n}"
        shows_view(page, spectator[k])
    page.keyboard.press("ArrowLeft")
    assert page.inner_text("#step-label") == f"step 2 of {n}"
    shows_view(page, spectator[2])
    assert page.locator("#log .log-head").count() >= 1  # the log so far beside the board

    # round by round: Page Down starts the next round, Page Up goes back
    round2 = next(k for k, v in enumerate(spectator) if v["board"]["round"] == 2)
    page.keyboard.press("PageDown")
    assert page.inner_text("#step-label") == f"step {round2} of {n}"
    assert page.inner_text("#decision .round").startswith("Round 2")
    assert page.locator('#log .log-round[data-round="1"]').count() == 1
    page.click("#next-round")
    round3 = next(k for k, v in enumerate(spectator) if v["board"]["round"] == 3)
    assert page.inner_text("#step-label") == f"step {round3} of {n}"
    page.click("#prev-round")
    assert page.inner_text("#step-label") == f"step {round2} of {n}"
    shows_view(page, spectator[round2])

    # a seat's view: its own mat with its seals, as the rules gave them to that seat
    seat_views = views_at(record, 1)
    page.select_option("#seat-view", "1")
    page.wait_for_selector("#my-seals")
    assert "Your mat — Player 2" in (page.text_content("#mat h2") or "")
    assert page.inner_text("#my-seals") == str(seat_views[round2]["mats"][1]["seals"])
    shows_view(page, seat_views[round2])
    assert page.locator('#others .other[data-seat="1"]').count() == 0
    page.select_option("#seat-view", "spectator")
    page.wait_for_selector("#mat h2:has-text('Watching')")

    # controls a finger can hit
    for box in page.eval_on_selector_all(".replay-buttons button",
                                         "els => els.map(e => e.getBoundingClientRect().height)"):
        assert box >= 44
    # the table fits a desktop screen under the bar
    page.evaluate("window.scrollTo(0, document.querySelector('#replay').offsetTop)")
    fit = page.evaluate("""() => {
      const t = document.querySelector('.replay-table .table-layout').getBoundingClientRect();
      const over = ['#board', '#others'].map((s) => { const e = document.querySelector(s);
        return e.scrollHeight - e.clientHeight; });
      return { bottom: t.bottom, over };
    }""")
    assert fit["bottom"] <= 901 and max(fit["over"]) <= 1, fit
    SHOTS.mkdir(parents=True, exist_ok=True)
    go_to(page, round3 + 5)
    page.screenshot(path=str(SHOTS / "replay-desktop-round3.png"))
    assert page.url.endswith(f"/games/{GAME}?step={round3 + 5}")

    # the address names a moment: a step and a view; one that does not exist is ignored
    page.goto(f"{archived_server.url}/games/{GAME}?step=5&seat=1")
    loaded(page)
    assert page.inner_text("#step-label") == f"step 5 of {n}"
    assert page.input_value("#seat-view") == "1"
    assert "Player 2" in (page.text_content("#mat h2") or "")
    shows_view(page, seat_views[5])
    for bad in ("step=99999&seat=7", "step=-1&seat=x", "step=%00&seat=1.0", "step=1e3"):
        page.goto(f"{archived_server.url}/games/{GAME}?{bad}")
        loaded(page)
        assert page.inner_text("#step-label") == f"step 0 of {n}", bad
        assert page.input_value("#seat-view") == "spectator", bad
    assert problems == []


def test_the_game_page_charts_add_up_to_the_final_scores(
    context: Any, archived_server: Served
) -> None:
    record = game_record(GAME)
    assert record.result is not None
    totals = {sc.seat: sc.total for sc in Game.replay(record).scores()}
    assert totals == {sc.seat: sc.total for sc in record.result.scores}
    page, problems = open_game(context, archived_server.url)
    page.wait_for_selector("#charts[data-ready]")
    for seat, total in totals.items():
        bar = page.locator(f'#chart-sources g[data-seat="{seat}"]')
        assert bar.get_attribute("data-total") == str(total)
        assert bar.locator(".chart-total").text_content() == str(total)
        parts = bar.locator("g[data-part]").evaluate_all(
            "gs => gs.map(g => Number(g.dataset.value))")
        assert sum(parts) == total
        line = page.locator(f'#chart-scores g[data-seat="{seat}"]')
        assert line.get_attribute("data-final") == str(total)
    assert page.locator("#chart-goods g[data-kind='shipped']").count() == record.players
    # a stranger's name is drawn as text, never as markup (RTL override, NUL, a lone surrogate)
    drawn = page.evaluate("""async () => {
      const { drawCharts } = await import('/charts.js');
      const url = location.pathname.replace('/games/', '/api/games/') + '/charts';
      const data = await (await fetch(url)).json();
      const names = ['<img src=x onerror="window.__owned=1">', '\u202eevil\u0000', '\ud800x', 'B'];
      const seats = data.sources.map((s) => ({ seat: s.seat, name: names[s.seat] }));
      const box = document.createElement('div');
      document.body.append(box);
      drawCharts(box, data, seats, null);
      return { imgs: box.querySelectorAll('img').length, text: box.textContent,
               owned: window.__owned === 1 };
    }""")
    assert drawn["imgs"] == 0 and not drawn["owned"]
    assert '<img src=x onerror="window.__owned=1">'[:14] in drawn["text"]
    page.locator("#charts-sec").scroll_into_view_if_needed()
    page.locator("#charts-sec").screenshot(path=str(SHOTS / "charts-desktop.png"))
    page.screenshot(path=str(SHOTS / "game-page-desktop.png"), full_page=True)
    assert problems == []


def flights_at(page: Any, k: int) -> list[dict[str, str]]:
    """The flights of stepping on from step k - 1 to step k: kind and target."""
    go_to(page, k - 1)
    page.evaluate("window.__flyers = []")
    page.keyboard.press("ArrowRight")
    got: list[dict[str, Any]] = page.evaluate("window.__flyers")
    assert all(f["ms"] <= 400 for f in got), got
    return [{"motion": f["motion"], "to": f["to"]} for f in got]


def test_a_step_on_flies_goods_coins_and_apprentices_and_reduced_motion_stills_it(
    context: Any, archived_server: Served
) -> None:
    record = game_record(GAME)
    spectator = views_at(record, None)
    steps = replay_all(record)["actions"]
    k, barge = next((s["step"], e["barge"]) for s in steps for e in s["events"]
                    if e["type"] == "loaded" and e["barge"] >= 0)
    page, problems = open_game(context, archived_server.url)
    page.evaluate("window.scrollTo(0, document.querySelector('#replay').offsetTop)")
    go_to(page, k - 1)
    page.evaluate("window.__flyers = []")
    page.keyboard.press("ArrowRight")
    page.screenshot(path=str(SHOTS / "motion-replay-barge.png"))  # in flight, with luck
    flyers = page.evaluate("window.__flyers")
    goods = [f for f in flyers if f["motion"] == "good" and f["to"] == f"barge:{barge}"]
    assert goods, flyers
    loaded = spectator[k]["board"]["barges"][barge]
    for f in flyers:
        assert f["ms"] is not None and f["ms"] <= 400, f
        assert f["events"] == "none" and not f["under_is_flyer"], f  # takes no input
    for f in goods:  # the barge already shows its new load: the motion delays nothing
        assert f"{loaded['load']}/{loaded['capacity']}" in f["target"]
    page.wait_for_timeout(600)
    assert page.locator(".flyer").count() == 0  # all gone

    # every kind of flight, each at a step of the record that has its event
    def first(kind: str, pred: Any = lambda e: True) -> tuple[int, dict[str, Any]]:
        return next((st["step"], e) for st in steps for e in st["events"]
                    if e["type"] == kind and pred(e))

    sold_at, sale = first("sold", lambda e: e["coins"] > 0)
    got = flights_at(page, sold_at)
    assert {"motion": "good", "to": "hall"} in got and {
        "motion": "coin", "to": f"seat:{sale['seat']}"} in got, got
    picked_at, pick = first("role_picked", lambda e: e["coins"] > 0)
    assert {"motion": "coin", "to": f"seat:{pick['seat']}"} in flights_at(page, picked_at)
    came_at, came = first("apprentices_arrived", lambda e: e["count"] > 0)
    assert {"motion": "apprentice", "to": f"seat:{came['seat']}"} in flights_at(page, came_at)
    ended_at, _ = first("round_ended")
    left = [r["role"] for r in spectator[ended_at]["board"]["roles"]
            if r["coins"] > next(x["coins"] for x in spectator[ended_at - 1]["board"]["roles"]
                                 if x["role"] == r["role"])]
    got = flights_at(page, ended_at)
    assert left and all({"motion": "coin", "to": f"role:{r}"} in got for r in left), (left, got)

    page.emulate_media(reduced_motion="reduce")
    go_to(page, k - 1)
    page.evaluate("window.__flyers = []")
    page.keyboard.press("ArrowRight")
    assert page.inner_text("#step-label").startswith(f"step {k} of")
    assert page.evaluate("window.__flyers") == []
    assert problems == []


@pytest.mark.parametrize("size", sorted(SIZES))
def test_the_replay_and_the_live_end_screen_at_two_sizes(
    browser: Any, archived_server: Served, size: str
) -> None:
    width, height = SIZES[size]
    ctx = browser.new_context(viewport={"width": width, "height": height},
                              has_touch=size == "phone", is_mobile=size == "phone")
    try:
        page = ctx.new_page()
        problems: list[str] = []
        page.on("pageerror", lambda exc: problems.append(f"page error: {exc}"))
        page.goto(f"{archived_server.url}/games/{GAME}")
        loaded(page)
        page.wait_for_selector("#charts[data-ready]")
        page.locator("#charts-sec").screenshot(path=str(SHOTS / f"charts-{size}.png"))
        page.evaluate("window.scrollTo(0, document.querySelector('#replay').offsetTop)")
        page.keyboard.press("Home")
        for _ in range(12):
            page.click("#next")
        page.screenshot(path=str(SHOTS / f"replay-{size}.png"))
        wide = page.evaluate("document.documentElement.scrollWidth")
        assert wide <= width, f"the page is {wide} px wide at {width}"
        if size == "phone":
            page.click('#tabs [data-tab="others"]')
            page.screenshot(path=str(SHOTS / f"replay-{size}-players.png"))

        # the live end screen: a game against bots runs by itself here, then its charts
        page.goto(archived_server.url + "/")
        page.select_option("#playnow-players", "3")
        page.get_by_role("button", name="Play now against bots").click()
        page.wait_for_url("**/?table=*")
        table = page.url.split("table=")[1]
        page.wait_for_selector("#end-charts[data-ready]", timeout=GAME_TIMEOUT_MS)
        record = GameRecord.from_json(page.evaluate(
            f"fetch('/games/{table}.json').then((r) => r.text())"))
        for sc in Game.replay(record).scores():
            total = page.locator(f'#end-charts #chart-sources g[data-seat="{sc.seat}"]')
            assert total.get_attribute("data-total") == str(sc.total)
        page.locator("#end-charts").scroll_into_view_if_needed()
        page.screenshot(path=str(SHOTS / f"end-charts-{size}.png"))
        page.click("#end-replay")  # from the end screen to the replay of this very game
        loaded(page)
        assert page.url.split("?")[0].endswith(f"/games/{table}")
        assert page.inner_text("#step-label") == f"step 0 of {len(record.actions)}"
        assert problems == []
    finally:
        ctx.close()


def test_the_replay_plays_by_itself_and_a_log_line_goes_to_its_step(
    context: Any, archived_server: Served
) -> None:
    record = game_record(GAME)
    n = len(record.actions)
    page, problems = open_game(context, archived_server.url)
    assert page.inner_text("#step-label") == f"step 0 of {n}"
    page.select_option("#speed", "400")
    page.click("#play")
    assert page.get_attribute("#play", "aria-pressed") == "true"
    page.wait_for_function(
        "() => /^step [3-9]/.test(document.querySelector('#step-label').textContent)",
        timeout=10_000)
    page.click("#play")  # Pause
    assert page.get_attribute("#play", "aria-pressed") == "false"
    paused = page.inner_text("#step-label")
    page.wait_for_timeout(900)
    assert page.inner_text("#step-label") == paused, "it went on after Pause"
    # a line of the log goes to its step
    line = page.locator("#log .log-jump").first
    name = line.get_attribute("aria-label") or ""
    step = int(name.rsplit("step ", 1)[1].rstrip(")"))
    page.keyboard.press("End")
    page.locator("#log .log-jump").first.click()
    assert page.inner_text("#step-label") == f"step {step} of {n}"
    assert problems == []

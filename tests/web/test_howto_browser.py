"""The How to play page (/how-to-play) in a real browser against a real server.

- Every number shown is /api/rules's: each placeholder (``[data-rule]``) holds the value at
  its path, worked out again here for the derived ones; the buildings table's cost, points
  and slots; the supplies table's seals, coins and barges for each player count; the role
  cards; the decision timer.
- Every section heading of how-to-play.txt is there, and every anchor the table may link
  to (``HOW_TO_PLAY_SECTIONS`` in web/howto_link.js); ``howToPlayLink`` makes its link; a
  link to ``#reeve`` lands on the Reeve's card after the page has filled in.
- axe-core: no serious or critical violation at 1440x900 and 375x812, and nothing wider than
  a phone's screen. Screenshots: ``test-artifacts/screenshots/howto-{desktop,phone}.png``
  (the whole page).
"""

from __future__ import annotations

import json
import urllib.request
from typing import Any

import pytest

from tests.web import axe
from tests.web.conftest import ROOT
from tests.web.table_page import new_page

SHOTS = ROOT / "test-artifacts" / "screenshots"
#: The section headings of shared/how-to-play.txt (the page players read), and its line
#: "A game lives on the server", a section of its own here.
HEADINGS = ["How to play", "A round", "The seven roles", "Plots, apprentices and goods",
            "Buildings", "Selling and shipping", "The end", "At the online table",
            "A game lives on the server", "Why it is fair"]
WORDS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
         "eleven", "twelve"]


def rules_of(url: str) -> dict[str, Any]:
    with urllib.request.urlopen(url + "/api/rules", timeout=10) as res:
        rules: dict[str, Any] = json.load(res)
    return rules


def derived(rules: dict[str, Any]) -> dict[str, Any]:
    """The page's derived numbers, worked out here from the rules on their own."""
    large = [b for b in rules["buildings"] if b["category"] == "large"]
    two = rules["setups"][str(rules["limits"]["min_players"])]
    return {"two_player_picks_each": two["picks_per_round"] // two["players"],
            "large_count": len(large), "large_spaces": max(b["spaces"] for b in large),
            "large_cost": max(b["cost"] for b in large)}


def at(data: Any, path: str) -> Any:
    for part in path.split("."):
        data = data[part]
    return data


def forms(value: Any, unit: str | None) -> set[str]:
    """How the page may write a number: digits, a word, or digits with its noun."""
    text = str(int(value)) if float(value).is_integer() else str(value)
    out = {text}
    if isinstance(value, int) and 0 <= value < len(WORDS):
        out |= {WORDS[value], WORDS[value].capitalize()}
    if unit:
        out = {f"{text} {unit}" if value == 1 else f"{text} {unit}s"}
    return out


def opened(browser: Any, url: str, path: str = "/how-to-play", **size: Any) -> tuple[Any, Any]:
    context, page, watch = new_page(browser, axe=True, **size)
    page.goto(url + path)
    page.wait_for_selector("body[data-ready]")  # not wait_for_function: the page's CSP
    assert page.evaluate("document.body.dataset.ready") == "1"
    assert not watch.problems, watch.problems  # no script error, nothing on the console
    return context, page


def test_every_number_is_the_rules(browser: Any, server_url: str) -> None:
    rules = rules_of(server_url)
    facts = {**rules, "derived": derived(rules)}
    context, page = opened(browser, server_url)
    try:
        assert page.locator("#rules-status").is_hidden()  # no placeholder was missing
        spans = page.eval_on_selector_all("[data-rule]", """els => els.map(e => ({
            path: e.dataset.rule, value: e.dataset.value, unit: e.dataset.unit || null,
            text: e.textContent}))""")
        assert len(spans) >= 25
        for span in spans:
            want = at(facts, span["path"])
            assert float(span["value"]) == float(want), span
            assert span["text"] in forms(want, span["unit"]), span
        paths = {s["path"] for s in spans}
        assert {"limits.holding_spaces", "limits.market_hall_spaces", "table.decision_seconds",
                "amounts.unpicked_role_coins", "limits.role_cards"} <= paths
        holding = page.locator('[data-rule="limits.holding_spaces"]').first.text_content()
        assert holding == str(rules["limits"]["holding_spaces"])
        timer = page.locator('[data-rule="table.decision_seconds"]').text_content()
        assert float(timer) == rules["table"]["decision_seconds"]

        # the buildings table, row by row
        for b in rules["buildings"]:
            row = page.locator(f'table.buildings tr[data-key="{b["key"]}"]')
            assert row.locator("th.name").text_content().startswith(b["name"])
            assert row.locator("td.cost").text_content() == str(b["cost"])
            assert row.locator("td.points").text_content() == str(b["points"])
            assert row.locator("td.slots").text_content() == str(b["slots"])
            assert row.locator("td.copies").text_content() == (
                f'{b["copies"]} ({b["copies_two_players"]})')
            assert row.locator("td.text").text_content() == b["text"]
        assert page.locator("table.buildings tr[data-key]").count() == len(rules["buildings"])

        # the supplies, for each player count
        def cell(n: str, field: str) -> str:
            found: str = page.locator(
                f'table.supplies td[data-players="{n}"][data-field="{field}"]').text_content()
            return found

        for n, setup in rules["setups"].items():
            assert cell(n, "seals") == str(setup["seals"])
            assert cell(n, "coins_each") == str(setup["coins_each"])
            assert cell(n, "apprentices") == str(setup["apprentices"])
            assert cell(n, "barge_capacities") == ", ".join(map(str, setup["barge_capacities"]))
            assert cell(n, "face_up_plots") == str(setup["face_up_plots"])
            assert cell(n, "stone_pits") == str(setup["stone_pits"])
            for i, good in enumerate(rules["goods"]):
                assert cell(n, f"plots.{i}") == str(setup["plots"][i]), good
                assert cell(n, f"goods.{i}") == str(setup["goods"][i]), good

        # the role cards, in order, each with its anchor
        cards = page.eval_on_selector_all(".role-card", """els => els.map(e => ({
            id: e.querySelector('h3').id, name: e.querySelector('h3').textContent,
            text: e.querySelector('p').textContent}))""")
        assert cards == [{"id": r["key"], "name": r["name"], "text": r["text"]}
                         for r in rules["roles"]]
        # the market hall example draws the hall's spaces; the barges the setup's capacities
        assert page.locator("#figure-hall .ex-hall > li").count() == \
            rules["limits"]["market_hall_spaces"]
        assert page.locator("#figure-holding .ex-holding > li").count() == \
            rules["limits"]["holding_spaces"]
        caps = rules["setups"]["4"]["barge_capacities"]
        slots = page.eval_on_selector_all(
            "#figure-barges .barge",
            "els => els.map(e => e.querySelectorAll('.barge-slots > *').length)")
        assert slots == caps
    finally:
        context.close()


def test_the_sections_and_anchors(browser: Any, server_url: str) -> None:
    context, page = opened(browser, server_url)
    try:
        headings = page.eval_on_selector_all(
            "h1, h2, h3", "els => els.map(e => e.textContent.replace(/\\s+/g, ' ').trim())")
        for heading in HEADINGS:
            assert heading in headings, (heading, headings)
        anchors = page.evaluate(
            "async () => (await import('/howto_link.js')).HOW_TO_PLAY_SECTIONS")
        assert {"roles", "reeve", "shipping", "selling", "end", "fair"} <= set(anchors)
        missing = page.evaluate("ids => ids.filter(id => !document.getElementById(id))", anchors)
        assert not missing
        # every link of the contents goes to something on the page
        targets = page.eval_on_selector_all(".toc a", "els => els.map(a => a.hash.slice(1))")
        assert page.evaluate("ids => ids.filter(id => !document.getElementById(id))", targets) == []
        link = page.evaluate("""async () => {
            const m = await import('/howto_link.js');
            const a = m.howToPlayLink('shipping', 'How shipping works');
            return [a.getAttribute('href'), a.target, a.textContent, m.phaseSection('keep_goods')];
        }""")
        assert link == ["/how-to-play#shipping", "_blank",
                        "How shipping works (opens in a new tab)", "keeping"]
    finally:
        context.close()
    # a link from the table lands on its section once the page has filled in
    context, page = opened(browser, server_url, "/how-to-play#reeve")
    try:
        box = page.locator("#reeve").bounding_box()
        assert box is not None and 0 <= box["y"] < 200, box
    finally:
        context.close()


def test_the_lobby_and_game_pages_link_here(browser: Any, server_url: str) -> None:
    for html in ("index.html", "game.html"):
        assert 'href="/how-to-play"' in (ROOT / "web" / html).read_text(), html
    context, page, watch = new_page(browser)  # the server's Content-Security-Policy holds
    try:
        page.goto(server_url + "/")
        with context.expect_page() as opening:  # a new tab: the lobby is also the table
            page.get_by_role("link", name="How to play").click()
        howto = opening.value
        watch.attach(howto)
        howto.wait_for_selector("body[data-ready='1']")
        assert howto.url.endswith("/how-to-play")
        page.goto(server_url + "/how-to-play")  # and watched from its first byte
        page.wait_for_selector("body[data-ready='1']")
        assert not watch.problems, watch.problems  # nothing the policy refused
    finally:
        context.close()


@pytest.mark.parametrize(("name", "width", "height"), [("desktop", 1440, 900),
                                                        ("phone", 375, 812)])
def test_axe_and_screenshots(browser: Any, server_url: str, name: str, width: int,
                             height: int) -> None:
    context, page = opened(browser, server_url, width=width, height=height, touch=width < 600)
    try:
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"howto-{name}.png"), full_page=True)
        axe.check(page, f"howto-{name}")
        wide = page.evaluate("document.documentElement.scrollWidth")
        assert wide <= width, f"the page is {wide} px wide on a {width} px screen"
    finally:
        context.close()

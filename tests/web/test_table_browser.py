"""The table in a real browser: a reload mid-game continues in the same seat, and nothing
received or shown reveals another player's seals before the end."""

from __future__ import annotations

from typing import Any

from tests.web.table_page import (
    my_seat,
    new_page,
    play_by_clicking,
    play_now,
    seals_leaks,
    wait_turn,
)

# Text in the players' panel, and any element for another seat, that mentions seals.
OTHERS_SEALS = """() => {
  const hits = [];
  for (const el of document.querySelectorAll('#others, #others *')) {
    for (const attr of el.attributes) {
      if (/seal/i.test(attr.value)) hits.push(`${el.tagName}[${attr.name}]=${attr.value}`);
    }
  }
  const text = document.getElementById('others').textContent;
  if (/seal/i.test(text)) hits.push(text);
  return hits;
}"""


def test_reload_mid_game_continues_in_the_same_seat(browser: Any, server_url: str) -> None:
    context, page, watch = new_page(browser)
    try:
        play_now(page, server_url, players=4)
        play_by_clicking(page, until=8)
        assert wait_turn(page) == "mine"
        seat = my_seat(page)
        versions = [f["version"] for f in watch.of_type("update")]
        log_lines = page.locator("#log li").count()
        assert log_lines > 0
        sent_before = len(watch.sent)
        received_before = len(watch.received)

        page.reload()
        page.locator("#decision .decision-head").wait_for()
        assert my_seat(page) == seat
        hello = next(f for f in watch.sent[sent_before:] if f["type"] == "hello")
        assert hello["token"] and hello["since"] == max(versions)
        welcome = next(f for f in watch.received[received_before:] if f["type"] == "welcome")
        assert welcome["seat"] == seat
        # the log is kept across the reload
        assert page.locator("#log li").count() >= log_lines

        # the game goes on from the same seat
        play_by_clicking(page, until=6)
        after = [f["version"] for f in watch.of_type("update", watch.received[received_before:])]
        assert max(after) > max(versions)
        assert my_seat(page) == seat
        assert not watch.of_type("error"), watch.of_type("error")
    finally:
        context.close()
    assert not watch.problems, watch.problems


def test_no_seals_of_others_before_the_end(browser: Any, server_url: str) -> None:
    context, page, watch = new_page(browser)
    dom_hits: list[str] = []
    try:
        play_now(page, server_url, players=5)

        def check_dom(step: int) -> None:
            if step % 3 == 0 and not page.locator("#seed").count():
                dom_hits.extend(page.evaluate(OTHERS_SEALS))
                # the only seal count of a player on the page is yours
                assert page.locator("#my-seals").count() == 1

        play_by_clicking(page, on_step=check_dom)
        seat = my_seat(page)
    finally:
        context.close()
    assert not dom_hits, dom_hits[:5]
    updates = watch.of_type("update")
    assert len(updates) > 20
    assert seals_leaks(watch.received, seat) == []
    # not vacuous: your own seals come in every update, and everyone's at the end
    assert all(u["view"]["mats"][seat]["seals"] is not None for u in updates)
    ended = watch.of_type("game_ended")
    assert ended and all(s["seals"] is not None for s in ended[-1]["result"]["scores"])
    assert not watch.problems, watch.problems

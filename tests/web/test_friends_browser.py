"""Friends at one table in Chromium: the chat (text only, the RTL override gone, the limit
and the rate said, mute kept across a reload, spectators read only, an unread count, the
desktop still fits), the rematch from the end screen (the offer, Join, the same seats at
a new table that starts by itself), the lobby's lists, the tab's title and icon while a
decision is yours, the away chime on a hidden page, and sound off until turned on.

Screenshots go to test-artifacts/screenshots/friends-*.png.
"""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Error as PlaywrightError

from tests.web.friends_page import SocketPlayer, commit, get, post, reveal_when_open
from tests.web.table_page import (
    GAME_TIMEOUT,
    SIZES,
    click_step,
    new_page,
    play_by_clicking,
    play_now,
    screenshots,
    shot,
    sounds_of,
    wait_turn,
)

PHONE = {"phone": SIZES["phone"]}
DESKTOP = {"desktop": SIZES["desktop"]}
NO_PAGE_SCROLL = """() => {
  const d = document.scrollingElement;
  return d.scrollHeight <= d.clientHeight + 1 && d.scrollWidth <= d.clientWidth + 1;
}"""
CHAT_TEXTS = ("() => [...document.querySelectorAll('#chat-lines .chat-said')]"
              ".map((e) => e.textContent)")


def join_in_browser(page: Any, url: str, table: str, name: str) -> None:
    """Open the invite link and take a seat with the page's join form."""
    page.goto(f"{url}/?table={table}")
    page.fill("#join-name", name)
    page.get_by_role("button", name="Join this table").click()
    # seated: the host (the first to join) has Start, the others wait for the host
    page.locator("#pre #start, #pre #waiting-host").first.wait_for()


def say(page: Any, text: str) -> None:
    page.fill("#chat-text", text)
    page.press("#chat-text", "Enter")


def test_players_chat_as_text_mute_is_kept_and_spectators_only_read(
    browser: Any, server_url: str
) -> None:
    table = post(server_url, "/api/tables", {"players": 3})["table"]
    ada_ctx, ada, ada_watch = new_page(browser)
    bede_ctx, bede, bede_watch = new_page(browser)
    rail_ctx, rail, rail_watch = new_page(browser)
    try:
        join_in_browser(ada, server_url, table, "Ada")
        join_in_browser(bede, server_url, table, "Bede")

        # the waiting room: the chat is open, no markup is ever drawn
        ada.locator("#chat-text").wait_for()
        say(ada, "hello <b>Bede</b> & all")
        bede.wait_for_function(f"() => ({CHAT_TEXTS})().length === 1")
        assert bede.evaluate(CHAT_TEXTS) == ["hello <b>Bede</b> & all"]
        assert bede.locator("#chat-lines b").count() == 0
        assert bede.locator("#chat-lines .chat-name").first.inner_text() == "Ada"
        assert ada.locator("#chat-lines .chat-name").first.inner_text() == "You"
        screenshots(bede, "friends-chat-waiting")

        ada.get_by_role("button", name="Start the game (bots fill empty seats)").click()
        ada.locator("#decision .decision-head").wait_for()
        bede.locator("#decision .decision-head").wait_for()
        rail.goto(f"{server_url}/?table={table}")
        rail.locator("#decision .decision-head").wait_for()

        # the tab of the player whose decision it is says so; the other's does not
        turn, normal = "● Your turn — Quaymoor", f"Quaymoor — table {table}"
        mine = "() => !!document.querySelector('#decision.mine')"
        for _ in range(100):  # the first decision put to one of the two humans waits there
            if ada.evaluate(mine) != bede.evaluate(mine):
                break
            ada.wait_for_timeout(100)
        deciding, waiting = (ada, bede) if ada.evaluate(mine) else (bede, ada)
        assert deciding.evaluate(mine) and not waiting.evaluate(mine)
        assert deciding.title() == turn and waiting.title() == normal
        assert deciding.get_attribute('link[rel="icon"]', "data-mine") == "1"
        assert waiting.get_attribute('link[rel="icon"]', "href") == "data:,"

        # in play the log shows; a new line of the others' is counted until the chat opens
        assert ada.get_attribute("#logpane", "data-pane") == "log"
        say_from = "\u202eevil\u202c שלום and 🎲"
        bede.click("#pane-chat")
        say(bede, say_from)
        ada.wait_for_function("() => document.getElementById('chat-unread').textContent === '1'")
        assert ada.is_visible("#chat-unread")
        ada.click("#pane-chat")
        assert ada.is_hidden("#chat-unread")
        ada.wait_for_function(f"() => ({CHAT_TEXTS})().length === 2")
        assert ada.evaluate(CHAT_TEXTS)[-1] == "evil שלום and 🎲"
        assert ada.evaluate(NO_PAGE_SCROLL), "the chat made the desktop table scroll"
        screenshots(ada, "friends-chat-play", DESKTOP)

        # the spectator reads everything and has nothing to write with
        rail.click("#pane-chat")
        rail.wait_for_function(f"() => ({CHAT_TEXTS})().length === 2")
        assert rail.is_hidden("#chat-form")
        assert rail.is_visible("text=Spectators read the chat; only the players write in it.")
        assert rail.locator("#chat-mute").is_visible()  # a spectator may mute too

        # the limits are said before and after sending
        ada.fill("#chat-text", "x" * 201)
        assert ada.inner_text("#chat-count") == "201/200"
        assert ada.is_disabled("#chat-send")
        ada.fill("#chat-text", "🎲" * 200)  # 200 code points, 400 UTF-16 units: fine
        assert ada.is_enabled("#chat-send")
        ada.fill("#chat-text", "")
        for i in range(6):
            say(bede, f"spam {i}")
        bede.wait_for_function("() => /at most 5 chat lines in 10 s: wait/.test("
                               "document.getElementById('chat-error').textContent)")
        bede.wait_for_timeout(300)
        bedes = bede.locator("#chat-lines li[data-seat='1']").count()
        assert 5 <= bedes < 7  # his first line and 4 or 5 of the 6: the rest were refused
        ada.wait_for_function(f"() => ({CHAT_TEXTS})().length === {1 + bedes}")

        # mute Bede: his lines go, the count of hidden ones shows; kept across a reload
        ada.click("#chat-mute summary")
        ada.get_by_role("button", name="Mute Bede").click()
        assert ada.evaluate(CHAT_TEXTS) == ["hello <b>Bede</b> & all"]
        assert ada.inner_text("#chat-hidden") == f"{bedes} messages from muted players hidden."
        assert ada.evaluate("localStorage.getItem('quaymoor.muted')") == '["Bede"]'
        ada.reload()
        ada.locator("#decision .decision-head").wait_for()
        ada.click("#pane-chat")
        ada.wait_for_function("() => !document.getElementById('chat-hidden').hidden")
        assert ada.evaluate(CHAT_TEXTS) == ["hello <b>Bede</b> & all"]
        assert ada.get_attribute("#chat-mute button[data-name='Bede']", "aria-pressed") == "true"
        screenshots(ada, "friends-chat-muted", DESKTOP)

        # on a phone the chat is behind the Log tab, with the unread count on it
        bede.set_viewport_size({"width": 375, "height": 812})
        bede.click("#tabs .tab-board")
        say(ada, "over to you")
        bede.wait_for_function("() => document.querySelector('#tabs .tab-log').dataset.unread")
        screenshots(bede, "friends-chat-unread", PHONE)
        bede.click("#tabs .tab-log")
        bede.click("#pane-chat")
        bede.wait_for_function(f"() => ({CHAT_TEXTS})().includes('over to you')")
        screenshots(bede, "friends-chat-phone", PHONE)
        for watch in (ada_watch, bede_watch, rail_watch):
            assert not watch.problems, watch.problems
    finally:
        for ctx in (ada_ctx, bede_ctx, rail_ctx):
            ctx.close()


def test_rematch_from_the_end_screen_seats_the_same_people(
    browser: Any, server_url: str
) -> None:
    info = post(server_url, "/api/tables", {"players": 3})
    table = info["table"]
    bede_seat = post(server_url, f"/api/tables/{table}/join", {"name": "Bede"})
    commit(server_url, table, bede_seat, "Bede's first dice")
    bede = SocketPlayer(server_url, table, bede_seat["token"])
    bede.start()
    context, page, watch = new_page(browser)
    try:
        join_in_browser(page, server_url, table, "Ada")
        seat = 1
        # Bede joined first: he is the host, and Ada is told she waits for him
        waiting = page.locator("#waiting-host")
        assert "Waiting for Bede to start" in waiting.inner_text()
        assert page.locator("#pre #start").count() == 0
        post(server_url, f"/api/tables/{table}/start", {"token": bede_seat["token"]})
        reveal_when_open(server_url, table, bede_seat["token"], "Bede's first dice")
        page.locator("#decision .decision-head").wait_for()
        seen = page.evaluate(f"JSON.parse(localStorage.getItem('quaymoor.fair.{table}'))")
        assert seen["start_seeds"][0] == "Bede's first dice"  # both seats revealed
        assert seen["start_seeds"][seat] == seen["client_seed"] and seen["revealed"]
        assert int(page.get_attribute("#mat", "data-seat")) == seat
        play_by_clicking(page, timeout=GAME_TIMEOUT)
        assert bede.ended.wait(30), "Bede's game did not end"
        page.locator("#rematch").wait_for()
        assert page.inner_text("#rematch") == "Rematch"
        page.locator("#rematch").scroll_into_view_if_needed()
        screenshots(page, "friends-rematch-button")

        # Bede offers: Ada is asked, not moved
        bede.offer_now.set()
        page.locator("#rematch-offer").wait_for()
        assert page.inner_text("#rematch-offer") == "Bede wants a rematch."
        assert page.url.endswith(f"/?table={table}")
        page.locator("#rematch-offer").scroll_into_view_if_needed()
        screenshots(page, "friends-rematch-offer")
        assert bede.chaired.wait(20), "Bede got no chair at the rematch"
        assert bede.chair is not None and bede.chair["seat"] == 0
        rematch = bede.chair["rematch"]

        # a spectator who comes to the old table now is offered the rematch to watch
        rail_ctx, rail, rail_watch = new_page(browser, width=375, height=812, touch=True)
        try:
            rail.goto(f"{server_url}/?table={table}")
            rail.locator("#watch-rematch").wait_for()
            assert rail.inner_text("#rematch-offer") == "Bede offered a rematch. Watch it"
            assert rail.get_attribute("#watch-rematch", "href") == f"/?table={rematch}"
            assert rail.locator("#rematch").count() == 0  # no chair for a spectator
            assert not rail_watch.problems, rail_watch.problems
        finally:
            rail_ctx.close()

        # Ada joins: the same seat at the new table, which waits for Bede's commitment, says
        # it will start by itself, and does once both have committed (then both reveal)
        page.get_by_role("button", name="Join the rematch").click()
        page.wait_for_url(f"**/?table={rematch}")
        page.locator("#rematch-note").wait_for()
        seats = page.inner_text("#pre .seats")
        assert seats.splitlines() == ["Bede host — not connected", "You (Ada)",
                                      "(empty seat — a bot will take it)"], seats
        screenshots(page, "friends-rematch-waiting", {**DESKTOP, **PHONE})
        bede.seed_now.set()
        assert bede.seated.wait(20), "Bede's commitment did not go in"
        assert bede.revealed.wait(20), "Bede's seed was not revealed"
        page.locator("#decision .decision-head").wait_for(timeout=20000)
        assert int(page.get_attribute("#mat", "data-seat")) == seat
        tables = {t["id"]: t for t in get(server_url, "/api/tables")["tables"]}
        names = [s["name"] for s in tables[rematch]["seats"]]
        assert names[:2] == ["Bede", "Ada"] and names[2].endswith("(bot)")
        assert tables[rematch]["state"] == "playing"
        assert page.evaluate(f"localStorage.getItem('quaymoor.seat.{rematch}')")
        page.wait_for_selector("#log li:has-text('Your client seed is listed at your seat')")
        mine = page.evaluate(f"JSON.parse(localStorage.getItem('quaymoor.fair.{rematch}'))")
        assert mine["seat"] == seat and mine["revealed"] and mine["committed"]
        assert mine["start_seeds"][:2] == ["Bede's dice", mine["client_seed"]]
        shot(page, "friends-rematch-started-desktop")
        bede.join(10)
        assert [o["accepted"] for o in bede.offers] == [[0]]
        assert not watch.problems, watch.problems
    finally:
        bede.offer_now.set()
        bede.seed_now.set()
        context.close()


def test_lobby_lists_open_tables_to_watch_and_finished_games(
    browser: Any, server_url: str
) -> None:
    context, page, watch = new_page(browser)
    try:
        play_now(page, server_url, players=2, name="Lister")
        table = page.url.split("table=")[1]
        play_by_clicking(page, timeout=GAME_TIMEOUT)
        other = post(server_url, "/api/play-now", {"name": "Runner", "players": 2})
        post(server_url, f"/api/tables/{other['table']}/start", {"token": other["token"]})
        page.goto(server_url + "/")
        page.locator(f"#recent-games a[href='/games/{table}']").wait_for()
        row = page.locator("#recent-games li", has=page.locator(f"a[href='/games/{table}']"))
        assert "Lister" in row.inner_text() and " points, just now" in row.inner_text()
        game = get(server_url, f"/api/games/{table}")
        winner = game["seats"][game["result"]["winners"][0]]["name"]
        assert f"won by {winner} with " in row.inner_text()
        watch_link = page.locator(f"#open-tables a[data-table='{other['table']}']")
        watch_link.wait_for()
        assert watch_link.inner_text() == "Watch"
        screenshots(page, "friends-lobby", DESKTOP)
        page.set_viewport_size({"width": 375, "height": 812})
        page.locator("#tables-head").scroll_into_view_if_needed()
        shot(page, "friends-lobby-lists-phone")
        page.set_viewport_size({"width": 1440, "height": 900})

        # refreshed by itself: a table opened now shows within the refresh period, and
        # one opened with hints for everyone says so before anyone joins
        third = post(server_url, "/api/play-now", {"name": "Latecomer", "players": 2})
        page.locator(f"#open-tables a[data-table='{third['table']}']").wait_for(timeout=20000)
        helped = post(server_url, "/api/tables", {"players": 2, "hints": True})
        helped_row = page.locator("#open-tables li", has=page.locator(
            f"a[data-table='{helped['table']}']"))
        helped_row.wait_for(timeout=20000)
        assert helped_row.locator(".badge").inner_text() == "hints"
        third_row = page.locator("#open-tables li", has=page.locator(
            f"a[data-table='{third['table']}']"))
        assert third_row.locator(".badge").count() == 0

        watch_link.click()
        page.wait_for_url(f"**/?table={other['table']}")
        page.locator("#decision .decision-head").wait_for()
        assert "You are watching this table." in page.inner_text("#decision")
        page.go_back()
        page.locator(f"#recent-games a[href='/games/{table}']").click()
        page.wait_for_url(f"**/games/{table}")
        assert not watch.problems, watch.problems
    finally:
        context.close()


def test_the_tab_shows_your_turn_and_a_hidden_page_chimes(browser: Any, server_url: str) -> None:
    context, page, watch = new_page(browser)
    try:
        # document.hidden under the test's control, as when another tab is in front; and
        # every title the tab shows, in order
        page.add_init_script("""
          window.__hidden = false;
          Object.defineProperty(document, 'hidden', {get: () => window.__hidden});
          window.__titles = [];
          setInterval(() => {
            if (window.__titles.at(-1) !== document.title) window.__titles.push(document.title);
          }, 10);
        """)
        play_now(page, server_url, players=3)
        table = page.url.split("table=")[1]
        assert page.evaluate("localStorage.getItem('quaymoor.sound')") is None
        assert page.get_attribute("#sound", "aria-pressed") == "false"
        assert wait_turn(page) == "mine"
        assert page.title() == "● Your turn — Quaymoor"
        icon = 'link[rel="icon"]'
        assert page.get_attribute(icon, "data-mine") == "1"
        assert page.get_attribute(icon, "href").startswith("data:image/svg+xml,")
        screenshots(page, "friends-your-turn", DESKTOP)
        assert sounds_of(page) == [], "a sound before the player turned sound on"

        page.click("#sound")  # on, and kept
        assert page.evaluate("localStorage.getItem('quaymoor.sound')") == "on"
        page.evaluate("window.__hidden = true")
        heard = len(sounds_of(page))
        for step in range(30):
            if "away" in sounds_of(page)[heard:] or wait_turn(page) == "ended":
                break
            try:
                click_step(page, step)
            except PlaywrightError:
                continue  # the table moved on under the pointer
        later = sounds_of(page)[heard:]
        assert "away" in later and "turn" not in later, later

        # once the game is over the title and the icon are as they were
        normal = f"Quaymoor — table {table}"
        assert page.evaluate("window.__titles")[:3] == [
            "Quaymoor", normal, "● Your turn — Quaymoor"]
        page.evaluate("window.__hidden = false")
        play_by_clicking(page, timeout=GAME_TIMEOUT)
        assert page.title() == normal
        assert page.get_attribute(icon, "href") == "data:," and not page.get_attribute(
            icon, "data-mine")
        page.reload()
        page.locator("#end").wait_for()
        assert page.evaluate("window.quaymoorSound.on") is True  # the choice was kept
        assert not watch.problems, watch.problems
    finally:
        context.close()

"""The room around the game (issue 21): the host's waiting room with a Copy invite button,
the seats seeing who watches (a spectator under the name this browser plays under), no key
letters on a touch-only device, and the log that is no live region (a screen reader hears
the others' moves on demand, or by the Read-moves setting)."""

from __future__ import annotations

from typing import Any

from tests.web.friends_page import post
from tests.web.table_page import new_page, play_now, shot, wait_turn

COPIED = "() => document.getElementById('copy-note').textContent === 'Copied.'"
KEY_LETTERS_SHOWN = """() => [...document.querySelectorAll('kbd')]
  .filter((k) => getComputedStyle(k).display !== 'none' && k.offsetParent !== null).length"""


def test_waiting_room_copy_invite_and_who_watches(browser: Any, server_url: str) -> None:
    table = post(server_url, "/api/tables", {"players": 3})["table"]
    host_ctx, host, host_watch = new_page(browser)
    host_ctx.grant_permissions(["clipboard-read", "clipboard-write"], origin=server_url)
    eye_ctx, eye, eye_watch = new_page(browser)
    try:
        host.goto(f"{server_url}/?table={table}")
        host.fill("#join-name", "Ada")
        host.get_by_role("button", name="Join this table").click()
        host.locator("#pre #start").wait_for()  # the first to join is the host
        host.click("#copy-invite")
        host.wait_for_function(COPIED)
        assert host.evaluate("navigator.clipboard.readText()") == f"{server_url}/?table={table}"

        # a spectator who plays under a name is listed to the seats by it
        eye.goto(server_url + "/")
        eye.evaluate("localStorage.setItem('quaymoor.name', 'Wulfstan')")
        eye.goto(f"{server_url}/?table={table}")
        eye.locator("#join-name").wait_for()
        assert {"type": "hello", "table": table, "token": None, "since": None,
                "name": "Wulfstan"} in eye_watch.sent
        host.locator("#watchers-pre").wait_for()
        assert host.inner_text("#watchers-pre") == "1 watching: Wulfstan"
        shot(host, "room-waiting-host-desktop")

        host.click("#pre #start")
        host.locator("#decision .decision-head").wait_for()
        host.locator("#watchers").wait_for()
        assert "1 watching: Wulfstan" in host.inner_text("#watchers")
        eye_ctx.close()
        host.wait_for_function("() => !document.getElementById('watchers')", timeout=10_000)
        # the log is no live region: the bots' moves do not queue for a screen reader
        assert host.get_attribute(".log-live", "aria-live") == "off"
        host.click("#keys > summary")
        assert not host.is_checked("#read-moves")
        assert not host_watch.problems, host_watch.problems
    finally:
        host_ctx.close()


def test_no_key_letters_on_a_touch_only_device(browser: Any, server_url: str) -> None:
    context, page, watch = new_page(browser, width=375, height=812, touch=True)
    try:
        play_now(page, server_url, players=2)
        wait_turn(page)
        shown = page.evaluate(KEY_LETTERS_SHOWN)
        assert shown == 0, f"{shown} key letters shown on a touch-only phone"
        assert page.locator("#keys").is_hidden()
        assert page.locator("#help-button").is_visible()  # "?" stays: it is a button
        assert not watch.problems, watch.problems
    finally:
        context.close()

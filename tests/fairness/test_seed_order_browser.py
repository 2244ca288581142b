"""In Chromium: the browser sends its client seed only after the table's fingerprint has
come back from the server AND been shown on the page, for "Play now" and for a join by
invite link; it checks at the start that its seed is listed at its seat; the end screen
lists the seeds per seat. Every request is recorded (``page.on("request")``), and the
moment the fingerprint first appears in the DOM (a MutationObserver, reported through an
exposed binding, with the page's own clock next to the page's own record of its fetches).

On this test server a human seat's decision times out at once, so a game against bots runs
to its end by itself. Screenshots: test-artifacts/screenshots/fair-start.png (the start,
fingerprint shown) and fair-end.png (the end screen with the seeds per seat).
"""

from __future__ import annotations

import json
import urllib.request
from typing import Any

from tests.server_process import Served
from tests.web.table_page import SHOTS

GAME_TIMEOUT_MS = 60_000

#: Before any page script: the page's fetches with their time, and the time each 64-hex
#: string (a fingerprint) first appears in the document, reported to the test at once.
WATCH = """
(() => {
  const fair = { fetches: [], shown: {} };
  window.__fair = fair;
  const look = () => {
    const text = document.documentElement ? document.documentElement.textContent : "";
    for (const m of text.matchAll(/[0-9a-f]{64}/g)) {
      if (!(m[0] in fair.shown)) {
        fair.shown[m[0]] = performance.now();
        if (window.fairShown) window.fairShown(m[0]);
      }
    }
  };
  const watcher = new MutationObserver(look);
  watcher.observe(document, { subtree: true, childList: true, characterData: true });
  const fetch0 = window.fetch;
  window.fetch = function (input, init) {
    const url = typeof input === "string" ? input : input.url;
    look();  // whatever is on the page as the request leaves
    fair.fetches.push({ url, body: (init && init.body) || null, t: performance.now() });
    return fetch0.apply(this, arguments);
  };
})();
"""


class Recorder:
    """Every request and response of a page and each fingerprint's first display, in the
    order the test hears of them."""

    def __init__(self, page: Any) -> None:
        self.events: list[tuple[str, str, Any]] = []
        self.responses: dict[str, Any] = {}
        page.add_init_script(WATCH)
        page.expose_binding("fairShown", lambda _source, fp: self.events.append(
            ("shown", fp, None)))
        page.on("request", lambda r: self.events.append(("request", r.url, r.post_data)))
        page.on("response", self._response)

    def _response(self, response: Any) -> None:
        self.events.append(("response", response.url, None))
        self.responses.setdefault(response.url, response)

    def index(self, kind: str, ending: str) -> int:
        found = [i for i, (k, url, _) in enumerate(self.events) if k == kind
                 and url.endswith(ending)]
        assert len(found) == 1, (kind, ending, self.events)
        return found[0]

    def shown_at(self, fp: str) -> int:
        found = [i for i, (k, what, _) in enumerate(self.events) if k == "shown" and what == fp]
        assert found, (fp, self.events)
        return found[0]

    def body(self, kind: str, ending: str) -> dict[str, Any]:
        data = self.events[self.index(kind, ending)][2]
        out: dict[str, Any] = json.loads(data or "{}")
        return out


def assert_seed_after_fingerprint(page: Any, rec: Recorder, seated: str, table: str) -> str:
    """The seed request came after the answer that seated us (with the fingerprint) and
    after that fingerprint was on the page; returns the seed sent."""
    answer = rec.responses[next(u for u in rec.responses if u.endswith(seated))].json()
    fp = answer["fingerprint"]
    seed_path = f"/api/tables/{table}/seed"
    seed_at = rec.index("request", seed_path)
    assert rec.index("response", seated) < seed_at
    assert rec.shown_at(fp) < seed_at
    # the page's own clock: the fingerprint was in the document before the seed left
    fair = page.evaluate("window.__fair")
    (sent,) = [f for f in fair["fetches"] if f["url"].endswith(seed_path)]
    assert fair["shown"][fp] < sent["t"]
    # and the player goes on seeing it: the lobby's notice may already have given way to
    # the table ("Connecting to the table..."), whose top bar shows it once it draws
    page.wait_for_function("fp => document.body.innerText.includes(fp)", arg=fp,
                           timeout=15_000)
    body = rec.body("request", seed_path)
    assert set(body) == {"token", "client_seed"} and len(body["client_seed"]) == 32
    assert "client_seed" not in rec.body("request", seated)
    seed: str = body["client_seed"]
    return seed


def post(url: str, body: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as response:
        answer: dict[str, Any] = json.load(response)
    return answer


def test_play_now_shows_the_fingerprint_before_the_seed_goes_out(
    page: Any, archived_server: Served
) -> None:
    rec = Recorder(page)
    page.goto(archived_server.url + "/")
    page.select_option("#playnow-players", "3")
    page.get_by_role("button", name="Play now against bots").click()
    page.wait_for_url("**/?table=*")
    table = page.url.split("table=")[1]
    seed = assert_seed_after_fingerprint(page, rec, "/api/play-now", table)
    assert rec.index("request", f"/api/tables/{table}/seed") < rec.index(
        "request", f"/api/tables/{table}/start")
    page.wait_for_selector("#log li:has-text('Your client seed is listed at your seat')")
    page.wait_for_selector("#verify-game", timeout=GAME_TIMEOUT_MS)
    page.click(".end-seeds summary")  # the client seeds, folded under their count
    listed = page.locator("#end-seeds li").all_inner_texts()
    assert len(listed) == 3 and listed[0].endswith(seed) and all(
        x.endswith("none") for x in listed[1:])


def test_an_invite_link_join_shows_the_fingerprint_before_the_seed_goes_out(
    page: Any, archived_server: Served
) -> None:
    made = post(archived_server.url + "/api/tables", {"players": 3})
    table = made["table"]
    host = post(f"{archived_server.url}/api/tables/{table}/join", {"name": "Host"})
    assert host["fingerprint"] == made["fingerprint"]
    rec = Recorder(page)
    page.goto(f"{archived_server.url}/?table={table}")  # the invite link
    page.fill("#join-name", "Guest")
    page.get_by_role("button", name="Join this table").click()
    page.wait_for_selector("button:has-text('Start the game')")  # seated now
    seed = assert_seed_after_fingerprint(page, rec, f"/api/tables/{table}/join", table)
    assert rec.responses[next(u for u in rec.responses if u.endswith("/join"))].json()[
        "fingerprint"] == made["fingerprint"]
    post(f"{archived_server.url}/api/tables/{table}/start", {"token": host["token"]})  # the host
    page.wait_for_selector("#log li:has-text('Your client seed is listed at your seat')")
    assert made["fingerprint"] in page.inner_text("#fingerprint")
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "fair-start.png"))
    page.wait_for_selector("#verify-game", timeout=GAME_TIMEOUT_MS)
    page.click(".end-seeds summary")  # the client seeds, folded under their count
    listed = page.locator("#end-seeds li").all_inner_texts()
    assert listed[0].startswith("Host") and listed[0].endswith("none")
    assert listed[1].endswith(seed) and listed[2].endswith("none")
    page.locator("#end-seeds").scroll_into_view_if_needed()
    page.screenshot(path=str(SHOTS / "fair-end.png"))


def test_the_browser_refuses_to_send_a_seed_before_it_has_shown_the_fingerprint(
    page: Any, archived_server: Served
) -> None:
    rec = Recorder(page)
    page.goto(archived_server.url + "/")
    refused = page.evaluate("""async () => {
        const seen = await import('/seen.js');
        try { await seen.sendClientSeed('abcdefabcd', { token: 't', seat: 0 }); return 'sent'; }
        catch (e) { return e.message; }
    }""")
    assert "before this browser has shown the table's fingerprint" in refused
    assert not [e for e in rec.events if e[0] == "request" and e[1].endswith("/seed")]

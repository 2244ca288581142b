"""In Chromium, the order of commit, then reveal (docs/fairness.md): the browser sends the
commitment to its client seed only after the table's fingerprint has come back from the
server AND been shown on the page, for "Play now" and for a join by invite link; it
reveals its seed only after the start has listed every commitment (shown on the page,
with ours at our seat), and once; the seed revealed matches the commitment sent. At the
deal it checks that its seed is listed at its seat; a seat that committed and did not
reveal is marked at the table; the end screen lists the seeds per seat. Every request is
recorded (``page.on("request")``), and the moment the fingerprint first appears in the DOM
(a MutationObserver, reported through an exposed binding, with the page's own clock next
to the page's own record of its fetches, and whether the commitments were on the page as
each fetch left).

On this test server a human seat's decision times out at once, so a game against bots runs
to its end by itself. Screenshots: test-artifacts/screenshots/fair-reveal.png (the table
during the reveal: the commitments, waiting for a seat that does not reveal),
fair-start.png (dealt: that seat marked "did not reveal its seed") and fair-end.png (the
end screen with the seeds per seat).
"""

from __future__ import annotations

import json
import time
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

from quaymoor.rules.fairness import seed_commitment
from tests.server_process import Served
from tests.web.axe import check as axe_check
from tests.web.table_page import SHOTS

GAME_TIMEOUT_MS = 60_000

#: What the game log says that the tests wait for. The log folds a finished round under
#: its heading, and on this server a game plays on by itself at once: on a busy machine a
#: line may be folded away before the test looks, so the page's watcher notes each phrase
#: the moment the log first says it.
LOG_PHRASES = ["Your client seed is listed at your seat", "committed and did not reveal",
               "did not reveal its seed"]

#: Before any page script: the page's fetches with their time, the time each 64-hex
#: string (a fingerprint) first appears in the document, reported to the test at once,
#: and each of ``LOG_PHRASES`` the game log has said.
WATCH = """
(() => {
  const fair = { fetches: [], shown: {}, said: [] };
  window.__fair = fair;
  const look = () => {
    const log = document.getElementById("log");
    if (log) {
      const said = log.textContent;
      for (const phrase of PHRASES) {
        if (!fair.said.includes(phrase) && said.includes(phrase)) fair.said.push(phrase);
      }
    }
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
    fair.fetches.push({ url, body: (init && init.body) || null, t: performance.now(),
      commitments: !!document.getElementById("fair-commitments") });
    return fetch0.apply(this, arguments);
  };
})();
""".replace("PHRASES", json.dumps(LOG_PHRASES))


def until(page: Any, predicate: str, arg: Any, timeout: float) -> None:
    """Wait until ``predicate(arg)`` is true in the page, asking from here every 0.1 s.
    Not ``page.wait_for_function``: on this page, while the game plays on by itself, it
    timed out on a busy machine although the same predicate, asked with
    ``page.evaluate`` right after the timeout, was true (with ``raf`` or 250 ms polling
    alike; the cause inside Playwright is not found). Asking from the test does not
    depend on the page's own polling."""
    deadline = time.monotonic() + timeout
    while not page.evaluate(predicate, arg):
        assert time.monotonic() < deadline, f"not true after {timeout} s: {predicate} ({arg})"
        page.wait_for_timeout(100)


def wait_logged(page: Any, phrase: str, timeout: float = 30.0) -> None:
    """Wait until the game log has said ``phrase`` (folded away since, or not)."""
    assert phrase in LOG_PHRASES, phrase
    until(page, "p => window.__fair.said.includes(p)", phrase, timeout)


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


def assert_commit_after_fingerprint(page: Any, rec: Recorder, seated: str, table: str) -> str:
    """The commitment went out after the answer that seated us (with the fingerprint) and
    after that fingerprint was on the page, and holds no seed; returns the commitment."""
    answer = rec.responses[next(u for u in rec.responses if u.endswith(seated))].json()
    fp = answer["fingerprint"]
    commit_path = f"/api/tables/{table}/commit"
    commit_at = rec.index("request", commit_path)
    assert rec.index("response", seated) < commit_at
    assert rec.shown_at(fp) < commit_at
    # the page's own clock: the fingerprint was in the document before the commitment left
    fair = page.evaluate("window.__fair")
    (sent,) = [f for f in fair["fetches"] if f["url"].endswith(commit_path)]
    assert fair["shown"][fp] < sent["t"]
    # and it stays on the page: the lobby's notice may already have given way to the
    # table ("Connecting to the table..."), whose top bar shows it once it draws, or (on a
    # busy machine, the game playing on by itself) to the end screen, which holds it
    until(page, "fp => document.documentElement.textContent.includes(fp)", fp, 15.0)
    body = rec.body("request", commit_path)
    assert set(body) == {"token", "commitment"} and len(body["commitment"]) == 64
    assert "client_seed" not in rec.body("request", seated)
    assert "commitment" not in rec.body("request", seated)
    commitment: str = body["commitment"]
    return commitment


def assert_reveal_matches(rec: Recorder, table: str, seat: int, commitment: str) -> str:
    """One reveal, after the commitment, of the seed behind it; returns the seed."""
    reveal_path = f"/api/tables/{table}/reveal"
    assert rec.index("request", f"/api/tables/{table}/commit") < rec.index(
        "request", reveal_path)
    body = rec.body("request", reveal_path)
    assert set(body) == {"token", "client_seed"} and len(body["client_seed"]) == 32
    assert seed_commitment(table, seat, body["client_seed"]) == commitment
    seed: str = body["client_seed"]
    return seed


@pytest.fixture
def axe_page(browser: Any) -> Iterator[Any]:
    """A page whose context lets axe-core in (bypass_csp): page errors fail the test."""
    context = browser.new_context(viewport={"width": 1200, "height": 900}, bypass_csp=True)
    pg = context.new_page()
    problems: list[str] = []
    pg.on("pageerror", lambda exc: problems.append(f"page error: {exc}"))
    try:
        yield pg
    finally:
        context.close()
    assert not problems, problems


def post(url: str, body: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as response:
        answer: dict[str, Any] = json.load(response)
    return answer


def test_play_now_commits_after_the_fingerprint_and_reveals_after_the_start(
    page: Any, archived_server: Served
) -> None:
    rec = Recorder(page)
    page.goto(archived_server.url + "/")
    page.select_option("#playnow-players", "3")
    page.get_by_role("button", name="Play now against bots").click()
    page.wait_for_url("**/?table=*")
    table = page.url.split("table=")[1]
    commitment = assert_commit_after_fingerprint(page, rec, "/api/play-now", table)
    start_at = rec.index("request", f"/api/tables/{table}/start")
    assert rec.index("request", f"/api/tables/{table}/commit") < start_at
    # the start's answer listed the commitments, ours at our seat, before the seed left
    started = rec.responses[next(u for u in rec.responses if u.endswith("/start"))].json()
    assert started["commitments"] == [commitment, None, None]
    assert rec.index("response", f"/api/tables/{table}/start") < rec.index(
        "request", f"/api/tables/{table}/reveal")
    seed = assert_reveal_matches(rec, table, 0, commitment)
    wait_logged(page, "Your client seed is listed at your seat")
    seen = page.evaluate(f"JSON.parse(localStorage.getItem('quaymoor.fair.{table}'))")
    assert seen["commitment"] == commitment and seen["client_seed"] == seed
    assert seen["start_commitments"] == [commitment, None, None]
    assert seen["start_seeds"] == [seed, None, None] and seen["revealed"] is True
    page.wait_for_selector("#verify-game", timeout=GAME_TIMEOUT_MS)
    page.click(".end-seeds summary")  # the client seeds, folded under their count
    listed = page.locator("#end-seeds li").all_inner_texts()
    assert len(listed) == 3 and listed[0].endswith(seed) and all(
        x.endswith("none") for x in listed[1:])
    assert not [e for e in rec.events if e[0] == "request" and e[1].endswith("/seed")]


def test_an_invite_link_join_commits_then_reveals_on_seeds_committed(
    axe_page: Any, archived_server: Served
) -> None:
    """The host (over HTTP) commits and never reveals: the browser's seat reveals once the
    start's commitments are on its page, the deal waits for the reveal to close, and the
    host's seat is marked as one that did not reveal its seed."""
    page = axe_page
    made = post(archived_server.url + "/api/tables", {"players": 3})
    table = made["table"]
    host = post(f"{archived_server.url}/api/tables/{table}/join", {"name": "Host"})
    assert host["fingerprint"] == made["fingerprint"]
    host_commitment = seed_commitment(table, 0, "the host's dice")
    post(f"{archived_server.url}/api/tables/{table}/commit",
         {"token": host["token"], "commitment": host_commitment})
    rec = Recorder(page)
    page.goto(f"{archived_server.url}/?table={table}")  # the invite link
    page.fill("#join-name", "Guest")
    page.get_by_role("button", name="Join this table").click()
    page.wait_for_selector("#pre #waiting-host")  # seated now, the host starts
    commitment = assert_commit_after_fingerprint(page, rec, f"/api/tables/{table}/join", table)
    assert rec.responses[next(u for u in rec.responses if u.endswith("/join"))].json()[
        "fingerprint"] == made["fingerprint"]
    assert not [e for e in rec.events if e[0] == "request" and e[1].endswith("/reveal")]
    started = post(f"{archived_server.url}/api/tables/{table}/start", {"token": host["token"]})
    assert started["commitments"] == [host_commitment, commitment, None]
    # the reveal: the commitments shown, ours revealed, waiting for the host's
    page.wait_for_selector("#fair-mine:has-text('your client seed is revealed')")
    status = page.inner_text("#fair-status")
    assert status.startswith("Seeds committed: waiting for 2 reveals"), status
    items = page.locator("#fair-commitments li").all_inner_texts()
    assert items[0].startswith("Host: ") and host_commitment[:8] in items[0]
    assert commitment[:8] in items[1] and "a bot: no seed" in items[2], items
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "fair-reveal.png"))
    axe_check(page, "fair-reveal")  # the reveal's panel, as accessible as the rest
    seed = assert_reveal_matches(rec, table, 1, commitment)
    fair = page.evaluate("window.__fair")
    (sent,) = [f for f in fair["fetches"] if f["url"].endswith(f"/api/tables/{table}/reveal")]
    assert sent["commitments"], "the seed left before the commitments were on the page"
    # the deal, once the reveal closed (10 s): ours listed, the host's seat marked
    wait_logged(page, "Your client seed is listed at your seat")
    wait_logged(page, "did not reveal its seed", timeout=5.0)  # the host's seat
    page.wait_for_selector('#others .other[data-seat="0"] .tag.withheld')
    assert made["fingerprint"] in page.inner_text("#fingerprint")
    page.screenshot(path=str(SHOTS / "fair-start.png"))
    seen = page.evaluate(f"JSON.parse(localStorage.getItem('quaymoor.fair.{table}'))")
    assert seen["start_commitments"] == [host_commitment, commitment, None]
    assert seen["start_seats"] == [{"name": "Host", "bot": False}, {"name": "Guest", "bot": False},
                                   {"name": "Ada (bot)", "bot": True}]
    assert seen["start_seeds"] == [None, seed, None]
    page.wait_for_selector("#verify-game", timeout=GAME_TIMEOUT_MS)
    page.click(".end-seeds summary")  # the client seeds, folded under their count
    listed = page.locator("#end-seeds li").all_inner_texts()
    assert listed[0].startswith("Host") and listed[0].endswith(
        ": did not reveal its seed (committed): none"), listed
    assert listed[1].endswith(seed) and listed[2].endswith("none")
    page.locator("#end-seeds").scroll_into_view_if_needed()
    page.screenshot(path=str(SHOTS / "fair-end.png"))
    assert len([e for e in rec.events if e[0] == "request" and e[1].endswith("/reveal")]) == 1


def test_the_browser_refuses_to_commit_before_the_fingerprint_or_reveal_unlisted(
    page: Any, archived_server: Served
) -> None:
    rec = Recorder(page)
    page.goto(archived_server.url + "/")
    refused = page.evaluate("""async () => {
        const seen = await import('/seen.js');
        try { await seen.commitClientSeed('abcdefabcd', { token: 't', seat: 0 }); return 'sent'; }
        catch (e) { return e.message; }
    }""")
    assert "before this browser has shown the table's fingerprint" in refused
    # committed here, but the start lists another commitment at our seat: no reveal
    refused = page.evaluate("""async () => {
        const seen = await import('/seen.js');
        localStorage.setItem('quaymoor.fair.abcdefabce', JSON.stringify({
          fingerprint: 'f'.repeat(64), shown: true, client_seed: 'c'.repeat(32), seat: 1,
          commitment: 'a'.repeat(64), committed: true, turned_up: [], upto: null }));
        const out = [];
        for (const list of [[null, 'b'.repeat(64)], [null, null]]) {
          try {
            await seen.revealClientSeed('abcdefabce', { token: 't', seat: 1 }, list);
            out.push('sent');
          }
          catch (e) { out.push(`${e.constructor.name}: ${e.message}`); }
        }
        return out;
    }""")
    assert refused[0].startswith("RevealRefused: the server lists bbbbbbbb"), refused
    assert refused[1].startswith("RevealRefused: the server listed other commitments"), refused
    assert not [e for e in rec.events if e[0] == "request" and (
        e[1].endswith("/commit") or e[1].endswith("/reveal") or e[1].endswith("/seed"))]


def test_a_start_that_lists_another_commitment_at_our_seat_gets_no_reveal(
    page: Any, archived_server: Served
) -> None:
    """A forged ``seeds_committed`` (and welcome during the reveal: the websocket's frames
    rewritten on their way to the page) lists another commitment at our seat: the browser
    does not reveal, says so to the player, and the game is dealt without our seed, our
    seat marked as withheld."""
    made = post(archived_server.url + "/api/tables", {"players": 2})
    table = made["table"]
    host = post(f"{archived_server.url}/api/tables/{table}/join", {"name": "Host"})
    forged = "f" * 64

    def relay(ws: Any) -> None:
        server = ws.connect_to_server()
        ws.on_message(server.send)

        def down(message: Any) -> None:
            frame = json.loads(message) if isinstance(message, str) else None
            # the start's list, as seeds_committed or as a welcome during the reveal
            if frame and frame.get("type") in ("seeds_committed", "welcome") and (
                    frame.get("commitments") and not frame.get("started")):
                frame["commitments"][1] = forged
                message = json.dumps(frame)
            ws.send(message)

        server.on_message(down)

    page.route_web_socket(lambda url: "/ws?" in url, relay)
    rec = Recorder(page)
    page.goto(f"{archived_server.url}/?table={table}")
    page.fill("#join-name", "Guest")
    page.get_by_role("button", name="Join this table").click()
    page.wait_for_selector("#pre #waiting-host")
    commitment = assert_commit_after_fingerprint(page, rec, f"/api/tables/{table}/join", table)
    post(f"{archived_server.url}/api/tables/{table}/start", {"token": host["token"]})
    page.wait_for_selector("#fair-mine.fair-bad")
    said = page.inner_text("#fair-mine")
    assert said.startswith("✘ Your client seed was NOT revealed: the server lists ffffffff"), said
    assert commitment in said
    assert "Your client seed was not revealed" in page.inner_text("#toast")
    page.screenshot(path=str(SHOTS / "fair-reveal-refused.png"))
    # dealt when the reveal closes, without our seed: our seat withheld it
    wait_logged(page, "committed and did not reveal")
    assert not [e for e in rec.events if e[0] == "request" and e[1].endswith("/reveal")]
    seen = page.evaluate(f"JSON.parse(localStorage.getItem('quaymoor.fair.{table}'))")
    assert seen["start_commitments"] == [None, forged] and not seen.get("reveal_sent")
    assert seen["start_seeds"] == [None, None]

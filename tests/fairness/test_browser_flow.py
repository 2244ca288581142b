"""The whole promise in the browser: "Play now" commits to a random client seed and reveals
it after the start (in that order: ``test_seed_order_browser``) and keeps what the browser
saw (the fingerprint, its client seed, commitment and seat, the commitments per seat at
the start, the seeds per seat at the deal, the first Warden, every plot turned up); at the
end, "Verify this game" checks the format-5 record (the table's fingerprint, every
commitment, the key from the seats), the draws and those observations, all passed; what
this browser saw, changed, fails and is named. Screenshot:
test-artifacts/screenshots/fair-verify-format5.png (the verify page on the game's record).

On this test server a human seat's decision times out at once (a safe move is played), so
a game against bots runs to its end by itself in a few seconds.
"""

from __future__ import annotations

import json
from typing import Any

from quaymoor.rules.fairness import seed_commitment
from quaymoor.rules.record import GameRecord
from quaymoor.rules.verify import verify_record
from tests.fairness.conftest import GAMES, game_record
from tests.server_process import Served
from tests.web.table_page import SHOTS

GAME_TIMEOUT_MS = 40_000


def rows(page: Any) -> dict[str, str]:
    found: list[tuple[str, str]] = page.eval_on_selector_all(
        "#checks tbody tr", "rows => rows.map((r) => [r.dataset.check, r.dataset.status])")
    return dict(found)


def test_play_now_commits_and_reveals_a_random_client_seed_and_keeps_it(
    page: Any, archived_server: Served
) -> None:
    sent: dict[str, list[dict[str, Any]]] = {"play-now": [], "commit": [], "reveal": [],
                                             "seed": []}
    page.on("request", lambda r: sent[r.url.rsplit("/", 1)[1]].append(
        json.loads(r.post_data or "{}")) if r.url.rsplit("/", 1)[1] in sent else None)
    page.goto(archived_server.url + "/")
    page.select_option("#playnow-players", "2")
    page.get_by_role("button", name="Play now against bots").click()
    page.wait_for_url("**/?table=*")
    table = page.url.split("table=")[1]
    (asked,) = sent["play-now"]
    assert "client_seed" not in asked and "commitment" not in asked
    (committed,) = sent["commit"]
    (body,) = sent["reveal"]
    assert sent["seed"] == []  # the old endpoint is gone from the client
    assert len(body["client_seed"]) == 32 and int(body["client_seed"], 16) >= 0
    assert committed["commitment"] == seed_commitment(table, 0, body["client_seed"])
    page.wait_for_selector("#verify-game", timeout=GAME_TIMEOUT_MS)  # the end screen
    seen = page.evaluate(f"JSON.parse(localStorage.getItem('quaymoor.fair.{table}'))")
    assert seen["client_seed"] == body["client_seed"] and seen["seat"] == 0
    assert seen["commitment"] == committed["commitment"]
    assert seen["start_commitments"] == [committed["commitment"], None]
    assert seen["start_seeds"] == [body["client_seed"], None]
    assert seen["fingerprint"] == page.inner_text("#end-fingerprint")
    page.click(".end-seeds summary")  # the client seeds, folded under their count
    assert page.locator('#end-seeds li[data-seat="0"]').inner_text().endswith(
        body["client_seed"])
    assert "none" in page.locator('#end-seeds li[data-seat="1"]').inner_text()
    record = GameRecord.from_json(page.evaluate(
        f"fetch('/games/{table}.json').then((r) => r.text())"))
    assert record.format == 5 and record.algorithm == "quaymoor-fair-3"
    assert record.client_seeds == [body["client_seed"]]
    assert record.seat_seeds == [body["client_seed"], None]
    assert [s.commitment for s in record.seats] == [committed["commitment"], None]


def test_a_whole_game_then_verify_what_this_browser_saw(
    page: Any, archived_server: Served
) -> None:
    sent: dict[str, list[dict[str, Any]]] = {"join": [], "commit": [], "reveal": []}
    page.on("request", lambda r: sent[r.url.rsplit("/", 1)[1]].append(
        json.loads(r.post_data or "{}")) if r.url.rsplit("/", 1)[1] in sent else None)
    page.goto(archived_server.url + "/")
    page.fill("#name", "Wren")
    page.select_option("#create-players", "2")
    page.get_by_role("button", name="Create a table").click()
    page.wait_for_url("**/?table=*")
    table = page.url.split("table=")[1]
    (joined,) = sent["join"]
    assert "client_seed" not in joined
    (committed,) = sent["commit"]
    assert sent["reveal"] == []  # not before the start
    # connected before the start: this browser sees the setup's plots too
    page.get_by_role("button", name="Start the game (bots fill empty seats)").click()
    page.wait_for_selector("#verify-game", timeout=GAME_TIMEOUT_MS)  # the end screen
    (body,) = sent["reveal"]
    assert len(body["client_seed"]) == 32
    assert committed["commitment"] == seed_commitment(table, 0, body["client_seed"])
    seen = page.evaluate(f"JSON.parse(localStorage.getItem('quaymoor.fair.{table}'))")
    assert seen["client_seed"] == body["client_seed"]
    assert seen["fingerprint"] == page.inner_text("#end-fingerprint")
    assert seen["turned_up"][0]["source"] == "setup" and len(seen["turned_up"]) > 3
    assert seen["first_warden"] in (0, 1)

    page.click("#verify-game")
    page.wait_for_selector("#outcome[data-done]")
    checks = rows(page)
    assert [c for c, s in checks.items() if s == "fail"] == [], checks
    for name in ("algorithm", "fingerprint", "seats", "seen-fingerprint", "seen-seats",
                 "seen-commitment",
                 "seen-client-seed", "seen-commitments", "seen-start-seeds", "client-seeds",
                 "seat-seeds", "turn-ups", "first-warden", "plots-1", "seen-plots", "actions",
                 "scores"):
        assert checks.get(name) == "pass", (name, checks)
    assert page.inner_text("#verdict").startswith("✔ All")
    assert "quaymoor-fair-3" in page.inner_text("#v-format")
    assert committed["commitment"] in page.inner_text("#v-commitments")
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "fair-verify-format5.png"), full_page=True)
    # seats are named by their players, not "seat 1"
    warden = page.locator('#checks tr[data-check="first-warden"]').inner_text()
    assert "Wren" in warden or "(bot)" in warden, warden
    assert "seat " not in warden.lower(), warden
    # the record says what the browser saw, and verifies in Python too
    record = GameRecord.from_json(page.evaluate(
        f"fetch('/games/{table}.json').then((r) => r.text())"))
    assert body["client_seed"] in record.client_seeds and record.format == 5
    assert verify_record(record).ok
    assert record.turned_up is not None
    observed = [t["goods"] for t in seen["turned_up"]]
    assert observed == [[g.name.lower() for g in t.goods] for t in record.turned_up]

    # what this browser saw, changed: the server's game no longer matches it
    seen["turned_up"][1]["goods"] = [*reversed(seen["turned_up"][1]["goods"]), "clay"]
    seen["fingerprint"] = "0" * 64
    seen["start_seeds"] = [None, None]  # as if the deal had not listed our seed
    seen["start_commitments"] = ["0" * 64, None]  # nor the start our commitment
    seen["start_seats"][0]["name"] = "Wrenna"  # nor the seats the start listed
    page.evaluate("([k, v]) => localStorage.setItem(k, v)",
                  [f"quaymoor.fair.{table}", json.dumps(seen)])
    page.reload()
    page.wait_for_selector("#outcome[data-done]")
    checks = rows(page)
    assert checks["seen-fingerprint"] == "fail"
    assert checks["plots-2"] == "fail" and checks["client-seeds"] == "pass"
    assert checks["seen-start-seeds"] == "fail" and checks["turn-ups"] == "pass"
    assert checks["seen-commitments"] == "fail" and checks["seats"] == "pass"
    assert checks["seen-seats"] == "fail"
    assert "did not see at the start: Wren: the record has" in page.locator(
        '#checks tr[data-check="seen-start-seeds"]').inner_text()
    assert page.locator("#verdict").get_attribute("data-first") == "seen-fingerprint"
    assert "0" * 64 in page.locator('#checks tr[data-check="seen-fingerprint"]').inner_text()


def test_the_game_page_shows_the_result_and_steps_through_the_replay(
    page: Any, archived_server: Served
) -> None:
    from playwright.sync_api import expect

    game_id = next(iter(GAMES))
    record = game_record(game_id)
    assert record.result is not None
    page.goto(f"{archived_server.url}/games/{game_id}")
    page.wait_for_function(
        "() => /^step /.test(document.querySelector('#step-label')?.textContent || '')")
    winner = record.result.winners[0]
    row = page.locator(f'#scores tr[data-seat="{winner}"]')
    assert str(record.result.scores[winner].total) in row.inner_text()
    assert page.inner_text("#seed") == record.seed
    assert page.inner_text("#step-label") == f"step 0 of {len(record.actions)}"  # from the start
    page.click("#last")
    expect(page.locator("#step-label")).to_have_text(
        f"step {len(record.actions)} of {len(record.actions)}")
    page.click("#first")
    expect(page.locator("#step-label")).to_have_text(f"step 0 of {len(record.actions)}")
    assert "setup" in page.inner_text("#step-action")
    page.click("#next")
    expect(page.locator("#step-label")).to_have_text(f"step 1 of {len(record.actions)}")
    assert page.locator("#log .log-head, #log .log-line").count() >= 1  # the log beside it
    assert page.locator("#others .other").count() == record.players  # the spectator's view
    page.click("#verify-link")
    page.wait_for_selector("#outcome[data-done]")
    assert page.inner_text("#verdict").startswith("✔ All")

    missing = page.goto(f"{archived_server.url}/games/0123456789")
    assert missing is not None and missing.status == 404
    expect(page.locator("#title")).to_have_text("No such game")

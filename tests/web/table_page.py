"""Helpers shared by the browser tests: open a page, start a game against bots, wait for
your decision, make one by clicking, record websocket frames, take screenshots."""

from __future__ import annotations

import json
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tests.patching import Views
from tests.web.conftest import ROOT

SHOTS = ROOT / "test-artifacts" / "screenshots"
SIZES = {"phone": (375, 812), "tablet": (768, 1024), "desktop": (1440, 900)}
DESKTOP = {"width": 1440, "height": 900}
GAME_TIMEOUT = 120.0

# "mine" when it is your decision and no move is on its way, "ended" at the end screen.
TURN_STATE = """() => {
  if (document.querySelector('#seed')) return 'ended';
  const mine = document.querySelector('#decision.mine');
  const pending = document.querySelector('.table-layout.pending');
  return mine && !pending ? 'mine' : '';
}"""


@dataclass
class Watch:
    """What a page did: errors, and every websocket frame it received and sent (parsed)."""

    problems: list[str] = field(default_factory=list)
    received: list[dict[str, Any]] = field(default_factory=list)
    sent: list[dict[str, Any]] = field(default_factory=list)

    def attach(self, page: Any) -> None:
        page.on("pageerror", lambda exc: self.problems.append(f"page error: {exc}"))
        page.on("console", lambda msg: self.problems.append(f"console: {msg.text}")
                if msg.type == "error" else None)
        page.on("websocket", self._on_socket)

    def _on_socket(self, ws: Any) -> None:
        views = Views()  # per socket: its deltas applied, each update with its whole view
        ws.on("framereceived", lambda payload: self._keep(self.received, payload, views))
        ws.on("framesent", lambda payload: self._keep(self.sent, payload))

    @staticmethod
    def _keep(into: list[dict[str, Any]], payload: Any, views: Views | None = None) -> None:
        text = payload if isinstance(payload, str) else bytes(payload).decode()
        msg = json.loads(text)
        into.append(views.feed(msg) if views is not None else msg)

    def of_type(self, kind: str, frames: list[dict[str, Any]] | None = None
                ) -> list[dict[str, Any]]:
        return [f for f in (self.received if frames is None else frames) if f.get("type") == kind]

    def acts(self) -> list[dict[str, Any]]:
        return [f["action"] for f in self.sent if f.get("type") == "act"]


def new_page(browser: Any, *, width: int = 1440, height: int = 900, touch: bool = False,
             axe: bool = False) -> tuple[Any, Any, Watch]:
    """A page in a context of its own. ``axe``: the page's Content-Security-Policy lets the
    test inject axe-core's script tag (``tests/web/axe.py``); the server's is unchanged."""
    context = browser.new_context(viewport={"width": width, "height": height},
                                  has_touch=touch, is_mobile=touch, bypass_csp=axe)
    page = context.new_page()
    page.set_default_timeout(15000)
    watch = Watch()
    watch.attach(page)
    return context, page, watch


def play_now(page: Any, url: str, *, players: int = 4, name: str = "Tester",
             shots: str | None = None) -> None:
    """From the lobby, start a game against bots and wait for the table."""
    page.goto(url + "/")
    button = page.get_by_role("button", name="Play now against bots")
    button.wait_for()
    page.fill("#name", name)
    page.select_option("#playnow-players", str(players))
    if shots:
        screenshots(page, shots)
    button.click()
    page.locator("#decision .decision-head").wait_for()


def wait_turn(page: Any, timeout: float = 30.0) -> str:
    """Wait for your next decision ('mine') or the end screen ('ended')."""
    return str(page.wait_for_function(TURN_STATE, timeout=timeout * 1000).json_value())


def my_seat(page: Any) -> int:
    return int(page.get_attribute("#mat", "data-seat"))


def click_step(page: Any, step: int) -> str:
    """Make (part of) one decision by pointer: confirm what is lifted, else lift or tap the
    first lit target, else the first choice in the decision bar that is not a take-back."""
    confirm = page.locator("#confirm")
    if confirm.count():
        # alternately tap the lifted role card again, or the Pick / Build button
        lifted = page.locator("button.lifted[data-lift=role]")
        if step % 2 and lifted.count():
            lifted.first.click()
            return "second tap"
        confirm.click()
        return "confirm"
    lit = page.locator("button.lit:visible")
    if lit.count():
        kind = lit.first.get_attribute("data-type")
        lit.first.click()
        return str(kind)
    bar = page.locator("#actions button:not(.takeback)")
    if bar.count():
        kind = bar.first.get_attribute("data-type")
        bar.first.click()
        return str(kind)
    return "nothing"


def play_by_clicking(page: Any, *, until: int | None = None, timeout: float = GAME_TIMEOUT,
                     on_step: Any = None, kinds: set[str] | None = None) -> int:
    """Click through decisions until the end screen (or ``until`` steps); returns the steps."""
    from playwright.sync_api import Error as PlaywrightError

    steps = 0
    deadline = time.monotonic() + timeout
    while until is None or steps < until:
        assert time.monotonic() < deadline, f"no end after {steps} steps"
        if wait_turn(page) == "ended":
            break
        try:
            kind = click_step(page, steps)
        except PlaywrightError:
            continue  # the table moved on under the pointer: look again
        steps += 1
        if kinds is not None:
            kinds.add(kind)
        if on_step is not None:
            on_step(steps)
    return steps


def screenshots(page: Any, name: str, sizes: dict[str, tuple[int, int]] | None = None) -> None:
    """Save the page at each size as test-artifacts/screenshots/<name>-<size>.png."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    before = page.viewport_size
    for size, (width, height) in (sizes or SIZES).items():
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(120)
        page.screenshot(path=str(SHOTS / f"{name}-{size}.png"))
    page.set_viewport_size(before)


def shot(page: Any, name: str) -> Path:
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / f"{name}.png"
    page.screenshot(path=str(path))
    return path


def rules(url: str) -> dict[str, Any]:
    with urllib.request.urlopen(url + "/api/rules", timeout=10) as res:
        data: dict[str, Any] = json.load(res)
    return data


def seals_leaks(frames: list[dict[str, Any]], seat: int) -> list[str]:
    """Every place a frame received before the end shows a seat's seals or score but yours."""
    leaks = []
    for i, f in enumerate(frames):
        if f.get("type") != "update" or f["view"].get("result") is not None:
            continue
        for mat in f["view"]["mats"]:
            hidden = mat.get("seals") is None and mat.get("score") is None
            if mat["seat"] != seat and not hidden:
                leaks.append(f"frame {i} (version {f['version']}): seat {mat['seat']} {mat}")
        for e in f.get("events", []):
            if "seals" in e or "score" in e:
                leaks.append(f"frame {i}: event {e}")
    return leaks


def sounds_of(page: Any) -> list[str]:
    """The names of the sounds the page made, oldest first."""
    played: list[str] = page.evaluate("() => [...window.quaymoorSound.played]")
    return played


def play_until_phase(page: Any, phase: str, timeout: float = 60.0) -> None:
    """Click through your decisions until you decide in ``phase``."""
    deadline = time.monotonic() + timeout
    step = 0
    while True:
        assert time.monotonic() < deadline, f"never decided in {phase}"
        assert wait_turn(page) == "mine", "the game ended first"
        if page.get_attribute("#decision", "data-phase") == phase:
            return
        click_step(page, step)
        step += 1


def click_step_builder(page: Any, step: int) -> str:
    """Like ``click_step``, but playing for a long high street and full barges: lift the
    Bargemaster when you hold goods (else the Mason) when it is lit, in the Mason's phase
    the dearest building you may build, and a clay plot when one is offered (it makes goods
    without a workshop, so that the game comes to a Bargemaster decision of yours: whether
    it does otherwise hangs on the seat the draws give the starting clay plots)."""
    if not page.locator("#confirm").count():
        phase = page.get_attribute("#decision", "data-phase")
        if phase == "pick_role":
            goods = page.evaluate("""() => [...document.querySelectorAll('#mat .stat.goods .good')]
              .reduce((n, el) =>
                n + Number((el.getAttribute('aria-label') || '0').split(' ')[0]), 0)""")
            for role in (("bargemaster", "mason") if goods else ("mason",)):
                card = page.locator(f'button.lit[data-key="role:{role}"]')
                if card.count():
                    card.click()
                    return "pick_role"
        elif phase == "mason":
            builds = page.locator("button.lit[data-type=build]")
            if builds.count():
                builds.last.click()
                return "build"
        elif phase == "surveyor":  # clay needs no workshop: goods for the barges
            clay = page.locator("button.lit.plot.good-clay")
            if clay.count():
                clay.first.click()
                return "take_plot"
    return click_step(page, step)

"""Fixtures for the fairness tests: finished games with every kind of plot draw, an archive
holding them, a real ``quaymoor serve`` on that archive, and headless Debian Chromium.

The browser fixtures skip cleanly without /usr/bin/chromium or the ``playwright`` package
(Playwright's own browser download is never used).
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from typing import Any

import pytest

from quaymoor.bots.prng import SplitMix64
from quaymoor.rules.game import Game
from quaymoor.rules.record import GameRecord, SeatInfo
from quaymoor.store.archive import Archive
from quaymoor.tools.selfplay import game_seed, play_random
from tests.server_process import Served, browser_skip_reason, chromium, start_server

#: Games with a Farmstead draw and at least one reshuffle (found by playing seeds).
GAMES = {
    "a0a0a0a0a2": (2, ("alice",)),
    "a0a0a0a0a3": (3, ()),
    "a0a0a0a0a4": (4, ("alice", "Bob \U0001f3b2")),
    "a0a0a0a0a5": (5, ("x",)),
}


@cache
def finished_game(game_id: str) -> Game:
    """A finished game, events on (so its record lists every plot turned up), whose seed
    is chosen so that it has both a Farmstead draw and a reshuffle."""
    players, client_seeds = GAMES[game_id]
    for i in range(200):
        game = Game(players, game_seed(606, i), client_seeds, events=True)
        play_random(game, SplitMix64(i))
        turned = game.turned_up or []
        if game.state.reshuffles and any(t.source == "farmstead" for t in turned):
            return game
    raise AssertionError("no seed gave a game with a Farmstead draw and a reshuffle")


def game_record(game_id: str) -> GameRecord:
    """The finished game's record as a table writes it (format 3): the client seeds were
    given by the first seats, in order, and the others gave none."""
    game = finished_game(game_id)
    given = list(game.client_seeds)
    # seat 0 and the seats that gave a seed are people's, the others bots' (no seed)
    seats = [SeatInfo(f"Player {i + 1}", bot=i >= max(1, len(given))) for i in range(game.players)]
    record = game.record(seats, game=game_id, end_reason="finished", ended_at=1_800_000_000.0)
    bound: list[str | None] = [*given, *[None] * (game.players - len(given))]
    assert record.seat_seeds == bound
    return record


@pytest.fixture(scope="module")
def archived_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """A server whose archive already holds the games of ``GAMES``."""
    path = tmp_path_factory.mktemp("archive") / "games.sqlite3"
    archive = Archive(path)
    for game_id in GAMES:
        archive.submit(game_id, game_record(game_id))  # no writer running: written at once
    assert archive.count_sync() == len(GAMES)
    # human seats nobody plays out time out at once: a game against bots runs by itself
    served = start_server(path, "--bot-delay", "0", "--decision-seconds", "0.05",
                          "--analysis-iterations", "8")
    try:
        yield served
    finally:
        served.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    reason = browser_skip_reason()
    if reason:
        pytest.skip(reason)
    with chromium() as browser:
        yield browser


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    """A page in a fresh context (its own local storage); page errors fail the test."""
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    pg = context.new_page()
    problems: list[str] = []
    pg.on("pageerror", lambda exc: problems.append(f"page error: {exc}"))
    pg.on("console", lambda msg: problems.append(f"console: {msg.text}")
          if msg.type == "error" and "404" not in msg.text else None)
    try:
        yield pg
    finally:
        context.close()
    assert not problems, problems

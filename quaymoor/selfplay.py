"""Complete games with random legal actions for every seat: for ``quaymoor selfplay``,
``quaymoor bench rules`` and the property tests.

The players' random choices come from a small SplitMix64 generator seeded from the game's
seed; they are the players' behaviour, not the game's randomness, which comes only from
the seed through ``fairness``. Nothing here uses Python's ``random``.
"""

from __future__ import annotations

import hashlib
from typing import Any

import attrs

from quaymoor.rules import engine
from quaymoor.rules.game import Game
from quaymoor.rules.scoring import winners

_MASK = (1 << 64) - 1


class SplitMix64:
    """A tiny, fast, seedable generator for random players (Steele, Lea, Flood 2014)."""

    __slots__ = ("_state",)

    def __init__(self, seed: int) -> None:
        self._state = seed & _MASK

    def next(self) -> int:
        self._state = (self._state + 0x9E3779B97F4A7C15) & _MASK
        z = self._state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        return self.next() % n  # the bias is under 2**-58 for the lists we draw from


def game_seed(base: int, index: int) -> bytes:
    """The 32-byte seed of game ``index`` in a self-play run started with ``--seed base``."""
    return hashlib.sha256(f"quaymoor-selfplay:{base}:{index}".encode()).digest()


@attrs.frozen
class SelfPlayResult:
    seed: str
    players: int
    rounds: int
    decisions: int
    end_reasons: list[str]
    scores: list[int]
    winners: list[int]

    def as_json(self) -> dict[str, Any]:
        return attrs.asdict(self)


#: No random game reaches this; it guards against a rules bug looping forever.
MAX_DECISIONS = 20_000


def play_random(game: Game, chooser: SplitMix64) -> int:
    """Play ``game`` to the end with uniformly random legal actions; returns the number of
    decisions. Take-backs are never chosen, so the game always moves forward."""
    s = game.state
    decisions = 0
    while not engine.is_over(s):
        seat = engine.deciding(s)[0]
        legal = engine.legal_actions(s, seat)
        game.apply(seat, legal[chooser.below(len(legal))])
        decisions += 1
        if decisions > MAX_DECISIONS:
            raise RuntimeError(f"no end after {MAX_DECISIONS} decisions")
    return decisions


def random_game(players: int, seed: bytes) -> tuple[Game, SelfPlayResult]:
    game = Game(players, seed, events=False)
    chooser = SplitMix64(int.from_bytes(hashlib.sha256(b"players:" + seed).digest()[:8], "big"))
    decisions = play_random(game, chooser)
    final = game.scores()
    result = SelfPlayResult(
        seed=seed.hex(),
        players=players,
        rounds=game.state.round,
        decisions=decisions,
        end_reasons=list(game.state.end_reasons),
        scores=[x.total for x in final],
        winners=list(winners(final)),
    )
    return game, result

"""Complete games with random legal actions for every seat: for ``quaymoor selfplay``,
``quaymoor bench rules`` and the property tests.

The players' random choices come from a small SplitMix64 generator (``bots.prng``) seeded
from the game's seed; they are the players' behaviour, not the game's randomness, which
comes only from the seed through ``fairness``. Nothing here uses Python's ``random``.
"""

from __future__ import annotations

import hashlib
from typing import Any

import attrs

from quaymoor.bots.prng import SplitMix64
from quaymoor.rules import engine
from quaymoor.rules.fairness import Deal, DealtSeat, bot_names
from quaymoor.rules.game import Game
from quaymoor.rules.scoring import winners


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


def random_game(players: int, seed: bytes,
                table_id: str | None = None) -> tuple[Game, SelfPlayResult]:
    """A game of random legal actions. With ``table_id`` it is dealt as a table's game
    (``quaymoor-fair-3``: every seat a bot's, named as bots are, no commitments; its
    record is format 5);
    without, with the ``quaymoor-fair-1`` key (the benchmarks, tests of old records)."""
    deal = None
    if table_id is not None:
        names = bot_names([None] * players)
        deal = Deal(table_id, tuple(DealtSeat(str(name), bot=True) for name in names))
    game = Game(players, seed, events=False, deal=deal)
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

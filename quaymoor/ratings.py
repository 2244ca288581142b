"""Ratings: OpenSkill's Plackett-Luce model, for games of 2 to 5 players, and how a rating
is shown.

A rating is OpenSkill's (mu, sigma): the model's estimate of a player's skill and its
uncertainty; a new player starts at (25, 25/3). Shown to people, it is scaled by
``DISPLAY_SCALE`` (so a new player shows 1500, in the range of the ratings players know)
with its 95% interval, mu +- 1.96 sigma, scaled alike. The bots' ladder
(``tools/ladder.py``) rates the bot levels this way.

Why a library: OpenSkill's models are published and tested against their paper (Weng and
Lin, 2011) and its reference implementation; Plackett-Luce rates a game of any number of
players from its order of finish, ties included, which Elo does not.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, NamedTuple

from openskill.models import PlackettLuce, PlackettLuceRating

#: Displayed rating = mu x this (a new player: 25 x 60 = 1500).
DISPLAY_SCALE: Final = 60.0
#: The interval shown: mu +- this many sigmas (95%).
INTERVAL_Z: Final = 1.959964

MODEL: Final = PlackettLuce()


class Rating(NamedTuple):
    """A rating as OpenSkill keeps it."""

    mu: float
    sigma: float

    @classmethod
    def new(cls) -> Rating:
        return cls(MODEL.mu, MODEL.sigma)

    @property
    def shown(self) -> int:
        """The rating people see."""
        return round(self.mu * DISPLAY_SCALE)

    @property
    def interval(self) -> tuple[int, int]:
        """Its 95% interval, as shown."""
        half = INTERVAL_Z * self.sigma
        return (round((self.mu - half) * DISPLAY_SCALE), round((self.mu + half) * DISPLAY_SCALE))


def ranks_of(scores: Sequence[tuple[int, int]]) -> list[int]:
    """The order of finish (1 = first) from each seat's (total, tiebreak): equal pairs
    share a rank, as the rules' full tie shares the win."""
    return [1 + sum(1 for other in scores if other > mine) for mine in scores]


def places(scores: Sequence[tuple[int, int]], left: Sequence[bool]) -> list[int]:
    """The places a rated game gives (1 = first): the seats that played their game to its
    end by their (total, tiebreak) as ``ranks_of`` does, then every seat that *left* (was
    handed to a bot: timed out or voted out) after all of them, sharing the last place
    whatever the bot scored for it."""
    stayed = [i for i in range(len(scores)) if not left[i]]
    ranked = ranks_of([scores[i] for i in stayed])
    out = [len(stayed) + 1] * len(scores)
    for i, place in zip(stayed, ranked, strict=True):
        out[i] = place
    return out


#: The bots' ratings in rated games: fixed, never updated by a game (a bot's strength does
#: not change with its results), from the ladder measured with the earlier expert
#: (``quaymoor tournament --ladder --games 10 --ladder-players 2,3,4 --seed 400``; README.md,
#: "How strong", says why the 40-game ladder has not replaced them), as
#: OpenSkill keeps them (mu = rating / 60, sigma = half the 95% interval / 1.96 / 60).
BOT_RATINGS: Final = {
    "random": Rating(49 / DISPLAY_SCALE, 718 / INTERVAL_Z / DISPLAY_SCALE),
    "easy": Rating(1231 / DISPLAY_SCALE, 675 / INTERVAL_Z / DISPLAY_SCALE),
    "normal": Rating(1935 / DISPLAY_SCALE, 674 / INTERVAL_Z / DISPLAY_SCALE),
    "hard": Rating(2013 / DISPLAY_SCALE, 672 / INTERVAL_Z / DISPLAY_SCALE),
    "expert": Rating(2333 / DISPLAY_SCALE, 688 / INTERVAL_Z / DISPLAY_SCALE),
}


def rate(ratings: Sequence[Rating], ranks: Sequence[int]) -> list[Rating]:
    """The ratings after one game whose seats held ``ratings`` and finished ``ranks``."""
    teams = [[MODEL.rating(mu=r.mu, sigma=r.sigma)] for r in ratings]
    rated: list[list[PlackettLuceRating]] = MODEL.rate(teams, ranks=list(ranks))
    return [Rating(team[0].mu, team[0].sigma) for team in rated]


__all__ = ["BOT_RATINGS", "DISPLAY_SCALE", "Rating", "places", "rate", "ranks_of"]

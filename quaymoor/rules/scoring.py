"""Scoring and the winner (rules.md 4): seals + building points + end bonuses of staffed
large buildings; ties go to the most coins plus goods; a full tie shares the win."""

from __future__ import annotations

import attrs

from quaymoor.rules.data import BUILDINGS, Building, Category
from quaymoor.rules.points import apprentices_owned, building_points, end_bonus
from quaymoor.rules.state import GameState, PlayerState

__all__ = ["Score", "apprentices_owned", "building_points", "end_bonus", "score", "scores",
           "winners"]


@attrs.frozen
class Score:
    """One seat's final score, by component."""

    seat: int
    seals: int
    building_points: int
    bonuses: dict[str, int]  #: large building key -> its end bonus (staffed ones only)
    total: int
    tiebreak: int  #: coins plus goods


_LARGE = tuple(b for b in Building if BUILDINGS[b].category is Category.LARGE)


def score(p: PlayerState, seat: int) -> Score:
    bonuses = {
        BUILDINGS[b].key: end_bonus(p, b) for b in _LARGE if p.staff[b] > 0
    }
    points = building_points(p)
    return Score(
        seat=seat,
        seals=p.seals,
        building_points=points,
        bonuses=bonuses,
        total=p.seals + points + sum(bonuses.values()),
        tiebreak=p.coins + sum(p.goods),
    )


def scores(s: GameState) -> list[Score]:
    return [score(p, i) for i, p in enumerate(s.players)]


def winners(results: list[Score]) -> tuple[int, ...]:
    """Seats that win: the best (total, coins plus goods); all of them on a full tie."""
    best = max((r.total, r.tiebreak) for r in results)
    return tuple(r.seat for r in results if (r.total, r.tiebreak) == best)



"""Scoring and the winner (rules.md 4): seals + building points + end bonuses of staffed
large buildings; ties go to the most coins plus goods; a full tie shares the win."""

from __future__ import annotations

import attrs

from quaymoor.rules.data import (
    BUILDINGS,
    DORMITORY_APPRENTICES_PER_POINT,
    GUILDHALL_LARGE_WORKSHOP_POINTS,
    GUILDHALL_SMALL_WORKSHOP_POINTS,
    MANOR_BONUS_BASE,
    MANOR_BONUS_FROM,
    TOLL_HOUSE_SEALS_PER_POINT,
    Building,
    Category,
)
from quaymoor.rules.state import GameState, PlayerState


@attrs.frozen
class Score:
    """One seat's final score, by component."""

    seat: int
    seals: int
    building_points: int
    bonuses: dict[str, int]  #: large building key -> its end bonus (staffed ones only)
    total: int
    tiebreak: int  #: coins plus goods


def building_points(p: PlayerState) -> int:
    return sum(BUILDINGS[b].points for b in p.street)


def apprentices_owned(p: PlayerState) -> int:
    return p.lodge + sum(p.worked) + sum(max(0, x) for x in p.staff)


def end_bonus(p: PlayerState, b: Building) -> int:
    """The end bonus of large building ``b`` for this mat (whether or not it is staffed)."""
    if b is Building.GUILDHALL:
        small = sum(1 for x in p.street if BUILDINGS[x].category is Category.SMALL_WORKSHOP)
        large = sum(1 for x in p.street if BUILDINGS[x].category is Category.LARGE_WORKSHOP)
        return small * GUILDHALL_SMALL_WORKSHOP_POINTS + large * GUILDHALL_LARGE_WORKSHOP_POINTS
    if b is Building.MANOR:
        filled = sum(p.plots)
        return MANOR_BONUS_BASE + max(0, filled - MANOR_BONUS_FROM)
    if b is Building.DORMITORY:
        return apprentices_owned(p) // DORMITORY_APPRENTICES_PER_POINT
    if b is Building.TOLL_HOUSE:
        return p.seals // TOLL_HOUSE_SEALS_PER_POINT
    if b is Building.MOOT_HALL:
        return sum(1 for x in p.street if BUILDINGS[x].is_civic)
    raise ValueError(f"{b.name} has no end bonus")


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



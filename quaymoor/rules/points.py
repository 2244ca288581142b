"""A mat's points, counted: building points, apprentices owned, the end bonuses of large
buildings (rules.md 4). ``scoring.py`` adds them up into a ``Score``; the bots' valuation
reads them in every play-out, so they live apart from that attrs class, compiled."""

from __future__ import annotations

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
from quaymoor.rules.state import PlayerState


def building_points(p: PlayerState) -> int:
    return sum(BUILDINGS[b].points for b in p.street)


def apprentices_owned(p: PlayerState) -> int:
    """In the lodge, on plots and on buildings."""
    owned = p.lodge + sum(p.worked)
    for x in p.staff:
        if x > 0:
            owned += x
    return owned


def end_bonus(p: PlayerState, b: int) -> int:
    """The end bonus of large building ``b`` (a ``Building``) for this mat, whether or not
    it is staffed."""
    if b == Building.GUILDHALL:
        small = sum(1 for x in p.street if BUILDINGS[x].category is Category.SMALL_WORKSHOP)
        large = sum(1 for x in p.street if BUILDINGS[x].category is Category.LARGE_WORKSHOP)
        return small * GUILDHALL_SMALL_WORKSHOP_POINTS + large * GUILDHALL_LARGE_WORKSHOP_POINTS
    if b == Building.MANOR:
        filled = sum(p.plots)
        return MANOR_BONUS_BASE + max(0, filled - MANOR_BONUS_FROM)
    if b == Building.DORMITORY:
        return apprentices_owned(p) // DORMITORY_APPRENTICES_PER_POINT
    if b == Building.TOLL_HOUSE:
        return p.seals // TOLL_HOUSE_SEALS_PER_POINT
    if b == Building.MOOT_HALL:
        return sum(1 for x in p.street if BUILDINGS[x].is_civic)
    raise ValueError(f"{Building(b).name} has no end bonus")

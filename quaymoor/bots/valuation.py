"""What a mat is worth to the "normal" bot, in points still to come.

``mat_value`` adds building points, the end bonus of large buildings, coins (worth less as
the end nears), goods, and what staffed plots, workshops and civic buildings will yield
over the rounds left (``rounds_left``, estimated from the seals and apprentices in the
supply and the fullest high street). Seals are left to the caller (``seal_worth``).
A ``Context`` holds what the valuation needs about the game as a whole, worked out once
per decision from public facts only.

The per-building tables below are the catalogue's numbers (``rules/data.py``) laid out by
building index, for speed; the weights are the bot's own, tuned by self-play.
"""

from __future__ import annotations

from typing import Final

from quaymoor.rules.common import holding_free, street_free
from quaymoor.rules.data import (
    BUILDINGS,
    GOODS,
    HIGH_STREET_SPACES,
    MANUFACTORY_PAY,
    WORKSHOPS_BY_GOOD,
    Building,
    Category,
)
from quaymoor.rules.miller import production
from quaymoor.rules.points import apprentices_owned, end_bonus
from quaymoor.rules.state import GameState, Phase, PlayerState

#: Worth of one good made, in points to come (shipped for seals or sold for coins).
GOOD_WORTH = (1.0, 1.15, 1.3, 1.5, 1.7)
#: Worth of one coin, in points to come, while three rounds or more are left (then less,
#: down to almost nothing at the end). Tuned by self-play: 0.8 beat 0.5, 0.7 and 0.9.
COIN_WORTH = 0.8
WORKSHOPS_OF_GOOD = tuple(WORKSHOPS_BY_GOOD[g] for g in GOODS)
_POINTS = tuple(b.points for b in BUILDINGS)
SLOTS = tuple(b.slots for b in BUILDINGS)
IS_LARGE = tuple(b.category is Category.LARGE for b in BUILDINGS)
IS_WORKSHOP = tuple(b.is_workshop for b in BUILDINGS)
_GOOD_OF = tuple(-1 if b.good is None else int(b.good) for b in BUILDINGS)
#: Per round, what a staffed civic building is worth (before scaling by production etc.).
CIVIC_EFFECT: dict[int, float] = {
    Building.STALL: 0.25,
    Building.FARMSTEAD: 0.35,
    Building.STONECUTTERS_HUT: 0.2,
    Building.CELLAR: 0.3,
    Building.ALMSHOUSE: 0.35,
    Building.COUNTING_HOUSE: 0.2,
    Building.MARKET_CROSS: 0.45,
    Building.GRANARY: 0.4,
    Building.MANUFACTORY: 0.0,  # by the kinds made, below
    Building.ACADEMY: 0.4,
    Building.LOCK_HOUSE: 0.0,  # by the goods made, below
    Building.BOATYARD: 0.0,  # likewise
}

# What mat_value does with each building (``_KIND[b]``): plain ints, for speed.
_WORKSHOP: Final = 0
_TOLL: Final = 1  #: the Toll House (its seals come in seal_worth)
_GUILD: Final = 2
_DORM: Final = 3
_LARGE: Final = 4  #: another large building: its end bonus
_MANUFACTORY: Final = 5
_LOCK: Final = 6
_YARD: Final = 7
_SALES: Final = 8  #: Stall, Market Cross: by the goods made
_ROOM: Final = 9  #: Farmstead, Almshouse: while the holding has room
_CIVIC_KIND: Final = 10  #: any other civic building: its CIVIC_EFFECT


def _kind_of(b: Building) -> int:
    if IS_WORKSHOP[b]:
        return _WORKSHOP
    special = {Building.TOLL_HOUSE: _TOLL, Building.GUILDHALL: _GUILD,
               Building.DORMITORY: _DORM, Building.MANUFACTORY: _MANUFACTORY,
               Building.LOCK_HOUSE: _LOCK, Building.BOATYARD: _YARD,
               Building.STALL: _SALES, Building.MARKET_CROSS: _SALES,
               Building.FARMSTEAD: _ROOM, Building.ALMSHOUSE: _ROOM}
    if b in special:
        return special[b]
    return _LARGE if IS_LARGE[b] else _CIVIC_KIND


_KIND: Final = tuple(_kind_of(Building(i)) for i in range(len(BUILDINGS)))
_CIVIC: Final = tuple(CIVIC_EFFECT.get(i, 0.0) for i in range(len(BUILDINGS)))


class Context:
    """What the valuation needs about the game as a whole, worked out once per decision
    from public facts only (never the other seats' seals or the stack's order)."""

    __slots__ = ("miller_rate", "rounds", "wc")

    def __init__(self, s: GameState) -> None:
        self.rounds = rounds_left(s)
        # how often a seat gets to make goods per round (a Miller is picked most rounds)
        self.miller_rate = 0.9 if s.n == 2 else 0.75
        r = self.rounds
        self.wc = COIN_WORTH if r >= 3 else max(0.04, COIN_WORTH * (r - 0.6) / 2.4)


def rounds_left(s: GameState) -> float:
    """Rounds still to come (the rest of this one counts as a fraction), estimated from
    what ends the game: seals, apprentices and the fullest high street."""
    n = s.n
    rest = (s.picks_per_round - s.pick) / s.picks_per_round
    if s.end_reasons or s.phase is Phase.GAME_OVER:
        return rest
    # Only what apprentices moving in the Reeve step leave unchanged, so that the estimate
    # (and the target arrangement built on it) holds still while a seat arranges.
    made = 0
    empty = 0
    free = HIGH_STREET_SPACES
    for p in s.players:
        made += sum(potential(p))
        slots = sum(SLOTS[b] for b in p.street) + sum(p.plots)
        empty += max(0, slots - apprentices_owned(p))
        free = min(free, street_free(p))
    seal_rate = 0.8 * made + 0.6 * n + 1.0
    app_rate = max(n, empty) + 1.0
    t = min(s.seals / seal_rate, s.supply_apprentices / app_rate, free / 1.1)
    return rest + max(0.0, t)


def _slots_by_good(p: PlayerState) -> list[int]:
    """Workshop slots owned, by Good (staffed or not)."""
    slots = [0, 0, 0, 0, 0]
    for b in p.street:
        g = _GOOD_OF[b]
        if g >= 0:
            slots[g] += SLOTS[b]
    return slots


def potential(p: PlayerState) -> list[int]:
    """Goods the mat could make were every plot and workshop slot staffed."""
    slots = _slots_by_good(p)
    plots = p.plots
    return [plots[0], min(plots[1], slots[1]), min(plots[2], slots[2]),
            min(plots[3], slots[3]), min(plots[4], slots[4])]


def mat_value(p: PlayerState, ctx: Context) -> float:
    """What the mat is worth in points to come, seals left out (the caller adds the seals
    it knows: a seat's own, or the change in another's)."""
    r = ctx.rounds
    tp = r - 0.4 if r > 0.4 else 0.0
    wc = ctx.wc
    staff = p.staff
    plots = p.plots
    v = p.coins * wc
    # goods
    goods_factor = kept_goods_factor(ctx)
    for g, x in enumerate(p.goods):
        if x:
            v += goods_factor * GOOD_WORTH[g] * (x if x < 4 else 4) + 0.05 * (x - 4 if x > 4 else 0)
    # production, staffed and not yet staffed
    made = production(p)
    slots = _slots_by_good(p)
    per_round = ctx.miller_rate * tp
    short = (tp if tp < 6.0 else 6.0) * 0.12
    total_made = made[0]
    kinds = 1 if plots[0] else 0
    v += made[0] * GOOD_WORTH[0] * per_round * 0.6 + (plots[0] - made[0]) * per_round * 0.3
    for g in (1, 2, 3, 4):
        could = plots[g] if plots[g] < slots[g] else slots[g]
        if could:
            kinds += 1
        m = made[g]
        total_made += m
        worth = GOOD_WORTH[g] * per_round
        v += m * worth * 0.6 + (could - m) * worth * 0.3
        # plots waiting for a workshop, workshop slots waiting for plots
        spare = plots[g] - could
        slack = slots[g] - could
        v += short * ((spare if spare < 2 else 2) + 0.6 * (slack if slack < 2 else 2))
    # stone pits: discounts on buildings still to buy
    pits = p.worked[5]
    pit_h = tp if tp < 4.0 else 4.0
    idle = plots[5] - pits
    v += (pits if pits < 4 else 4) * wc * pit_h * 0.5 + (idle if idle < 2 else 2) * wc * pit_h * 0.2
    # buildings: points, civic effects, large buildings' end bonuses
    horizon = tp if tp < 8.0 else 8.0
    large_staff_odds = 0.7 if r > 1.5 else 0.25
    for b in p.street:
        v += _POINTS[b]
        kind = _KIND[b]
        if kind == _WORKSHOP:
            continue
        on = staff[b] > 0
        if kind == _TOLL:
            bonus = 2.0 + 0.3 * (tp if tp < 5.0 else 5.0)  # seals come in seal_worth
            v += bonus if on else bonus * large_staff_odds
            continue
        if kind in (_LARGE, _GUILD, _DORM):
            bonus = float(end_bonus(p, b))
            if kind == _GUILD:
                bonus += 0.3 * pit_h
            elif kind == _DORM:
                bonus += 0.25 * pit_h
            v += bonus if on else bonus * large_staff_odds
            continue
        if kind == _MANUFACTORY:
            per = MANUFACTORY_PAY[kinds] * wc * ctx.miller_rate * 1.4
        elif kind == _LOCK:
            per = min(1.3, 0.3 + 0.25 * total_made)
        elif kind == _YARD:
            per = min(1.3, 0.2 + 0.25 * total_made)
        elif kind == _SALES:
            per = _CIVIC[b] * min(1.0, 0.3 + 0.2 * total_made)
        elif kind == _ROOM:
            per = _CIVIC[b] if holding_free(p) > 1 else 0.05
        else:
            per = _CIVIC[b]
        v += per * horizon * (1.0 if on else 0.45)
    if p.lodge:
        v += 0.1 * p.lodge
    return v


def kept_goods_factor(ctx: Context) -> float:
    """How much of a good's worth a good kept on the mat holds (less near the end)."""
    return 0.55 if ctx.rounds > 1.2 else 0.3


def seal_worth(p: PlayerState) -> float:
    """What one seal is worth to this mat (a Toll House adds a quarter)."""
    return 1.25 if p.staff[Building.TOLL_HOUSE] > 0 else 1.0

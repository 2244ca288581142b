"""The "normal" bot's choices within a role's phase, each a score per legal action or one
action chosen by rule.

- Surveyor, Mason, Chandler: the plot, building or sale that raises ``mat_value`` most.
- Bargemaster: the load that ships the most seals, then keeps the dearest goods.
- Keeping goods after shipping: store and keep the most valuable goods.
- Miller's extra good: the dearest good a barge can take.
"""

from __future__ import annotations

from collections.abc import Sequence

from quaymoor.bots.valuation import GOOD_WORTH, Context, kept_goods_factor, mat_value
from quaymoor.rules.actions import (
    DONE,
    PASS,
    Action,
    Build,
    DrawPlot,
    KeepGood,
    Load,
    Sell,
    ShipOnBoatyard,
    StoreGoods,
    TakeExtraGood,
    TakePlot,
    TakeStonePit,
)
from quaymoor.rules.chandler import sale_price
from quaymoor.rules.common import holding_free, price
from quaymoor.rules.data import GOODS, MARKET_PRICE, Building
from quaymoor.rules.state import GameState, PlayerState


def _after_plot(p: PlayerState, kind: int, helped: bool) -> PlayerState:
    q = p.clone()
    q.plots[kind] += 1
    if helped:
        q.worked[kind] += 1
    return q


def surveyor_scores(
    s: GameState, seat: int, legal: Sequence[Action], ctx: Context
) -> list[float]:
    p = s.players[seat]
    base = mat_value(p, ctx)
    helped = p.staff[Building.ALMSHOUSE] > 0 and (s.supply_apprentices + s.apprentice_barge) > 0
    out: list[float] = []
    for a in legal:
        if isinstance(a, TakePlot):
            out.append(mat_value(_after_plot(p, a.good, helped), ctx) - base + 0.01 * a.good)
        elif isinstance(a, TakeStonePit):
            out.append(mat_value(_after_plot(p, 5, helped), ctx) - base)
        elif isinstance(a, DrawPlot):
            if holding_free(p) < 2:
                out.append(-1.0)
                continue
            # the plots not seen anywhere (which of them are in the stack is hidden)
            counts = [0] * 5
            for g in s.stack:
                counts[g] += 1
            for g in s.discard:
                counts[g] += 1
            total = sum(counts) or 1
            exp = sum(counts[g] * (mat_value(_after_plot(p, g, False), ctx) - base)
                      for g in GOODS) / total
            out.append(exp + 0.5)  # a free plot: the turn's choice still follows
        else:
            out.append(0.0)
    return out


def build_scores(s: GameState, seat: int, legal: Sequence[Action], ctx: Context) -> list[float]:
    """Each Build's gain in ``mat_value`` (0 for a pass): one copy of the mat, each building
    added to it, valued and taken off again (the mat as it is valued once)."""
    p = s.players[seat]
    base = mat_value(p, ctx)
    q = p.clone()
    academy = p.staff[Building.ACADEMY] > 0 and (s.supply_apprentices + s.apprentice_barge) > 0
    out: list[float] = []
    for a in legal:
        if not isinstance(a, Build):
            out.append(0.0)
            continue
        b = a.building
        cost = price(s, seat, b)
        q.coins -= cost
        q.street.append(b)
        q.staff[b] = 1 if academy else 0
        # a large building's bonus counts only when staffed: will an apprentice come in time?
        out.append(mat_value(q, ctx) - base)
        q.staff[b] = p.staff[b]
        q.street.pop()
        q.coins += cost
    return out


def sell_scores(s: GameState, seat: int, legal: Sequence[Action], ctx: Context) -> list[float]:
    p = s.players[seat]
    goods_factor = kept_goods_factor(ctx)
    out: list[float] = []
    for a in legal:
        if isinstance(a, Sell):
            coins = sale_price(s, seat, a.good)
            keep = goods_factor * GOOD_WORTH[a.good] if p.goods[a.good] <= 4 else 0.05
            # goods no barge can take soon are worth little kept; coins buy buildings
            out.append(coins * max(ctx.wc, 0.15) - keep * 0.6 + 0.01 * MARKET_PRICE[a.good])
        else:
            out.append(0.0)
    return out


def load_scores(s: GameState, seat: int, legal: Sequence[Action]) -> list[float]:
    p = s.players[seat]
    out: list[float] = []
    for a in legal:
        if isinstance(a, Load):
            count = min(p.goods[a.good], s.barge_capacity[a.barge] - s.barge_load[a.barge])
            left = p.goods[a.good] - count
            # seals now, then goods of this kind that stay behind (lost, mostly), then
            # ship cheap goods first so the dear ones can be kept or sold
            out.append(count * 1.0 - 0.3 * left - 0.05 * MARKET_PRICE[a.good])
        elif isinstance(a, ShipOnBoatyard):
            count = p.goods[a.good]
            fits = a.good in s.barge_good or -1 in s.barge_good
            out.append(count * 1.0 - (0.8 if fits else 0.0) * min(count, 3) - 0.5)
        else:
            out.append(0.0)
    return out


def keep_action(s: GameState, seat: int, legal: Sequence[Action]) -> Action:
    p = s.players[seat]
    stores = [a for a in legal if isinstance(a, StoreGoods)]
    if stores:
        return max(stores, key=lambda a: (p.goods[a.good] * GOOD_WORTH[a.good], a.good))
    keeps = [a for a in legal if isinstance(a, KeepGood)]
    if keeps:
        return max(keeps, key=lambda a: (MARKET_PRICE[a.good], p.goods[a.good]))
    return DONE


def extra_good(s: GameState, seat: int, legal: Sequence[Action]) -> Action:
    extras = [a for a in legal if isinstance(a, TakeExtraGood)]
    if not extras:
        return PASS
    p = s.players[seat]

    def worth(a: TakeExtraGood) -> tuple[float, int]:
        g = a.good
        ship = g in s.barge_good or -1 in s.barge_good
        return (GOOD_WORTH[g] + (0.5 if ship else 0.0) - 0.1 * p.goods[g], g)

    return max(extras, key=worth)

"""The "normal" bot's Reeve step: where its apprentices should stand, and how to get there.

``reeve_target`` builds a target arrangement for all the seat's apprentices, greedily: a
pair of plot and workshop slot (one more good made) when it is worth more than the two
best uses of one apprentice each (a clay plot, a civic or large building, a stone pit),
else the best of those. ``reeve_action`` places towards it. When the lodge is empty and
an apprentice stands on a slot the target does not want while a wanted slot is empty, it
takes that one back (only then, and the target does not change within the step, so
take-backs cannot loop).
"""

from __future__ import annotations

from collections.abc import Sequence

from quaymoor.bots.valuation import (
    CIVIC_EFFECT,
    GOOD_WORTH,
    IS_LARGE,
    IS_WORKSHOP,
    SLOTS,
    WORKSHOPS_OF_GOOD,
    Context,
    potential,
)
from quaymoor.rules.actions import (
    DONE,
    TAKE_BACK_FROM_BUILDING,
    TAKE_BACK_FROM_PLOT,
    Action,
    PlaceOnBuilding,
    PlaceOnPlot,
)
from quaymoor.rules.data import MANUFACTORY_PAY, PLOT_KINDS, Building, PlotKind
from quaymoor.rules.points import apprentices_owned, end_bonus
from quaymoor.rules.state import GameState, PlayerState


def reeve_target(p: PlayerState, ctx: Context) -> tuple[list[int], list[int]]:
    """Where all of the mat's apprentices should stand: worked plots by kind and staff by
    building (-1 where not owned). Greedy by worth per apprentice, ties in a fixed order.

    It reads only what moving apprentices leaves unchanged (plots, buildings, the number of
    apprentices, ``ctx``), so the target holds still through a seat's whole Reeve step."""
    left = apprentices_owned(p)
    worked = [0] * len(PLOT_KINDS)
    staff = [0 if x >= 0 else -1 for x in p.staff]
    tp = max(0.0, ctx.rounds - 0.4)
    horizon = min(tp, 8.0)
    could = potential(p)
    # worth per apprentice of one more unit of production: clay needs a plot only, the
    # other goods a plot and a workshop slot
    unit = ctx.miller_rate * max(tp, 0.3)
    per_good = [GOOD_WORTH[0] * unit] + [GOOD_WORTH[g] * unit / 2 for g in (1, 2, 3, 4)]
    made_total = sum(could)
    kinds = sum(1 for x in could if x)
    civic: list[tuple[float, int]] = []
    for b in p.street:
        if IS_WORKSHOP[b]:
            continue
        if IS_LARGE[b]:
            bonus = 3.0 if b == Building.TOLL_HOUSE else float(end_bonus(p, b))
            worth = 4.0 + bonus
        elif b == Building.MANUFACTORY:
            worth = MANUFACTORY_PAY[kinds] * ctx.wc * ctx.miller_rate * 1.4 * horizon
        elif b in (Building.LOCK_HOUSE, Building.BOATYARD):
            worth = min(1.3, 0.25 + 0.25 * made_total) * horizon
        else:
            worth = CIVIC_EFFECT.get(b, 0.2) * horizon
        civic.append((worth, b))
    civic.sort(key=lambda x: -x[0])
    pit_worth = ctx.wc * min(tp, 4.0) * 0.5
    produce = [0] * 5
    ci = 0
    while left > 0:
        # the two best uses of one apprentice each (clay, a civic building, a stone pit)
        singles: list[tuple[float, str, int]] = []
        if produce[0] < could[0]:
            singles.append((per_good[0], "good", 0))
            if produce[0] + 1 < could[0]:
                singles.append((per_good[0], "good", 0))
        singles.extend((w, "civic", b) for w, b in civic[ci:ci + 2])
        pits_left = min(p.plots[PlotKind.STONE_PIT], 4) - worked[PlotKind.STONE_PIT]
        singles.extend([(pit_worth, "pit", PlotKind.STONE_PIT)] * min(pits_left, 2))
        singles.sort(key=lambda x: -x[0])
        # the best pair of a plot and a workshop slot, for two apprentices
        pair = -1
        if left >= 2:
            for g in (1, 2, 3, 4):
                if produce[g] < could[g] and (pair < 0 or per_good[g] > per_good[pair]):
                    pair = g
        two_singles = sum(x[0] for x in singles[:2])
        if pair >= 0 and 2 * per_good[pair] > two_singles:
            produce[pair] += 1
            worked[pair] += 1
            # a slot of that good's workshop, the bigger workshops first
            for b in sorted(WORKSHOPS_OF_GOOD[pair], key=lambda b: (-SLOTS[b], b)):
                if 0 <= staff[b] < SLOTS[b]:
                    staff[b] += 1
                    break
            left -= 2
            continue
        if not singles:
            break
        _, kind, pick = singles[0]
        left -= 1
        if kind == "good":
            produce[0] += 1
            worked[0] += 1
        elif kind == "civic":
            staff[pick] += 1
            ci += 1
        else:
            worked[pick] += 1
    # Anything left fills the remaining slots (no slot may stay empty while an apprentice
    # waits in the lodge): spare plots, then the buildings in the order built.
    for k in PLOT_KINDS:
        while left > 0 and worked[k] < p.plots[k]:
            worked[k] += 1
            left -= 1
    for b in p.street:
        while left > 0 and 0 <= staff[b] < SLOTS[b]:
            staff[b] += 1
            left -= 1
    return worked, staff


def reeve_action(
    s: GameState, seat: int, legal: Sequence[Action], takebacks: bool, ctx: Context
) -> Action:
    p = s.players[seat]
    worked, staff = reeve_target(p, ctx)
    if p.lodge > 0:
        # place towards the target: buildings under target first (large, civic), then plots
        for a in legal:
            if isinstance(a, PlaceOnBuilding) and p.staff[a.building] < staff[a.building]:
                return a
            if isinstance(a, PlaceOnPlot) and p.worked[a.kind] < worked[a.kind]:
                return a
        return legal[0]
    if DONE in legal and takebacks:
        wanted = any(p.worked[k] < worked[k] for k in PLOT_KINDS) or any(
            0 <= p.staff[b] < staff[b] for b in p.street
        )
        if wanted:
            for k in PLOT_KINDS:
                if p.worked[k] > worked[k]:
                    return TAKE_BACK_FROM_PLOT[k]
            for b in p.street:
                if p.staff[b] > staff[b]:
                    return TAKE_BACK_FROM_BUILDING[b]
    return legal[0] if DONE not in legal else DONE

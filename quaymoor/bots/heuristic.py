"""The "normal" bot: a heuristic that knows the game and decides in milliseconds.

It reads the seat's view only. The view is turned into an engine state with a canonical
fill of the hidden parts (``determinize.state_from_view(view, None)``), and the policy
below reads of that state nothing but public facts and the seat's own seals, so the
decision is a function of the view (``tests/bots`` checks it).

How it plays. Every choice is a score over the legal actions, the best one taken (ties to
the earlier action in the legal list, so it is deterministic).

- ``mat_value`` prices a mat in points still to come: building points, seals, the end
  bonus of large buildings, coins (worth less as the end nears), goods, and what staffed
  plots, workshops and civic buildings will yield over the rounds left (``rounds_left``,
  estimated from the seals and apprentices in the supply and the fullest high street).
- A role is picked by playing it out: the role is applied to a copy of the state and the
  phase is played to its end with this policy for every seat; the role's score is the
  seat's gain in ``mat_value`` (seals included) less the others' (the best and the mean
  of them with more than two players). So the Miller scores high when the seat makes goods
  others do not, the Bargemaster when its goods fit the barges, the Mason when it can
  afford a good building, the Surveyor and Reeve when growth is worth most.
- In a phase: the plot, building, sale or load that raises ``mat_value`` most; shipping
  prefers the most seals, then keeping the dearest goods; after shipping the seat stores
  and keeps its most valuable goods.
- Reeve: a target arrangement for all the seat's apprentices, built greedily: a pair of
  plot and workshop slot (one more good made) when it is worth more than the two best uses
  of one apprentice each (a clay plot, a civic or large building, a stone pit), else the
  best of those; then placements towards it. When the lodge is empty and an apprentice
  stands on a slot the target does not want while a wanted slot is empty, it takes that one
  back (only then, and the target does not change within the step, so take-backs cannot
  loop).
"""

from __future__ import annotations

from collections.abc import Sequence

from quaymoor.bots.determinize import state_from_view
from quaymoor.rules import engine
from quaymoor.rules.actions import (
    DONE,
    DRAW_PLOT,
    PASS,
    TAKE_BACK_FROM_BUILDING,
    TAKE_BACK_FROM_PLOT,
    Action,
    Build,
    DrawPlot,
    KeepGood,
    Load,
    PickRole,
    PlaceOnBuilding,
    PlaceOnPlot,
    Sell,
    ShipOnBoatyard,
    StoreGoods,
    TakeExtraGood,
    TakePlot,
    TakeStonePit,
)
from quaymoor.rules.chandler import sale_price
from quaymoor.rules.common import (
    holding_free,
    price,
    street_free,
)
from quaymoor.rules.data import (
    BUILDINGS,
    GOODS,
    MANUFACTORY_PAY,
    MARKET_PRICE,
    PLOT_KINDS,
    WORKSHOPS_BY_GOOD,
    Building,
    Category,
    PlotKind,
    Role,
)
from quaymoor.rules.miller import production
from quaymoor.rules.scoring import apprentices_owned, end_bonus
from quaymoor.rules.state import GameState, Phase, PlayerState
from quaymoor.rules.views import SeatView

#: Worth of one good made, in points to come (shipped for seals or sold for coins).
GOOD_WORTH = (1.0, 1.15, 1.3, 1.5, 1.7)
#: Worth of one coin, in points to come, while three rounds or more are left (then less,
#: down to almost nothing at the end). Tuned by self-play: 0.8 beat 0.5, 0.7 and 0.9.
COIN_WORTH = 0.8
_WORKSHOPS = tuple(WORKSHOPS_BY_GOOD[g] for g in GOODS)
_LARGE = tuple(b for b in Building if BUILDINGS[b].category is Category.LARGE)
_POINTS = tuple(b.points for b in BUILDINGS)
_SLOTS = tuple(b.slots for b in BUILDINGS)
_IS_LARGE = tuple(b.category is Category.LARGE for b in BUILDINGS)
_IS_WORKSHOP = tuple(b.is_workshop for b in BUILDINGS)
_GOOD_OF = tuple(-1 if b.good is None else int(b.good) for b in BUILDINGS)
#: Per round, what a staffed civic building is worth (before scaling by production etc.).
_EFFECT = {
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
    free = 12
    for p in s.players:
        made += sum(potential(p))
        slots = sum(_SLOTS[b] for b in p.street) + sum(p.plots)
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
            slots[g] += _SLOTS[b]
    return slots


def potential(p: PlayerState) -> list[int]:
    """Goods the mat could make were every plot and workshop slot staffed."""
    slots = _slots_by_good(p)
    plots = p.plots
    return [plots[0], min(plots[1], slots[1]), min(plots[2], slots[2]),
            min(plots[3], slots[3]), min(plots[4], slots[4])]


def workshop_slots(p: PlayerState, g: int) -> int:
    return _slots_by_good(p)[g]


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
    goods_factor = 0.55 if r > 1.2 else 0.3
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
        if _IS_WORKSHOP[b]:
            continue
        on = staff[b] > 0
        if _IS_LARGE[b]:
            if b == Building.TOLL_HOUSE:
                bonus = 2.0 + 0.3 * (tp if tp < 5.0 else 5.0)  # seals come in seal_worth
            else:
                bonus = float(end_bonus(p, Building(b)))
                if b == Building.GUILDHALL:
                    bonus += 0.3 * pit_h
                elif b == Building.DORMITORY:
                    bonus += 0.25 * pit_h
            v += bonus if on else bonus * large_staff_odds
            continue
        if b == Building.MANUFACTORY:
            per = MANUFACTORY_PAY[kinds] * wc * ctx.miller_rate * 1.4
        elif b == Building.LOCK_HOUSE:
            per = min(1.3, 0.3 + 0.25 * total_made)
        elif b == Building.BOATYARD:
            per = min(1.3, 0.2 + 0.25 * total_made)
        elif b in (Building.STALL, Building.MARKET_CROSS):
            per = _EFFECT[Building(b)] * min(1.0, 0.3 + 0.2 * total_made)
        elif b in (Building.FARMSTEAD, Building.ALMSHOUSE):
            per = _EFFECT[Building(b)] if holding_free(p) > 1 else 0.05
        else:
            per = _EFFECT[Building(b)]
        v += per * horizon * (1.0 if on else 0.45)
    if p.lodge:
        v += 0.1 * p.lodge
    return v


def seal_worth(p: PlayerState) -> float:
    """What one seal is worth to this mat (a Toll House adds a quarter)."""
    return 1.25 if p.staff[Building.TOLL_HOUSE] > 0 else 1.0


# --------------------------------------------------------------------------- Reeve


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
        if _IS_WORKSHOP[b]:
            continue
        if _IS_LARGE[b]:
            bonus = 3.0 if b == Building.TOLL_HOUSE else float(end_bonus(p, Building(b)))
            worth = 4.0 + bonus
        elif b == Building.MANUFACTORY:
            worth = MANUFACTORY_PAY[kinds] * ctx.wc * ctx.miller_rate * 1.4 * horizon
        elif b in (Building.LOCK_HOUSE, Building.BOATYARD):
            worth = min(1.3, 0.25 + 0.25 * made_total) * horizon
        else:
            worth = _EFFECT.get(Building(b), 0.2) * horizon
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
            for b in sorted(_WORKSHOPS[pair], key=lambda b: (-_SLOTS[b], b)):
                if 0 <= staff[b] < _SLOTS[b]:
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
        while left > 0 and 0 <= staff[b] < _SLOTS[b]:
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


# --------------------------------------------------------------------------- phases


def _after_plot(p: PlayerState, kind: int, helped: bool) -> PlayerState:
    q = p.clone()
    q.plots[kind] += 1
    if helped:
        q.worked[kind] += 1
    return q


def _surveyor_scores(
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


def _build_value(s: GameState, seat: int, b: int, ctx: Context) -> float:
    p = s.players[seat]
    q = p.clone()
    q.coins -= price(s, seat, b)
    q.street.append(b)
    academy = p.staff[Building.ACADEMY] > 0 and (s.supply_apprentices + s.apprentice_barge) > 0
    q.staff[b] = 1 if academy else 0
    # a large building's bonus counts only when staffed: will an apprentice come in time?
    return mat_value(q, ctx) - mat_value(p, ctx)


def _sell_scores(s: GameState, seat: int, legal: Sequence[Action], ctx: Context) -> list[float]:
    p = s.players[seat]
    goods_factor = 0.55 if ctx.rounds > 1.2 else 0.3
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


def _load_scores(s: GameState, seat: int, legal: Sequence[Action]) -> list[float]:
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


def _keep_action(s: GameState, seat: int, legal: Sequence[Action]) -> Action:
    p = s.players[seat]
    stores = [a for a in legal if isinstance(a, StoreGoods)]
    if stores:
        return max(stores, key=lambda a: (p.goods[a.good] * GOOD_WORTH[a.good], a.good))
    keeps = [a for a in legal if isinstance(a, KeepGood)]
    if keeps:
        return max(keeps, key=lambda a: (MARKET_PRICE[a.good], p.goods[a.good]))
    return DONE


def _extra_good(s: GameState, seat: int, legal: Sequence[Action]) -> Action:
    extras = [a for a in legal if isinstance(a, TakeExtraGood)]
    if not extras:
        return PASS
    p = s.players[seat]

    def worth(a: TakeExtraGood) -> tuple[float, int]:
        g = a.good
        ship = g in s.barge_good or -1 in s.barge_good
        return (GOOD_WORTH[g] + (0.5 if ship else 0.0) - 0.1 * p.goods[g], g)

    return max(extras, key=worth)


# --------------------------------------------------------------------------- the policy


class HeuristicPolicy:
    """The heuristic on an engine state, for ``seat``. It reads only public facts and the
    seat's own seals. ``takebacks`` lets it take apprentices back in the Reeve step."""

    def __init__(self, *, takebacks: bool = True, opponent_weight: float = 1.0) -> None:
        self.takebacks = takebacks
        self.opponent_weight = opponent_weight

    def act(self, s: GameState, seat: int, legal: Sequence[Action] | None = None,
            ctx: Context | None = None) -> Action:
        """The action for ``seat``. ``ctx`` may be passed to save working it out again
        (a search reuses one for a whole role)."""
        if legal is None:
            legal = engine.legal_actions(s, seat)
        if len(legal) == 1 and not (self.takebacks and s.phase is Phase.REEVE):
            return legal[0]
        phase = s.phase
        if phase is Phase.REEVE:
            return reeve_action(s, seat, legal, self.takebacks, ctx or Context(s))
        if phase is Phase.KEEP_GOODS:
            return _keep_action(s, seat, legal)
        if phase is Phase.MILLER:
            return _extra_good(s, seat, legal)
        scores = self.scores(s, seat, legal, ctx)
        best = 0
        for i in range(1, len(scores)):
            if scores[i] > scores[best] + 1e-9:
                best = i
        return legal[best]

    def scores(self, s: GameState, seat: int, legal: Sequence[Action],
               ctx: Context | None = None) -> list[float]:
        """A score per legal action (higher is better); for the phases chosen by rule
        (Reeve, keeping goods, the extra good) the chosen one scores 1 and the rest 0."""
        phase = s.phase
        if phase is Phase.PICK_ROLE:
            return self.role_scores(s, seat, legal)
        ctx = ctx or Context(s)
        if phase is Phase.SURVEYOR:
            return _surveyor_scores(s, seat, legal, ctx)
        if phase is Phase.MASON:
            return [(_build_value(s, seat, a.building, ctx) if isinstance(a, Build) else 0.0)
                    for a in legal]
        if phase is Phase.CHANDLER:
            return _sell_scores(s, seat, legal, ctx)
        if phase is Phase.BARGEMASTER:
            return _load_scores(s, seat, legal)
        chosen = self.act(s, seat, legal, ctx)
        return [1.0 if a == chosen else 0.0 for a in legal]

    def role_scores(self, s: GameState, seat: int, legal: Sequence[Action]) -> list[float]:
        ctx = Context(s)
        n = s.n
        before = [mat_value(p, ctx) for p in s.players]
        seals_before = [p.seals for p in s.players]
        out: list[float] = []
        for a in legal:
            assert isinstance(a, PickRole)
            t = s.clone()
            engine.apply(t, seat, a)
            self.finish_phase(t, ctx)
            gains = []
            for i in range(n):
                p = t.players[i]
                g = mat_value(p, ctx) - before[i] + (p.seals - seals_before[i]) * seal_worth(p)
                gains.append(g)
            others = [gains[i] for i in range(n) if i != seat]
            opp = others[0] if n == 2 else 0.5 * max(others) + 0.5 * sum(others) / len(others)
            score = gains[seat] - self.opponent_weight * opp
            if a.role == Role.REEVE:
                score += 0.05  # keeps the game moving when nothing else matters
            out.append(score)
        return out

    def finish_phase(self, t: GameState, ctx: Context | None = None) -> None:
        """Play the current role to its end with this policy for every seat (no take-backs:
        the target arrangement is reached by placements in a simulation). Nobody draws
        from the stack (its order is hidden), so the outcome is a function of the view."""
        inner = HeuristicPolicy(takebacks=False)
        guard = 0
        while t.phase is not Phase.PICK_ROLE and t.phase is not Phase.GAME_OVER:
            seat = engine.deciding(t)[0]
            legal = engine.legal_actions(t, seat)
            if DRAW_PLOT in legal:
                # the stack's top is hidden: play the phase as if nobody drew from it
                legal = [x for x in legal if x != DRAW_PLOT]
            engine.apply(t, seat, inner.act(t, seat, legal, ctx))
            guard += 1
            if guard > 500:
                raise RuntimeError("a phase did not end")


class HeuristicBot:
    """The "normal" bot: ``choose(view)`` gives the heuristic's action (None when the view
    asks nothing of the seat)."""

    name = "normal"

    def __init__(self, *, takebacks: bool = True) -> None:
        self.policy = HeuristicPolicy(takebacks=takebacks)

    def choose(self, view: SeatView) -> Action | None:
        if view.seat is None or not view.legal:
            return None
        if len(view.legal) == 1 and not (view.takebacks and self.policy.takebacks):
            return view.legal[0]
        s = state_from_view(view, None)
        action = self.policy.act(s, view.seat, view.legal)
        if action not in view.legal and action not in view.takebacks:
            return view.legal[0]
        return action

    def scores(self, view: SeatView) -> list[float]:
        """The heuristic's score of each action in ``view.legal``."""
        assert view.seat is not None
        s = state_from_view(view, None)
        return self.policy.scores(s, view.seat, view.legal)


__all__ = [
    "COIN_WORTH", "GOOD_WORTH", "Context", "HeuristicBot", "HeuristicPolicy", "mat_value",
    "potential", "reeve_target", "rounds_left", "seal_worth",
]

"""Miller: everyone makes goods, the picker may take one more, Manufactories pay
(rules.md 3, Miller). Only the picker's extra good is a decision."""

from __future__ import annotations

from quaymoor.rules.actions import PASS, TAKE_EXTRA_GOOD, Action, TakeExtraGood
from quaymoor.rules.common import staffed
from quaymoor.rules.data import GOODS, MANUFACTORY_PAY, WORKSHOPS_BY_GOOD, Building, Role
from quaymoor.rules.events import ExtraGoodTaken, GoodsMade, ManufactoryPaid, Passed
from quaymoor.rules.state import GameState, Phase, PlayerState

#: Workshop indices by Good (plain ints, for speed).
_WORKSHOPS = tuple(tuple(int(b) for b in WORKSHOPS_BY_GOOD[g]) for g in GOODS)


def production(p: PlayerState) -> list[int]:
    """What a mat makes, by Good, before the supply limits it: clay from staffed clay plots;
    other kinds the smaller of staffed plots and staffed workshop slots of that kind."""
    worked = p.worked
    out = [worked[0], 0, 0, 0, 0]
    staff = p.staff
    for g in range(1, 5):  # flax, wool, honey, amber
        plots = worked[g]
        if plots:
            slots = 0
            for b in _WORKSHOPS[g]:
                if staff[b] > 0:
                    slots += staff[b]
            out[g] = min(plots, slots)
    return out


def start(s: GameState) -> bool:
    s.phase = Phase.MILLER
    n = s.n
    supply = s.supply_goods
    s.made_kinds = [0] * n
    for i in range(n):
        seat = (s.picker + i) % n
        p = s.players[seat]
        made = production(p)
        for g in GOODS:
            made[g] = min(made[g], supply[g])
            supply[g] -= made[g]
            p.goods[g] += made[g]
        s.made_kinds[seat] = sum(1 for m in made if m > 0)
        if seat == s.picker:
            s.made = tuple(made)
        if s.events is not None:
            s.events.append(GoodsMade(seat, (made[0], made[1], made[2], made[3], made[4])))
    s.turn = s.picker
    if len(legal(s, s.picker)) > 1:
        return False
    return finish(s)


def legal(s: GameState, seat: int) -> list[Action]:
    if seat != s.picker:
        return []
    acts: list[Action] = [
        TAKE_EXTRA_GOOD[g] for g in GOODS if s.made[g] > 0 and s.supply_goods[g] > 0
    ]
    acts.append(PASS)
    return acts


def apply(s: GameState, seat: int, action: Action) -> bool:
    if isinstance(action, TakeExtraGood):
        s.supply_goods[action.good] -= 1
        s.players[seat].goods[action.good] += 1
        if s.events is not None:
            s.events.append(ExtraGoodTaken(seat, action.good))
    elif s.events is not None:
        s.events.append(Passed(seat, Role.MILLER))
    return finish(s)


def finish(s: GameState) -> bool:
    for seat, p in enumerate(s.players):
        if staffed(p, Building.MANUFACTORY):
            pay = MANUFACTORY_PAY[s.made_kinds[seat]]
            if pay:
                p.coins += pay
                if s.events is not None:
                    s.events.append(ManufactoryPaid(seat, pay))
    return True

"""Bargemaster: compulsory loading round and round from the picker, then what each player
keeps (rules.md 3, Bargemaster).

Loading: a barge carries one kind; no two barges the same kind; a kind already on a barge
goes only on that barge; starting an empty barge, the player must use an empty barge that
takes the most of that kind. A staffed Boatyard is one more loading option, once per phase.
Whoever has any option must take one of them; a player with none is passed over.

Keeping: everyone keeps 1 good plus all goods of as many kinds as their staffed Cellar (1)
and Granary (2) cover. A seat is asked only when it has a real choice; otherwise what it
keeps is settled at once. The choice is made of single taps (store a kind, keep one good,
Done), all seats at once.
"""

from __future__ import annotations

from quaymoor.rules.actions import (
    DONE,
    KEEP_GOOD,
    LOAD,
    SHIP_ON_BOATYARD,
    STORE_GOODS,
    Action,
    KeepGood,
    Load,
    ShipOnBoatyard,
    StoreGoods,
)
from quaymoor.rules.common import award_seals, staffed
from quaymoor.rules.data import (
    BARGEMASTER_PICKER_SEALS,
    BARGES,
    CELLAR_KINDS,
    GOODS,
    GRANARY_KINDS,
    LOCK_HOUSE_SEALS,
    Building,
    Good,
)
from quaymoor.rules.events import BargeEmptied, GoodsReturned, Loaded
from quaymoor.rules.state import GameState, Phase, PlayerState


def start(s: GameState) -> bool:
    s.phase = Phase.BARGEMASTER
    s.seal_bonus_paid = False
    s.boatyard_used = [False] * s.n
    return _next_loader(s, s.picker)


def _next_loader(s: GameState, first: int) -> bool:
    """Give the turn to the first seat from ``first`` on that can load; when nobody can,
    loading ends. Returns True when the whole phase is over."""
    n = s.n
    for i in range(n):
        seat = (first + i) % n
        if _load_options(s, seat):
            s.turn = seat
            return False
    return _end_loading(s)


def _load_options(s: GameState, seat: int) -> list[Action]:
    p = s.players[seat]
    goods = p.goods
    cap = s.barge_capacity
    kind = s.barge_good
    load = s.barge_load
    acts: list[Action] = []
    for g in GOODS:
        have = goods[g]
        if not have:
            continue
        if g in kind:
            i = kind.index(g)
            if load[i] < cap[i]:
                acts.append(LOAD[g][i])
            continue
        best = 0
        for i in range(BARGES):
            if kind[i] < 0:
                best = max(best, min(have, cap[i]))
        if best:
            acts.extend(
                LOAD[g][i] for i in range(BARGES) if kind[i] < 0 and min(have, cap[i]) == best
            )
    if not s.boatyard_used[seat] and staffed(p, Building.BOATYARD):
        acts.extend(SHIP_ON_BOATYARD[g] for g in GOODS if goods[g])
    return acts


def legal(s: GameState, seat: int) -> list[Action]:
    if s.phase is Phase.BARGEMASTER:
        return _load_options(s, seat) if seat == s.turn else []
    return _keep_options(s, seat)


def apply(s: GameState, seat: int, action: Action) -> bool:
    if s.phase is Phase.BARGEMASTER:
        _load(s, seat, action)
        return _next_loader(s, (seat + 1) % s.n)
    return _keep(s, seat, action)


def _load(s: GameState, seat: int, action: Action) -> None:
    p = s.players[seat]
    if isinstance(action, Load):
        g, i = action.good, action.barge
        count = min(p.goods[g], s.barge_capacity[i] - s.barge_load[i])
        s.barge_good[i] = g
        s.barge_load[i] += count
        barge = i
    else:
        assert isinstance(action, ShipOnBoatyard)
        g = action.good
        count = p.goods[g]
        s.supply_goods[g] += count
        s.boatyard_used[seat] = True
        barge = -1
    p.goods[g] -= count
    seals = count
    if seat == s.picker and not s.seal_bonus_paid:
        s.seal_bonus_paid = True
        seals += BARGEMASTER_PICKER_SEALS
    if staffed(p, Building.LOCK_HOUSE):
        seals += LOCK_HOUSE_SEALS
    if s.events is not None:
        s.events.append(Loaded(seat, Good(g), count, barge))
    award_seals(s, seat, seals)


def _end_loading(s: GameState) -> bool:
    for i in range(BARGES):
        if s.barge_load[i] == s.barge_capacity[i]:
            g = s.barge_good[i]
            s.supply_goods[g] += s.barge_load[i]
            if s.events is not None:
                s.events.append(BargeEmptied(i, Good(g), s.barge_load[i]))
            s.barge_good[i] = -1
            s.barge_load[i] = 0
    s.phase = Phase.KEEP_GOODS
    s.stored = [[] for _ in range(s.n)]
    s.kept = [-1] * s.n
    s.decided = [False] * s.n
    for seat, p in enumerate(s.players):
        if not _has_choice(p):
            _settle(s, seat, keep_best=True)
    return all(s.decided)


def discards(s: GameState, seat: int) -> list[int]:
    """What ``seat``'s ``done`` would give back to the supply now, by Good: every good of
    a kind not stored, less the one good kept."""
    p = s.players[seat]
    stored = s.stored[seat]
    kept = s.kept[seat]
    return [0 if g in stored else p.goods[g] - (1 if g == kept else 0) for g in GOODS]


def storage_buildings(p: PlayerState) -> list[Building]:
    """The mat's staffed Cellar and Granary: what lets it keep whole kinds."""
    return [b for b in (Building.CELLAR, Building.GRANARY) if p.staff[b] > 0]


def storage(p: PlayerState) -> int:
    """How many kinds a mat keeps whole: ``CELLAR_KINDS`` for a staffed Cellar,
    ``GRANARY_KINDS`` for a staffed Granary."""
    cellar = CELLAR_KINDS if p.staff[Building.CELLAR] > 0 else 0
    return cellar + (GRANARY_KINDS if p.staff[Building.GRANARY] > 0 else 0)


def _has_choice(p: PlayerState) -> bool:
    kinds = [g for g in GOODS if p.goods[g]]
    k = storage(p)
    if len(kinds) <= k or len(kinds) == 1:
        return False
    # k+1 kinds with one of them a single good: everything is kept, nothing to choose.
    return not (len(kinds) == k + 1 and any(p.goods[g] == 1 for g in kinds))


def _keep_options(s: GameState, seat: int) -> list[Action]:
    if s.decided[seat]:
        return []
    p = s.players[seat]
    stored = s.stored[seat]
    kept = s.kept[seat]
    acts: list[Action] = []
    if len(stored) < storage(p):
        acts.extend(
            STORE_GOODS[g] for g in GOODS if p.goods[g] and g not in stored and g != kept
        )
    if kept < 0:
        acts.extend(KEEP_GOOD[g] for g in GOODS if p.goods[g] and g not in stored)
    acts.append(DONE)
    return acts


def _keep(s: GameState, seat: int, action: Action) -> bool:
    if isinstance(action, StoreGoods):
        s.stored[seat].append(action.good)
    elif isinstance(action, KeepGood):
        s.kept[seat] = action.good
    else:
        _settle(s, seat, keep_best=False)
        return all(s.decided)
    if len(_keep_options(s, seat)) == 1:
        _settle(s, seat, keep_best=False)
    return all(s.decided)


def _settle(s: GameState, seat: int, *, keep_best: bool) -> None:
    """Return to the supply what the seat does not keep. With ``keep_best`` (no choice to
    make) everything that can be kept is."""
    p = s.players[seat]
    if keep_best:
        kinds = sorted((int(g) for g in GOODS if p.goods[g]), key=lambda g: -p.goods[g])
        k = storage(p)
        s.stored[seat] = kinds[:k]
        rest = kinds[k:]
        s.kept[seat] = rest[0] if rest else -1
    back = discards(s, seat)
    if any(back):
        for g in GOODS:
            p.goods[g] -= back[g]
            s.supply_goods[g] += back[g]
        if s.events is not None:
            s.events.append(GoodsReturned(seat, (back[0], back[1], back[2], back[3], back[4])))
    s.decided[seat] = True

"""Mason: in turn from the picker, each player may build one building (rules.md 3, Mason)."""

from __future__ import annotations

from quaymoor.rules.actions import BUILD, PASS, Action, Build
from quaymoor.rules.common import (
    advance_turn,
    apprentice_from_supply,
    begin_turns,
    price,
    prices,
    staffed,
    street_free,
    trigger_end,
)
from quaymoor.rules.data import BUILDINGS, Building, EndTrigger, Role
from quaymoor.rules.events import Built, Passed
from quaymoor.rules.state import GameState, Phase

_SPACES = tuple((b.index, b.spaces) for b in BUILDINGS)


def start(s: GameState) -> bool:
    s.phase = Phase.MASON
    return begin_turns(s, has_options)


def has_options(s: GameState, seat: int) -> bool:
    return len(legal(s, seat)) > 1


def legal(s: GameState, seat: int) -> list[Action]:
    p = s.players[seat]
    free = street_free(p)
    acts: list[Action] = []
    if free > 0:
        staff = p.staff
        copies = s.copies
        coins = p.coins
        pay = prices(s, seat)
        for b, spaces in _SPACES:
            if pay[b] <= coins and staff[b] < 0 and copies[b] > 0 and spaces <= free:
                acts.append(BUILD[b])
    acts.append(PASS)
    return acts


def apply(s: GameState, seat: int, action: Action) -> bool:
    p = s.players[seat]
    if isinstance(action, Build):
        b = action.building
        cost = price(s, seat, b)
        p.coins -= cost
        s.copies[b] -= 1
        p.staff[b] = 0
        p.street.append(b)
        helped = staffed(p, Building.ACADEMY) and apprentice_from_supply(s)
        if helped:
            p.staff[b] = 1
        if s.events is not None:
            s.events.append(Built(seat, b, cost, helped))
        if street_free(p) == 0:
            trigger_end(s, EndTrigger.HIGH_STREET.value)
    elif s.events is not None:
        s.events.append(Passed(seat, Role.MASON))
    return advance_turn(s, has_options)

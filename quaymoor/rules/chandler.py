"""Chandler: in turn from the picker, each player may sell 1 good to the market hall
(rules.md 3, Chandler). The hall empties only when full, at the end of the phase."""

from __future__ import annotations

from quaymoor.rules.actions import PASS, SELL, Action, Sell
from quaymoor.rules.common import advance_turn, begin_turns, staffed
from quaymoor.rules.data import (
    GOODS,
    MARKET_CROSS_BONUS,
    MARKET_HALL_SPACES,
    MARKET_PRICE,
    PICKER_SALE_BONUS,
    STALL_BONUS,
    Building,
    Good,
    Role,
)
from quaymoor.rules.events import MarketHallEmptied, Passed, Sold
from quaymoor.rules.state import GameState, Phase


def start(s: GameState) -> bool:
    s.phase = Phase.CHANDLER
    if begin_turns(s, has_options):
        return finish(s)
    return False


def has_options(s: GameState, seat: int) -> bool:
    return len(legal(s, seat)) > 1


def legal(s: GameState, seat: int) -> list[Action]:
    hall = s.hall
    if len(hall) >= MARKET_HALL_SPACES:
        return []
    p = s.players[seat]
    any_kind = staffed(p, Building.COUNTING_HOUSE)
    acts: list[Action] = [
        SELL[g] for g in GOODS if p.goods[g] > 0 and (any_kind or g not in hall)
    ]
    acts.append(PASS)
    return acts


def sale_price(s: GameState, seat: int, good: Good) -> int:
    p = s.players[seat]
    coins = MARKET_PRICE[good]
    if seat == s.picker:
        coins += PICKER_SALE_BONUS
    if staffed(p, Building.STALL):
        coins += STALL_BONUS
    if staffed(p, Building.MARKET_CROSS):
        coins += MARKET_CROSS_BONUS
    return coins


def apply(s: GameState, seat: int, action: Action) -> bool:
    if isinstance(action, Sell):
        p = s.players[seat]
        coins = sale_price(s, seat, action.good)
        p.goods[action.good] -= 1
        p.coins += coins
        s.hall.append(action.good)
        if s.events is not None:
            s.events.append(Sold(seat, action.good, coins))
        if len(s.hall) >= MARKET_HALL_SPACES:
            return finish(s)
    elif s.events is not None:
        s.events.append(Passed(seat, Role.CHANDLER))
    if advance_turn(s, has_options):
        return finish(s)
    return False


def finish(s: GameState) -> bool:
    """A full hall is emptied into the supply; a hall with fewer goods keeps them."""
    if len(s.hall) >= MARKET_HALL_SPACES:
        for g in s.hall:
            s.supply_goods[g] += 1
        if s.events is not None:
            s.events.append(MarketHallEmptied(tuple(Good(g) for g in s.hall)))
        s.hall = []
    return True

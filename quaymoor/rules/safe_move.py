"""The safe move: what the table plays for a seat whose 90-second timer runs out.

It spends nothing: no coins, no building. ``safe_action`` gives the next action of it;
the table applies safe actions until the seat's decision is over.

- Role pick: the role with the most coins on it (ties: table order). Taking a role never
  costs anything.
- Surveyor, Mason, Chandler, the Miller's extra good: pass.
- Bargemaster loading (compulsory): the first legal load, in the order goods then barges.
- Reeve: every apprentice in the lodge goes to the first empty slot in the legal list
  (plots, then buildings in the order built), then Done.
- Keeping goods after shipping: store the kinds with the most goods, keep one good of the
  most valuable kind left, then Done: nothing is given back that could have been kept.
"""

from __future__ import annotations

from quaymoor.rules import engine
from quaymoor.rules.actions import (
    DONE,
    KEEP_GOOD,
    PASS,
    PICK,
    STORE_GOODS,
    Action,
    KeepGood,
    StoreGoods,
)
from quaymoor.rules.data import MARKET_PRICE, ROLES
from quaymoor.rules.state import GameState, Phase


def safe_action(s: GameState, seat: int) -> Action | None:
    """The next action of ``seat``'s safe move, or None when nothing waits for the seat."""
    legal = engine.legal_actions(s, seat)
    if not legal:
        return None
    phase = s.phase
    if phase is Phase.PICK_ROLE:
        best = max((r for r in ROLES if s.role_taken[r] < 0), key=lambda r: (s.role_coins[r], -r))
        return PICK[best]
    if PASS in legal:
        return PASS
    if phase is Phase.KEEP_GOODS:
        return _keep_step(s, seat, legal)
    return legal[0]


def _keep_step(s: GameState, seat: int, legal: list[Action]) -> Action:
    goods = s.players[seat].goods
    stores = [a for a in legal if isinstance(a, StoreGoods)]
    if stores:
        best = max(stores, key=lambda a: (goods[a.good], MARKET_PRICE[a.good]))
        return STORE_GOODS[best.good]
    keeps = [a for a in legal if isinstance(a, KeepGood)]
    if keeps:
        best_keep = max(keeps, key=lambda a: MARKET_PRICE[a.good])
        return KEEP_GOOD[best_keep.good]
    return DONE

"""Small helpers the role modules share: staffing, prices, supplies, turn order."""

from __future__ import annotations

from collections.abc import Callable

from quaymoor.rules.data import (
    BUILDINGS,
    HIGH_STREET_SPACES,
    HOLDING_SPACES,
    MASON_PICKER_DISCOUNT,
    Building,
    EndTrigger,
    PlotKind,
    Role,
)
from quaymoor.rules.events import EndTriggered
from quaymoor.rules.fairness import reshuffle_label, shuffled
from quaymoor.rules.state import SIMULTANEOUS_PHASES, GameState, Phase, PlayerState

_SPACES = tuple(b.spaces for b in BUILDINGS)
_SLOTS = tuple(b.slots for b in BUILDINGS)


def staffed(p: PlayerState, b: Building) -> bool:
    return p.staff[b] > 0


def holding_free(p: PlayerState) -> int:
    return HOLDING_SPACES - sum(p.plots)


def street_used(p: PlayerState) -> int:
    return sum(_SPACES[b] for b in p.street)


def street_free(p: PlayerState) -> int:
    return HIGH_STREET_SPACES - street_used(p)


def building_slots(b: int) -> int:
    return _SLOTS[b]


def empty_building_slots(p: PlayerState) -> int:
    return sum(_SLOTS[b] - p.staff[b] for b in p.street)


def _price(cost: int, column: int, pits: int, picker: bool) -> int:
    """The price rule: the cost less 1 per staffed stone pit (up to the building's column)
    and ``MASON_PICKER_DISCOUNT`` for the Mason's picker, never below 0."""
    return max(0, cost - min(pits, column) - (MASON_PICKER_DISCOUNT if picker else 0))


#: ``_PRICES[picker][pits][b]``: every price ``_price`` gives, worked out once (a holding
#: has at most ``HOLDING_SPACES`` stone pits), so that the Mason's legal actions cost a
#: lookup per building.
_PRICES: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(
        tuple(_price(b.cost, b.column, pits, picker) for b in BUILDINGS)
        for pits in range(HOLDING_SPACES + 1)
    )
    for picker in (False, True)
)


def prices(s: GameState, seat: int) -> tuple[int, ...]:
    """What ``seat`` pays for each building now, by Building: the cost less staffed stone
    pits (up to the column) and 1 for the Mason's picker, never below 0."""
    picker = seat == s.picker and s.role == Role.MASON
    return _PRICES[picker][s.players[seat].worked[PlotKind.STONE_PIT]]


def price(s: GameState, seat: int, b: int) -> int:
    """What ``seat`` pays for building ``b`` now (see ``prices``)."""
    return prices(s, seat)[b]


def apprentice_from_supply(s: GameState) -> bool:
    """Take 1 apprentice for an Almshouse or Academy: from the supply, else from the
    apprentice barge. False when both are empty."""
    if s.supply_apprentices > 0:
        s.supply_apprentices -= 1
        return True
    if s.apprentice_barge > 0:
        s.apprentice_barge -= 1
        return True
    return False


def draw_plot(s: GameState) -> int:
    """Turn over the top plot of the face-down stack, reshuffling the discard pile (in
    canonical order, from the seed) into a new stack when the stack is empty.
    Returns the plot's Good, or -1 when both are empty."""
    if not s.stack:
        if not s.discard:
            return -1
        s.reshuffles += 1
        s.stack = shuffled(s.key, reshuffle_label(s.reshuffles), sorted(s.discard))
        s.discard = []
    return s.stack.pop(0)


def award_seals(s: GameState, seat: int, count: int) -> None:
    """Pay seals from the supply. When it runs out players are still paid in full, and the
    game ends at the end of the round."""
    s.players[seat].seals += count
    s.seals -= count
    if s.seals <= 0:
        s.seals = 0
        trigger_end(s, EndTrigger.SEALS.value)


def trigger_end(s: GameState, reason: str) -> None:
    if reason not in s.end_reasons:
        s.end_reasons.append(reason)
        if s.events is not None:
            s.events.append(EndTriggered(reason))


def deciding(s: GameState) -> tuple[int, ...]:
    """The seats whose decision the game waits for now (empty once it is over)."""
    if s.phase in SIMULTANEOUS_PHASES:
        return tuple(i for i in range(s.n) if not s.decided[i])
    if s.phase is Phase.GAME_OVER:
        return ()
    return (s.turn,)


def advance_turn(s: GameState, has_options: Callable[[GameState, int], bool]) -> bool:
    """Move a turn-order phase to the next seat that has something to decide, passing over
    the others. Returns True when every turn has been taken (the phase is over)."""
    while True:
        s.turns_left -= 1
        if s.turns_left <= 0:
            return True
        s.turn = (s.turn + 1) % s.n
        if has_options(s, s.turn):
            return False


def begin_turns(s: GameState, has_options: Callable[[GameState, int], bool]) -> bool:
    """Start a turn-order phase at the picker. Returns True when nobody has anything to
    decide (the phase is over at once)."""
    s.turn = s.picker
    s.turns_left = s.n
    if has_options(s, s.turn):
        return False
    return advance_turn(s, has_options)

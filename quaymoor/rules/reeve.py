"""Reeve: apprentices arrive, then everyone arranges theirs at once (rules.md 3, Reeve).

Arranging is made of single placements from the lodge, so that each is one tap. Placed
apprentices stay where they are from one Reeve to the next; a person may take one back to
the lodge (``takebacks``) before ``Done`` and put it elsewhere. Take-backs are offered apart
from the legal actions, so that random play only ever moves forward: every placement fills
a slot, and ``Done`` is legal only once the lodge is empty or no slot is.
"""

from __future__ import annotations

from quaymoor.rules.actions import (
    DONE,
    PLACE_ON_BUILDING,
    PLACE_ON_PLOT,
    TAKE_BACK_FROM_BUILDING,
    TAKE_BACK_FROM_PLOT,
    Action,
    PlaceOnBuilding,
    PlaceOnPlot,
    TakeBackFromBuilding,
    TakeBackFromPlot,
)
from quaymoor.rules.common import building_slots, empty_building_slots, trigger_end
from quaymoor.rules.data import PLOT_KINDS, REEVE_PICKER_APPRENTICES, EndTrigger
from quaymoor.rules.events import (
    ApprenticeBargeRefilled,
    ApprenticesArranged,
    ApprenticesArrived,
)
from quaymoor.rules.state import GameState, Phase, PlayerState


def start(s: GameState) -> bool:
    s.phase = Phase.REEVE
    n = s.n
    first = min(REEVE_PICKER_APPRENTICES, s.supply_apprentices)
    if first > 0:
        s.supply_apprentices -= first
        s.players[s.picker].lodge += first
        if s.events is not None:
            s.events.append(ApprenticesArrived(s.picker, first, from_barge=False))
    arriving = s.apprentice_barge
    s.apprentice_barge = 0
    for i in range(min(arriving, n)):
        seat = (s.picker + i) % n
        count = arriving // n + (1 if i < arriving % n else 0)
        s.players[seat].lodge += count
        if s.events is not None:
            s.events.append(ApprenticesArrived(seat, count, from_barge=True))
    s.decided = [not _can_arrange(p) for p in s.players]
    if all(s.decided):
        return finish(s)
    return False


def _empty_slots(p: PlayerState) -> int:
    return sum(p.plots) - sum(p.worked) + empty_building_slots(p)


def _can_arrange(p: PlayerState) -> bool:
    """Whether the seat has a choice: an empty slot, and an apprentice to put there (from
    the lodge, or moved from another slot)."""
    if _empty_slots(p) == 0:
        return False
    return p.lodge > 0 or sum(p.worked) > 0 or any(p.staff[b] > 0 for b in p.street)


def legal(s: GameState, seat: int) -> list[Action]:
    if s.decided[seat]:
        return []
    p = s.players[seat]
    acts: list[Action] = []
    if p.lodge > 0:
        for k in PLOT_KINDS:
            if p.worked[k] < p.plots[k]:
                acts.append(PLACE_ON_PLOT[k])
        for b in p.street:
            if p.staff[b] < building_slots(b):
                acts.append(PLACE_ON_BUILDING[b])
    if not acts:
        acts.append(DONE)
    return acts


def takebacks(s: GameState, seat: int) -> list[Action]:
    """Apprentices a person may take back to the lodge before Done."""
    if s.phase is not Phase.REEVE or s.decided[seat]:
        return []
    p = s.players[seat]
    acts: list[Action] = [TAKE_BACK_FROM_PLOT[k] for k in PLOT_KINDS if p.worked[k] > 0]
    acts.extend(TAKE_BACK_FROM_BUILDING[b] for b in p.street if p.staff[b] > 0)
    return acts


def apply(s: GameState, seat: int, action: Action) -> bool:
    p = s.players[seat]
    if isinstance(action, PlaceOnPlot):
        p.lodge -= 1
        p.worked[action.kind] += 1
    elif isinstance(action, PlaceOnBuilding):
        p.lodge -= 1
        p.staff[action.building] += 1
    elif isinstance(action, TakeBackFromPlot):
        p.lodge += 1
        p.worked[action.kind] -= 1
    elif isinstance(action, TakeBackFromBuilding):
        p.lodge += 1
        p.staff[action.building] -= 1
    else:
        s.decided[seat] = True
        if s.events is not None:
            s.events.append(ApprenticesArranged(seat))
        if all(s.decided):
            return finish(s)
    return False


def finish(s: GameState) -> bool:
    """Refill the apprentice barge: max(N, empty building slots on all high streets)."""
    need = max(s.n, sum(empty_building_slots(p) for p in s.players))
    if s.supply_apprentices >= need:
        s.supply_apprentices -= need
        s.apprentice_barge = need
    else:
        s.apprentice_barge = s.supply_apprentices
        s.supply_apprentices = 0
        trigger_end(s, EndTrigger.APPRENTICES.value)
    if s.events is not None:
        s.events.append(ApprenticeBargeRefilled(s.apprentice_barge))
    return True

"""Surveyor: in turn from the picker, each player may take a plot (rules.md 3, Surveyor)."""

from __future__ import annotations

from quaymoor.rules.actions import (
    DRAW_PLOT,
    PASS,
    TAKE_PLOT,
    TAKE_STONE_PIT,
    Action,
    DrawPlot,
    TakePlot,
    TakeStonePit,
)
from quaymoor.rules.common import (
    advance_turn,
    apprentice_from_supply,
    begin_turns,
    draw_plot,
    holding_free,
    staffed,
)
from quaymoor.rules.data import GOODS, Building, Good, PlotKind, Role
from quaymoor.rules.events import Passed, PlotsTurnedUp, PlotTaken
from quaymoor.rules.state import GameState, Phase


def start(s: GameState) -> bool:
    s.phase = Phase.SURVEYOR
    s.drew_plot = False
    if begin_turns(s, has_options):
        return finish(s)
    return False


def has_options(s: GameState, seat: int) -> bool:
    return len(legal(s, seat)) > 1


def legal(s: GameState, seat: int) -> list[Action]:
    p = s.players[seat]
    if holding_free(p) <= 0:
        return []
    acts: list[Action] = []
    if not s.drew_plot and (s.stack or s.discard) and staffed(p, Building.FARMSTEAD):
        acts.append(DRAW_PLOT)
    face_up = s.face_up
    for g in GOODS:
        if g in face_up:
            acts.append(TAKE_PLOT[g])
    if s.stone_pits > 0 and (seat == s.picker or staffed(p, Building.STONECUTTERS_HUT)):
        acts.append(TAKE_STONE_PIT)
    acts.append(PASS)
    return acts


def apply(s: GameState, seat: int, action: Action) -> bool:
    p = s.players[seat]
    if isinstance(action, DrawPlot):
        good = draw_plot(s)
        p.plots[good] += 1
        s.drew_plot = True
        if s.events is not None:
            s.events.append(PlotTaken(seat, PlotKind(good), from_stack=True, with_apprentice=False))
        if has_options(s, seat):
            return False
    elif isinstance(action, TakePlot | TakeStonePit):
        if isinstance(action, TakePlot):
            kind = PlotKind(action.good)
            s.face_up.remove(action.good)
        else:
            kind = PlotKind.STONE_PIT
            s.stone_pits -= 1
        p.plots[kind] += 1
        helped = staffed(p, Building.ALMSHOUSE) and apprentice_from_supply(s)
        if helped:
            p.worked[kind] += 1
        if s.events is not None:
            s.events.append(PlotTaken(seat, kind, from_stack=False, with_apprentice=helped))
    elif s.events is not None:
        s.events.append(Passed(seat, Role.SURVEYOR))
    s.drew_plot = False
    if advance_turn(s, has_options):
        return finish(s)
    return False


def finish(s: GameState) -> bool:
    """Untaken face-up plots go to the discard pile; N+1 new ones are turned up."""
    discarded = len(s.face_up)
    s.discard.extend(s.face_up)
    s.face_up = []
    before = s.reshuffles
    for _ in range(s.n + 1):
        good = draw_plot(s)
        if good < 0:
            break
        s.face_up.append(good)
    if s.events is not None:
        s.events.append(PlotsTurnedUp(tuple(Good(g) for g in s.face_up), discarded,
                                      s.reshuffles > before))
    return True

"""The game in words a player understands: why an action is refused (``explain``, here),
and what a decision is about (``describe``, the "?" of the table, in ``describe.py``).

It also says an action in words (``action_words``) and why the post-game analysis
prefers another move (``advice``). This module is the entry the rest of the server
imports them from. ``explain`` is called
only after the engine has found the action missing from the legal list, so it may take
its time. It names the first rule the action breaks, with the numbers of ``data`` or of
the state, and, like ``describe``, never reveals hidden information.
"""

from __future__ import annotations

from quaymoor.rules import actions as a
from quaymoor.rules.common import deciding, holding_free, price, staffed, street_free
from quaymoor.rules.data import BARGES, BUILDINGS, HOLDING_SPACES, MARKET_HALL_SPACES, Building
from quaymoor.rules.describe import Told, describe
from quaymoor.rules.state import GameState, Phase
from quaymoor.rules.words import good_name

__all__ = ["Told", "action_words", "advice", "describe", "explain"]

_WHAT = {
    Phase.PICK_ROLE: "pick a role",
    Phase.SURVEYOR: "take a plot (Surveyor)",
    Phase.REEVE: "arrange apprentices (Reeve)",
    Phase.MASON: "build (Mason)",
    Phase.MILLER: "take the picker's extra good (Miller)",
    Phase.CHANDLER: "sell a good (Chandler)",
    Phase.BARGEMASTER: "load a barge (Bargemaster)",
    Phase.KEEP_GOODS: "choose the goods to keep (Bargemaster)",
}

_FITS: dict[Phase, tuple[type, ...]] = {
    Phase.PICK_ROLE: (a.PickRole,),
    Phase.SURVEYOR: (a.TakePlot, a.TakeStonePit, a.DrawPlot, a.Pass),
    Phase.REEVE: (
        a.PlaceOnPlot, a.PlaceOnBuilding, a.TakeBackFromPlot, a.TakeBackFromBuilding, a.Done,
    ),
    Phase.MASON: (a.Build, a.Pass),
    Phase.MILLER: (a.TakeExtraGood, a.Pass),
    Phase.CHANDLER: (a.Sell, a.Pass),
    Phase.BARGEMASTER: (a.Load, a.ShipOnBoatyard),
    Phase.KEEP_GOODS: (a.StoreGoods, a.KeepGood, a.Done),
}


def _name(x: object) -> str:
    return getattr(x, "name", str(x)).lower().replace("_", " ")


def explain(s: GameState, seat: int, action: a.Action) -> str:
    """A sentence saying why ``action`` by ``seat`` is not legal now."""
    if s.phase is Phase.GAME_OVER:
        return "the game is over"
    if not 0 <= seat < s.n:
        return f"there is no seat {seat} at this table"
    waiting = deciding(s)
    what = _WHAT[s.phase]
    if seat not in waiting:
        who = ", ".join(f"seat {w}" for w in waiting)
        return f"it is not your decision: waiting for {who} to {what}"
    if not isinstance(action, _FITS[s.phase]):
        return f"{type(action).__name__} is not a choice now: it is time to {what}"
    reason = _specific(s, seat, action)
    if reason:
        return reason
    return f"{type(action).__name__} is not legal now"


def _specific(s: GameState, seat: int, action: a.Action) -> str | None:
    p = s.players[seat]
    match action:
        case a.PickRole(role=role):
            if s.role_taken[role] >= 0:
                return f"the {_name(role)} has already been picked this round"
        case a.TakePlot(good=good):
            if holding_free(p) <= 0:
                return f"your holding is full ({HOLDING_SPACES} spaces)"
            if good not in s.face_up:
                return f"there is no face-up {_name(good)} plot"
        case a.TakeStonePit():
            if holding_free(p) <= 0:
                return f"your holding is full ({HOLDING_SPACES} spaces)"
            if s.stone_pits <= 0:
                return "no stone pits are left"
            if seat != s.picker and not staffed(p, Building.STONECUTTERS_HUT):
                return (
                    "only the Surveyor's picker, or a staffed Stonecutter's Hut, "
                    "takes a stone pit"
                )
        case a.DrawPlot():
            if not staffed(p, Building.FARMSTEAD):
                return "drawing from the stack needs a staffed Farmstead"
            if s.drew_plot:
                return "you have already drawn with your Farmstead this turn"
            return "there is no plot left to draw"
        case a.PlaceOnPlot(kind=kind):
            if p.lodge <= 0:
                return "no apprentice waits in your lodge"
            return f"you have no empty {_name(kind)} plot"
        case a.PlaceOnBuilding(building=b):
            if p.lodge <= 0:
                return "no apprentice waits in your lodge"
            if p.staff[b] < 0:
                return f"you do not own a {BUILDINGS[b].name}"
            return f"your {BUILDINGS[b].name} has no empty slot"
        case a.TakeBackFromPlot(kind=kind):
            return f"no apprentice works a {_name(kind)} plot of yours"
        case a.TakeBackFromBuilding(building=b):
            return f"no apprentice of yours stands on a {BUILDINGS[b].name}"
        case a.Done() if s.phase is Phase.REEVE:
            return "an apprentice may not wait in the lodge while a slot is empty"
        case a.Build(building=b):
            spec = BUILDINGS[b]
            if p.staff[b] >= 0:
                return f"you already own a {spec.name}"
            if s.copies[b] <= 0:
                return f"no {spec.name} is left to build"
            if spec.spaces > street_free(p):
                free, need = street_free(p), spec.spaces
                return f"your high street has {free} free spaces; the {spec.name} needs {need}"
            cost = price(s, seat, b)
            if cost > p.coins:
                return f"the {spec.name} costs you {cost} coins and you have {p.coins}"
        case a.TakeExtraGood(good=good):
            if not s.made[good]:
                return f"you made no {_name(good)} this phase"
            return f"the supply has no {_name(good)} left"
        case a.Sell(good=good):
            if len(s.hall) >= MARKET_HALL_SPACES:
                return "the market hall is full"
            if not p.goods[good]:
                return f"you have no {_name(good)} to sell"
            return (
                f"the market hall already holds {_name(good)} "
                "(only a staffed Counting House allows a second)"
            )
        case a.Load(good=good, barge=barge):
            return _load_reason(s, seat, good, barge)
        case a.ShipOnBoatyard(good=good):
            if not staffed(p, Building.BOATYARD):
                return "shipping on your own boat needs a staffed Boatyard"
            if s.boatyard_used[seat]:
                return "your Boatyard has already shipped this phase"
            return f"you have no {_name(good)} to ship"
        case a.StoreGoods(good=good):
            return f"you cannot store {_name(good)}: storage is full, or you hold none"
        case a.KeepGood(good=good):
            return f"you cannot keep {_name(good)}: you already keep one good, or hold none"
        case _:
            pass
    return None


def _load_reason(s: GameState, seat: int, good: int, barge: int) -> str:
    p = s.players[seat]
    if not 0 <= barge < BARGES:
        names = ", ".join(str(i) for i in range(BARGES - 1))
        return f"there is no barge {barge}; barges are {names} and {BARGES - 1}"
    if not p.goods[good]:
        return f"you have no {good_name(good)} to load"
    if good in s.barge_good and s.barge_good[barge] != good:
        on = s.barge_good.index(good)
        return f"{good_name(good)} is already on barge {on}: it may go only there"
    if s.barge_good[barge] >= 0 and s.barge_good[barge] != good:
        return f"barge {barge} carries {good_name(s.barge_good[barge])}"
    if s.barge_load[barge] >= s.barge_capacity[barge]:
        return f"barge {barge} is full"
    return "starting an empty barge, you must use one that takes the most of that kind"



def action_words(action: a.Action) -> str:
    """An action as a player says it: ``pick the Mason``, ``build the Granary``."""
    if isinstance(action, a.PickRole):
        return f"pick the {_name(action.role).capitalize()}"
    if isinstance(action, a.TakePlot):
        name = good_name(action.good)
        return f"take {'an' if name[0] in 'aeiou' else 'a'} {name} plot"
    if isinstance(action, a.TakeStonePit):
        return "take a stone pit"
    if isinstance(action, a.DrawPlot):
        return "draw a plot from the stack"
    if isinstance(action, (a.PlaceOnPlot, a.TakeBackFromPlot)):
        verb = "place an apprentice on" if isinstance(action, a.PlaceOnPlot) else "take back from"
        return f"{verb} a {_name(action.kind)} plot"
    if isinstance(action, (a.PlaceOnBuilding, a.TakeBackFromBuilding)):
        verb = ("place an apprentice on" if isinstance(action, a.PlaceOnBuilding)
                else "take back from")
        return f"{verb} the {BUILDINGS[action.building].name}"
    if isinstance(action, a.Build):
        return f"build the {BUILDINGS[action.building].name}"
    if isinstance(action, a.TakeExtraGood):
        return f"take one more {good_name(action.good)}"
    if isinstance(action, a.Sell):
        return f"sell a {good_name(action.good)}"
    if isinstance(action, a.Load):
        return f"load {good_name(action.good)} on barge {action.barge + 1}"
    if isinstance(action, a.ShipOnBoatyard):
        return f"ship {good_name(action.good)} on the boatyard's boat"
    if isinstance(action, a.StoreGoods):
        return f"store all {good_name(action.good)}"
    if isinstance(action, a.KeepGood):
        return f"keep one {good_name(action.good)}"
    if isinstance(action, a.Done):
        return "finish"
    return "pass"


def advice(better: a.Action, chosen: a.Action, loss: float) -> str:
    """Why the analysis prefers ``better`` to ``chosen``, which lost ``loss`` points."""
    words = action_words(better)
    return (f"{words[0].upper()}{words[1:]} rather than {action_words(chosen)}: about "
            f"{loss:.1f} points more at the end, by the search's estimate of the final "
            "margin over the best other player")

"""Actions: every decision a seat can make, as small frozen values.

Each action is one tap at the table. The engine lists the legal ones for whoever must
decide (``quaymoor.rules.engine.legal_actions``); anything else is refused with a reason.
Actions carry no seat: the seat is who sends them.

Parameterless actions and the few parameterised ones are interned below (``ALL_ACTIONS``) so
that listing legal actions allocates nothing; an equal action built elsewhere (say, decoded
from the wire) compares equal to its interned twin.
"""

from __future__ import annotations

from typing import Final

import attrs

from quaymoor.rules.data import BARGES, GOODS, PLOT_KINDS, ROLES, Building, Good, PlotKind, Role


@attrs.frozen(cache_hash=True)
class PickRole:
    """Take this role card (and its coins) and carry the role out."""

    role: Role


@attrs.frozen(cache_hash=True)
class TakePlot:
    """Surveyor: take a face-up plot of this kind onto an empty holding space."""

    good: Good


@attrs.frozen(cache_hash=True)
class TakeStonePit:
    """Surveyor: take a stone pit instead of a plot (the picker, or a staffed Stonecutter's Hut)."""


@attrs.frozen(cache_hash=True)
class DrawPlot:
    """Surveyor, staffed Farmstead: draw the top plot of the face-down stack and place it."""


@attrs.frozen(cache_hash=True)
class PlaceOnPlot:
    """Reeve: move an apprentice from the lodge onto an empty plot or stone pit of this kind."""

    kind: PlotKind


@attrs.frozen(cache_hash=True)
class PlaceOnBuilding:
    """Reeve: move an apprentice from the lodge onto an empty slot of this building."""

    building: Building


@attrs.frozen(cache_hash=True)
class TakeBackFromPlot:
    """Reeve: take an apprentice back from a plot or stone pit of this kind to the lodge."""

    kind: PlotKind


@attrs.frozen(cache_hash=True)
class TakeBackFromBuilding:
    """Reeve: take an apprentice back from this building to the lodge."""

    building: Building


@attrs.frozen(cache_hash=True)
class Build:
    """Mason: build this building on free high-street space."""

    building: Building


@attrs.frozen(cache_hash=True)
class TakeExtraGood:
    """Miller, the picker: take 1 more good of a kind made this phase."""

    good: Good


@attrs.frozen(cache_hash=True)
class Sell:
    """Chandler: sell 1 good of this kind to the market hall."""

    good: Good


@attrs.frozen(cache_hash=True)
class Load:
    """Bargemaster: load all goods of this kind that barge ``barge`` (0, 1, 2) can take."""

    good: Good
    barge: int


@attrs.frozen(cache_hash=True)
class ShipOnBoatyard:
    """Bargemaster, staffed Boatyard: ship all goods of this kind on your own boat."""

    good: Good


@attrs.frozen(cache_hash=True)
class StoreGoods:
    """After shipping: keep all goods of this kind in a staffed Cellar or Granary."""

    good: Good


@attrs.frozen(cache_hash=True)
class KeepGood:
    """After shipping: keep 1 good of this kind (the one good everyone keeps)."""

    good: Good


@attrs.frozen(cache_hash=True)
class Done:
    """Finish the Reeve arrangement, or the goods to keep after shipping."""


@attrs.frozen(cache_hash=True)
class Pass:
    """Let an optional action go (take no plot, build nothing, sell nothing, ...)."""


Action = (
    PickRole | TakePlot | TakeStonePit | DrawPlot | PlaceOnPlot | PlaceOnBuilding
    | TakeBackFromPlot | TakeBackFromBuilding | Build | TakeExtraGood | Sell | Load
    | ShipOnBoatyard | StoreGoods | KeepGood | Done | Pass
)

ACTION_TYPES: Final[tuple[type, ...]] = (
    PickRole, TakePlot, TakeStonePit, DrawPlot, PlaceOnPlot, PlaceOnBuilding,
    TakeBackFromPlot, TakeBackFromBuilding, Build, TakeExtraGood, Sell, Load,
    ShipOnBoatyard, StoreGoods, KeepGood, Done, Pass,
)

# Interned instances: the engine hands these out in its legal-action lists.
PICK: Final = tuple(PickRole(r) for r in ROLES)
TAKE_PLOT: Final = tuple(TakePlot(g) for g in GOODS)
TAKE_STONE_PIT: Final = TakeStonePit()
DRAW_PLOT: Final = DrawPlot()
PLACE_ON_PLOT: Final = tuple(PlaceOnPlot(k) for k in PLOT_KINDS)
PLACE_ON_BUILDING: Final = tuple(PlaceOnBuilding(b) for b in Building)
TAKE_BACK_FROM_PLOT: Final = tuple(TakeBackFromPlot(k) for k in PLOT_KINDS)
TAKE_BACK_FROM_BUILDING: Final = tuple(TakeBackFromBuilding(b) for b in Building)
BUILD: Final = tuple(Build(b) for b in Building)
TAKE_EXTRA_GOOD: Final = tuple(TakeExtraGood(g) for g in GOODS)
SELL: Final = tuple(Sell(g) for g in GOODS)
LOAD: Final = tuple(tuple(Load(g, i) for i in range(BARGES)) for g in GOODS)
SHIP_ON_BOATYARD: Final = tuple(ShipOnBoatyard(g) for g in GOODS)
STORE_GOODS: Final = tuple(StoreGoods(g) for g in GOODS)
KEEP_GOOD: Final = tuple(KeepGood(g) for g in GOODS)
DONE: Final = Done()
PASS: Final = Pass()

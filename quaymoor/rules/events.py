"""Events: what happened, in order, for the game log and for clients to animate.

Every event is public: anything hidden (a seat's seals, the stack order, the seed) never
appears in one. A seat learns its own seals from its view.
"""

from __future__ import annotations

import attrs

from quaymoor.rules.data import Building, Good, PlotKind, Role


@attrs.frozen
class RolePicked:
    seat: int
    role: Role
    coins: int


@attrs.frozen
class PlotTaken:
    seat: int
    kind: PlotKind
    from_stack: bool  #: drawn by a Farmstead
    with_apprentice: bool  #: an Almshouse put an apprentice on it


@attrs.frozen
class PlotsTurnedUp:
    goods: tuple[Good, ...]
    discarded: int
    reshuffled: bool


@attrs.frozen
class ApprenticesArrived:
    seat: int
    count: int
    from_barge: bool


@attrs.frozen
class ApprenticesArranged:
    seat: int


@attrs.frozen
class ApprenticeBargeRefilled:
    count: int


@attrs.frozen
class Built:
    seat: int
    building: Building
    price: int
    with_apprentice: bool  #: an Academy put an apprentice on it


@attrs.frozen
class GoodsMade:
    seat: int
    goods: tuple[int, int, int, int, int]  #: by Good


@attrs.frozen
class ExtraGoodTaken:
    seat: int
    good: Good


@attrs.frozen
class ManufactoryPaid:
    seat: int
    coins: int


@attrs.frozen
class Sold:
    seat: int
    good: Good
    coins: int


@attrs.frozen
class MarketHallEmptied:
    goods: tuple[Good, ...]


@attrs.frozen
class Loaded:
    seat: int
    good: Good
    count: int
    barge: int  #: 0-2, or -1 for the seat's own Boatyard boat


@attrs.frozen
class BargeEmptied:
    barge: int
    good: Good
    count: int


@attrs.frozen
class GoodsReturned:
    seat: int
    goods: tuple[int, int, int, int, int]  #: by Good, given back to the supply


@attrs.frozen
class CoinTaken:
    seat: int


@attrs.frozen
class Passed:
    seat: int
    role: Role


@attrs.frozen
class EndTriggered:
    reason: str  #: "seals", "apprentices" or "high_street"


@attrs.frozen
class RoundEnded:
    round: int
    next_warden: int


@attrs.frozen
class GameEnded:
    reasons: tuple[str, ...]
    winners: tuple[int, ...]


Event = (
    RolePicked | PlotTaken | PlotsTurnedUp | ApprenticesArrived | ApprenticesArranged
    | ApprenticeBargeRefilled | Built | GoodsMade | ExtraGoodTaken | ManufactoryPaid | Sold
    | MarketHallEmptied | Loaded | BargeEmptied | GoodsReturned | CoinTaken | Passed
    | EndTriggered | RoundEnded | GameEnded
)

"""The game's numbers, in one place.

Everything countable in ``shared/rules.md`` lives here as data: goods, roles, buildings,
supplies by player count. The engine, the bots, the web client's tooltips (through
``rules_catalogue()``) and the docs all read this module; nothing else repeats a number.

Goods, roles and buildings are small integers inside the engine (fast to copy and compare);
their names are the strings used on the wire.
"""

from __future__ import annotations

from enum import IntEnum, StrEnum
from typing import Any, Final

import attrs


class Good(IntEnum):
    """A kind of good, and of the plot that grows it."""

    CLAY = 0
    FLAX = 1
    WOOL = 2
    HONEY = 3
    AMBER = 4


GOODS: Final = tuple(Good)
#: Coins the market hall pays for each kind, before bonuses.
MARKET_PRICE: Final = (0, 1, 2, 3, 4)
MARKET_HALL_SPACES: Final = 4
HOLDING_SPACES: Final = 12
HIGH_STREET_SPACES: Final = 12
#: Barges on the canal; their capacities by player count are in ``SETUPS``.
BARGES: Final = 3


class EndTrigger(StrEnum):
    """Why the game ends at the end of the round (rules.md 4): ``board.end_reasons``."""

    SEALS = "seals"  #: the seal supply ran out
    APPRENTICES = "apprentices"  #: the apprentice barge could not be filled
    HIGH_STREET = "high_street"  #: a player filled the last space of their high street


class PlotKind(IntEnum):
    """What a holding space may hold: a plot of a good's kind, or a stone pit."""

    CLAY = 0
    FLAX = 1
    WOOL = 2
    HONEY = 3
    AMBER = 4
    STONE_PIT = 5


PLOT_KINDS: Final = tuple(PlotKind)


class Role(IntEnum):
    """The seven role cards, in table order."""

    SURVEYOR = 0
    REEVE = 1
    MASON = 2
    MILLER = 3
    CHANDLER = 4
    BARGEMASTER = 5
    PEDLAR = 6


ROLES: Final = tuple(Role)

#: What a role's picker gets besides what everyone gets (rules.md 3).
REEVE_PICKER_APPRENTICES: Final = 1
MASON_PICKER_DISCOUNT: Final = 1
BARGEMASTER_PICKER_SEALS: Final = 1  #: once per Bargemaster
PICKER_SALE_BONUS: Final = 1  #: the Chandler's picker: coins on top of a sale's price
PEDLAR_COINS: Final = 1
MILLER_PICKER_GOODS: Final = 1  #: of a kind the picker made this phase (miller.py's one)
#: Coins put on each role card nobody picked, at a round's end (they pile up).
UNPICKED_ROLE_COINS: Final = 1
#: Goods each player may sell in a Chandler (chandler.py offers one sale a turn).
CHANDLER_SALES: Final = 1
#: Coins a staffed stone pit takes off a building's price, up to its column (common.py's
#: price rule takes one per pit).
STONE_PIT_DISCOUNT: Final = 1
#: Seals for each good loaded on a barge or shipped by the Boatyard (bargemaster.py pays
#: one a good).
SEALS_PER_GOOD: Final = 1
#: Goods of one's choice everyone keeps after the Bargemaster, besides the kinds a staffed
#: Cellar or Granary keeps whole (bargemaster.py keeps exactly one).
KEPT_GOODS: Final = 1
#: About how long a game takes, for the How to play page (a guide, not a rule).
GAME_MINUTES: Final = 90

ROLE_TEXT: Final[dict[Role, str]] = {
    Role.SURVEYOR: "Everyone may take a plot for their holding. "
    "The picker may take a stone pit instead.",
    Role.REEVE: "New apprentices arrive, and everyone moves their apprentices. "
    f"The picker gets {REEVE_PICKER_APPRENTICES} apprentice first.",
    Role.MASON: f"Everyone may build one building. The picker pays {MASON_PICKER_DISCOUNT} coin "
    "less.",
    Role.MILLER: "Everyone makes goods with their working plots and workshops. "
    f"The picker makes {MILLER_PICKER_GOODS} more good.",
    Role.CHANDLER: f"Everyone may sell {CHANDLER_SALES} good to the market hall. "
    f"The picker gets {PICKER_SALE_BONUS} more coin for a sale.",
    Role.BARGEMASTER: "Everyone ships goods on the barges for seals. "
    f"The picker gets {BARGEMASTER_PICKER_SEALS} more seal, once.",
    Role.PEDLAR: f"Only the picker acts. The picker takes {PEDLAR_COINS} coin.",
}


@attrs.frozen
class PlayerCountSetup:
    """Components that depend on the number of players (rules.md section 1)."""

    players: int
    coins_each: int
    seals: int
    apprentices: int
    barge_apprentices: int
    barge_capacities: tuple[int, ...]  #: one per barge
    picks_per_round: int
    face_up_plots: int
    plots: tuple[int, int, int, int, int]  # by Good
    stone_pits: int
    goods: tuple[int, int, int, int, int]  # by Good
    starting_plots: tuple[Good, ...]  # from the first Warden, going left


def _setup(
    n: int, coins: int, seals: int, apprentices: int, start: tuple[Good, ...]
) -> PlayerCountSetup:
    two = n == 2
    return PlayerCountSetup(
        players=n,
        coins_each=coins,
        seals=seals,
        apprentices=apprentices,
        barge_apprentices=n,
        barge_capacities=tuple(n + 1 + i for i in range(BARGES)),
        picks_per_round=6 if two else n,
        face_up_plots=n + 1,
        plots=(7, 9, 8, 6, 5) if two else (10, 12, 11, 9, 8),
        stone_pits=5 if two else 8,
        goods=(8, 9, 9, 7, 7) if two else (10, 11, 11, 9, 9),
        starting_plots=start,
    )


_F, _C = Good.FLAX, Good.CLAY
SETUPS: Final[dict[int, PlayerCountSetup]] = {
    2: _setup(2, 3, 65, 40, (_F, _C)),
    3: _setup(3, 2, 75, 55, (_F, _F, _C)),
    4: _setup(4, 3, 100, 75, (_F, _F, _C, _C)),
    5: _setup(5, 4, 122, 95, (_F, _F, _F, _C, _C)),
}
MIN_PLAYERS: Final = 2
MAX_PLAYERS: Final = 5
ROLE_COUNT: Final = len(ROLES)


class Category(IntEnum):
    SMALL_WORKSHOP = 0
    LARGE_WORKSHOP = 1
    CIVIC = 2
    LARGE = 3


@attrs.frozen
class BuildingSpec:
    """One kind of building (rules.md section 2)."""

    index: int
    key: str  #: wire name, e.g. "flax_shed"
    name: str
    category: Category
    cost: int
    points: int  #: also the column: the most a stone-pit discount takes off
    slots: int
    copies: int  #: with 3-5 players
    copies_two: int  #: with 2 players
    good: Good | None  #: the kind a workshop makes
    role: Role | None  #: the role in which its effect works
    text: str

    @property
    def column(self) -> int:
        return self.points

    @property
    def spaces(self) -> int:
        return 2 if self.category is Category.LARGE else 1

    @property
    def is_workshop(self) -> bool:
        return self.category in (Category.SMALL_WORKSHOP, Category.LARGE_WORKSHOP)

    @property
    def is_civic(self) -> bool:
        """Civic buildings are all that are not workshops (the Moot Hall counts these)."""
        return not self.is_workshop

    def copies_for(self, players: int) -> int:
        return self.copies_two if players == 2 else self.copies


def _b(  # noqa: PLR0917 - one row of the buildings table
    key: str, name: str, cat: Category, cost: int, points: int, slots: int, copies: int,
    good: Good | None, role: Role | None, text: str,
) -> tuple[Any, ...]:
    two = 2 if cat in (Category.SMALL_WORKSHOP, Category.LARGE_WORKSHOP) else 1
    return (key, name, cat, cost, points, slots, copies, two, good, role, text)


_SW, _LW = Category.SMALL_WORKSHOP, Category.LARGE_WORKSHOP
_CV, _LG = Category.CIVIC, Category.LARGE
_R = Role
_ROWS: Final = (
    _b("flax_shed", "Flax Shed", _SW, 1, 1, 1, 4, Good.FLAX, _R.MILLER,
       "Workshop for flax: each staffed slot turns one staffed flax plot's crop into flax."),
    _b("wool_shed", "Wool Shed", _SW, 2, 1, 1, 4, Good.WOOL, _R.MILLER,
       "Workshop for wool: each staffed slot turns one staffed wool plot's crop into wool."),
    _b("flax_mill", "Flax Mill", _LW, 3, 2, 3, 3, Good.FLAX, _R.MILLER,
       "Workshop for flax with 3 slots: each staffed slot turns one staffed flax plot's "
       "crop into flax."),
    _b("wool_mill", "Wool Mill", _LW, 4, 2, 3, 3, Good.WOOL, _R.MILLER,
       "Workshop for wool with 3 slots: each staffed slot turns one staffed wool plot's "
       "crop into wool."),
    _b("honey_house", "Honey House", _LW, 5, 3, 3, 3, Good.HONEY, _R.MILLER,
       "Workshop for honey with 3 slots: each staffed slot turns one staffed honey plot's "
       "crop into honey."),
    _b("amber_works", "Amber Works", _LW, 6, 3, 2, 3, Good.AMBER, _R.MILLER,
       "Workshop for amber with 2 slots: each staffed slot turns one staffed amber plot's "
       "crop into amber."),
    _b("stall", "Stall", _CV, 1, 1, 1, 2, None, _R.CHANDLER, "Chandler: +1 coin when you sell."),
    _b("farmstead", "Farmstead", _CV, 2, 1, 1, 2, None, _R.SURVEYOR,
       "Surveyor: on your turn, before you choose, you may draw the top plot of the face-down "
       "stack and place it (it cannot be refused once drawn; the Almshouse gives it no "
       "apprentice)."),
    _b("stonecutters_hut", "Stonecutter's Hut", _CV, 2, 1, 1, 2, None, _R.SURVEYOR,
       "Surveyor: you may take a stone pit instead of a face-up plot."),
    _b("cellar", "Cellar", _CV, 3, 1, 1, 2, None, _R.BARGEMASTER,
       "Bargemaster: after loading, keep all goods of one kind besides the 1 good everyone "
       "keeps."),
    _b("almshouse", "Almshouse", _CV, 4, 2, 1, 2, None, _R.SURVEYOR,
       "Surveyor: when you take a plot or stone pit, put 1 apprentice from the supply on it "
       "(from the apprentice barge if the supply is empty; none if both are empty)."),
    _b("counting_house", "Counting House", _CV, 5, 2, 1, 2, None, _R.CHANDLER,
       "Chandler: you may sell a kind the market hall already holds."),
    _b("market_cross", "Market Cross", _CV, 5, 2, 1, 2, None, _R.CHANDLER,
       "Chandler: +2 coins when you sell."),
    _b("granary", "Granary", _CV, 6, 2, 1, 2, None, _R.BARGEMASTER,
       "Bargemaster: after loading, keep all goods of two kinds besides the 1 good (with a "
       "Cellar too: three kinds)."),
    _b("manufactory", "Manufactory", _CV, 7, 3, 1, 2, None, _R.MILLER,
       "Miller: after making goods, coins by the number of kinds you made: 2 kinds 1, "
       "3 kinds 2, 4 kinds 3, 5 kinds 5."),
    _b("academy", "Academy", _CV, 8, 3, 1, 2, None, _R.MASON,
       "Mason: when you build, put 1 apprentice from the supply on the new building (from the "
       "apprentice barge if the supply is empty)."),
    _b("lock_house", "Lock House", _CV, 8, 3, 1, 2, None, _R.BARGEMASTER,
       "Bargemaster: +1 seal each turn on which you load."),
    _b("boatyard", "Boatyard", _CV, 9, 3, 1, 2, None, _R.BARGEMASTER,
       "Bargemaster: once per Bargemaster, on a loading turn and instead of a barge, ship all "
       "your goods of one kind on your own boat (any kind, even one already on a barge): "
       "1 seal each, goods back to the supply."),
    _b("guildhall", "Guildhall", _LG, 10, 4, 1, 1, None, None,
       "End bonus, if staffed: +1 per small workshop (Flax Shed, Wool Shed), +2 per large "
       "workshop you own."),
    _b("manor", "Manor", _LG, 10, 4, 1, 1, None, None,
       "End bonus, if staffed: by filled holding spaces (plots and stone pits): up to 9: +4, "
       "10: +5, 11: +6, 12: +7."),
    _b("dormitory", "Dormitory", _LG, 10, 4, 1, 1, None, None,
       "End bonus, if staffed: +1 per 3 apprentices you have anywhere (lodge included), "
       "rounded down."),
    _b("toll_house", "Toll House", _LG, 10, 4, 1, 1, None, None,
       "End bonus, if staffed: +1 per 4 seals you have, rounded down."),
    _b("moot_hall", "Moot Hall", _LG, 10, 4, 1, 1, None, None,
       "End bonus, if staffed: +1 per civic building you own, itself included."),
)
BUILDINGS: Final[tuple[BuildingSpec, ...]] = tuple(
    BuildingSpec(i, *row) for i, row in enumerate(_ROWS)
)
BUILDING_BY_KEY: Final[dict[str, BuildingSpec]] = {b.key: b for b in BUILDINGS}


class Building(IntEnum):
    """Building kinds, in the order of rules.md section 2; ``BUILDINGS[b]`` is the spec."""

    FLAX_SHED = 0
    WOOL_SHED = 1
    FLAX_MILL = 2
    WOOL_MILL = 3
    HONEY_HOUSE = 4
    AMBER_WORKS = 5
    STALL = 6
    FARMSTEAD = 7
    STONECUTTERS_HUT = 8
    CELLAR = 9
    ALMSHOUSE = 10
    COUNTING_HOUSE = 11
    MARKET_CROSS = 12
    GRANARY = 13
    MANUFACTORY = 14
    ACADEMY = 15
    LOCK_HOUSE = 16
    BOATYARD = 17
    GUILDHALL = 18
    MANOR = 19
    DORMITORY = 20
    TOLL_HOUSE = 21
    MOOT_HALL = 22


BUILDING_KINDS: Final = tuple(Building)  #: by index, as ``GOODS`` is for goods


assert [b.name.lower() for b in Building] == [b.key for b in BUILDINGS]

BUILDING_COUNT: Final = len(BUILDINGS)
#: Manufactory pay by the number of kinds made (index = kinds).
MANUFACTORY_PAY: Final = (0, 0, 1, 2, 3, 5)
#: Manor bonus by filled holding spaces: up to 9 gives 4, then one more per space.
MANOR_BONUS_BASE: Final = 4
MANOR_BONUS_FROM: Final = 9
#: Workshops by the good they make (for production and the Guildhall).
WORKSHOPS_BY_GOOD: Final[dict[Good, tuple[int, ...]]] = {
    g: tuple(b.index for b in BUILDINGS if b.good is g) for g in GOODS
}
STALL_BONUS: Final = 1
MARKET_CROSS_BONUS: Final = 2
LARGE_BUILDING_COST: Final = 10
LOCK_HOUSE_SEALS: Final = 1  #: on each turn the owner loads
#: Kinds of goods kept whole after shipping, besides the 1 good everyone keeps.
CELLAR_KINDS: Final = 1
GRANARY_KINDS: Final = 2
#: End bonuses of the large buildings (rules.md 4).
GUILDHALL_SMALL_WORKSHOP_POINTS: Final = 1
GUILDHALL_LARGE_WORKSHOP_POINTS: Final = 2
DORMITORY_APPRENTICES_PER_POINT: Final = 3
TOLL_HOUSE_SEALS_PER_POINT: Final = 4


def _plot_text(kind: PlotKind) -> str:
    if kind is PlotKind.STONE_PIT:
        return ("Stone pit: with an apprentice on it, buildings cost you 1 coin less, up to "
                "the building's price column.")
    good = Good(kind)
    name = good.name.lower()
    pays = f"The market hall pays {MARKET_PRICE[good]} for {name}."
    if good is Good.CLAY:
        return f"Clay plot: with an apprentice on it, it makes clay for the Miller. {pays}"
    shops = " or ".join(BUILDINGS[b].name for b in WORKSHOPS_BY_GOOD[good])
    return (f"{name.title()} plot: with an apprentice on it and a staffed workshop slot ({shops}), "
            f"it makes {name} for the Miller. {pays}")


PLOT_TEXT: Final[dict[PlotKind, str]] = {k: _plot_text(k) for k in PLOT_KINDS}


def rules_catalogue() -> dict[str, Any]:
    """The rules data as plain JSON-ready values, for tooltips and docs."""
    return {
        "goods": [
            {"key": g.name.lower(), "price": MARKET_PRICE[g]} for g in GOODS
        ],
        "plots": [{"key": k.name.lower(), "text": PLOT_TEXT[k]} for k in PLOT_KINDS],
        "roles": [
            {"key": r.name.lower(), "name": r.name.title(), "text": ROLE_TEXT[r]} for r in ROLES
        ],
        "buildings": [
            {
                "key": b.key,
                "name": b.name,
                "category": b.category.name.lower(),
                "cost": b.cost,
                "points": b.points,
                "column": b.column,
                "slots": b.slots,
                "spaces": b.spaces,
                "copies": b.copies,
                "copies_two_players": b.copies_two,
                "good": b.good.name.lower() if b.good is not None else None,
                "role": b.role.name.lower() if b.role is not None else None,
                "text": b.text,
            }
            for b in BUILDINGS
        ],
        "limits": {
            "holding_spaces": HOLDING_SPACES,
            "high_street_spaces": HIGH_STREET_SPACES,
            "market_hall_spaces": MARKET_HALL_SPACES,
            "barges": BARGES,
            "min_players": MIN_PLAYERS,
            "max_players": MAX_PLAYERS,
            "role_cards": ROLE_COUNT,
        },
        "amounts": {
            "unpicked_role_coins": UNPICKED_ROLE_COINS,
            "reeve_picker_apprentices": REEVE_PICKER_APPRENTICES,
            "mason_picker_discount": MASON_PICKER_DISCOUNT,
            "miller_picker_goods": MILLER_PICKER_GOODS,
            "chandler_picker_coins": PICKER_SALE_BONUS,
            "bargemaster_picker_seals": BARGEMASTER_PICKER_SEALS,
            "pedlar_coins": PEDLAR_COINS,
            "chandler_sales": CHANDLER_SALES,
            "stone_pit_discount": STONE_PIT_DISCOUNT,
            "seals_per_good": SEALS_PER_GOOD,
            "kept_goods": KEPT_GOODS,
            "stall_coins": STALL_BONUS,
            "market_cross_coins": MARKET_CROSS_BONUS,
            "lock_house_seals": LOCK_HOUSE_SEALS,
            "cellar_kinds": CELLAR_KINDS,
            "granary_kinds": GRANARY_KINDS,
            "game_minutes": GAME_MINUTES,
        },
        "setups": {
            str(n): attrs.asdict(s, value_serializer=lambda _i, _a, v: (
                v.name.lower() if isinstance(v, Good) else v))
            for n, s in SETUPS.items()
        },
    }

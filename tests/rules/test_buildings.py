"""Every building (rules.md section 2): its effect staffed and unstaffed, prices and
discounts, one of each, copies, large buildings and their end bonuses."""

from __future__ import annotations

import pytest

from quaymoor.rules.actions import (
    DONE,
    DRAW_PLOT,
    PASS,
    SELL,
    SHIP_ON_BOATYARD,
    TAKE_PLOT,
    TAKE_STONE_PIT,
    Build,
    KeepGood,
    Load,
    Sell,
    ShipOnBoatyard,
    StoreGoods,
    TakePlot,
)
from quaymoor.rules.data import BUILDINGS, GOODS, Building, Category, Good, PlotKind, Role
from quaymoor.rules.errors import IllegalAction
from quaymoor.rules.events import ManufactoryPaid
from quaymoor.rules.state import GameState, Phase
from tests.rules.builders import (
    act,
    clear_all,
    deciding,
    events_of,
    fill_street,
    finish_phase,
    fresh,
    legal,
    mat,
    score_of,
    start_role,
)

C, F, W, H, A = Good.CLAY, Good.FLAX, Good.WOOL, Good.HONEY, Good.AMBER
B = Building


def _bare(n: int = 3) -> GameState:
    s = fresh(n)
    clear_all(s)
    return s


# --------------------------------------------------------------------------- the table


@pytest.mark.parametrize(
    ("b", "cost", "points", "slots", "copies"),
    [
        (B.FLAX_SHED, 1, 1, 1, 4), (B.WOOL_SHED, 2, 1, 1, 4), (B.FLAX_MILL, 3, 2, 3, 3),
        (B.WOOL_MILL, 4, 2, 3, 3), (B.HONEY_HOUSE, 5, 3, 3, 3), (B.AMBER_WORKS, 6, 3, 2, 3),
        (B.STALL, 1, 1, 1, 2), (B.FARMSTEAD, 2, 1, 1, 2), (B.STONECUTTERS_HUT, 2, 1, 1, 2),
        (B.CELLAR, 3, 1, 1, 2), (B.ALMSHOUSE, 4, 2, 1, 2), (B.COUNTING_HOUSE, 5, 2, 1, 2),
        (B.MARKET_CROSS, 5, 2, 1, 2), (B.GRANARY, 6, 2, 1, 2), (B.MANUFACTORY, 7, 3, 1, 2),
        (B.ACADEMY, 8, 3, 1, 2), (B.LOCK_HOUSE, 8, 3, 1, 2), (B.BOATYARD, 9, 3, 1, 2),
        (B.GUILDHALL, 10, 4, 1, 1), (B.MANOR, 10, 4, 1, 1), (B.DORMITORY, 10, 4, 1, 1),
        (B.TOLL_HOUSE, 10, 4, 1, 1), (B.MOOT_HALL, 10, 4, 1, 1),
    ],
)
def test_building_table(b: Building, cost: int, points: int, slots: int, copies: int) -> None:
    spec = BUILDINGS[b]
    assert (spec.cost, spec.points, spec.column, spec.slots) == (cost, points, points, slots)
    assert spec.spaces == (2 if cost == 10 else 1)
    for n in (3, 4, 5):
        assert fresh(n).copies[b] == copies
    two = 2 if spec.is_workshop else 1
    assert fresh(2).copies[b] == two


# --------------------------------------------------------------------------- workshops


def _miller(s: GameState, picker: int = 0) -> None:
    start_role(s, picker, Role.MILLER)
    finish_phase(s)


@pytest.mark.parametrize(
    ("b", "good"),
    [
        (B.FLAX_SHED, F), (B.WOOL_SHED, W), (B.FLAX_MILL, F), (B.WOOL_MILL, W),
        (B.HONEY_HOUSE, H), (B.AMBER_WORKS, A),
    ],
)
def test_workshop_makes_the_smaller_of_staffed_plots_and_staffed_slots(
    b: Building, good: Good
) -> None:
    slots = BUILDINGS[b].slots
    kind = PlotKind(good)
    for staff in range(slots + 1):
        for worked in range(4):
            s = _bare()
            mat(s, 1, plots={kind: 3}, worked={kind: worked}, buildings={b: staff})
            _miller(s)
            assert s.players[1].goods[good] == min(worked, staff), (staff, worked)
            assert sum(s.players[1].goods) == min(worked, staff)


def test_workshops_of_one_kind_add_their_slots() -> None:
    s = _bare()
    mat(s, 1, plots={PlotKind.FLAX: 5}, worked={PlotKind.FLAX: 5},
        buildings={B.FLAX_SHED: 1, B.FLAX_MILL: 3})
    _miller(s)
    assert s.players[1].goods[F] == 4


def test_a_workshop_of_another_kind_makes_nothing() -> None:
    s = _bare()
    mat(s, 1, plots={PlotKind.HONEY: 2}, worked={PlotKind.HONEY: 2},
        buildings={B.WOOL_MILL: 3, B.AMBER_WORKS: 2})
    _miller(s)
    assert s.players[1].goods == [0] * 5


def test_clay_needs_only_its_staffed_plot() -> None:
    s = _bare()
    mat(s, 1, plots={PlotKind.CLAY: 4}, worked={PlotKind.CLAY: 3})
    _miller(s)
    assert s.players[1].goods == [3, 0, 0, 0, 0]


# --------------------------------------------------------------------------- Chandler


@pytest.mark.parametrize(
    ("good", "staff", "is_picker", "coins"),
    [
        (W, {}, False, 2),
        (W, {}, True, 3),
        (W, {B.STALL: 1}, False, 3),
        (W, {B.STALL: 0}, False, 2),
        (W, {B.MARKET_CROSS: 1}, False, 4),
        (W, {B.MARKET_CROSS: 0}, False, 2),
        (A, {B.STALL: 1, B.MARKET_CROSS: 1}, True, 4 + 1 + 1 + 2),
        (C, {}, False, 0),
        (C, {B.STALL: 1}, True, 2),
        (F, {}, False, 1),
        (H, {}, False, 3),
        (A, {}, False, 4),
    ],
)
def test_sale_price(good: Good, staff: dict[Building, int], is_picker: bool, coins: int) -> None:
    s = _bare()
    mat(s, 1, goods={good: 2}, buildings=staff)
    start_role(s, 1 if is_picker else 0, Role.CHANDLER)
    assert deciding(s) == (1,)
    act(s, 1, SELL[good])
    assert s.players[1].coins == coins
    assert s.players[1].goods[good] == 1
    assert s.hall == [good]


@pytest.mark.parametrize(("staff", "may"), [(1, True), (0, False), (None, False)])
def test_counting_house_sells_a_kind_the_hall_holds(staff: int | None, may: bool) -> None:
    s = _bare()
    s.hall = [W]
    mat(s, 1, goods={W: 2, H: 1}, buildings={B.COUNTING_HOUSE: staff} if staff is not None
        else {})
    start_role(s, 0, Role.CHANDLER)
    assert (SELL[W] in legal(s, 1)) is may
    assert SELL[H] in legal(s, 1)
    if may:
        act(s, 1, Sell(W))
        assert s.hall == [W, W]
        assert s.players[1].coins == 2
    else:
        with pytest.raises(IllegalAction, match="already holds wool"):
            act(s, 1, Sell(W))


# --------------------------------------------------------------------------- Surveyor


@pytest.mark.parametrize("staff", [1, 0])
def test_farmstead_draws_the_top_plot_then_the_player_still_chooses(staff: int) -> None:
    s = _bare()
    s.face_up = [C, F]
    s.stack = [A, H, W]
    mat(s, 1, buildings={B.FARMSTEAD: staff})
    start_role(s, 0, Role.SURVEYOR)
    act(s, 0, PASS)
    assert deciding(s) == (1,)
    if not staff:
        assert DRAW_PLOT not in legal(s, 1)
        with pytest.raises(IllegalAction, match="Farmstead"):
            act(s, 1, DRAW_PLOT)
        return
    assert legal(s, 1) == [DRAW_PLOT, TAKE_PLOT[C], TAKE_PLOT[F], PASS]
    act(s, 1, DRAW_PLOT)
    assert s.players[1].plots[A] == 1
    assert s.stack == [H, W]
    assert deciding(s) == (1,)  # still this player's turn: now they choose
    assert legal(s, 1) == [TAKE_PLOT[C], TAKE_PLOT[F], PASS]  # one draw only
    act(s, 1, TakePlot(F))
    assert s.players[1].plots[:5] == [0, 1, 0, 0, 1]
    assert deciding(s) == (2,)


def test_farmstead_plot_cannot_be_refused() -> None:
    s = _bare()
    s.stack = [H, W]
    mat(s, 1, buildings={B.FARMSTEAD: 1})
    start_role(s, 1, Role.SURVEYOR)
    act(s, 1, DRAW_PLOT)
    act(s, 1, PASS)
    assert s.players[1].plots[H] == 1
    assert H not in s.discard


def test_farmstead_fills_the_last_holding_space_and_ends_the_turn() -> None:
    s = _bare()
    s.stack = [H, W]
    s.face_up = [C, F, W, A]
    mat(s, 1, plots={PlotKind.CLAY: 11}, buildings={B.FARMSTEAD: 1})
    start_role(s, 0, Role.SURVEYOR)
    act(s, 0, PASS)
    act(s, 1, DRAW_PLOT)
    assert sum(s.players[1].plots) == 12
    assert deciding(s) == (2,)


@pytest.mark.parametrize(("staff", "may"), [(1, True), (0, False), (None, False)])
def test_stonecutters_hut_lets_a_non_picker_take_a_stone_pit(staff: int | None,
                                                             may: bool) -> None:
    s = _bare()
    mat(s, 2, buildings={B.STONECUTTERS_HUT: staff} if staff is not None else {})
    start_role(s, 1, Role.SURVEYOR)
    act(s, 1, PASS)
    assert (TAKE_STONE_PIT in legal(s, 2)) is may
    if may:
        act(s, 2, TAKE_STONE_PIT)
        assert s.players[2].plots[PlotKind.STONE_PIT] == 1
        assert s.stone_pits == 7


@pytest.mark.parametrize("take", ["plot", "pit"])
def test_almshouse_staffs_a_taken_plot_or_stone_pit(take: str) -> None:
    s = _bare()
    s.face_up = [H, C, F, W]
    supply = s.supply_apprentices
    barge = s.apprentice_barge
    mat(s, 1, buildings={B.ALMSHOUSE: 1})
    start_role(s, 1, Role.SURVEYOR)
    if take == "plot":
        act(s, 1, TakePlot(H))
        kind = PlotKind.HONEY
    else:
        act(s, 1, TAKE_STONE_PIT)
        kind = PlotKind.STONE_PIT
    p = s.players[1]
    assert p.plots[kind] == 1 and p.worked[kind] == 1
    assert s.supply_apprentices == supply - 1
    assert s.apprentice_barge == barge


def test_unstaffed_almshouse_gives_nothing() -> None:
    s = _bare()
    s.face_up = [H, C, F, W]
    supply = s.supply_apprentices
    mat(s, 1, buildings={B.ALMSHOUSE: 0})
    start_role(s, 1, Role.SURVEYOR)
    act(s, 1, TakePlot(H))
    assert s.players[1].worked[PlotKind.HONEY] == 0
    assert s.supply_apprentices == supply


def test_almshouse_gives_no_apprentice_to_a_farmstead_plot() -> None:
    s = _bare()
    s.stack = [A, W]
    s.face_up = [H]
    supply = s.supply_apprentices
    mat(s, 1, buildings={B.ALMSHOUSE: 1, B.FARMSTEAD: 1})
    start_role(s, 1, Role.SURVEYOR)
    act(s, 1, DRAW_PLOT)
    assert s.players[1].plots[A] == 1 and s.players[1].worked[A] == 0
    assert s.supply_apprentices == supply
    act(s, 1, TakePlot(H))
    assert s.players[1].worked[H] == 1
    assert s.supply_apprentices == supply - 1


# --------------------------------------------------------------------------- Miller


@pytest.mark.parametrize(("kinds", "pay"), [(0, 0), (1, 0), (2, 1), (3, 2), (4, 3), (5, 5)])
@pytest.mark.parametrize("picker", [0, 1])
def test_manufactory_pays_by_kinds_made(kinds: int, pay: int, picker: int) -> None:
    s = _bare()
    shops = {F: B.FLAX_SHED, W: B.WOOL_SHED, H: B.HONEY_HOUSE, A: B.AMBER_WORKS}
    for g in GOODS[:kinds]:
        mat(s, 1, plots={PlotKind(g): 2}, worked={PlotKind(g): 2})
        if g in shops:
            mat(s, 1, buildings={shops[g]: 1})
    mat(s, 1, coins=0, buildings={B.MANUFACTORY: 1})
    _miller(s, picker)
    assert sum(1 for g in GOODS if s.players[1].goods[g]) == kinds
    assert s.players[1].coins == pay
    assert events_of(s, ManufactoryPaid) == ([ManufactoryPaid(1, pay)] if pay else [])


def test_unstaffed_manufactory_pays_nothing() -> None:
    s = _bare()
    mat(s, 1, plots={PlotKind.CLAY: 1, PlotKind.FLAX: 1},
        worked={PlotKind.CLAY: 1, PlotKind.FLAX: 1},
        buildings={B.FLAX_SHED: 1, B.MANUFACTORY: 0})
    _miller(s)
    assert s.players[1].goods[:2] == [1, 1]
    assert s.players[1].coins == 0


def test_manufactory_counts_only_kinds_actually_made() -> None:
    s = _bare()
    s.supply_goods[F] = 0
    mat(s, 1, plots={PlotKind.CLAY: 1, PlotKind.FLAX: 1},
        worked={PlotKind.CLAY: 1, PlotKind.FLAX: 1},
        buildings={B.FLAX_SHED: 1, B.MANUFACTORY: 1})
    _miller(s)
    assert s.players[1].goods[:2] == [1, 0]
    assert s.players[1].coins == 0


def test_manufactory_counts_kinds_made_this_phase_not_goods_held() -> None:
    s = _bare()
    mat(s, 1, goods={H: 2, A: 1, W: 3}, plots={PlotKind.CLAY: 1, PlotKind.FLAX: 1},
        worked={PlotKind.CLAY: 1, PlotKind.FLAX: 1},
        buildings={B.FLAX_SHED: 1, B.MANUFACTORY: 1})
    _miller(s)
    assert s.players[1].goods == [1, 1, 3, 2, 1]
    assert s.players[1].coins == 1  # 2 kinds made


def test_manufactory_pays_after_the_pickers_extra_good() -> None:
    s = _bare()
    mat(s, 1, plots={PlotKind.CLAY: 1, PlotKind.WOOL: 1},
        worked={PlotKind.CLAY: 1, PlotKind.WOOL: 1},
        buildings={B.WOOL_SHED: 1, B.MANUFACTORY: 1})
    start_role(s, 1, Role.MILLER)
    assert s.players[1].coins == 0  # not yet: the extra good comes first
    act(s, 1, PASS)
    assert s.players[1].coins == 1


# --------------------------------------------------------------------------- Mason


def _mason_turn(s: GameState, seat: int, *, picker: bool, check: bool = True) -> bool:
    """Start a Mason and bring the turn to ``seat`` (the picker, or the next seat).
    Returns whether ``seat`` has the turn (it has no turn when it has nothing to build)."""
    if picker:
        start_role(s, seat, Role.MASON)
    else:
        start_role(s, seat - 1, Role.MASON)
        if deciding(s) == (seat - 1,) and s.phase is Phase.MASON:
            act(s, seat - 1, PASS)
    reached = s.phase is Phase.MASON and deciding(s) == (seat,)
    if check:
        assert reached
    return reached


@pytest.mark.parametrize(
    ("b", "pits", "worked", "is_picker", "price"),
    [
        (B.FLAX_SHED, 0, 0, False, 1),
        (B.FLAX_SHED, 0, 0, True, 0),
        (B.FLAX_SHED, 3, 3, False, 0),  # column 1
        (B.FLAX_SHED, 3, 3, True, 0),  # never below 0
        (B.WOOL_SHED, 3, 3, False, 1),  # column 1
        (B.WOOL_SHED, 3, 3, True, 0),
        (B.HONEY_HOUSE, 4, 4, False, 2),  # column 3
        (B.HONEY_HOUSE, 4, 4, True, 1),
        (B.HONEY_HOUSE, 4, 2, False, 3),  # only staffed pits count
        (B.HONEY_HOUSE, 4, 0, True, 4),
        (B.BOATYARD, 5, 5, False, 6),  # column 3
        (B.ACADEMY, 2, 2, True, 5),
        (B.GUILDHALL, 6, 6, False, 6),  # column 4
        (B.GUILDHALL, 6, 6, True, 5),
        (B.MOOT_HALL, 1, 1, False, 9),
        (B.MANOR, 0, 0, True, 9),
    ],
)
def test_price_with_stone_pits_and_the_picker(
    b: Building, pits: int, worked: int, is_picker: bool, price: int
) -> None:
    for coins in (price, price - 1):
        if coins < 0:
            continue
        s = _bare(4)
        mat(s, 2, coins=coins, plots={PlotKind.STONE_PIT: pits},
            worked={PlotKind.STONE_PIT: worked})
        if coins < price:
            if not _mason_turn(s, 2, picker=is_picker, check=False):
                # nothing at all to build: the seat is passed over
                assert s.players[2].street == []
                assert s.players[2].coins == coins
                continue
            assert Build(b) not in legal(s, 2)
            with pytest.raises(IllegalAction, match=f"costs you {price} coins"):
                act(s, 2, Build(b))
            continue
        _mason_turn(s, 2, picker=is_picker)
        assert Build(b) in legal(s, 2)
        act(s, 2, Build(b))
        assert s.players[2].coins == 0
        assert s.players[2].street == [b]
        assert s.players[2].staff[b] == 0


def test_one_of_each_building() -> None:
    s = _bare()
    mat(s, 1, coins=20, buildings={B.STALL: 0})
    _mason_turn(s, 1, picker=True)
    assert Build(B.STALL) not in legal(s, 1)
    with pytest.raises(IllegalAction, match="already own"):
        act(s, 1, Build(B.STALL))
    act(s, 1, Build(B.CELLAR))
    assert s.players[1].street == [B.STALL, B.CELLAR]
    assert legal(s, 1) == []  # one building per Mason: the turn has moved on


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_copies_run_out(n: int) -> None:
    s = _bare(n)
    for seat in range(n):
        mat(s, seat, coins=20)
    start_role(s, 0, Role.MASON)
    civic = 1 if n == 2 else 2
    shed = 2 if n == 2 else 4
    built = {B.LOCK_HOUSE: 0, B.FLAX_SHED: 0}
    for seat in range(n):
        assert deciding(s) == (seat,)
        if built[B.LOCK_HOUSE] < civic:
            act(s, seat, Build(B.LOCK_HOUSE))
            built[B.LOCK_HOUSE] += 1
        else:
            assert Build(B.LOCK_HOUSE) not in legal(s, seat)
            with pytest.raises(IllegalAction, match="no Lock House is left"):
                act(s, seat, Build(B.LOCK_HOUSE))
            act(s, seat, Build(B.FLAX_SHED))
            built[B.FLAX_SHED] += 1
    assert s.copies[B.LOCK_HOUSE] == 0
    assert s.copies[B.FLAX_SHED] == shed - built[B.FLAX_SHED]


def test_two_player_workshop_copies() -> None:
    s = _bare(2)
    mat(s, 1, buildings={B.AMBER_WORKS: 0})
    mat(s, 0, coins=20)
    start_role(s, 0, Role.MASON)
    act(s, 0, Build(B.AMBER_WORKS))  # the second and last copy
    assert s.copies[B.AMBER_WORKS] == 0
    s2 = _bare(2)
    mat(s2, 0, coins=20, buildings={B.MOOT_HALL: 0})
    mat(s2, 1, coins=20)
    start_role(s2, 1, Role.MASON)
    assert Build(B.MOOT_HALL) not in legal(s2, 1)
    assert Build(B.GUILDHALL) in legal(s2, 1)


@pytest.mark.parametrize("large", [B.GUILDHALL, B.MANOR, B.DORMITORY, B.TOLL_HOUSE,
                                   B.MOOT_HALL])
def test_large_building_takes_two_spaces(large: Building) -> None:
    s = _bare()
    fill_street(s, 1, 9)
    mat(s, 1, coins=10)
    _mason_turn(s, 1, picker=False)
    act(s, 1, Build(large))
    assert s.players[1].street[-1] == large
    assert not s.end_reasons  # 11 of 12 spaces
    # next Mason: one space left, no large building fits; a small one does
    finish_phase(s)
    mat(s, 1, coins=20)
    _mason_turn(s, 1, picker=False)
    options = legal(s, 1)
    assert not any(isinstance(a, Build) and BUILDINGS[a.building].spaces == 2
                   for a in options)
    assert Build(B.ACADEMY) in options


@pytest.mark.parametrize(("staff", "helped"), [(1, True), (0, False)])
def test_academy_staffs_the_new_building(staff: int, helped: bool) -> None:
    s = _bare()
    supply = s.supply_apprentices
    mat(s, 1, coins=10, buildings={B.ACADEMY: staff})
    _mason_turn(s, 1, picker=True)
    act(s, 1, Build(B.HONEY_HOUSE))
    assert s.players[1].staff[B.HONEY_HOUSE] == (1 if helped else 0)
    assert s.supply_apprentices == supply - (1 if helped else 0)


def test_academy_does_not_staff_itself() -> None:
    s = _bare()
    supply = s.supply_apprentices
    mat(s, 1, coins=10)
    _mason_turn(s, 1, picker=True)
    act(s, 1, Build(B.ACADEMY))
    assert s.players[1].staff[B.ACADEMY] == 0
    assert s.supply_apprentices == supply


# --------------------------------------------------------------------------- Bargemaster


def _block_barges(s: GameState, kinds: tuple[Good, Good, Good] = (C, H, A)) -> None:
    """Every barge full with these kinds: nobody can load them nor start a barge."""
    s.barge_good = [int(k) for k in kinds]
    s.barge_load = list(s.barge_capacity)


@pytest.mark.parametrize(("staff", "bonus"), [(1, 1), (0, 0)])
def test_lock_house_adds_a_seal_each_loading_turn(staff: int, bonus: int) -> None:
    s = _bare()  # barges 4, 5, 6
    mat(s, 1, goods={F: 2, W: 3}, buildings={B.LOCK_HOUSE: staff})
    mat(s, 2, goods={C: 1})
    start_role(s, 0, Role.BARGEMASTER)
    act(s, 1, Load(F, 0))
    act(s, 2, Load(C, 1))
    act(s, 1, Load(W, 2))
    assert s.players[1].seals == 2 + 3 + 2 * bonus
    assert s.players[2].seals == 1


@pytest.mark.parametrize("staff", [1, 0, None])
def test_boatyard_ships_all_of_a_kind_once_per_bargemaster(staff: int | None) -> None:
    s = _bare()
    supply = s.supply_goods[:]
    mat(s, 1, goods={H: 8, W: 2}, buildings={B.BOATYARD: staff} if staff is not None else {})
    start_role(s, 0, Role.BARGEMASTER)
    options = legal(s, 1)
    assert (SHIP_ON_BOATYARD[H] in options) is (staff == 1)
    assert (SHIP_ON_BOATYARD[W] in options) is (staff == 1)
    if staff != 1:
        with pytest.raises(IllegalAction, match="Boatyard"):
            act(s, 1, ShipOnBoatyard(H))
        return
    act(s, 1, ShipOnBoatyard(H))
    assert s.players[1].goods[H] == 0
    assert s.players[1].seals == 8
    assert s.supply_goods[H] == supply[H] + 8
    assert s.barge_good == [-1, -1, -1]
    # the next loading turn: barges only
    assert legal(s, 1) == [Load(W, 0), Load(W, 1), Load(W, 2)]
    act(s, 1, Load(W, 0))
    assert s.players[1].seals == 10


def test_boatyard_counts_for_the_pickers_seal_and_lock_house() -> None:
    s = _bare()
    mat(s, 1, goods={A: 3}, buildings={B.BOATYARD: 1, B.LOCK_HOUSE: 1})
    start_role(s, 1, Role.BARGEMASTER)
    act(s, 1, ShipOnBoatyard(A))
    assert s.players[1].seals == 3 + 1 + 1


def _to_keep(s: GameState) -> None:
    _block_barges(s)
    start_role(s, 0, Role.BARGEMASTER)


@pytest.mark.parametrize(
    ("staff", "stores"),
    [({}, 0), ({B.CELLAR: 1}, 1), ({B.CELLAR: 0}, 0), ({B.GRANARY: 1}, 2),
     ({B.GRANARY: 0, B.CELLAR: 1}, 1), ({B.GRANARY: 1, B.CELLAR: 1}, 3)],
)
def test_cellar_and_granary_keep_whole_kinds(staff: dict[Building, int], stores: int) -> None:
    s = _bare()
    held = {F: 3, W: 4, H: 2, A: 5}
    mat(s, 1, goods=held, buildings=staff)
    supply = s.supply_goods[:]
    _to_keep(s)
    assert s.phase is Phase.KEEP_GOODS
    assert deciding(s) == (1,)
    order = [A, W, F, H]
    for g in order[:stores]:
        assert StoreGoods(g) in legal(s, 1)
        act(s, 1, StoreGoods(g))
    assert not any(isinstance(a, StoreGoods) for a in legal(s, 1))
    act(s, 1, KeepGood(order[stores]))
    assert s.phase is Phase.PICK_ROLE
    kept = {g: held[g] for g in order[:stores]}
    kept[order[stores]] = 1
    assert s.players[1].goods == [kept.get(g, 0) for g in GOODS]
    for g in (F, W, H, A):
        assert s.supply_goods[g] == supply[g] + held[g] - kept.get(g, 0) + (
            s.barge_capacity[2] if g is A else s.barge_capacity[1] if g is H else 0)


def test_keep_goods_done_without_keeping_loses_them() -> None:
    s = _bare()
    mat(s, 1, goods={F: 2, W: 1})
    _to_keep(s)
    assert set(legal(s, 1)) == {KeepGood(F), KeepGood(W), DONE}
    act(s, 1, DONE)
    assert s.players[1].goods == [0] * 5


# --------------------------------------------------------------------------- end bonuses


def _owner(buildings: dict[Building, int], **kw: object) -> GameState:
    s = _bare()
    mat(s, 0, buildings=buildings, **kw)  # type: ignore[arg-type]
    return s


def test_buildings_score_points_staffed_or_not() -> None:
    s = _owner({B.FLAX_SHED: 0, B.HONEY_HOUSE: 0, B.BOATYARD: 1, B.MANOR: 0}, seals=5)
    sc = score_of(s, 0)
    assert sc.building_points == 1 + 3 + 3 + 4
    assert sc.bonuses == {}
    assert sc.total == 5 + 11


@pytest.mark.parametrize(("staff", "bonus"), [(1, 1 + 1 + 2 + 2 + 2), (0, 0)])
def test_guildhall_bonus(staff: int, bonus: int) -> None:
    s = _owner({B.FLAX_SHED: 0, B.WOOL_SHED: 1, B.FLAX_MILL: 0, B.HONEY_HOUSE: 3,
                B.AMBER_WORKS: 0, B.STALL: 1, B.GUILDHALL: staff})
    sc = score_of(s, 0)
    assert sc.bonuses == ({"guildhall": bonus} if staff else {})
    assert sc.total == (1 + 1 + 2 + 3 + 3 + 1 + 4) + bonus


@pytest.mark.parametrize(("filled", "bonus"), [(0, 4), (5, 4), (9, 4), (10, 5), (11, 6),
                                               (12, 7)])
def test_manor_bonus_by_filled_holding_spaces(filled: int, bonus: int) -> None:
    pits = min(filled, 3)
    s = _owner({B.MANOR: 1},
               plots={PlotKind.STONE_PIT: pits, PlotKind.WOOL: filled - pits})
    assert score_of(s, 0).bonuses == {"manor": bonus}
    assert score_of(s, 0).total == 4 + bonus
    s.players[0].staff[B.MANOR] = 0
    assert score_of(s, 0).total == 4


@pytest.mark.parametrize(("lodge", "bonus"), [(0, 1), (1, 2), (2, 2), (3, 2), (4, 3)])
def test_dormitory_counts_apprentices_anywhere_lodge_included(lodge: int, bonus: int) -> None:
    # on the Dormitory 1, Stall 1, Flax Mill 2, plots 1 = 5, + the lodge
    s = _owner({B.DORMITORY: 1, B.STALL: 1, B.FLAX_MILL: 2},
               plots={PlotKind.FLAX: 2}, worked={PlotKind.FLAX: 1}, lodge=lodge)
    assert score_of(s, 0).bonuses == {"dormitory": bonus}


@pytest.mark.parametrize(("seals", "bonus"), [(0, 0), (3, 0), (4, 1), (11, 2), (12, 3)])
def test_toll_house_bonus_by_seals(seals: int, bonus: int) -> None:
    s = _owner({B.TOLL_HOUSE: 1}, seals=seals)
    sc = score_of(s, 0)
    assert sc.bonuses == {"toll_house": bonus}
    assert sc.total == seals + 4 + bonus


def test_moot_hall_counts_civic_buildings_itself_included() -> None:
    s = _owner({B.MOOT_HALL: 1, B.STALL: 0, B.CELLAR: 1, B.BOATYARD: 0,
                B.FLAX_SHED: 1, B.HONEY_HOUSE: 0})
    assert score_of(s, 0).bonuses == {"moot_hall": 4}
    # the engine counts every building that is not a workshop as civic: large ones too
    mat(s, 0, buildings={B.GUILDHALL: 0})
    assert score_of(s, 0).bonuses == {"moot_hall": 5}
    s.players[0].staff[B.MOOT_HALL] = 0
    assert score_of(s, 0).bonuses == {}


def test_several_large_buildings_each_score_their_bonus() -> None:
    s = _owner({B.TOLL_HOUSE: 1, B.MOOT_HALL: 1, B.MANOR: 0}, seals=8)
    sc = score_of(s, 0)
    assert sc.bonuses == {"toll_house": 2, "moot_hall": 3}
    assert sc.total == 8 + 12 + 5


def test_civic_means_not_a_workshop() -> None:
    civic = [b for b in BUILDINGS if b.is_civic]
    assert all(b.category in (Category.CIVIC, Category.LARGE) for b in civic)
    assert len(civic) == 12 + 5


@pytest.mark.parametrize("large", [B.GUILDHALL, B.MANOR, B.DORMITORY, B.TOLL_HOUSE,
                                   B.MOOT_HALL])
def test_unstaffed_large_building_scores_its_points_but_no_bonus(large: Building) -> None:
    s = _owner({large: 0, B.FLAX_MILL: 3, B.STALL: 1}, seals=12, lodge=6,
               plots={PlotKind.CLAY: 12}, worked={PlotKind.CLAY: 12})
    sc = score_of(s, 0)
    assert sc.bonuses == {}
    assert sc.total == 12 + 4 + 2 + 1
    s.players[0].staff[large] = 1
    sc = score_of(s, 0)
    assert list(sc.bonuses) == [BUILDINGS[large].key]
    assert sc.bonuses[BUILDINGS[large].key] > 0
    assert sc.total == 12 + 4 + 2 + 1 + sc.bonuses[BUILDINGS[large].key]

"""The seven roles and the round (rules.md sections 1 and 3): who acts in what order, the
picker's bonus, the coins on the role cards, the Warden, picks per round."""

from __future__ import annotations

from collections import Counter

import pytest

from quaymoor.rules.actions import (
    DONE,
    LOAD,
    PASS,
    PICK,
    PLACE_ON_BUILDING,
    PLACE_ON_PLOT,
    SELL,
    TAKE_EXTRA_GOOD,
    TAKE_PLOT,
    TAKE_STONE_PIT,
    Build,
    Load,
    TakePlot,
)
from quaymoor.rules.data import GOODS, ROLES, Building, Good, PlotKind, Role
from quaymoor.rules.errors import IllegalAction, NotYourDecision
from quaymoor.rules.events import RolePicked
from quaymoor.rules.state import Phase
from tests.rules.builders import (
    act,
    at_pick,
    clear_all,
    deciding,
    events_of,
    finish_phase,
    fresh,
    legal,
    mat,
    pick,
    start_role,
)

C, F, W, H, A = Good.CLAY, Good.FLAX, Good.WOOL, Good.HONEY, Good.AMBER

# --------------------------------------------------------------------------- setup


@pytest.mark.parametrize(
    ("n", "coins", "seals", "apprentices", "capacities", "picks", "pits", "plots", "goods"),
    [
        (2, 3, 65, 40, [3, 4, 5], 6, 5, (7, 9, 8, 6, 5), (8, 9, 9, 7, 7)),
        (3, 2, 75, 55, [4, 5, 6], 3, 8, (10, 12, 11, 9, 8), (10, 11, 11, 9, 9)),
        (4, 3, 100, 75, [5, 6, 7], 4, 8, (10, 12, 11, 9, 8), (10, 11, 11, 9, 9)),
        (5, 4, 122, 95, [6, 7, 8], 5, 8, (10, 12, 11, 9, 8), (10, 11, 11, 9, 9)),
    ],
)
def test_components_by_player_count(  # noqa: PLR0917 - one row of the table
    n: int,
    coins: int,
    seals: int,
    apprentices: int,
    capacities: list[int],
    picks: int,
    pits: int,
    plots: tuple[int, ...],
    goods: tuple[int, ...],
) -> None:
    s = fresh(n)
    assert [p.coins for p in s.players] == [coins] * n
    assert [p.seals for p in s.players] == [0] * n
    assert s.seals == seals
    assert s.supply_apprentices == apprentices
    assert s.apprentice_barge == n
    assert list(s.barge_capacity) == capacities
    assert s.barge_good == [-1, -1, -1]
    assert s.picks_per_round == picks
    assert len(s.face_up) == n + 1
    assert s.stone_pits == pits
    assert tuple(s.supply_goods) == goods
    assert all(p.lodge == 0 and not p.street and sum(p.worked) == 0 for p in s.players)
    # every plot is somewhere: on a mat, face up or in the stack
    everywhere = Counter(s.stack) + Counter(s.face_up)
    for p in s.players:
        for g in GOODS:
            everywhere[g] += p.plots[g]
    assert tuple(everywhere[g] for g in GOODS) == plots
    assert s.discard == []
    assert s.round == 1
    assert s.role_coins == [0] * 7


@pytest.mark.parametrize(
    ("n", "start"),
    [
        (2, [F, C]),
        (3, [F, F, C]),
        (4, [F, F, C, C]),
        (5, [F, F, F, C, C]),
    ],
)
@pytest.mark.parametrize("seed_byte", [0, 1, 2, 7])
def test_starting_plots_from_the_first_warden_going_left(
    n: int, start: list[Good], seed_byte: int
) -> None:
    s = fresh(n, bytes([seed_byte]) * 32)
    w = s.warden
    assert 0 <= w < n
    for i, good in enumerate(start):
        p = s.players[(w + i) % n]
        assert sum(p.plots) == 1
        assert p.plots[good] == 1
    assert deciding(s) == (w,)
    assert s.phase is Phase.PICK_ROLE


def test_first_warden_comes_from_the_seed() -> None:
    wardens = {fresh(5, bytes([i]) * 32).warden for i in range(40)}
    assert len(wardens) > 1


# --------------------------------------------------------------------------- the round

#: Roles a fresh game carries out without anyone having a real choice (or only a Pass).
QUICK = (Role.PEDLAR, Role.CHANDLER, Role.BARGEMASTER, Role.MILLER, Role.MASON, Role.SURVEYOR)


@pytest.mark.parametrize("n", [3, 4, 5])
def test_picks_per_round_go_left_from_the_warden(n: int) -> None:
    s = fresh(n)
    w = n - 1  # the round wraps round the table
    at_pick(s, w)
    for i in range(n):
        seat = (w + i) % n
        assert s.phase is Phase.PICK_ROLE
        assert deciding(s) == (seat,)
        for other in range(n):
            if other != seat:
                assert legal(s, other) == []
        pick(s, seat, QUICK[i])
        if i < n - 1:
            assert s.role_taken[QUICK[i]] == seat
        finish_phase(s)
    # n picks made: the round is over and the Warden has passed left
    assert s.round == 2
    assert s.warden == 0
    assert s.phase is Phase.PICK_ROLE
    assert deciding(s) == (0,)
    assert legal(s, 0) == [PICK[r] for r in ROLES]  # every card is back


def test_two_player_round_is_six_alternating_picks_warden_first() -> None:
    s = fresh(2)
    at_pick(s, 1)
    order = []
    for i in range(6):
        assert s.round == 1
        seat = deciding(s)[0]
        order.append(seat)
        assert len(legal(s, seat)) == 7 - i
        pick(s, seat, QUICK[i])
        finish_phase(s)
    assert order == [1, 0, 1, 0, 1, 0]
    assert s.round == 2
    assert s.warden == 0
    assert deciding(s) == (0,)
    # the one card nobody picked gained a coin; the picked ones hold none
    assert s.role_coins[Role.REEVE] == 1
    assert [s.role_coins[r] for r in QUICK] == [0] * 6


def test_picking_takes_the_coins_on_the_card() -> None:
    s = fresh(4)
    clear_all(s)
    s.role_coins[Role.MASON] = 3
    start_role(s, 1, Role.MASON)
    assert s.players[1].coins == 3
    assert s.role_coins[Role.MASON] == 0
    assert events_of(s, RolePicked) == [RolePicked(1, Role.MASON, 3)]
    assert [p.coins for i, p in enumerate(s.players) if i != 1] == [0, 0, 0]


def test_unpicked_cards_gain_one_coin_each_round_and_coins_pile_up() -> None:
    s = fresh(3)
    clear_all(s)
    s.role_coins = [0, 2, 0, 5, 1, 0, 0]
    at_pick(s, 0)
    pick(s, 0, Role.CHANDLER)  # 1 coin on it
    finish_phase(s)
    pick(s, 1, Role.BARGEMASTER)
    finish_phase(s)
    pick(s, 2, Role.PEDLAR)
    finish_phase(s)
    assert s.round == 2
    assert s.role_coins == [1, 3, 1, 6, 0, 0, 0]
    assert [p.coins for p in s.players] == [1, 0, 1]
    # and another round on top
    pick(s, 1, Role.CHANDLER)
    finish_phase(s)
    pick(s, 2, Role.BARGEMASTER)
    finish_phase(s)
    pick(s, 0, Role.MILLER)  # takes its 6 coins
    finish_phase(s)
    assert s.role_coins == [2, 4, 2, 0, 0, 0, 1]
    assert s.players[0].coins == 1 + 6


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_the_warden_passes_left_and_wraps(n: int) -> None:
    s = fresh(n)
    at_pick(s, n - 1)
    for i in range(s.picks_per_round):
        pick(s, deciding(s)[0], QUICK[i])
        finish_phase(s)
    assert s.warden == 0
    assert deciding(s) == (0,)
    for i in range(s.picks_per_round):
        pick(s, deciding(s)[0], QUICK[i])
        finish_phase(s)
    assert s.warden == 1 % n
    assert s.round == 3


def test_a_picked_card_cannot_be_picked_again_this_round() -> None:
    s = fresh(4)
    at_pick(s, 0)
    pick(s, 0, Role.PEDLAR)
    assert PICK[Role.PEDLAR] not in legal(s, 1)
    with pytest.raises(IllegalAction, match="already been picked"):
        act(s, 1, PICK[Role.PEDLAR])
    with pytest.raises(NotYourDecision):
        act(s, 2, PICK[Role.MASON])


# --------------------------------------------------------------------------- Surveyor


def test_surveyor_turns_from_the_picker_and_the_picker_may_take_a_stone_pit() -> None:
    s = fresh(4)
    clear_all(s)
    s.face_up = [C, F, W, H, A]
    stack_top = s.stack[:5]
    start_role(s, 2, Role.SURVEYOR)
    assert s.phase is Phase.SURVEYOR
    assert deciding(s) == (2,)
    assert legal(s, 2) == [*(TAKE_PLOT[g] for g in GOODS), TAKE_STONE_PIT, PASS]
    act(s, 2, TAKE_STONE_PIT)
    assert s.players[2].plots[PlotKind.STONE_PIT] == 1
    assert s.stone_pits == 7
    assert deciding(s) == (3,)
    assert TAKE_STONE_PIT not in legal(s, 3)  # not the picker, no Stonecutter's Hut
    with pytest.raises(IllegalAction, match="stone pit"):
        act(s, 3, TAKE_STONE_PIT)
    act(s, 3, TakePlot(A))
    assert deciding(s) == (0,)
    assert TAKE_PLOT[A] not in legal(s, 0)  # taken
    act(s, 0, TakePlot(C))
    assert deciding(s) == (1,)
    act(s, 1, PASS)
    # one plot each at most
    assert [sum(p.plots) for p in s.players] == [1, 0, 1, 1]
    assert s.players[3].plots[A] == 1
    assert s.players[0].plots[C] == 1
    # the untaken plots are discarded and N+1 new ones turned up
    assert s.phase is Phase.PICK_ROLE
    assert sorted(s.discard) == [F, W, H]
    assert s.face_up == stack_top


def test_surveyor_passes_over_a_full_holding() -> None:
    s = fresh(3)
    clear_all(s)
    s.face_up = [C, F, W, H]
    mat(s, 1, plots={PlotKind.CLAY: 8, PlotKind.STONE_PIT: 4})
    mat(s, 0, plots={PlotKind.FLAX: 12})  # the picker, full too: not even a stone pit
    start_role(s, 0, Role.SURVEYOR)
    assert deciding(s) == (2,)
    assert legal(s, 0) == [] and legal(s, 1) == []
    act(s, 2, TakePlot(W))
    assert s.phase is Phase.PICK_ROLE
    assert sum(s.players[0].plots) == 12 and sum(s.players[1].plots) == 12
    assert s.stone_pits == 8


def test_surveyor_taking_is_optional() -> None:
    s = fresh(3)
    clear_all(s)
    start_role(s, 0, Role.SURVEYOR)
    for seat in (0, 1, 2):
        assert deciding(s) == (seat,)
        assert PASS in legal(s, seat)
        act(s, seat, PASS)
    assert s.phase is Phase.PICK_ROLE
    assert [sum(p.plots) for p in s.players] == [0, 0, 0]


# --------------------------------------------------------------------------- Reeve


def test_reeve_picker_gets_one_then_the_barge_is_handed_out_from_the_picker() -> None:
    s = fresh(4)
    clear_all(s)
    s.apprentice_barge = 6
    s.supply_apprentices = 20
    start_role(s, 1, Role.REEVE)
    # nobody has a slot: the apprentices wait in the lodges and the phase is over
    assert s.phase is Phase.PICK_ROLE
    # picker 1 from the supply + 6 from the barge one at a time: 1, 2, 3, 0, 1, 2
    assert [p.lodge for p in s.players] == [1, 3, 2, 1]
    # refill max(N, empty building slots) = 4
    assert s.apprentice_barge == 4
    assert s.supply_apprentices == 20 - 1 - 4


def test_reeve_everyone_arranges_at_once_then_the_barge_is_refilled() -> None:
    s = fresh(3)
    clear_all(s)
    s.apprentice_barge = 3
    s.supply_apprentices = 30
    mat(s, 0, plots={PlotKind.CLAY: 2}, buildings={Building.FLAX_MILL: 0})
    mat(s, 1, plots={PlotKind.FLAX: 1})
    mat(s, 2, buildings={Building.HONEY_HOUSE: 0, Building.STALL: 0})
    start_role(s, 0, Role.REEVE)
    assert s.phase is Phase.REEVE
    assert [p.lodge for p in s.players] == [2, 1, 1]
    assert deciding(s) == (0, 1, 2)
    assert legal(s, 0) == [PLACE_ON_PLOT[PlotKind.CLAY], PLACE_ON_BUILDING[Building.FLAX_MILL]]
    assert legal(s, 2) == [
        PLACE_ON_BUILDING[Building.HONEY_HOUSE], PLACE_ON_BUILDING[Building.STALL]
    ]
    # any order between seats
    act(s, 2, PLACE_ON_BUILDING[Building.STALL])
    act(s, 1, PLACE_ON_PLOT[PlotKind.FLAX])
    assert legal(s, 1) == [DONE]
    act(s, 1, DONE)
    assert deciding(s) == (0, 2)
    assert legal(s, 1) == []
    act(s, 0, PLACE_ON_BUILDING[Building.FLAX_MILL])
    act(s, 0, PLACE_ON_BUILDING[Building.FLAX_MILL])
    act(s, 0, DONE)
    act(s, 2, DONE)
    assert s.phase is Phase.PICK_ROLE
    assert s.players[0].staff[Building.FLAX_MILL] == 2
    assert s.players[0].worked[PlotKind.CLAY] == 0
    assert s.players[1].worked[PlotKind.FLAX] == 1
    assert s.players[2].staff[Building.STALL] == 1
    # empty building slots: Flax Mill 1 + Honey House 3 = 4 > N; empty clay plots don't count
    assert s.apprentice_barge == 4
    assert s.supply_apprentices == 30 - 1 - 4


def test_reeve_picker_gets_nothing_from_an_empty_supply() -> None:
    s = fresh(3)
    clear_all(s)
    s.apprentice_barge = 4
    s.supply_apprentices = 0
    start_role(s, 2, Role.REEVE)
    assert [p.lodge for p in s.players] == [1, 1, 2]


# --------------------------------------------------------------------------- Mason


def test_mason_turns_from_the_picker_and_the_picker_pays_one_less() -> None:
    s = fresh(4)
    clear_all(s)
    for seat in range(4):
        mat(s, seat, coins=5)
    start_role(s, 1, Role.MASON)
    assert deciding(s) == (1,)
    assert Build(Building.MARKET_CROSS) in legal(s, 1)
    act(s, 1, Build(Building.MARKET_CROSS))
    assert s.players[1].coins == 1  # 5 - 1
    assert deciding(s) == (2,)
    act(s, 2, Build(Building.MARKET_CROSS))
    assert s.players[2].coins == 0  # full price
    assert deciding(s) == (3,)
    assert Build(Building.MARKET_CROSS) not in legal(s, 3)  # both copies gone
    act(s, 3, Build(Building.HONEY_HOUSE))
    assert s.players[3].coins == 0
    assert deciding(s) == (0,)
    act(s, 0, PASS)
    assert s.phase is Phase.PICK_ROLE
    assert s.players[0].coins == 5 and s.players[0].street == []
    assert s.players[1].street == [Building.MARKET_CROSS]
    assert s.players[1].staff[Building.MARKET_CROSS] == 0  # built empty


def test_mason_passes_over_a_seat_that_cannot_build() -> None:
    s = fresh(3)
    clear_all(s)
    mat(s, 1, coins=1)
    start_role(s, 2, Role.MASON)  # the picker with 0 coins still gets a Flax Shed for 0
    assert deciding(s) == (2,)
    act(s, 2, PASS)
    assert deciding(s) == (1,)  # seat 0 has 0 coins: passed over
    act(s, 1, Build(Building.FLAX_SHED))
    assert s.phase is Phase.PICK_ROLE
    assert s.players[1].coins == 0


# --------------------------------------------------------------------------- Miller


def test_miller_everyone_makes_goods_and_the_picker_takes_one_more() -> None:
    s = fresh(3)
    clear_all(s)
    mat(s, 0, plots={PlotKind.CLAY: 3, PlotKind.FLAX: 2, PlotKind.WOOL: 3},
        worked={PlotKind.CLAY: 2, PlotKind.FLAX: 2, PlotKind.WOOL: 3},
        buildings={Building.FLAX_SHED: 1, Building.WOOL_MILL: 2})
    mat(s, 1, plots={PlotKind.HONEY: 2, PlotKind.AMBER: 2},
        worked={PlotKind.HONEY: 1, PlotKind.AMBER: 2},
        buildings={Building.HONEY_HOUSE: 3, Building.AMBER_WORKS: 0})
    supply = s.supply_goods[:]
    start_role(s, 0, Role.MILLER)
    assert s.players[0].goods == [2, 1, 2, 0, 0]
    assert s.players[1].goods == [0, 0, 0, 1, 0]
    assert s.players[2].goods == [0] * 5
    assert deciding(s) == (0,)
    assert legal(s, 0) == [TAKE_EXTRA_GOOD[C], TAKE_EXTRA_GOOD[F], TAKE_EXTRA_GOOD[W], PASS]
    assert legal(s, 1) == []
    act(s, 0, TAKE_EXTRA_GOOD[W])
    assert s.players[0].goods == [2, 1, 3, 0, 0]
    assert s.phase is Phase.PICK_ROLE
    assert s.supply_goods == [supply[0] - 2, supply[1] - 1, supply[2] - 3, supply[3] - 1,
                              supply[4]]


def test_miller_supply_runs_out_in_turn_order_from_the_picker() -> None:
    s = fresh(3)
    clear_all(s)
    for seat in range(3):
        mat(s, seat, plots={PlotKind.CLAY: 2}, worked={PlotKind.CLAY: 2})
    s.supply_goods[C] = 3
    start_role(s, 2, Role.MILLER)
    # picker 2 first, then 0, then 1
    assert s.players[2].goods[C] == 2
    assert s.players[0].goods[C] == 1
    assert s.players[1].goods[C] == 0
    assert s.supply_goods[C] == 0
    # nothing left for the picker's extra good: no decision
    assert s.phase is Phase.PICK_ROLE


def test_miller_picker_extra_only_of_a_kind_made() -> None:
    s = fresh(3)
    clear_all(s)
    mat(s, 1, plots={PlotKind.CLAY: 1}, worked={PlotKind.CLAY: 1}, goods={W: 4})
    start_role(s, 1, Role.MILLER)
    assert legal(s, 1) == [TAKE_EXTRA_GOOD[C], PASS]
    with pytest.raises(IllegalAction, match="made no wool"):
        act(s, 1, TAKE_EXTRA_GOOD[W])
    act(s, 1, PASS)
    assert s.players[1].goods == [1, 0, 4, 0, 0]


# --------------------------------------------------------------------------- Chandler


def test_chandler_turns_from_the_picker_who_gets_one_more_coin() -> None:
    s = fresh(4)
    clear_all(s)
    for seat in range(4):
        mat(s, seat, goods={W: 1, H: 1})
    start_role(s, 3, Role.CHANDLER)
    assert deciding(s) == (3,)
    assert legal(s, 3) == [SELL[W], SELL[H], PASS]
    act(s, 3, SELL[W])
    assert s.players[3].coins == 2 + 1
    assert deciding(s) == (0,)
    assert legal(s, 0) == [SELL[H], PASS]  # the hall takes each kind once
    act(s, 0, SELL[H])
    assert s.players[0].coins == 3
    # seats 1 and 2 hold only kinds already in the hall: passed over, the phase is over
    assert s.phase is Phase.PICK_ROLE
    assert s.hall == [W, H]
    assert s.players[1].goods == [0, 0, 1, 1, 0] and s.players[1].coins == 0


def test_chandler_one_sale_per_player() -> None:
    s = fresh(3)
    clear_all(s)
    mat(s, 0, goods={C: 1, F: 1, W: 1})
    start_role(s, 0, Role.CHANDLER)
    act(s, 0, SELL[F])
    assert s.phase is Phase.PICK_ROLE  # the others hold nothing
    assert s.players[0].goods == [1, 0, 1, 0, 0]
    assert s.players[0].coins == 2


# --------------------------------------------------------------------------- Bargemaster


def test_bargemaster_loads_round_and_round_from_the_picker() -> None:
    s = fresh(3)  # barges 4, 5, 6
    clear_all(s)
    mat(s, 0, goods={F: 2, C: 3})
    mat(s, 1, goods={W: 1, F: 1})
    supply_seals = s.seals
    start_role(s, 0, Role.BARGEMASTER)
    order = []
    assert PASS not in legal(s, 0)
    order.append(deciding(s)[0])
    assert set(legal(s, 0)) == {LOAD[F][0], LOAD[F][1], LOAD[F][2],
                                LOAD[C][0], LOAD[C][1], LOAD[C][2]}
    act(s, 0, Load(F, 0))
    assert s.players[0].seals == 2 + 1  # the picker's extra seal
    order.append(deciding(s)[0])
    assert set(legal(s, 1)) == {LOAD[F][0], LOAD[W][1], LOAD[W][2]}
    act(s, 1, Load(W, 1))
    order.append(deciding(s)[0])  # seat 2 holds nothing: passed over
    act(s, 0, Load(C, 2))
    assert s.players[0].seals == 3 + 3  # no second extra seal
    order.append(deciding(s)[0])
    assert legal(s, 1) == [LOAD[F][0]]
    act(s, 1, Load(F, 0))
    assert order == [0, 1, 0, 1]
    assert s.phase is Phase.PICK_ROLE
    assert [p.seals for p in s.players] == [6, 2, 0]
    assert s.seals == supply_seals - 8
    # barges not yet full keep their goods and kind
    assert s.barge_good == [F, W, C]
    assert s.barge_load == [3, 1, 3]


def test_bargemaster_picker_seal_only_on_a_load() -> None:
    s = fresh(3)
    clear_all(s)
    mat(s, 1, goods={A: 2})
    start_role(s, 0, Role.BARGEMASTER)  # the picker holds nothing
    act(s, 1, Load(A, 0))
    assert [p.seals for p in s.players] == [0, 2, 0]


# --------------------------------------------------------------------------- Pedlar


def test_pedlar_only_the_picker_acts_and_takes_a_coin() -> None:
    s = fresh(4)
    clear_all(s)
    s.role_coins[Role.PEDLAR] = 2
    at_pick(s, 2, warden=0)
    pick(s, 2, Role.PEDLAR)
    assert [p.coins for p in s.players] == [0, 0, 3, 0]
    assert s.phase is Phase.PICK_ROLE
    assert deciding(s) == (3,)
    assert s.role_taken[Role.PEDLAR] == 2

"""The edges of the rules (rules.md sections 3 and 4): empty supplies and stacks, full
halls and barges, the end triggers, take-backs, ties, and illegal actions."""

from __future__ import annotations

from collections import Counter

import pytest

from quaymoor.rules import engine
from quaymoor.rules.actions import (
    DONE,
    DRAW_PLOT,
    PASS,
    PICK,
    PLACE_ON_BUILDING,
    PLACE_ON_PLOT,
    SELL,
    SHIP_ON_BOATYARD,
    TAKE_BACK_FROM_BUILDING,
    TAKE_BACK_FROM_PLOT,
    TAKE_STONE_PIT,
    Build,
    KeepGood,
    Load,
    Sell,
    ShipOnBoatyard,
    StoreGoods,
    TakeExtraGood,
    TakePlot,
)
from quaymoor.rules.data import Building, Good, PlotKind, Role
from quaymoor.rules.errors import GameOver, IllegalAction, NotYourDecision
from quaymoor.rules.events import GameEnded, Loaded, PlotsTurnedUp
from quaymoor.rules.fairness import reshuffle_label, shuffled
from quaymoor.rules.scoring import scores, winners
from quaymoor.rules.state import GameState, Phase
from tests.rules.builders import (
    act,
    at_pick,
    clear_all,
    deciding,
    events_of,
    fill_street,
    finish_phase,
    fresh,
    legal,
    mat,
    pick,
    snapshot,
    start_role,
    takebacks,
)

C, F, W, H, A = Good.CLAY, Good.FLAX, Good.WOOL, Good.HONEY, Good.AMBER
B = Building
K = PlotKind


def _bare(n: int = 3) -> GameState:
    s = fresh(n)
    clear_all(s)
    return s


# --------------------------------------------------------------------------- Surveyor


def test_no_stone_pits_left_for_the_picker_nor_the_hut() -> None:
    s = _bare()
    s.stone_pits = 0
    s.face_up = [C]
    mat(s, 1, buildings={B.STONECUTTERS_HUT: 1})
    start_role(s, 0, Role.SURVEYOR)
    assert TAKE_STONE_PIT not in legal(s, 0)
    with pytest.raises(IllegalAction, match="no stone pits are left"):
        act(s, 0, TAKE_STONE_PIT)
    act(s, 0, PASS)
    assert legal(s, 1) == [TakePlot(C), PASS]
    with pytest.raises(IllegalAction, match="no stone pits are left"):
        act(s, 1, TAKE_STONE_PIT)


def test_the_last_stone_pit() -> None:
    s = _bare()
    s.stone_pits = 1
    mat(s, 1, buildings={B.STONECUTTERS_HUT: 1})
    mat(s, 2, buildings={B.STONECUTTERS_HUT: 1})
    start_role(s, 1, Role.SURVEYOR)
    act(s, 1, TAKE_STONE_PIT)
    assert s.stone_pits == 0
    assert TAKE_STONE_PIT not in legal(s, 2)


def test_farmstead_reshuffles_the_discard_pile_when_the_stack_is_empty() -> None:
    s = _bare()
    s.stack = []
    pile: list[int] = [W, H, W, A, C, F, A]
    s.discard = pile[:]
    s.face_up = [C]
    mat(s, 1, buildings={B.FARMSTEAD: 1})
    start_role(s, 1, Role.SURVEYOR)
    assert DRAW_PLOT in legal(s, 1)
    act(s, 1, DRAW_PLOT)
    # shuffled from the seed (the pile in canonical order, then the reshuffle's stream)
    expected = shuffled(s.key, reshuffle_label(1), sorted(pile))
    assert expected not in (sorted(pile), pile)
    assert s.reshuffles == 1
    assert s.discard == []
    assert s.players[1].plots[expected[0]] == 1
    assert sum(s.players[1].plots) == 1
    assert s.stack == expected[1:]


def test_farmstead_with_stack_and_discard_empty_offers_no_draw() -> None:
    s = _bare()
    s.stack = []
    s.discard = []
    s.face_up = [C]
    mat(s, 1, buildings={B.FARMSTEAD: 1})
    start_role(s, 1, Role.SURVEYOR)
    assert legal(s, 1) == [TakePlot(C), TAKE_STONE_PIT, PASS]
    with pytest.raises(IllegalAction, match="no plot left to draw"):
        act(s, 1, DRAW_PLOT)


def test_turning_up_reshuffles_and_fewer_plots_lie_open_when_all_run_out() -> None:
    s = _bare()  # N+1 = 4 to turn up
    s.stack = [C]
    s.discard = [F]
    s.face_up = [W, A]
    start_role(s, 0, Role.SURVEYOR)
    act(s, 0, TakePlot(A))
    finish_phase(s)
    # W joins the discard pile; C from the stack, then F and W reshuffled: only 3
    assert s.face_up[0] == C
    assert sorted(s.face_up[1:]) == sorted([F, W])
    assert s.stack == [] and s.discard == []
    assert s.reshuffles == 1
    [turned] = events_of(s, PlotsTurnedUp)
    assert turned.reshuffled and turned.discarded == 1


def test_surveyor_with_no_plots_at_all() -> None:
    s = _bare()
    s.stack, s.discard, s.face_up, s.stone_pits = [], [], [], 0
    start_role(s, 0, Role.SURVEYOR)
    assert s.phase is Phase.PICK_ROLE  # nobody had anything to take
    assert s.face_up == []


@pytest.mark.parametrize(("supply", "barge", "helped"), [(0, 2, True), (0, 0, False)])
def test_almshouse_falls_back_to_the_apprentice_barge(supply: int, barge: int,
                                                      helped: bool) -> None:
    s = _bare()
    s.supply_apprentices = supply
    s.apprentice_barge = barge
    s.face_up = [H]
    mat(s, 1, buildings={B.ALMSHOUSE: 1})
    start_role(s, 1, Role.SURVEYOR)
    act(s, 1, TakePlot(H))
    assert s.players[1].plots[K.HONEY] == 1
    assert s.players[1].worked[K.HONEY] == (1 if helped else 0)
    assert s.apprentice_barge == (barge - 1 if helped else 0)
    assert s.supply_apprentices == 0


# --------------------------------------------------------------------------- Mason


@pytest.mark.parametrize(("supply", "barge", "helped"), [(0, 3, True), (0, 0, False)])
def test_academy_falls_back_to_the_apprentice_barge(supply: int, barge: int,
                                                    helped: bool) -> None:
    s = _bare()
    s.supply_apprentices = supply
    s.apprentice_barge = barge
    mat(s, 1, coins=5, buildings={B.ACADEMY: 1})
    start_role(s, 1, Role.MASON)
    act(s, 1, Build(B.HONEY_HOUSE))
    assert s.players[1].staff[B.HONEY_HOUSE] == (1 if helped else 0)
    assert s.apprentice_barge == (barge - 1 if helped else 0)


def test_large_building_fills_the_twelfth_space_and_the_round_still_ends_normally() -> None:
    s = _bare()
    fill_street(s, 1, 10)
    mat(s, 1, coins=10)
    at_pick(s, 1, warden=0)
    pick(s, 1, Role.MASON)
    act(s, 1, Build(B.MANOR))
    assert s.end_reasons == ["high_street"]
    finish_phase(s)
    # the game goes on to the end of the round: seat 2 still picks
    assert s.phase is Phase.PICK_ROLE
    assert deciding(s) == (2,)
    pick(s, 2, Role.PEDLAR)
    assert s.phase is Phase.GAME_OVER
    assert s.round == 1
    [ended] = events_of(s, GameEnded)
    assert ended.reasons == ("high_street",)


def test_large_building_refused_with_one_space_free() -> None:
    s = _bare()
    fill_street(s, 1, 11)
    mat(s, 1, coins=30)
    start_role(s, 1, Role.MASON)
    options = legal(s, 1)
    for large in (B.GUILDHALL, B.MANOR, B.DORMITORY, B.TOLL_HOUSE, B.MOOT_HALL):
        assert Build(large) not in options
    with pytest.raises(IllegalAction, match="1 free spaces; the Guildhall needs 2"):
        act(s, 1, Build(B.GUILDHALL))
    assert not s.end_reasons
    act(s, 1, Build(B.ACADEMY))
    assert s.end_reasons == ["high_street"]


def test_full_high_street_builds_nothing() -> None:
    s = _bare()
    fill_street(s, 1, 12)
    mat(s, 1, coins=30)
    start_role(s, 1, Role.MASON)
    assert s.phase is Phase.PICK_ROLE  # nothing but Pass for anyone: all passed over
    assert s.players[1].coins == 30
    assert len(s.players[1].street) == 12


# --------------------------------------------------------------------------- Reeve


def test_reeve_done_refused_while_an_apprentice_waits_next_to_an_empty_slot() -> None:
    s = _bare()
    mat(s, 1, plots={K.CLAY: 2}, buildings={B.STALL: 0})
    s.apprentice_barge = 0
    start_role(s, 1, Role.REEVE)  # 1 apprentice for the picker
    assert s.players[1].lodge == 1
    assert DONE not in legal(s, 1)
    with pytest.raises(IllegalAction, match="may not wait in the lodge"):
        act(s, 1, DONE)
    act(s, 1, PLACE_ON_PLOT[K.CLAY])
    assert legal(s, 1) == [DONE]  # slots still empty, but the lodge is empty
    act(s, 1, DONE)
    assert s.phase is Phase.PICK_ROLE
    assert s.players[1].worked[K.CLAY] == 1 and s.players[1].staff[B.STALL] == 0


def test_reeve_apprentices_wait_in_the_lodge_when_no_slot_is_empty() -> None:
    s = _bare()
    s.apprentice_barge = 5
    mat(s, 0, plots={K.CLAY: 1})
    start_role(s, 0, Role.REEVE)  # seat 0 gets 1 + 2, one slot
    assert s.players[0].lodge == 3
    act(s, 0, PLACE_ON_PLOT[K.CLAY])
    assert legal(s, 0) == [DONE]
    act(s, 0, DONE)
    assert s.players[0].lodge == 2
    assert [p.lodge for p in s.players] == [2, 2, 1]


def test_reeve_apprentices_arrive_whether_wanted_or_not() -> None:
    s = _bare()
    s.apprentice_barge = 3
    start_role(s, 0, Role.REEVE)
    assert [p.lodge for p in s.players] == [2, 1, 1]
    assert s.phase is Phase.PICK_ROLE


def test_placed_apprentices_stay_put_between_reeves() -> None:
    s = _bare()
    s.apprentice_barge = 0
    mat(s, 1, plots={K.CLAY: 1}, worked={K.CLAY: 1}, buildings={B.STALL: 1})
    start_role(s, 0, Role.REEVE)  # seat 1 gets none and has no empty slot
    assert s.phase is Phase.PICK_ROLE
    assert s.players[1].worked[K.CLAY] == 1 and s.players[1].staff[B.STALL] == 1
    assert s.players[1].lodge == 0


def test_take_backs_move_an_apprentice_within_the_reeve() -> None:
    s = _bare()
    s.apprentice_barge = 0
    mat(s, 1, plots={K.CLAY: 1, K.FLAX: 1}, worked={K.CLAY: 1},
        buildings={B.FLAX_SHED: 0})
    assert takebacks(s, 1) == []  # not in a Reeve
    start_role(s, 0, Role.REEVE)
    assert s.phase is Phase.REEVE
    assert deciding(s) == (1,)  # seat 1 may move its apprentice; seat 0 has no slot
    assert legal(s, 1) == [DONE]
    assert takebacks(s, 1) == [TAKE_BACK_FROM_PLOT[K.CLAY]]
    assert not any(a in legal(s, 1) for a in takebacks(s, 1))
    act(s, 1, TAKE_BACK_FROM_PLOT[K.CLAY])
    assert s.players[1].lodge == 1 and s.players[1].worked[K.CLAY] == 0
    assert DONE not in legal(s, 1)  # it may not wait in the lodge now
    act(s, 1, PLACE_ON_BUILDING[B.FLAX_SHED])
    assert takebacks(s, 1) == [TAKE_BACK_FROM_BUILDING[B.FLAX_SHED]]
    act(s, 1, DONE)
    assert s.phase is Phase.PICK_ROLE
    assert takebacks(s, 1) == []
    assert s.players[1].staff[B.FLAX_SHED] == 1
    assert s.players[1].worked == [0] * 6
    with pytest.raises(IllegalAction, match="time to pick a role"):
        act(s, 1, TAKE_BACK_FROM_BUILDING[B.FLAX_SHED])


def test_take_back_of_an_apprentice_that_is_not_there_is_refused() -> None:
    s = _bare()
    s.apprentice_barge = 0
    mat(s, 1, plots={K.CLAY: 2}, worked={K.CLAY: 1})
    start_role(s, 0, Role.REEVE)
    with pytest.raises(IllegalAction, match="no apprentice works a wool plot"):
        act(s, 1, TAKE_BACK_FROM_PLOT[K.WOOL])


@pytest.mark.parametrize(("empty_slots", "supply", "barge", "ends"), [
    (0, 2, 2, True),  # need N = 3
    (0, 3, 3, False),  # exactly enough
    (6, 5, 5, True),  # need 6 empty building slots
    (6, 6, 6, False),
    (6, 0, 0, True),
])
def test_apprentice_barge_refill_shortfall_ends_the_game_at_round_end(
    empty_slots: int, supply: int, barge: int, ends: bool
) -> None:
    s = _bare()
    s.apprentice_barge = 0
    s.supply_apprentices = supply + 1  # the picker takes 1 first
    if empty_slots:
        mat(s, 2, buildings={B.FLAX_MILL: 0, B.HONEY_HOUSE: 0})
        mat(s, 1, buildings={B.STALL: 0})  # the picker's apprentice will go here
    at_pick(s, 1, warden=0)
    pick(s, 1, Role.REEVE)
    if empty_slots:
        act(s, 1, PLACE_ON_BUILDING[B.STALL])
    finish_phase(s)
    assert s.apprentice_barge == barge
    assert s.supply_apprentices == 0
    assert s.end_reasons == (["apprentices"] if ends else [])
    assert s.phase is Phase.PICK_ROLE  # the round goes on
    pick(s, 2, Role.PEDLAR)
    assert (s.phase is Phase.GAME_OVER) is ends


# --------------------------------------------------------------------------- Chandler


def test_hall_full_stops_sales_and_is_emptied_at_the_end_of_the_phase() -> None:
    s = _bare(4)
    s.hall = [C, F]
    for seat in range(4):
        mat(s, seat, goods={W: 1, H: 1, A: 1})
    supply = s.supply_goods[:]
    start_role(s, 0, Role.CHANDLER)
    act(s, 0, SELL[W])
    act(s, 1, SELL[H])  # the hall is full
    assert s.phase is Phase.PICK_ROLE  # seats 2 and 3 may not sell: no more sales
    assert s.hall == []
    for g in (C, F, W, H):
        assert s.supply_goods[g] == supply[g] + 1
    assert s.supply_goods[A] == supply[A]
    assert s.players[2].goods == [0, 0, 1, 1, 1]


def test_hall_with_fewer_goods_keeps_them_for_the_next_chandler() -> None:
    s = _bare()
    mat(s, 0, goods={W: 2, H: 1})
    mat(s, 1, goods={W: 1})
    supply = s.supply_goods[:]
    start_role(s, 0, Role.CHANDLER)
    act(s, 0, SELL[W])
    assert s.phase is Phase.PICK_ROLE  # seat 1 holds only wool, already in the hall
    assert s.hall == [W]
    assert s.supply_goods == supply
    start_role(s, 0, Role.CHANDLER)
    assert legal(s, 0) == [SELL[H], PASS]  # wool is still in the hall
    act(s, 0, SELL[H])
    assert s.hall == [W, H]


def test_counting_house_sells_into_a_hall_that_holds_the_kind_until_full() -> None:
    s = _bare()
    s.hall = [W, F, C]
    mat(s, 1, goods={W: 2}, buildings={B.COUNTING_HOUSE: 1})
    mat(s, 2, goods={A: 1}, buildings={B.COUNTING_HOUSE: 1})
    start_role(s, 1, Role.CHANDLER)
    act(s, 1, Sell(W))
    assert s.players[1].coins == 3
    assert s.phase is Phase.PICK_ROLE  # full: seat 2 sells nothing
    assert s.players[2].goods[A] == 1
    assert s.hall == []


def test_counting_house_with_a_full_hall_cannot_sell() -> None:
    s = _bare()
    s.hall = [W, F, C, H]  # only possible by hand: a full hall is always emptied
    mat(s, 1, goods={A: 1}, buildings={B.COUNTING_HOUSE: 1})
    start_role(s, 1, Role.CHANDLER)
    assert s.phase is Phase.PICK_ROLE
    assert s.players[1].goods[A] == 1


# --------------------------------------------------------------------------- Bargemaster


def test_must_load_on_the_empty_barge_that_takes_the_most() -> None:
    s = _bare(4)  # barges 5, 6, 7
    mat(s, 1, goods={W: 9})
    start_role(s, 1, Role.BARGEMASTER)
    assert legal(s, 1) == [Load(W, 2)]
    with pytest.raises(IllegalAction, match="takes the most"):
        act(s, 1, Load(W, 0))
    act(s, 1, Load(W, 2))
    assert events_of(s, Loaded) == [Loaded(1, W, 7, 2)]
    assert s.players[1].seals == 7 + 1
    # 2 wool left: wool may go only on barge 2, which is full; nothing else to load
    assert s.phase is Phase.PICK_ROLE
    assert s.players[1].goods[W] == 1  # kept the 1 good; the rest went back
    assert s.barge_good == [-1, -1, -1]  # the full barge was emptied


@pytest.mark.parametrize(("have", "barges"), [(6, [1, 2]), (3, [0, 1, 2]), (5, [0, 1, 2]),
                                             (7, [2])])
def test_choice_between_empty_barges_that_take_all(have: int, barges: list[int]) -> None:
    s = _bare(4)  # barges 5, 6, 7
    mat(s, 1, goods={H: have})
    start_role(s, 1, Role.BARGEMASTER)
    assert legal(s, 1) == [Load(H, i) for i in barges]


def test_an_occupied_barge_is_not_an_option_for_a_new_kind() -> None:
    s = _bare(4)  # barges 5, 6, 7
    s.barge_good = [-1, -1, C]
    s.barge_load = [0, 0, 1]
    mat(s, 1, goods={W: 9})
    start_role(s, 1, Role.BARGEMASTER)
    assert legal(s, 1) == [Load(W, 1)]
    with pytest.raises(IllegalAction, match="barge 2 carries clay"):
        act(s, 1, Load(W, 2))


def test_a_kind_on_a_barge_goes_only_there_as_far_as_it_takes() -> None:
    s = _bare()  # barges 4, 5, 6
    s.barge_good = [F, -1, -1]
    s.barge_load = [1, 0, 0]
    mat(s, 1, goods={F: 5})
    start_role(s, 1, Role.BARGEMASTER)
    assert legal(s, 1) == [Load(F, 0)]
    with pytest.raises(IllegalAction, match="already on barge 0: it may go only there"):
        act(s, 1, Load(F, 2))
    act(s, 1, Load(F, 0))
    assert events_of(s, Loaded) == [Loaded(1, F, 3, 0)]  # as many as the barge takes
    assert s.players[1].seals == 3 + 1
    assert s.players[1].goods[F] == 1  # 2 left: kept 1


def test_a_full_barges_kind_cannot_be_loaded_and_the_full_barge_is_emptied() -> None:
    s = _bare()  # barges 4, 5, 6
    s.barge_good = [F, W, -1]
    s.barge_load = [4, 2, 0]
    supply = s.supply_goods[:]
    mat(s, 1, goods={F: 3})
    start_role(s, 0, Role.BARGEMASTER)
    assert s.phase is Phase.PICK_ROLE  # nobody could load
    assert s.players[1].seals == 0
    assert s.players[1].goods[F] == 1  # kept 1, 2 back to the supply
    assert s.barge_good == [-1, W, -1] and s.barge_load == [0, 2, 0]
    assert s.supply_goods[F] == supply[F] + 4 + 2
    assert s.supply_goods[W] == supply[W]


def test_boatyard_ships_a_kind_already_on_a_barge() -> None:
    s = _bare()  # barges 4, 5, 6
    s.barge_good = [F, H, -1]
    s.barge_load = [2, 5, 0]
    mat(s, 1, goods={F: 5, H: 2}, buildings={B.BOATYARD: 1})
    start_role(s, 0, Role.BARGEMASTER)
    assert legal(s, 1) == [Load(F, 0), SHIP_ON_BOATYARD[F], SHIP_ON_BOATYARD[H]]
    act(s, 1, ShipOnBoatyard(F))
    assert s.players[1].goods[F] == 0
    assert s.players[1].seals == 5
    # honey's barge is full and the Boatyard is used: nothing more to load
    assert s.phase is Phase.PICK_ROLE
    assert s.barge_good == [F, -1, -1] and s.barge_load == [2, 0, 0]  # flax's untouched
    assert s.players[1].goods[H] == 1


def test_a_staffed_unused_boatyard_is_a_loading_option_and_so_compulsory() -> None:
    s = _bare()
    s.barge_good = [C, F, W]
    s.barge_load = list(s.barge_capacity)
    mat(s, 1, goods={W: 2}, buildings={B.BOATYARD: 1})
    start_role(s, 0, Role.BARGEMASTER)
    assert deciding(s) == (1,)
    assert legal(s, 1) == [SHIP_ON_BOATYARD[W]]
    with pytest.raises(IllegalAction):
        act(s, 1, PASS)
    act(s, 1, ShipOnBoatyard(W))
    assert s.players[1].seals == 2


def test_loading_is_compulsory() -> None:
    s = _bare()
    mat(s, 1, goods={C: 1})
    start_role(s, 1, Role.BARGEMASTER)
    assert PASS not in legal(s, 1)
    with pytest.raises(IllegalAction, match="not a choice now"):
        act(s, 1, PASS)


def test_cellar_plus_granary_store_three_kinds() -> None:
    s = _bare()
    s.barge_good = [C, H, A]
    s.barge_load = list(s.barge_capacity)
    mat(s, 1, goods={C: 2, F: 3, W: 4, H: 5, A: 2},
        buildings={B.CELLAR: 1, B.GRANARY: 1})
    start_role(s, 0, Role.BARGEMASTER)
    assert deciding(s) == (1,)
    act(s, 1, StoreGoods(H))
    act(s, 1, StoreGoods(W))
    act(s, 1, StoreGoods(F))
    assert not any(isinstance(a, StoreGoods) for a in legal(s, 1))
    with pytest.raises(IllegalAction, match="storage is full"):
        act(s, 1, StoreGoods(C))
    act(s, 1, KeepGood(A))
    assert s.phase is Phase.PICK_ROLE
    assert s.players[1].goods == [0, 3, 4, 5, 1]


@pytest.mark.parametrize(
    ("goods", "staff", "kept"),
    [
        ({F: 3}, {}, [0, 1, 0, 0, 0]),  # one kind: keep 1 of it
        ({F: 3, W: 1}, {B.CELLAR: 1}, [0, 3, 1, 0, 0]),  # everything fits
        ({F: 1, W: 1}, {B.CELLAR: 1}, [0, 1, 1, 0, 0]),
        ({F: 3, W: 2}, {B.GRANARY: 1}, [0, 3, 2, 0, 0]),
        ({F: 3, W: 2, H: 1}, {B.GRANARY: 1}, [0, 3, 2, 1, 0]),
        ({F: 3, W: 2, H: 1, A: 4}, {B.GRANARY: 1, B.CELLAR: 1}, [0, 3, 2, 1, 4]),
        ({}, {}, [0, 0, 0, 0, 0]),
    ],
)
def test_keep_goods_settled_at_once_without_a_real_choice(
    goods: dict[Good, int], staff: dict[Building, int], kept: list[int]
) -> None:
    s = _bare()
    s.barge_good = [C, H, A]
    s.barge_load = list(s.barge_capacity)
    mat(s, 1, goods=goods, buildings=staff)
    start_role(s, 0, Role.BARGEMASTER)
    assert s.phase is Phase.PICK_ROLE  # nobody was asked
    assert s.players[1].goods == kept


def test_keep_goods_is_asked_of_everyone_with_a_choice_at_once() -> None:
    s = _bare()
    s.barge_good = [C, H, A]
    s.barge_load = list(s.barge_capacity)
    mat(s, 0, goods={F: 2, W: 2})
    mat(s, 2, goods={F: 2, W: 3}, buildings={B.CELLAR: 1})
    start_role(s, 1, Role.BARGEMASTER)
    assert s.phase is Phase.KEEP_GOODS
    assert deciding(s) == (0, 2)
    assert legal(s, 2) == [StoreGoods(F), StoreGoods(W), KeepGood(F), KeepGood(W), DONE]
    act(s, 2, StoreGoods(F))
    act(s, 2, KeepGood(W))
    assert deciding(s) == (0,)
    act(s, 0, KeepGood(W))
    assert s.phase is Phase.PICK_ROLE
    assert s.players[0].goods == [0, 0, 1, 0, 0]
    assert s.players[2].goods == [0, 2, 1, 0, 0]


def test_seals_running_out_mid_shipping() -> None:
    s = _bare()  # barges 4, 5, 6
    s.seals = 3
    mat(s, 0, goods={W: 4})
    mat(s, 1, goods={F: 3}, buildings={B.LOCK_HOUSE: 1})
    at_pick(s, 0)
    pick(s, 0, Role.BARGEMASTER)
    act(s, 0, Load(W, 0))
    assert s.players[0].seals == 5  # paid in full though the supply held 3
    assert s.seals == 0
    assert s.end_reasons == ["seals"]
    assert s.phase is Phase.BARGEMASTER  # shipping goes on
    assert legal(s, 1) == [Load(F, 1), Load(F, 2)]  # barge 0 is full of wool
    act(s, 1, Load(F, 1))
    assert s.players[1].seals == 3 + 1  # still paid in full
    assert s.seals == 0
    assert s.end_reasons == ["seals"]
    # the round is played out, then the game ends
    assert s.phase is Phase.PICK_ROLE
    pick(s, 1, Role.PEDLAR)
    assert s.phase is Phase.PICK_ROLE
    pick(s, 2, Role.CHANDLER)
    assert s.phase is Phase.GAME_OVER
    [ended] = events_of(s, GameEnded)
    assert ended.reasons == ("seals",)
    with pytest.raises(GameOver):
        act(s, 0, PICK[Role.MASON])


def test_seals_reaching_exactly_zero_end_the_game() -> None:
    s = _bare()
    s.seals = 3
    mat(s, 1, goods={W: 3})
    start_role(s, 0, Role.BARGEMASTER)
    act(s, 1, Load(W, 0))
    assert s.seals == 0
    assert s.end_reasons == ["seals"]


# --------------------------------------------------------------------------- the end


def test_several_end_triggers_in_one_round() -> None:
    s = _bare()
    s.seals = 1
    mat(s, 2, goods={A: 2})
    s.supply_apprentices = 0
    at_pick(s, 2)
    pick(s, 2, Role.BARGEMASTER)
    act(s, 2, Load(A, 0))
    assert s.end_reasons == ["seals"]
    pick(s, 0, Role.MASON)
    finish_phase(s)
    # seat 1 picks the Reeve: the barge cannot be refilled
    pick(s, 1, Role.REEVE)
    finish_phase(s)
    assert s.end_reasons == ["seals", "apprentices"]
    assert s.phase is Phase.GAME_OVER
    [ended] = events_of(s, GameEnded)
    assert ended.reasons == ("seals", "apprentices")


def _end_round(s: GameState) -> None:
    """Trigger the end and play the last pick of the round (a Miller where nobody makes
    anything: no coins nor goods change hands)."""
    s.end_reasons = ["seals"]
    s.role_coins = [0] * 7
    at_pick(s, s.n - 1, warden=0)
    pick(s, s.n - 1, Role.MILLER)
    assert s.phase is Phase.GAME_OVER


def test_most_points_wins() -> None:
    s = _bare()
    mat(s, 0, seals=10)
    mat(s, 1, seals=8, buildings={B.STALL: 0, B.CELLAR: 0, B.MANOR: 0})  # 8 + 6
    mat(s, 2, seals=13, coins=40)
    _end_round(s)
    [ended] = events_of(s, GameEnded)
    assert ended.winners == (1,)
    assert [sc.total for sc in scores(s)] == [10, 14, 13]


def test_tie_goes_to_the_most_coins_plus_goods() -> None:
    s = _bare()
    mat(s, 0, seals=10, coins=3, goods={C: 2})  # 5
    mat(s, 1, seals=6, buildings={B.GUILDHALL: 0}, coins=2, goods={A: 2})  # 4
    mat(s, 2, seals=9, coins=30)
    _end_round(s)
    [ended] = events_of(s, GameEnded)
    assert ended.winners == (0,)
    assert [sc.tiebreak for sc in scores(s)] == [5, 4, 30]


def test_full_tie_shares_the_win() -> None:
    s = _bare(4)
    mat(s, 0, seals=10, coins=3, goods={C: 2})
    mat(s, 1, seals=5, coins=1, buildings={B.TOLL_HOUSE: 1}, goods={F: 2, A: 2})  # 5+4+1
    mat(s, 2, seals=10, coins=4)  # same points, fewer coins plus goods
    mat(s, 3, seals=9, coins=30)  # fewer points
    _end_round(s)
    [ended] = events_of(s, GameEnded)
    assert ended.winners == (0, 1)
    assert winners(scores(s)) == (0, 1)


# --------------------------------------------------------------------------- illegal actions


def _refused(s: GameState, seat: int, action: object, error: type, reason: str) -> None:
    before = snapshot(s)
    events = list(s.events or [])
    with pytest.raises(error, match=reason) as info:
        act(s, seat, action)  # type: ignore[arg-type]
    assert str(info.value)
    assert snapshot(s) == before
    assert s.events == events


def test_illegal_actions_change_nothing() -> None:
    s = _bare(4)
    mat(s, 1, coins=2, goods={W: 1})
    at_pick(s, 1, warden=0)
    _refused(s, 2, PICK[Role.MASON], NotYourDecision, "waiting for seat 1 to pick a role")
    _refused(s, 1, PASS, IllegalAction, "not a choice now")
    pick(s, 1, Role.MASON)
    _refused(s, 1, Build(B.HONEY_HOUSE), IllegalAction, "costs you 4 coins and you have 2")
    _refused(s, 1, Sell(W), IllegalAction, "not a choice now")
    _refused(s, 3, Build(B.STALL), NotYourDecision, "not your decision")
    _refused(s, 7, Build(B.STALL), NotYourDecision, "no seat 7")
    act(s, 1, PASS)
    assert s.phase is Phase.PICK_ROLE


def test_illegal_actions_in_each_phase_change_nothing() -> None:
    s = _bare()
    s.face_up = [C]
    s.stone_pits = 3
    start_role(s, 1, Role.SURVEYOR)
    _refused(s, 1, TakePlot(A), IllegalAction, "no face-up amber plot")
    _refused(s, 1, DRAW_PLOT, IllegalAction, "Farmstead")
    _refused(s, 0, TakePlot(C), NotYourDecision, "waiting for seat 1")
    finish_phase(s)

    mat(s, 1, plots={K.CLAY: 1})
    s.apprentice_barge = 0
    start_role(s, 1, Role.REEVE)
    _refused(s, 1, PLACE_ON_PLOT[K.WOOL], IllegalAction, "no empty wool plot")
    _refused(s, 1, PLACE_ON_BUILDING[B.STALL], IllegalAction, "do not own a Stall")
    _refused(s, 1, DONE, IllegalAction, "may not wait in the lodge")
    _refused(s, 2, DONE, NotYourDecision, "not your decision")
    act(s, 1, PLACE_ON_PLOT[K.CLAY])
    act(s, 1, DONE)

    mat(s, 1, goods={C: 1, F: 2})
    start_role(s, 1, Role.MILLER)  # clay made: the extra good is a choice
    _refused(s, 1, TakeExtraGood(A), IllegalAction, "made no amber")
    act(s, 1, PASS)

    s.hall = [C]
    start_role(s, 1, Role.CHANDLER)
    _refused(s, 1, Sell(C), IllegalAction, "already holds clay")
    _refused(s, 1, Sell(H), IllegalAction, "no honey to sell")
    act(s, 1, PASS)

    start_role(s, 1, Role.BARGEMASTER)
    _refused(s, 1, Load(C, 5), IllegalAction, "no barge 5")
    _refused(s, 1, Load(H, 0), IllegalAction, "no honey to load")
    _refused(s, 1, ShipOnBoatyard(C), IllegalAction, "staffed Boatyard")
    _refused(s, 1, PASS, IllegalAction, "not a choice now")


@pytest.mark.parametrize("bad", [-8, -7, -1, 3, 5, 8, 9])
def test_a_seat_not_at_the_table_is_refused(bad: int) -> None:
    s = _bare()
    at_pick(s, 1, warden=0)
    engine.legal_actions(s, 1)
    engine.apply(s, 1, PICK[Role.PEDLAR])
    before = snapshot(s)
    # straight through the engine, its legal-action cache as the last apply left it
    for action in (PICK[Role.PEDLAR], PICK[Role.MASON]):
        assert engine.legal_actions(s, bad) == []
        with pytest.raises(NotYourDecision, match=f"no seat {bad} at this table"):
            engine.apply(s, bad, action)
        assert snapshot(s) == before
    assert deciding(s) == (2,)


def test_game_over_refuses_everything() -> None:
    s = _bare()
    _end_round(s)
    before = snapshot(s)
    for seat in range(3):
        assert legal(s, seat) == []
        with pytest.raises(GameOver):
            act(s, seat, PICK[Role.PEDLAR])
    assert snapshot(s) == before
    assert deciding(s) == ()


def test_every_plot_is_accounted_for_after_many_surveyors() -> None:
    s = fresh(2)
    total = Counter(s.stack) + Counter(s.face_up)
    for p in s.players:
        for g in Good:
            total[g] += p.plots[g]
    for _ in range(12):
        start_role(s, 0, Role.SURVEYOR)
        finish_phase(s)
    now = Counter(s.stack) + Counter(s.face_up) + Counter(s.discard)
    for p in s.players:
        for g in Good:
            now[g] += p.plots[g]
    assert now == total
    assert s.reshuffles >= 1

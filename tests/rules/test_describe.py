"""``explain.describe``, the "?" of the table: every phase, in the second person to the
seat deciding and the third to everyone else, with its numbers, and never a hidden fact
(another seat's seals or keep-goods choice, the stack's order)."""

from __future__ import annotations

import pytest

from quaymoor.bots.prng import SplitMix64
from quaymoor.rules import engine
from quaymoor.rules.actions import DONE, KEEP_GOOD, STORE_GOODS
from quaymoor.rules.bargemaster import discards
from quaymoor.rules.data import BUILDINGS, Building, Good, PlotKind, Role
from quaymoor.rules.explain import Told, describe
from quaymoor.rules.state import GameState, Phase
from quaymoor.rules.views import view_for
from tests.rules.builders import act, clear_all, fresh, legal, mat, start_role

NAMES = ("Ada", "Bede", "Cuthbert", "Dunstan")


def _hidden_changed(s: GameState, viewer: int | None) -> GameState:
    """``s`` with everything ``viewer`` may not see changed: the other seats' seals, the
    stack's order, the other seats' keep-goods choices so far."""
    t = s.clone()
    for i, p in enumerate(t.players):
        if i != viewer:
            p.seals += 17
    t.stack.reverse()
    if t.phase is Phase.KEEP_GOODS:
        for i in range(t.n):
            if i != viewer:
                t.stored[i] = []
                t.kept[i] = -1
    return t


def _text(told: Told) -> str:
    return told.title + " " + " ".join(told.text)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_phase_is_told_to_each_audience_and_hides_what_it_must(seed: int) -> None:
    s = fresh(4, bytes([seed]) * 32)
    rng = SplitMix64(seed)
    told_phases: set[Phase] = set()
    while s.phase is not Phase.GAME_OVER:
        waiting = engine.deciding(s)
        for viewer in (*range(s.n), None):
            told = describe(s, viewer, NAMES)
            assert told.title and all(told.text)
            text = _text(told)
            if viewer is not None and viewer in waiting:
                assert "you" in text.lower()
            else:
                assert any(NAMES[w] in text for w in waiting)
                if viewer is None:
                    assert "You " not in text.replace("You act", "")
            if viewer not in waiting or s.phase.simultaneous:
                assert describe(_hidden_changed(s, viewer), viewer, NAMES) == told
        told_phases.add(s.phase)
        seat = waiting[0]
        options = legal(s, seat)
        act(s, seat, options[rng.below(len(options))])
    told_phases.add(s.phase)
    over = describe(s, None, NAMES)
    assert over.title == "The game is over" and "Scores:" in over.text[1]
    assert told_phases == set(Phase)


def test_keep_goods_says_what_may_be_kept_and_what_done_throws_away() -> None:
    s = fresh(3)
    clear_all(s)
    mat(s, 0, goods={Good.WOOL: 2, Good.CLAY: 1, Good.FLAX: 1, Good.AMBER: 3},
        buildings={Building.CELLAR: 1})
    mat(s, 1, goods={Good.HONEY: 1})
    start_role(s, 0, Role.BARGEMASTER)
    while s.phase is Phase.BARGEMASTER:
        seat = engine.deciding(s)[0]
        act(s, seat, legal(s, seat)[0])
    assert s.phase is Phase.KEEP_GOODS and 0 in engine.deciding(s)
    before = describe(s, 0, NAMES)
    assert before.title == "Choose the goods to keep (Bargemaster)"
    assert "plus every good of 1 kind in your Cellar" in before.text[0]
    assert "staffed Granary of 2 kinds" in before.text[1]
    goods = s.players[0].goods
    assert before.text[-1] == "Done now discards " + ", ".join(
        f"{goods[g]} {g.name.lower()}" for g in sorted(
            (g for g in Good if goods[g]), key=lambda g: (-goods[g], g))[:-1]) + \
        " and " + next(f"{goods[g]} {g.name.lower()}" for g in sorted(
            (g for g in Good if goods[g]), key=lambda g: (-goods[g], g))[-1:]) + "."
    kind = next(g for g in Good if STORE_GOODS[g] in legal(s, 0))
    act(s, 0, STORE_GOODS[kind])
    after = describe(s, 0, NAMES)
    assert f"So far you store all your {kind.name.lower()}." in after.text
    # the view says the same numbers
    view = view_for(s, 0, legal(s, 0), [])
    assert view.keep is not None
    assert view.keep.storage == 1 and view.keep.storage_buildings == [Building.CELLAR]
    assert view.keep.discards == {g: discards(s, 0)[g] for g in Good}
    assert view.keep.discards[kind] == 0
    keep = next(g for g in Good if KEEP_GOOD[g] in legal(s, 0))
    act(s, 0, KEEP_GOOD[keep])
    if 0 in engine.deciding(s):
        assert view_for(s, 0, legal(s, 0), []).keep.discards[keep] == goods[keep] - 1  # type: ignore[union-attr]
        act(s, 0, DONE)
    # spectators never see a keep choice
    assert view_for(s, None, [], []).keep is None


def test_the_mason_tells_its_discount_and_prices() -> None:
    s = fresh(3)
    clear_all(s)
    mat(s, 0, coins=4, plots={PlotKind.STONE_PIT: 2}, worked={PlotKind.STONE_PIT: 2})
    start_role(s, 0, Role.MASON)
    told = describe(s, 0, NAMES)
    text = " ".join(told.text)
    assert "Your 2 staffed stone pits take 2 coins off each price" in text
    assert "as the Mason's picker you pay 1 coin less besides" in text
    flax_mill = BUILDINGS[Building.FLAX_MILL]
    assert f"Flax Mill for {max(0, flax_mill.cost - 2 - 1)}" in text
    assert "You have 4 coins" in text
    theirs = _text(describe(s, 1, NAMES))
    assert "Ada may build" in theirs and "4 coins" in theirs

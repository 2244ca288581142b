"""The seat's part of a view has one home (``views.SEAT_PLACES``), and ``splice`` puts
values along its paths alike in attrs values and in JSON-ready dicts."""

from __future__ import annotations

from typing import Any

import attrs
import pytest

from quaymoor.bots.prng import SplitMix64
from quaymoor.rules.game import Game
from quaymoor.rules.splice import Path, Step, places, splice
from quaymoor.rules.views import SEAT_PLACES, SeatPart, compose


def _at(view: Any, path: Path, seat: int) -> Any:
    """The value at ``path`` in an attrs view (a list of them below ``Step.EACH``)."""
    step, rest = path[0], path[1:]
    if step is Step.EACH:
        return [_at(element, rest, seat) for element in view]
    child = view[seat] if step is Step.OWN else getattr(view, str(step))
    return _at(child, rest, seat) if rest else child


def test_every_field_of_a_seats_part_has_one_place() -> None:
    fields = [field for field, _ in SEAT_PLACES]
    assert sorted(fields) == sorted(f.name for f in attrs.fields(SeatPart))
    assert len(set(fields)) == len(fields)


def test_a_seats_view_is_the_spectators_but_for_its_parts_places() -> None:
    """Over random games, for every seat: ``compose`` puts each field of the part in its
    place, leaves every other seat's mat (the very object) and everything outside the
    places as the spectator sees it, and changes nothing it was given."""
    for players in (2, 3, 4, 5):
        game = Game(players, bytes([players, 7]) * 16)
        chooser = SplitMix64(players)
        while not game.is_over():
            public = game.public_view()
            spectator = compose(public, None)
            before = attrs.evolve(public)
            for seat in range(players):
                part = game.seat_part(seat)
                view = compose(public, part)
                for field, path in SEAT_PLACES:
                    want = getattr(part, field)
                    got = _at(view, path, seat)
                    assert (tuple(got) if Step.EACH in path else got) == want, field
                assert [m.price for m in view.board.market] == [
                    part.prices[m.building] for m in view.board.market]  # by Building
                assert view.mats[seat].seals == part.seals and view.seat == seat
                assert attrs.evolve(view, seat=None, legal=[], takebacks=[], keep=None,
                                    mats=spectator.mats, board=spectator.board) == spectator
                assert [m is p for m, p in zip(view.mats, public.mats, strict=True)] == [
                    i != seat for i in range(players)]
                assert view.board.roles is public.board.roles
            assert public == before
            seat = game.deciding()[0]
            legal = game.legal_actions(seat)
            game.apply(seat, legal[chooser.below(len(legal))])


def test_splice_copies_the_paths_only_and_shares_the_rest() -> None:
    tree = places([("mine", ("mats", Step.OWN, "secret")),
                   ("prices", ("market", Step.EACH, "price")),
                   ("who", ("seat",))])
    view: dict[str, Any] = {
        "seat": None, "mats": [{"secret": None}, {"secret": None}], "other": {"x": 1},
        "market": [{"price": 3}, {"price": 5}],
    }
    shared: dict[Any, Any] = {}
    one = splice(view, tree, 1, {"mine": 9, "prices": (3, 4), "who": 1}, shared)
    assert one == {"seat": 1, "mats": [{"secret": None}, {"secret": 9}], "other": {"x": 1},
                   "market": [{"price": 3}, {"price": 4}]}
    assert view["seat"] is None and view["mats"][1] == {"secret": None}  # not changed
    assert one["other"] is view["other"] and one["mats"][0] is view["mats"][0]
    assert one["market"][0] is view["market"][0]  # its price did not differ
    again = splice(view, tree, 0, {"mine": 2, "prices": (3, 4), "who": 0}, shared)
    assert again["market"] is one["market"]  # the same prices: the same list, made once
    listed = splice(view, tree, 0, {"mine": 2, "prices": (3, 5), "who": 0}, shared)
    assert listed["market"] is view["market"]
    assert splice(view, tree, 0, {"mine": 2, "prices": (3, 4), "who": 0})["market"] \
        is not one["market"]  # nothing kept without ``shared``


@pytest.mark.parametrize("spec", [
    [("a", ("x",)), ("b", ("x", "y"))],  # a place inside a place
    [("a", ("x", "y")), ("b", ("x",))],
    [("a", ("x",)), ("b", ("x",))],  # twice
    [("a", ("x", Step.EACH))],  # EACH must be followed by one key
    [("a", ("x", Step.EACH, "y", "z"))],
])
def test_places_refuses_a_tree_splice_cannot_follow(spec: list[tuple[str, Path]]) -> None:
    with pytest.raises(ValueError):
        places(spec)

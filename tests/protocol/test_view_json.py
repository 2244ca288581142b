"""The spliced update encoder writes exactly what the plain encoder writes, for every seat
and the spectator, at every step of whole games."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from quaymoor.bots.prng import SplitMix64
from quaymoor.protocol.codec import encode, unstructure_with
from quaymoor.protocol.messages import Clock, SeatPublic, Update, WireEvent
from quaymoor.protocol.view_json import UpdateEncoder, ViewEncoder
from quaymoor.rules.data import BUILDINGS
from quaymoor.rules.game import Game
from quaymoor.rules.views import SeatView
from quaymoor.tools.selfplay import game_seed


def _seen(view: SeatView, seen: Counter[str]) -> None:
    """Count the kinds of per-seat parts a check went through."""
    if view.seat is None:
        seen["spectator"] += 1
        return
    if view.takebacks:
        seen["takebacks"] += 1
    if view.keep is not None:
        seen["keep"] += 1
    if any(m.price != BUILDINGS[m.building].cost for m in view.board.market):
        seen["own prices"] += 1
    if view.result is not None:
        seen["result"] += 1


def _check_game(players: int, seed: bytes) -> Counter[str]:
    """Play a whole game, checking every seat's and the spectator's update at each step;
    returns the kinds of per-seat parts checked."""
    game = Game(players, seed)
    chooser = SplitMix64(players)
    views = ViewEncoder(game)
    seats = [SeatPublic(i, f"P{i}", i > 0, False, True) for i in range(players)]
    clocks = [Clock(0, 12.5)]
    events: list[WireEvent] = []
    since = 0
    seen: Counter[str] = Counter()
    while True:
        update = UpdateEncoder(views, version=game.version, since=since, events=events,
                               clocks=clocks, seats=seats)
        # in varying orders, some twice: nothing one seat's encoding caches leaks to another
        order: list[int | None] = [None, *range(players)]
        if game.version % 2:
            order.reverse()
        order.append(order[chooser.below(len(order))])
        for seat in order:
            view = game.view(seat)
            plain = encode(Update(game.version, since, events, view, clocks, seats))
            assert update.snapshot(seat) == plain
            _seen(view, seen)
        if game.is_over():
            break
        seat = game.deciding()[0]
        legal = game.legal_actions(seat)
        takebacks = game.takeback_actions(seat)
        since = game.version
        if takebacks and chooser.below(8) == 0:  # now and then, take an apprentice back
            events = [*game.apply(seat, takebacks[chooser.below(len(takebacks))])]
        else:
            events = [*game.apply(seat, legal[chooser.below(len(legal))])]
    return seen


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_spliced_updates_equal_plain_encoding_through_a_whole_game(players: int) -> None:
    seen = _check_game(players, bytes([players]) * 32)
    assert seen["spectator"] > 100
    assert seen["result"] > 0


def test_every_kind_of_seat_part_is_spliced() -> None:
    """Over a few games, seats with take-backs, a keep-goods choice and prices of their own
    (stone pits, the Mason's picker) were all among those checked."""
    seen: Counter[str] = Counter()
    for players in (2, 3, 4, 5):
        seen += _check_game(players, bytes([16 + players]) * 32)
    for kind in ("takebacks", "keep", "own prices", "result"):
        assert seen[kind] > 0, f"no view with {kind} was checked"


def test_a_spectator_and_seats_asked_before_any_update() -> None:
    """The encoder answers for any seat first, without an update having been made."""
    game = Game(3, bytes(32))
    for seat in (2, None, 0):
        plain = json.dumps(unstructure_with(game.view(seat), SeatView))
        assert ViewEncoder(game).view_json(seat) == plain


@pytest.mark.parametrize("game_index", range(8))
def test_the_spliced_view_is_the_composed_one_for_every_audience(game_index: int) -> None:
    """Over random games of 2-5 players, at every version: each seat's and the
    spectators' JSON-ready view (the public view unstructured once, the seat's part
    spliced in) equals ``game.view`` (``views.compose``) unstructured, and its JSON is
    that view's. Other seats' mats are the public view's own dicts."""
    players = 2 + game_index % 4
    game = Game(players, game_seed(22, game_index))
    chooser = SplitMix64(game_index)
    views = ViewEncoder(game)
    while True:
        for seat in [None, *range(players)]:
            composed = unstructure_with(game.view(seat), SeatView)
            assert views.view_dict(seat) == composed, (game.version, seat)
            assert views.view_json(seat) == json.dumps(composed)
            if seat is not None:
                public_mats = views.view_dict(None)["mats"]
                assert [m is p for m, p in zip(views.view_dict(seat)["mats"], public_mats,
                                               strict=True)] == [i != seat for i in
                                                                 range(players)]
        if game.is_over():
            break
        seat = game.deciding()[0]
        takebacks = game.takeback_actions(seat)
        if takebacks and chooser.below(6) == 0:
            game.apply(seat, takebacks[chooser.below(len(takebacks))])
        else:
            legal = game.legal_actions(seat)
            game.apply(seat, legal[chooser.below(len(legal))])

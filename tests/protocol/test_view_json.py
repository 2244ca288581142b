"""The spliced update encoder writes exactly what the plain encoder writes, for every seat
and the spectator, at every step of whole games."""

from __future__ import annotations

import pytest

from quaymoor.bots.prng import SplitMix64
from quaymoor.protocol.codec import encode
from quaymoor.protocol.messages import Clock, SeatPublic, Update
from quaymoor.protocol.view_json import UpdateEncoder, ViewEncoder
from quaymoor.rules.events import Event
from quaymoor.rules.game import Game


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_spliced_updates_equal_plain_encoding_through_a_whole_game(players: int) -> None:
    game = Game(players, bytes([players]) * 32)
    chooser = SplitMix64(players)
    views = ViewEncoder(game)
    seats = [SeatPublic(i, f"P{i}", i > 0, False, True) for i in range(players)]
    clocks = [Clock(0, 12.5)]
    events: list[Event] = []
    since = 0
    checked = 0
    while True:
        update = UpdateEncoder(views, version=game.version, since=since, events=events,
                               clocks=clocks, seats=seats)
        for seat in [None, *range(players)]:
            plain = encode(Update(game.version, since, events, game.view(seat), clocks, seats))
            assert update.for_seat(seat) == plain
            checked += 1
        if game.is_over():
            break
        seat = game.deciding()[0]
        legal = game.legal_actions(seat)
        since = game.version
        events = game.apply(seat, legal[chooser.below(len(legal))])
    assert checked > 100

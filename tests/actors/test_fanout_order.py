"""A table's fan-out serves its players before its spectators, whichever attached first:
with a thousand spectators, the player who acted is not the thousandth to hear of it."""

from __future__ import annotations

from quaymoor.actors.connection import Connection
from quaymoor.actors.fanout import Fanout
from quaymoor.actors.outlet import Frame, Offer, Outlet, Receipt
from quaymoor.protocol.messages import Watchers


class _Recorded(Outlet):
    """An outlet that notes, in one list shared by the table's outlets, who was offered
    each frame, in order."""

    __slots__ = ("_name", "_order")

    def __init__(self, name: str, order: list[str]) -> None:
        super().__init__(8)
        self._name = name
        self._order = order

    def offer(self, frame: Frame, receipt: Receipt | None = None) -> Offer:
        self._order.append(self._name)
        return super().offer(frame, receipt)


def _conn(ident: int, seat: int | None, order: list[str]) -> Connection:
    name = f"seat {seat}" if seat is not None else f"spectator {ident}"
    return Connection(ident, _Recorded(name, order), seat=seat)


def test_players_hear_first_even_when_spectators_came_first() -> None:
    order: list[str] = []
    fanout = Fanout("t")
    for ident in range(5):
        fanout.add(_conn(ident, None, order))
    fanout.add(_conn(10, 1, order))
    fanout.add(_conn(6, None, order))
    fanout.add(_conn(11, 0, order))
    assert fanout.broadcast(Watchers(6, [])) == []
    assert set(order[:2]) == {"seat 0", "seat 1"}
    assert order[2:] == [f"spectator {i}" for i in (0, 1, 2, 3, 4, 6)]


def test_a_player_who_leaves_and_comes_back_is_first_again() -> None:
    order: list[str] = []
    fanout = Fanout("t")
    player = _conn(1, 0, order)
    fanout.add(player)
    for ident in range(2, 5):
        fanout.add(_conn(ident, None, order))
    assert fanout.remove(player)
    assert not fanout.remove(player)
    fanout.add(_conn(9, 0, order))
    fanout.broadcast(Watchers(3, []))
    assert order == ["seat 0", "spectator 2", "spectator 3", "spectator 4"]
    assert len(fanout.connections) == 4

"""A finished game's views step by step, for the replay on the board (``/games/<id>``).

Pure and synchronous (the HTTP side runs it in a worker thread). The record is public
once the game has ended (its seed is revealed), so any seat's view may be shown; what a
seat saw is still exactly what the rules compute for it: ``Game.view(seat)`` after each
action, replayed from the record. The browser draws these views with the live table's
own rendering and never works anything out of the rules itself.

Compact: the view after the setup is sent whole, every later one as the patch from the one
before (``protocol.patch``, the same operations as a delta ``update``). The seat's legal
actions and take-backs are left out (emptied): a replay is read-only, and they are most
of a view's size.
"""

from __future__ import annotations

from typing import Any

from quaymoor.protocol.codec import unstructure_with
from quaymoor.protocol.patch import diff
from quaymoor.rules.errors import RulesError
from quaymoor.rules.game import Game
from quaymoor.rules.record import GameRecord
from quaymoor.rules.views import SeatView


class ViewsError(ValueError):
    """A record whose actions the rules refuse (it cannot be replayed)."""


def _view(game: Game, seat: int | None) -> dict[str, Any]:
    view: dict[str, Any] = unstructure_with(game.view(seat), SeatView)
    view["legal"] = []
    view["takebacks"] = []
    return view


def replay_views(record: GameRecord, seat: int | None) -> dict[str, Any]:
    """``seat``'s view (None: a spectator's) after the setup (``start``) and the patch to
    the view after each action (``patches``, one per action, in order). Raises
    ``ViewsError`` when an action does not replay, ``ValueError`` for a seat not in the
    game."""
    if seat is not None and not 0 <= seat < record.players:
        raise ValueError(f"seat must be 0 to {record.players - 1}, not {seat}")
    game = Game.from_record(record, events=False)
    start = last = _view(game, seat)
    patches: list[Any] = []
    for i, step in enumerate(record.actions):
        try:
            game.apply(step.seat, step.action, step.at)
        except RulesError as exc:
            raise ViewsError(f"action {i + 1} (seat {step.seat}) does not replay: {exc}"
                             ) from None
        view = _view(game, seat)
        patches.append(diff(last, view))
        last = view
    return {"seat": seat, "players": record.players, "start": start, "patches": patches}

"""Every seat's ``update`` for one change of the game, encoded once and spliced.

The seats of a table see nearly the same view: the board and the other mats are public,
and only a few parts are a seat's own (its mat with seals and score, prices in the market,
its legal actions and take-backs, its keep-goods choice). Encoding a whole view per seat
was most of the server's work per action, so this module encodes the shared view once per
game version as a template with placeholders, encodes each seat's own parts, and splices.

The output is byte for byte what ``codec.encode(Update(...))`` writes for the same message
(a test checks it over whole games), so clients cannot tell the difference.
"""

from __future__ import annotations

import json
import re
from typing import Any

from quaymoor.protocol.codec import unstructure_with
from quaymoor.protocol.messages import Clock, SeatPublic, Update
from quaymoor.rules.actions import Action
from quaymoor.rules.common import price
from quaymoor.rules.data import BUILDINGS
from quaymoor.rules.events import Event
from quaymoor.rules.game import Game
from quaymoor.rules.scoring import score
from quaymoor.rules.state import Phase
from quaymoor.rules.views import KeepChoice, SeatView, view_for

_MARK = "\u0000slot:{}\u0000"
_SLOT = re.compile(r'"\\u0000slot:([a-z_0-9]+)\\u0000"')
_BUILDING_KEYS = tuple(b.key for b in BUILDINGS)


def _dumps(value: Any) -> str:
    return json.dumps(value)


class _Template:
    """A JSON text with named placeholders, split once, filled many times."""

    def __init__(self, text: str) -> None:
        self.parts: list[str] = []
        self.names: list[str] = []
        last = 0
        for match in _SLOT.finditer(text):
            self.parts.append(text[last:match.start()])
            self.names.append(match.group(1))
            last = match.end()
        self.parts.append(text[last:])

    def fill(self, values: dict[str, str]) -> str:
        out = [self.parts[0]]
        for name, part in zip(self.names, self.parts[1:], strict=True):
            out.append(values[name])
            out.append(part)
        return "".join(out)


class ViewEncoder:
    """Encodes ``update`` messages for every seat and spectator of one game."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self._version = -1
        self._view: _Template | None = None
        self._public_mats: list[str] = []
        self._own_mats: list[str] = []

    def _refresh(self) -> _Template:
        game = self.game
        if self._view is not None and self._version == game.version:
            return self._view
        s = game.state
        spectator = unstructure_with(view_for(s, None, [], []), SeatView)
        mats: list[dict[str, Any]] = spectator["mats"]
        self._public_mats = [_dumps(m) for m in mats]
        own = []
        for i, mat in enumerate(mats):
            if mat["seals"] is None:
                mat = {**mat, "seals": s.players[i].seals, "score": score(s.players[i], i).total}
            own.append(_dumps(mat))
        self._own_mats = own
        spectator["seat"] = _MARK.format("seat")
        spectator["board"]["market"] = _MARK.format("market")
        spectator["mats"] = [_MARK.format(f"mat{i}") for i in range(len(mats))]
        spectator["legal"] = _MARK.format("legal")
        spectator["takebacks"] = _MARK.format("takebacks")
        spectator["keep"] = _MARK.format("keep")
        self._view = _Template(_dumps(spectator))
        self._version = game.version
        return self._view

    def view_json(self, seat: int | None) -> str:
        """The JSON of ``game.view(seat)``."""
        template = self._refresh()
        game = self.game
        s = game.state
        values: dict[str, str] = {}
        for i in range(s.n):
            values[f"mat{i}"] = self._own_mats[i] if i == seat else self._public_mats[i]
        copies = s.copies
        if seat is None:
            values["seat"] = "null"
            prices = [b.cost for b in BUILDINGS]
            values["legal"] = values["takebacks"] = "[]"
            values["keep"] = "null"
        else:
            values["seat"] = str(seat)
            prices = [price(s, seat, b) for b in range(len(BUILDINGS))]
            values["legal"] = _actions(game.legal_actions(seat))
            values["takebacks"] = _actions(game.takeback_actions(seat))
            keep = None
            if s.phase is Phase.KEEP_GOODS and not s.decided[seat]:
                keep = game.view(seat).keep
            values["keep"] = "null" if keep is None else _dumps(unstructure_with(keep, KeepChoice))
        values["market"] = "[" + ", ".join(
            f'{{"building": "{_BUILDING_KEYS[b]}", "copies": {copies[b]}, "price": {prices[b]}}}'
            for b in range(len(BUILDINGS))
        ) + "]"
        return template.fill(values)


def _actions(actions: list[Action]) -> str:
    return _dumps(unstructure_with(actions, list[Action]))


class UpdateEncoder:
    """One broadcast's ``update`` messages: the parts common to all (events, clocks,
    seats) encoded once, the view spliced in per seat."""

    def __init__(
        self,
        views: ViewEncoder,
        *,
        version: int,
        since: int,
        events: list[Event],
        clocks: list[Clock],
        seats: list[SeatPublic],
    ) -> None:
        self._views = views
        message = unstructure_with(
            Update(version, since, events, _PLACEHOLDER_VIEW, clocks, seats), Update,
            tagged=True,
        )
        message["view"] = _MARK.format("view")
        self._template = _Template(_dumps(message))

    def for_seat(self, seat: int | None) -> str:
        return self._template.fill({"view": self._views.view_json(seat)})


def _placeholder_view() -> SeatView:
    game = Game(2, bytes(32), events=False)
    return game.view(None)


_PLACEHOLDER_VIEW = _placeholder_view()

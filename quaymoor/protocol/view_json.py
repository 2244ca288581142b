"""Every seat's ``update`` for one change of the game, encoded once and spliced.

The seats of a table see nearly the same view. The rules build it in two parts
(``rules.views``): the public view, which everyone sees, and each seat's own part (its mat
with seals and score, its prices in the market, its legal actions and take-backs, its
keep-goods choice). Encoding a whole view per seat was most of the server's work per
action, so this module encodes the public view once per game version as a template with
placeholders where the seat's part goes, encodes each seat's part, and splices them in the
places where ``views.compose`` puts them. It decides nothing about what a seat may see.

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
from quaymoor.rules.data import BUILDING_COUNT, MAX_PLAYERS, MIN_PLAYERS
from quaymoor.rules.events import Event
from quaymoor.rules.game import Game
from quaymoor.rules.views import KeepChoice, SeatView, compose

_MARK = "\u0000slot:{}\u0000"
_SLOT = re.compile(r'"\\u0000slot:([a-z_0-9]+)\\u0000"')


def _dumps(value: Any) -> str:
    if value is None:
        return "null"
    if type(value) is int:  # most placeholders hold one
        return str(value)
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


class _Slots:
    """Turns parts of an unstructured view into placeholders, keeping the JSON of each."""

    def __init__(self) -> None:
        self.held: dict[str, str] = {}

    def cut(self, container: Any, key: Any, name: str) -> None:
        self.held[name] = _dumps(container[key])
        container[key] = _MARK.format(name)


_SEALS = tuple(f"seals{i}" for i in range(MAX_PLAYERS))
_SCORE = tuple(f"score{i}" for i in range(MAX_PLAYERS))
_PRICE = tuple(f"price{b}" for b in range(BUILDING_COUNT))


class ViewEncoder:
    """Encodes ``update`` messages for every seat and spectator of one game.

    Per game version: the public view (a spectator's) as a template, with placeholders in
    the places where ``views.compose`` puts a seat's part, and the market as a template
    of its prices. Per seat: that seat's part, spliced in; the market is encoded once per
    set of prices (most seats pay the same).
    """

    def __init__(self, game: Game) -> None:
        self.game = game
        self._version = -1
        self._view: _Template | None = None
        self._public: dict[str, str] = {}  #: the spectator's JSON for every placeholder
        self._market: _Template | None = None
        self._markets: dict[tuple[int, ...], str] = {}  #: the market's JSON, by prices

    def _refresh(self) -> _Template:
        game = self.game
        if self._view is not None and self._version == game.version:
            return self._view
        view = unstructure_with(compose(game.public_view(), None), SeatView)
        slots = _Slots()
        slots.cut(view, "seat", "seat")
        for i, mat in enumerate(view["mats"]):
            slots.cut(mat, "seals", _SEALS[i])
            slots.cut(mat, "score", _SCORE[i])
        market = view["board"]["market"]
        slots.cut(view["board"], "market", "market")
        for name in ("legal", "takebacks", "keep"):
            slots.cut(view, name, name)
        for b, building in enumerate(market):
            building["price"] = _MARK.format(_PRICE[b])
        self._market = _Template(json.dumps(market))
        self._markets = {}
        self._public = slots.held
        self._view = _Template(json.dumps(view))
        self._version = game.version
        return self._view

    def view_json(self, seat: int | None) -> str:
        """The JSON of ``game.view(seat)``."""
        template = self._refresh()
        if seat is None:
            return template.fill(self._public)
        part = self.game.seat_part(seat)
        values = self._public.copy()
        values["seat"] = str(part.seat)
        values[_SEALS[part.seat]] = str(part.seals)
        values[_SCORE[part.seat]] = str(part.score)
        values["market"] = self._market_json(part.prices)
        values["legal"] = _actions(part.legal)
        values["takebacks"] = _actions(part.takebacks)
        if part.keep is not None:
            values["keep"] = json.dumps(unstructure_with(part.keep, KeepChoice))
        return template.fill(values)

    def _market_json(self, prices: tuple[int, ...]) -> str:
        text = self._markets.get(prices)
        if text is None:
            assert self._market is not None
            text = self._market.fill(dict(zip(_PRICE, map(str, prices), strict=True)))
            self._markets[prices] = text
        return text


#: Each action's JSON, encoded the first time it is seen (there are a few hundred).
_ACTION_JSON: dict[Action, str] = {}


def _actions(actions: list[Action]) -> str:
    """The JSON of a list of actions, as ``json.dumps`` writes it."""
    out = []
    for action in actions:
        text = _ACTION_JSON.get(action)
        if text is None:
            text = _ACTION_JSON[action] = json.dumps(unstructure_with(action, Action))
        out.append(text)
    return "[" + ", ".join(out) + "]"


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
    game = Game(MIN_PLAYERS, bytes(32), events=False)
    return game.view(None)


_PLACEHOLDER_VIEW = _placeholder_view()

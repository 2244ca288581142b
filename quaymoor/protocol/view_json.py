"""Every seat's ``update`` for one change of the game: a delta (a patch) per audience, or
a snapshot encoded once and spliced.

The seats of a table see nearly the same view. The rules build it in two parts
(``rules.views``): the public view, which everyone sees, and each seat's own part (its mat
with seals and score, its prices in the market, its legal actions and take-backs, its
keep-goods choice). Encoding a whole view per seat was most of the server's work per
action, so this module encodes the public view once per game version as a template with
placeholders where the seat's part goes, encodes each seat's part, and splices them in the
places where ``views.compose`` puts them. It decides nothing about what a seat may see.

A snapshot is byte for byte what ``codec.encode(Update(...))`` writes for the same message
(a test checks it over whole games), so clients cannot tell the difference.

Most updates are deltas (docs/protocol.md, section 5): the encoder keeps, per audience (a
seat, or the spectators), the JSON-ready view it last sent, and the delta carries the
patch from that view to the new one (``patch.diff``), computed from that audience's two
views only. An audience whose last view is not at the update's ``since`` gets a snapshot.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

import attrs

from quaymoor.protocol.codec import unstructure_with
from quaymoor.protocol.messages import Clock, SeatPublic, Update, WireEvent
from quaymoor.protocol.patch import Op, diff
from quaymoor.rules.actions import Action
from quaymoor.rules.data import BUILDING_COUNT, MAX_PLAYERS, MIN_PLAYERS
from quaymoor.rules.game import Game
from quaymoor.rules.views import KeepChoice, MarketBuilding, PlayerView, SeatView, compose

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
    """Encodes the views of every seat and spectator of one game, whole or as patches.

    Per game version: the public view (a spectator's) unstructured once. A seat's view is
    that object with the seat's part put in along the paths where ``views.compose`` puts
    it (copies of the containers on those paths; everything else shared), so the views of
    all audiences share their public parts, and ``patch.diff`` finds those unchanged by
    identity.

    For a snapshot, the public view as a template, with placeholders in the places of a
    seat's part, and the market as a template of its prices; each seat's part is spliced
    in, the market encoded once per set of prices (most seats pay the same).

    ``sent`` remembers, per audience (a seat, or None for the spectators), the version
    and the view last sent to it: a delta is that view's patch to the current one.
    """

    def __init__(self, game: Game) -> None:
        self.game = game
        self._version = -1
        self._view: _Template | None = None
        self._public: dict[str, str] = {}  #: the spectator's JSON for every placeholder
        self._market: _Template | None = None
        self._markets: dict[tuple[int, ...], str] = {}  #: the market's JSON, by prices
        self._dict_version = -1
        self._dicts: dict[int | None, dict[str, Any]] = {}  #: JSON-ready views, by seat
        #: the public view's patch from the one before it: (that view, the patch)
        self._public_patch: tuple[dict[str, Any], list[Op]] | None = None
        self._market_lists: dict[tuple[int, ...], list[dict[str, Any]]] = {}
        #: by seat: the mat last unstructured and its dict (shared: never changed)
        self._mats: dict[int, tuple[PlayerView, dict[str, Any]]] = {}
        #: the public market last unstructured and its list (shared: never changed)
        self._public_market: tuple[list[MarketBuilding], list[dict[str, Any]]] | None = None
        #: per audience: (the version, the JSON-ready view) last sent to it
        self.sent: dict[int | None, tuple[int, dict[str, Any]]] = {}

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

    # ---------------------------------------------------------------- as patches

    def view_dict(self, seat: int | None) -> dict[str, Any]:
        """``game.view(seat)`` unstructured (JSON-ready). Shared: never change it."""
        game = self.game
        if self._dict_version != game.version:
            self._dict_version = game.version
            shown = game.public_view()
            whole = compose(shown, None)
            public = unstructure_with(
                attrs.evolve(whole, mats=[], board=attrs.evolve(whole.board, market=[])),
                SeatView)
            public["mats"] = [self._mat_dict(i, mat) for i, mat in enumerate(shown.mats)]
            public["board"]["market"] = self._market_dicts(shown.board.market)
            last = self._dicts.get(None)
            # The patch from the last public view; it also makes ``public`` share that
            # view's objects wherever they are equal, and so every seat's view does.
            self._public_patch = None if last is None else (last, diff(last, public))
            self._dicts = {None: public}
            listed = tuple(m["price"] for m in public["board"]["market"])
            self._market_lists = {listed: public["board"]["market"]}
        view = self._dicts.get(seat)
        if view is not None:
            return view
        assert seat is not None
        public = self._dicts[None]
        part = game.seat_part(seat)
        view = dict(public)
        view["seat"] = part.seat
        mats = list(public["mats"])
        mat = dict(mats[part.seat])
        mat["seals"] = part.seals
        mat["score"] = part.score
        mats[part.seat] = mat
        view["mats"] = mats
        board = dict(public["board"])
        board["market"] = self._market_list(part.prices)
        view["board"] = board
        view["legal"] = [_action_dict(a) for a in part.legal]
        view["takebacks"] = [_action_dict(a) for a in part.takebacks]
        if part.keep is not None:
            view["keep"] = unstructure_with(part.keep, KeepChoice)
        self._dicts[seat] = view
        return view

    def _mat_dict(self, seat: int, mat: PlayerView) -> dict[str, Any]:
        """``mat`` unstructured; the same dict as last time when the game gave the same
        mat object (``Game.public_view`` keeps a mat that has not changed)."""
        last = self._mats.get(seat)
        if last is not None and last[0] is mat:
            return last[1]
        value: dict[str, Any] = unstructure_with(mat, PlayerView)
        self._mats[seat] = (mat, value)
        return value

    def _market_dicts(self, market: list[MarketBuilding]) -> list[dict[str, Any]]:
        """The public ``market`` unstructured; the same list as last time when the game
        gave the same list (no copy has gone since)."""
        if self._public_market is not None and self._public_market[0] is market:
            return self._public_market[1]
        value = [_market_entry(m["building"], m["copies"], m["price"])
                 for m in unstructure_with(market, list[MarketBuilding])]
        self._public_market = (market, value)
        return value

    def _market_list(self, prices: tuple[int, ...]) -> list[dict[str, Any]]:
        market = self._market_lists.get(prices)
        if market is None:
            public = self._dicts[None]["board"]["market"]
            market = [_market_entry(m["building"], m["copies"], price)
                      for m, price in zip(public, prices, strict=True)]
            self._market_lists[prices] = market
        return market

    def patch(self, seat: int | None, since: int) -> list[Op] | None:
        """The patch from the view last sent to ``seat``'s audience to its view now, if
        that view was at ``since``; None if not (the audience needs a snapshot). Either
        way the audience counts as having the current view from now on."""
        view = self.view_dict(seat)
        sent = self.sent.get(seat)
        self.sent[seat] = (self.game.version, view)
        if sent is None or sent[0] != since:
            return None
        if seat is None and self._public_patch is not None \
                and self._public_patch[0] is sent[1]:
            return self._public_patch[1]
        return diff(sent[1], view)

    def mark_sent(self, seat: int | None) -> None:
        """A snapshot of the current view went to ``seat``'s audience."""
        self.sent[seat] = (self.game.version, self.view_dict(seat))


#: Each market entry a seat's view shows, by (building, copies, price): a few hundred, made
#: once and shared by every view (never changed).
_MARKET_ENTRIES: dict[tuple[str, int, int], dict[str, Any]] = {}


def _market_entry(building: str, copies: int, price: int) -> dict[str, Any]:
    key = (building, copies, price)
    entry = _MARKET_ENTRIES.get(key)
    if entry is None:
        entry = _MARKET_ENTRIES[key] = {"building": building, "copies": copies,
                                        "price": price}
    return entry


#: Each action's JSON, encoded the first time it is seen (there are a few hundred).
_ACTION_JSON: dict[Action, str] = {}


#: Each action unstructured, the first time it is seen (shared: never changed).
_ACTION_DICT: dict[Action, dict[str, Any]] = {}


def _action_dict(action: Action) -> dict[str, Any]:
    value = _ACTION_DICT.get(action)
    if value is None:
        value = _ACTION_DICT[action] = unstructure_with(action, Action)
    return value


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
    """One broadcast's ``update`` messages. A snapshot: the parts common to all (events,
    clocks, seats) encoded once, the view spliced in per seat. A delta: the view's patch
    for the seat's audience, computed once per audience, between the common parts."""

    def __init__(
        self,
        views: ViewEncoder,
        *,
        version: int,
        since: int,
        events: Sequence[WireEvent],
        clocks: list[Clock],
        seats: list[SeatPublic],
    ) -> None:
        self._views = views
        self.version = version
        self.since = since
        self._message = (version, since, list(events), clocks, seats)
        self._template: _Template | None = None  #: for snapshots, made when first needed
        self._head = (f'{{"version":{version},"since":{since},"events":'
                      f'{_compact(unstructure_with(events, list[WireEvent]))},"patch":')
        self._clocks = f',"clocks":{_compact(unstructure_with(clocks, list[Clock]))}'
        #: the seats, as a delta writes them
        self.seats_json = _compact(unstructure_with(seats, list[SeatPublic]))
        self._patches: dict[int | None, str | None] = {}

    def _snapshot_json(self, seat: int | None) -> str:
        if self._template is None:
            version, since, events, clocks, seats = self._message
            message = unstructure_with(
                Update(version, since, events, _PLACEHOLDER_VIEW, clocks, seats), Update,
                tagged=True,
            )
            message["view"] = _MARK.format("view")
            self._template = _Template(_dumps(message))
        return self._template.fill({"view": self._views.view_json(seat)})

    def snapshot(self, seat: int | None) -> str:
        """The update with ``seat``'s whole view (as ``codec.encode`` writes it); its
        audience has the current view from now on."""
        self._views.mark_sent(seat)
        return self._snapshot_json(seat)

    def for_seat(self, seat: int | None, *, seats: bool = True) -> str:
        """The update for ``seat``'s audience: a delta if the audience has the view at
        ``since`` (with ``seats`` only if asked), else a snapshot. Call it for each
        audience of a broadcast; the patch is computed at the first call."""
        if seat in self._patches:
            patch = self._patches[seat]
        else:
            ops = self._views.patch(seat, self.since)
            patch = None if ops is None else _compact(ops)
            self._patches[seat] = patch
        if patch is None:
            return self._snapshot_json(seat)
        tail = f',"seats":{self.seats_json},"type":"update"}}' if seats else ',"type":"update"}'
        return self._head + patch + self._clocks + tail


def _compact(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


def _placeholder_view() -> SeatView:
    game = Game(MIN_PLAYERS, bytes(32), events=False)
    return game.view(None)


_PLACEHOLDER_VIEW = _placeholder_view()

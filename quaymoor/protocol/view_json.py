"""Every seat's ``update`` for one change of the game: a delta (a patch) per audience, or
a snapshot.

The seats of a table see nearly the same view. The rules build it in two parts
(``rules.views``): the public view, which everyone sees, and each seat's own part (its mat
with seals and score, its prices in the market, its legal actions and take-backs, its
keep-goods choice). Unstructuring a whole view per seat was most of the server's work per
action, so this module unstructures the public view once per game version (a mat or the
market that did not change is even the dict of the version before) and splices each
seat's part into it with ``views.splice_part``, in the places ``views.SEAT_PLACES``
gives, as ``views.compose`` does; it decides nothing about what a seat may see.

Most updates are deltas (docs/protocol.md, section 5): the encoder keeps, per audience (a
seat, or the spectators), the JSON-ready view it last sent, and the delta carries the
patch from that view to the new one (``patch.diff``), computed from that audience's two
views only. An audience whose last view is not at the update's ``since`` gets a snapshot:
its view's JSON, written once per version, between the update's other members written
once per update. A snapshot is byte for byte what ``codec.encode(Update(...))`` writes for
the same message (a test checks it over whole games), so clients cannot tell the
difference.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

import attrs

from quaymoor.protocol.codec import unstructure_with
from quaymoor.protocol.messages import Clock, SeatPublic, Update, WireEvent
from quaymoor.protocol.patch import Op, diff
from quaymoor.rules.actions import Action
from quaymoor.rules.data import MIN_PLAYERS
from quaymoor.rules.game import Game
from quaymoor.rules.splice import Shared
from quaymoor.rules.views import (
    MarketBuilding,
    PlayerView,
    SeatPart,
    SeatView,
    compose,
    splice_part,
)


class ViewEncoder:
    """Encodes the views of every seat and spectator of one game, whole or as patches.

    Per game version: the public view (a spectator's) unstructured once. A seat's view is
    that object with the seat's part spliced in (``views.splice_part``: copies of the
    containers on the part's paths; everything else shared), so the views of all
    audiences share their public parts, and ``patch.diff`` finds those unchanged by
    identity. A view's JSON is written once per version, when a snapshot needs it.

    ``sent`` remembers, per audience (a seat, or None for the spectators), the version
    and the view last sent to it: a delta is that view's patch to the current one.
    """

    def __init__(self, game: Game) -> None:
        self.game = game
        self._version = -1
        self._dicts: dict[int | None, dict[str, Any]] = {}  #: JSON-ready views, by seat
        self._texts: dict[int | None, str] = {}  #: their JSON, by seat, once written
        self._shared: Shared = {}  #: what seats' views share (``views.splice_part``)
        #: the public view's patch from the one before it: (that view, the patch)
        self._public_patch: tuple[dict[str, Any], list[Op]] | None = None
        #: by seat: the mat last unstructured and its dict (shared: never changed)
        self._mats: dict[int, tuple[PlayerView, dict[str, Any]]] = {}
        #: the public market last unstructured and its list (shared: never changed)
        self._public_market: tuple[list[MarketBuilding], list[dict[str, Any]]] | None = None
        #: per audience: (the version, the JSON-ready view) last sent to it
        self.sent: dict[int | None, tuple[int, dict[str, Any]]] = {}

    def view_json(self, seat: int | None) -> str:
        """The JSON of ``game.view(seat)``, as ``json.dumps`` writes it."""
        view = self.view_dict(seat)
        text = self._texts.get(seat)
        if text is None:
            text = self._texts[seat] = json.dumps(view)
        return text

    def view_dict(self, seat: int | None) -> dict[str, Any]:
        """``game.view(seat)`` unstructured (JSON-ready). Shared: never change it."""
        game = self.game
        if self._version != game.version:
            self._version = game.version
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
            self._texts = {}
        view = self._dicts.get(seat)
        if view is None:
            assert seat is not None
            view = self._dicts[seat] = splice_part(
                self._dicts[None], seat, _part_values(game.seat_part(seat)), self._shared)
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
        value: list[dict[str, Any]] = unstructure_with(market, list[MarketBuilding])
        self._public_market = (market, value)
        return value

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


def _to_json(kind: Any) -> Callable[[Any], Any] | None:
    """How a value of ``kind`` (a field of ``SeatPart``) is made JSON-ready; None when it
    is already (an int). Actions are unstructured once each (``_action_dict``)."""
    if kind is int:
        return None
    if kind == tuple[int, ...]:
        return list
    if kind == list[Action]:
        return lambda actions: [_action_dict(a) for a in actions]
    return lambda value: None if value is None else unstructure_with(value, kind)


#: Each field of a seat's part, and how it is made JSON-ready
_PART_TO_JSON = [(f.name, _to_json(f.type)) for f in attrs.fields(attrs.resolve_types(SeatPart))]


def _part_values(part: SeatPart) -> dict[str, Any]:
    """Each field of a seat's part, JSON-ready (its actions shared: ``_action_dict``)."""
    values = {}
    for field, to_json in _PART_TO_JSON:
        value = getattr(part, field)
        values[field] = value if to_json is None else to_json(value)
    return values


#: Each action unstructured, the first time it is seen (shared: never changed; there are
#: a few hundred).
_ACTION_DICT: dict[Action, dict[str, Any]] = {}


def _action_dict(action: Action) -> dict[str, Any]:
    value = _ACTION_DICT.get(action)
    if value is None:
        value = _ACTION_DICT[action] = unstructure_with(action, Action)
    return value


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
        #: for snapshots, the JSON before and after the view, written when first needed
        self._around: tuple[str, str] | None = None
        self._head = (f'{{"version":{version},"since":{since},"events":'
                      f'{_compact(unstructure_with(events, list[WireEvent]))},"patch":')
        self._clocks = f',"clocks":{_compact(unstructure_with(clocks, list[Clock]))}'
        #: the seats, as a delta writes them
        self.seats_json = _compact(unstructure_with(seats, list[SeatPublic]))
        self._patches: dict[int | None, str | None] = {}

    def _snapshot_json(self, seat: int | None) -> str:
        if self._around is None:
            version, since, events, clocks, seats = self._message
            message = unstructure_with(
                Update(version, since, events, _PLACEHOLDER_VIEW, clocks, seats), Update,
                tagged=True,
            )
            message["view"] = _VIEW_MARK
            head, tail = json.dumps(message).split(json.dumps(_VIEW_MARK))
            self._around = head, tail
        head, tail = self._around
        return head + self._views.view_json(seat) + tail

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


#: Where a snapshot's view goes, in the JSON of its update (no event text holds it)
_VIEW_MARK = "\u0000view\u0000"


def _placeholder_view() -> SeatView:
    game = Game(MIN_PLAYERS, bytes(32), events=False)
    return game.view(None)


_PLACEHOLDER_VIEW = _placeholder_view()

"""What one seat (or a spectator) may see of a game (rules.md 5): decided here, once.

A view is built fresh from the state and holds only public facts plus the seat's own
secrets: its seals and total. Other seats show building points only; a spectator sees no
seals at all. The face-down stack is a count, never an order; the seed is not in the state.
At the end everything is revealed: every seat's seals and score.

How it is built. ``public_view(s)`` is what everyone may see: the board (the market priced
at the listed costs), every mat as the other seats see it, who decides, and the result at
the end; it is exactly a spectator's view. ``seat_part(s, seat, legal, takebacks)`` is what
only ``seat`` may see besides: its own mat with seals and score, the prices it would pay,
its legal actions and take-backs, and its keep-goods choice. ``SEAT_PLACES`` says, once,
where in a view each field of that part goes, and ``splice_part`` puts a part there, in
these frozen views (``compose``) as in the wire's JSON-ready dicts (``protocol.view_json``
unstructures the public part once per version and splices each seat's part in), so the
wire never decides what is secret. ``view_for`` does all three.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

import attrs

from quaymoor.rules.actions import Action
from quaymoor.rules.bargemaster import discards, storage, storage_buildings
from quaymoor.rules.common import deciding, prices
from quaymoor.rules.data import (
    BARGES,
    BUILDING_KINDS,
    BUILDINGS,
    GOODS,
    PLOT_KINDS,
    ROLES,
    Building,
    Good,
    PlotKind,
    Role,
)
from quaymoor.rules.scoring import Score, building_points, score, scores, winners
from quaymoor.rules.splice import Path, Shared, Step, places, splice
from quaymoor.rules.state import GameState, Phase

V = TypeVar("V")


@attrs.frozen
class BuildingView:
    building: Building
    apprentices: int


@attrs.frozen
class PlayerView:
    """One seat's mat, as the viewer may see it."""

    seat: int
    coins: int
    goods: dict[Good, int]
    plots: dict[PlotKind, int]  #: holding spaces by kind
    worked: dict[PlotKind, int]  #: of those, how many have an apprentice
    buildings: list[BuildingView]  #: the high street, in the order built
    lodge: int
    building_points: int
    seals: int | None  #: only for the viewer's own seat, or at the end
    score: int | None  #: likewise


@attrs.frozen
class RoleView:
    role: Role
    coins: int
    picked_by: int | None  #: this round


@attrs.frozen
class BargeView:
    capacity: int
    good: Good | None
    load: int


@attrs.frozen
class MarketBuilding:
    building: Building
    copies: int
    price: int  #: what the viewer would pay now (the listed cost for a spectator)


@attrs.frozen
class BoardView:
    round: int
    warden: int
    #: pick_role, surveyor, reeve, mason, miller, chandler, bargemaster, keep_goods, game_over
    phase: Phase  #: on the wire its lowercase name, e.g. "keep_goods"
    role: Role | None  #: being carried out
    picker: int | None
    turn: int | None  #: whose turn in a turn-order phase
    roles: list[RoleView]
    face_up: list[Good]
    stack: int  #: face-down plots left (their order is secret)
    discard: int
    stone_pits: int
    market: list[MarketBuilding]
    hall: list[Good]
    barges: list[BargeView]
    apprentice_barge: int
    supply_apprentices: int
    supply_goods: dict[Good, int]
    seals: int  #: seals left in the supply
    end_reasons: list[str]


@attrs.frozen
class KeepChoice:
    """The viewer's keep-goods choice so far (after shipping), and what it may keep: 1 good
    of one kind (``kept``) plus every good of ``storage`` kinds (``stored``)."""

    stored: list[Good]  #: the kinds it keeps whole so far
    kept: Good | None  #: the one good it keeps so far
    storage: int  #: how many kinds it may keep whole: its staffed Cellar 1, Granary 2
    storage_buildings: list[Building]  #: its staffed ``cellar`` and ``granary``
    discards: dict[Good, int]  #: what ``done`` now gives back to the supply, by good


@attrs.frozen
class FinalScore:
    seat: int
    seals: int
    building_points: int
    bonuses: dict[str, int]
    total: int
    tiebreak: int


@attrs.frozen
class Result:
    reasons: list[str]
    scores: list[FinalScore]
    winners: list[int]


@attrs.frozen
class SeatView:
    """Everything ``seat`` may know now (``seat`` is None for a spectator)."""

    seat: int | None
    players: int
    version: int  #: actions applied so far
    board: BoardView
    mats: list[PlayerView]
    deciding: list[int]
    legal: list[Action]  #: what the viewer may do now
    takebacks: list[Action]  #: apprentices the viewer may take back (Reeve)
    keep: KeepChoice | None
    result: Result | None


@attrs.frozen
class PublicView:
    """What everyone may see now: a spectator's view."""

    players: int
    version: int
    board: BoardView  #: the market priced at the listed costs
    mats: list[PlayerView]  #: seals and score only at the end
    deciding: list[int]
    result: Result | None


@attrs.frozen
class SeatPart:
    """What only ``seat`` may see now, besides the public view."""

    seat: int
    seals: int  #: its own seals, shown on its mat
    score: int  #: its own running total, shown on its mat
    prices: tuple[int, ...]  #: what it would pay for each building now, by Building
    legal: list[Action]
    takebacks: list[Action]
    keep: KeepChoice | None  #: its keep-goods choice so far, while it is choosing


def final_score(sc: Score) -> FinalScore:
    return FinalScore(sc.seat, sc.seals, sc.building_points, dict(sc.bonuses), sc.total,
                      sc.tiebreak)


def view_for(
    s: GameState, seat: int | None, legal: list[Action], takebacks: list[Action]
) -> SeatView:
    """The view of ``seat`` (None: a spectator), given its legal actions and take-backs."""
    part = None if seat is None else seat_part(s, seat, legal, takebacks)
    return compose(public_view(s), part)


class ViewMemory:
    """A game's parts of the public view as last shown: given to ``public_view`` so that a
    mat or the market that has not changed is the same object in the next view (for the
    wire, which then encodes it once)."""

    __slots__ = ("market", "mats")

    def __init__(self) -> None:
        #: by seat: (``PlayerState.key()`` with the end flag, the mat's view)
        self.mats: dict[int, tuple[tuple[object, ...], PlayerView]] = {}
        #: (the copies left of each building, the market's view)
        self.market: tuple[tuple[int, ...], list[MarketBuilding]] | None = None


def public_view(s: GameState, memory: ViewMemory | None = None) -> PublicView:
    """What everyone may see: a spectator's view. ``memory`` (a game's own, kept between
    calls) lets every mat, and the market, that has not changed since the last call be
    the same object."""
    over = s.phase is Phase.GAME_OVER
    all_scores = scores(s) if over else None
    result = None
    if all_scores is not None:
        result = Result(
            list(s.end_reasons), [final_score(x) for x in all_scores], list(winners(all_scores))
        )
    return PublicView(
        players=s.n,
        version=s.version,
        board=_board(s, memory),
        mats=[_mat(s, i, over) if memory is None else _remembered_mat(s, i, over, memory)
              for i in range(s.n)],
        deciding=list(deciding(s)),
        result=result,
    )


def seat_part(
    s: GameState, seat: int, legal: list[Action], takebacks: list[Action]
) -> SeatPart:
    """What only ``seat`` may see, given its legal actions and take-backs."""
    keep = None
    if s.phase is Phase.KEEP_GOODS and not s.decided[seat]:
        kept = s.kept[seat]
        mat = s.players[seat]
        back = discards(s, seat)
        keep = KeepChoice([Good(g) for g in s.stored[seat]], Good(kept) if kept >= 0 else None,
                          storage(mat), storage_buildings(mat), {g: back[g] for g in GOODS})
    p = s.players[seat]
    return SeatPart(
        seat=seat,
        seals=p.seals,
        score=score(p, seat).total,
        prices=prices(s, seat),
        legal=list(legal),
        takebacks=list(takebacks),
        keep=keep,
    )


#: Where each field of ``SeatPart`` goes in the seat's ``SeatView``: the one home of what
#: is the seat's own in a view (``compose`` and the wire both splice by it). A path's keys
#: are attribute names, which are also the JSON keys; a spectator's view holds the public
#: value in every place (``None``, ``[]``, the listed price, a mat without seals and score).
SEAT_PLACES: tuple[tuple[str, Path], ...] = (
    ("seat", ("seat",)),
    ("seals", ("mats", Step.OWN, "seals")),
    ("score", ("mats", Step.OWN, "score")),
    ("prices", ("board", "market", Step.EACH, "price")),  #: by Building: the market's order
    ("legal", ("legal",)),
    ("takebacks", ("takebacks",)),
    ("keep", ("keep",)),
)

_SEAT_TREE = places(SEAT_PLACES)


def splice_part(view: V, seat: int, values: Mapping[str, Any], shared: Shared | None = None) -> V:
    """A seat's view: ``view`` (a spectator's, a ``SeatView`` or the same unstructured)
    with ``values`` (each field of the seat's ``SeatPart``, as ``view`` holds values) in
    their places (``SEAT_PLACES``); see ``splice.splice``."""
    return splice(view, _SEAT_TREE, seat, values, shared)


def compose(public: PublicView, part: SeatPart | None) -> SeatView:
    """The whole view: the public one with the seat's part in its places (``part`` is None
    for a spectator): the seat's seals and score on its own mat, its prices in the market,
    its options (``SEAT_PLACES``)."""
    view = SeatView(None, public.players, public.version, public.board, list(public.mats),
                    list(public.deciding), [], [], None, public.result)
    if part is None:
        return view
    return splice_part(view, part.seat, {field: getattr(part, field) for field, _ in SEAT_PLACES})


def _remembered_mat(s: GameState, i: int, over: bool, memory: ViewMemory) -> PlayerView:
    key = (over, *s.players[i].key())
    last = memory.mats.get(i)
    if last is not None and last[0] == key:
        return last[1]
    mat = _mat(s, i, over)
    memory.mats[i] = (key, mat)
    return mat


def _mat(s: GameState, i: int, over: bool) -> PlayerView:
    """Seat ``i``'s mat as everyone sees it: seals and score only at the end."""
    p = s.players[i]
    return PlayerView(
        seat=i,
        coins=p.coins,
        goods={g: p.goods[g] for g in GOODS},
        plots={k: p.plots[k] for k in PLOT_KINDS},
        worked={k: p.worked[k] for k in PLOT_KINDS},
        buildings=[BuildingView(BUILDING_KINDS[b], p.staff[b]) for b in p.street],
        lodge=p.lodge,
        building_points=building_points(p),
        seals=p.seals if over else None,
        score=score(p, i).total if over else None,
    )


def _market(s: GameState, memory: ViewMemory | None) -> list[MarketBuilding]:
    """The market at the listed costs (the same list as last time if no copy went)."""
    copies = tuple(s.copies)
    if memory is not None and memory.market is not None and memory.market[0] == copies:
        return memory.market[1]
    market = [MarketBuilding(kind, copies[b.index], b.cost)
              for kind, b in zip(BUILDING_KINDS, BUILDINGS, strict=True)]
    if memory is not None:
        memory.market = (copies, market)
    return market


def _board(s: GameState, memory: ViewMemory | None = None) -> BoardView:
    in_role = s.role >= 0
    market = _market(s, memory)
    return BoardView(
        round=s.round,
        warden=s.warden,
        phase=s.phase,
        role=Role(s.role) if in_role else None,
        picker=s.picker if in_role else None,
        turn=s.turn if not (s.phase.simultaneous or s.phase is Phase.GAME_OVER) else None,
        roles=[
            RoleView(r, s.role_coins[r], s.role_taken[r] if s.role_taken[r] >= 0 else None)
            for r in ROLES
        ],
        face_up=[Good(g) for g in s.face_up],
        stack=len(s.stack),
        discard=len(s.discard),
        stone_pits=s.stone_pits,
        market=market,
        hall=[Good(g) for g in s.hall],
        barges=[
            BargeView(s.barge_capacity[i], Good(s.barge_good[i]) if s.barge_good[i] >= 0 else None,
                      s.barge_load[i])
            for i in range(BARGES)
        ],
        apprentice_barge=s.apprentice_barge,
        supply_apprentices=s.supply_apprentices,
        supply_goods={g: s.supply_goods[g] for g in GOODS},
        seals=s.seals,
        end_reasons=list(s.end_reasons),
    )

"""What one seat (or a spectator) may see of a game (rules.md 5).

A view is built fresh from the state and holds only public facts plus the seat's own
secrets: its seals and total. Other seats show building points only; a spectator sees no
seals at all. The face-down stack is a count, never an order; the seed is not in the state.
At the end everything is revealed: every seat's seals and score.
"""

from __future__ import annotations

import attrs

from quaymoor.rules.actions import Action
from quaymoor.rules.common import deciding, price
from quaymoor.rules.data import BUILDINGS, GOODS, PLOT_KINDS, ROLES, Building, Good, PlotKind, Role
from quaymoor.rules.scoring import Score, building_points, score, scores, winners
from quaymoor.rules.state import GameState, Phase


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
    phase: str
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
    """The viewer's keep-goods choice so far (after shipping)."""

    stored: list[Good]
    kept: Good | None


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


def final_score(sc: Score) -> FinalScore:
    return FinalScore(sc.seat, sc.seals, sc.building_points, dict(sc.bonuses), sc.total,
                      sc.tiebreak)


def view_for(
    s: GameState, seat: int | None, legal: list[Action], takebacks: list[Action]
) -> SeatView:
    """The view of ``seat`` (None: a spectator), given its legal actions and take-backs."""
    over = s.phase is Phase.GAME_OVER
    all_scores = scores(s) if over else None
    mats = []
    for i, p in enumerate(s.players):
        mine = over or i == seat
        own_score = None
        if mine:
            own_score = all_scores[i].total if all_scores else _running_total(s, i)
        mats.append(PlayerView(
            seat=i,
            coins=p.coins,
            goods={g: p.goods[g] for g in GOODS},
            plots={k: p.plots[k] for k in PLOT_KINDS},
            worked={k: p.worked[k] for k in PLOT_KINDS},
            buildings=[BuildingView(Building(b), p.staff[b]) for b in p.street],
            lodge=p.lodge,
            building_points=building_points(p),
            seals=p.seals if mine else None,
            score=own_score,
        ))
    keep = None
    if seat is not None and s.phase is Phase.KEEP_GOODS and not s.decided[seat]:
        kept = s.kept[seat]
        keep = KeepChoice([Good(g) for g in s.stored[seat]], Good(kept) if kept >= 0 else None)
    result = None
    if all_scores is not None:
        result = Result(
            list(s.end_reasons), [final_score(x) for x in all_scores], list(winners(all_scores))
        )
    return SeatView(
        seat=seat,
        players=s.n,
        version=s.version,
        board=_board(s, seat),
        mats=mats,
        deciding=list(deciding(s)),
        legal=list(legal),
        takebacks=list(takebacks),
        keep=keep,
        result=result,
    )


def _running_total(s: GameState, seat: int) -> int:
    return score(s.players[seat], seat).total


def _board(s: GameState, seat: int | None) -> BoardView:
    in_role = s.role >= 0
    market = [
        MarketBuilding(
            Building(b.index),
            s.copies[b.index],
            price(s, seat, b.index) if seat is not None else b.cost,
        )
        for b in BUILDINGS
    ]
    return BoardView(
        round=s.round,
        warden=s.warden,
        phase=s.phase.name.lower(),
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
            for i in range(3)
        ],
        apprentice_barge=s.apprentice_barge,
        supply_apprentices=s.supply_apprentices,
        supply_goods={g: s.supply_goods[g] for g in GOODS},
        seals=s.seals,
        end_reasons=list(s.end_reasons),
    )

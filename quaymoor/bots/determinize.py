"""Rebuild an engine ``GameState`` from what one seat sees (a ``SeatView``).

A view hides three things: the other seats' seals, the order (and, since the view gives only
counts, the make-up) of the face-down stack and the discard pile, and the game key. A
``sample`` fills them in:

- ``None``: a canonical fill that depends on the view alone (the unseen plots in kind
  order, the other seats' seals split evenly). The heuristic bot uses it: it never reads
  the hidden parts, so any fill gives the same decision, and a canonical one makes that
  easy to test.
- a ``SplitMix64``: a random fill consistent with the view, for search. The plots not
  visible anywhere (all plots less those on the mats and face up) are shuffled and dealt to
  the stack and the discard pile; the seals handed out so far (the supply's start less what
  is left) less the viewer's own are dealt to the other seats at random.

A few phase details are not in a view either, and matter little: which seats have used a
Boatyard this Bargemaster, whether the picker's extra seal is paid, whether the seat on
turn in a Surveyor phase has used its Farmstead, and the goods each seat made in the
current Miller. They are read from the viewer's own legal actions where those show them,
and otherwise guessed. The rebuilt state gives the viewer exactly the legal actions and
take-backs of its view (``tests/bots/test_determinize.py`` checks it over random games).
"""

from __future__ import annotations

import hashlib

from quaymoor.bots.prng import SplitMix64
from quaymoor.rules.actions import DRAW_PLOT, SHIP_ON_BOATYARD
from quaymoor.rules.common import staffed
from quaymoor.rules.data import BUILDING_COUNT, GOODS, ROLE_COUNT, SETUPS, Building, Good
from quaymoor.rules.miller import production
from quaymoor.rules.state import GameState, Phase, PlayerState
from quaymoor.rules.views import SeatView


def unseen_plots(view: SeatView) -> list[int]:
    """How many plots of each kind (by Good) are in the stack or the discard pile: every
    plot of the game less those on the mats and face up."""
    total = list(SETUPS[view.players].plots)
    for m in view.mats:
        for g in GOODS:
            total[g] -= m.plots[g]  # type: ignore[index]
    for g in view.board.face_up:
        total[g] -= 1
    return [max(0, x) for x in total]


def seals_handed_out(view: SeatView) -> int:
    """Seals paid to all seats so far, as far as the supply shows (once it is empty, the
    seals paid beyond it are not known)."""
    return SETUPS[view.players].seals - view.board.seals


def _split(total: int, seats: list[int], rng: SplitMix64 | None) -> dict[int, int]:
    out = dict.fromkeys(seats, 0)
    if not seats or total <= 0:
        return out
    if rng is None:
        for i, seat in enumerate(seats):
            out[seat] = total // len(seats) + (1 if i < total % len(seats) else 0)
        return out
    for _ in range(total):
        out[seats[rng.below(len(seats))]] += 1
    return out


def state_from_view(view: SeatView, sample: SplitMix64 | None = None) -> GameState:
    """A full engine state consistent with ``view`` (see the module docstring)."""
    me = view.seat
    if me is None:
        raise ValueError("a spectator's view has no seat to rebuild a game for")
    n = view.players
    board = view.board
    setup = SETUPS[n]
    s = GameState()
    s.n = n
    salt = b"canonical" if sample is None else sample.next().to_bytes(8, "big")
    s.key = hashlib.sha256(b"quaymoor-determinize:" + salt).digest()
    others = [i for i in range(n) if i != me]
    own = view.mats[me].seals or 0
    seals = _split(max(0, seals_handed_out(view) - own), others, sample)
    s.players = []
    for m in view.mats:
        p = PlayerState()
        p.coins = m.coins
        p.seals = own if m.seat == me else seals[m.seat]
        p.goods = [m.goods[g] for g in GOODS]
        p.plots = [m.plots[k] for k in sorted(m.plots)]
        p.worked = [m.worked[k] for k in sorted(m.worked)]
        p.street = [int(b.building) for b in m.buildings]
        p.staff = [-1] * BUILDING_COUNT
        for b in m.buildings:
            p.staff[b.building] = b.apprentices
        p.lodge = m.lodge
        s.players.append(p)
    # roles and turn order
    s.round = board.round
    s.warden = board.warden
    s.picks_per_round = setup.picks_per_round
    s.role_coins = [0] * ROLE_COUNT
    s.role_taken = [-1] * ROLE_COUNT
    for r in board.roles:
        s.role_coins[r.role] = r.coins
        s.role_taken[r.role] = -1 if r.picked_by is None else r.picked_by
    s.phase = board.phase
    s.role = -1 if board.role is None else int(board.role)
    s.picker = -1 if board.picker is None else board.picker
    taken = sum(1 for r in board.roles if r.picked_by is not None)
    in_role = s.phase not in (Phase.PICK_ROLE, Phase.GAME_OVER)
    s.pick = taken - 1 if in_role else taken
    if board.turn is not None:
        s.turn = board.turn
    else:
        s.turn = s.picker if s.picker >= 0 else (s.warden + s.pick) % n
    s.turns_left = n - (s.turn - s.picker) % n if s.picker >= 0 else 0
    s.decided = [i not in view.deciding for i in range(n)]
    # the board
    s.supply_apprentices = board.supply_apprentices
    s.apprentice_barge = board.apprentice_barge
    s.seals = board.seals
    s.supply_goods = [board.supply_goods[g] for g in GOODS]
    unseen = [g for g in GOODS for _ in range(unseen_plots(view)[g])]
    if sample is not None:
        for i in range(len(unseen) - 1, 0, -1):
            j = sample.below(i + 1)
            unseen[i], unseen[j] = unseen[j], unseen[i]
    s.stack = [int(g) for g in unseen[: board.stack]]
    s.discard = [int(g) for g in unseen[board.stack:]]
    s.face_up = [int(g) for g in board.face_up]
    s.reshuffles = 0
    s.stone_pits = board.stone_pits
    s.copies = [m.copies for m in board.market]
    s.hall = [int(g) for g in board.hall]
    s.barge_capacity = tuple(b.capacity for b in board.barges)
    s.barge_good = [-1 if b.good is None else int(b.good) for b in board.barges]
    s.barge_load = [b.load for b in board.barges]
    # phase details, read from the viewer's legal actions where they show
    mine = s.players[me]
    on_turn = me in view.deciding
    s.drew_plot = (
        s.phase is Phase.SURVEYOR and on_turn and staffed(mine, Building.FARMSTEAD)
        and bool(s.stack or s.discard) and bool(view.legal) and DRAW_PLOT not in view.legal
    )
    s.made_kinds = [0] * n
    s.made = (0, 0, 0, 0, 0)
    if s.phase is Phase.MILLER:
        for i, p in enumerate(s.players):
            made = production(p)
            s.made_kinds[i] = sum(1 for x in made if x > 0)
            if i == s.picker:
                s.made = tuple(made)
    s.seal_bonus_paid = not (s.phase is Phase.BARGEMASTER and s.turn == s.picker)
    s.boatyard_used = [False] * n
    if (s.phase is Phase.BARGEMASTER and on_turn and staffed(mine, Building.BOATYARD)
            and any(mine.goods)):
        s.boatyard_used[me] = not any(a in view.legal for a in SHIP_ON_BOATYARD)
    s.stored = [[] for _ in range(n)]
    s.kept = [-1] * n
    if view.keep is not None:
        s.stored[me] = [int(g) for g in view.keep.stored]
        s.kept[me] = -1 if view.keep.kept is None else int(view.keep.kept)
    s.end_reasons = list(board.end_reasons)
    s.version = view.version
    s.events = None
    s.cache_key = -1
    s.cache_list = []
    return s


__all__ = ["Good", "seals_handed_out", "state_from_view", "unseen_plots"]

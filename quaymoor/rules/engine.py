"""The rules engine: set up a game, say who decides, list legal actions, apply one.

How it works. A ``GameState`` is always waiting for at least one decision (or is over).
``deciding(s)`` names the seats asked now: one seat in a role pick or a turn-order phase,
several at once in the Reeve's arranging and the keep-goods choice, where order cannot
matter. ``legal_actions(s, seat)`` lists what that seat may do; ``apply(s, seat, action)``
checks the action against that list (an action not on it raises ``IllegalAction`` or
``NotYourDecision`` with the reason, and changes nothing), carries it out through the
role's module, then runs everything automatic that follows (passing over seats with
nothing to decide, production, refills, the end of a round) until the next decision.

Pure and synchronous: no I/O, no clock, no randomness but the seed's (``fairness``).
"""

from __future__ import annotations

from quaymoor.rules import bargemaster, chandler, mason, miller, reeve, surveyor
from quaymoor.rules.actions import PICK, Action, PickRole
from quaymoor.rules.common import deciding
from quaymoor.rules.data import (
    BARGES,
    BUILDINGS,
    GOODS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    PEDLAR_COINS,
    PLOT_KINDS,
    ROLE_COUNT,
    ROLES,
    SETUPS,
    UNPICKED_ROLE_COINS,
    Good,
    PlotKind,
    Role,
)
from quaymoor.rules.errors import BadSetup, GameOver, IllegalAction, NotYourDecision
from quaymoor.rules.events import CoinTaken, GameEnded, RolePicked, RoundEnded
from quaymoor.rules.explain import explain
from quaymoor.rules.fairness import LABEL_FIRST_WARDEN, LABEL_PLOTS, draw_below, shuffled
from quaymoor.rules.scoring import scores, winners
from quaymoor.rules.state import SIMULTANEOUS_PHASES, GameState, Phase, PlayerState

# Each phase's role module, as calls (not a table of modules): compiled, a call through a
# module object found in a dict is a generic Python call, a direct one a native one.


def _start(s: GameState, role: Role) -> bool:
    """Start ``role``'s phase; True when it is over at once (nobody has a decision)."""
    if role is Role.SURVEYOR:
        return surveyor.start(s)
    if role is Role.REEVE:
        return reeve.start(s)
    if role is Role.MASON:
        return mason.start(s)
    if role is Role.MILLER:
        return miller.start(s)
    if role is Role.CHANDLER:
        return chandler.start(s)
    return bargemaster.start(s)


def _legal(s: GameState, seat: int, phase: Phase) -> list[Action]:
    """The legal actions of ``seat`` in a role's phase (turn order or not: the module's)."""
    if phase is Phase.SURVEYOR:
        return surveyor.legal(s, seat)
    if phase is Phase.REEVE:
        return reeve.legal(s, seat)
    if phase is Phase.MASON:
        return mason.legal(s, seat)
    if phase is Phase.MILLER:
        return miller.legal(s, seat)
    if phase is Phase.CHANDLER:
        return chandler.legal(s, seat)
    return bargemaster.legal(s, seat)  # loading, and keeping goods


def _apply(s: GameState, seat: int, phase: Phase, action: Action) -> bool:
    """Carry out ``action`` in a role's phase; True when the role is over."""
    if phase is Phase.SURVEYOR:
        return surveyor.apply(s, seat, action)
    if phase is Phase.REEVE:
        return reeve.apply(s, seat, action)
    if phase is Phase.MASON:
        return mason.apply(s, seat, action)
    if phase is Phase.MILLER:
        return miller.apply(s, seat, action)
    if phase is Phase.CHANDLER:
        return chandler.apply(s, seat, action)
    return bargemaster.apply(s, seat, action)


def new_game(players: int, key: bytes) -> GameState:
    """A game for ``players`` seats, every random draw taken from ``key`` (see
    ``fairness.derive_key``): the first Warden, then the plot stack.

    The bare state, for the bots and the tools that play many games fast; the server
    holds a ``game.Game``, which keeps the seed, the history and the events besides.

    >>> from quaymoor.rules import engine
    >>> from quaymoor.rules.fairness import derive_key
    >>> s = engine.new_game(4, derive_key(bytes(32)))
    >>> s.n, s.round, s.phase.name, s.warden, engine.deciding(s)
    (4, 1, 'PICK_ROLE', 2, (2,))
    >>> engine.new_game(6, derive_key(bytes(32)))
    Traceback (most recent call last):
      ...
    quaymoor.rules.errors.BadSetup: a game needs 2 to 5 players, not 6
    """
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise BadSetup(f"a game needs {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players}")
    setup = SETUPS[players]
    s = GameState()
    s.n = players
    s.key = key
    s.warden = draw_below(key, LABEL_FIRST_WARDEN, players)
    s.players = []
    for _ in range(players):
        p = PlayerState()
        p.coins = setup.coins_each
        p.seals = 0
        p.goods = [0, 0, 0, 0, 0]
        p.plots = [0, 0, 0, 0, 0, 0]
        p.worked = [0, 0, 0, 0, 0, 0]
        p.street = []
        p.staff = [-1] * len(BUILDINGS)
        p.lodge = 0
        s.players.append(p)
    plots = list(setup.plots)
    for i, good in enumerate(setup.starting_plots):
        s.players[(s.warden + i) % players].plots[good] += 1
        plots[good] -= 1
    canonical = [g for g in GOODS for _ in range(plots[g])]
    s.stack = [int(g) for g in shuffled(key, LABEL_PLOTS, canonical)]
    s.discard = []
    s.reshuffles = 0
    s.face_up = [s.stack.pop(0) for _ in range(min(setup.face_up_plots, len(s.stack)))]
    s.stone_pits = setup.stone_pits
    s.round = 1
    s.pick = 0
    s.picks_per_round = setup.picks_per_round
    s.role_coins = [0] * ROLE_COUNT
    s.role_taken = [-1] * ROLE_COUNT
    s.role = -1
    s.picker = -1
    s.turn = s.warden
    s.turns_left = 0
    s.decided = [False] * players
    s.supply_apprentices = setup.apprentices
    s.apprentice_barge = setup.barge_apprentices
    s.seals = setup.seals
    s.supply_goods = list(setup.goods)
    s.copies = [b.copies_for(players) for b in BUILDINGS]
    s.hall = []
    s.barge_capacity = setup.barge_capacities
    s.barge_good = [-1] * BARGES
    s.barge_load = [0] * BARGES
    s.drew_plot = False
    s.made = (0, 0, 0, 0, 0)
    s.made_kinds = [0] * players
    s.seal_bonus_paid = False
    s.boatyard_used = [False] * players
    s.stored = [[] for _ in range(players)]
    s.kept = [-1] * players
    s.end_reasons = []
    s.version = 0
    s.events = None
    s.cache_key = -1
    s.cache_list = []
    _start_pick(s)
    return s


def legal_actions(s: GameState, seat: int) -> list[Action]:
    """What ``seat`` may do now; empty when nothing waits for it. The list is shared with
    the engine's cache: do not change it.

    >>> from quaymoor.rules import engine
    >>> from quaymoor.rules.fairness import derive_key
    >>> s = engine.new_game(4, derive_key(bytes(32)))
    >>> engine.legal_actions(s, 2)[:2]
    [PickRole(role=<Role.SURVEYOR: 0>), PickRole(role=<Role.REEVE: 1>)]
    >>> engine.legal_actions(s, 0), engine.legal_actions(s, 9)  # not seat 0's turn; no seat 9
    ([], [])
    """
    if not 0 <= seat < s.n:
        # Checked before the cache: version * 8 + seat is unique only for real seats.
        return []
    key = s.version * 8 + seat
    if s.cache_key == key:
        return s.cache_list
    phase = s.phase
    acts: list[Action]
    if phase is Phase.PICK_ROLE:
        taken = s.role_taken
        acts = [PICK[r] for r in ROLES if taken[r] < 0] if seat == s.turn else []
    elif phase is Phase.GAME_OVER:
        acts = []
    elif phase in SIMULTANEOUS_PHASES:
        acts = _legal(s, seat, phase)
    else:
        acts = _legal(s, seat, phase) if seat == s.turn else []
    s.cache_key = key
    s.cache_list = acts
    return acts


def takeback_actions(s: GameState, seat: int) -> list[Action]:
    """Apprentices ``seat`` may take back to its lodge now (Reeve arranging only). Legal to
    apply, but kept apart from ``legal_actions`` so random play never walks in circles."""
    return reeve.takebacks(s, seat) if 0 <= seat < s.n else []


def apply(s: GameState, seat: int, action: Action) -> None:
    """Carry out ``seat``'s action and everything automatic after it.

    Raises ``GameOver``, ``NotYourDecision`` or ``IllegalAction`` (with the reason) and
    leaves the state untouched when the action is not legal now.

    It changes ``s`` in place and returns nothing (``Game.apply`` returns the events).
    Here the Reeve is picked, and every seat arranges its apprentices at once:

    >>> from quaymoor.rules import engine
    >>> from quaymoor.rules.actions import PickRole
    >>> from quaymoor.rules.data import Role
    >>> from quaymoor.rules.errors import IllegalAction
    >>> from quaymoor.rules.fairness import derive_key
    >>> s = engine.new_game(4, derive_key(bytes(32)))
    >>> engine.apply(s, 2, PickRole(Role.REEVE))
    >>> s.version, s.phase.name, engine.deciding(s)
    (1, 'REEVE', (0, 1, 2, 3))
    >>> try:
    ...     engine.apply(s, 2, PickRole(Role.REEVE))
    ... except IllegalAction as refused:
    ...     print(refused)
    PickRole is not a choice now: it is time to arrange apprentices (Reeve)
    >>> s.version
    1
    """
    if s.phase is Phase.GAME_OVER:
        raise GameOver("the game is over")
    legal = legal_actions(s, seat)
    if not _listed(action, legal) and action not in takeback_actions(s, seat):
        if not legal:
            raise NotYourDecision(explain(s, seat, action))
        raise IllegalAction(explain(s, seat, action))
    s.version += 1
    if s.phase is Phase.PICK_ROLE:
        assert isinstance(action, PickRole)
        _pick(s, seat, action.role)
    elif _apply(s, seat, s.phase, action):
        _finish_role(s)


def _listed(action: Action, legal: list[Action]) -> bool:
    """``action in legal``, by identity first: the legal lists hold the interned actions,
    which the bots and random play hand back, so an equality test (attrs' ``__eq__``,
    interpreted) is needed only for an action built elsewhere, say decoded from the wire."""
    for listed in legal:
        if listed is action:
            return True
    return action in legal


def _start_pick(s: GameState) -> None:
    s.phase = Phase.PICK_ROLE
    s.role = -1
    s.turn = (s.warden + s.pick) % s.n


def _pick(s: GameState, seat: int, role: Role) -> None:
    coins = s.role_coins[role]
    s.players[seat].coins += coins
    s.role_coins[role] = 0
    s.role_taken[role] = seat
    s.role = role
    s.picker = seat
    if s.events is not None:
        s.events.append(RolePicked(seat, role, coins))
    if role is Role.PEDLAR:
        s.players[seat].coins += PEDLAR_COINS
        if s.events is not None:
            s.events.append(CoinTaken(seat))
        _finish_role(s)
    elif _start(s, role):
        _finish_role(s)


def _finish_role(s: GameState) -> None:
    s.pick += 1
    if s.pick < s.picks_per_round:
        _start_pick(s)
        return
    for r in ROLES:
        if s.role_taken[r] < 0:
            s.role_coins[r] += UNPICKED_ROLE_COINS
    s.role_taken = [-1] * ROLE_COUNT
    s.warden = (s.warden + 1) % s.n
    if s.events is not None:
        s.events.append(RoundEnded(s.round, s.warden))
    if s.end_reasons:
        s.phase = Phase.GAME_OVER
        s.role = -1
        if s.events is not None:
            s.events.append(GameEnded(tuple(s.end_reasons), winners(scores(s))))
        return
    s.round += 1
    s.pick = 0
    _start_pick(s)


def is_over(s: GameState) -> bool:
    return s.phase is Phase.GAME_OVER


__all__ = [
    "Good", "PlotKind", "PLOT_KINDS", "apply", "deciding", "is_over", "legal_actions",
    "new_game", "takeback_actions",
]

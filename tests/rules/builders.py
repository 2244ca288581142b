"""Builders for rules tests: make a game, put a seat in a situation, drive the public API.

A test builds a state with ``fresh``, sets the fields that matter on the mutable
``GameState``/``PlayerState`` (``mat``, ``at_pick``, or plain attribute writes), then plays
through ``engine.legal_actions``/``engine.apply`` only. ``legal`` and ``act`` clear the
engine's legal-action cache first, so a test may change the state by hand between calls
without reading a stale list.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping
from typing import Any

from quaymoor.rules import engine
from quaymoor.rules.actions import DONE, PASS, PICK, Action
from quaymoor.rules.data import (
    BUILDINGS,
    GOODS,
    PLOT_KINDS,
    Building,
    Category,
    Good,
    PlotKind,
    Role,
)
from quaymoor.rules.scoring import Score, scores
from quaymoor.rules.state import GAME_FIELDS, PLAYER_FIELDS, GameState, Phase, PlayerState

ZERO_SEED = bytes(32)

#: Small civic buildings with no effect in the phases most tests drive, to fill a high
#: street with (1 space each).
FILLER = (
    Building.FLAX_SHED,
    Building.WOOL_SHED,
    Building.FLAX_MILL,
    Building.WOOL_MILL,
    Building.HONEY_HOUSE,
    Building.AMBER_WORKS,
    Building.STALL,
    Building.FARMSTEAD,
    Building.STONECUTTERS_HUT,
    Building.CELLAR,
    Building.COUNTING_HOUSE,
    Building.MARKET_CROSS,
    Building.GRANARY,
    Building.MANUFACTORY,
    Building.LOCK_HOUSE,
    Building.BOATYARD,
)

_NOT_STATE = ("cache_key", "cache_list", "events")


def fresh(players: int = 4, seed: bytes = ZERO_SEED) -> GameState:
    """A new game (``engine.new_game``) that records its events in ``s.events``."""
    s = engine.new_game(players, seed)
    s.events = []
    return s


def _stale(s: GameState) -> None:
    s.cache_key = -1
    s.cache_list = []


def legal(s: GameState, seat: int) -> list[Action]:
    """``engine.legal_actions`` for ``seat`` (a copy), after any hand-made change."""
    _stale(s)
    return list(engine.legal_actions(s, seat))


def act(s: GameState, seat: int, action: Action) -> None:
    """``engine.apply`` after any hand-made change."""
    _stale(s)
    engine.apply(s, seat, action)


def takebacks(s: GameState, seat: int) -> list[Action]:
    return list(engine.takeback_actions(s, seat))


def deciding(s: GameState) -> tuple[int, ...]:
    return engine.deciding(s)


def clear(p: PlayerState) -> None:
    """An empty mat: no coins, seals, goods, plots, buildings or apprentices."""
    p.coins = 0
    p.seals = 0
    p.goods = [0] * len(GOODS)
    p.plots = [0] * len(PLOT_KINDS)
    p.worked = [0] * len(PLOT_KINDS)
    p.street = []
    p.staff = [-1] * len(BUILDINGS)
    p.lodge = 0


def clear_all(s: GameState) -> None:
    for p in s.players:
        clear(p)


def mat(
    s: GameState,
    seat: int,
    *,
    coins: int | None = None,
    seals: int | None = None,
    goods: Mapping[Good, int] | None = None,
    plots: Mapping[PlotKind, int] | None = None,
    worked: Mapping[PlotKind, int] | None = None,
    buildings: Mapping[Building, int] | None = None,
    lodge: int | None = None,
) -> PlayerState:
    """Set parts of ``seat``'s mat. ``plots``/``worked``/``goods`` set the counts of the
    kinds named; ``buildings`` maps each building to add (or re-staff) to the apprentices
    standing on it; a new building is appended to the high street and takes one copy."""
    p = s.players[seat]
    if coins is not None:
        p.coins = coins
    if seals is not None:
        p.seals = seals
    for g, n in (goods or {}).items():
        p.goods[g] = n
    for k, n in (plots or {}).items():
        p.plots[k] = n
        p.worked[k] = min(p.worked[k], n)
    for k, n in (worked or {}).items():
        assert n <= p.plots[k], "worked plots need plots"
        p.worked[k] = n
    for b, n in (buildings or {}).items():
        assert n <= BUILDINGS[b].slots, f"{BUILDINGS[b].name} has {BUILDINGS[b].slots} slots"
        if p.staff[b] < 0:
            p.street.append(b)
            s.copies[b] -= 1
        p.staff[b] = n
    if lodge is not None:
        p.lodge = lodge
    _stale(s)
    return p


def fill_street(
    s: GameState, seat: int, spaces: int, avoid: Iterable[Building] = ()
) -> list[Building]:
    """Build (by hand, unstaffed) 1-space buildings from ``FILLER`` until the seat's high
    street uses ``spaces`` spaces in all. Returns the buildings added."""
    p = s.players[seat]
    skip = set(avoid)
    used = sum(BUILDINGS[b].spaces for b in p.street)
    added: list[Building] = []
    for b in FILLER:
        if used >= spaces:
            break
        if b in skip or p.staff[b] >= 0:
            continue
        mat(s, seat, buildings={b: 0})
        added.append(b)
        used += 1
    assert used == spaces, f"could not fill {spaces} spaces"
    return added


def at_pick(s: GameState, seat: int, *, warden: int | None = None) -> None:
    """Put the game at a fresh round's role pick for ``seat`` (the Warden unless ``warden``
    is given; then the picks before it count as made)."""
    w = seat if warden is None else warden
    s.warden = w
    s.pick = (seat - w) % s.n
    s.turn = seat
    s.phase = Phase.PICK_ROLE
    s.role = -1
    s.picker = -1
    s.role_taken = [-1] * len(s.role_taken)
    _stale(s)


def pick(s: GameState, seat: int, role: Role) -> None:
    act(s, seat, PICK[role])


def start_role(s: GameState, seat: int, role: Role, *, warden: int | None = None) -> None:
    """``at_pick`` then the pick itself: the role is carried out with ``seat`` the picker."""
    at_pick(s, seat, warden=warden)
    pick(s, seat, role)


def finish_phase(s: GameState) -> list[tuple[int, Action]]:
    """Let every optional decision go (Pass, or Done where that is what is left) until the
    next role pick or the end. Returns the decisions made. Fails on a compulsory load."""
    made: list[tuple[int, Action]] = []
    while s.phase not in (Phase.PICK_ROLE, Phase.GAME_OVER):
        seat = deciding(s)[0]
        options = legal(s, seat)
        if PASS in options:
            choice: Action = PASS
        elif DONE in options:
            choice = DONE
        else:
            raise AssertionError(f"seat {seat} must choose among {options}")
        act(s, seat, choice)
        made.append((seat, choice))
    return made


def snapshot(s: GameState) -> dict[str, Any]:
    """Every field of the game (mats included), deep-copied; not the legal-action cache
    nor the event list."""
    out: dict[str, Any] = {}
    for name in GAME_FIELDS:
        if name in _NOT_STATE:
            continue
        value = getattr(s, name)
        if name == "players":
            value = [{k: copy.deepcopy(getattr(p, k)) for k in PLAYER_FIELDS}
                     for p in value]
        out[name] = copy.deepcopy(value)
    return out


def score_of(s: GameState, seat: int) -> Score:
    return scores(s)[seat]


def is_large(b: Building) -> bool:
    return BUILDINGS[b].category is Category.LARGE


def events_of(s: GameState, kind: type) -> list[Any]:
    return [e for e in (s.events or []) if isinstance(e, kind)]

"""Property tests of the rules engine over random legal play, for 2 to 5 players.

Each example plays one whole game from a seed hypothesis draws, choosing among
``engine.legal_actions`` with ``selfplay.SplitMix64``, and checks at every decision what
the rules promise: every listed action applies, illegal ones are refused without a trace,
nothing is created or lost, views keep every secret of rules.md 5, records replay exactly,
and clones are independent of their originals.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from quaymoor.bots.prng import SplitMix64
from quaymoor.rules import actions as a
from quaymoor.rules import engine
from quaymoor.rules.converter import converter
from quaymoor.rules.data import (
    BUILDINGS,
    GOODS,
    HIGH_STREET_SPACES,
    HOLDING_SPACES,
    MARKET_HALL_SPACES,
    SETUPS,
    Building,
    Good,
    PlotKind,
)
from quaymoor.rules.errors import GameOver, IllegalAction, NotYourDecision, RulesError
from quaymoor.rules.fairness import seed_to_hex
from quaymoor.rules.game import Game
from quaymoor.rules.record import GameRecord
from quaymoor.rules.scoring import score, scores
from quaymoor.rules.state import GAME_FIELDS, PLAYER_FIELDS, GameState, PlayerState
from quaymoor.rules.verify import verify_record
from quaymoor.rules.views import public_view, view_for
from quaymoor.tools.selfplay import MAX_DECISIONS

# --------------------------------------------------------------------------- strategies

PLAYERS = st.integers(min_value=2, max_value=5)
SEEDS = st.binary(min_size=32, max_size=32)
CHOOSERS = st.integers(min_value=0, max_value=(1 << 64) - 1)
CLIENT_SEEDS = st.lists(st.text(max_size=12), max_size=3)


def games(examples: int) -> settings:
    """One whole game per example (a few hundred decisions); the budgets keep each test
    under half a minute on two cores, and those of several seconds are marked ``slow``
    (``make test-all`` runs them, ``make test-fast`` leaves them out)."""
    return settings(
        max_examples=examples, deadline=None, suppress_health_check=[HealthCheck.too_slow]
    )


# --------------------------------------------------------------------------- snapshots

#: Slots that an illegal action may touch (the legal-action cache) or that are not state.
NOT_STATE = frozenset({"cache_key", "cache_list", "events"})


def _freeze(value: Any) -> Any:
    if isinstance(value, PlayerState):
        return tuple((name, _freeze(getattr(value, name))) for name in PLAYER_FIELDS)
    if isinstance(value, list):
        return tuple(_freeze(x) for x in value)
    return value


def snapshot(s: GameState) -> dict[str, Any]:
    """Every slot of the state (and of each PlayerState), as immutable values. Reading
    every slot also checks that every slot has been set."""
    return {
        name: _freeze(getattr(s, name)) for name in GAME_FIELDS if name not in NOT_STATE
    }


def differences(before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    return [f"{k}: {before[k]!r} -> {after[k]!r}" for k in before if before[k] != after[k]]


def mutable_parts(s: GameState) -> Iterator[tuple[str, object]]:
    """Every mutable object reachable from the state's slots, with where it is."""
    for name in GAME_FIELDS:
        if name in {"cache_list", "events"}:
            continue
        value = getattr(s, name)
        if name == "players":
            yield "players", value
            for i, p in enumerate(value):
                yield f"players[{i}]", p
                for pname in PLAYER_FIELDS:
                    pv = getattr(p, pname)
                    if isinstance(pv, list):
                        yield f"players[{i}].{pname}", pv
        elif isinstance(value, list):
            yield name, value
            for j, inner in enumerate(value):
                if isinstance(inner, list):
                    yield f"{name}[{j}]", inner


# --------------------------------------------------------------------------- invariants

_SLOTS = tuple(b.slots for b in BUILDINGS)
_SPACES = tuple(b.spaces for b in BUILDINGS)


def check_conservation(s: GameState) -> None:
    """Nothing is created or lost: goods, apprentices, plots, stone pits, buildings, seals."""
    setup = SETUPS[s.n]
    players = s.players
    for g in GOODS:
        on_barges = sum(s.barge_load[i] for i in range(3) if s.barge_good[i] == g)
        total = (
            s.supply_goods[g] + sum(p.goods[g] for p in players) + on_barges + s.hall.count(g)
        )
        assert total == setup.goods[g], f"{g.name}: {total} goods, expected {setup.goods[g]}"
        assert s.supply_goods[g] >= 0
        assert all(p.goods[g] >= 0 for p in players)
    for i in range(3):
        assert 0 <= s.barge_load[i] <= s.barge_capacity[i]
        assert (s.barge_good[i] < 0) == (s.barge_load[i] == 0), f"barge {i}"
    live = [g for g in s.barge_good if g >= 0]
    assert len(live) == len(set(live)), f"two barges carry the same kind: {s.barge_good}"
    assert len(s.hall) <= MARKET_HALL_SPACES

    apprentices = s.supply_apprentices + s.apprentice_barge + sum(
        p.lodge + sum(p.worked) + sum(max(0, x) for x in p.staff) for p in players
    )
    assert apprentices == setup.apprentices + setup.barge_apprentices, (
        f"{apprentices} apprentices, expected {setup.apprentices + setup.barge_apprentices}"
    )
    assert s.supply_apprentices >= 0
    assert s.apprentice_barge >= 0

    for g in GOODS:
        where = s.stack.count(g) + s.discard.count(g) + s.face_up.count(g)
        total = where + sum(p.plots[g] for p in players)
        assert total == setup.plots[g], f"{g.name} plots: {total}, expected {setup.plots[g]}"
    pits = s.stone_pits + sum(p.plots[PlotKind.STONE_PIT] for p in players)
    assert pits == setup.stone_pits, f"stone pits: {pits}, expected {setup.stone_pits}"
    assert s.stone_pits >= 0
    assert len(s.face_up) <= s.n + 1

    for b in Building:
        owned = sum(1 for p in players if p.staff[b] >= 0)
        expected = BUILDINGS[b].copies_for(s.n)
        assert s.copies[b] + owned == expected, f"{b.name}: {s.copies[b]} left, {owned} owned"
        assert s.copies[b] >= 0

    for seat, p in enumerate(players):
        assert p.coins >= 0, f"seat {seat} coins"
        assert p.lodge >= 0, f"seat {seat} lodge"
        assert sum(p.plots) <= HOLDING_SPACES, f"seat {seat} holding"
        for k in PlotKind:
            assert 0 <= p.worked[k] <= p.plots[k], f"seat {seat} works {k.name}"
        assert len(p.street) == len(set(p.street)), f"seat {seat} owns a building twice"
        assert sum(_SPACES[b] for b in p.street) <= HIGH_STREET_SPACES
        for b in Building:
            if b in p.street:
                assert 0 <= p.staff[b] <= _SLOTS[b], f"seat {seat} {b.name} staff"
            else:
                assert p.staff[b] == -1, f"seat {seat} {b.name} not owned, staff {p.staff[b]}"

    owned_seals = sum(p.seals for p in players)
    if s.seals > 0:
        assert s.seals + owned_seals == setup.seals, (
            f"seals: {s.seals} in the supply + {owned_seals} owned != {setup.seals}"
        )
        assert "seals" not in s.end_reasons
    else:
        assert s.seals == 0
        assert owned_seals >= setup.seals
        assert "seals" in s.end_reasons


def check_over(s: GameState) -> None:
    assert engine.is_over(s)
    assert s.end_reasons, "the game ended without a reason"
    assert set(s.end_reasons) <= {"seals", "apprentices", "high_street"}
    assert engine.deciding(s) == ()
    assert all(engine.legal_actions(s, seat) == [] for seat in range(s.n))
    if "seals" in s.end_reasons:
        assert s.seals == 0
    if "apprentices" in s.end_reasons:
        assert s.supply_apprentices == 0
    if "high_street" in s.end_reasons:
        assert any(
            sum(_SPACES[b] for b in p.street) == HIGH_STREET_SPACES for p in s.players
        )


# --------------------------------------------------------------------------- play


def choose(game: Game, chooser: SplitMix64) -> tuple[int, a.Action]:
    """A random deciding seat (several decide at once in some phases) and one of its
    legal actions."""
    waiting = game.deciding()
    assert waiting, "nobody decides, but the game is not over"
    seat = waiting[chooser.below(len(waiting))]
    legal = game.legal_actions(seat)
    assert legal, f"seat {seat} is asked to decide but has no legal action"
    return seat, legal[chooser.below(len(legal))]


def play_out(
    game: Game,
    chooser: SplitMix64,
    each_step: Callable[[Game], None] | None = None,
    at: bool = False,
) -> int:
    decisions = 0
    while not game.is_over():
        if each_step is not None:
            each_step(game)
        seat, action = choose(game, chooser)
        game.apply(seat, action, float(decisions) / 4 + 1.7e9 if at else None)
        decisions += 1
        assert decisions <= MAX_DECISIONS, f"no end after {MAX_DECISIONS} decisions"
    return decisions


# --------------------------------------------------------------------------- tests


@pytest.mark.slow
@games(60)
@given(players=PLAYERS, seed=SEEDS, chooser=CHOOSERS)
def test_every_game_ends_and_every_listed_action_applies(
    players: int, seed: bytes, chooser: int
) -> None:
    game = Game(players, seed, events=False)
    rng = SplitMix64(chooser)
    s = game.state
    check_conservation(s)

    def each_step(g: Game) -> None:
        for seat in g.deciding():
            options = [*g.legal_actions(seat), *g.takeback_actions(seat)]
            for action in options:
                trial = s.clone()
                engine.apply(trial, seat, action)  # must not raise
                assert trial.version == s.version + 1
                check_conservation(trial)

    decisions = play_out(game, rng, each_step)
    check_conservation(s)
    check_over(s)
    assert decisions == s.version == len(game.history)


def _all_actions() -> list[a.Action]:
    out: list[a.Action] = [
        *a.PICK, *a.TAKE_PLOT, a.TAKE_STONE_PIT, a.DRAW_PLOT, *a.PLACE_ON_PLOT,
        *a.PLACE_ON_BUILDING, *a.TAKE_BACK_FROM_PLOT, *a.TAKE_BACK_FROM_BUILDING, *a.BUILD,
        *a.TAKE_EXTRA_GOOD, *a.SELL, *(x for row in a.LOAD for x in row), *a.SHIP_ON_BOATYARD,
        *a.STORE_GOODS, *a.KEEP_GOOD, a.DONE, a.PASS,
    ]
    # Well-formed but never legal: barges are 0, 1 and 2.
    out += [a.Load(g, barge) for g in (Good.CLAY, Good.AMBER) for barge in (-1, 3)]
    return out


ALL_ACTIONS = _all_actions()
#: Seats that are not at a table of any size, including ones that look like seats to
#: code that indexes lists (negative) or packs seats into numbers.
BAD_SEATS = (-9, -8, -7, -6, -5, -4, -3, -2, -1, 5, 6, 7, 8, 9, 12, 13, 100)


def refuse(game: Game, seat: int, action: a.Action, expected: tuple[type, ...]) -> None:
    history = len(game.history)
    try:
        game.apply(seat, action)
    except RulesError as exc:
        assert isinstance(exc, expected), (
            f"seat {seat} {action!r}: {type(exc).__name__} ({exc}), expected "
            f"{' or '.join(t.__name__ for t in expected)}"
        )
        assert str(exc).strip(), f"seat {seat} {action!r}: empty message"
    else:
        raise AssertionError(f"seat {seat} was allowed {action!r} in phase {game.state.phase}")
    assert len(game.history) == history


@pytest.mark.slow
@games(80)
@given(players=PLAYERS, seed=SEEDS, chooser=CHOOSERS)
def test_illegal_actions_are_refused_and_change_nothing(
    players: int, seed: bytes, chooser: int
) -> None:
    game = Game(players, seed, events=True)
    rng = SplitMix64(chooser)
    s = game.state
    bad_seats = sorted({*BAD_SEATS, *range(players, 5)} - set(range(players)))

    def each_step(g: Game) -> None:
        before = snapshot(s)
        tried: list[str] = []
        waiting = g.deciding()
        # Right after an action, before anyone asks for legal actions: a seat that is not
        # at the table sends the action just taken.
        if g.history:
            bad = bad_seats[rng.below(len(bad_seats))]
            action = g.history[-1].action
            tried.append(f"seat {bad} {action!r}")
            refuse(g, bad, action, (NotYourDecision, IllegalAction))
        # An action the deciding seat may not take now.
        seat = waiting[rng.below(len(waiting))]
        allowed = {*g.legal_actions(seat), *g.takeback_actions(seat)}
        illegal = [x for x in ALL_ACTIONS if x not in allowed]
        action = illegal[rng.below(len(illegal))]
        tried.append(f"seat {seat} {action!r}")
        refuse(g, seat, action, (IllegalAction,))
        # Any action, even one the deciding seat may take, by a seat not deciding.
        legal = g.legal_actions(seat)
        others = [x for x in range(players) if x not in waiting]
        if others:
            other = others[rng.below(len(others))]
            action = [*legal, *ALL_ACTIONS][rng.below(len(legal) + len(ALL_ACTIONS))]
            tried.append(f"seat {other} {action!r}")
            refuse(g, other, action, (NotYourDecision,))
        # A legal action sent with a seat that is not at the table.
        for bad in bad_seats:
            action = legal[rng.below(len(legal))]
            tried.append(f"seat {bad} {action!r}")
            refuse(g, bad, action, (NotYourDecision, IllegalAction))
        after = snapshot(s)
        assert after == before, f"refused actions {tried} changed {differences(before, after)}"

    play_out(game, rng, each_step)
    final = snapshot(s)
    for seat in [*range(players), *bad_seats]:
        for action in ALL_ACTIONS[:: 1 + rng.below(7)]:
            refuse(game, seat, action, (GameOver,))
    assert snapshot(s) == final


def view_json(game: Game, seat: int | None) -> dict[str, Any]:
    out: dict[str, Any] = converter.unstructure(game.view(seat))
    json.dumps(out)  # plain JSON, nothing else
    return out


def _lists(value: Any) -> Iterator[list[Any]]:
    if isinstance(value, list):
        yield value
        for x in value:
            yield from _lists(x)
    elif isinstance(value, dict):
        for x in value.values():
            yield from _lists(x)


def check_secrets(game: Game, seed: bytes) -> None:
    """rules.md 5: before the end only the viewer's own seals and total; no stack order,
    no seed, no key. At the end everything is revealed."""
    s = game.state
    over = game.is_over()
    totals = [x.total for x in scores(s)]
    secrets = (seed_to_hex(seed), s.key.hex(), seed.hex().upper(), s.key.hex().upper())
    stack = [Good(g).name.lower() for g in s.stack]
    for viewer in [None, *range(s.n)]:
        view = view_json(game, viewer)
        text = json.dumps(view)
        for secret in secrets:
            assert secret not in text, f"view of {viewer} shows the seed or key"
        board = view["board"]
        assert board["stack"] == len(s.stack)
        if len(stack) > s.n + 1:  # longer than any public list of goods
            assert all(x != stack for x in _lists(view)), f"view of {viewer} shows the stack"
        assert [m["seat"] for m in view["mats"]] == list(range(s.n))
        for mat in view["mats"]:
            p = s.players[mat["seat"]]
            if over or mat["seat"] == viewer:
                assert mat["seals"] == p.seals
                assert mat["score"] == totals[mat["seat"]]
            else:
                assert mat["seals"] is None, f"view of {viewer} shows seat {mat['seat']} seals"
                assert mat["score"] is None, f"view of {viewer} shows seat {mat['seat']} score"
            assert mat["coins"] == p.coins  # public
        if over:
            result = view["result"]
            assert result is not None
            assert [x["total"] for x in result["scores"]] == totals
            assert [x["seals"] for x in result["scores"]] == [p.seals for p in s.players]
            assert result["reasons"] == s.end_reasons
        else:
            assert view["result"] is None
            if viewer is None:
                assert all(m["seals"] is None and m["score"] is None for m in view["mats"])
                assert view["legal"] == [] and view["keep"] is None


def check_noninterference(game: Game) -> None:
    """A seat's view does not change when only what it may not see changes: the stack
    order, the key, and the other seats' seals."""
    s = game.state
    if game.is_over():
        return
    everyone = s.clone()
    everyone.stack.reverse()
    for i, p in enumerate(everyone.players):
        p.seals += 3 + i
    assert converter.unstructure(public_view(s)) == converter.unstructure(
        public_view(everyone)
    ), "the public view depends on a secret"
    for viewer in [None, *range(s.n)]:
        other = s.clone()
        other.stack.reverse()
        other.key = bytes(b ^ 0xFF for b in s.key)  # every bit differs
        for i, p in enumerate(other.players):
            if i != viewer:
                p.seals += 7 + i
        mine = view_for(s, viewer, *_options(s, viewer))
        theirs = view_for(other, viewer, *_options(other, viewer))
        assert converter.unstructure(mine) == converter.unstructure(theirs), (
            f"the view of {viewer} depends on something it may not see"
        )


def _options(s: GameState, viewer: int | None) -> tuple[list[a.Action], list[a.Action]]:
    if viewer is None:
        return [], []
    return list(engine.legal_actions(s, viewer)), engine.takeback_actions(s, viewer)


@pytest.mark.slow
@games(20)
@given(players=PLAYERS, seed=SEEDS, chooser=CHOOSERS)
def test_views_never_show_secrets(players: int, seed: bytes, chooser: int) -> None:
    game = Game(players, seed, events=False)
    rng = SplitMix64(chooser)
    steps = 0

    def each_step(g: Game) -> None:
        nonlocal steps
        check_secrets(g, seed)
        if steps % 5 == 0:
            check_noninterference(g)
        steps += 1

    play_out(game, rng, each_step)
    check_secrets(game, seed)
    mats = view_json(game, 0)["mats"]
    final = [score(p, i).total for i, p in enumerate(game.state.players)]
    assert [m["score"] for m in mats] == final


@games(100)
@given(players=PLAYERS, seed=SEEDS, chooser=CHOOSERS, client_seeds=CLIENT_SEEDS)
def test_records_replay_to_the_same_game(
    players: int, seed: bytes, chooser: int, client_seeds: list[str]
) -> None:
    client_seeds = client_seeds[:players]  # a seat gives at most one (the record binds them)
    game = Game(players, seed, client_seeds, events=False)
    play_out(game, SplitMix64(chooser), at=True)
    record = game.record()
    final = snapshot(game.state)
    final_scores = game.scores()

    again = Game.replay(record)
    assert differences(final, snapshot(again.state)) == []
    assert again.scores() == final_scores
    assert again.record() == record

    text = record.to_json()
    parsed = GameRecord.from_json(text)
    assert parsed == record
    assert parsed.to_json() == text
    through_json = Game.replay(parsed)
    assert differences(final, snapshot(through_json.state)) == []
    assert through_json.scores() == final_scores

    verdict = verify_record(parsed)
    assert verdict.ok, verdict.message
    assert verdict.message.startswith("ok")


@games(100)
@given(
    players=PLAYERS,
    seed=SEEDS,
    chooser=CHOOSERS,
    at=st.integers(min_value=0, max_value=400),
)
def test_clone_is_deep(players: int, seed: bytes, chooser: int, at: int) -> None:
    game = Game(players, seed, events=False)
    rng = SplitMix64(chooser)
    s = game.state
    while not game.is_over() and s.version < at:
        game.apply(*choose(game, rng))

    kept = s.clone()
    probe = s.clone()
    before = snapshot(s)
    assert snapshot(kept) == before, "the clone differs from the original"
    theirs = {id(x): where for where, x in mutable_parts(s)}
    for where, x in mutable_parts(kept):
        assert id(x) not in theirs, f"clone shares {where} with the original"

    # Playing on a clone never changes the original ...
    moves = 0
    other_rng = SplitMix64(chooser ^ 0xFFFF)
    while not engine.is_over(probe):
        seat = engine.deciding(probe)[0]
        legal = engine.legal_actions(probe, seat)
        engine.apply(probe, seat, legal[other_rng.below(len(legal))])
        moves += 1
        assert moves <= MAX_DECISIONS
    assert differences(before, snapshot(s)) == []
    # ... and playing on the original never changes a clone.
    play_out(game, rng)
    assert differences(before, snapshot(kept)) == []
    # A clone of a finished game is the same finished game.
    done = s.clone()
    assert engine.is_over(done)
    assert snapshot(done) == snapshot(s)
    assert scores(done) == scores(s)

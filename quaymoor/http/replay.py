"""Replaying a game record through the rules, for the game page and the verify page.

Pure and synchronous (the HTTP side runs these in a worker thread). Nothing here is
trusted by the verify page for the draws: it recomputes the first Warden and every plot
turned up from the seed and client seeds itself, and only takes the *public* sequence of
plots turned up (what every seat saw) from here or from the record.
"""

from __future__ import annotations

from typing import Any

from quaymoor.protocol.codec import unstructure_with
from quaymoor.rules.converter import action_to_json, converter
from quaymoor.rules.errors import RulesError
from quaymoor.rules.events import Event
from quaymoor.rules.game import Game
from quaymoor.rules.record import GameRecord, TurnedUp
from quaymoor.rules.views import SeatView, final_score


class ReplayError(ValueError):
    """A step that does not exist in the record."""


def _new_game(record: GameRecord) -> Game:
    return Game.from_record(record, events=True)


def _events(events: list[Event]) -> list[Any]:
    return [unstructure_with(e, Event) for e in events]


def _turned_up(items: list[TurnedUp]) -> list[Any]:
    out: list[Any] = converter.unstructure(items, unstructure_as=list[TurnedUp])
    return out


def _step_error(i: int, record: GameRecord, exc: Exception) -> str:
    step = record.actions[i]
    return f"action {i + 1} (seat {step.seat}, {step.action!r}): {exc}"


def replay_all(record: GameRecord) -> dict[str, Any]:
    """Every step's action and events, the first Warden, the plots turned up and the
    result, all from replaying the record. ``error`` names the first action the rules
    refuse (the steps stop before it)."""
    game = _new_game(record)
    steps: list[dict[str, Any]] = []
    error = None
    for i, step in enumerate(record.actions):
        try:
            events = game.apply(step.seat, step.action, step.at)
        except RulesError as exc:
            error = _step_error(i, record, exc)
            break
        steps.append({"step": i + 1, "seat": step.seat, "action": action_to_json(step.action),
                      "at": step.at, "events": _events(events)})
    result = game.view(None).result
    assert game.turned_up is not None
    return {
        "players": record.players,
        "steps": len(steps),
        "first_warden": game.first_warden,
        "turned_up": _turned_up(game.turned_up),
        "actions": steps,
        "over": game.is_over(),
        "result": converter.unstructure(result) if result is not None else None,
        "error": error,
    }


def replay_step(record: GameRecord, step: int) -> dict[str, Any]:
    """The game after ``step`` actions (0: the setup): the action and events of that step,
    the spectator's view, and every seat's score by component (revealed: the game is
    over, or was ended)."""
    if not 0 <= step <= len(record.actions):
        raise ReplayError(f"step must be 0 to {len(record.actions)}, not {step}")
    game = _new_game(record)
    events: list[Event] = []
    for i, recorded in enumerate(record.actions[:step]):
        try:
            events = game.apply(recorded.seat, recorded.action, recorded.at)
        except RulesError as exc:
            raise ReplayError(f"the record does not replay: {_step_error(i, record, exc)}"
                              ) from None
    action = None
    if step > 0:
        last = record.actions[step - 1]
        action = {"seat": last.seat, "action": action_to_json(last.action), "at": last.at}
    return {
        "step": step,
        "steps": len(record.actions),
        "action": action,
        "events": _events(events),
        "view": unstructure_with(game.view(None), SeatView),
        "scores": [converter.unstructure(final_score(x)) for x in game.scores()],
        "over": game.is_over(),
    }

"""The numbers behind a finished game's pictures (``web/charts.js``), from its record.

Pure and synchronous (the HTTP side runs it in a worker thread). Everything comes from
replaying the record through the rules (the record is public once the game has ended):

- ``points``: every seat's score (``scoring.score``: seals, building points and the end
  bonuses of staffed large buildings) at the start and after each round; when the game
  was ended inside a round, a last point for where it stopped. The last point of a game
  played to its end is the final result.
- ``sources``: each seat's final score split into seals, building points and bonuses.
- ``shipped`` and ``sold``: the goods each seat loaded on barges (its own Boatyard boat
  too) and sold to the market hall, by good, from the game's events; ``coins_from_sales``
  what the sales brought.
"""

from __future__ import annotations

from typing import Any

from quaymoor.rules.data import GOODS
from quaymoor.rules.errors import RulesError
from quaymoor.rules.events import Loaded, RoundEnded, Sold
from quaymoor.rules.game import Game
from quaymoor.rules.record import GameRecord
from quaymoor.rules.scoring import Score

_NAMES = tuple(g.name.lower() for g in GOODS)  #: as on the wire: "clay", ...


class ChartsError(ValueError):
    """A record whose actions the rules refuse (it cannot be replayed)."""


def _point(label: str, round_: int, scores: list[Score]) -> dict[str, Any]:
    return {"label": label, "round": round_, "scores": [sc.total for sc in scores]}


def game_charts(record: GameRecord) -> dict[str, Any]:
    """The charts' numbers for ``record`` (see the module's notes). Raises
    ``ChartsError`` when an action does not replay."""
    n = record.players
    game = Game.from_record(record, events=True)
    points = [_point("Start", 0, game.scores())]
    shipped = [dict.fromkeys(_NAMES, 0) for _ in range(n)]
    sold = [dict.fromkeys(_NAMES, 0) for _ in range(n)]
    coins = [0] * n
    ended_round = True
    for i, step in enumerate(record.actions):
        try:
            events = game.apply(step.seat, step.action, step.at)
        except RulesError as exc:
            raise ChartsError(f"action {i + 1} (seat {step.seat}) does not replay: {exc}"
                              ) from None
        ended_round = False
        for ev in events:
            if isinstance(ev, Loaded):
                shipped[ev.seat][_NAMES[ev.good]] += ev.count
            elif isinstance(ev, Sold):
                sold[ev.seat][_NAMES[ev.good]] += 1
                coins[ev.seat] += ev.coins
            elif isinstance(ev, RoundEnded):
                points.append(_point(f"Round {ev.round}", ev.round, game.scores()))
                ended_round = True
    final = game.scores()
    if not ended_round:
        points.append(_point(f"Stopped in round {game.round}", game.round, final))
    return {
        "players": n,
        "over": game.is_over(),
        "points": points,
        "sources": [{"seat": sc.seat, "seals": sc.seals, "building_points": sc.building_points,
                     "bonuses": sum(sc.bonuses.values()), "total": sc.total} for sc in final],
        "shipped": shipped,
        "sold": sold,
        "coins_from_sales": coins,
    }

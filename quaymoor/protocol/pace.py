"""Table settings a client names on the wire: how fast the bots play (``Pace``) and what
state a table is in (``TableState``). One home for each: the table actor, the HTTP API,
the docs and ``web/wire.js`` (``quaymoor wire-js``) read them here.

The paces' seconds, and why (docs/protocol.md, "Pace"):

- ``people`` (1.6 s, the default): a newcomer can follow each bot move. The web client
  animates a move for at most 400 ms and writes one line in the log; 1.2 s more is time to
  read that line (about 6 words at a slow 300 words a minute) before the next move.
- ``steady`` (0.8 s): the animation and a glance at the log: for players who know the
  game but like to see each move.
- ``fast`` (0.2 s): only the round trip and the redraw; moves follow each other faster
  than their 400 ms animations, which the client may cut short.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from typing import Final


class Pace(StrEnum):
    """How long a bot waits before it acts: a table setting (``pace``)."""

    PEOPLE = "people"
    STEADY = "steady"
    FAST = "fast"


#: Seconds a bot waits before each move, by pace (the module's notes say why).
PACE_SECONDS: Final[Mapping[Pace, float]] = {
    Pace.PEOPLE: 1.6,
    Pace.STEADY: 0.8,
    Pace.FAST: 0.2,
}
DEFAULT_PACE: Final = Pace.PEOPLE


def parse_pace(value: object) -> Pace | None:
    """``value`` as a pace, None when it is not one of their names."""
    if isinstance(value, str) and value in Pace.__members__.values():
        return Pace(value)
    return None


def pace_names() -> str:
    """The paces, as an error message lists them: ``people, steady or fast``."""
    names = [p.value for p in Pace]
    return ", ".join(names[:-1]) + " or " + names[-1]


class TableState(StrEnum):
    """A table's state (``GET /api/tables``' ``state``)."""

    WAITING = "waiting"  #: in its lobby: players join, then someone starts it
    PLAYING = "playing"
    FINISHED = "finished"  #: played to its end, lingering for reconnects
    ENDED = "ended"  #: by a shutdown or a crash

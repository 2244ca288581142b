"""Game records: the algorithm version, the seed and its fingerprint, the seats, every
action in order and the result. A record replays through the engine to exactly the same
final state; ``verify_record`` checks one and names the first discrepancy.

Format 2 adds, all optional so that format-1 records still read: the game's id, why and
when it ended, and the public results of the seed's draws (the first Warden and every plot
turned up, in order), which a verifier recomputes from the seed and client seeds alone.

Format 3 binds the client seeds to the seats: ``seat_seeds`` lists, per seat, the client
seed it gave (None: a bot, or a player who gave none). ``client_seeds`` stays what the
key is made from, and in a format-3 record with ``seat_seeds`` it must be exactly the
non-null ``seat_seeds`` in seat order (``verify_record`` checks it). ``seat_seeds`` is
None in a record that binds no seed to a seat (formats 1 and 2).

Format 4 (algorithm ``quaymoor-fair-2``, every table's game) binds the whole table: the
fingerprint commits to the table's id (``game``, required) and number of seats; each seat
carries the ``commitment`` its player sent before any seed was revealed (None: none, and
always None for a bot); ``seat_seeds`` has the seed each seat revealed (None with a
commitment: committed but never revealed); and the key is made from all of it
(``fairness.deal_key``), so a seat list, commitment or seed changed, moved, swapped or
stripped gives other draws.

Format 5 (algorithm ``quaymoor-fair-3``, every table's game from now on) is format 4 with
the seats' names left out of the key: a name is its player's personal data, and when an
account is deleted, its seats in format-5 records are renamed ``removed_name(seat)`` and
marked ``removed`` (``SeatInfo.removed``), and the record still verifies. ``Game.record``
writes it."""

from __future__ import annotations

import json
from enum import StrEnum
from typing import Any

import attrs
from cattrs.gen import make_dict_unstructure_fn, override

from quaymoor.rules.actions import Action
from quaymoor.rules.converter import converter, describe_error, object_without_repeats
from quaymoor.rules.data import Good
from quaymoor.rules.fairness import ALGORITHM, ALGORITHM_1, ALGORITHM_2
from quaymoor.rules.scoring import scores, winners
from quaymoor.rules.state import GameState
from quaymoor.rules.views import Result, final_score

#: The format of a table's game record (a dealt game: ``quaymoor-fair-3``).
RECORD_FORMAT = 5
#: The format of a game with no deal (``quaymoor-fair-1``: tests, old records).
LEGACY_FORMAT = 3
#: The formats of a table's deal (``Game.deal``: the table's id, commitments and seeds).
DEALT_FORMATS = (4, 5)
#: Each format this code reads and verifies, and its algorithm (format 1 lacks the
#: optional fields of format 2, formats 1 and 2 lack ``seat_seeds``, formats 1-3 have no
#: commitments, format 4 binds the seats' names in the key, format 5 does not).
ALGORITHM_OF: dict[int, str] = {1: ALGORITHM_1, 2: ALGORITHM_1, 3: ALGORITHM_1,
                                4: ALGORITHM_2, 5: ALGORITHM}
READABLE_FORMATS = tuple(ALGORITHM_OF)
#: The format a table's game dealt with each algorithm is written in.
DEALT_FORMAT_OF: dict[str, int] = {ALGORITHM_2: 4, ALGORITHM: 5}


class EndReason(StrEnum):
    """Why a game ended: the record's ``end_reason`` and the ``game_ended`` message's
    ``reason``. A record keeps it as a plain string (older records are read as written)."""

    FINISHED = "finished"  #: played to its end
    SHUTDOWN = "shutdown"  #: the server stopped
    CRASHED = "crashed"  #: the table's code failed
    ABANDONED = "abandoned"  #: nobody started the table in time (no game, no record)


def removed_name(index: int) -> str:
    """The name a format-5 record's seat ``index`` (from 0) shows once its player's account
    is deleted: "Seat 2 (name removed)" for the second. The seat says ``removed`` too."""
    return f"Seat {index + 1} (name removed)"


def seat_label(index: int) -> str:
    """The name of seat ``index`` (from 0) when it has none of its own: "Seat 1" for the
    first. The one home of that default, on the server; ``web/text.js`` has the client's."""
    return f"Seat {index + 1}"


@attrs.frozen
class SeatInfo:
    name: str
    bot: bool
    #: format 4: the commitment the seat's player sent before the reveal (None: none)
    commitment: str | None = None
    #: hints the seat's player was given (0 when absent: older records, bots)
    hints: int = 0
    #: format 5: the name was taken out at its player's request (the account deleted);
    #: ``name`` is then ``removed_name(seat)``. Written only when true.
    removed: bool = False




@attrs.frozen
class RecordedAction:
    seat: int
    action: Action
    at: float | None = None  #: seconds since the epoch, when the table recorded it


@attrs.frozen
class TurnedUp:
    """Plots turned up from the face-down stack, as every seat saw them."""

    step: int  #: actions applied when it happened (0: the setup)
    source: str  #: "setup", "surveyor" (the new face-up plots) or "farmstead" (one drawn)
    goods: list[Good]


@attrs.frozen
class GameRecord:
    format: int
    algorithm: str
    players: int
    seed: str  #: 64 hex digits
    fingerprint: str
    client_seeds: list[str]
    seats: list[SeatInfo]
    actions: list[RecordedAction]
    result: Result | None
    game: str | None = None  #: the id the game was played under (its table's)
    end_reason: str | None = None  #: an ``EndReason``
    ended_at: float | None = None  #: seconds since the epoch
    first_warden: int | None = None  #: the seat the seed made first Warden
    turned_up: list[TurnedUp] | None = None  #: every turn-up of plots, in order
    #: per seat, the client seed it gave (None: none); None: not bound to seats
    seat_seeds: list[str | None] | None = None
    #: a rated game (docs/protocol.md "Ratings and players"; not part of the key). Written
    #: only when true.
    rated: bool = False

    @property
    def reason(self) -> str:
        """Why the game ended, also for records that do not say (older ones): finished when
        it has a result, else "ended"."""
        if self.end_reason:
            return self.end_reason
        return EndReason.FINISHED if self.result is not None else "ended"

    def to_json(self) -> str:
        return json.dumps(converter.unstructure(self), indent=1)

    @classmethod
    def from_json(cls, text: str) -> GameRecord:
        """Parse a record; a malformed one raises ``ValueError`` saying what and where."""
        try:
            data: Any = json.loads(text, object_pairs_hook=object_without_repeats)
        except ValueError as exc:  # JSONDecodeError, and a key given twice
            raise ValueError(f"not JSON: {exc}") from exc
        if not isinstance(data, dict):
            kind = type(data).__name__
            raise ValueError(f"not a game record: expected a JSON object, got {kind}")
        _bound_in_full(data)
        try:
            return converter.structure(data, cls)
        except Exception as exc:
            raise ValueError(f"not a game record: {describe_error(exc)}") from exc


# a seat's ``removed`` and a game's ``rated`` are written only when true: the records of
# others read as they always did
converter.register_unstructure_hook(SeatInfo, make_dict_unstructure_fn(
    SeatInfo, converter, removed=override(omit_if_default=True)))
converter.register_unstructure_hook(GameRecord, make_dict_unstructure_fn(
    GameRecord, converter, rated=override(omit_if_default=True)))


def _bound_in_full(data: dict[str, Any]) -> None:
    """A format-4 record states its whole seat binding, none of it left to a default:
    ``game``, ``seat_seeds`` and each seat's ``commitment`` (null when it has none). Raises
    ``ValueError`` naming the first one left out (the binding stripped)."""
    if data.get("format") not in DEALT_FORMATS:
        return
    missing = [key for key in ("game", "seat_seeds") if key not in data]
    seats = data.get("seats")
    if isinstance(seats, list):
        missing += [f"seats[{i}].commitment" for i, seat in enumerate(seats)
                    if isinstance(seat, dict) and "commitment" not in seat]
    if missing:
        raise ValueError(f"not a game record: a format-{data['format']} record states its "
                         f"whole seat "
                         f"binding (null where there is nothing), and this one leaves out "
                         f"{missing[0]}: the binding was stripped")


def result_of(s: GameState) -> Result:
    final = scores(s)
    return Result(list(s.end_reasons), [final_score(x) for x in final], list(winners(final)))

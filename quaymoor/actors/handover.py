"""Handing an away seat to a bot by vote: who may vote, what a vote needs, the tally.

A seat is *open to a vote* while its player is away (no connection, a person's chair, not
yet played by a bot) and has let at least one decision time out since leaving. The
*voters* are the other seats with a person connected; a seat is handed over when a
majority of them (more than half) have voted. A voter's vote lasts while it stays
connected: the seat's last connection going takes its votes back (and may leave a
majority among the voters still there). The votes on a seat end when it is handed over,
when a bot takes it after timeouts, or when its player comes back.

The table owns the seats and calls these; ``cast`` raises ``TableError`` for a vote it
must refuse, and then nothing has changed.
"""

from __future__ import annotations

from collections.abc import Sequence

from quaymoor.actors.inbox import TableError
from quaymoor.actors.presence import Presence, Seat
from quaymoor.protocol.codes import Code
from quaymoor.protocol.messages import BotVote


def open_to_vote(seat: Seat) -> bool:
    """The seat's player is away and has let a decision time out: it may be voted over."""
    return seat.away and seat.missed_timeouts >= 1


def voters(seats: Sequence[Seat], away: int) -> list[int]:
    """The seats that may vote on handing ``away`` to a bot: the others a person is
    connected to."""
    return [s.index for s in seats if s.index != away and s.presence is Presence.SEATED]


def needed(voter_count: int) -> int:
    """A majority: more than half of the voters."""
    return voter_count // 2 + 1


def vote_of(seats: Sequence[Seat], seat: Seat) -> BotVote | None:
    """The open vote on ``seat`` as every client sees it, or None when it is not open."""
    if not open_to_vote(seat):
        return None
    who = voters(seats, seat.index)
    return BotVote(who, sorted(seat.votes & set(who)), needed(len(who)))


def carried(seats: Sequence[Seat], seat: Seat) -> bool:
    """The voters still connected that voted are a majority: hand the seat over now."""
    who = set(voters(seats, seat.index))
    return bool(who) and open_to_vote(seat) and len(seat.votes & who) >= needed(len(who))


def cast(seats: Sequence[Seat], voter: int, target: int) -> bool:
    """``voter`` votes to hand seat ``target`` to a bot; True when the vote carries.

    Raises ``TableError``: bad_seat (no such seat), not_away (the voter's own seat, a
    bot's, one a bot already plays, one with its player connected), vote_not_open (away,
    but no decision of it has timed out yet), already_voted."""
    if not 0 <= target < len(seats):
        raise TableError(Code.BAD_SEAT, f"there is no seat {target} at this table "
                                        f"(seats 0 to {len(seats) - 1}) @ $.seat")
    seat = seats[target]
    name = seat.display_name
    if target == voter:
        raise TableError(Code.NOT_AWAY, "you cannot vote on your own seat @ $.seat")
    if seat.bot:
        raise TableError(Code.NOT_AWAY, f"{name} is a bot's seat @ $.seat")
    if seat.bot_playing:
        raise TableError(Code.NOT_AWAY, f"a bot already plays {name}'s seat @ $.seat")
    if seat.presence is Presence.SEATED:
        raise TableError(Code.NOT_AWAY, f"{name} is connected: only an away player's seat "
                                        "can be handed to a bot @ $.seat")
    if seat.missed_timeouts < 1:
        raise TableError(Code.VOTE_NOT_OPEN, f"{name} is away, but the vote opens only "
                                             "after one of their decisions has timed out "
                                             "@ $.seat")
    if voter in seat.votes:
        raise TableError(Code.ALREADY_VOTED, f"you have already voted to hand {name}'s "
                                             "seat to a bot @ $.seat")
    seat.voted_by(voter)
    return carried(seats, seat)


def forget_voter(seats: Sequence[Seat], voter: int) -> list[int]:
    """``voter``'s seat has lost its last connection: its votes go. Returns the seats
    whose vote now carries among the voters left."""
    for seat in seats:
        seat.forget_vote(voter)
    return [s.index for s in seats if carried(seats, s)]

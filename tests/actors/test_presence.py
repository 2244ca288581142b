"""A seat's presence and its moves (``actors/presence``): what each move changes and what
the seat then says, without a table around it."""

from __future__ import annotations

import pytest

from quaymoor.actors.presence import Came, Presence, Seat


def _away_player() -> Seat:
    seat = Seat(1)
    seat.take("Ada")
    return seat


def test_a_joined_player_is_away_until_a_connection_attaches_then_seated() -> None:
    seat = Seat(1)
    assert (seat.presence, seat.display_name, seat.connected) == (Presence.EMPTY, "Seat 2", False)
    token = seat.take("Ada")
    assert (seat.presence, seat.name, seat.token, seat.connected) == (
        Presence.AWAY, "Ada", token, False)
    assert seat.attach() is Came.CONNECTED
    assert (seat.presence, seat.connected, seat.connections) == (Presence.SEATED, True, 1)
    assert seat.attach() is Came.NOTHING  # a second tab: nothing the others see changed
    assert (seat.detach(), seat.presence) == (False, Presence.SEATED)
    assert (seat.detach(), seat.presence) == (True, Presence.AWAY)


def test_timeouts_count_only_while_away_and_the_nth_in_a_row_hands_the_seat_to_a_bot() -> None:
    seat = _away_player()
    seat.attach()
    assert seat.timed_out(2) is False and seat.missed_timeouts == 0  # connected: not counted
    seat.detach()
    assert seat.timed_out(2) is False and seat.missed_timeouts == 1
    seat.acted()  # a move of their own (a second tab, say) ends the run
    assert seat.missed_timeouts == 0
    assert seat.timed_out(2) is False
    assert seat.timed_out(2) is True
    assert (seat.presence, seat.bot_playing, seat.bot_controlled, seat.bot) == (
        Presence.BOT_PLAYING, True, True, False)
    assert seat.timed_out(2) is False  # a bot plays it: nothing more to count


@pytest.mark.parametrize("by_vote", [False, True])
def test_a_player_back_from_a_bot_takes_the_seat_again_with_timeouts_and_votes_afresh(
        by_vote: bool) -> None:
    seat = _away_player()
    seat.timed_out(2)
    seat.voted_by(0)
    assert seat.votes == {0}
    if by_vote:
        seat.hand_to_bot()
        assert seat.presence is Presence.VOTED_OUT
    else:
        seat.timed_out(2)
        assert seat.presence is Presence.BOT_PLAYING
    assert seat.votes == set()  # the vote ends when a bot takes the seat
    assert seat.attach() is Came.BACK
    assert (seat.presence, seat.bot_playing, seat.missed_timeouts) == (Presence.SEATED, False, 0)


def test_coming_back_ends_a_vote_on_the_seat() -> None:
    seat = _away_player()
    seat.timed_out(3)
    seat.voted_by(0)
    seat.forget_vote(2)  # not a voter: nothing
    assert seat.votes == {0}
    assert seat.attach() is Came.CONNECTED
    assert (seat.votes, seat.missed_timeouts) == (frozenset(), 0)


def test_a_held_chair_is_the_players_once_they_come_and_empty_again_if_they_do_not() -> None:
    came, missed = Seat(0), Seat(1)
    came.hold("Ada")
    missed.hold("Bede")
    assert came.held and came.token is not None and came.presence is Presence.HELD
    came.commit("ab" * 32)
    assert (came.presence, came.commitment, came.client_seed) == (Presence.AWAY, "ab" * 32, None)
    missed.let_go_of_hold()
    assert (missed.presence, missed.name, missed.token) == (Presence.EMPTY, None, None)
    missed.sit_bot("Cuthbert (bot)")
    assert (missed.presence, missed.bot, missed.connected, missed.public().bot) == (
        Presence.BOT, True, True, True)


def test_only_the_seats_own_moves_change_it() -> None:
    seat = _away_player()
    for field in ("presence", "name", "token", "connections", "missed_timeouts", "bot_playing",
                  "held", "bot"):
        with pytest.raises(AttributeError):
            setattr(seat, field, None)
    with pytest.raises(AttributeError):
        seat.votes.add(3)  # type: ignore[attr-defined]  # a frozenset: read, not written
    with pytest.raises(AssertionError):
        seat.take("Bede")  # a taken chair cannot be taken again

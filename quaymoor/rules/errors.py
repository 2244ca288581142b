"""One error type per kind of wrong in the rules. The gateway maps each to a wire code."""

from __future__ import annotations


class RulesError(Exception):
    """Base of every error the rules raise. The message says why, in words for players."""

    code = "rules_error"


class IllegalAction(RulesError):
    """The action is not allowed now: the message says which rule forbids it."""

    code = "illegal_action"


class NotYourDecision(RulesError):
    """The seat asked to act while nothing is waiting for its decision."""

    code = "not_your_decision"


class GameOver(RulesError):
    """The game has ended; no action is taken any more."""

    code = "game_over"


class BadSetup(RulesError):
    """A game cannot be set up this way (player count, seed)."""

    code = "bad_setup"

"""One error type per kind of wrong in the rules. ``quaymoor.protocol.codes`` turns each
into its wire code (``rules_code``): the rules know nothing of the wire."""

from __future__ import annotations


class RulesError(Exception):
    """Base of every error the rules raise. The message says why, in words for players."""


class IllegalAction(RulesError):
    """The action is not allowed now: the message says which rule forbids it."""


class NotYourDecision(RulesError):
    """The seat asked to act while nothing is waiting for its decision."""


class GameOver(RulesError):
    """The game has ended; no action is taken any more."""


class BadSetup(RulesError):
    """A game cannot be set up this way (player count, seed)."""

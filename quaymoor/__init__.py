"""Quaymoor: an online table for the board game of the canal town on the moors."""

__version__ = "0.1.0"

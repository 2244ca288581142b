"""Quaymoor: an online table for the board game of the canal town on the moors."""

from quaymoor import compiled

# Before any compiled module is imported: QUAYMOOR_PURE=1, or a stale build, loads the
# pure modules instead (quaymoor/compiled.py).
compiled.install()

__version__ = "0.1.0"

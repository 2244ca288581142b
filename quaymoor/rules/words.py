"""The small phrases the game's words are built from, shared by ``explain`` (why an action
is refused) and ``describe`` (what a decision is about): a good's name, a count with its
noun, a list joined with "and", the goods a seat holds. Kept apart so that both say a
thing the same way."""

from __future__ import annotations

from collections.abc import Sequence

from quaymoor.rules.data import GOODS, Good


def good_name(g: int) -> str:
    """A good's name as a player reads it: ``wool``."""
    return Good(g).name.lower()


def counted(count: int, thing: str, things: str | None = None) -> str:
    """``1 coin``, ``2 coins``."""
    return f"{count} {thing if count == 1 else (things or thing + 's')}"


def listed(words: Sequence[str], empty: str = "none") -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    if not words:
        return empty
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def counted_goods(counts: Sequence[int]) -> str:
    """``2 wool, 1 clay`` from counts by Good (largest first), ``nothing`` for none."""
    held = sorted((g for g in GOODS if counts[g] > 0), key=lambda g: (-counts[g], g))
    return listed([f"{counts[g]} {good_name(g)}" for g in held], "nothing")

"""Whole numbers in a URL's query, read one way for every parameter of every route.

The syntax, and nothing else: ASCII digits only (``[0-9]+``), at most ``MAX_DIGITS`` of
them. No sign (``+1``, ``-0``), no space, no underscore (``1_0``), no other script's digits
(Arabic-Indic, full-width), no decimal point or exponent, not empty. Anything else is a
400 ``bad_request`` whose message names the parameter (``... @ ?step``); so is a number
outside the route's range. A parameter left out is None: the route's default.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Final

MAX_DIGITS: Final = 6
#: The largest value the syntax can carry (the OpenAPI document's ``maximum`` when a
#: route sets none of its own).
MAX_VALUE: Final = 10**MAX_DIGITS - 1
_DIGITS: Final = re.compile(r"[0-9]+", re.ASCII)


class QueryError(Exception):
    """A query parameter that is not a whole number in the syntax above, or out of range;
    the text says which parameter and why."""


def query_int(query: Mapping[str, str], name: str, low: int = 0,
              high: int = MAX_VALUE) -> int | None:
    """``query[name]`` as an int from ``low`` to ``high``, or None when it is left out.
    Raises ``QueryError``."""
    text = query.get(name)
    if text is None:
        return None
    if not _DIGITS.fullmatch(text):
        shown = repr(text if len(text) <= 20 else text[:20] + "...")
        raise QueryError(f"{name} must be a whole number in ASCII digits 0-9 only (no sign, "
                         f"space, separator or other digits), not {shown} @ ?{name}")
    if len(text) > MAX_DIGITS:
        raise QueryError(f"{name} has at most {MAX_DIGITS} digits, not {len(text)} @ ?{name}")
    value = int(text)
    if not low <= value <= high:
        raise QueryError(f"{name} must be {low} to {high}, not {value} @ ?{name}")
    return value

"""Hostile JSON values, and a JSON writer that can say what ``json.dumps`` cannot.

``Raw`` holds JSON text spliced in as it is: a 5,000-digit integer (which Python's own
``json`` refuses to write or read past 4,300 digits), ``1e999``, ``-0``, ``NaN``, 50,000
brackets. ``dumps`` writes strings with ``ensure_ascii`` so that a lone surrogate travels as
``"\\udc80"``, which a server's ``json.loads`` turns back into a lone surrogate.

``hostile()`` draws one value of any JSON type, each kind named (``kind_of``) so that the
report can say what was tried: strings from every Unicode category, numbers at and past
every edge, deep nesting, megabyte strings.
"""

from __future__ import annotations

import json
from typing import Any, Final

import attrs
from hypothesis import strategies as st


@attrs.frozen
class Raw:
    """JSON text written as it is (``dumps``); ``kind`` names it for the report."""

    text: str
    kind: str


def dumps(value: Any) -> str:
    """JSON text of ``value``: dicts, lists, strings, numbers, None, bools and ``Raw``."""
    if isinstance(value, Raw):
        return value.text
    if isinstance(value, dict):
        return "{" + ",".join(f"{json.dumps(str(k))}:{dumps(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list | tuple):
        return "[" + ",".join(dumps(v) for v in value) + "]"
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) > 10**4000:
        raise ValueError("write huge integers as Raw")
    return json.dumps(value)


#: Numbers past the edges, as text.
HUGE_NUMBERS: Final = (
    Raw("9" * 5000, "5,000-digit integer"), Raw("-" + "9" * 5000, "5,000-digit integer"),
    Raw("1" + "0" * 4301, "4,302-digit integer"), Raw("1e999", "1e999"),
    Raw("-1e999", "1e999"), Raw("NaN", "NaN/Infinity"), Raw("Infinity", "NaN/Infinity"),
    Raw("-Infinity", "NaN/Infinity"), Raw("-0", "-0"), Raw("1E400", "1e999"),
    Raw("0." + "0" * 5000 + "1", "5,000-digit fraction"),
    Raw("1" * 4300, "4,300-digit integer"),
)
#: Deep nesting past any recursion limit, under the 64 KiB of a message.
DEEP: Final = (
    Raw("[" * 30_000 + "]" * 30_000, "deep nesting"),
    Raw('{"a":' * 10_000 + "1" + "}" * 10_000, "deep nesting"),
    Raw("[" * 990 + "]" * 990, "deep nesting"),
)
#: Long strings just under the message limit (``huge`` adds 1 MB ones, rarely).
LONG_STRINGS: Final = (
    Raw(json.dumps("x" * 60_000), "60 KB string"),
    Raw(json.dumps("\u00f1" * 9_000), "long non-ASCII string"),
    Raw(json.dumps("\udc80" * 9_000), "long lone-surrogate string"),
)
BULKY_KINDS: Final = frozenset(v.kind for v in DEEP + LONG_STRINGS)
MEGABYTE: Final = Raw(json.dumps("x" * 1_000_000), "1 MB string")

_CATEGORIES: Final = ("Lu", "Ll", "Lt", "Lm", "Lo", "Mn", "Mc", "Me", "Nd", "Nl", "No",
                      "Pc", "Pd", "Ps", "Pe", "Pi", "Pf", "Po", "Sm", "Sc", "Sk", "So",
                      "Zs", "Zl", "Zp", "Cc", "Cf", "Co", "Cs")
#: Hand-picked strings that have broken servers before.
NASTY: Final = (
    "\u00f1", "\udc80", "\ud800", "\udfff", "\ud83d", "\x00", "a\x00b", "\u202e", "\u200f",
    "\u200b", "\ufeff", "\ufffe", "\uffff", "e\u0301", "\u0301", "\U0001f600", "\U0001f1ec"
    "\U0001f1e7", "\U0010ffff", "\r\n", "\\", '"', "</script>", "%00", "../../etc/passwd",
    "$.type", "{}", "null", "", " ", "\t", "0", "-1", "1e999", "\u0130", "\u00df", "\ufb01",
)


def unicode_text(max_size: int = 40) -> st.SearchStrategy[str]:
    """Strings from one Unicode category at a time (lone surrogates, controls, marks,
    private use...), mixed with the nasty list and with ASCII."""
    by_category = st.sampled_from(_CATEGORIES).flatmap(
        lambda c: st.text(st.characters(categories=[c]), min_size=1, max_size=max_size))  # type: ignore[list-item]
    return st.one_of(st.sampled_from(NASTY), by_category,
                     st.text(max_size=max_size),
                     st.tuples(st.sampled_from(NASTY), st.text(max_size=8)).map("".join))


def kind_of(value: Any) -> str:
    """What kind of hostile value this is, for the report's categories."""
    if isinstance(value, Raw):
        return value.kind
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "huge integer" if abs(value) > 2**63 else (
            "negative integer" if value < 0 else "integer")
    if isinstance(value, float):
        return "float"
    if isinstance(value, str):
        return _string_kind(value)
    if isinstance(value, list):
        return "array"
    return "object"


def _string_kind(text: str) -> str:
    if any(0xD800 <= ord(c) <= 0xDFFF for c in text):
        return "string: lone surrogate"
    if "\x00" in text:
        return "string: NUL"
    if text.isascii():
        return "string: ASCII"
    if any(ord(c) > 0xFFFF for c in text):
        return "string: astral (emoji...)"
    if any(c in "\u202e\u200f\u200b\ufeff\u200e" for c in text):
        return "string: bidi/format marks"
    return "string: other non-ASCII"


def scalars() -> st.SearchStrategy[Any]:
    return st.one_of(
        st.none(), st.booleans(),
        st.integers(), st.integers(min_value=-(2**70), max_value=-1),
        st.sampled_from([2**63, 2**64 + 1, -(2**63) - 1, 10**300, -(10**300)]),
        st.floats(allow_nan=False, allow_infinity=False), st.sampled_from([0.5, 2.0, -0.0]),
        unicode_text(),
    )


def hostile() -> st.SearchStrategy[Any]:
    """Any JSON value, biased to the edges: every type, huge and negative numbers, deep
    and wide containers, strings of every category, megabyte strings."""
    containers = st.recursive(
        scalars(), lambda c: st.lists(c, max_size=4) | st.dictionaries(
            unicode_text(8), c, max_size=4), max_leaves=10)
    return st.one_of(
        scalars(), scalars(), containers, st.sampled_from(HUGE_NUMBERS),
        st.sampled_from(DEEP + LONG_STRINGS), st.just([]), st.just({}),
    )

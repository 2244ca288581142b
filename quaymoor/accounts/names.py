"""Account names: which strings a stranger may take as a name, and the key that keeps names
unique.

``account_name(raw)`` returns an ``AccountName`` (``display``, ``key``) or raises
``NameRefused``, a ``ValueError`` whose message tells a player what is wrong and where
(``character 3 (U+200F RIGHT-TO-LEFT MARK) is invisible``). A message never quotes more
than 40 characters of what was typed, and shows a character that cannot be printed only as
its code point (``U+`` and hex digits: ``U+200F``), so it can always be sent as UTF-8.

The rules, in the order they are checked (the first broken one is the one reported):

1. A name is a ``str``.
2. No character of what was typed is a lone surrogate (half of a UTF-16 pair, which no
   UTF-8 text can hold), a control character (NUL, tab, newline, ...), an invisible
   format character (the right-to-left and left-to-right marks, zero-width space and
   joiner, the byte order mark, ...), a private-use or unassigned code point, or a space
   other than the ordinary space U+0020 (the no-break space, the ideographic space, ...)
   or a line or paragraph separator. These are checked before normalization, because
   normalization would quietly turn the no-break space and its kin into U+0020.
3. The name is normalized to NFKC: ``display`` is that form. Compatibility forms become
   their plain ones (fullwidth letters, U+FF21 and on, become ASCII ones; ``ﬁ`` becomes
   ``fi``), and a letter followed by its accent becomes the accented letter where Unicode
   has one.
4. ``display`` is 2 to 20 characters (code points).
5. Each character of ``display`` is a letter (Unicode category L*), a decimal digit (Nd),
   a combining mark (Mn, Mc) directly after a letter or after another mark, with at most
   2 marks in a row (no stacks of accents), or one of the separators space, ``-``,
   ``_``, ``.`` and ``'``. A separator is never first, never last, and never right after
   another separator. Anything else is refused: symbols (S*), other punctuation (P*),
   numbers that are not decimal digits (No, Nl: ``½``, ``Ⅻ``), enclosing marks (Me).
6. ``display`` has at least one letter.
7. All its decimal digits belong to one numbering system (``1`` and ``१`` do not mix):
   their zero, ``ord(digit) - unicodedata.decimal(digit)``, is the same code point.
8. One script, as UTS #39's "highly restrictive" level would have it: the scripts of its
   letters, digits and marks, leaving out Common and Inherited (which every script
   shares), are a single script, or fit within Han + Hiragana + Katakana (Japanese),
   Han + Bopomofo (Chinese) or Han + Hangul (Korean). Digits count with their script:
   ASCII digits are Common and go with any script, Arabic-Indic digits are Arabic and
   do not go with Latin letters. (UTS #39 also lets Latin join those three; here it does
   not.) A letter whose script the data does not know is refused.

Two names are the same name when their ``key`` is equal; the caller refuses a name whose
key is taken. The key is ``display`` case-folded (``str.casefold``), then each character
replaced by the representative of its class of look-alikes, then NFKC again, then each
separator replaced by ``-``. The classes join every pair of single characters that
Unicode's confusables list (UTS #39, ``confusables.json`` of ``confusable_homoglyphs``)
says look alike, transitively, leaving out pairs with a control or format character; and
they join each ASCII capital with its small letter. That last is because the key ignores
case while the display keeps it: ``aIice`` (a capital I) looks like ``alice``, so ``I`` is
in the class of ``l``, and then so is ``i``. (Joining every capital with its small letter,
not only ASCII's, would chain through Greek and Cyrillic until ``c`` and ``o``, or ``t``
and ``y``, were one class.) A class's representative is its smallest ASCII member that is
not a capital, else its smallest ASCII member, else its smallest code point.

So ``alice``, ``Alice``, ``ALICE``, ``alice`` in fullwidth letters, ``a1ice`` and ``aIice``
share a key, as do the Latin ``ace`` and the Cyrillic one (U+0430 U+0441 U+0435), ``bob``
and ``b0b``, and ``Mary-Jane``, ``Mary Jane`` and ``Mary_Jane``; ``alice`` and ``alicia``
do not. The price is that
``i``, ``l`` and ``1`` are one letter to the key (``ali`` and ``all`` are one name), and
``o`` and ``0``. What one key cannot catch: capitals of other scripts that look like Latin
ones while their small letters do not (the Cyrillic capitals U+041D U+0415 U+0410 U+0422
U+041D look like the Latin ``HEATH`` and have another key).

The scripts come from ``categories.json`` of the same package (Unicode's Scripts.txt);
the categories, NFKC and digit values from Python's ``unicodedata``. Both data files are
found where ``confusable_homoglyphs`` itself finds them (its package, or the directory
``CONFUSABLE_DATA`` names), read once, on first use.
"""

from __future__ import annotations

import bisect
import functools
import json
import string
import unicodedata
from typing import Any

import attrs
from confusable_homoglyphs import utils as _homoglyph_files  # type: ignore[import-untyped]

__all__ = ["MAX_LENGTH", "MAX_MARKS", "MIN_LENGTH", "SEPARATORS", "AccountName", "NameRefused",
           "account_name", "printable"]

MIN_LENGTH = 2
MAX_LENGTH = 20
#: Combining marks in a row after a letter, at most.
MAX_MARKS = 2
#: The characters that may stand between words: space, hyphen-minus, low line, full stop,
#: apostrophe.
SEPARATORS = frozenset(" -_.'")

#: The longest canonical decomposition (NFD) of one code point is 4 (Unicode 14; a test
#: checks it). NFKD(raw) == NFD(NFKC(raw)) and no code point decomposes to nothing, so a
#: raw string longer than 4 * MAX_LENGTH normalizes to more than MAX_LENGTH characters:
#: such a string is refused before any character is looked at.
_MAX_DECOMPOSITION = 4
#: How much of a stranger's text a message quotes, at most.
_SHOWN = 40

#: Categories refused in the raw text, before normalization, and why.
_HIDDEN: dict[str, str] = {
    "Cs": "is half of a UTF-16 surrogate pair on its own, not a character",
    "Cc": "is a control character",
    "Cf": "is invisible",
    "Co": "is a private-use character",
    "Cn": "is not an assigned Unicode character",
    "Zs": "is a space other than the ordinary one (U+0020)",
    "Zl": "is a line separator",
    "Zp": "is a paragraph separator",
}
_NOT_A_SEPARATOR = "; only the space, - _ . and ' may separate words"
#: Why a character of any other refused category is refused.
_REFUSED: dict[str, str] = {
    "S": "is a symbol",
    "P": "is punctuation" + _NOT_A_SEPARATOR,
    "No": "is a number but not a decimal digit",
    "Nl": "is a number but not a decimal digit",
    "Me": "is an enclosing mark",
}
#: Names unicodedata does not give: the control characters a stranger is likeliest to send.
_CONTROL_NAMES = {0x00: "NULL", 0x09: "CHARACTER TABULATION", 0x0A: "LINE FEED",
                  0x0D: "CARRIAGE RETURN", 0x1B: "ESCAPE", 0x7F: "DELETE"}

_SHARED_SCRIPTS = frozenset({"COMMON", "INHERITED"})
_UNKNOWN_SCRIPT = "Unknown"
#: The sets of scripts that may mix (within one of these), besides a single script.
_SCRIPT_SETS = (frozenset({"HAN", "HIRAGANA", "KATAKANA"}), frozenset({"HAN", "BOPOMOFO"}),
                frozenset({"HAN", "HANGUL"}))
_TO_HYPHEN = {ord(c): "-" for c in SEPARATORS}
#: confusables.json wraps right-to-left characters in U+200E LEFT-TO-RIGHT MARKs, for
#: showing them; the character is what is inside.
_LRM = "\u200e"


class NameRefused(ValueError):
    """The name is not acceptable; the message says why, for the player to read."""


@attrs.frozen
class AccountName:
    """An accepted name: ``display`` as shown (NFKC), ``key`` to be unique by."""

    display: str
    key: str


def account_name(raw: object) -> AccountName:
    """``raw`` as an account name, or ``NameRefused`` saying why not (the module's rules)."""
    if not isinstance(raw, str):
        raise NameRefused(f"a name is a string, not {_shown(type(raw).__name__, quote=False)}")
    text = str.__str__(raw)  # a plain str, whatever subclass came in
    if len(text) > MAX_LENGTH * _MAX_DECOMPOSITION:
        raise NameRefused(_length_refused(len(text)))
    for i, c in enumerate(text):
        category = unicodedata.category(c)
        why = _HIDDEN.get(category)
        if why is not None and c != " ":
            raise NameRefused(f"character {i + 1} {_describe(c)} {why}")
    display = unicodedata.normalize("NFKC", text)
    if not MIN_LENGTH <= len(display) <= MAX_LENGTH:
        raise NameRefused(_length_refused(len(display)))
    _check_characters(text, display)
    _check_digits_and_scripts(text, display)
    return AccountName(display=display, key=_key(display))


# --- the rules ---------------------------------------------------------------------------


def _check_characters(text: str, display: str) -> None:
    """Rules 5 and 6: letters, digits, marks after letters, separators between them."""
    last = len(display) - 1
    marks = 0
    after_letter = False  # the previous character is a letter or a mark
    after_separator = False
    has_letter = False
    for i, c in enumerate(display):
        category = unicodedata.category(c)
        separator = False
        if category[0] == "L":
            has_letter = True
            marks = 0
        elif category in ("Mn", "Mc"):
            if not after_letter:
                raise NameRefused(f"{_at(text, display, i)} is a combining mark with no letter "
                                  "before it")
            marks += 1
            if marks > MAX_MARKS:
                raise NameRefused(f"{_at(text, display, i)} is a combining mark after "
                                  f"{MAX_MARKS} others; at most {MAX_MARKS} may follow a letter")
        elif category == "Nd":
            pass
        elif c in SEPARATORS:
            separator = True
            if i == 0:
                raise NameRefused(f"a name cannot begin with a separator: "
                                  f"{_at(text, display, i)}")
            if i == last:
                raise NameRefused(f"a name cannot end with a separator: {_at(text, display, i)}")
            if after_separator:
                raise NameRefused(f"{_at(text, display, i)} follows another separator; "
                                  "separators go one at a time between letters or digits")
        else:
            why = _REFUSED.get(category, _REFUSED.get(category[0], _HIDDEN.get(
                category, "is not allowed in a name")))
            raise NameRefused(f"{_at(text, display, i)} {why}")
        after_letter = category[0] in ("L", "M")
        after_separator = separator
    if not has_letter:
        raise NameRefused(f"{_shown(display)} has no letter; a name needs at least one")


def _check_digits_and_scripts(text: str, display: str) -> None:
    """Rules 7 and 8: one numbering system, one script (or a CJK set of them)."""
    first_digit = -1
    zero = -1
    first_of: dict[str, int] = {}  # script -> where it first appears, in order
    for i, c in enumerate(display):
        category = unicodedata.category(c)
        if category[0] not in ("L", "M", "N"):
            continue
        if category == "Nd":
            digit_zero = ord(c) - unicodedata.decimal(c)
            if first_digit < 0:
                first_digit, zero = i, digit_zero
            elif digit_zero != zero:
                raise NameRefused(
                    f"{_shown(display)} mixes digits of two numbering systems: "
                    f"{_at(text, display, i)} is not of the same system as "
                    f"{_at(text, display, first_digit)}")
        script = _script(c)
        if script == _UNKNOWN_SCRIPT:
            raise NameRefused(f"{_at(text, display, i)} is of a script this server does not "
                              "know yet")
        if script not in _SHARED_SCRIPTS:
            first_of.setdefault(script, i)
    if len(first_of) < 2:
        return
    seen: set[str] = set()
    for script, i in first_of.items():
        seen.add(script)
        if len(seen) > 1 and not any(seen <= allowed for allowed in _SCRIPT_SETS):
            names = [_script_title(s) for s in first_of]
            listed = ", ".join(names[:-1]) + " and " + names[-1]
            raise NameRefused(f"{_shown(display)} mixes scripts ({listed}): "
                              f"{_at(text, display, i)} is {_script_title(script)}")
    # Every set of scripts is within one of _SCRIPT_SETS.


def _key(display: str) -> str:
    folded = display.casefold().translate(_look_alikes())
    return unicodedata.normalize("NFKC", folded).translate(_TO_HYPHEN)


# --- data --------------------------------------------------------------------------------


def _load(filename: str) -> Any:
    """One of confusable_homoglyphs' JSON files, where the package itself looks for it."""
    with open(str(_homoglyph_files.path(filename)), encoding="utf-8") as file:
        return json.load(file)


def _single(glyph: object) -> str | None:
    """``glyph`` as one code point that is neither control nor format, or None."""
    if not isinstance(glyph, str):
        return None
    if glyph.startswith(_LRM) and glyph.endswith(_LRM) and len(glyph) > 2:
        glyph = glyph[1:-1]
    if len(glyph) != 1 or unicodedata.category(glyph) in ("Cc", "Cf"):
        return None
    return glyph


@functools.cache
def _look_alikes() -> dict[int, str]:
    """A ``str.translate`` table: each character to its class's representative (members
    that are their own representative are left out)."""
    parent: dict[str, str] = {}

    def root(c: str) -> str:
        parent.setdefault(c, c)
        while parent[c] != c:
            parent[c] = parent[parent[c]]
            c = parent[c]
        return c

    data = _load("confusables.json")
    if not isinstance(data, dict):
        raise RuntimeError("confusables.json is not a mapping")
    for glyph, alikes in data.items():
        one = _single(glyph)
        if one is None or not isinstance(alikes, list):
            continue
        for alike in alikes:
            other = _single(alike.get("c") if isinstance(alike, dict) else None)
            if other is not None:
                a, b = root(one), root(other)
                if a != b:
                    parent[a] = b
    for capital in string.ascii_uppercase:  # the key ignores case; see the module's doc
        a, b = root(capital), root(capital.lower())
        if a != b:
            parent[a] = b
    classes: dict[str, list[str]] = {}
    for c in parent:
        classes.setdefault(root(c), []).append(c)
    table: dict[int, str] = {}
    for members in classes.values():
        ascii_members = [c for c in members if c.isascii()]
        uncased = [c for c in ascii_members if not c.isupper()]
        representative = min(uncased or ascii_members or members)
        table.update((ord(c), representative) for c in members if c != representative)
    return table


@functools.cache
def _script_ranges() -> tuple[list[int], list[int], list[str]]:
    """categories.json's ranges: their first and last code points and their scripts."""
    data = _load("categories.json")
    aliases = [str(a) for a in data["iso_15924_aliases"]]
    starts: list[int] = []
    ends: list[int] = []
    scripts: list[str] = []
    for first, last, alias, _category in sorted(data["code_points_ranges"]):
        starts.append(int(first))
        ends.append(int(last))
        scripts.append(aliases[int(alias)])
    return starts, ends, scripts


def _script(c: str) -> str:
    """The script alias of ``c`` (``LATIN``, ``COMMON``, ...), or ``Unknown``."""
    starts, ends, scripts = _script_ranges()
    code = ord(c)
    k = bisect.bisect_right(starts, code) - 1
    if k >= 0 and code <= ends[k]:
        return scripts[k]
    return _UNKNOWN_SCRIPT


def _script_title(alias: str) -> str:
    return alias.replace("_", " ").title()


# --- messages ----------------------------------------------------------------------------


def _length_refused(length: int) -> str:
    return f"a name is {MIN_LENGTH} to {MAX_LENGTH} characters; this one has {length}"


def _label(c: str) -> str:
    """``U+200F RIGHT-TO-LEFT MARK``: the code point and its name, if it has one."""
    name = unicodedata.name(c, "") or _CONTROL_NAMES.get(ord(c), "")
    return f"U+{ord(c):04X} {name}".rstrip()


def _glyph(c: str) -> str:
    """``"c" `` for a character that prints (a mark on a dotted circle, as Unicode's charts
    show marks), else nothing."""
    category = unicodedata.category(c)
    if category[0] in ("L", "N", "P", "S"):
        return f'"{c}" '
    if category[0] == "M":
        return f'"\u25cc{c}" '
    return ""


def _describe(c: str, typed: str | None = None) -> str:
    """``"<" (U+003C LESS-THAN SIGN)``, or ``(U+200F RIGHT-TO-LEFT MARK)`` for a character
    that does not print; with the character ``typed`` that normalization made it, if any:
    ``(U+2044 FRACTION SLASH, from "¼" U+00BC VULGAR FRACTION ONE QUARTER)``, its glyph
    before the parenthesis."""
    origin = "" if typed is None or typed == c else f", from {_glyph(typed)}{_label(typed)}"
    return f"{_glyph(c)}({_label(c)}{origin})"


def _at(text: str, display: str, i: int) -> str:
    """``character N "c" (U+...)`` for ``display[i]``, N counted in what was typed."""
    c = display[i]
    if text == display:
        return f"character {i + 1} {_describe(c)}"
    j = len(text) - 1
    for end in range(1, len(text) + 1):
        if len(unicodedata.normalize("NFKC", text[:end])) > i:
            j = end - 1
            break
    return f"character {j + 1} {_describe(c, text[j])}"


def printable(text: str, limit: int) -> str:
    """At most ``limit`` characters of a stranger's ``text``, each that does not print
    (control, invisible, separator other than a space, surrogate) shown as its code point
    (``U+200F``), with "…" when cut: safe to put in a message sent as UTF-8."""
    shown = "".join(c if unicodedata.category(c)[0] in ("L", "M", "N", "P", "S") or c == " "
                    else f"U+{ord(c):04X}" for c in text[:limit])
    return shown + "…" if len(text) > limit else shown


def _shown(text: str, *, quote: bool = True) -> str:
    """At most _SHOWN characters of ``text``, as ``printable`` shows them."""
    shown = printable(text, _SHOWN)
    return f'"{shown}"' if quote else shown

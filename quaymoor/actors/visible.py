"""Whether a stranger's text shows anything: one home for what counts as invisible, for
chat lines (``actors.chat``) and, later, names (``actors.lobby``).

Invisible: white space (``str.isspace``), control, format and surrogate characters
(categories Cc, Cf, Cs: zero-width spaces and joiners, bidirectional marks, the BOM, tag
characters), Unicode's other default-ignorable code points (variation selectors, the
combining grapheme joiner, Hangul fillers, ...) and the blank Braille pattern, which
renders as a space. Anything else counts as visible, combining marks and unassigned code
points included (a font shows them, if only as a box or a dotted circle).
"""

from __future__ import annotations

import unicodedata
from typing import Final

#: Default_Ignorable_Code_Point (Unicode's DerivedCoreProperties.txt) outside Cc/Cf/Cs,
#: and U+2800 BRAILLE PATTERN BLANK: first and last code point of each range.
_BLANK_RANGES: Final = (
    (0x034F, 0x034F), (0x115F, 0x1160), (0x17B4, 0x17B5), (0x180B, 0x180F),
    (0x2800, 0x2800), (0x3164, 0x3164), (0xFE00, 0xFE0F), (0xFFA0, 0xFFA0),
    (0xFFF0, 0xFFF8), (0x1BCA0, 0x1BCA3), (0x1D173, 0x1D17A), (0xE0000, 0xE0FFF),
)
_INVISIBLE_CATEGORIES: Final = frozenset(("Cc", "Cf", "Cs", "Zs", "Zl", "Zp"))


def invisible(char: str) -> bool:
    """Whether one character shows nothing (see the module's list)."""
    if char.isspace() or unicodedata.category(char) in _INVISIBLE_CATEGORIES:
        return True
    point = ord(char)
    return any(low <= point <= high for low, high in _BLANK_RANGES)


def shows_something(text: str) -> bool:
    """Whether any character of ``text`` is visible."""
    return not all(invisible(c) for c in text)

"""A table's chat: the players write, everyone attached reads; nothing is kept.

How it works. ``Chat.say`` takes a seat's text as the client sent it, checks and cleans it
(``clean_chat``), holds the seat to its rate (``RATE_LINES`` lines in any
``RATE_SECONDS``, a ``rate_limit.Window`` per seat, so two tabs of one player share it)
and returns the ``ChatLine`` the table broadcasts. The last ``RECENT_LINES`` lines since
the table opened are held in memory (``recent``) for a connection that attaches later;
nothing else is kept: the chat is in no record, no archive and no log line. A refusal
raises ``ChatError`` and changes nothing (a refused line does not count against the
rate).

Text rules, on the text as received: not valid Unicode (a lone surrogate) is refused;
control characters (C0, C1, DEL) and the bidirectional controls (which would reorder the
rest of a page) are removed; runs of white space (newlines too) become one space; what is
left must be 1 to ``MAX_CHARS`` code points, and show something: a line made only of
invisible characters (zero-width spaces, other format characters, Hangul fillers,
``actors.visible``) is refused too, not broadcast as a blank line.
"""

from __future__ import annotations

import time
import unicodedata
from collections import deque
from typing import Final

import attrs

from quaymoor.actors.rate_limit import Keyed, Window
from quaymoor.actors.visible import shows_something
from quaymoor.protocol.codes import Code
from quaymoor.protocol.messages import ChatLine, ChatRecent

MAX_CHARS: Final = 200  #: code points in one line, after cleaning
RATE_LINES: Final = 5  #: lines one seat may send ...
RATE_SECONDS: Final = 10.0  #: ... in any window this long
RECENT_LINES: Final = 50  #: lines held for connections that attach later

#: Bidirectional controls: embeddings, overrides, isolates and marks.
_BIDI: Final = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e"
                         "\u2066\u2067\u2068\u2069")


class ChatError(Exception):
    """A chat line refused; ``code`` goes on the wire, the text says what and where."""

    def __init__(self, code: Code, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def clean_chat(text: object) -> str:
    """The line as the table shows it (see the module's text rules). Raises
    ``ChatError`` (bad_chat) for anything else."""
    if not isinstance(text, str):
        raise ChatError(Code.BAD_CHAT, f"a chat line is a string, not {type(text).__name__} "
                                       "@ $.text")
    if any(0xD800 <= ord(c) <= 0xDFFF for c in text):
        raise ChatError(Code.BAD_CHAT, "a chat line must be valid Unicode (it has a lone "
                                       "surrogate) @ $.text")
    kept = "".join(c for c in text if c.isspace()
                   or (unicodedata.category(c) != "Cc" and c not in _BIDI))
    line = " ".join(kept.split())
    if not line:
        raise ChatError(Code.BAD_CHAT, "a chat line needs some text @ $.text")
    if not shows_something(line):
        raise ChatError(Code.BAD_CHAT, "a chat line needs something visible: this one has "
                                       "only invisible characters (zero-width, format or "
                                       "blank ones) @ $.text")
    if len(line) > MAX_CHARS:
        raise ChatError(Code.BAD_CHAT, f"a chat line is at most {MAX_CHARS} characters; "
                                       f"this one is {len(line)} @ $.text")
    return line


@attrs.define
class Chat:
    """One table's chat: the recent lines and each seat's recent sends."""

    table: str
    recent: deque[ChatLine] = attrs.field(factory=lambda: deque(maxlen=RECENT_LINES))
    #: per seat, the lines it sent in the last ``RATE_SECONDS`` (trio times)
    _sent: Keyed[int, Window] = attrs.field(
        factory=lambda: Keyed(lambda: Window(RATE_LINES, RATE_SECONDS)))
    _next_id: int = 1

    def say(self, seat: int, name: str, text: object) -> ChatLine:
        """The line ``seat`` (shown as ``name``) wrote, checked, counted and kept among
        the recent ones. Raises ``ChatError``: bad_chat, chat_too_fast."""
        line = clean_chat(text)
        sent = self._sent[seat]
        wait = sent.wait()
        if wait > 0:
            raise ChatError(Code.CHAT_TOO_FAST,
                            f"at most {RATE_LINES} chat lines in {RATE_SECONDS:g} s: "
                            f"wait {wait:.1f} s")
        sent.allow()
        said = ChatLine(self.table, self._next_id, seat, name, line, round(time.time(), 3))
        self._next_id += 1
        self.recent.append(said)
        return said

    def catch_up(self) -> ChatRecent:
        """The recent lines, oldest first, for a connection that has just attached."""
        return ChatRecent(self.table, list(self.recent))

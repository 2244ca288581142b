"""What the fuzzer counts and what it holds against every answer.

``Tally`` keeps the inputs tried (by category, by kind of value, by field) and the
failure columns; each failure keeps its first few inputs (``Failure``) for the reducer.
``Secrets`` scans every frame and body received for hidden information: the 64-hex
strings and 32-character tokens seen are collected as they arrive and checked at the end,
once every seed is known (a seed is revealed only when its game ends).
"""

from __future__ import annotations

import json
import re
from collections import Counter
from typing import Any, Final

import attrs

#: The failure columns, in the report's order.
COLUMNS: Final = ("server crashes", "table crashes", "hung requests",
                  "state changes from refused inputs", "leaked secrets",
                  "probes answered wrongly")
#: Inputs kept per failure column for the reducer and the report.
KEEP: Final = 12

_HEX64 = re.compile(r"(?<![0-9a-f])[0-9a-f]{64}(?![0-9a-f])")
_TOKEN = re.compile(r"(?<![A-Za-z0-9_-])[A-Za-z0-9_-]{32}(?![A-Za-z0-9_-])")


@attrs.frozen
class Input:
    """One input as sent, enough to send it again (``reduce``)."""

    channel: str  #: "ws" (after a hello), "ws-first" (the first frame), "http"
    field: str
    kind: str
    payload: str | bytes  #: the frame; for "http", b"METHOD path\n" + the body

    def shown(self, limit: int = 300) -> str:
        text = self.payload if isinstance(self.payload, str) else self.payload.decode(
            "utf-8", "backslashreplace")
        text = text.encode("ascii", "backslashreplace").decode().replace("\n", " ", 1)
        return text if len(text) <= limit else f"{text[:limit]}... ({len(text)} chars)"


@attrs.define
class Failure:
    """One failing input (or batch of inputs): what happened, where, what was sent."""

    column: str
    what: str
    where: str  #: the table's phase and how the input was sent
    inputs: list[Input]
    reduced: Input | None = None  #: the one input that does it alone (``reduce``)


@attrs.define
class Tally:
    tried: Counter[str] = attrs.field(factory=Counter)
    kinds: Counter[str] = attrs.field(factory=Counter)
    fields: Counter[str] = attrs.field(factory=Counter)
    outcomes: Counter[str] = attrs.field(factory=Counter)
    counts: Counter[str] = attrs.field(factory=Counter)
    failures: list[Failure] = attrs.field(factory=list)

    def tried_one(self, category: str, field: str, kind: str) -> None:
        self.tried[category] += 1
        self.kinds[kind] += 1
        self.fields[field] += 1

    def fail(self, column: str, what: str, where: str, inputs: list[Input],
             count: int = 1) -> None:
        assert column in COLUMNS, column
        self.counts[column] += count
        if sum(f.column == column for f in self.failures) < KEEP:
            self.failures.append(Failure(column, what, where, inputs))

    @property
    def total(self) -> int:
        return sum(self.tried.values())


@attrs.define
class Secrets:
    """Candidates for leaked secrets, checked at the end against what must stay hidden."""

    hexes: dict[str, str] = attrs.field(factory=dict)  #: 64-hex string -> where seen
    tokens: dict[str, str] = attrs.field(factory=dict)  #: token-like string -> where seen
    seals: list[str] = attrs.field(factory=list)  #: another seat's seals, seen at once

    def scan_frame(self, text: str, where: str, sent: str = "") -> None:
        """A websocket frame received. ``sent``: what this connection sent itself (its
        own tokens are no leak)."""
        if '"game_ended"' not in text:  # a game's end reveals its seed: that is the point
            for found in _HEX64.findall(text):
                self.hexes.setdefault(found, where)
        self._tokens(text, where, sent)
        if '"seals"' in text:
            self._seals(text, where)

    def scan_body(self, body: bytes, where: str, sent: str = "") -> None:
        """An HTTP body received; ``/games/...`` and ``/api/games...`` serve ended games."""
        text = body.decode("utf-8", "replace")
        if "/games" not in where:
            for found in _HEX64.findall(text):
                self.hexes.setdefault(found, where)
        self._tokens(text, where, sent)

    def _tokens(self, text: str, where: str, sent: str) -> None:
        for found in _TOKEN.findall(text):
            if found not in sent:
                self.tokens.setdefault(found, where)

    def _seals(self, text: str, where: str) -> None:
        try:
            msg = json.loads(text)
        except ValueError:
            return
        view = msg.get("view") if isinstance(msg, dict) else None
        if not isinstance(view, dict) or view.get("result") is not None:
            return
        for mat in view.get("mats", []):
            if mat.get("seat") != view.get("seat") and mat.get("seals") is not None:
                self.seals.append(f"seat {mat.get('seat')}'s seals shown to seat "
                                  f"{view.get('seat')} ({where})")

    def leaks(self, seeds: dict[str, str], tokens: dict[str, str]) -> list[str]:
        """Every seed seen outside its game's end, every token seen outside its own
        answer, every other seat's seals: ``seeds`` and ``tokens`` map secret -> owner."""
        found = list(self.seals)
        found += [f"the seed of table {seeds[h]} in {where}"
                  for h, where in self.hexes.items() if h in seeds]
        found += [f"the token of {tokens[t]} in {where}"
                  for t, where in self.tokens.items() if t in tokens]
        return found


def summary_of(answer: Any) -> str:
    """A short text of an answer for the report."""
    text = answer if isinstance(answer, str) else repr(answer)
    return text if len(text) <= 160 else text[:157] + "..."

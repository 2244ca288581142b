"""``web/wire.js``: the wire's facts for the browser, generated from the server's sources.

A browser client compares what the server sends against names: error and close codes,
phases, goods, table states, paces, message and event types. Copied by hand into the
JavaScript they drift; so this module renders them as one ES module from the Python that
defines them (``protocol.codes``, ``protocol.pace``, ``protocol.messages``,
``rules.data``, ``rules.state``, ``rules.actions``, ``rules.events``, ``rules.record``,
the bot levels), and ``tests/tools/test_wire_js.py`` fails when ``web/wire.js`` is not
exactly ``render()``. ``quaymoor wire-js`` writes it.

It lives in ``tools`` because it reads several layers (the protocol, the rules and the
bots' levels) that the protocol layer itself may not import.

Each export is a frozen object (``Object.freeze``, nested ones too) with a JSDoc type, and
the file starts with ``// @ts-check``.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any, Final, get_args

from quaymoor.bots import LOBBY_LEVELS
from quaymoor.protocol.codec import wire_tag
from quaymoor.protocol.codes import (
    CLOSE_MEANINGS,
    CODE_MEANINGS,
    HTTP_STATUS,
    MESSAGE_TOO_BIG,
    Close,
    Code,
)
from quaymoor.protocol.messages import (
    MAX_WATCHER_NAMES,
    WATCHERS_EVERY,
    ClientMessage,
    ServerMessage,
    WireEvent,
)
from quaymoor.protocol.pace import DEFAULT_PACE, PACE_SECONDS, Pace, TableState
from quaymoor.rules.actions import Action
from quaymoor.rules.converter import snake, wire_name
from quaymoor.rules.data import (
    BUILDINGS,
    GOODS,
    PLOT_KINDS,
    ROLES,
    EndTrigger,
)
from quaymoor.rules.record import EndReason
from quaymoor.rules.state import Phase

#: Where the file goes, from the repository's root.
WIRE_JS: Final = Path(__file__).resolve().parents[2] / "web" / "wire.js"


def _js(value: Any) -> str:
    """A JSON value as frozen JavaScript: objects and arrays wrapped in Object.freeze."""
    if isinstance(value, dict):
        items = ", ".join(f"{json.dumps(k)}: {_js(v)}" for k, v in value.items())
        return f"Object.freeze({{{items}}})"
    if isinstance(value, list | tuple):
        return f"Object.freeze([{', '.join(_js(v) for v in value)}])"
    return json.dumps(value)


def _block(name: str, doc: str, jstype: str, value: Mapping[str, Any] | list[Any]) -> str:
    """One export: its doc comment and its frozen value, a line per entry. ``jstype`` is
    said in words only: TypeScript infers each key of the frozen literal, so that a client
    naming a code that does not exist fails its type check."""
    if isinstance(value, Mapping):
        lines = [f"  {json.dumps(k)}: {_js(v)}," for k, v in value.items()]
        body = "Object.freeze({\n" + "\n".join(lines) + "\n})"
    else:
        body = "Object.freeze([\n" + "\n".join(f"  {_js(v)}," for v in value) + "\n])"
    return f"/**\n * {doc} ({jstype})\n */\nexport const {name} = {body};\n"


def _by_name(names: Iterable[str]) -> dict[str, str]:
    """``{"BAD_JSON": "bad_json", ...}``: a constant per wire name."""
    return {n.upper(): n for n in names}


def _tags(union: Any) -> list[str]:
    return sorted({wire_tag(cl) for cl in get_args(union)})


def render() -> str:
    """The text of ``web/wire.js``."""
    codes = [c.value for c in Code]
    blocks = [
        _block("CODES", "Every error code (`error` messages, HTTP error bodies).",
               "Readonly<Record<string, string>>", _by_name(codes)),
        _block("CODE_MEANINGS", "What each error code means, in a line.",
               "Readonly<Record<string, string>>",
               {c.value: CODE_MEANINGS[c] for c in Code}),
        _block("HTTP_STATUS", "The HTTP status of each code the HTTP API sends.",
               "Readonly<Record<string, number>>",
               {c.value: s for c, s in HTTP_STATUS.items()}),
        _block("CLOSE", "Every websocket close code the server sends (and 1009, "
               "trio-websocket's own for a message too big).",
               "Readonly<Record<string, number>>",
               {**{c.name: c.value for c in Close}, "MESSAGE_TOO_BIG": MESSAGE_TOO_BIG}),
        _block("CLOSE_MEANINGS", "What each close code means, in a line.",
               "Readonly<Record<string, string>>",
               {**{str(c.value): CLOSE_MEANINGS[c] for c in Close},
                str(MESSAGE_TOO_BIG): "a message over 64 KiB"}),
        _block("PHASES", "The phases (`board.phase`).", "Readonly<Record<string, string>>",
               _by_name(wire_name(p) for p in Phase)),
        _block("GOODS", "The goods, in the order of count lists such as `goods_made`.",
               "ReadonlyArray<string>", [wire_name(g) for g in GOODS]),
        _block("PLOT_KINDS", "The plot kinds: the goods and the stone pit.",
               "ReadonlyArray<string>", [wire_name(k) for k in PLOT_KINDS]),
        _block("ROLES", "The role cards, in table order.", "ReadonlyArray<string>",
               [wire_name(r) for r in ROLES]),
        _block("BUILDINGS", "The buildings, in the rules' order.", "ReadonlyArray<string>",
               [b.key for b in BUILDINGS]),
        _block("TABLE_STATES", "A table's state (`GET /api/tables`).",
               "Readonly<Record<string, string>>", _by_name(t.value for t in TableState)),
        _block("PACES", "The bots' paces (`pace`).", "Readonly<Record<string, string>>",
               _by_name(p.value for p in Pace)),
        _block("PACE_SECONDS", "Seconds a bot waits at each pace (unless the server "
               "overrides them all).", "Readonly<Record<string, number>>",
               {p.value: PACE_SECONDS[p] for p in Pace}),
        _block("END_REASONS", "Why a game ended (`game_ended`'s `reason`).",
               "Readonly<Record<string, string>>", _by_name(r.value for r in EndReason)),
        _block("END_TRIGGERS", "Why the round is the last (`board.end_reasons`).",
               "Readonly<Record<string, string>>", _by_name(t.value for t in EndTrigger)),
        _block("BOT_LEVELS", "The bot levels a table may have (`bots`).",
               "ReadonlyArray<string>", list(LOBBY_LEVELS)),
        _block("CLIENT_MESSAGES", "The types of the messages a client sends.",
               "Readonly<Record<string, string>>", _by_name(_tags(ClientMessage))),
        _block("SERVER_MESSAGES", "The types of the messages the server sends.",
               "Readonly<Record<string, string>>", _by_name(_tags(ServerMessage))),
        _block("EVENTS", "The types of an update's events.",
               "Readonly<Record<string, string>>", _by_name(_tags(WireEvent))),
        _block("ACTIONS", "The types of actions.", "Readonly<Record<string, string>>",
               _by_name(sorted(snake(cl.__name__) for cl in get_args(Action)))),
        _block("LIMITS", "Numbers a client shows.", "Readonly<Record<string, number>>",
               {"MAX_WATCHER_NAMES": MAX_WATCHER_NAMES, "WATCHERS_EVERY": WATCHERS_EVERY}),
    ]
    head = ("// @ts-check\n"
            "// The wire's facts, generated from the server's Python sources by\n"
            "// quaymoor/tools/wire_js.py: do not edit; run `quaymoor wire-js` (a test fails\n"
            "// when this file is stale). docs/protocol.md says what each means.\n\n"
            f"/** The pace a table has unless one is chosen. */\n"
            f"export const DEFAULT_PACE = {json.dumps(DEFAULT_PACE.value)};\n\n")
    return head + "\n".join(blocks)


def write(path: Path = WIRE_JS) -> bool:
    """Write ``render()`` to ``path``; True when the file changed."""
    text = render()
    if path.exists() and path.read_text(encoding="utf-8") == text:
        return False
    path.write_text(text, encoding="utf-8")
    return True

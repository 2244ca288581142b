"""A client's view of ``update`` messages, written from docs/protocol.md alone (not from the
server's diff code): a snapshot carries ``view``; a delta carries ``patch``, applied to the
view at its ``since``, and ``seats`` only when they changed.

Tests that read ``msg["view"]`` feed every message of one connection, in order, to one
``Views``; it fills in ``view`` (the whole view at the update's version) and ``seats`` on
each delta, so the rest of the test reads updates as it always did.
"""

from __future__ import annotations

import copy
from typing import Any


def _token(ref: str) -> str:
    return ref.replace("~1", "/").replace("~0", "~")


def apply_patch(view: Any, patch: list[list[Any]]) -> Any:
    """``view`` with ``patch`` applied (docs/protocol.md): ``[pointer, value]`` sets,
    ``[pointer]`` removes. ``view`` is not changed. Raises on an operation the doc does not
    allow (a bad pointer, an index past the end)."""
    doc = copy.deepcopy(view)
    for op in patch:
        assert isinstance(op, list) and len(op) in (1, 2), op
        pointer = op[0]
        assert isinstance(pointer, str) and pointer.startswith("/"), op
        *parents, last = [_token(t) for t in pointer[1:].split("/")]
        target = doc
        for ref in parents:
            target = target[int(ref)] if isinstance(target, list) else target[ref]
        if isinstance(target, list):
            assert last.isdigit() and (last == "0" or not last.startswith("0")), op
            index = int(last)
            if len(op) == 1:
                assert index < len(target), op
                del target[index]
            elif index == len(target):
                target.append(copy.deepcopy(op[1]))
            else:
                assert index < len(target), op
                target[index] = copy.deepcopy(op[1])
        else:
            assert isinstance(target, dict), op
            if len(op) == 1:
                del target[last]
            else:
                target[last] = copy.deepcopy(op[1])
    return doc


class Views:
    """One connection's view, kept from its updates in order."""

    def __init__(self) -> None:
        self.view: dict[str, Any] | None = None
        self.seats: list[dict[str, Any]] | None = None
        self.snapshots = 0
        self.deltas = 0

    def feed(self, msg: dict[str, Any]) -> dict[str, Any]:
        """Take the next message of the connection; an update gets its whole ``view``
        and its ``seats`` (a copy of this connection's). Returns ``msg``."""
        if msg.get("type") == "welcome":
            self.seats = msg["seats"]
        if msg.get("type") != "update":
            return msg
        if "view" in msg:
            assert "patch" not in msg
            self.snapshots += 1
            self.view = copy.deepcopy(msg["view"])
        else:
            assert self.view is not None, "a delta before any snapshot"
            assert msg["since"] == self.view["version"], "a delta that does not follow"
            self.deltas += 1
            self.view = apply_patch(self.view, msg["patch"])
            msg["view"] = copy.deepcopy(self.view)
        assert self.view["version"] == msg["version"]
        if "seats" in msg:
            self.seats = msg["seats"]
        else:
            assert self.seats is not None
            msg["seats"] = copy.deepcopy(self.seats)
        return msg

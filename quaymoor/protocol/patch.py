"""The patch of a delta ``update``: what changed between two JSON-ready views.

A patch is a list of operations, applied in order (docs/protocol.md, section 5):
``[pointer, value]`` sets the value at ``pointer`` (an object's member is added or
replaced; an array's element at an existing index is replaced, at the index equal to the
array's length appended), and ``[pointer]`` removes it. A pointer is an RFC 6901 JSON
Pointer (``/board/market/3/copies``), never the empty one. This module only computes
patches; it decides nothing about what a seat may see: it is given two views of one
audience (a seat's previous and new view, or a spectator's) and says how to turn the first
into the second. Values are compared with ``==``: a view holds no booleans or floats, so
``1 == True`` and ``1 == 1.0`` cannot hide a change.

How it works. ``diff`` walks both values together, skipping every part that is equal
(compared in C by ``==``, not walked). A scalar that changed is set; dicts are compared
key by key (set for keys that changed or came, remove for keys that went); lists element
by element on their common length, then appended to, or removed from the end, last index
first. A dict or a list where more than half of the children changed, each as a whole, is
set whole (shorter on the wire: a list of legal actions, an action); one with a change
further down never is, so the view itself is never set whole.

Sharing. Where a part of the new view equals the old one's, ``diff`` puts the old object
in the new view's place (the values stay as they were). The views of the next version are
then compared by identity (``is``) wherever nothing changed, and a version's views keep as
new objects only the parts that changed: the rest of what was built is freed at once, so
the long-lived heap stays small and the young garbage collections have little to scan.
"""

from __future__ import annotations

from typing import Any

#: One operation as it goes on the wire: ``[pointer, value]`` (set) or ``[pointer]``.
Op = list[Any]


def _escape(key: str) -> str:
    """A dict key as a JSON Pointer reference token (RFC 6901: ``~`` then ``/``)."""
    if "~" in key or "/" in key:
        return key.replace("~", "~0").replace("/", "~1")
    return key


def diff(a: dict[str, Any], b: dict[str, Any]) -> list[Op]:
    """The operations that turn the view ``a`` into the view ``b`` (JSON-ready: dicts with
    str keys, lists, str, int, None). Values in the operations are parts of ``b``, shared,
    not copies.

    ``b`` also takes over ``a``'s objects for every part they have equal (see the module's
    notes): ``b`` must be the caller's own, and the values of both stay as they were."""
    ops: list[Op] = []
    if a is not b and a != b:
        _dict(a, b, "", ops, whole=False)
    return ops


def _walk(a: Any, b: Any, path: str, ops: list[Op]) -> bool:
    """Append the operations from ``a`` to ``b`` (which differ) at ``path``; True when
    that is one operation setting ``b`` whole."""
    kind = type(a)
    if kind is not type(b) or (kind is not dict and kind is not list):
        ops.append([path, b])
        return True
    return _dict(a, b, path, ops) if kind is dict else _list(a, b, path, ops)


def _dict(a: dict[str, Any], b: dict[str, Any], path: str, ops: list[Op],
          whole: bool = True) -> bool:
    start = len(ops)
    changed = 0
    deep = False  #: some change is below a child: never set whole
    for k, vb in b.items():
        if k not in a:
            ops.append([f"{path}/{_escape(k)}", vb])
            changed += 1
            continue
        va = a[k]
        if va is not vb:
            step = _child(b, k, va, vb, path=f"{path}/{_escape(k)}", ops=ops)
            changed += step > _SAME
            deep = deep or step == _BELOW
    for k in a:
        if k not in b:
            ops.append([f"{path}/{_escape(k)}"])
            changed += 1
    return _maybe_whole(b, path, ops, start, changed=changed, may=whole and not deep)


def _list(a: list[Any], b: list[Any], path: str, ops: list[Op]) -> bool:
    start = len(ops)
    common = min(len(a), len(b))
    changed = abs(len(a) - len(b))
    deep = False
    for i in range(common):
        va, vb = a[i], b[i]
        if va is not vb:
            step = _child(b, i, va, vb, path=f"{path}/{i}", ops=ops)
            changed += step > _SAME
            deep = deep or step == _BELOW
    for i in range(common, len(b)):
        ops.append([f"{path}/{i}", b[i]])
    for i in range(len(a) - 1, common - 1, -1):
        ops.append([f"{path}/{i}"])
    return _maybe_whole(b, path, ops, start, changed=changed, may=not deep)


_SAME, _WHOLE, _BELOW = 0, 1, 2  #: what ``_child`` found


def _child(b: Any, key: Any, va: Any, vb: Any, *, path: str, ops: list[Op]) -> int:
    """Compare ``b[key]`` (``vb``) with the old ``va`` (not the same object): ``_SAME``
    when equal (``b`` takes ``va``), else the operations appended and ``_WHOLE`` when they
    set ``vb`` whole, ``_BELOW`` when they change it further down."""
    if va == vb:
        b[key] = va
        return _SAME
    return _WHOLE if _walk(va, vb, path, ops) else _BELOW


def _maybe_whole(b: Any, path: str, ops: list[Op], start: int, *, changed: int,
                 may: bool) -> bool:
    """Set ``b`` whole instead of its children's operations (from ``start``) when more
    than half of its children changed, each as a whole; True if it did."""
    if may and len(ops) - start > 1 and changed * 2 > len(b):
        del ops[start:]
        ops.append([path, b])
        return True
    return False


class PatchError(ValueError):
    """An operation the protocol does not allow (a bad pointer, an index past the end)."""


def apply_patch(view: Any, patch: Any) -> Any:
    """``view`` with ``patch`` applied, as a client does it (docs/protocol.md): the
    containers on each operation's path are copied, the rest shared; ``view`` is not
    changed. Raises ``PatchError``. (For the bench clients; the tests check the server
    with an applier of their own.)"""
    if not isinstance(patch, list):
        raise PatchError("a patch is a list")
    root = _copy(view)
    fresh = {id(root)}
    for op in patch:
        if not isinstance(op, list) or len(op) not in (1, 2) or not isinstance(op[0], str) \
                or not op[0].startswith("/"):
            raise PatchError(f"not an operation: {op!r}")
        *parents, last = [t.replace("~1", "/").replace("~0", "~") for t in op[0][1:].split("/")]
        target = root
        try:
            for ref in parents:
                key: Any = int(ref) if isinstance(target, list) else ref
                child = target[key]
                if id(child) not in fresh:
                    child = target[key] = _copy(child)
                    fresh.add(id(child))
                target = child
            if isinstance(target, list):
                index = int(last)
                if len(op) == 1:
                    del target[index]
                elif index == len(target):
                    target.append(op[1])
                else:
                    target[index] = op[1]
            elif len(op) == 1:
                del target[last]
            else:
                target[last] = op[1]
        except (KeyError, IndexError, ValueError, TypeError) as exc:
            raise PatchError(f"cannot apply {op!r}: {exc}") from None
    return root


def _copy(value: Any) -> Any:
    if isinstance(value, dict):
        return dict(value)
    if isinstance(value, list):
        return list(value)
    raise TypeError(f"not a container: {type(value).__name__}")


class ViewKeeper:
    """One connection's view kept from its updates, as a client does it (for the tools'
    clients): a snapshot replaces it; a delta applies when it follows on."""

    def __init__(self) -> None:
        self.view: Any = None

    def feed(self, update: dict[str, Any]) -> Any:
        """The view after ``update``, or None when it is a delta that does not follow on
        (the client would ask for a ``resync``). Raises ``PatchError``."""
        if "view" in update:
            self.view = update["view"]
        elif self.view is not None and self.view.get("version") == update.get("since"):
            self.view = apply_patch(self.view, update.get("patch"))
        else:
            return None
        return self.view

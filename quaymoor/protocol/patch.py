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

How it works. ``Differ.diff`` walks both values together, skipping every part that is
equal (compared in C by ``==``, not walked). A scalar that changed is set; dicts are
compared key by key (set for keys that changed or came, remove for keys that went); lists
element by element on their common length, then appended to, or removed from the end,
last index first. A dict or a list where more than half of the children changed, each as a
whole, is set whole (shorter on the wire: a list of legal actions, an action); one with a
change further down never is, so the view itself is never set whole.

The views of a table's audiences share their public parts as the same objects
(``view_json.ViewEncoder``), so ``Differ`` remembers the patch of every pair of
containers it has compared: the seats after the first pay only for their own parts.
"""

from __future__ import annotations

from typing import Any, Final

#: One operation as it goes on the wire: ``[pointer, value]`` (set) or ``[pointer]``.
Op = list[Any]

_REMOVE: Final = object()
#: (a pointer relative to the values compared, "" for the value itself; the new value or
#: ``_REMOVE``)
_Rel = tuple[str, Any]


def _escape(key: str) -> str:
    """A dict key as a JSON Pointer reference token (RFC 6901: ``~`` then ``/``)."""
    if "~" in key or "/" in key:
        return key.replace("~", "~0").replace("/", "~1")
    return key


class Differ:
    """Computes patches, remembering the patch of each pair of containers compared.

    The memory holds references to what it compared (so that no ``id`` is reused while
    it lives); call ``forget`` when the views move on.
    """

    def __init__(self) -> None:
        #: (id(a), id(b)) -> (a, b, the patch from a to b with paths relative to them)
        self._memo: dict[tuple[int, int], tuple[Any, Any, list[_Rel]]] = {}

    def forget(self) -> None:
        self._memo.clear()

    def diff(self, a: dict[str, Any], b: dict[str, Any]) -> list[Op]:
        """The operations that turn the view ``a`` into the view ``b`` (JSON-ready: dicts
        with str keys, lists, str, int, None). Neither is changed; values in the
        operations are parts of ``b``, shared, not copies."""
        if a is b or a == b:
            return []
        return [[path] if value is _REMOVE else [path, value]
                for path, value in self._dict(a, b, whole=False)]

    def _relative(self, a: Any, b: Any) -> list[_Rel]:
        """The operations from ``a`` to ``b``, which differ (``a != b``)."""
        ta = type(a)
        if ta is not type(b) or ta not in (dict, list):
            return [("", b)]
        return self._dict(a, b) if ta is dict else self._list(a, b)

    def _dict(self, a: dict[str, Any], b: dict[str, Any], whole: bool = True) -> list[_Rel]:
        ops: list[_Rel] = []
        changed = 0
        deep = False  #: some change is below a child: never set whole
        for k, vb in b.items():
            if k not in a:
                ops.append(("/" + _escape(k), vb))
                changed += 1
                continue
            va = a[k]
            if va is vb or va == vb:
                continue
            sub = self._relative(va, vb)
            changed += 1
            deep = deep or sub[0][0] != ""
            prefix = "/" + _escape(k)
            ops.extend((prefix + p, v) for p, v in sub)
        for k in a:
            if k not in b:
                ops.append(("/" + _escape(k), _REMOVE))
                changed += 1
        if whole and not deep and len(ops) > 1 and changed * 2 > len(b):
            return [("", b)]
        return ops

    def _list(self, a: list[Any], b: list[Any]) -> list[_Rel]:
        ops: list[_Rel] = []
        common = min(len(a), len(b))
        changed = abs(len(a) - len(b))
        deep = False
        for i in range(common):
            va, vb = a[i], b[i]
            if va is vb or va == vb:
                continue
            sub = self._relative(va, vb)
            changed += 1
            deep = deep or sub[0][0] != ""
            prefix = f"/{i}"
            ops.extend((prefix + p, v) for p, v in sub)
        for i in range(common, len(b)):
            ops.append((f"/{i}", b[i]))
        for i in range(len(a) - 1, common - 1, -1):
            ops.append((f"/{i}", _REMOVE))
        if not deep and len(ops) > 1 and changed * 2 > len(b):
            return [("", b)]
        return ops


def share_unchanged(old: Any, new: Any) -> Any:
    """``new`` with every part that equals the same part of ``old`` replaced by ``old``'s
    object (``old`` itself when they are equal): a view of the next version then holds
    only its changed parts as new objects. ``new`` must be fresh (it is changed in place);
    ``old`` is not changed. Both are JSON-ready values of one shape."""
    if old is new or old == new:
        return old
    kind = type(new)
    if kind is not type(old):
        return new
    if kind is dict:
        for k, vb in new.items():
            if k in old:
                va = old[k]
                if va is not vb:
                    new[k] = share_unchanged(va, vb)
    elif kind is list:
        for i in range(min(len(old), len(new))):
            va, vb = old[i], new[i]
            if va is not vb:
                new[i] = share_unchanged(va, vb)
    return new


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

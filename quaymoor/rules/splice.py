"""Values put into a view along paths, the same way in attrs values and in JSON-ready
dicts: how a seat's part goes into the public view (``views.SEAT_PLACES`` says where).

The rules compose a seat's view from frozen attrs values (``views.compose``); the wire
(``protocol.view_json``) splices the same part into the public view unstructured once per
version. Both go through ``splice``, so the places are written down once. A path's keys
are attribute names, which are also the JSON keys; ``Step.OWN`` is the seat's own element
of a list (its mat), ``Step.EACH`` every element of a list, the field then giving one
value per element (its prices, one per building of the market).

What is copied. Only the containers on the paths (a dict or a list copied, an attrs
instance evolved), and below ``Step.EACH`` only the elements whose value differs:
everything else is the given view's own object, so the views of all audiences share their
public parts and ``patch.diff`` finds them unchanged by identity. The wire's encoder keeps
a ``Shared``: a list spliced below ``Step.EACH`` is made once for the same list and values
(seats that pay the same prices get the same market, version after version).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from enum import Enum
from typing import Any, TypeVar

import attrs


class Step(Enum):
    """A step of a path that is not a key."""

    OWN = "own"  #: the element of a list at the seat's own index (its mat)
    EACH = "each"  #: every element of a list, the field giving one value per element


#: A path from a view's root: keys (attribute names, which are also the JSON keys) and steps
Path = tuple[str | Step, ...]
#: What ``splice`` keeps between calls: by (the id of a list, the key in each element, the
#: values), (that list, the list spliced from it)
Shared = dict[tuple[int, str, tuple[Any, ...]], tuple[list[Any], list[Any]]]
V = TypeVar("V")


@attrs.frozen
class _Each:
    """A list whose every element gets one of a field's values as ``key``."""

    key: str
    field: str


@attrs.define
class Places:
    """The places in one container (a dict, a list or an attrs instance), as ``places``
    builds them: fields put at keys, and the containers below with places of their own."""

    fields: list[tuple[str | Step, str]] = attrs.Factory(list)
    below: dict[str | Step, Places | _Each] = attrs.Factory(dict)


def places(spec: Sequence[tuple[str, Path]]) -> Places:
    """``spec`` (each field with its path) as the tree ``splice`` follows. Raises
    ``ValueError`` for a place inside another (or twice), and for ``Step.EACH`` anywhere
    but just before a path's last key, or into a list that has other places."""
    tree = Places()
    for field, path in spec:
        each = Step.EACH in path
        if each and (path.index(Step.EACH) != len(path) - 2 or not isinstance(path[-1], str)):
            raise ValueError(f"{field}: {Step.EACH} must come just before the last key")
        *above, last = path[:-2] if each else path
        node = tree
        for step in above:
            child = node.below.setdefault(step, Places())
            if not isinstance(child, Places) or step in dict(node.fields):
                raise ValueError(f"{field}: a place inside a place")
            node = child
        if last in node.below or last in dict(node.fields):
            raise ValueError(f"{field}: a place inside a place, or twice")
        if each:
            node.below[last] = _Each(str(path[-1]), field)
        else:
            node.fields.append((last, field))
    return tree


def splice(view: V, tree: Places, seat: int, values: Mapping[str, Any],
           shared: Shared | None = None) -> V:
    """``view`` (attrs instances, or JSON-ready dicts and lists) with ``values[field]`` in
    each field's place in ``tree``, ``seat`` being the index ``Step.OWN`` stands for (a
    field below ``Step.EACH`` gives one value per element). The containers on the paths
    are copied (see the module's notes); ``view`` is not changed.

    ``shared`` (the caller's own, kept between calls) holds each list spliced below a
    ``Step.EACH`` by the list it was spliced into and the values: the same list, made once,
    for the same market and prices."""
    return _splice(view, tree, seat, values, shared)  # type: ignore[no-any-return]


def _splice(node: Any, tree: Places, seat: int, values: Mapping[str, Any],
            shared: Shared | None) -> Any:
    """``node`` (copied) with the fields of ``tree`` in it."""
    kind = type(node)
    if kind is dict or kind is list:
        out = node.copy()
        for at, field in tree.fields:
            out[seat if at is _OWN else at] = values[field]
        for at, below in tree.below.items():
            i = seat if at is _OWN else at
            out[i] = _each(out[i], below, values, shared) if isinstance(below, _Each) \
                else _splice(out[i], below, seat, values, shared)
        return out
    changes = {str(at): values[field] for at, field in tree.fields}
    for at, below in tree.below.items():
        child = getattr(node, str(at))
        changes[str(at)] = _each(child, below, values, shared) if isinstance(below, _Each) \
            else _splice(child, below, seat, values, shared)
    return attrs.evolve(node, **changes)


_OWN = Step.OWN  #: a global, not the enum's attribute: read many times per splice


def _each(node: list[Any], each: _Each, values: Mapping[str, Any],
          shared: Shared | None) -> list[Any]:
    """``node`` with each of the field's values as ``each.key`` of the element of the same
    index: ``node`` itself when every element has its value already."""
    key, given = each.key, values[each.field]
    memo = (id(node), key, tuple(given))
    if shared is not None:
        known = shared.get(memo)
        if known is not None and known[0] is node:
            return known[1]
    items = [_with(element, key, value) for element, value in zip(node, given, strict=True)]
    if all(a is b for a, b in zip(items, node, strict=True)):
        items = node
    if shared is not None:
        if len(shared) >= _SHARED_MAX:
            shared.clear()
        shared[memo] = (node, items)  # holds ``node``: its id is not reused while kept
    return items


def _with(node: Any, key: str, value: Any) -> Any:
    """``node`` (a dict or an attrs instance) with ``value`` as ``key``."""
    if type(node) is dict:
        if node[key] == value:
            return node
        copy = node.copy()
        copy[key] = value
        return copy
    return node if getattr(node, key) == value else attrs.evolve(node, **{key: value})


_SHARED_MAX = 64  #: lists ``splice`` keeps in a ``shared``: a few markets, many versions

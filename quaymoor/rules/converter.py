"""JSON for actions, events, views and records, through one cattrs converter.

Goods, roles, buildings and plot kinds travel as their lowercase names ("wool",
"bargemaster", "flax_shed", "stone_pit"). Actions and events are tagged unions: a
``"type"`` key holds the class name in snake case (``{"type": "load", "good": "wool",
"barge": 1}``). Structuring is strict: no extra keys, no "2" for 2, no 2.7 for 2; errors
come out of ``cattrs`` as ``ClassValidationError`` (see ``describe_error``).
"""

from __future__ import annotations

import re
from enum import Enum, IntEnum
from typing import Any, Final, TypeVar, get_args, get_origin

import cattrs
from cattrs.cols import list_structure_factory
from cattrs.dispatch import StructureHook
from cattrs.preconf.json import JsonConverter, make_converter
from cattrs.strategies import configure_tagged_union
from cattrs.v import format_exception

from quaymoor.rules.actions import Action
from quaymoor.rules.data import Building, Good, PlotKind, Role
from quaymoor.rules.events import Event
from quaymoor.rules.state import Phase

E = TypeVar("E", bound=IntEnum)


def object_without_repeats(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object as a dict (``json.loads``'s ``object_pairs_hook``), refusing one that
    names a key twice: which value counts would be a guess (parsers differ), so a record or
    a message that does it is malformed. Raises ``ValueError`` naming the key."""
    found = dict(pairs)  # every JSON object a message or body holds: kept at C speed
    if len(found) == len(pairs):
        return found
    seen: set[str] = set()
    for key, _ in pairs:
        if key in seen:
            raise ValueError(f"the key {key!r} is given twice in one object")
        seen.add(key)
    raise AssertionError("unreachable: a shorter dict has a repeated key")


def snake(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


def _strict(kind: type) -> Any:
    def structure(value: Any, _t: type) -> Any:
        if type(value) is not kind:
            raise TypeError(f"expected {kind.__name__}, got {type(value).__name__}")
        return value

    return structure


def wire_name(member: Enum) -> str:
    """An enum member on the wire: its lowercase name (``keep_goods``, ``flax``)."""
    return member.name.lower()


def _enum_hooks(conv: cattrs.Converter, enum: type[E]) -> None:
    names = {wire_name(m): m for m in enum}

    def structure(value: Any, _t: type) -> E:
        if not isinstance(value, str) or value not in names:
            raise ValueError(f"expected one of {', '.join(names)}, got {value!r}")
        return names[value]

    conv.register_structure_hook(enum, structure)
    wire = {m: wire_name(m) for m in enum}
    conv.register_unstructure_hook(enum, wire.__getitem__)


class EnvelopeError(ValueError):
    """A tagged value that is not an object, or whose ``"type"`` is unknown. Its message is
    kept as is by ``describe_error`` (cattrs would say "required field missing")."""


def _is_list(t: Any) -> bool:
    return t is list or get_origin(t) is list


def _strict_list(t: Any, conv: cattrs.BaseConverter) -> StructureHook:
    """Lists only from JSON arrays: cattrs alone would make ``["a", "b"]`` of ``"ab"``."""
    inner = list_structure_factory(t, conv)

    def structure(value: Any, t: Any) -> Any:
        if type(value) is not list:
            raise TypeError(f"expected list, got {type(value).__name__}")
        return inner(value, t)

    return structure


def _tagged(conv: cattrs.Converter, union: Any, what: str) -> None:
    """Check the envelope of a tagged union before cattrs structures it."""
    inner = conv.get_structure_hook(union)
    tags = {snake(cl.__name__) for cl in get_args(union)}

    def structure(value: Any, t: Any) -> Any:
        if not isinstance(value, dict):
            raise EnvelopeError(f"an {what} must be an object, got {type(value).__name__}")
        if value.get("type") not in tags:
            raise EnvelopeError(f"unknown {what} type {value.get('type')!r}")
        return inner(value, t)

    conv.register_structure_hook(union, structure)


def make_rules_converter() -> JsonConverter:
    """A strict converter that knows the rules' vocabulary and the action and event unions.
    Other layers (the wire protocol) extend a converter made here."""
    conv = make_converter(forbid_extra_keys=True)
    for kind in (int, str, bool):
        conv.register_structure_hook(kind, _strict(kind))
    conv.register_structure_hook_factory(_is_list, _strict_list)

    def structure_float(value: Any, _t: type) -> float:
        if type(value) not in (int, float):
            raise TypeError(f"expected number, got {type(value).__name__}")
        return float(value)

    conv.register_structure_hook(float, structure_float)
    for enum in (Good, Role, Building, PlotKind, Phase):
        _enum_hooks(conv, enum)
    for union, what in ((Action, "action"), (Event, "event")):
        configure_tagged_union(
            union, conv, tag_generator=lambda cl: snake(cl.__name__), tag_name="type"
        )
        _tagged(conv, union, what)
    return conv


converter: Final = make_rules_converter()
ACTION_TAGS: Final = {snake(cl.__name__): cl for cl in get_args(Action)}


def action_to_json(action: Action) -> dict[str, Any]:
    out: dict[str, Any] = converter.unstructure(action, unstructure_as=Action)
    return out


def action_from_json(data: Any) -> Action:
    """Structure an action, checking the envelope first so that every failure is a
    ``ValueError`` or a cattrs error with a path, never a bare ``KeyError``."""
    if not isinstance(data, dict):
        raise ValueError(f"an action must be an object, got {type(data).__name__}")
    tag = data.get("type")
    if tag not in ACTION_TAGS:
        raise ValueError(f"unknown action type {tag!r}")
    action: Action = converter.structure(data, Action)  # type: ignore[arg-type]
    return action


def describe_error(exc: Exception) -> str:
    """One line for any structuring error: ``expected int @ $.barge``."""
    if isinstance(exc, cattrs.BaseValidationError):
        return "; ".join(cattrs.transform_error(exc, format_exception=_format))
    return str(exc)


def _format(exc: BaseException, t: type | None) -> str:
    return str(exc) if isinstance(exc, EnvelopeError) else format_exception(exc, t)

"""What may be sent, read from the definitions themselves, never listed by hand.

- Client messages: the attrs classes of ``protocol.messages.ClientMessage``, walked with
  ``attrs.fields`` and their type hints; the tag is ``codec.wire_tag``.
- Actions: ``rules.actions.ACTION_TYPES``, walked the same way; an enum field's valid
  values are its members' wire names (``rules.converter.wire_name``).
- HTTP routes: the OpenAPI document the server serves (``GET /api/openapi.json``): every
  operation with a JSON body, its path, its body's fields and their JSON Schema types.

A new message, action, field or route is therefore fuzzed without touching this package.
"""

from __future__ import annotations

import types
import typing
from enum import Enum
from typing import Any, Final, Union, get_args, get_origin

import attrs

from quaymoor.protocol.codec import wire_tag
from quaymoor.protocol.messages import ClientMessage
from quaymoor.rules.actions import ACTION_TYPES
from quaymoor.rules.converter import wire_name


@attrs.frozen
class FieldSpec:
    """One field of a message, an action or a request body."""

    name: str
    kinds: tuple[str, ...]  #: JSON types it takes: "string", "integer", "object", "null"...
    required: bool
    choices: tuple[Any, ...] = ()  #: the valid values when there are few (enums, consts)
    minimum: int | None = None
    maximum: int | None = None


@attrs.frozen
class Shape:
    """A message, an action or a request body: its tag (or route) and its fields."""

    name: str
    fields: tuple[FieldSpec, ...]
    method: str = ""  #: for a route: "POST"
    path: str = ""  #: for a route: "/api/tables/{table}/join"


def _kinds(hint: Any) -> tuple[tuple[str, ...], tuple[Any, ...]]:
    """JSON types and, for enums, the valid wire names of a type hint."""
    if get_origin(hint) in (Union, types.UnionType):
        kinds: tuple[str, ...] = ()
        choices: tuple[Any, ...] = ()
        for arg in get_args(hint):
            k, c = _kinds(arg)
            kinds, choices = kinds + k, choices + c
        return kinds, choices
    if hint is type(None):
        return ("null",), ()
    if isinstance(hint, type) and issubclass(hint, Enum):
        return ("string",), tuple(wire_name(m) for m in hint)
    simple = {str: "string", int: "integer", float: "number", bool: "boolean"}
    if hint in simple:
        return (simple[hint],), ()
    if get_origin(hint) is dict or hint is dict:
        return ("object",), ()
    if get_origin(hint) is list:
        return ("array",), ()
    raise TypeError(f"the fuzzer does not know how to send a {hint!r}")


def attrs_shape(cls: type, tag: str) -> Shape:
    """The shape of an attrs class: every field, its JSON types and whether it is needed."""
    hints = typing.get_type_hints(cls)
    fields = []
    for field in attrs.fields(cls):
        kinds, choices = _kinds(hints[field.name])
        fields.append(FieldSpec(field.name, kinds, field.default is attrs.NOTHING, choices))
    return Shape(tag, tuple(fields))


#: Client messages and actions, from their classes.
MESSAGES: Final = tuple(attrs_shape(cl, wire_tag(cl)) for cl in get_args(ClientMessage))
ACTIONS: Final = tuple(attrs_shape(cl, wire_tag(cl)) for cl in ACTION_TYPES)
#: Integer fields of actions whose valid range is small and not an enum (barge 0-2).
ACTION_INT_RANGE: Final = (-1, 3)


def _schema_field(name: str, schema: dict[str, Any], required: bool,
                  components: dict[str, Any]) -> FieldSpec:
    if "$ref" in schema:
        schema = components[schema["$ref"].rsplit("/", 1)[1]]
    if "enum" in schema:
        return FieldSpec(name, ("string",), required, tuple(schema["enum"]))
    if "const" in schema:
        return FieldSpec(name, (type(schema["const"]).__name__,), required, (schema["const"],))
    if "anyOf" in schema:
        kinds = tuple(k for sub in schema["anyOf"] for k in _schema_field(
            name, sub, required, components).kinds)
        return FieldSpec(name, kinds, required)
    kind = schema.get("type", "string")
    kinds = tuple(kind) if isinstance(kind, list) else (kind,)
    return FieldSpec(name, kinds, required, (), schema.get("minimum"), schema.get("maximum"))


def routes(document: dict[str, Any]) -> tuple[Shape, ...]:
    """Every operation of an OpenAPI document that takes a JSON body, as a ``Shape``."""
    components = document.get("components", {}).get("schemas", {})
    found = []
    for path, operations in document["paths"].items():
        for method, op in operations.items():
            body = op.get("requestBody", {}).get("content", {}).get("application/json")
            if body is None:
                continue
            schema = body["schema"]
            required = set(schema.get("required", ()))
            fields = tuple(_schema_field(name, sub, name in required, components)
                           for name, sub in schema.get("properties", {}).items())
            found.append(Shape(op.get("operationId", path), fields, method.upper(), path))
    return tuple(found)


def get_routes(document: dict[str, Any]) -> tuple[tuple[str, str], ...]:
    """Every (method, path template) without a body: the read-only routes."""
    return tuple((method.upper(), path) for path, operations in document["paths"].items()
                 for method, op in operations.items() if "requestBody" not in op)

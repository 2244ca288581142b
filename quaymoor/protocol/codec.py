"""Encoding and strict decoding of wire messages; every refusal is a ``ProtocolError``.

Decoding checks the envelope by hand (a JSON object with a known ``type``) before cattrs
structures it, so that every failure becomes a ``ProtocolError`` with a stable code and a
message saying what was wrong and where (``expected int @ $.since``).
"""

from __future__ import annotations

import json
import math
from typing import Any, Final, get_args

from cattrs.gen import make_dict_unstructure_fn, override
from cattrs.strategies import configure_tagged_union

from quaymoor.protocol.codes import Code
from quaymoor.protocol.messages import (
    MAX_ACT_ID,
    TAGS,
    Act,
    ClientMessage,
    Error,
    ServerMessage,
    WireEvent,
)
from quaymoor.rules.actions import Action
from quaymoor.rules.converter import (
    action_from_json,
    describe_error,
    make_rules_converter,
    object_without_repeats,
    snake,
)


def wire_tag(cl: type) -> str:
    """A message class's ``type`` tag: ``TAGS``' entry, else its name in snake case."""
    return TAGS.get(cl) or snake(cl.__name__)


_conv = make_rules_converter()
# An error names an act's id only when it refuses an act that had one (before the unions:
# they take each class's hook as it is when they are made).
_conv.register_unstructure_hook(
    Error, make_dict_unstructure_fn(Error, _conv, id=override(omit_if_default=True)))
for _union in (WireEvent, ClientMessage, ServerMessage):  # events first: updates hold them
    configure_tagged_union(_union, _conv, tag_generator=wire_tag, tag_name="type")
CLIENT_TAGS: Final = {wire_tag(cl): cl for cl in get_args(ClientMessage)}


class ProtocolError(Exception):
    """A message that cannot be accepted. ``code`` is stable; the text says why. ``ack``:
    the ``id`` of the ``act`` it refuses, when that message carried a valid one."""

    def __init__(self, code: Code, message: str, ack: int | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.ack = ack


def act_id(data: dict[str, Any]) -> int | None:
    """A frame's ``id`` when the frame is an ``act`` and the id is valid (an integer, not a
    boolean, from 0 to ``MAX_ACT_ID``): the id its refusal names, however else it is
    malformed."""
    value = data.get("id")
    if data.get("type") == "act" and type(value) is int and 0 <= value <= MAX_ACT_ID:
        return value
    return None


def encode(message: ServerMessage) -> str:
    return _conv.dumps(message, unstructure_as=ServerMessage)


def unstructure_with(value: Any, kind: Any, *, tagged: bool = False) -> Any:
    """Unstructure ``value`` as ``kind`` with the wire converter; ``tagged`` writes a
    server message's ``type`` tag."""
    return _conv.unstructure(value, unstructure_as=ServerMessage if tagged else kind)


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"number {text[:20]}{'...' if len(text) > 20 else ''} is too large")
    return value


def _int(text: str) -> int:
    try:
        return int(text)
    except ValueError:  # over Python's limit on the digits of an int read from text
        raise ValueError(f"an integer of {len(text)} digits is too long") from None


#: Byte order marks, longest first (UTF-32's little-endian one begins like UTF-16's).
_BOMS: Final = ((b"\xff\xfe\x00\x00", "a UTF-32 byte order mark (FF FE 00 00)"),
                (b"\x00\x00\xfe\xff", "a UTF-32 byte order mark (00 00 FE FF)"),
                (b"\xef\xbb\xbf", "a UTF-8 byte order mark (EF BB BF)"),
                (b"\xff\xfe", "a UTF-16 byte order mark (FF FE)"),
                (b"\xfe\xff", "a UTF-16 byte order mark (FE FF)"))


def utf8_text(raw: bytes) -> str:
    """``raw`` as text: it must be UTF-8 without a byte order mark (RFC 8259 8.1). Raises
    ``ProtocolError`` (bad_json) saying what it is instead: a BOM (UTF-8's, UTF-16's or
    UTF-32's), NUL bytes (UTF-16 or UTF-32 without a BOM), or bytes that are not UTF-8
    (a surrogate's encoding too), with the offset of the first."""
    for bom, name in _BOMS:
        if raw.startswith(bom):
            raise ProtocolError(Code.BAD_JSON, f"it starts with {name}: send UTF-8 without "
                                               "a byte order mark")
    nul = raw.find(b"\x00")
    if nul >= 0:
        raise ProtocolError(Code.BAD_JSON, f"it has a NUL byte at offset {nul} (UTF-16 or "
                                           "UTF-32?): send UTF-8")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ProtocolError(Code.BAD_JSON, (
            f"it is not valid UTF-8 (byte 0x{raw[exc.start]:02x} at offset {exc.start}): "
            "send UTF-8")) from None


def parse_json(text: str | bytes) -> Any:
    """Parse JSON text strictly. Raises ``ProtocolError`` (bad_json) and nothing else: for
    bytes that are not UTF-8 without a byte order mark (``utf8_text``), text that is not
    JSON, nested too deeply, an integer over Python's digit limit, a float that overflows
    (``1e999``), ``NaN`` / ``Infinity``, or an object that names a key twice (which one
    counts would be a guess: ``{"commitment": A, "commitment": B}``)."""
    if isinstance(text, bytes):
        text = utf8_text(text)
    try:
        return json.loads(text, parse_int=_int, parse_float=_finite_float,
                          parse_constant=_refuse_constant,
                          object_pairs_hook=object_without_repeats)
    except (ValueError, RecursionError) as exc:  # JSONDecodeError and UnicodeDecodeError too
        raise ProtocolError(Code.BAD_JSON, f"not valid JSON: {exc}") from None


def decode_client(text: str | bytes) -> ClientMessage:
    """Decode one client frame. Raises ``ProtocolError`` (bad_json, bad_message,
    unknown_type) and nothing else."""
    if isinstance(text, bytes):
        raise ProtocolError(Code.BAD_MESSAGE, "binary frames are not accepted: send JSON text")
    data = parse_json(text)
    if not isinstance(data, dict):
        kind = type(data).__name__
        raise ProtocolError(Code.BAD_MESSAGE, f"a message must be a JSON object @ $, got {kind}")
    tag = data.get("type")
    if not isinstance(tag, str):
        raise ProtocolError(Code.BAD_MESSAGE, "missing or non-string type @ $.type")
    if tag not in CLIENT_TAGS:
        raise ProtocolError(Code.UNKNOWN_TYPE, f"unknown message type {tag!r} @ $.type")
    try:
        message: ClientMessage = _conv.structure(data, ClientMessage)  # type: ignore[arg-type]
    except Exception as exc:
        raise ProtocolError(Code.BAD_MESSAGE, describe_error(exc), act_id(data)) from None
    if isinstance(message, Act) and message.id is not None and not 0 <= message.id <= MAX_ACT_ID:
        raise ProtocolError(Code.BAD_MESSAGE,
                            f"an act's id is an integer from 0 to {MAX_ACT_ID} @ $.id")
    return message


def decode_action(data: dict[str, Any]) -> Action:
    """Decode the action inside an ``act`` message; errors name the path under $.action."""
    try:
        return action_from_json(data)
    except Exception as exc:
        text = describe_error(exc).replace("@ $", "@ $.action")
        if "@ $" not in text:
            text += " @ $.action"
        raise ProtocolError(Code.BAD_ACTION, text) from None

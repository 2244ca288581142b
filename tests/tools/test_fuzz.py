"""``quaymoor fuzz``: its inputs come from the definitions, and a slice of a run against a
real server finds nothing (server crashes, table crashes, hung requests, state changes from
refused inputs, leaked secrets)."""

from __future__ import annotations

import json
import random
import typing
from collections import Counter
from typing import get_args

import attrs
import pytest

from quaymoor.http.openapi import document
from quaymoor.protocol.codec import CLIENT_TAGS, wire_tag
from quaymoor.protocol.messages import ClientMessage
from quaymoor.rules.actions import ACTION_TYPES
from quaymoor.tools.fuzz import fuzz_command
from quaymoor.tools.fuzz.schema import ACTIONS, MESSAGES, routes
from quaymoor.tools.fuzz.strategies import Maker, Slot, fill, frame, pools
from quaymoor.tools.fuzz.values import HUGE_NUMBERS, Raw, dumps, kind_of

SLOTS = {"table": "0123456789", "token": "t" * 32, "seat_token": "s" * 32,
         "foreign_token": "f" * 32, "version": 3, "other_table": "9876543210"}


@pytest.fixture(scope="module")
def maker() -> Maker:
    return Maker(random.Random(3), pools(400, 3))


def test_every_message_and_action_class_is_a_shape_with_all_its_fields() -> None:
    assert {m.name for m in MESSAGES} == set(CLIENT_TAGS)
    assert {a.name for a in ACTIONS} == {wire_tag(cl) for cl in ACTION_TYPES}
    for shapes, classes in ((MESSAGES, get_args(ClientMessage)), (ACTIONS, ACTION_TYPES)):
        for shape, cl in zip(shapes, classes, strict=True):
            assert [f.name for f in shape.fields] == [f.name for f in attrs.fields(cl)]
            hints = typing.get_type_hints(cl)
            for field in shape.fields:
                assert field.required == (attrs.fields_dict(cl)[field.name].default
                                          is attrs.NOTHING), (cl, field, hints)


def test_routes_come_from_the_openapi_document() -> None:
    found = {r.name: r for r in routes(document())}
    assert set(found) == {"create_table", "play_now", "join", "commit", "start", "reveal",
                          "register_options", "register", "signin_options", "signin",
                          "signout", "signout_everywhere", "delete_account",
                          "passkey_options", "add_passkey", "remove_passkey"}
    assert found["reveal"].path == "/api/tables/{table}/reveal"
    assert {f.name for f in found["reveal"].fields} == {"token", "client_seed"}
    assert set(found["reveal"].fields[1].kinds) == {"string"}  # a string; null is refused
    assert {f.name for f in found["commit"].fields} == {"token", "commitment"}


def test_cases_reach_every_field_of_every_shape_with_every_kind(maker: Maker) -> None:
    cases = [maker.message() for _ in range(6000)] + [maker.act() for _ in range(6000)]
    fields = Counter(c.field for c in cases)
    for m in MESSAGES:
        for f in m.fields:
            assert fields[f"{m.name}.{f.name}"] > 0, (m.name, f.name)
    for a in ACTIONS:
        for f in a.fields:
            assert fields[f"act.action.{a.name}.{f.name}"] > 0, (a.name, f.name)
    kinds = Counter(c.kind for c in cases)
    for kind in ("valid", "missing", "null", "boolean", "float", "negative integer",
                 "huge integer", "array", "object", "5,000-digit integer", "1e999",
                 "deep nesting", "string: lone surrogate", "string: NUL",
                 "string: bidi/format marks", "string: astral (emoji...)",
                 "string: other non-ASCII"):
        assert kinds[kind] > 0, kind


def test_frames_are_text_a_websocket_can_carry(maker: Maker) -> None:
    for _ in range(3000):
        sent = frame(maker.first_frame(), SLOTS)
        if isinstance(sent, str):
            sent.encode("utf-8")  # no raw lone surrogate: they travel escaped


def test_dumps_writes_what_json_cannot() -> None:
    huge = HUGE_NUMBERS[0]
    assert dumps({"since": huge}) == '{"since":' + "9" * 5000 + "}"
    assert json.loads(dumps({"token": "\udc80"})) == {"token": "\udc80"}
    assert dumps([Raw("1e999", "1e999"), None]) == "[1e999,null]"
    assert fill({"token": Slot("token"), "t": [Slot("table")]}, SLOTS) == {
        "token": "t" * 32, "t": ["0123456789"]}
    assert kind_of("\ud800x") == "string: lone surrogate"
    assert kind_of(Raw("9" * 5000, "5,000-digit integer")) == "5,000-digit integer"


def test_a_slice_of_the_fuzzer_finds_nothing(capsys: pytest.CaptureFixture[str]) -> None:
    code = fuzz_command(2500, seed=1, schemathesis_examples=0, reduce_seconds=5)
    out = capsys.readouterr().out
    figures = json.loads(out.strip().splitlines()[-1])
    assert figures["inputs"] >= 2500
    assert code == 0, out

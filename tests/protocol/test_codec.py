"""The codec: server messages encode exactly as before the rename of ``game_ended``'s
class (byte for byte), tags come from ``wire_tag``, and every decoding failure is a
``ProtocolError`` with a ``Code``."""

from __future__ import annotations

import json
from typing import get_args

import pytest

from quaymoor.protocol.codec import CLIENT_TAGS, ProtocolError, decode_client, encode, wire_tag
from quaymoor.protocol.codes import Code
from quaymoor.protocol.messages import (
    TAGS,
    Acted,
    EndOfGame,
    Error,
    Hello,
    HintGiven,
    PaceSet,
    SeatTimedOut,
    ServerMessage,
    SetPace,
)
from quaymoor.rules.record import EndReason


def test_game_ended_is_byte_identical() -> None:
    message = EndOfGame("t1", EndReason.CRASHED, "ab" * 32, "cd" * 32, ["x"], None,
                        "/games/t1.json", [2], "quaymoor-fair-3")
    assert encode(message) == (
        '{"table": "t1", "reason": "crashed", "seed": "' + "ab" * 32 + '", "fingerprint": "'
        + "cd" * 32 + '", "client_seeds": ["x"], "result": null, "record_url": '
        '"/games/t1.json", "hints": [2], "algorithm": "quaymoor-fair-3", "type": "game_ended"}'
    )


def test_error_is_byte_identical() -> None:
    assert encode(Error(Code.BAD_JSON, "not valid JSON")) == (
        '{"code": "bad_json", "message": "not valid JSON", "type": "error"}')
    # an act's id only when the refused act had one; 0 is an id like any other
    assert encode(Error(Code.ILLEGAL_ACTION, "no", 0)) == (
        '{"code": "illegal_action", "message": "no", "id": 0, "type": "error"}')
    assert encode(Acted(12, 41)) == '{"id": 12, "version": 41, "type": "acted"}'


def test_tags_are_snake_case_names_unless_overridden() -> None:
    assert dict(TAGS) == {EndOfGame: "game_ended", PaceSet: "pace", SetPace: "pace",
                          SeatTimedOut: "timed_out", HintGiven: "hint"}
    tags = {wire_tag(cl) for cl in get_args(ServerMessage)}
    assert tags == {"welcome", "seeds_committed", "game_started", "update", "lobby",
                    "game_ended", "error", "acted", "pong", "chat_line", "chat_recent",
                    "rematch_offer", "rematch_seat", "pace", "watchers", "explanation",
                    "table_paused", "table_resumed", "hint"}
    assert set(CLIENT_TAGS) == {"hello", "act", "ping", "resync", "vote_bot", "chat", "rematch",
                                "pace", "explain", "hint"}


def test_every_end_reason_goes_out_as_its_string() -> None:
    for reason in EndReason:
        data = json.loads(encode(EndOfGame("t", reason, "", "", [], None, "", [], "")))
        assert data["reason"] == reason.value and type(data["reason"]) is str


@pytest.mark.parametrize(("frame", "code"), [
    (b"{}", Code.BAD_MESSAGE),
    ("{", Code.BAD_JSON),
    ("[]", Code.BAD_MESSAGE),
    ('{"type": 1}', Code.BAD_MESSAGE),
    ('{"type": "dance"}', Code.UNKNOWN_TYPE),
    ('{"type": "hello", "table": 5}', Code.BAD_MESSAGE),
])
def test_decoding_failures_carry_codes(frame: str | bytes, code: Code) -> None:
    with pytest.raises(ProtocolError) as refused:
        decode_client(frame)
    assert refused.value.code is code


def test_hello_decodes() -> None:
    assert decode_client('{"type": "hello", "table": "t"}') == Hello("t")

"""Everything a connection receives after its hello comes in the order it was made, through
its outbox: ``welcome`` first, then the table's catch-up, then the answers to what the
client sent (pongs, errors) in the order it sent them. Over real sockets, under
``trio.fail_after``."""

from __future__ import annotations

import json
from typing import Any

import trio

from tests.actors.test_end_to_end import connect, play_now, serving

TRIES = 20
LIMIT = 60  #: seconds for the whole test


async def test_welcome_comes_first_then_every_answer_in_order() -> None:
    with trio.fail_after(LIMIT):
        async with serving() as (port, _):
            info = await play_now(port, players=2)
            for attempt in range(TRIES):
                token = info["token"] if attempt % 2 else None  # the seat, and spectators
                async with connect(port) as client:
                    hello = {"type": "hello", "table": info["table"], "token": token}
                    for text in (json.dumps(hello), '{"type": "ping"}', "not json{",
                                  '{"type": "ping"}', '{"type": "hello", "table": "x"}'):
                        await client.ws.send_message(text)  # all at once, unread
                    answers: list[dict[str, Any]] = []
                    while len(answers) < 4:
                        frame = await client.next()
                        assert frame is not None, f"closed ({client.close_code})"
                        if frame["type"] in ("pong", "error"):
                            answers.append(frame)
                    assert client.frames[0]["type"] == "welcome", (attempt, client.frames[0])
                    assert client.frames[1]["type"] == "update", (attempt, client.frames[1])
                    assert [a["type"] for a in answers] == ["pong", "error", "pong", "error"]
                    assert [a.get("code") for a in answers[1::2]] == ["bad_json",
                                                                       "already_attached"]

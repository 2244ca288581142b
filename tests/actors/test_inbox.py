"""The inbox: the table's dispatch covers every member of ``InboxMessage`` (and only
those), a message outside the union raises, a stopped table's leftovers are all answered,
and the lobby refuses a client seed over the fairness module's limit."""

from __future__ import annotations

import ast
import inspect
import textwrap
from typing import Any, get_args

import pytest
import trio

from quaymoor.actors.connection import Connection
from quaymoor.actors.inbox import (
    ActFrom,
    Attach,
    BotMove,
    Detach,
    InboxMessage,
    Join,
    Reply,
    Shutdown,
    Start,
    TableError,
    TimedOut,
    refuse,
)
from quaymoor.actors.lobby import Seats
from quaymoor.actors.table import Table
from quaymoor.config import TableConfig
from quaymoor.protocol.codes import Code
from quaymoor.rules.actions import Pass
from quaymoor.rules.fairness import MAX_CLIENT_SEED_BYTES


def _match_arms(function: Any) -> set[str]:
    tree = ast.parse(textwrap.dedent(inspect.getsource(function)))
    arms = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.match_case):
            for pattern in ast.walk(node.pattern):
                if isinstance(pattern, ast.MatchClass) and isinstance(pattern.cls, ast.Name):
                    arms.add(pattern.cls.id)
    return arms


def test_the_dispatch_has_one_arm_per_member_of_the_union() -> None:
    members = {cl.__name__ for cl in get_args(InboxMessage)}
    assert _match_arms(Table._handle) == members
    assert _match_arms(refuse) == members


async def test_a_message_outside_the_union_raises() -> None:
    table = Table("t", 2, TableConfig())
    with pytest.raises(TypeError, match="unknown inbox message object"):
        await table._handle(object())  # type: ignore[arg-type]


def _connection() -> tuple[Connection, trio.MemoryReceiveChannel[str]]:
    send, recv = trio.open_memory_channel[str](1)
    return Connection(1, send), recv


async def test_refuse_answers_every_request_and_closes_every_connection() -> None:
    replies = [Reply() for _ in range(3)]
    conns = [_connection() for _ in range(3)]
    messages: list[InboxMessage] = [
        Join("Ada", None, replies[0]),
        Start("token", replies[1]),
        Attach(conns[0][0], None, None, replies[2]),
        Detach(conns[1][0]),
        ActFrom(conns[2][0], Pass()),
        Shutdown(),
        TimedOut(0, 1),
        BotMove(0, Pass(), 0),
    ]
    assert {type(m) for m in messages} == set(get_args(InboxMessage))
    for message in messages:
        refuse(message)
    for reply in replies:
        with pytest.raises(TableError) as refused:
            await reply.wait()
        assert refused.value.code is Code.TABLE_CLOSED
    for _, recv in conns:
        with pytest.raises(trio.EndOfChannel):
            await recv.receive()


def test_a_client_seed_over_the_limit_is_refused() -> None:
    seats = Seats(3)
    assert MAX_CLIENT_SEED_BYTES == 256
    seats.join("Ada", "é" * (MAX_CLIENT_SEED_BYTES // 2))  # exactly the limit, in UTF-8
    with pytest.raises(TableError) as refused:
        seats.join("Bede", "x" * (MAX_CLIENT_SEED_BYTES + 1))
    assert refused.value.code is Code.BAD_CLIENT_SEED
    assert f"over {MAX_CLIENT_SEED_BYTES} bytes" in refused.value.message
    assert seats[1].name is None  # nothing changed
    assert seats.client_seeds() == ["é" * 128]

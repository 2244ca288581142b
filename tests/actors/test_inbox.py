"""The inbox: the table's dispatch covers every member of ``InboxMessage`` (and only
those), a message outside the union raises, a stopped table's leftovers are all answered,
and the lobby refuses a client seed over the fairness module's limit."""

from __future__ import annotations

import ast
import inspect
import textwrap
from typing import Any, get_args

import attrs
import pytest
import trio

from quaymoor.actors.connection import Connection
from quaymoor.actors.inbox import (
    FROM_CONNECTION,
    ActFrom,
    Attach,
    BotMove,
    ChatFrom,
    Detach,
    ExplainFrom,
    HostAway,
    InboxMessage,
    Join,
    PaceFrom,
    RematchFailed,
    RematchFrom,
    RematchReady,
    Reply,
    ResyncFrom,
    Seed,
    Shutdown,
    Start,
    TableError,
    TimedOut,
    VoteFrom,
    WatchersDue,
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
                if isinstance(pattern, ast.MatchClass):
                    cls = pattern.cls  # a name, or a module's (inbox.ActFrom)
                    arms.add(cls.attr if isinstance(cls, ast.Attribute) else ast.unparse(cls))
    return arms


def test_the_dispatch_has_one_arm_per_member_of_the_union() -> None:
    members = {cl.__name__ for cl in get_args(InboxMessage)}
    assert _match_arms(Table._dispatch) == members
    assert _match_arms(refuse) == members


def test_every_message_a_connection_sends_passes_the_one_still_attached_guard() -> None:
    """The table checks "is this connection still attached?" once, for the messages in
    FROM_CONNECTION: every message that carries a connection, but the attach that adds it
    and the detach that removes it."""
    carrying = {cl for cl in get_args(InboxMessage)
                if "connection" in attrs.fields_dict(cl)}
    assert set(FROM_CONNECTION) == carrying - {Attach, Detach}


async def test_a_message_outside_the_union_raises() -> None:
    table = Table("t", 2, TableConfig())
    with pytest.raises(TypeError, match="unknown inbox message object"):
        await table._handle(object())  # type: ignore[arg-type]


def _connection() -> tuple[Connection, trio.MemoryReceiveChannel[str]]:
    send, recv = trio.open_memory_channel[str](1)
    return Connection(1, send), recv


async def test_refuse_answers_every_request_and_closes_every_connection() -> None:
    replies = [Reply() for _ in range(4)]
    conns = [_connection() for _ in range(9)]
    messages: list[InboxMessage] = [
        Join("Ada", replies[0]),
        Seed("token", "my dice", replies[3]),
        Start("token", replies[1]),
        Attach(conns[0][0], None, None, replies[2]),
        Detach(conns[1][0]),
        ActFrom(conns[2][0], Pass()),
        ResyncFrom(conns[3][0]),
        Shutdown(),
        TimedOut(0, 1),
        BotMove(0, Pass(), 0),
        ChatFrom(conns[4][0], "hello"),
        RematchFrom(conns[5][0]),
        RematchReady("a3c90e12b4", "0" * 64, {0: "token"}),
        RematchFailed(Code.SERVER_FULL, "full"),
        VoteFrom(conns[6][0], 1),
        PaceFrom(conns[7][0], "fast"),
        ExplainFrom(conns[8][0]),
        HostAway(),
        WatchersDue(),
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


@pytest.mark.parametrize(("given", "why"), [
    ("x" * (MAX_CLIENT_SEED_BYTES + 1), f"at most {MAX_CLIENT_SEED_BYTES} UTF-8 bytes"),
    ("é" * (MAX_CLIENT_SEED_BYTES // 2 + 1), f"at most {MAX_CLIENT_SEED_BYTES} UTF-8 bytes"),
    ("", "may not be empty"),
    ("\ud800", "valid Unicode"),
    ("ok \udfff", "valid Unicode"),
    (42, "a string, not int"),
    (None, "a string, not NoneType"),
    (["a"], "a string, not list"),
])
def test_a_client_seed_that_cannot_go_into_the_key_is_refused(given: object, why: str) -> None:
    seats = Seats(3)
    ada = seats.join("Ada")
    with pytest.raises(TableError) as refused:
        seats.give_seed(ada.token, given)
    assert refused.value.code is Code.BAD_CLIENT_SEED
    assert why in refused.value.message and refused.value.message.endswith("@ $.client_seed")
    assert seats.seat_seeds() == [None, None, None]  # nothing changed
    seats.give_seed(ada.token, "é" * (MAX_CLIENT_SEED_BYTES // 2))  # exactly the limit
    assert seats.client_seeds() == ["é" * 128]


def test_seeds_are_bound_to_seats_and_the_key_takes_them_in_seat_order() -> None:
    seats = Seats(4)
    tokens = [seats.join(name).token for name in ("Ada", "Bede", "Cuthbert")]
    seats.give_seed(tokens[2], "third")
    seats.give_seed(tokens[0], "first")
    with pytest.raises(TableError) as twice:
        seats.give_seed(tokens[0], "again")
    assert twice.value.code is Code.ALREADY_SEEDED
    with pytest.raises(TableError) as stranger:
        seats.give_seed("not-a-token", "mine")
    assert stranger.value.code is Code.BAD_TOKEN
    seats.fill_with_bots()
    assert seats.seat_seeds() == ["first", None, "third", None]
    assert seats.client_seeds() == ["first", "third"]

"""The inbox: the table's dispatch covers every member of ``InboxMessage`` (and only
those), a message outside the union raises, a stopped table's leftovers are all answered,
and the lobby takes commitments and then seeds only as docs/fairness.md says (a client
seed over the fairness module's limit, or not matching its commitment, is refused)."""

from __future__ import annotations

import ast
import inspect
import textwrap
from typing import Any, get_args

import attrs
import pytest

from quaymoor.actors.connection import Connection
from quaymoor.actors.inbox import (
    FROM_CONNECTION,
    AccountGone,
    ActFrom,
    Attach,
    BotMove,
    ChatFrom,
    Commit,
    Detach,
    ExplainFrom,
    HintFrom,
    HintReady,
    HostAway,
    InboxMessage,
    Join,
    PaceFrom,
    RematchFailed,
    RematchFrom,
    RematchReady,
    Reply,
    ResyncFrom,
    Reveal,
    RevealDue,
    Shutdown,
    Start,
    TableError,
    TimedOut,
    VoteFrom,
    WatchersDue,
    refuse,
)
from quaymoor.actors.lobby import Seats
from quaymoor.actors.outlet import Outlet
from quaymoor.actors.table import Table
from quaymoor.config import TableConfig
from quaymoor.protocol.codes import Code
from quaymoor.rules.actions import Pass
from quaymoor.rules.fairness import MAX_CLIENT_SEED_BYTES, seed_commitment

TABLE = "0a1b2c3d4e"


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


def _connection() -> tuple[Connection, Outlet]:
    outlet = Outlet(1)
    return Connection(1, outlet), outlet


async def test_refuse_answers_every_request_and_closes_every_connection() -> None:
    replies = [Reply() for _ in range(6)]
    conns = [_connection() for _ in range(10)]
    messages: list[InboxMessage] = [
        Join("Ada", replies[0]),
        Commit("token", "ab" * 32, replies[3]),
        Reveal("token", "my dice", replies[4]),
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
        HintFrom(conns[9][0]),
        HintReady(0, 3, (Pass(), "pass", "why")),
        HostAway(),
        RevealDue(),
        WatchersDue(),
        AccountGone("u-ada", replies[5]),
    ]
    assert {type(m) for m in messages} == set(get_args(InboxMessage))
    for message in messages:
        refuse(message)
    for reply in replies:
        with pytest.raises(TableError) as refused:
            await reply.wait()
        assert refused.value.code is Code.TABLE_CLOSED
    for _, outlet in conns:
        assert await outlet.next_batch() is None  # closed: the writer closes the websocket


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
    longest = "é" * (MAX_CLIENT_SEED_BYTES // 2)  # exactly the limit
    seats.commit(ada.token, seed_commitment(TABLE, ada.seat, longest))
    with pytest.raises(TableError) as refused:
        seats.reveal(TABLE, ada.token, given)
    assert refused.value.code is Code.BAD_CLIENT_SEED
    assert why in refused.value.message and refused.value.message.endswith("@ $.client_seed")
    assert seats.seat_seeds() == [None, None, None]  # nothing changed
    seats.reveal(TABLE, ada.token, longest)
    assert seats.deal(TABLE).client_seeds == [longest]


def test_commitments_then_seeds_are_bound_to_seats_and_the_key_takes_them_in_seat_order() -> None:
    seats = Seats(4)
    tokens = [seats.join(name).token for name in ("Ada", "Bede", "Cuthbert")]
    mine = {0: "first", 2: "third"}
    seats.commit(tokens[2], seed_commitment(TABLE, 2, "third"))
    seats.commit(tokens[0], seed_commitment(TABLE, 0, "first"))
    for token, commitment, code in (
            (tokens[0], seed_commitment(TABLE, 0, "again"), Code.ALREADY_COMMITTED),
            ("not-a-token", seed_commitment(TABLE, 1, "mine"), Code.BAD_TOKEN),
            (tokens[1], "F" * 64, Code.BAD_COMMITMENT),
            (tokens[1], None, Code.BAD_COMMITMENT)):
        with pytest.raises(TableError) as refused:
            seats.commit(token, commitment)
        assert refused.value.code is code
    assert seats.commitments() == [seed_commitment(TABLE, 0, "first"), None,
                                   seed_commitment(TABLE, 2, "third"), None]
    seats.fill_with_bots()
    for token, seed, code in (
            (tokens[0], "third", Code.SEED_MISMATCH),  # another seat's seed
            (tokens[2], "third ", Code.SEED_MISMATCH),
            (tokens[1], "mine", Code.NO_COMMITMENT)):
        with pytest.raises(TableError) as refused:
            seats.reveal(TABLE, token, seed)
        assert refused.value.code is code
    assert seats.seat_seeds() == [None, None, None, None]  # nothing changed
    for seat, seed in mine.items():
        seats.reveal(TABLE, tokens[seat], seed)
    with pytest.raises(TableError) as twice:
        seats.reveal(TABLE, tokens[0], "first")
    assert twice.value.code is Code.ALREADY_REVEALED
    assert seats.seat_seeds() == ["first", None, "third", None]
    deal = seats.deal(TABLE)
    assert deal.client_seeds == ["first", "third"]
    assert [(s.name, s.bot) for s in deal.seats][3] == ("Dunstan (bot)", True)

"""The table's chat, driven through the table's inbox on trio's autojump clock: a player's
line reaches everyone attached (spectators too); a stranger's text (lone surrogates, NUL,
RTL overrides, nothing visible, huge, wrong types) is cleaned or refused with a clear
error and changes nothing; the rate per seat; the recent lines for a late joiner;
nothing in the record."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import pytest
import trio

from quaymoor.actors.chat import MAX_CHARS, RATE_LINES, RATE_SECONDS, RECENT_LINES
from quaymoor.actors.inbox import ChatFrom
from quaymoor.actors.supervisor import Supervisor
from quaymoor.actors.table import Table, TableState
from quaymoor.protocol.codec import ProtocolError, decode_client
from tests.actors.running import running
from tests.actors.test_table import FAST, Client, play_now


@pytest.fixture
async def supervisor() -> AsyncIterator[Supervisor]:
    sup = Supervisor(FAST)
    async with running(sup):
        yield sup


async def frames_until_quiet(client: Client) -> list[dict[str, Any]]:
    """Every frame queued for ``client`` now (the table has handled what was sent)."""
    await trio.sleep(0.1)  # autojump: the table runs until everyone waits
    return [json.loads(text) for text in client.waiting_texts()]


async def say(client: Client, text: Any) -> None:
    await client.table.inbox.send(ChatFrom(client.conn, text))


async def two_players_and_a_spectator(sup: Supervisor) -> tuple[Table, Client, Client, Client]:
    """A 3-seat table with Ada and Bede seated (the third chair a bot once started), and a
    spectator; everyone attached, their first frames read."""
    table = await sup.create_table(3)
    ada = await sup.join(table.id, "Ada")
    bede = await sup.join(table.id, "Bede")
    clients = (Client(table, ada.token), Client(table, bede.token), Client(table, None))
    for c in clients:
        await c.attach()
    for c in clients:
        await frames_until_quiet(c)
    return table, *clients


def chat_lines(frames: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [f for f in frames if f["type"] == "chat_line"]


async def test_a_line_reaches_everyone_at_the_table_spectators_too(
    supervisor: Supervisor, autojump_clock: trio.testing.MockClock
) -> None:
    table, ada, bede, watcher = await two_players_and_a_spectator(supervisor)
    await say(ada, "  good   luck\n everyone ")
    for client in (ada, bede, watcher):
        (line,) = chat_lines(await frames_until_quiet(client))
        assert line["seat"] == 0 and line["name"] == "Ada" and line["table"] == table.id
        assert line["text"] == "good luck everyone" and line["id"] == 1
        assert isinstance(line["at"], float)
    await say(bede, "<b>thanks</b> & you")  # markup is only text: the client shows it as such
    (line,) = chat_lines(await frames_until_quiet(watcher))
    assert line["text"] == "<b>thanks</b> & you" and line["seat"] == 1 and line["id"] == 2


@pytest.mark.parametrize(("text", "wrong"), [
    ("\ud800", "lone surrogate"),
    ("ok \udfff then", "lone surrogate"),
    ("", "needs some text"),
    ("   \n\t ", "needs some text"),
    ("\x00\x01\x7f\x9b", "needs some text"),  # only control characters: nothing left
    ("\u202e\u2066\u200f", "needs some text"),  # only bidi controls
    # only invisible characters: never broadcast as a blank line
    ("\u200b", "something visible"),  # zero-width space
    ("\u200b\u200c\u200d\u2060\ufeff", "something visible"),  # zero-width, joiners, BOM
    (" \u200b \u00ad \u180e ", "something visible"),  # soft hyphen, Mongolian separator
    ("\u3164\uffa0\u115f", "something visible"),  # Hangul fillers
    ("\u2800\u2800", "something visible"),  # the blank Braille pattern
    ("\ufe0f\u034f\U000e0041", "something visible"),  # variation selector, CGJ, a tag
    ("\u3000\u2028\u00a0", "needs some text"),  # other spaces: white space
    ("x" * (MAX_CHARS + 1), f"at most {MAX_CHARS} characters; this one is {MAX_CHARS + 1}"),
    ("🎲" * (MAX_CHARS + 1), f"this one is {MAX_CHARS + 1}"),
    ("é" * 100_000, "this one is 100000"),
    (7, "a string, not int"),
    (None, "a string, not NoneType"),
])
async def test_a_bad_line_is_refused_clearly_and_changes_nothing(
    supervisor: Supervisor, autojump_clock: trio.testing.MockClock, text: Any, wrong: str
) -> None:
    table, ada, bede, watcher = await two_players_and_a_spectator(supervisor)
    await say(ada, text)
    (error,) = await frames_until_quiet(ada)
    assert error["type"] == "error" and error["code"] == "bad_chat"
    assert wrong in error["message"] and error["message"].endswith("@ $.text")
    assert await frames_until_quiet(bede) == [] and await frames_until_quiet(watcher) == []
    assert not table.chat.recent and table.state is TableState.WAITING
    await say(ada, "still here")  # the table goes on, and a refused line used no rate
    assert [f["text"] for f in chat_lines(await frames_until_quiet(bede))] == ["still here"]


@pytest.mark.parametrize(("text", "shown"), [
    ("a\x00b", "ab"),  # NUL removed
    ("\u202eevil\u202c text", "evil text"),  # an RTL override cannot reorder the page
    ("שלום עולם", "שלום עולם"),  # right-to-left text itself is kept
    ("line one\r\nline two", "line one line two"),
    ("🎲" * MAX_CHARS, "🎲" * MAX_CHARS),  # 200 code points (400 UTF-16 units) is fine
    ("👩\u200d👩\u200d👧", "👩\u200d👩\u200d👧"),  # the joiner of an emoji is kept
    ("\u200bhi\u200b", "\u200bhi\u200b"),  # something visible: the line is kept
    ("\u0301", "\u0301"),  # a lone combining mark shows (a dotted circle)
])
async def test_control_and_bidi_characters_are_taken_out(
    supervisor: Supervisor, autojump_clock: trio.testing.MockClock, text: str, shown: str
) -> None:
    _, ada, bede, _ = await two_players_and_a_spectator(supervisor)
    await say(ada, text)
    (line,) = chat_lines(await frames_until_quiet(bede))
    assert line["text"] == shown


async def test_a_spectator_reads_but_cannot_write(
    supervisor: Supervisor, autojump_clock: trio.testing.MockClock
) -> None:
    table, ada, _, watcher = await two_players_and_a_spectator(supervisor)
    await say(watcher, "hello from the rail")
    (error,) = await frames_until_quiet(watcher)
    assert error["code"] == "spectator" and "only the players write" in error["message"]
    assert await frames_until_quiet(ada) == [] and not table.chat.recent


async def test_each_seat_may_send_five_lines_in_ten_seconds(
    supervisor: Supervisor, autojump_clock: trio.testing.MockClock
) -> None:
    table, ada, bede, _ = await two_players_and_a_spectator(supervisor)
    second_tab = Client(table, ada.token)  # the same player in another tab shares the rate
    await second_tab.attach()
    await frames_until_quiet(second_tab)
    for i in range(RATE_LINES - 1):
        await say(ada, f"line {i}")
    await say(second_tab, "the fifth")
    await say(second_tab, "one too many")
    got = await frames_until_quiet(second_tab)
    assert len(chat_lines(got)) == RATE_LINES
    (error,) = [f for f in got if f["type"] == "error"]
    assert error["code"] == "chat_too_fast"
    assert f"at most {RATE_LINES} chat lines in {RATE_SECONDS:g} s: wait " in error["message"]
    await say(bede, "Bede has his own rate")
    assert chat_lines(await frames_until_quiet(ada))[-1]["text"] == "Bede has his own rate"
    await trio.sleep(RATE_SECONDS)
    await say(ada, "and again")
    assert chat_lines(await frames_until_quiet(bede))[-1]["text"] == "and again"


async def test_a_late_joiner_gets_the_last_fifty_lines_only(
    supervisor: Supervisor, autojump_clock: trio.testing.MockClock
) -> None:
    table, ada, bede, _ = await two_players_and_a_spectator(supervisor)
    for i in range(RECENT_LINES + 10):
        await say(ada if i % 2 else bede, f"line {i}")
        await trio.sleep(RATE_SECONDS / RATE_LINES)
    late = Client(table, None)
    await late.attach()
    frames = await frames_until_quiet(late)
    assert [f["type"] for f in frames] == ["welcome", "lobby", "watchers", "chat_recent",
                                           "watchers"]  # its own catch-up, then its coming
    assert [f["count"] for f in frames if f["type"] == "watchers"] == [2, 2]
    lines = frames[3]["lines"]
    assert [x["text"] for x in lines] == [f"line {i}" for i in range(10, RECENT_LINES + 10)]
    assert [x["id"] for x in lines] == list(range(11, RECENT_LINES + 11))


async def test_nothing_of_the_chat_is_in_the_record(
    supervisor: Supervisor, autojump_clock: trio.testing.MockClock
) -> None:
    table, joined = await play_now(supervisor, 2, "Ada")
    ada = Client(table, joined.token)
    await ada.attach()
    await say(ada, "zanzibar-whisper before the end")
    ended = await ada.play_to_end()
    assert ended["type"] == "game_ended"
    await say(ada, "zanzibar-whisper gg")  # the chat goes on after the end
    await frames_until_quiet(ada)
    assert [x.text for x in table.chat.recent][-1] == "zanzibar-whisper gg"
    record = table.record()
    assert record is not None
    kept = supervisor.records[table.id]
    for rec in (record, kept):
        assert "zanzibar" not in rec.to_json()


@pytest.mark.parametrize(("frame", "code", "where"), [
    ('{"type": "chat"}', "bad_message", "text"),
    ('{"type": "chat", "text": 5}', "bad_message", "$.text"),
    ('{"type": "chat", "text": ["a"]}', "bad_message", "$.text"),
    ('{"type": "chat", "text": "hi", "to": 1}', "bad_message", "to"),
])
def test_a_malformed_chat_message_is_a_protocol_error(frame: str, code: str, where: str) -> None:
    with pytest.raises(ProtocolError) as refused:
        decode_client(frame)
    assert refused.value.code == code and where in refused.value.message

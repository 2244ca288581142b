"""The status lists' kept JSON of each table (``status.StatusTexts``) says what a summary
built afresh says, at every moment of games where seats time out, bots take over and
games end."""

from __future__ import annotations

import json

import trio

from quaymoor.actors.status import LOBBY_FIELDS
from quaymoor.actors.supervisor import Supervisor
from quaymoor.config import TableConfig
from tests.actors.running import running

QUICK = TableConfig(bot_delay=0.01, decision_seconds=0.3, linger_seconds=0.2)


async def test_kept_texts_equal_a_fresh_summary_all_through_games() -> None:
    compared = 0
    kinds: set[tuple[str, bool]] = set()
    with trio.fail_after(120):
        async with running(Supervisor(QUICK)) as sup:
            waiting = await sup.create_table(4)  # never started: the lobby's state
            for i in range(4):  # one human who never acts: timed out, then a bot plays
                table, joined = await sup.play_now(2 + i % 3, f"p{i}", "easy")
                await sup.start(table.id, joined.token)
            while len(sup.tables) > 1:
                for table in list(sup.tables.values()):
                    fresh = table.summary()
                    kept = json.loads(table.status_texts.status(table))
                    # the clock moved on a little between the two (rounded to 0.1 s)
                    left = fresh.pop("time_left"), kept.pop("time_left")
                    assert (left[0] is None) == (left[1] is None), left
                    assert left[0] is None or abs(left[0] - left[1]) <= 0.11, left
                    assert kept == fresh, (table.id, kept, fresh)
                    lobby = json.loads(table.status_texts.lobby_entry(table))
                    assert lobby == {k: fresh[k] for k in LOBBY_FIELDS}
                    kinds.add((fresh["state"], any(s["bot_playing"] for s in fresh["seats"])))
                    compared += 1
                await trio.sleep(0.005)
            assert list(sup.tables) == [waiting.id]
    assert compared > 500
    assert ("playing", True) in kinds and ("playing", False) in kinds  # a bot took a seat


async def test_unchanged_tables_reuse_their_text() -> None:
    with trio.fail_after(10):
        async with running(Supervisor(QUICK)) as sup:
            table = await sup.create_table(3)
            first = table.status_texts.lobby_entry(table)
            assert table.status_texts.lobby_entry(table) is first  # kept, not rebuilt
            await sup.join(table.id, "Ada")
            assert json.loads(table.status_texts.lobby_entry(table))["seats"][0]["name"] \
                == "Ada"

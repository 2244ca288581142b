"""SIGTERM tells every connected player: a real ``quaymoor serve`` with 24 players at six
tables, in the middle of their games, each still acting; on SIGTERM every one of them
reads ``game_ended`` (seed revealed) before its socket closes, and the process exits
within the flush's bound. (Before the bounded flush, and the close handshake let finish,
2 to 9 of the 24 got none: the process exited, or the writer was cancelled in the
handshake, closing sockets whose client had not read the end yet.)"""

from __future__ import annotations

import contextlib
import signal
import time
from typing import Any

import trio

from tests.actors.test_end_to_end import Client, connect, create_table, join, seed_matches, start
from tests.server_process import start_server

LIMIT = 60
TABLES = 6
SEATS = 4
#: The SIGTERM comes once every table has reached this version (the players still act).
PLAYED = 6


async def test_sigterm_sends_every_connected_player_game_ended(tmp_path: Any) -> None:
    archive = tmp_path / "games.sqlite3"
    with trio.fail_after(LIMIT):
        served = await trio.to_thread.run_sync(lambda: start_server(
            archive, "--bot-delay", "0", "--decision-seconds", "60", "--no-address-limits"))
        try:
            port = served.port
            seats: list[dict[str, Any]] = []
            for t in range(TABLES):
                made = await create_table(port, SEATS)
                tokens = [await join(port, made["table"], f"P{t}-{i}") for i in range(SEATS)]
                await start(port, made["table"], tokens[0])
                seats += [{"table": made["table"], "token": token, "players": SEATS,
                           "fingerprint": made["fingerprint"]} for token in tokens]
            clients: dict[str, Client] = {}  #: by seat token
            async with trio.open_nursery() as nursery:
                for seat in seats:
                    nursery.start_soon(_player, port, seat, clients)
                while len(clients) < len(seats) or not all(
                        c.of_type("update") and c.last_version() >= PLAYED
                        for c in clients.values()):
                    await trio.sleep(0.05)
                signalled = time.monotonic()
                served.proc.send_signal(signal.SIGTERM)
            code = await trio.to_thread.run_sync(lambda: served.proc.wait(timeout=20))
            exited = time.monotonic() - signalled
        finally:
            served.stop()
        assert code == 0
        told = [c for c in clients.values() if c.of_type("game_ended")]
        print(f"SIGTERM: {len(told)} of {len(seats)} players told, exit after {exited:.2f} s")
        assert len(told) == len(seats), (
            f"{len(seats) - len(told)} of {len(seats)} players got no game_ended")
        for seat in seats:
            client = clients[seat["token"]]
            ended = client.of_type("game_ended")[0]
            assert ended["reason"] == "shutdown" and ended["table"] == seat["table"]
            assert seed_matches(ended["seed"], seat)  # the table's fingerprint (fair-2)
            assert client.frames[-1]["type"] == "game_ended"  # nothing after it, then the close
            assert client.close_code == 4002
        assert exited < 15, exited


async def _player(port: int, seat: dict[str, Any], clients: dict[str, Client]) -> None:
    """One player: act on every decision until ``game_ended`` (the SIGTERM's), then read
    until the close."""
    async with connect(port) as client:
        clients[seat["token"]] = client
        await client.hello(seat["table"], seat["token"])
        with contextlib.suppress(AssertionError):  # closed without game_ended: counted
            await client.play()
        await client.drain()

"""Helpers for the browser tests of friends at one table: the lobby API from Python, and a
second player (Bede) who plays over a websocket from a thread of his own while the
browser plays the other seat."""

from __future__ import annotations

import json
import threading
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from typing import Any

import trio
from trio_websocket import open_websocket_url

from quaymoor.rules.fairness import seed_commitment
from tests.actors.test_end_to_end import Client


def post(url: str, path: str, body: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(url + path, data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as res:
        data: dict[str, Any] = json.load(res)
    return data


def commit(url: str, table: str, seat: dict[str, Any], client_seed: str) -> str:
    """Send ``seat``'s (``{"seat", "token"}``) commitment to ``client_seed``, as a client
    of our own written from docs/fairness.md; returns the commitment."""
    commitment = seed_commitment(table, seat["seat"], client_seed)
    post(url, f"/api/tables/{table}/commit", {"token": seat["token"], "commitment": commitment})
    return commitment


def reveal_when_open(url: str, table: str, token: str, client_seed: str,
                     within: float = 20.0) -> None:
    """Reveal ``client_seed`` as soon as the start has fixed the commitments (the table
    refuses it with ``not_revealing`` until then)."""
    give_up = time.monotonic() + within
    while True:
        try:
            post(url, f"/api/tables/{table}/reveal", {"token": token, "client_seed": client_seed})
            return
        except urllib.error.HTTPError as exc:
            if exc.code != 409 or time.monotonic() > give_up:
                raise
            time.sleep(0.1)


def get(url: str, path: str) -> dict[str, Any]:
    with urllib.request.urlopen(url + path, timeout=10) as res:
        data: dict[str, Any] = json.load(res)
    return data


@dataclass
class SocketPlayer:
    """A seat played over a websocket in a thread: it plays the game to its end, then
    waits for ``offer_now`` and sends ``rematch``; its chair at the rematch table
    (``rematch_seat``) lands in ``chair`` (``chaired``), and once ``seed_now`` is set it
    sends its commitment there (``seated``) and reveals its client seed as soon as the
    rematch has started (``revealed``)."""

    url: str
    table: str
    token: str
    offer_now: threading.Event = field(default_factory=threading.Event)
    ended: threading.Event = field(default_factory=threading.Event)
    chaired: threading.Event = field(default_factory=threading.Event)
    seed_now: threading.Event = field(default_factory=threading.Event)
    seated: threading.Event = field(default_factory=threading.Event)
    revealed: threading.Event = field(default_factory=threading.Event)
    chair: dict[str, Any] | None = None
    offers: list[dict[str, Any]] = field(default_factory=list)
    chat: list[str] = field(default_factory=list)
    failure: BaseException | None = None
    _thread: threading.Thread | None = None

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def join(self, timeout: float) -> None:
        assert self._thread is not None
        self._thread.join(timeout)
        if self.failure is not None:
            raise self.failure

    def _run(self) -> None:
        try:
            trio.run(self._main)
        except BaseException as exc:  # reported by join, in the test's thread
            self.failure = exc

    async def _main(self) -> None:
        ws_url = self.url.replace("http://", "ws://") + "/ws"
        with trio.fail_after(240):
            async with open_websocket_url(ws_url) as ws:
                client = Client(ws)
                await client.hello(self.table, self.token)
                await client.until("welcome")
                assert await client.play() is not None
                self.ended.set()
                while not self.offer_now.is_set():
                    await trio.sleep(0.05)
                await client.send({"type": "chat", "text": "gg! one more?"})
                await client.send({"type": "rematch"})
                self.chair = await client.until("rematch_seat")
                await client.until("rematch_offer")
                self.offers = client.of_type("rematch_offer")
                self.chat = [f["text"] for f in client.of_type("chat_line")]
            self.chaired.set()
            while not self.seed_now.is_set():
                await trio.sleep(0.05)
            chair = self.chair
            assert chair is not None
            seat = {"seat": chair["seat"], "token": chair["token"]}
            await trio.to_thread.run_sync(lambda: commit(
                self.url, chair["rematch"], seat, "Bede's dice"))
            self.seated.set()
            await trio.to_thread.run_sync(lambda: reveal_when_open(
                self.url, chair["rematch"], chair["token"], "Bede's dice"))
            self.revealed.set()

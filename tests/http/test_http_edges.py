"""The front door's and the API's edges: a websocket frame sent with the upgrade request,
the Origin's scheme, methods a path does not take (405 with Allow), and state-changing
POSTs that are not JSON or come from another site. Real sockets under ``trio.fail_after``,
the API straight through ``HttpApi``."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import trio
import wsproto
import wsproto.events

from quaymoor.actors.supervisor import Supervisor
from quaymoor.config import TableConfig
from quaymoor.http.api import HttpApi
from quaymoor.http.frontdoor import HttpRequest, same_origin
from tests.actors.running import running
from tests.http.test_frontdoor import Client, start


def masked_text_frame(text: str) -> bytes:
    """One client-to-server text frame (RFC 6455: clients mask)."""
    payload, mask = text.encode(), b"\x01\x02\x03\x04"
    assert len(payload) < 126
    return bytes([0x81, 0x80 | len(payload)]) + mask + bytes(
        b ^ mask[i % 4] for i, b in enumerate(payload))


async def test_a_frame_sent_with_the_upgrade_is_kept(nursery: trio.Nursery, tmp_path: Path) -> None:
    with trio.fail_after(10):
        port = await start(nursery, tmp_path)
        client = await Client.connect(port)
        ws = wsproto.WSConnection(wsproto.ConnectionType.CLIENT)
        upgrade = ws.send(wsproto.events.Request(host=f"127.0.0.1:{port}", target="/ws"))
        await client.stream.send_all(upgrade + masked_text_frame("sent with the upgrade"))
        seen: list[wsproto.events.Event] = []
        while not any(isinstance(e, wsproto.events.TextMessage) for e in seen):
            data = await client.stream.receive_some(65536)
            assert data, f"closed after {seen}"
            ws.receive_data(data)
            seen += list(ws.events())
        assert isinstance(seen[0], wsproto.events.AcceptConnection)
        texts = [e.data for e in seen if isinstance(e, wsproto.events.TextMessage)]
        assert texts == ["sent with the upgrade"]


def test_the_origin_scheme_must_be_the_servers() -> None:
    def req(**headers: str) -> HttpRequest:
        return HttpRequest("GET", "/ws", {}, headers, b"", "127.0.0.1")

    assert same_origin(req(host="quay:8000", origin="http://quay:8000"))
    assert not same_origin(req(host="quay:8000", origin="https://quay:8000"))
    assert not same_origin(req(host="quay", origin="https://quay"))
    assert same_origin(req(host="quay", origin="https://quay"), scheme="https")
    assert same_origin(req(host="quay:443", origin="https://quay"), scheme="https")
    assert not same_origin(req(host="quay", origin="http://quay"), scheme="https")


# -- the API, straight through HttpApi ---------------------------------------------------

HOST = {"host": "quay:8000"}
JSON = {"content-type": "application/json"}


@pytest.fixture
async def api() -> AsyncIterator[HttpApi]:
    sup = Supervisor(TableConfig(bot_delay=0.0))
    async with running(sup):
        yield HttpApi(sup)


async def ask(api: HttpApi, method: str, path: str, body: Any = None,
              headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], Any]:
    raw = b"" if body is None else json.dumps(body).encode()
    response = await api(HttpRequest(method, path, {}, headers or {}, raw, "10.0.0.1"))
    decoded = json.loads(response.body) if response.content_type == "application/json" else None
    return response.status, dict(response.headers), decoded


@pytest.mark.parametrize(("method", "path", "allow"), [
    ("PUT", "/api/tables", "GET, HEAD, POST"),
    ("DELETE", "/api/tables", "GET, HEAD, POST"),
    ("GET", "/api/play-now", "POST"),
    ("POST", "/api/rules", "GET, HEAD"),
    ("GET", "/api/tables/0123456789/join", "POST"),
    ("PATCH", "/api/tables/0123456789/start", "POST"),
    ("POST", "/status.json", "GET, HEAD"),
    ("DELETE", "/metrics", "GET, HEAD"),
    ("PUT", "/index.html", "GET, HEAD"),
])
async def test_a_known_path_with_another_method_is_405_with_allow(
    api: HttpApi, method: str, path: str, allow: str
) -> None:
    status, headers, body = await ask(api, method, path, {}, {**JSON, **HOST})
    assert (status, headers.get("Allow")) == (405, allow)
    assert body["error"]["code"] == "method_not_allowed"


@pytest.mark.parametrize("content_type", [None, "text/plain", "text/plain;charset=UTF-8",
                                          "application/x-www-form-urlencoded",
                                          "multipart/form-data; boundary=x"])
@pytest.mark.parametrize("path", ["/api/tables", "/api/play-now"])
async def test_a_post_that_is_not_json_is_415_and_changes_nothing(
    api: HttpApi, content_type: str | None, path: str
) -> None:
    headers = {} if content_type is None else {"content-type": content_type}
    status, _, body = await ask(api, "POST", path, {"players": 2}, headers)
    assert (status, body["error"]["code"]) == (415, "unsupported_media_type")
    assert "application/json" in body["error"]["message"]
    assert not api.supervisor.tables


async def test_json_posts_work_with_a_charset_and_from_the_same_origin(api: HttpApi) -> None:
    same = {"content-type": "application/json; charset=utf-8", "origin": "http://quay:8000",
            **HOST}
    status, _, made = await ask(api, "POST", "/api/tables", {"players": 2}, same)
    assert status == 201
    status, _, _ = await ask(api, "POST", f"/api/tables/{made['table']}/join", {"name": "A"},
                             same)
    assert status == 200


async def test_a_post_from_another_site_is_403_and_changes_nothing(api: HttpApi) -> None:
    for origin in ("http://evil.example", "https://quay:8000", "null"):
        status, _, body = await ask(api, "POST", "/api/play-now", {},
                                    {**JSON, **HOST, "origin": origin})
        assert (status, body["error"]["code"]) == (403, "cross_site"), origin
    assert not api.supervisor.tables

"""HTTP bodies are UTF-8 without a byte order mark: a UTF-8 BOM, UTF-16 or UTF-32 (with or
without a BOM) and bytes that are not UTF-8 each get 400 ``bad_request`` saying so, and
change nothing; a charset other than UTF-8 in the Content-Type is 415. Straight through
``HttpApi``, on every POST route."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator

import pytest

from quaymoor.actors.supervisor import Supervisor
from quaymoor.config import TableConfig
from quaymoor.http.api import HttpApi
from quaymoor.http.frontdoor import HttpRequest
from quaymoor.http.openapi import PATHS
from tests.actors.running import running

BODY = '{"name": "Zoë", "players": 2}'
#: Each wrong encoding of ``BODY`` (or a body with bytes that are not UTF-8), and what
#: the refusal must say.
WRONG = [
    (b"\xef\xbb\xbf" + BODY.encode(), "UTF-8 byte order mark"),
    (BODY.encode("utf-16"), "UTF-16 byte order mark"),
    (b"\xfe\xff" + BODY.encode("utf-16-be"), "UTF-16 byte order mark"),
    (BODY.encode("utf-16-le"), "NUL byte at offset 1"),
    (BODY.encode("utf-16-be"), "NUL byte at offset 0"),
    (BODY.encode("utf-32"), "UTF-32 byte order mark"),
    (BODY.encode("utf-32-be"), "NUL byte at offset 0"),
    (BODY.encode("latin-1"), "not valid UTF-8 (byte 0xeb at offset 12)"),
    (b'{"name": "\xff"}', "not valid UTF-8 (byte 0xff at offset 10)"),
    (b'{"name": "\xc0\xaf"}', "not valid UTF-8 (byte 0xc0"),  # an overlong "/"
    (b'{"name": "\xed\xa0\x80"}', "not valid UTF-8 (byte 0xed"),  # a surrogate's encoding
    (b'{"name": "\xe2\x82"}', "not valid UTF-8 (byte 0xe2"),  # cut short
]
#: Every route that takes a body: the document's POSTs.
ROUTES = [path.replace("{table}", "0123456789") for path, ops in PATHS.items()
          if "post" in ops]


@pytest.fixture
async def api() -> AsyncIterator[HttpApi]:
    sup = Supervisor(TableConfig(bot_delay=0.0))
    async with running(sup):
        yield HttpApi(sup)


async def post(api: HttpApi, path: str, body: bytes,
               content_type: str = "application/json") -> tuple[int, dict[str, str]]:
    response = await api(HttpRequest("POST", path, {}, {"content-type": content_type}, body,
                                     "10.0.0.1"))
    return response.status, json.loads(response.body)["error"]


@pytest.mark.parametrize("route", ROUTES)
@pytest.mark.parametrize(("body", "said"), WRONG)
async def test_a_body_that_is_not_utf8_is_refused_saying_why(
    api: HttpApi, route: str, body: bytes, said: str
) -> None:
    status, error = await post(api, route, body)
    assert (status, error["code"]) == (400, "bad_request")
    assert "UTF-8 without a byte order mark" in error["message"] and said in error["message"]
    assert not api.supervisor.tables


async def test_the_same_body_in_utf8_is_taken(api: HttpApi) -> None:
    response = await api(HttpRequest("POST", "/api/play-now", {},
                                     {"content-type": "application/json; charset=UTF-8"},
                                     BODY.encode(), "10.0.0.1"))
    assert response.status == 201


@pytest.mark.parametrize("charset", ["utf-16", "UTF-32", "latin-1", '"iso-8859-1"'])
async def test_a_charset_other_than_utf8_is_415(api: HttpApi, charset: str) -> None:
    status, error = await post(api, "/api/play-now", BODY.encode(),
                               f"application/json; charset={charset}")
    assert (status, error["code"]) == (415, "unsupported_media_type")
    assert "UTF-8" in error["message"]
    assert not api.supervisor.tables

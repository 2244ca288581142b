"""Every 405 carries ``Allow`` naming exactly the methods its path takes: every route of
the OpenAPI document, the pages and the web client's files, each with every method. A
method in ``Allow`` is answered (not 405); a method outside it is 405
``method_not_allowed`` with the same ``Allow``. Straight through ``HttpApi``."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator

import pytest

from quaymoor.actors.supervisor import Supervisor
from quaymoor.config import TableConfig
from quaymoor.http.api import HttpApi
from quaymoor.http.frontdoor import HttpRequest, HttpResponse
from quaymoor.http.openapi import PATHS
from tests.actors.running import running

SAMPLE_ID = "0123456789"
METHODS = ("GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE", "CONNECT",
           "QUAYMOOR")
ROUTES = sorted({p.replace("{table}", SAMPLE_ID).replace("{game}", SAMPLE_ID) for p in PATHS}
                | {"/", "/index.html", "/how-to-play", "/status", "/games/0123456789/",
                   "/verify.html", "/no-such-file", "/how-to-play/x"})


@pytest.fixture
async def api() -> AsyncIterator[HttpApi]:
    sup = Supervisor(TableConfig(bot_delay=3600.0), max_tables=4)
    async with running(sup):
        yield HttpApi(sup)


async def ask(api: HttpApi, method: str, path: str) -> HttpResponse:
    headers = {"content-type": "application/json"}
    return await api(HttpRequest(method, path, {}, headers, b"{}", "::1"))


@pytest.mark.parametrize("path", ROUTES)
async def test_every_405_names_exactly_the_methods_the_path_takes(
    api: HttpApi, path: str
) -> None:
    answers = {m: await ask(api, m, path) for m in METHODS}
    refused = {m for m, r in answers.items() if r.status == 405}
    taken = set(METHODS) - refused
    assert refused, f"{path} takes every method"
    for method in refused:
        response = answers[method]
        allow = dict(response.headers).get("Allow")
        assert allow is not None, f"405 without Allow: {method} {path}"
        assert set(allow.split(", ")) == taken, (method, path, allow)
        assert json.loads(response.body)["error"]["code"] == "method_not_allowed"


@pytest.mark.parametrize("path", ["/games/a\\b.json", "/games/\x00.json", "/../pyproject.toml",
                                  "/api/games/..", "/web/../README.md"])
async def test_a_malformed_path_is_the_json_not_found_of_any_unknown_path(
    api: HttpApi, path: str
) -> None:
    """A backslash, NUL or ".." in a path (a game's id as schemathesis writes one) gets
    the same JSON answer as any path the server does not know, as the OpenAPI says."""
    answer = await ask(api, "GET", path)
    assert (answer.status, answer.content_type) == (404, "application/json")
    assert json.loads(answer.body)["error"]["code"] == "not_found"

"""The How to play page's route (``/how-to-play``) and what ``/api/rules`` serves for it,
straight through ``HttpApi``: the page is 200 ``text/html``; another method is 405 with
``Allow``, as every page's is; a path below it is 404; the rules answer carries the
amounts the page writes out and this server's decision timer."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator

import pytest

from quaymoor.actors.supervisor import Supervisor
from quaymoor.config import TableConfig
from quaymoor.http.api import WEB_ROOT, HttpApi
from quaymoor.http.frontdoor import HttpRequest, HttpResponse
from quaymoor.rules import data
from tests.actors.running import running


@pytest.fixture
async def api() -> AsyncIterator[HttpApi]:
    sup = Supervisor(TableConfig(bot_delay=0.0, decision_seconds=42.0))
    async with running(sup):
        yield HttpApi(sup)


async def ask(api: HttpApi, method: str, path: str) -> HttpResponse:
    headers = {"host": "quay:8000", "content-type": "application/json"}
    return await api(HttpRequest(method, path, {}, headers, b"{}", "10.0.0.1"))


@pytest.mark.parametrize("method", ["GET", "HEAD"])
async def test_the_page_is_html(api: HttpApi, method: str) -> None:
    response = await ask(api, method, "/how-to-play")
    assert response.status == 200
    assert response.content_type.startswith("text/html")
    assert response.body == (WEB_ROOT / "how-to-play.html").read_bytes()


@pytest.mark.parametrize("method", ["POST", "PUT", "DELETE", "PATCH"])
async def test_another_method_is_405_with_allow(api: HttpApi, method: str) -> None:
    response = await ask(api, method, "/how-to-play")
    assert (response.status, dict(response.headers).get("Allow")) == (405, "GET, HEAD")
    assert json.loads(response.body)["error"]["code"] == "method_not_allowed"


@pytest.mark.parametrize("path", ["/how-to-play/x", "/how-to-play/", "/how-to-play/x/y",
                                  "/how-to-playx"])
async def test_a_path_below_it_is_404(api: HttpApi, path: str) -> None:
    response = await ask(api, "GET", path)
    assert response.status == 404
    assert json.loads(response.body)["error"]["code"] == "not_found"


async def test_a_post_below_it_is_405(api: HttpApi) -> None:
    response = await ask(api, "POST", "/how-to-play/x")
    assert (response.status, dict(response.headers).get("Allow")) == (405, "GET, HEAD")


async def test_the_rules_carry_what_the_page_writes_out(api: HttpApi) -> None:
    rules = json.loads((await ask(api, "GET", "/api/rules")).body)
    assert rules["table"] == {"decision_seconds": 42.0}  # this server's own timer
    assert rules["limits"]["role_cards"] == len(data.ROLES)
    amounts = rules["amounts"]
    assert amounts["unpicked_role_coins"] == data.UNPICKED_ROLE_COINS
    assert amounts["chandler_picker_coins"] == data.PICKER_SALE_BONUS
    assert amounts["kept_goods"] == data.KEPT_GOODS
    assert amounts["game_minutes"] == data.GAME_MINUTES
    assert all(isinstance(v, int) for v in amounts.values())
    assert {n: s["seals"] for n, s in rules["setups"].items()} == {
        str(n): s.seals for n, s in data.SETUPS.items()}

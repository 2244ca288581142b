"""The HTTP API's refusals, straight through ``HttpApi`` (no sockets): each ``TableError``
gets its code's status from ``protocol.codes``, as before the table of codes."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import pytest

from quaymoor.actors.supervisor import Supervisor
from quaymoor.config import TableConfig
from quaymoor.http.api import HttpApi
from quaymoor.http.frontdoor import HttpRequest
from quaymoor.rules.fairness import seed_commitment
from tests.actors.running import running


@pytest.fixture
async def api() -> AsyncIterator[HttpApi]:
    sup = Supervisor(TableConfig(bot_delay=0.0), max_tables=2)
    async with running(sup):
        yield HttpApi(sup)


async def post(api: HttpApi, path: str, body: dict[str, Any]) -> tuple[int, Any]:
    response = await api(HttpRequest("POST", path, {}, {"content-type": "application/json"},
                                     json.dumps(body).encode(), "::1"))
    return response.status, json.loads(response.body)


def code(answer: tuple[int, Any]) -> tuple[int, str]:
    return answer[0], answer[1]["error"]["code"]


async def test_table_errors_get_their_statuses(api: HttpApi) -> None:
    assert code(await post(api, "/api/tables", {"players": 9})) == (400, "bad_players")
    assert code(await post(api, "/api/tables", {"bots": "wise"})) == (400, "bad_bots")
    assert code(await post(api, "/api/tables", {"colour": 1})) == (400, "bad_request")
    status, made = await post(api, "/api/tables", {"players": 2})
    assert status == 201
    join = f"/api/tables/{made['table']}/join"
    start = f"/api/tables/{made['table']}/start"
    assert code(await post(api, "/api/tables/0000000000/join", {"name": "A"})) == (
        404, "unknown_table")
    assert code(await post(api, join, {"name": " "})) == (400, "bad_name")
    assert code(await post(api, join, {"name": "A", "client_seed": "s"})) == (
        400, "bad_request")  # the seed comes after the commitments
    assert code(await post(api, join, {"name": "A", "commitment": "0" * 64})) == (
        400, "bad_request")  # the commitment comes after the fingerprint
    status, ada = await post(api, join, {"name": "Ada"})
    assert status == 200
    table = made["table"]
    commit, reveal = f"/api/tables/{table}/commit", f"/api/tables/{table}/reveal"
    mine = seed_commitment(table, ada["seat"], "s" * 256)
    assert code(await post(api, commit, {"token": ada["token"], "commitment": "s" * 64})) == (
        400, "bad_commitment")
    assert code(await post(api, commit, {"token": "nope", "commitment": mine})) == (
        403, "bad_token")
    assert code(await post(api, reveal, {"token": ada["token"], "client_seed": "s"})) == (
        409, "not_revealing")
    assert (await post(api, commit, {"token": ada["token"], "commitment": mine}))[0] == 200
    assert code(await post(api, commit, {"token": ada["token"], "commitment": mine})) == (
        409, "already_committed")
    status, bede = await post(api, join, {"name": "Bede"})
    assert code(await post(api, join, {"name": "Cuthbert"})) == (409, "table_full")
    assert code(await post(api, start, {"token": "nope"})) == (403, "bad_token")
    assert await post(api, start, {"token": ada["token"]}) == (
        200, {"table": table, "started": True, "commitments": [mine, None]})
    assert code(await post(api, start, {"token": ada["token"]})) == (409, "already_started")
    assert code(await post(api, commit, {"token": bede["token"], "commitment": mine})) == (
        409, "already_started")
    for seed, answer in (("s" * 257, (400, "bad_client_seed")),
                         ("s\x00", (400, "bad_client_seed")),
                         ("s" * 255, (400, "seed_mismatch"))):
        assert code(await post(api, reveal, {"token": ada["token"], "client_seed": seed})) == (
            answer)
    assert code(await post(api, reveal, {"token": bede["token"], "client_seed": "b"})) == (
        409, "no_commitment")
    assert (await post(api, reveal, {"token": ada["token"], "client_seed": "s" * 256}))[0] == 200
    assert code(await post(api, reveal, {"token": ada["token"], "client_seed": "s" * 256})) == (
        409, "not_revealing")  # dealt once Ada, the only seat that committed, revealed
    await post(api, "/api/tables", {"players": 2})
    assert code(await post(api, "/api/tables", {"players": 2})) == (409, "server_full")
    assert code(await post(api, "/api/nowhere", {})) == (404, "not_found")


async def test_a_table_opened_with_hints_says_so_in_the_lobby(api: HttpApi) -> None:
    status, refused = await post(api, "/api/tables", {"players": 2, "hints": "yes"})
    assert status == 400 and refused["error"]["code"] == "bad_request"
    assert refused["error"]["message"] == "invalid value for type, expected bool @ $.hints"
    status, made = await post(api, "/api/tables", {"players": 2, "hints": True})
    assert status == 201
    status, plain = await post(api, "/api/tables", {"players": 2})
    assert status == 201
    response = await api(HttpRequest("GET", "/api/tables", {}, {}, b"", "::1"))
    listed = {t["id"]: t["hints"] for t in json.loads(response.body)["tables"]}
    assert listed == {made["table"]: True, plain["table"]: False}

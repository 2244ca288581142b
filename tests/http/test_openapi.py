"""``GET /api/openapi.json`` against the code, both ways, straight through ``HttpApi``:
every operation in the document is answered (not ``not_found``/``method_not_allowed``)
with a status it lists and a body its schema allows; every route the code matches is in
the document; every HTTP code of ``protocol.codes`` is documented somewhere."""

from __future__ import annotations

import json
import re
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import jsonschema_rs
import pytest

from quaymoor.actors.lobby import clean_name
from quaymoor.actors.supervisor import Supervisor
from quaymoor.config import TableConfig
from quaymoor.http import api as api_module
from quaymoor.http import games as games_module
from quaymoor.http.api import HttpApi
from quaymoor.http.frontdoor import HttpRequest
from quaymoor.http.openapi import PATHS, document, name_pattern
from quaymoor.protocol.codes import HTTP_STATUS
from tests.actors.running import running

DOC = document()
OPERATIONS = [(path, method) for path, ops in PATHS.items() for method in ops]
SAMPLE_ID = "0123456789"
@pytest.fixture
async def api() -> AsyncIterator[HttpApi]:
    sup = Supervisor(TableConfig(bot_delay=3600.0), max_tables=8)
    async with running(sup):
        yield HttpApi(sup)


async def call(
    api: HttpApi, method: str, path: str, body: Any = None
) -> tuple[int, Any, str]:
    raw = b"" if body is None else json.dumps(body).encode()
    path, _, query = path.partition("?")
    params = dict(p.split("=", 1) for p in query.split("&") if p)
    response = await api(HttpRequest(method.upper(), path, params, {}, raw, "::1"))
    media = response.content_type
    if media == "application/json":
        return response.status, json.loads(response.body), media
    return response.status, response.body.decode(), media


async def post_json(api: HttpApi, path: str, body: Any) -> int:
    headers = {"content-type": "application/json"}
    response = await api(HttpRequest("POST", path, {}, headers, json.dumps(body).encode(),
                                     "::1"))
    return response.status


def _valid_body(path: str) -> dict[str, Any]:
    bodies: dict[str, dict[str, Any]] = {
        "/api/tables": {"players": 2}, "/api/play-now": {"name": "Ada", "players": 2},
        "/api/tables/{table}/join": {"name": "Ada"}}
    return bodies.get(path, {})


def _conforms(schema: dict[str, Any], instance: Any) -> bool:
    return bool(jsonschema_rs.validator_for({**schema, "components": DOC["components"]})
                .is_valid(instance))


def test_the_document_is_openapi_3_1_with_unique_operation_ids() -> None:
    assert DOC["openapi"].startswith("3.1")
    ids = [op["operationId"] for ops in PATHS.values() for op in ops.values()]
    assert len(ids) == len(set(ids))
    json.dumps(DOC)  # JSON through and through


def test_every_http_code_is_documented_under_its_status() -> None:
    documented: dict[str, set[int]] = {}
    answers = [(status, answer) for ops in PATHS.values() for op in ops.values()
               for status, answer in op["responses"].items()]
    answers += [("404", DOC["components"]["responses"]["NotFound"]),
                ("405", DOC["components"]["responses"]["MethodNotAllowed"])]
    for status, answer in answers:
                for media in answer.get("content", {}).values():
                    code = media["schema"].get("properties", {}).get("error")
                    for c in (code or {}).get("properties", {}).get("code", {}).get("enum", []):
                        documented.setdefault(c, set()).add(int(status))
    for code, status in HTTP_STATUS.items():
        assert status in documented.get(code, set()), code


@pytest.mark.parametrize(("path", "method"), OPERATIONS)
async def test_every_documented_operation_is_answered_as_documented(
    api: HttpApi, path: str, method: str
) -> None:
    op = PATHS[path][method]
    concrete = path.replace("{table}", SAMPLE_ID).replace("{game}", SAMPLE_ID)
    for body in ([None] if method == "get" else [_valid_body(path), {"no such key": 1}]):
        status, answer, media = await call(api, method, concrete, body)
        assert str(status) in op["responses"], (concrete, status, answer)
        if isinstance(answer, dict) and "error" in answer:
            assert answer["error"]["code"] not in ("not_found", "method_not_allowed")
        content = op["responses"][str(status)].get("content", {})
        assert media in content, (concrete, status, media)
        if media == "application/json":
            assert _conforms(content[media]["schema"], answer), (concrete, answer)


def _expand(pattern: str) -> list[str]:
    """Concrete paths a route regex of ``http.api`` / ``http.games`` matches: a table or
    game id for the id group, each alternative of ``(a|b)``, with and without ``(x)?``."""
    pattern = pattern.strip("^$").replace("([0-9a-f]{10})", SAMPLE_ID).replace("\\.", ".")
    found = re.search(r"\(([^()]*)\)(\?)?|(.)\?", pattern)
    if found is None:
        return [pattern]
    if found.group(3):
        choices = [found.group(3), ""]
    else:
        choices = found.group(1).split("|") + ([""] if found.group(2) else [])
    return [x for c in choices
            for x in _expand(pattern[:found.start()] + c + pattern[found.end():])]


def _code_routes() -> set[str]:
    """Every path the API code names: its literals and its route regexes, expanded."""
    paths: set[str] = set()
    for module in (api_module, games_module):
        source = Path(str(module.__file__)).read_text()
        paths |= set(re.findall(r'"(/(?:api|games|status|metrics)[^"]*)"', source))
        for pattern in re.findall(r're\.compile\(r"([^"]+)"\)', source):
            paths |= set(_expand(pattern))
    # "/api/" is the prefix test, "{...}" an f-string, "*.html" the static web client's.
    return {p for p in paths if not p.endswith(("/", ".html")) and "{" not in p}


def _template(concrete: str) -> str | None:
    for path in PATHS:
        regex = re.escape(path).replace(r"\{table\}", "[0-9a-f]{10}").replace(
            r"\{game\}", "[0-9a-f]{10}")
        if re.fullmatch(regex, concrete):
            return path
    return None


async def test_every_route_the_code_answers_is_documented(api: HttpApi) -> None:
    routes = _code_routes()
    assert "/api/tables/0123456789/start" in routes and "/games/0123456789.json" in routes
    missing = []
    for concrete in sorted(routes):
        template = _template(concrete)
        for method in ("get", "post", "put", "delete"):
            status, answer, _ = await call(api, method, concrete, {})
            refused = isinstance(answer, dict) and answer.get("error", {}).get("code") in (
                "not_found", "method_not_allowed")
            if refused:
                continue
            if template is None or method not in PATHS[template]:
                missing.append(f"{method.upper()} {concrete} answers {status}")
    assert missing == []


def test_the_name_pattern_is_exactly_what_clean_name_keeps() -> None:
    """The document's name pattern matches one character exactly when ``clean_name``
    leaves something of it: every code point but the surrogates, both ways."""
    pattern = re.compile(name_pattern())
    differ = [hex(point) for point in range(sys.maxunicode + 1)
              if not 0xD800 <= point <= 0xDFFF
              and bool(pattern.search(chr(point))) != bool(clean_name(chr(point)))]
    assert differ == []
    for name, kept in (("", False), ("\u200b \u2066\t", False), ("\u200bA", True),
                       ("Zoë", True), ("\u3000\u00a0", False)):
        assert bool(pattern.search(name)) == kept == bool(clean_name(name)), name


@pytest.mark.parametrize(("body", "ok"), [
    ({"players": 3}, True), ({"players": 3.0}, True), ({"players": 3.5}, False),
    ({"players": "3"}, False), ({"players": True}, False), ({"players": 6}, False),
    ({"bots": "random"}, True), ({"bots": "Hard"}, False), ({"pace": "fast"}, True),
    ({}, True), ({"extra": 1}, False), ({"hints": True}, True), ({"hints": False}, True),
    ({"hints": "yes"}, False), ({"hints": 1}, False), ({"hints": None}, False)])
async def test_a_create_body_is_taken_exactly_when_the_document_allows_it(
    api: HttpApi, body: dict[str, Any], ok: bool
) -> None:
    schema = PATHS["/api/tables"]["post"]["requestBody"]["content"]["application/json"]
    assert _conforms(schema["schema"], body) == ok
    assert (await post_json(api, "/api/tables", body) == 201) == ok, body


@pytest.mark.parametrize(("name", "ok"), [("Ada", True), ("", False), ("\u200b", False),
                                          ("  \u202e ", False), ("\u200bAda", True)])
async def test_a_play_now_name_is_taken_exactly_when_the_document_allows_it(
    api: HttpApi, name: str, ok: bool
) -> None:
    schema = PATHS["/api/play-now"]["post"]["requestBody"]["content"]["application/json"]
    assert _conforms(schema["schema"], {"name": name}) == ok
    assert (await post_json(api, "/api/play-now", {"name": name, "players": 2}) == 201) == ok

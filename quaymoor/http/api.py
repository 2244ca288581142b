"""The plain-HTTP side of the server: the lobby's JSON endpoints, the status page's data,
finished games' records, and the static web client.

JSON bodies are structured strictly (cattrs, extra keys forbidden); every refusal is
``{"error": {"code": ..., "message": ...}}`` with a 4xx status, and changes nothing.
"""

from __future__ import annotations

import hmac
import ipaddress
import json
import re
from pathlib import Path
from typing import Any, TypeVar

import attrs

from quaymoor.actors.inbox import TableError
from quaymoor.actors.supervisor import Supervisor
from quaymoor.http import openapi
from quaymoor.http.frontdoor import HttpRequest, HttpResponse, static_response
from quaymoor.http.games import GamesApi
from quaymoor.http.responses import error_response, json_response
from quaymoor.protocol.codes import Code
from quaymoor.rules.converter import describe_error, make_rules_converter
from quaymoor.rules.data import rules_catalogue

T = TypeVar("T")
WEB_ROOT = Path(__file__).resolve().parent.parent.parent / "web"
_conv = make_rules_converter()


@attrs.frozen
class CreateTable:
    players: int = 4
    bots: str = "normal"  #: easy, normal or hard: who takes the empty chairs


@attrs.frozen
class JoinTable:
    name: str
    client_seed: str | None = None


@attrs.frozen
class StartTable:
    token: str


@attrs.frozen
class PlayNow:
    name: str = "Player"
    players: int = 4
    client_seed: str | None = None
    bots: str = "normal"


_TABLE_ROUTE = re.compile(r"^/api/tables/([0-9a-f]{10})/(join|start)$")


class HttpApi:
    def __init__(
        self, supervisor: Supervisor, web_root: Path = WEB_ROOT, *,
        operator_token: str | None = None,
    ) -> None:
        self.supervisor = supervisor
        self.operator_token = operator_token
        self.web_root = web_root
        self.games = GamesApi(supervisor, web_root)

    async def __call__(self, request: HttpRequest) -> HttpResponse:
        try:
            return await self._route(request)
        except TableError as exc:
            return error_response(exc.code, exc.message)
        except _BadBody as exc:
            return error_response(Code.BAD_REQUEST, str(exc))

    async def _route(self, request: HttpRequest) -> HttpResponse:
        path, method = request.path, request.method
        games = await self.games(request)  # finished games: /games/..., /api/games...
        if games is not None:
            return games
        if path.startswith("/api/"):
            return await self._api(request)
        if path in ("/status.json", "/metrics") and method in ("GET", "HEAD"):
            refused = operator_refusal(request, self.operator_token)
            if refused is not None:
                return refused
            if path == "/metrics":
                return HttpResponse(200, self.supervisor.metrics.exposition(),
                                    "text/plain; version=0.0.4; charset=utf-8")
            return json_response(self.supervisor.status())
        if path == "/status" and method in ("GET", "HEAD"):
            page = static_response(self.web_root, "/status.html", method)
            if page is not None:
                return page
        if method not in ("GET", "HEAD"):
            return error_response(Code.METHOD_NOT_ALLOWED, f"{method} is not allowed here")
        found = static_response(self.web_root, path, method)
        if found is not None:
            return found
        return error_response(Code.NOT_FOUND, "nothing here")

    async def _api(self, request: HttpRequest) -> HttpResponse:
        path, method = request.path, request.method
        sup = self.supervisor
        if path == "/api/openapi.json" and method == "GET":
            return json_response(openapi.document())
        if path == "/api/rules" and method == "GET":
            return json_response(rules_catalogue())
        if path == "/api/tables" and method == "GET":
            return json_response({"tables": [
                {k: t[k] for k in ("id", "players", "bots", "state", "seats", "round", "phase")}
                for t in (table.summary() for table in sup.tables.values())
            ]})
        if path == "/api/tables" and method == "POST":
            body = _body(request, CreateTable)
            table = await sup.create_table(body.players, body.bots)
            return json_response(_table_info(table.id, table.players, table.fingerprint), 201)
        if path == "/api/play-now" and method == "POST":
            play = _body(request, PlayNow)
            table, joined = await sup.play_now(play.players, play.name, play.client_seed,
                                               play.bots)
            info = _table_info(table.id, table.players, table.fingerprint)
            return json_response({**info, "seat": joined.seat, "token": joined.token}, 201)
        match = _TABLE_ROUTE.match(path)
        if match and method == "POST":
            table_id, verb = match.groups()
            if verb == "join":
                join = _body(request, JoinTable)
                result = await sup.join(table_id, join.name, join.client_seed)
                return json_response({"table": table_id, "seat": result.seat,
                                      "token": result.token})
            start = _body(request, StartTable)
            await sup.start(table_id, start.token)
            return json_response({"table": table_id, "started": True})
        return error_response(Code.NOT_FOUND, f"no API endpoint {method} {path}")


def operator_refusal(request: HttpRequest, token: str | None) -> HttpResponse | None:
    """None when the request may read the operators' figures: with a token set, it must
    carry ``Authorization: Bearer <token>`` (compared in constant time); with none set,
    it must come from this machine (loopback)."""
    if token is None:
        if _loopback(request.client):
            return None
        return error_response(Code.OPERATORS_ONLY,
                              "set an operator token to read this from another machine")
    given = request.headers.get("authorization", "")
    scheme, _, value = given.partition(" ")
    if scheme.lower() == "bearer" and hmac.compare_digest(value.strip().encode(),
                                                          token.encode()):
        return None
    response = error_response(Code.OPERATOR_TOKEN,
                              "this needs the operator token: Authorization: Bearer <token>")
    return attrs.evolve(response, headers=(("WWW-Authenticate", 'Bearer realm="quaymoor"'),))


def _loopback(client: str) -> bool:
    try:
        return ipaddress.ip_address(client.split("%", maxsplit=1)[0]).is_loopback
    except ValueError:
        return False


def _table_info(table_id: str, players: int, fingerprint: str) -> dict[str, Any]:
    return {"table": table_id, "players": players, "fingerprint": fingerprint,
            "invite": f"/?table={table_id}"}


class _BadBody(Exception):
    pass


def _body(request: HttpRequest, kind: type[T]) -> T:
    try:
        data = json.loads(request.body or b"{}")
    except (json.JSONDecodeError, UnicodeDecodeError, RecursionError) as exc:
        raise _BadBody(f"the body is not JSON: {exc}") from None
    if not isinstance(data, dict):
        raise _BadBody("the body must be a JSON object @ $")
    try:
        return _conv.structure(data, kind)
    except Exception as exc:
        raise _BadBody(describe_error(exc)) from None

"""The plain-HTTP side of the server: the lobby's JSON endpoints, the status page's data,
finished games' records, and the static web client.

JSON bodies are UTF-8 without a byte order mark (``codec.utf8_text``: 400 otherwise, saying
what the bytes are) and structured strictly (cattrs, extra keys forbidden); every refusal is
``{"error": {"code": ..., "message": ...}}`` with a 4xx status, and changes nothing.

Every ``POST`` changes state, so each must be ``Content-Type: application/json``, with no
``charset`` or UTF-8's (415 otherwise: a cross-site form or a "simple" ``text/plain``
fetch cannot send that without a preflight, which gets no CORS headers) and, when it has
an ``Origin``, come from this server's origin (403, ``frontdoor.same_origin``). A path
the API knows answers another method with 405 and ``Allow``. Creating a table (``POST
/api/tables``, play-now) is held to ``ClientLimits`` per client address
(``_TableQuota``): 429 with ``Retry-After`` past it, while every other address is served
as before.
"""

from __future__ import annotations

import hmac
import ipaddress
import json
import logging
import math
import re
from collections import Counter
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

import attrs

from quaymoor.accounts.passkeys import RelyingParty
from quaymoor.accounts.service import Accounts
from quaymoor.actors.inbox import TableError
from quaymoor.actors.rate_limit import Keyed, TokenBucket
from quaymoor.actors.supervisor import Supervisor
from quaymoor.actors.table import Table, TableState
from quaymoor.http import accounts_api, openapi, players_api
from quaymoor.http.accounts_api import AccountsApi
from quaymoor.http.frontdoor import (
    HttpRequest,
    HttpResponse,
    OriginCheck,
    same_origin,
    static_response,
)
from quaymoor.http.games import GamesApi
from quaymoor.http.responses import (
    READ_METHODS,
    error_response,
    json_response,
    method_not_allowed,
)
from quaymoor.protocol.codec import ProtocolError, parse_json, utf8_text
from quaymoor.protocol.codes import Code
from quaymoor.protocol.pace import DEFAULT_PACE
from quaymoor.rules.converter import describe_error, make_rules_converter
from quaymoor.rules.data import rules_catalogue
from quaymoor.store.archive import ArchiveError

if TYPE_CHECKING:
    from quaymoor.actors.directory import TableDirectory

log = logging.getLogger("quaymoor.http")

T = TypeVar("T")
WEB_ROOT = Path(__file__).resolve().parent.parent.parent / "web"
_conv = make_rules_converter()


def _whole_number(value: Any, _: type) -> int:
    """An integer field of a body: a JSON number with no fraction, ``3`` or ``3.0`` alike
    (JSON, and the OpenAPI document's ``"type": "integer"``, do not tell them apart); not
    a boolean, a string or ``3.5``."""
    if type(value) is int:
        return value
    if type(value) is float and value.is_integer():
        return int(value)
    raise ValueError(f"expected a whole number, not {json.dumps(value)[:40]}")


_conv.register_structure_hook(int, _whole_number)


def _true_or_false(value: Any, _: type) -> bool:
    """A JSON boolean: not a number or a string that would be truthy."""
    if type(value) is bool:
        return value
    raise ValueError(f"expected true or false, not {json.dumps(value)[:40]}")


_conv.register_structure_hook(bool, _true_or_false)


@attrs.frozen
class CreateTable:
    players: int = 4
    bots: str = "normal"  #: easy, normal or hard: who takes the empty chairs
    #: people, steady or fast: how long the bots wait (checked by the supervisor: any
    #: other value, a non-string too, is ``bad_pace``)
    pace: Any = DEFAULT_PACE.value
    #: hints for everyone at the table (``actors.hints``): true or false, nothing else
    hints: bool = False
    #: a rated game (``quaymoor.ratings``): needs you signed in, and no hints
    rated: bool = False


#: A ``client_seed`` or ``commitment`` where none may be: the seat's commitment goes in
#: only after the fingerprint, its seed only after every commitment is fixed.
_NO_SEED: Any = object()


@attrs.frozen
class JoinTable:
    name: str
    client_seed: Any = _NO_SEED  #: refused: ``_seed_comes_later``
    commitment: Any = _NO_SEED  #: refused: ``_seed_comes_later``


@attrs.frozen
class StartTable:
    token: str


@attrs.frozen
class CommitTable:
    token: str
    commitment: Any  #: checked by the table (``fairness.check_commitment``)


@attrs.frozen
class RevealTable:
    token: str
    client_seed: Any  #: checked by the table (``fairness.check_client_seed``, the commitment)


@attrs.frozen
class PlayNow:
    name: str = "Player"
    players: int = 4
    bots: str = "normal"
    pace: Any = DEFAULT_PACE.value  #: as ``CreateTable.pace``
    client_seed: Any = _NO_SEED  #: refused: ``_seed_comes_later``
    commitment: Any = _NO_SEED  #: refused: ``_seed_comes_later``
    rated: bool = False  #: as ``CreateTable.rated``


_TABLE_ROUTE = re.compile(r"^/api/tables/([0-9a-f]{10})/(join|commit|start|reveal)$")
_READ = READ_METHODS
#: The methods of each path the API answers (a table's join, commit, start and reveal:
#: ``_TABLE_ROUTE``).
_METHODS: dict[str, tuple[str, ...]] = {
    "/api/openapi.json": _READ, "/api/rules": _READ, "/api/tables": (*_READ, "POST"),
    "/api/play-now": ("POST",),
    "/status.json": _READ, "/metrics": _READ, "/status": _READ, "/healthz": _READ,
    "/how-to-play": _READ, "/account": _READ, **accounts_api.METHODS,
    players_api.LIST: _READ, "/players": _READ,
}
#: Pages served at a path of their own (the file under ``web/``): the operators' status
#: page, the players' How to play page and their account's page.
_PAGES = {"/status": "/status.html", "/how-to-play": "/how-to-play.html",
          "/account": "/account.html"}
JSON_TYPE = "application/json"
#: The site passkeys are made for when none is configured: ``make run``'s, reached as
#: http://localhost:8000 (WebAuthn takes no IP address for a site).
LOCAL_SITE = RelyingParty("localhost", ("http://localhost:8000",))


class TableLimits(Protocol):
    """The per-address table limits (``config.ClientLimits``, which the server passes;
    ``http`` does not import ``config``)."""

    @property
    def tables_per_minute(self) -> int: ...

    @property
    def open_tables(self) -> int: ...


def _charset(params: str) -> str | None:
    """The ``charset`` of a Content-Type's parameters (lower case, unquoted), or None."""
    for param in params.split(";"):
        name, _, value = param.partition("=")
        if name.strip().lower() == "charset":
            return value.strip().strip('"').lower()
    return None


def _shown(text: str, limit: int = 80) -> str:
    """A stranger's header or method, quoted for an error message and cut to ``limit``."""
    return repr(text if len(text) <= limit else text[:limit] + "...")


class HttpApi:
    def __init__(
        self, supervisor: Supervisor, web_root: Path = WEB_ROOT, *,
        operator_token: str | None = None,
        limits: TableLimits | None = None,
        origin_ok: OriginCheck = same_origin,
        accounts: Accounts | None = None,
        secure_cookies: bool = False,
    ) -> None:
        self.supervisor = supervisor
        self.operator_token = operator_token
        self.web_root = web_root
        self.games = GamesApi(supervisor, web_root)
        self.quota = _TableQuota(limits)
        self.origin_ok = origin_ok
        #: accounts and sessions (``http.accounts_api``); by default in memory, for the
        #: site at http://localhost:8000 (an API embedded in a test)
        self.accounts = AccountsApi(
            accounts if accounts is not None else Accounts(supervisor.players.accounts, LOCAL_SITE),
            secure=secure_cookies, body=_body, ratings=lambda: supervisor.players.ratings,
            deleted=supervisor.account_gone)
        #: the leaderboard and players' pages (``http.players_api``)
        self.players = players_api.PlayersApi(lambda: supervisor.players.ratings)
        #: In a cluster: every process's figures and HAProxy's view, for /status.json.
        self.cluster_status: Callable[[], Awaitable[dict[str, Any]]] | None = None

    async def __call__(self, request: HttpRequest) -> HttpResponse:
        try:
            return await self._route(request)
        except TableError as exc:
            return error_response(exc.code, exc.message)
        except _BadBody as exc:
            return error_response(Code.BAD_REQUEST, str(exc))
        except ArchiveError as exc:  # a cluster's database is away: 503, try again
            return error_response(Code.ARCHIVE_UNAVAILABLE, str(exc))

    async def _route(self, request: HttpRequest) -> HttpResponse:
        path, method = request.path, request.method
        games = await self.games(request)  # finished games: /games/..., /api/games...
        if games is not None:
            return games
        refused = self._method_refusal(request)
        if refused is None and path.startswith("/api/"):
            refused = await self.accounts.csrf_refusal(request)
        if refused is not None:
            return refused
        if path.startswith(accounts_api.PREFIX):
            return await self.accounts.handle(request)
        if path == players_api.LIST or players_api.PLAYER.match(path):
            return await self.players.handle(request)
        if path.startswith("/api/"):
            return await self._api(request)
        if path in ("/status.json", "/metrics") and method in _READ:
            refused = operator_refusal(request, self.operator_token)
            if refused is not None:
                return refused
            if path == "/metrics":
                return HttpResponse(200, self.supervisor.metrics.exposition(),
                                    "text/plain; version=0.0.4; charset=utf-8")
            if self.cluster_status is None:
                return HttpResponse(200, await self.supervisor.status_json(), "application/json")
            status = json.loads(await self.supervisor.status_json())
            status.update(await self.cluster_status())
            return json_response(status)
        if path == "/healthz" and method in _READ:  # HAProxy's check (no hidden information)
            return json_response({"ok": True, "draining": self.supervisor.draining})
        if method in _READ:
            page_file = _PAGES.get(path)
            page = (static_response(self.web_root, page_file, method) if page_file is not None
                    else await self.players.page(self.web_root, path, method))
            if page is not None:
                return page
        if method not in _READ:  # the web client's files: every other path only reads
            return method_not_allowed(method, path, _READ)
        found = static_response(self.web_root, path, method)
        if found is not None:
            return found
        return error_response(Code.NOT_FOUND, "nothing here")

    async def _api(self, request: HttpRequest) -> HttpResponse:
        path, method = request.path, request.method
        sup = self.supervisor
        if path == "/api/openapi.json" and method in _READ:
            return json_response(openapi.document())
        if path == "/api/rules" and method in _READ:
            # the rules' data, and this server's own settings that players read about
            settings = {"decision_seconds": sup.config.decision_seconds}
            return json_response({**rules_catalogue(), "table": settings})
        if path == "/api/tables" and method in _READ:
            # this process's tables; in a cluster every process's, from PostgreSQL
            return HttpResponse(200, await sup.directory.lobby_json(), "application/json")
        if path == "/api/tables" and method == "POST":
            body = _body(request, CreateTable)
            if body.rated and await self.accounts.session(request) is None:
                return error_response(Code.SIGNED_OUT, "a rated table is opened by a player "
                                                       "signed in @ $.rated")
            made = await self.quota.create(
                request.client, lambda: sup.create_table(body.players, body.bots, pace=body.pace,
                                                        hints=body.hints, rated=body.rated),
                sup.directory)
            if isinstance(made, HttpResponse):
                return made
            table = made
            return json_response(_table_info(table.id, table.players, table.fingerprint), 201)
        if path == "/api/play-now" and method == "POST":
            play = _body(request, PlayNow)
            _seed_comes_later(play.client_seed, play.commitment)
            joined = None
            name, account = await self._seat_name(request, play.name)

            async def play_now() -> Table:
                nonlocal joined
                table, joined = await sup.play_now(play.players, name, play.bots,
                                                   play.pace, account=account,
                                                   rated=play.rated)
                return table

            made = await self.quota.create(request.client, play_now, sup.directory)
            if isinstance(made, HttpResponse):
                return made
            table = made
            assert joined is not None
            info = _table_info(table.id, table.players, table.fingerprint)
            return json_response({**info, "seat": joined.seat, "token": joined.token}, 201)
        match = _TABLE_ROUTE.match(path)
        if match and method == "POST":
            table_id, verb = match.groups()
            if verb == "join":
                join = _body(request, JoinTable)
                _seed_comes_later(join.client_seed, join.commitment, table_id)
                fingerprint = sup.get(table_id).fingerprint
                result = await sup.join(table_id, *await self._seat_name(request, join.name))
                return json_response({"table": table_id, "seat": result.seat,
                                      "token": result.token, "fingerprint": fingerprint})
            if verb == "commit":
                committed = _body(request, CommitTable)
                await sup.commit(table_id, committed.token, committed.commitment)
                return json_response({"table": table_id, "committed": True})
            if verb == "reveal":
                revealed = _body(request, RevealTable)
                await sup.reveal(table_id, revealed.token, revealed.client_seed)
                return json_response({"table": table_id, "revealed": True})
            start = _body(request, StartTable)
            fixed = await sup.start(table_id, start.token)
            return json_response({"table": table_id, "started": True, "commitments": fixed})
        return error_response(Code.NOT_FOUND, f"no API endpoint {method} {path}")


    async def _seat_name(self, request: HttpRequest, typed: Any) -> tuple[Any, str | None]:
        """The name a seat takes and its account: a signed-in player's account name (an
        account keeps its name: nobody signed in plays under another), else the name
        typed and None."""
        session = await self.accounts.session(request)
        return (typed, None) if session is None else (session.name, session.account_id)

    def _method_refusal(self, request: HttpRequest) -> HttpResponse | None:
        """405 with ``Allow`` for a method a known path does not take; for a ``POST``, 415
        unless it is JSON and 403 from another site's page; None when the request may go
        on."""
        path, method = request.path, request.method
        allowed = _METHODS.get(path) or (("POST",) if _TABLE_ROUTE.match(path) else None) or (
            _READ if players_api.PLAYER.match(path) or players_api.is_page(path) else None)
        if allowed is not None and method not in allowed:
            return method_not_allowed(method, path, allowed)
        if method != "POST" or not path.startswith("/api/"):
            return None
        media, _, params = request.headers.get("content-type", "").partition(";")
        media = media.strip().lower()
        if media != JSON_TYPE:
            given = f"Content-Type {_shown(media)}" if media else "no Content-Type"
            return error_response(Code.UNSUPPORTED_MEDIA_TYPE,
                                  f"send the body as {JSON_TYPE} (this request has {given})")
        charset = _charset(params)
        if charset is not None and charset not in ("utf-8", "utf8"):
            return error_response(Code.UNSUPPORTED_MEDIA_TYPE,
                                  f"send the body as UTF-8 (this request says charset="
                                  f"{_shown(charset)})")
        if not self.origin_ok(request):
            origin = _shown(request.headers["origin"])
            return error_response(Code.CROSS_SITE,
                                  f"a page of another site (Origin {origin}) cannot do this")
        return None


#: Addresses whose buckets and tables are kept before the idle ones are forgotten
_KNOWN_ADDRESSES = 1024
#: A table that counts against its address's cap on open tables.
_OPEN_STATES = (TableState.WAITING, TableState.PLAYING)
#: Seconds a ``too_many_open_tables`` refusal says to wait: a table closes when its game
#: ends or its players leave, which the server cannot foresee, so this is a polite pace
#: for asking again rather than a promise.
OPEN_TABLES_RETRY_AFTER = 30


class _TableQuota:
    """Tables per client address (``TableLimits``): how many it may create per minute (a
    token bucket of ``tables_per_minute`` that refills evenly over a minute) and how many
    of those may be open (waiting or playing) at once; no limits when ``limits`` is None
    (an API embedded in a test). The buckets that are full again, and the addresses that
    hold no open table, are forgotten once many addresses are known (``rate_limit.Keyed``).

    One count per address (``held``): its tables that are still open plus those being
    created this moment. Checking that count and taking a place in it is one step with no
    await between, so parallel requests from one address can never pass the cap together:
    with a cap of 20, 40 creations at once open exactly 20. A table counts from the moment
    its creation is allowed until it finishes or ends (a finished table lingering for
    reconnects does not count); a creation that fails gives its place and its token back.

    In a cluster the open tables are the address's on every live process: this process's
    own from memory, exactly as above, plus the others' from PostgreSQL
    (``TableDirectory.open_elsewhere``, read before the check), which trails their
    creations by a batch of their writers: a few milliseconds. Creations on several
    processes in that same moment may therefore pass the cap together, each process
    holding its own share exactly: by at most what the other processes allowed the address
    in that moment, itself at most the cap each (HAProxy's rate limit, 30 a minute per
    address, bounds it further). While the database cannot be read the cap counts this
    process's tables alone."""

    def __init__(self, limits: TableLimits | None) -> None:
        self.limits = limits
        per_minute = 0 if limits is None else limits.tables_per_minute
        #: by address: its new tables' bucket
        self._buckets: Keyed[str, TokenBucket] = Keyed(
            lambda: TokenBucket(per_minute / 60.0, per_minute), max_keys=_KNOWN_ADDRESSES)
        #: address -> the tables it created (only ever added to in place: never replaced
        #: by a copy taken before an await)
        self._open: dict[str, list[Table]] = {}
        self._creating: Counter[str] = Counter()  #: tables being created now, by address

    def held(self, client: str) -> int:
        """The address's open tables on this process and its creations under way."""
        tables = self._open.get(client)
        if tables is not None:
            tables[:] = [t for t in tables if t.state in _OPEN_STATES]
        return (0 if tables is None else len(tables)) + self._creating[client]

    async def create(
        self, client: str, create: Callable[[], Awaitable[Table]],
        directory: TableDirectory,
    ) -> Table | HttpResponse:
        """``create()``'s table, or a 429 refusal (with ``Retry-After``) that changes
        nothing. A creation that fails (a refused body, a full server) gives its token
        and its place back. ``directory`` counts the address's open tables on the other
        processes (in a cluster) and is told of the new table."""
        limits = self.limits
        if limits is None:
            return await create()
        elsewhere = await self._elsewhere(client, directory)
        # From here until the place is taken nothing awaits: the check and the count are
        # one step for every request of this address.
        bucket = self._buckets[client]
        wait = math.ceil(bucket.wait())
        if wait > 0:
            return _too_many(Code.TOO_MANY_NEW_TABLES, wait,
                             f"at most {limits.tables_per_minute} new tables a minute from "
                             f"one address: try again in {wait} s")
        held = self.held(client)
        if held + elsewhere >= limits.open_tables:
            return _too_many(Code.TOO_MANY_OPEN_TABLES, OPEN_TABLES_RETRY_AFTER,
                             f"at most {limits.open_tables} open tables from one address "
                             f"(this one has {held + elsewhere}): finish or leave one first")
        self._forget()
        bucket.allow()
        self._creating[client] += 1
        try:
            table = await create()
        except BaseException:
            bucket.give_back()
            raise
        finally:
            self._creating[client] -= 1
            if not self._creating[client]:
                del self._creating[client]
        self._open.setdefault(client, []).append(table)  # the list as it is now
        directory.created_by(table, client)
        return table

    @staticmethod
    async def _elsewhere(client: str, directory: TableDirectory) -> int:
        try:
            return await directory.open_elsewhere(client)
        except ArchiveError as exc:
            log.warning("open tables of %s on other processes unknown: %s", client, exc)
            return 0

    def _forget(self) -> None:
        """Forget the addresses that hold no open table, once many are known."""
        if len(self._open) < _KNOWN_ADDRESSES:
            return
        for client, tables in list(self._open.items()):
            if not any(t.state in _OPEN_STATES for t in tables):
                del self._open[client]


def _too_many(code: Code, retry_after: int, message: str) -> HttpResponse:
    """A 429 refusal with ``Retry-After``: every 429 the server sends carries one."""
    return attrs.evolve(error_response(code, message),
                        headers=(("Retry-After", str(retry_after)),))


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


def _seed_comes_later(client_seed: Any, commitment: Any, table_id: str = "<id>") -> None:
    """Refuse a client seed or commitment sent with a join or play-now: the seat's
    commitment goes in only after the answer has shown the fingerprint (so the server
    cannot choose its seed knowing the client's), and its seed only once every
    commitment is fixed (so no seat chooses its seed knowing another's)."""
    if commitment is not _NO_SEED:
        raise _BadBody("the commitment is sent after the fingerprint, with POST "
                       f"/api/tables/{table_id}/commit @ $.commitment")
    if client_seed is not _NO_SEED:
        raise _BadBody("the client seed is revealed once every commitment is fixed, with "
                       f"POST /api/tables/{table_id}/reveal @ $.client_seed")


def _body(request: HttpRequest, kind: type[T]) -> T:
    if not request.body:
        raise _BadBody("the body is empty: send a JSON object ({} takes every default) @ $")
    try:
        text = utf8_text(request.body)
    except ProtocolError as exc:
        raise _BadBody(f"the body must be UTF-8 without a byte order mark: {exc.message}"
                       ) from None
    try:
        data = parse_json(text)
    except ProtocolError as exc:
        raise _BadBody(f"the body is not JSON: {exc.message.removeprefix('not valid JSON: ')}"
                       ) from None
    if not isinstance(data, dict):
        raise _BadBody("the body must be a JSON object @ $")
    try:
        return _conv.structure(data, kind)
    except Exception as exc:
        raise _BadBody(describe_error(exc)) from None

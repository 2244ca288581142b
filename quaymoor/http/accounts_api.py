"""The accounts' HTTP endpoints, the session cookie and the CSRF check
(docs/protocol.md "Accounts", docs/security.md "Accounts and sessions").

Endpoints (every ``POST`` is JSON, same-origin, as every other ``POST`` of the API):

- ``POST /api/accounts/register/options`` ``{"name"}``: the ceremony's id and the options
  for ``navigator.credentials.create``; ``POST /api/accounts/register`` ``{"ceremony",
  "credential"}``: the account made, signed in (201, ``Set-Cookie``).
- ``POST /api/accounts/signin/options`` ``{}`` and ``POST /api/accounts/signin``
  ``{"ceremony", "credential"}``: signed in (200, ``Set-Cookie``).
- ``GET /api/accounts/me``: ``{"signed_in": true}`` with the account (name, since,
  passkeys, sessions, its rating: ``{"rating", "interval", "games"}``) and the session's
  CSRF token, or ``{"signed_in": false}``.
- ``GET /api/accounts/passkeys``: the account's passkeys (``id``, ``created``, ``used``);
  ``POST /api/accounts/passkeys/options`` ``{}`` and ``POST /api/accounts/passkeys``
  ``{"ceremony", "credential"}``: another passkey added (201); ``POST
  /api/accounts/passkeys/remove`` ``{"id"}``: one removed, never the last.
- ``POST /api/accounts/signout`` ``{}`` (this session), ``POST
  /api/accounts/signout-everywhere`` ``{}`` (every session of the account), ``POST
  /api/accounts/delete`` ``{"name"}`` (the account, its passkeys and sessions).

The cookie: ``quaymoor_session``, ``HttpOnly`` (no script reads it), ``SameSite=Lax`` (not
sent with another site's POSTs), ``Path=/``, ``Max-Age`` the session's life, and
``Secure`` when the site is served over HTTPS (``ServerConfig.scheme``).

CSRF: a ``POST`` to the API that carries the cookie of a live session must carry that
session's token in ``X-CSRF-Token`` (403 ``csrf`` otherwise, nothing done), whatever the
endpoint: a table's creation or a join as much as a sign-out. A request without a live
session carries no one's authority and needs none.
"""

from __future__ import annotations

import math
from collections.abc import Awaitable, Callable
from typing import Any, Final

import attrs
import trio

from quaymoor.accounts.service import (
    SESSION_SECONDS,
    AccountRefusal,
    Accounts,
    SignedIn,
    csrf_matches,
)
from quaymoor.actors.rate_limit import Keyed, TokenBucket
from quaymoor.http.frontdoor import HttpRequest, HttpResponse
from quaymoor.http.players_api import shown
from quaymoor.http.responses import READ_METHODS, error_response, json_response
from quaymoor.protocol.codes import Code
from quaymoor.store.accounts import Session
from quaymoor.store.ratings import RatingStore

COOKIE = "quaymoor_session"
CSRF_HEADER = "x-csrf-token"
PREFIX = "/api/accounts/"
#: Ceremonies (registration or sign-in options) one client address may begin: a burst of
#: this many, then one every 2 s; past it, 429 (so that one address cannot use up the
#: server's ``MAX_CEREMONIES`` and keep everyone else from signing in).
CEREMONY_BURST = 30
CEREMONY_RATE = 0.5
#: Seconds an address refused by its bucket waits for the next one (``Retry-After``).
ADDRESS_RETRY_AFTER: Final = math.ceil(1 / CEREMONY_RATE)
#: The methods of each path (the API's 405 and ``Allow``).
METHODS: dict[str, tuple[str, ...]] = {
    PREFIX + "register/options": ("POST",), PREFIX + "register": ("POST",),
    PREFIX + "signin/options": ("POST",), PREFIX + "signin": ("POST",),
    PREFIX + "me": READ_METHODS, PREFIX + "signout": ("POST",),
    PREFIX + "signout-everywhere": ("POST",), PREFIX + "delete": ("POST",),
    PREFIX + "passkeys": (*READ_METHODS, "POST"), PREFIX + "passkeys/options": ("POST",),
    PREFIX + "passkeys/remove": ("POST",),
}
#: The paths that begin a ceremony (each address's bucket of them).
BEGIN: tuple[str, ...] = (PREFIX + "register/options", PREFIX + "signin/options",
                          PREFIX + "passkeys/options")


@attrs.frozen
class NameBody:
    name: Any = None


@attrs.frozen
class Answer:
    ceremony: Any = None
    credential: Any = None


@attrs.frozen
class Empty:
    pass


@attrs.frozen
class PasskeyId:
    id: Any = None


#: The body of each signed-in ``POST`` (others: ``{}``).
_BODIES: dict[str, type] = {PREFIX + "delete": NameBody, PREFIX + "passkeys": Answer,
                            PREFIX + "passkeys/remove": PasskeyId}


def session_token(request: HttpRequest) -> str | None:
    """The session cookie's value, if the request has one."""
    header = request.headers.get("cookie")
    if header is None:
        return None
    for part in header.split(";"):
        key, eq, value = part.strip().partition("=")
        if eq and key == COOKIE:
            return value.strip() or None
    return None


class AccountsApi:
    """The endpoints over ``accounts``; ``body(request, kind)`` parses a JSON body as the
    rest of the API does (raising its 400)."""

    def __init__(self, accounts: Accounts, *, secure: bool, body: Any,
                 ratings: Callable[[], RatingStore] | None = None,
                 deleted: Callable[[str], Awaitable[object]] | None = None) -> None:
        self.accounts = accounts
        #: told an account's id once it is deleted (the tables it sits at show no name)
        self.deleted = deleted
        #: where ``me`` reads the account's rating (None: it says none)
        self.ratings = ratings
        self.secure = secure
        self._body = body
        #: by client address: its ceremonies' bucket
        self._begun: Keyed[str, TokenBucket] = Keyed(
            lambda: TokenBucket(CEREMONY_RATE, CEREMONY_BURST))

    def _cookie(self, value: str, max_age: int) -> tuple[str, str]:
        secure = "; Secure" if self.secure else ""
        return ("Set-Cookie", f"{COOKIE}={value}; Path=/; HttpOnly; SameSite=Lax; "
                              f"Max-Age={max_age}{secure}")

    def _signed_in(self, signed: SignedIn, status: int) -> HttpResponse:
        return json_response({"name": signed.name, "csrf": signed.csrf}, status,
                             (self._cookie(signed.token, int(SESSION_SECONDS)),))

    async def session(self, request: HttpRequest) -> Session | None:
        return await self.accounts.session(session_token(request))

    async def csrf_refusal(self, request: HttpRequest) -> HttpResponse | None:
        """403 for a ``POST`` with a live session's cookie and not its CSRF token."""
        if request.method != "POST" or session_token(request) is None:
            return None
        session = await self.session(request)
        if session is None or csrf_matches(session, request.headers.get(CSRF_HEADER)):
            return None
        return error_response(Code.CSRF, "you are signed in: send your session's token "
                              "(GET /api/accounts/me: csrf) in the X-CSRF-Token header")

    async def handle(self, request: HttpRequest) -> HttpResponse:
        """A request under ``/api/accounts/`` whose method its path takes."""
        try:
            return await self._handle(request)
        except AccountRefusal as exc:
            refused = error_response(exc.code, exc.message)
            if exc.retry_after is not None:
                return HttpResponse(refused.status, refused.body, refused.content_type,
                                    (("Retry-After", str(exc.retry_after)),))
            return refused

    async def _handle(self, request: HttpRequest) -> HttpResponse:
        path, accounts = request.path, self.accounts
        if path in BEGIN and not self._begun[request.client].allow():
            raise AccountRefusal(Code.TOO_MANY_CEREMONIES, "this address asked for too many "
                                 "passkey options (to register, sign in or add one): try "
                                 f"again in {ADDRESS_RETRY_AFTER} s",
                                 retry_after=ADDRESS_RETRY_AFTER)
        if path == PREFIX + "register/options":
            return json_response(await accounts.register_options(
                self._body(request, NameBody).name))
        if path == PREFIX + "register":
            answer = self._body(request, Answer)
            return self._signed_in(await accounts.register(answer.ceremony,
                                                           answer.credential), 201)
        if path == PREFIX + "signin/options":
            self._body(request, Empty)
            return json_response(await accounts.signin_options())
        if path == PREFIX + "signin":
            answer = self._body(request, Answer)
            return self._signed_in(await accounts.signin(answer.ceremony,
                                                         answer.credential), 200)
        session = await self.session(request)
        if path == PREFIX + "me":  # who this browser is: a question, not a refusal
            if session is None:
                return json_response({"signed_in": False})
            try:
                account = await accounts.account(session)
            except AccountRefusal:  # deleted on another process a moment ago
                return json_response({"signed_in": False})
            rating = {}
            if self.ratings is not None:
                store = self.ratings()
                found, games = await trio.to_thread.run_sync(store.rating, session.account_id)
                rating = {"rating": {**shown(found), "games": games}}
            return json_response({"signed_in": True, **account, **rating,
                                  "csrf": session.csrf})
        # the body first: a malformed request is refused as such, signed in or not
        body: Any = None
        if request.method == "POST":
            body = self._body(request, _BODIES.get(path, Empty))
        if session is None:
            return error_response(Code.SIGNED_OUT, "you are not signed in (no session, or "
                                  "it ended): sign in with your passkey")
        if path.startswith(PREFIX + "passkeys"):
            return await self._passkeys(request, session, body)
        token = session_token(request)
        assert token is not None
        if path == PREFIX + "signout":
            await accounts.signout(token)
            return json_response({"signed_out": 1}, headers=(self._cookie("", 0),))
        if path == PREFIX + "signout-everywhere":
            ended = await accounts.signout_everywhere(session)
            return json_response({"signed_out": ended}, headers=(self._cookie("", 0),))
        assert path == PREFIX + "delete"
        await accounts.delete(session, body.name)
        if self.deleted is not None:
            await self.deleted(session.account_id)
        return json_response({"deleted": session.name}, headers=(self._cookie("", 0),))

    async def _passkeys(self, request: HttpRequest, session: Session, body: Any
                        ) -> HttpResponse:
        """The signed-in account's passkeys: listed, another added, one removed."""
        path, accounts = request.path, self.accounts
        if path == PREFIX + "passkeys/options":
            return json_response(await accounts.passkey_options(session))
        if path == PREFIX + "passkeys/remove":
            left = await accounts.remove_passkey(session, body.id)
            return json_response({"removed": body.id, "passkeys": left})
        if request.method == "POST":
            held = await accounts.add_passkey(session, body.ceremony, body.credential)
            return json_response({"passkeys": held}, 201)
        return json_response({"passkeys": [
            {"id": p.id, "created": p.created_at, "used": p.used_at}
            for p in await accounts.passkeys(session)]})


__all__ = ["COOKIE", "CSRF_HEADER", "METHODS", "PREFIX", "AccountsApi", "session_token"]

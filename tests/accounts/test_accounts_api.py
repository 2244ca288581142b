"""Accounts through the HTTP API (``HttpApi``, no sockets), with a software passkey: a
person registers, signs out and in, signs out everywhere and deletes the account; a
stranger's forged, replayed or malformed answers, look-alike names, requests without the
CSRF token and another account's session each get a clear refusal and change nothing."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import pytest
import trio

from quaymoor.accounts.passkeys import RelyingParty
from quaymoor.accounts.service import CEREMONY_SECONDS, Accounts
from quaymoor.actors.supervisor import Supervisor
from quaymoor.config import TableConfig
from quaymoor.http.api import HttpApi
from quaymoor.http.frontdoor import HttpRequest
from tests.accounts.soft_authenticator import SoftAuthenticator
from tests.actors.running import running

ORIGIN = "http://localhost:8000"
SITE = RelyingParty("localhost", (ORIGIN,))


class Clock:
    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


class Browser:
    """One browser: its cookie jar (the session cookie), the CSRF token its page read,
    and its passkeys."""

    def __init__(self, api: HttpApi, authenticator: SoftAuthenticator | None = None) -> None:
        self.api = api
        self.cookie: str | None = None
        self.csrf: str | None = None
        self.keys = authenticator or SoftAuthenticator()
        self.set_cookies: list[str] = []
        self.client = "::1"  #: the address the server sees
        self.retry_after: str | None = None

    async def call(self, method: str, path: str, body: Any = None, *,
                   csrf: bool = True, origin: str | None = ORIGIN) -> tuple[int, Any]:
        headers = {"content-type": "application/json", "host": "localhost:8000"}
        if origin is not None:
            headers["origin"] = origin
        if self.cookie is not None:
            headers["cookie"] = f"theme=dark; quaymoor_session={self.cookie}"
        if csrf and self.csrf is not None:
            headers["x-csrf-token"] = self.csrf
        raw = b"" if body is None else json.dumps(body).encode()
        response = await self.api(HttpRequest(method, path, {}, headers, raw, self.client))
        self.retry_after = dict(response.headers).get("Retry-After")
        for name, value in response.headers:
            if name == "Set-Cookie":
                self.set_cookies.append(value)
                token = value.split(";", 1)[0].split("=", 1)[1]
                self.cookie = token or None
        answer = json.loads(response.body) if response.body else None
        if isinstance(answer, dict) and "csrf" in answer:
            self.csrf = answer["csrf"]
        return response.status, answer

    async def register(self, name: str) -> tuple[int, Any]:
        status, made = await self.call("POST", "/api/accounts/register/options",
                                       {"name": name})
        if status != 200:
            return status, made
        answer = self.keys.register(made["options"], ORIGIN)
        return await self.call("POST", "/api/accounts/register",
                               {"ceremony": made["ceremony"], "credential": answer})

    async def sign_in(self, **forge: Any) -> tuple[int, Any]:
        status, made = await self.call("POST", "/api/accounts/signin/options", {})
        assert status == 200, made
        origin = forge.pop("origin", ORIGIN)
        answer = self.keys.sign_in(made["options"], origin, **forge)
        return await self.call("POST", "/api/accounts/signin",
                               {"ceremony": made["ceremony"], "credential": answer})

    async def me(self) -> tuple[int, Any]:
        return await self.call("GET", "/api/accounts/me")


def code(answer: tuple[int, Any]) -> tuple[int, str]:
    return answer[0], answer[1]["error"]["code"]


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
async def api(clock: Clock) -> AsyncIterator[HttpApi]:
    sup = Supervisor(TableConfig(bot_delay=0.0), max_tables=4)
    async with running(sup):
        yield HttpApi(sup, accounts=Accounts(sup.players.accounts, SITE, clock=clock))


async def test_register_sign_out_and_in_with_a_passkey(api: HttpApi) -> None:
    ada = Browser(api)
    status, made = await ada.register("Ada Lovelace")
    assert status == 201 and made["name"] == "Ada Lovelace"
    cookie = ada.set_cookies[-1]
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie and "Path=/" in cookie
    assert "Max-Age=2592000" in cookie and "Secure" not in cookie
    status, me = await ada.me()
    assert status == 200
    assert (me["name"], me["passkeys"], me["sessions"]) == ("Ada Lovelace", 1, 1)
    assert await ada.call("POST", "/api/accounts/signout", {}) == (200, {"signed_out": 1})
    assert ada.cookie is None and "Max-Age=0" in ada.set_cookies[-1]
    assert await ada.me() == (200, {"signed_in": False})
    assert code(await ada.call("POST", "/api/accounts/signout", {})) == (401, "signed_out")
    ada.csrf = None
    status, back = await ada.sign_in()
    assert (status, back["name"]) == (200, "Ada Lovelace")
    assert (await ada.me())[1]["name"] == "Ada Lovelace"
    [key] = ada.keys.credentials.values()
    assert key.sign_count == 1


async def test_a_replayed_or_forged_answer_signs_nobody_in(api: HttpApi) -> None:
    ada = Browser(api)
    assert (await ada.register("ada"))[0] == 201
    eve = Browser(api, ada.keys)  # holds ada's passkey's answers, not her session
    status, made = await eve.call("POST", "/api/accounts/signin/options", {})
    answer = ada.keys.sign_in(made["options"], ORIGIN)
    body = {"ceremony": made["ceremony"], "credential": answer}
    assert (await eve.call("POST", "/api/accounts/signin", body))[0] == 200
    thief = Browser(api, ada.keys)  # a copy of her passkey, but no session
    # the same answer again: its ceremony was taken by the first
    assert code(await thief.call("POST", "/api/accounts/signin", body)) == (
        404, "ceremony_gone")
    # the same answer under a new ceremony: the challenge is not the new one's
    _, fresh = await thief.call("POST", "/api/accounts/signin/options", {})
    replay = {"ceremony": fresh["ceremony"], "credential": answer}
    refused = await thief.call("POST", "/api/accounts/signin", replay)
    assert code(refused) == (400, "passkey_refused")
    assert "challenge" in refused[1]["error"]["message"]
    forged: list[dict[str, Any]] = [{"origin": "http://evil.example"}, {"rp_id": "evil.example"},
              {"tamper_signature": True}, {"user_present": False}, {"sign_count": 1}]
    for forge in forged:
        status, answer = await thief.sign_in(**forge)
        assert (status, answer["error"]["code"]) == (400, "passkey_refused"), forge
        assert thief.cookie is None
    # none of it moved the passkey's counter or opened a session
    assert (await eve.me())[1]["sessions"] == 2


async def test_another_sites_or_unknown_passkey_is_refused(api: HttpApi) -> None:
    ada, bob = Browser(api), Browser(api)
    assert (await ada.register("ada"))[0] == 201
    assert (await bob.register("bob"))[0] == 201
    stranger = Browser(api)
    stranger.keys.register({"challenge": "AAAA", "rp": {"id": "localhost", "name": "x"},
                            "user": {"id": "AQID", "name": "x", "displayName": "x"},
                            "pubKeyCredParams": [{"type": "public-key", "alg": -7}]}, ORIGIN)
    assert code(await stranger.sign_in()) == (400, "passkey_refused")
    # ada's credential id with bob's user handle: the passkey names another account
    _, made = await stranger.call("POST", "/api/accounts/signin/options", {})
    answer = ada.keys.sign_in(made["options"], ORIGIN)
    [bobs] = bob.keys.credentials.values()
    from webauthn.helpers import bytes_to_base64url

    answer["response"]["userHandle"] = bytes_to_base64url(bobs.user_handle)
    refused = await stranger.call("POST", "/api/accounts/signin",
                                  {"ceremony": made["ceremony"], "credential": answer})
    assert code(refused) == (400, "passkey_refused") and stranger.cookie is None


@pytest.mark.parametrize("credential", [
    None, "x", 7, [], {}, {"id": "!!", "rawId": "!!"}, {"rawId": "A" * 5000},
    {"rawId": "AAAA", "response": {"userHandle": "%%%"}},
    {"rawId": "AAAA", "response": "x", "type": "public-key"},
])
async def test_malformed_answers_get_clear_errors(api: HttpApi, credential: Any) -> None:
    someone = Browser(api)
    for kind in ("signin", "register"):
        path = f"/api/accounts/{kind}/options"
        _, made = await someone.call("POST", path, {} if kind == "signin" else {"name": "zed"})
        answer = await someone.call("POST", f"/api/accounts/{kind}",
                                    {"ceremony": made["ceremony"], "credential": credential})
        assert code(answer) == (400, "passkey_refused"), answer
        message = answer[1]["error"]["message"]
        assert "@ $.credential" in message and len(message) < 400
        message.encode("utf-8")
    assert code(await someone.call("POST", "/api/accounts/signin", {"credential": {}})) == (
        400, "bad_request")
    assert code(await someone.call("POST", "/api/accounts/signin",
                                   {"ceremony": "x" * 65, "credential": {}})) == (
        400, "bad_request")
    for odd in ("\ud83d\ud858x", "a b", "x\u0000", "\u00e9t\u00e9"):  # a lone surrogate too
        assert code(await someone.call("POST", "/api/accounts/register",
                                       {"ceremony": odd, "credential": {}})) == (
            400, "bad_request")
    assert code(await someone.call("POST", "/api/accounts/signin",
                                   {"ceremony": "nope", "credential": {}})) == (
        404, "ceremony_gone")
    assert code(await someone.call("POST", "/api/accounts/signin",
                                   {"ceremony": "x", "credential": {}, "more": 1})) == (
        400, "bad_request")
    assert await someone.me() == (200, {"signed_in": False})


async def test_an_expired_ceremony_is_gone(api: HttpApi, clock: Clock) -> None:
    zed = Browser(api)
    _, made = await zed.call("POST", "/api/accounts/register/options", {"name": "zed"})
    clock.now += CEREMONY_SECONDS + 1
    answer = zed.keys.register(made["options"], ORIGIN)
    assert code(await zed.call("POST", "/api/accounts/register",
                               {"ceremony": made["ceremony"], "credential": answer})) == (
        404, "ceremony_gone")
    assert (await zed.register("zed"))[0] == 201  # the name was never taken


@pytest.mark.parametrize("name, why", [
    ("a", "2 to 20"), ("x" * 21, "2 to 20"), ("ada\x00", "U+0000"), ("ada\u200f", "U+200F"),
    ("a\u200bda", "U+200B"), ("\ufeffada", "U+FEFF"), ("ad\ud800a", "U+D800"),
    ("ad\ta", "U+0009"), ("ada\u2028x", "U+2028"), ("<script>", "U+003C"),
    ("\u0410da", "script"),  # a Cyrillic A
])
async def test_names_that_cannot_be_used(api: HttpApi, name: str, why: str) -> None:
    someone = Browser(api)
    refused = await someone.call("POST", "/api/accounts/register/options", {"name": name})
    assert code(refused) == (400, "bad_name")
    assert why in refused[1]["error"]["message"] and "@ $.name" in refused[1]["error"]["message"]


@pytest.mark.parametrize("name", [None, 7, ["ada"], {"n": "ada"}, True])
async def test_a_name_must_be_a_string(api: HttpApi, name: Any) -> None:
    assert code(await Browser(api).call("POST", "/api/accounts/register/options",
                                        {"name": name})) == (400, "bad_name")


async def test_names_are_unique_by_how_they_look(api: HttpApi) -> None:
    assert (await Browser(api).register("alice"))[0] == 201
    fullwidth, cyrillic = "\uff41\uff4c\uff49\uff43\uff45", "\u0430\u04cf\u0456\u0441\u0435"
    for twin in ("ALICE", "Alice", fullwidth, "al1ce", cyrillic):
        assert code(await Browser(api).register(twin)) == (409, "name_taken"), twin
    assert (await Browser(api).register("alicia"))[0] == 201


async def test_two_registrations_racing_for_a_name_make_one_account(api: HttpApi) -> None:
    first, second = Browser(api), Browser(api)
    _, one = await first.call("POST", "/api/accounts/register/options", {"name": "Mo"})
    _, two = await second.call("POST", "/api/accounts/register/options", {"name": "mo"})
    a = first.keys.register(one["options"], ORIGIN)
    b = second.keys.register(two["options"], ORIGIN)
    assert (await first.call("POST", "/api/accounts/register",
                             {"ceremony": one["ceremony"], "credential": a}))[0] == 201
    assert code(await second.call("POST", "/api/accounts/register",
                                  {"ceremony": two["ceremony"], "credential": b})) == (
        409, "name_taken")
    assert second.cookie is None


async def test_a_signed_in_post_needs_the_csrf_token(api: HttpApi) -> None:
    ada = Browser(api)
    assert (await ada.register("ada"))[0] == 201
    before = len(api.supervisor.tables)
    for path, body in [("/api/tables", {"players": 2}), ("/api/accounts/signout", {}),
                       ("/api/accounts/signout-everywhere", {}),
                       ("/api/accounts/delete", {"name": "ada"}),
                       ("/api/play-now", {"name": "ada", "players": 2})]:
        refused = await ada.call("POST", path, body, csrf=False)
        assert code(refused) == (403, "csrf"), path
        ada.csrf, token = "forged-" + (ada.csrf or ""), ada.csrf
        assert code(await ada.call("POST", path, body)) == (403, "csrf"), path
        ada.csrf = token
    assert len(api.supervisor.tables) == before
    assert (await ada.me())[1]["sessions"] == 1  # still signed in, still there
    assert (await ada.call("POST", "/api/tables", {"players": 2}))[0] == 201
    # a guest (no session) needs no token
    assert (await Browser(api).call("POST", "/api/tables", {"players": 2}))[0] == 201


async def test_another_accounts_session_cannot_act_for_it(api: HttpApi) -> None:
    ada, bob = Browser(api), Browser(api)
    assert (await ada.register("ada"))[0] == 201
    assert (await bob.register("bob"))[0] == 201
    bob_token = bob.csrf
    bob.csrf = ada.csrf  # ada's token with bob's cookie
    assert code(await bob.call("POST", "/api/accounts/delete", {"name": "bob"})) == (
        403, "csrf")
    bob.csrf = bob_token
    assert code(await bob.call("POST", "/api/accounts/delete", {"name": "ada"})) == (
        400, "bad_request")
    assert (await ada.me())[1]["name"] == "ada"
    assert (await bob.me())[1]["name"] == "bob"


async def test_sign_out_everywhere_ends_every_session(api: HttpApi) -> None:
    phone = Browser(api)
    assert (await phone.register("ada"))[0] == 201
    laptop = Browser(api, phone.keys)
    assert (await laptop.sign_in())[0] == 200
    assert (await laptop.me())[1]["sessions"] == 2
    assert await laptop.call("POST", "/api/accounts/signout-everywhere", {}) == (
        200, {"signed_out": 2})
    assert await phone.me() == (200, {"signed_in": False})
    assert await laptop.me() == (200, {"signed_in": False})


async def test_deleting_an_account_removes_it_and_frees_the_name(api: HttpApi) -> None:
    ada = Browser(api)
    assert (await ada.register("ada"))[0] == 201
    other = Browser(api, ada.keys)
    assert (await other.sign_in())[0] == 200
    assert code(await ada.call("POST", "/api/accounts/delete", {"name": "Ada"})) == (
        400, "bad_request")
    assert await ada.call("POST", "/api/accounts/delete", {"name": "ada"}) == (
        200, {"deleted": "ada"})
    assert await ada.me() == (200, {"signed_in": False})
    assert await other.me() == (200, {"signed_in": False})  # every session went with it
    gone = Browser(api, ada.keys)
    assert code(await gone.sign_in()) == (400, "passkey_refused")
    assert (await Browser(api).register("ada"))[0] == 201


async def test_another_sites_page_cannot_sign_in(api: HttpApi) -> None:
    someone = Browser(api)
    refused = await someone.call("POST", "/api/accounts/signin/options", {},
                                 origin="http://evil.example")
    assert code(refused) == (403, "cross_site")
    assert code(await someone.call("GET", "/api/accounts/signin")) == (
        405, "method_not_allowed")


async def test_a_signed_in_player_sits_under_the_account_name(api: HttpApi) -> None:
    """An account keeps its name: whatever name a signed-in player types, the seat takes
    the account's (so nobody signed in plays under another's name); a guest's is as
    typed."""
    ada = Browser(api)
    assert (await ada.register("Ada"))[0] == 201
    status, made = await ada.call("POST", "/api/play-now", {"name": "Bob", "players": 3})
    assert status == 201
    table = made["table"]
    seats = api.supervisor.get(table).summary()["seats"]
    assert seats[0]["name"] == "Ada"
    guest = Browser(api)
    assert (await guest.call("POST", f"/api/tables/{table}/join", {"name": "Cy"}))[0] == 200
    bede = Browser(api)
    assert (await bede.register("Bede"))[0] == 201
    assert (await bede.call("POST", f"/api/tables/{table}/join", {"name": "Ada"}))[0] == 200
    names = [s["name"] for s in api.supervisor.get(table).summary()["seats"]]
    assert names == ["Ada", "Cy", "Bede"]


async def test_one_address_cannot_use_up_the_ceremonies(api: HttpApi) -> None:
    """A burst of 30 ceremonies an address, then one every 2 s: the next is 429 with
    Retry-After 2, after which it is served again; another address is served as before."""
    flood = Browser(api)
    for i in range(30):
        path = "/api/accounts/signin/options" if i % 2 else "/api/accounts/register/options"
        status, _ = await flood.call("POST", path, {} if i % 2 else {"name": "zed"})
        assert status == 200, i
    refused = await flood.call("POST", "/api/accounts/signin/options", {})
    assert code(refused) == (429, "too_many_ceremonies") and flood.retry_after == "2"
    assert "try again in 2 s" in refused[1]["error"]["message"]
    await trio.sleep(int(flood.retry_after))  # a client that waits as told is served
    assert (await flood.call("POST", "/api/accounts/signin/options", {}))[0] == 200
    other = Browser(api)
    other.client = "192.0.2.7"
    assert (await other.register("zed"))[0] == 201

"""An account's passkeys through the HTTP API: a person signed in on one device adds a
passkey on another and signs in with either; lists them; removes one, never the last; and
every refusal (a ceremony of another account's, an authenticator that holds one already, a
stranger's id, too many, signed out, no CSRF token) is clear and changes nothing."""

from __future__ import annotations

from typing import Any

import pytest
from webauthn.helpers import bytes_to_base64url

from quaymoor.http.api import HttpApi
from quaymoor.store.accounts import MAX_PASSKEYS
from tests.accounts.soft_authenticator import SoftAuthenticator, SoftAuthenticatorError
from tests.accounts.test_accounts_api import ORIGIN, Browser, api, clock, code

__all__ = ["api", "clock"]  # the fixtures, used by name

PASSKEYS = "/api/accounts/passkeys"


async def add_passkey(browser: Browser, keys: SoftAuthenticator | None = None
                      ) -> tuple[int, Any]:
    """Ask for the options and answer them with ``keys`` (the browser's own by default)."""
    status, made = await browser.call("POST", PASSKEYS + "/options", {})
    if status != 200:
        return status, made
    answer = (keys or browser.keys).register(made["options"], ORIGIN)
    return await browser.call("POST", PASSKEYS, {"ceremony": made["ceremony"],
                                                 "credential": answer})


async def listed(browser: Browser) -> list[dict[str, Any]]:
    status, found = await browser.call("GET", PASSKEYS)
    assert status == 200, found
    keys: list[dict[str, Any]] = found["passkeys"]
    return keys


async def test_a_second_device_gets_a_passkey_and_signs_in_with_it(api: HttpApi) -> None:
    laptop = Browser(api)
    assert (await laptop.register("Ada"))[0] == 201
    phone_keys = SoftAuthenticator()
    # the phone signs in (with the laptop's passkey, as a cross-device sign-in would) ...
    phone = Browser(api, laptop.keys)
    assert (await phone.sign_in())[0] == 200
    # ... and makes a passkey of its own for the account
    assert await add_passkey(phone, phone_keys) == (201, {"passkeys": 2})
    status, me = await laptop.me()
    assert (me["name"], me["passkeys"]) == ("Ada", 2)
    keys = await listed(phone)
    assert len(keys) == 2 and keys == await listed(laptop)
    assert {k["id"] for k in keys} == {bytes_to_base64url(i) for held in (laptop.keys, phone_keys)
                                       for i in held.credentials}
    # the new passkey signs in alone, to the same account
    fresh = Browser(api, phone_keys)
    status, signed = await fresh.sign_in()
    assert (status, signed["name"]) == (200, "Ada")
    used = {k["id"]: k["used"] for k in await listed(fresh)}
    assert used[bytes_to_base64url(next(iter(phone_keys.credentials)))] is not None


async def test_a_passkey_is_removed_but_never_the_last(api: HttpApi) -> None:
    ada = Browser(api)
    await ada.register("Ada")
    (only,) = await listed(ada)
    last = await ada.call("POST", PASSKEYS + "/remove", {"id": only["id"]})
    assert code(last) == (409, "last_passkey") and "only passkey" in last[1]["error"]["message"]
    other = SoftAuthenticator()
    assert (await add_passkey(ada, other))[0] == 201
    assert await ada.call("POST", PASSKEYS + "/remove", {"id": only["id"]}) == (
        200, {"removed": only["id"], "passkeys": 1})
    # the removed passkey signs nobody in; the other still does
    assert code(await Browser(api, ada.keys).sign_in()) == (400, "passkey_refused")
    assert (await Browser(api, other).sign_in())[0] == 200
    assert code(await ada.call("POST", PASSKEYS + "/remove", {"id": only["id"]})) == (
        404, "unknown_passkey")


async def test_another_accounts_passkey_cannot_be_removed(api: HttpApi) -> None:
    ada, bob = Browser(api), Browser(api)
    await ada.register("Ada")
    await bob.register("Bob")
    await add_passkey(bob, SoftAuthenticator())
    bobs = [k["id"] for k in await listed(bob)]
    assert code(await ada.call("POST", PASSKEYS + "/remove", {"id": bobs[0]})) == (
        404, "unknown_passkey")
    assert len(await listed(bob)) == 2


@pytest.mark.parametrize("bad", [None, 7, "", "not base64url!", "a" * 1365, "\ud800", ["x"]])
async def test_a_malformed_passkey_id_is_refused(api: HttpApi, bad: Any) -> None:
    ada = Browser(api)
    await ada.register("Ada")
    refused = await ada.call("POST", PASSKEYS + "/remove", {"id": bad})
    assert code(refused) == (400, "bad_request") and "$.id" in refused[1]["error"]["message"]
    assert len(await listed(ada)) == 1


async def test_an_authenticator_holding_one_of_the_accounts_passkeys_makes_no_other(
        api: HttpApi) -> None:
    ada = Browser(api)
    await ada.register("Ada")
    status, made = await ada.call("POST", PASSKEYS + "/options", {})
    assert status == 200
    (excluded,) = made["options"]["excludeCredentials"]
    assert excluded["id"] == (await listed(ada))[0]["id"]
    assert made["options"]["user"]["name"] == "Ada"
    with pytest.raises(SoftAuthenticatorError, match="excluded"):
        ada.keys.register(made["options"], ORIGIN)
    # another authenticator makes one (a passkey of another account's, or one the
    # account holds, is refused by the store: tests/store/test_passkeys_store.py)
    assert await add_passkey(ada, SoftAuthenticator()) == (201, {"passkeys": 2})


async def test_a_ceremony_of_another_account_is_gone(api: HttpApi) -> None:
    ada, bob = Browser(api), Browser(api)
    await ada.register("Ada")
    await bob.register("Bob")
    status, made = await ada.call("POST", PASSKEYS + "/options", {})
    assert status == 200
    answer = SoftAuthenticator().register(made["options"], ORIGIN)
    stolen = await bob.call("POST", PASSKEYS, {"ceremony": made["ceremony"],
                                               "credential": answer})
    assert code(stolen) == (404, "ceremony_gone")
    assert len(await listed(ada)) == 1 and len(await listed(bob)) == 1
    # nor may a sign-in's or registration's ceremony add a passkey
    status, signin = await ada.call("POST", "/api/accounts/signin/options", {})
    wrong = await ada.call("POST", PASSKEYS, {"ceremony": signin["ceremony"],
                                              "credential": answer})
    assert code(wrong) == (404, "ceremony_gone")


@pytest.mark.parametrize("credential", [None, "s", [], 7])
async def test_a_credential_that_is_no_object_is_refused_naming_it_once(
        api: HttpApi, credential: Any) -> None:
    ada = Browser(api)
    await ada.register("Ada")
    _, made = await ada.call("POST", PASSKEYS + "/options", {})
    refused = await ada.call("POST", PASSKEYS, {"ceremony": made["ceremony"],
                                                "credential": credential})
    assert code(refused) == (400, "passkey_refused")
    assert refused[1]["error"]["message"].endswith("object (PublicKeyCredential.toJSON()) "
                                                   "@ $.credential"), refused
    _, made = await Browser(api).call("POST", "/api/accounts/register/options",
                                      {"name": "Bob"})
    refused = await ada.call("POST", "/api/accounts/register",
                             {"ceremony": made["ceremony"], "credential": credential})
    assert refused[1]["error"]["message"].count("@ $") == 1, refused


async def test_an_account_holds_at_most_so_many_passkeys(api: HttpApi) -> None:
    ada = Browser(api)
    await ada.register("Ada")
    for held in range(2, MAX_PASSKEYS + 1):
        assert await add_passkey(ada, SoftAuthenticator()) == (201, {"passkeys": held})
    # refused at the options: nobody is asked to make a passkey that would be refused
    refused = await ada.call("POST", PASSKEYS + "/options", {})
    assert code(refused) == (409, "too_many_passkeys")
    assert len(await listed(ada)) == MAX_PASSKEYS


async def test_signed_out_or_without_the_token_nothing_changes(api: HttpApi) -> None:
    ada = Browser(api)
    await ada.register("Ada")
    (only,) = await listed(ada)
    assert code(await ada.call("POST", PASSKEYS + "/options", {}, csrf=False)) == (403, "csrf")
    assert code(await ada.call("POST", PASSKEYS + "/remove", {"id": only["id"]},
                               csrf=False)) == (403, "csrf")
    stranger = Browser(api)
    for method, path, body in (("GET", PASSKEYS, None), ("POST", PASSKEYS + "/options", {}),
                               ("POST", PASSKEYS + "/remove", {"id": only["id"]})):
        assert code(await stranger.call(method, path, body)) == (401, "signed_out")
    # a malformed body is refused as such first, signed in or not
    assert code(await stranger.call("POST", PASSKEYS, {"ceremony": 1, "x": 2}))[0] == 400
    assert len(await listed(ada)) == 1

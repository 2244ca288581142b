"""The account page (/account) in Chromium, with Chromium's virtual authenticator (the
DevTools protocol's WebAuthn domain) as the player's passkey, against a server of its own
reached as http://localhost:<port> (with no --public-origin and --port 0 the server makes
passkeys for that origin; WebAuthn takes no IP address).

- Ada registers, sees her name and "1 passkey"; the lobby's top bar links to her account
  by her name; she signs out (the signed-out forms), signs in with her passkey, creates a
  table from the lobby (its POSTs carry the session's X-CSRF-Token, or the server would
  refuse them) and signs out everywhere (the server then says signed out).
- Bede, in a fresh browser whose WebAuthn has no JSON helpers (so passkey_json.js's
  conversions do the work), registers by keyboard in the page's focus order, is refused a
  wrong confirmation, and deletes his account by typing his name; /api/accounts/me then
  says signed out. His lobby, before he signed in, was told he was signed out (200: asking
  is never an error on the console).
- On http://127.0.0.1:<port>/account the page links to the same page at localhost instead
  of showing the forms, and the link leads there.
- axe-core finds nothing serious in any state; nothing is wider than a 360 px phone.

Screenshots (phone 360x740, laptop 1366x768): /tmp/account-<state>-<size>.png.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from tests.web import axe

SIZES = {"phone": (360, 740), "laptop": (1366, 768)}
SHOTS = Path("/tmp")
AUTHENTICATOR = {"protocol": "ctap2", "transport": "internal", "hasResidentKey": True,
                 "hasUserVerification": True, "isUserVerified": True,
                 "automaticPresenceSimulation": True}
#: A browser of WebAuthn level 2: no JSON helpers, so the page's own conversions run.
NO_JSON_HELPERS = """
  delete PublicKeyCredential.parseCreationOptionsFromJSON;
  delete PublicKeyCredential.parseRequestOptionsFromJSON;
  delete PublicKeyCredential.prototype.toJSON;
"""
NO_SIDEWAYS_SCROLL = ("() => document.scrollingElement.scrollWidth"
                      " <= document.scrollingElement.clientWidth")


# The browser is the run's one Chromium (tests/web/conftest.py): Playwright's sync API
# runs one instance per process.


class Player:
    """A browser context of its own with one page, a virtual authenticator, and what went
    wrong on its console."""

    def __init__(self, browser: Any, *, level2: bool = False, axe: bool = False) -> None:
        width, height = SIZES["laptop"]
        self.context = browser.new_context(viewport={"width": width, "height": height},
                                           bypass_csp=axe)
        self.page = self.context.new_page()
        self.page.set_default_timeout(15000)
        if level2:
            self.page.add_init_script(NO_JSON_HELPERS)
        self.problems: list[str] = []
        self.requests: list[Any] = []
        self.page.on("pageerror", lambda exc: self.problems.append(f"page error: {exc}"))
        self.page.on("console", self._console)
        self.page.on("request", self._request)  # a method: Playwright wraps its handlers
        self.cdp = self.context.new_cdp_session(self.page)
        self.cdp.send("WebAuthn.enable")
        self.authenticator = self.cdp.send("WebAuthn.addVirtualAuthenticator",
                                           {"options": AUTHENTICATOR})["authenticatorId"]

    def _request(self, request: Any) -> None:
        self.requests.append(request)

    def _console(self, msg: Any) -> None:
        if msg.type == "error":
            self.problems.append(f"console: {msg.text}")

    def passkeys(self) -> list[dict[str, Any]]:
        found: list[dict[str, Any]] = self.cdp.send(
            "WebAuthn.getCredentials", {"authenticatorId": self.authenticator})["credentials"]
        return found

    def me(self) -> tuple[int, Any]:
        """GET /api/accounts/me with this browser's cookies."""
        res = self.context.request.get(self.page.url.split("/account")[0] + "/api/accounts/me")
        return res.status, res.json()

    def close(self) -> None:
        self.context.close()


def status(page: Any) -> str:
    return str(page.locator("#status").inner_text())


def wait_status(page: Any, pattern: str) -> None:
    page.wait_for_function("(re) => new RegExp(re).test(document.querySelector('#status')"
                           ".textContent)", arg=pattern)


def shoot(page: Any, name: str, *, axe_check: bool = False) -> None:
    """Screenshots at both sizes (the whole page), nothing wider than the phone; axe at both
    sizes when the context lets it in."""
    for size, (width, height) in SIZES.items():
        page.set_viewport_size({"width": width, "height": height})
        assert page.evaluate(NO_SIDEWAYS_SCROLL), f"{name} scrolls sideways at {size}"
        page.screenshot(path=str(SHOTS / f"account-{name}-{size}.png"), full_page=True)
        if axe_check:
            axe.check(page, f"account-{name}-{size}")
    width, height = SIZES["laptop"]
    page.set_viewport_size({"width": width, "height": height})


def signed_out_forms_show(page: Any) -> None:
    page.get_by_role("heading", name="Create an account").wait_for()
    assert page.get_by_label("Your name").is_visible()
    assert page.get_by_role("button", name="Create with a passkey").is_visible()
    assert page.get_by_role("button", name="Sign in with a passkey").is_visible()
    assert page.locator("#signed-in").is_hidden()


def signed_in_as(page: Any, name: str, passkeys: str = "1 passkey") -> None:
    page.locator("#me-name", has_text=re.compile(f"^{name}$")).wait_for()
    assert page.locator("#signed-out").is_hidden()
    assert page.locator("#me-passkeys").inner_text() == passkeys
    assert re.fullmatch(r"\d{4}-\d\d-\d\d", page.get_attribute("#me-since", "datetime") or "")
    assert page.locator("#me-since").inner_text()


def register(page: Any, name: str) -> None:
    page.get_by_label("Your name").fill(name)
    page.get_by_role("button", name="Create with a passkey").click()
    signed_in_as(page, name)


def test_register_sign_out_in_create_a_table_and_sign_out_everywhere(
    browser: Any, site: tuple[str, int]
) -> None:
    base, _ = site
    ada = Player(browser)
    page = ada.page
    try:
        page.goto(base + "/account")
        signed_out_forms_show(page)
        assert status(page) == "You are not signed in."
        shoot(page, "signed-out")

        # too short a name: said before anything is asked, the field marked
        page.get_by_label("Your name").fill("A")
        page.get_by_role("button", name="Create with a passkey").click()
        page.locator("#create-name-error", has_text="2 to 20 characters; this one has 1"
                     ).wait_for()
        assert page.get_attribute("#create-name", "aria-invalid") == "true"
        assert page.evaluate("document.activeElement.id") == "create-name"
        assert "create-name-error" in (page.get_attribute("#create-name",
                                                          "aria-describedby") or "")
        shoot(page, "name-error")

        register(page, "Ada")
        assert page.locator("#create-name-error").inner_text() == ""
        assert re.match(r"Welcome, Ada: your account is made", status(page))
        assert page.evaluate("document.activeElement.id") == "me-h"
        assert page.locator("#me-sessions").inner_text() == "1 session (this one)"
        assert len(ada.passkeys()) == 1
        shoot(page, "signed-in")

        # the lobby's top bar: her name, linking to her account
        page.goto(base + "/")
        link = page.locator(".topbar #account-link")
        link.wait_for()
        page.wait_for_function("() => document.querySelector('#account-link')?.textContent"
                               ".startsWith('Ada')")
        assert link.get_attribute("href") == "/account"
        assert page.get_by_role("link", name="Ada (your account)").count() == 1
        page.set_viewport_size({"width": 360, "height": 740})
        page.screenshot(path=str(SHOTS / "account-lobby-topbar-phone.png"))
        page.set_viewport_size({"width": 1366, "height": 768})
        link.click()
        signed_in_as(page, "Ada")

        page.get_by_role("button", name="Sign out", exact=True).click()
        signed_out_forms_show(page)
        assert status(page) == "Signed out on this device."
        assert page.evaluate("document.activeElement.id") == "signin-h"
        assert ada.me() == (200, {"signed_in": False})

        page.get_by_role("button", name="Sign in with a passkey").click()
        signed_in_as(page, "Ada")
        assert status(page) == "Signed in as Ada."
        assert ada.me()[1]["sessions"] == 1

        # a table from the lobby while signed in: each POST carries the session's token
        csrf = ada.me()[1]["csrf"]
        before = len(ada.requests)
        page.goto(base + "/")
        page.wait_for_function("() => document.querySelector('#account-link')?.textContent"
                               ".startsWith('Ada')")
        # she plays under her account's name: the lobby's name field says so
        assert page.input_value("#name") == "Ada"
        assert page.evaluate("document.querySelector('#name').readOnly")
        assert "your account's name" in page.locator("#name-note").inner_text()
        with page.expect_response(lambda r: r.url.endswith("/api/tables")
                                  and r.request.method == "POST") as made:
            page.get_by_role("button", name="Create a table").click()
        assert made.value.status == 201, made.value.text()
        page.wait_for_url(re.compile(r"/\?table=[0-9a-f]{10}$"))
        # the table's top bar, with the fingerprint, still one line on a laptop
        page.locator("#fingerprint .fp-value").wait_for()
        assert page.locator("#account-link").inner_text().startswith("Ada")
        assert page.evaluate("document.querySelector('.topbar').offsetHeight") <= 44
        page.screenshot(path=str(SHOTS / "account-table-topbar-laptop.png"))
        posts = [r for r in ada.requests[before:] if r.method == "POST" and "/api/" in r.url]
        assert {re.sub(r"/api/tables/[0-9a-f]{10}/", "/api/tables/<id>/", r.url.split(base)[1])
                for r in posts} >= {"/api/tables", "/api/tables/<id>/join"}
        assert all(r.headers.get("x-csrf-token") == csrf for r in posts), [
            (r.url, r.headers.get("x-csrf-token")) for r in posts]

        page.goto(base + "/account")
        signed_in_as(page, "Ada")
        page.get_by_role("button", name="Sign out everywhere").click()
        signed_out_forms_show(page)
        assert status(page) == "Signed out everywhere: 1 session ended."
        assert ada.me() == (200, {"signed_in": False})
        page.goto(base + "/")
        page.wait_for_function("() => document.querySelector('#account-link')?.textContent"
                               " === 'Sign in'")
        assert not ada.problems, ada.problems
    finally:
        ada.close()


def test_a_second_account_registered_by_keyboard_and_deleted_by_its_name(
    browser: Any, site: tuple[str, int]
) -> None:
    base, _ = site
    bede = Player(browser, level2=True, axe=True)
    page = bede.page
    try:
        # his lobby, never signed in here, is told he is signed out
        page.goto(base + "/")
        page.locator(".topbar").get_by_role("link", name="Sign in").wait_for()
        assert [r.url for r in bede.requests if "/api/accounts/" in r.url] == [
            base + "/api/accounts/me"]
        page.locator(".topbar").get_by_role("link", name="Sign in").click()
        signed_out_forms_show(page)
        assert page.evaluate("typeof PublicKeyCredential.parseCreationOptionsFromJSON"
                             " + typeof PublicKeyCredential.prototype.toJSON") == \
            "undefinedundefined"
        shoot(page, "signed-out-axe", axe_check=True)

        # the focus order: the top bar's links, sign in, the name, create
        order = []
        for _ in range(8):
            page.keyboard.press("Tab")
            order.append(page.evaluate("document.activeElement.id || "
                                       "document.activeElement.textContent.trim()"))
        assert order == ["Quaymoor", "Lobby", "Players", "How to play", "Account", "signin",
                         "create-name", "create"], order
        page.keyboard.press("Shift+Tab")
        page.keyboard.type("Bede")
        page.keyboard.press("Enter")
        signed_in_as(page, "Bede")
        assert page.evaluate("document.activeElement.id") == "me-h"
        [key] = bede.passkeys()
        assert key["isResidentCredential"]
        shoot(page, "signed-in-axe", axe_check=True)

        # sign out and in again: the level 2 conversions for a sign-in too
        page.get_by_role("button", name="Sign out", exact=True).click()
        signed_out_forms_show(page)
        page.get_by_role("button", name="Sign in with a passkey").click()
        signed_in_as(page, "Bede")

        page.get_by_role("button", name="Delete account…").press("Enter")
        confirm = page.get_by_label("To confirm, type the account's name: Bede")
        confirm.wait_for()
        assert page.evaluate("document.activeElement.id") == "delete-name"
        assert page.get_attribute("#delete-start", "aria-expanded") == "true"
        confirm.fill("bede")
        page.get_by_role("button", name="Delete this account").click()
        page.locator("#delete-name-error", has_text="type its name, Bede, exactly").wait_for()
        assert page.get_attribute("#delete-name", "aria-invalid") == "true"
        assert page.evaluate("document.activeElement.id") == "delete-name"
        assert bede.me()[0] == 200
        shoot(page, "delete-confirm", axe_check=True)

        confirm.fill("Bede")
        page.get_by_role("button", name="Delete this account").click()
        signed_out_forms_show(page)
        wait_status(page, "^The account Bede is deleted")
        assert bede.me() == (200, {"signed_in": False})
        assert not bede.problems, bede.problems
        # the passkey his device still holds signs nobody in (the server's 400, said)
        page.get_by_role("button", name="Sign in with a passkey").click()
        wait_status(page, "^Could not sign in: this passkey is not one of an account here")
        assert page.locator("#signed-out").is_visible()
        shoot(page, "signin-error", axe_check=True)
        assert bede.problems == ["console: Failed to load resource: the server responded with "
                                 "a status of 400 (Bad Request)"], bede.problems
    finally:
        bede.close()


def test_on_an_ip_address_the_page_sends_the_player_to_localhost(
    browser: Any, site: tuple[str, int]
) -> None:
    base, port = site
    someone = Player(browser, axe=True)
    page = someone.page
    try:
        page.goto(f"http://127.0.0.1:{port}/account")
        link = page.get_by_role("link", name=f"Open http://localhost:{port}/account")
        link.wait_for()
        assert link.get_attribute("href") == f"http://localhost:{port}/account"
        text = page.locator("#wrong-host-text").inner_text()
        assert "not on an address such as 127.0.0.1" in text
        assert "open this page at localhost" in text
        for part in ("#signed-out", "#signed-in", "#retry"):
            assert page.locator(part).is_hidden(), part
        assert page.get_by_role("button").count() == 0  # no form at all, only the link
        assert not [r for r in someone.requests if "/api/accounts/" in r.url]
        shoot(page, "wrong-host", axe_check=True)
        link.click()
        page.wait_for_url(base + "/account")
        signed_out_forms_show(page)
        assert not someone.problems, someone.problems
    finally:
        someone.close()

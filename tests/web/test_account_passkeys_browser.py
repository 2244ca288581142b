"""An account's passkeys on the account page, in Chromium with two virtual authenticators
(a laptop's and a phone's):

- Cy registers on the laptop: one passkey listed, its Remove marked unavailable; adding
  one on the laptop again is refused by the laptop itself (it holds one: the options
  exclude it), and said so.
- On the phone he signs in with the laptop's passkey (as the browser's cross-device sign-in
  does: the credential is lent to the phone's authenticator for that sign-in only), adds a
  passkey of the phone's own, sees both listed, and removes the laptop's.
- The laptop's passkey then signs nobody in; the phone's does, alone.

Screenshots: /tmp/account-passkeys-<size>.png (phone 360x740, laptop 1366x768), axe at both.
"""

from __future__ import annotations

from typing import Any

from tests.web.test_account_browser import Player, register, shoot, signed_in_as, wait_status


def keys_listed(page: Any) -> list[str]:
    page.locator("#keys li").first.wait_for()
    return [t.strip() for t in page.locator("#keys li span").all_inner_texts()]


def test_a_passkey_added_on_a_second_device_and_the_first_removed(
    browser: Any, site: tuple[str, int]
) -> None:
    base, _ = site
    laptop, phone = Player(browser), Player(browser, axe=True)
    try:
        page = laptop.page
        page.goto(base + "/account")
        register(page, "Cy")
        [listed] = keys_listed(page)
        assert listed.startswith("Passkey 1, made ") and listed.endswith("never used to sign in")
        only = page.get_by_role("button", name="Remove Passkey 1")
        assert only.get_attribute("aria-disabled") == "true"
        only.dispatch_event("click")  # nothing happens: the only passkey stays
        assert len(keys_listed(page)) == 1 and laptop.me()[1]["passkeys"] == 1
        # the laptop holds one already: it makes no second (the options exclude it)
        page.get_by_role("button", name="Add a passkey on this device").click()
        wait_status(page, "^Could not add the passkey: this device already has a passkey")
        assert len(laptop.passkeys()) == 1 and laptop.me()[1]["passkeys"] == 1

        # the phone signs in with the laptop's passkey, lent for that sign-in only
        [lent] = laptop.passkeys()
        phone.cdp.send("WebAuthn.addCredential", {"authenticatorId": phone.authenticator,
                                                  "credential": lent})
        page = phone.page
        page.goto(base + "/account")
        page.get_by_role("button", name="Sign in with a passkey").click()
        signed_in_as(page, "Cy")
        phone.cdp.send("WebAuthn.removeCredential", {"authenticatorId": phone.authenticator,
                                                     "credentialId": lent["credentialId"]})
        page.get_by_role("button", name="Add a passkey on this device").click()
        wait_status(page, r"^Passkey added: this device can sign in to the account now "
                          r"\(2 passkeys in all\)")
        signed_in_as(page, "Cy", "2 passkeys")
        first, second = keys_listed(page)
        assert "last used" in first and second.endswith("never used to sign in"), (first, second)
        assert page.get_by_role("button", name="Remove Passkey 1").get_attribute(
            "aria-disabled") is None
        shoot(page, "passkeys", axe_check=True)

        page.get_by_role("button", name="Remove Passkey 1").click()
        wait_status(page, r"^Passkey 1 is removed: it signs nobody in any more "
                          r"\(1 passkey left\)")
        signed_in_as(page, "Cy", "1 passkey")
        assert page.evaluate("document.activeElement.id") == "keys-h"
        [kept] = keys_listed(page)
        assert kept.startswith("Passkey 1, made ")  # the phone's, numbered afresh
        [phones] = phone.passkeys()
        assert phones["credentialId"] != lent["credentialId"]

        # the laptop's passkey signs nobody in now; the phone's does
        page = laptop.page
        page.get_by_role("button", name="Sign out", exact=True).click()
        page.get_by_role("button", name="Sign in with a passkey").click()
        wait_status(page, "^Could not sign in: this passkey is not one of an account here")
        page = phone.page
        page.get_by_role("button", name="Sign out", exact=True).click()
        page.get_by_role("button", name="Sign in with a passkey").click()
        signed_in_as(page, "Cy")
        assert not phone.problems, phone.problems
        assert all("Bad Request" in p or "Conflict" in p for p in laptop.problems), \
            laptop.problems
    finally:
        laptop.close()
        phone.close()

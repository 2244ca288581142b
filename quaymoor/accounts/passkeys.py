"""Passkeys: the WebAuthn ceremonies' options and the verification of their answers, by
py_webauthn (``webauthn``), which checks what the spec asks (the challenge, the origin,
the RP ID's hash, user presence, the attestation, the signature, the counter).

``RelyingParty`` is this site as passkeys know it: its RP ID (a domain: ``localhost``
for ``make run``; never an IP address, which WebAuthn does not allow) and the origins its
pages are served from. They come from the configuration (``quaymoor serve --public-origin``),
never from a request's Host header: an answer relayed by a phishing page carries that
page's origin, and only a fixed expectation refuses it.

Registration asks for a discoverable credential (a passkey: the browser offers it without
a name typed) and user verification where the authenticator can, with no attestation
(nobody's make of authenticator is checked or stored). Sign-in sends no list of
credentials: the passkey says whose it is (``userHandle``), and the server looks the
credential up by its id.

A stranger's answer may be anything: every failure, whatever raised it inside the
verifier, is a ``PasskeyRefused`` with a message that names the check that failed, cut and
stripped of control characters.
"""

from __future__ import annotations

import ipaddress
import json
from collections.abc import Sequence
from typing import Any, Final
from urllib.parse import urlsplit

import attrs
from webauthn import (
    generate_authentication_options,
    generate_registration_options,
    options_to_json,
    verify_authentication_response,
    verify_registration_response,
)
from webauthn.helpers import base64url_to_bytes, bytes_to_base64url
from webauthn.helpers.structs import (
    AuthenticatorSelectionCriteria,
    PublicKeyCredentialDescriptor,
    ResidentKeyRequirement,
    UserVerificationRequirement,
)

from quaymoor.accounts.names import printable

#: Milliseconds the browser is given for a ceremony (the server keeps its challenge
#: for ``CEREMONY_SECONDS``, a little longer).
TIMEOUT_MS: Final = 120_000
#: The longest credential id WebAuthn allows (bytes).
MAX_CREDENTIAL_ID: Final = 1023
#: A credential id as it is named (base64url, no padding) to the account's owner:
#: 1 to ``MAX_CREDENTIAL_ID`` bytes, so 1 to 1364 characters.
CREDENTIAL_ID_PATTERN: Final = rf"[A-Za-z0-9_-]{{1,{-(-MAX_CREDENTIAL_ID * 4 // 3)}}}"


class PasskeyRefused(Exception):
    """An answer that does not verify; the message says which check failed."""


@attrs.frozen
class RelyingParty:
    id: str  #: the RP ID: a registrable domain, "localhost" on one machine
    origins: tuple[str, ...]  #: the origins the site's pages are served from
    name: str = "Quaymoor"


def site_from_origin(origin: str) -> RelyingParty:
    """The site of an origin such as ``https://quaymoor.example`` or
    ``http://localhost:8000``: its host name is the RP ID. ``ValueError`` saying why when
    it is not an origin a passkey can be made for (a path, no host, an IP address)."""
    try:
        parts = urlsplit(origin)
        port = parts.port
    except ValueError as exc:
        raise ValueError(f"{origin!r} is not an origin: {exc}") from None
    host = parts.hostname
    if parts.scheme not in ("http", "https") or not host or parts.path not in ("", "/") \
            or parts.query or parts.fragment or parts.username or parts.password:
        raise ValueError(f"{origin!r} is not an origin (scheme://host[:port], nothing more)")
    try:
        ipaddress.ip_address(host)
    except ValueError:
        pass
    else:
        raise ValueError(f"{origin!r}: passkeys need a host name, not an IP address "
                         "(use localhost for this machine)")
    if parts.scheme == "http" and host != "localhost" and not host.endswith(".localhost"):
        raise ValueError(f"{origin!r}: passkeys need https, except on localhost")
    shown = f"{parts.scheme}://{host}" + (f":{port}" if port is not None else "")
    return RelyingParty(host, (shown,))


@attrs.frozen
class NewPasskey:
    credential_id: str  #: base64url
    public_key: str  #: base64url of the COSE key
    sign_count: int


def _refused(what: str, exc: BaseException) -> PasskeyRefused:
    """The verifier's message, made safe to send back (``names.printable``: 160
    characters at most, what does not print as its code point)."""
    return PasskeyRefused(f"{what}: {printable(str(exc) or type(exc).__name__, 160)}")


def registration_options(rp: RelyingParty, user_handle: bytes, name: str,
                         challenge: bytes | None = None,
                         exclude: Sequence[str] = ()) -> tuple[bytes, dict[str, Any]]:
    """(challenge, the options for ``navigator.credentials.create`` as JSON); ``exclude``:
    the account's passkeys (base64url ids), which an authenticator holding one refuses to
    make another beside."""
    options = generate_registration_options(
        rp_id=rp.id, rp_name=rp.name, user_name=name, user_id=user_handle,
        user_display_name=name, challenge=challenge, timeout=TIMEOUT_MS,
        exclude_credentials=[PublicKeyCredentialDescriptor(id=base64url_to_bytes(c))
                             for c in exclude],
        authenticator_selection=AuthenticatorSelectionCriteria(
            resident_key=ResidentKeyRequirement.REQUIRED,
            user_verification=UserVerificationRequirement.PREFERRED))
    return options.challenge, json.loads(options_to_json(options))


def signin_options(rp: RelyingParty,
                   challenge: bytes | None = None) -> tuple[bytes, dict[str, Any]]:
    """(challenge, the options for ``navigator.credentials.get`` as JSON): no list of
    credentials (a passkey names its account)."""
    options = generate_authentication_options(
        rp_id=rp.id, challenge=challenge, timeout=TIMEOUT_MS,
        user_verification=UserVerificationRequirement.PREFERRED)
    return options.challenge, json.loads(options_to_json(options))


def verify_registration(rp: RelyingParty, credential: object,
                        challenge: bytes) -> NewPasskey:
    """The new passkey of a registration's answer (``PublicKeyCredential.toJSON()``), or
    ``PasskeyRefused``."""
    if not isinstance(credential, dict):
        raise PasskeyRefused("the credential must be a JSON object "
                             "(PublicKeyCredential.toJSON()) @ $.credential")
    try:
        verified = verify_registration_response(
            credential=credential, expected_challenge=challenge, expected_rp_id=rp.id,
            expected_origin=list(rp.origins))
    except Exception as exc:  # a stranger's bytes: whatever the verifier raised on them
        raise _refused("the passkey's registration does not verify", exc) from None
    return NewPasskey(bytes_to_base64url(verified.credential_id),
                      bytes_to_base64url(verified.credential_public_key),
                      verified.sign_count)


def credential_id(credential: object) -> str:
    """The id of a sign-in's answer, canonical base64url, checked before anything is
    looked up; ``PasskeyRefused`` when it is missing or malformed."""
    if not isinstance(credential, dict):
        raise PasskeyRefused("the credential must be a JSON object "
                             "(PublicKeyCredential.toJSON()) @ $.credential")
    raw = credential.get("rawId", credential.get("id"))
    if not isinstance(raw, str) or not raw or len(raw) > 2 * MAX_CREDENTIAL_ID:
        raise PasskeyRefused("the credential has no id @ $.credential.rawId")
    try:
        decoded = base64url_to_bytes(raw)
    except Exception:  # not base64url
        raise PasskeyRefused("the credential's id is not base64url @ $.credential.rawId"
                             ) from None
    if not 1 <= len(decoded) <= MAX_CREDENTIAL_ID:
        raise PasskeyRefused("the credential's id is 1 to 1023 bytes @ $.credential.rawId")
    return bytes_to_base64url(decoded)


def user_handle(credential: dict[str, Any]) -> str | None:
    """The account a sign-in's passkey says it belongs to (base64url), if it says."""
    response = credential.get("response")
    handle = response.get("userHandle") if isinstance(response, dict) else None
    if not isinstance(handle, str) or not handle:
        return None
    try:
        return bytes_to_base64url(base64url_to_bytes(handle))
    except Exception:  # not base64url: it names no account
        raise PasskeyRefused("the passkey's userHandle is not base64url "
                             "@ $.credential.response.userHandle") from None


def verify_signin(rp: RelyingParty, credential: dict[str, Any], challenge: bytes,
                  public_key: str, sign_count: int) -> int:
    """The passkey's new signature counter when its answer verifies against the stored
    key and counter, or ``PasskeyRefused``."""
    try:
        verified = verify_authentication_response(
            credential=credential, expected_challenge=challenge, expected_rp_id=rp.id,
            expected_origin=list(rp.origins),
            credential_public_key=base64url_to_bytes(public_key),
            credential_current_sign_count=sign_count)
    except Exception as exc:  # a stranger's bytes: whatever the verifier raised on them
        raise _refused("the passkey's sign-in does not verify", exc) from None
    return int(verified.new_sign_count)


__all__ = ["CREDENTIAL_ID_PATTERN", "MAX_CREDENTIAL_ID", "TIMEOUT_MS", "NewPasskey",
           "PasskeyRefused", "RelyingParty",
           "credential_id", "registration_options", "signin_options", "site_from_origin",
           "user_handle",
           "verify_registration", "verify_signin"]

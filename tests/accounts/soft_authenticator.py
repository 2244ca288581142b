"""A software WebAuthn authenticator, for testing the server's passkey ceremonies in Python.

`SoftAuthenticator` plays the browser and a platform authenticator together: it takes the
options JSON the server sends (what `webauthn.options_to_json` makes) and returns what a
browser's `PublicKeyCredential.toJSON()` would post back, so a test can drive registration
and sign-in without a browser. Every credential it makes is a discoverable one (a passkey):
it keeps the user handle and puts it in each assertion's `userHandle`, so sign-in works with
the empty `allowCredentials` the server sends.

It can also forge what a hostile client would send (another origin or challenge, another
RP ID's hash, no user presence or verification, a bad signature, a chosen signature
counter), for tests that the server refuses them.

What it does not do:
- attestation other than "none" (fmt "none", empty attStmt, AAGUID all zeros); no packed,
  TPM, Android or Apple attestation and no certificates;
- algorithms other than ES256 (ECDSA on P-256 with SHA-256, COSE -7); options that do not
  offer -7 are refused;
- extensions (clientExtensionResults is always {}), cross-origin or top-origin client data,
  hints, timeouts, backup-eligible (synced) credentials, or any user interface;
- the browser's checks of the RP ID against the origin: it signs whatever it is given, since
  that is what a hostile client can do too. The server must check.
"""

from __future__ import annotations

import hashlib
import json
import secrets
import struct
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

import cbor2
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from webauthn.helpers import base64url_to_bytes, bytes_to_base64url

__all__ = ["Credential", "SoftAuthenticator", "SoftAuthenticatorError"]

# authenticatorData flags (WebAuthn §6.1)
FLAG_UP = 0x01  # user present
FLAG_UV = 0x04  # user verified
FLAG_BE = 0x08  # backup eligible (never set here)
FLAG_BS = 0x10  # backed up (never set here)
FLAG_AT = 0x40  # attested credential data included

COSE_ALG_ES256 = -7
AAGUID = bytes(16)  # "none" attestation: all zeros


class SoftAuthenticatorError(Exception):
    """What a browser would report as a DOMException: options it cannot or will not use."""


@dataclass
class Credential:
    """One discoverable credential (passkey) held by the authenticator."""

    id: bytes
    private_key: ec.EllipticCurvePrivateKey
    rp_id: str
    user_handle: bytes
    sign_count: int = 0

    def cose_public_key(self) -> bytes:
        """The credential's public key as a COSE_Key (EC2, P-256, ES256), CBOR-encoded."""
        numbers = self.private_key.public_key().public_numbers()
        return cbor2.dumps(
            {
                1: 2,  # kty: EC2
                3: COSE_ALG_ES256,  # alg
                -1: 1,  # crv: P-256
                -2: numbers.x.to_bytes(32, "big"),
                -3: numbers.y.to_bytes(32, "big"),
            },
            canonical=True,
        )

    def spki_public_key(self) -> bytes:
        """The public key as DER SubjectPublicKeyInfo (what a browser's getPublicKey() gives)."""
        return self.private_key.public_key().public_bytes(
            serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo
        )


def _client_data_json(kind: str, challenge: str, origin: str) -> bytes:
    # The browser's serialisation (WebAuthn §5.8.1.1): these keys in this order, no spaces.
    return json.dumps(
        {"type": kind, "challenge": challenge, "origin": origin, "crossOrigin": False},
        separators=(",", ":"),
    ).encode()


def _challenge(options: dict[str, Any], override: str | None) -> str:
    if override is not None:
        return override
    # The browser decodes the options' challenge to bytes and re-encodes it, unpadded.
    return bytes_to_base64url(base64url_to_bytes(options["challenge"]))


def _origin_host(origin: str) -> str:
    host = urlsplit(origin).hostname
    if not host:
        raise SoftAuthenticatorError(f"origin {origin!r} has no host")
    return host


def _flags(*, user_present: bool, user_verified: bool, attested: bool) -> int:
    flags = 0
    if user_present:
        flags |= FLAG_UP
    if user_verified:
        flags |= FLAG_UV
    if attested:
        flags |= FLAG_AT
    return flags


class SoftAuthenticator:
    """A platform authenticator with ES256 passkeys in memory, keyed by credential ID."""

    def __init__(self) -> None:
        self.credentials: dict[bytes, Credential] = {}

    def register(
        self,
        options: dict[str, Any],
        origin: str,
        *,
        challenge: str | None = None,
        rp_id: str | None = None,
        user_present: bool = True,
        user_verified: bool = True,
    ) -> dict[str, Any]:
        """Answer `navigator.credentials.create()` for `options` (the server's JSON, parsed).

        Makes a new P-256 credential for `options["rp"]["id"]` (or the origin's host) and
        `options["user"]["id"]`, and returns the RegistrationResponseJSON a browser posts.
        As a platform authenticator does (WebAuthn §6.3.2), a credential for the same RP ID
        and user handle is replaced. Refuses (SoftAuthenticatorError) options that do not
        offer ES256, or whose excludeCredentials names a credential it holds.

        Forgeries: `challenge` replaces the client data's challenge (a base64url string);
        `rp_id` is hashed into authData instead of the options' RP ID (the credential is
        still stored under the options' RP ID); `user_present` / `user_verified` set the
        UP / UV flags.
        """
        algs = [p.get("alg") for p in options.get("pubKeyCredParams", [])]
        if COSE_ALG_ES256 not in algs:
            raise SoftAuthenticatorError(f"only ES256 (-7) is supported; options offer {algs}")
        for excluded in options.get("excludeCredentials") or []:
            if base64url_to_bytes(excluded["id"]) in self.credentials:
                raise SoftAuthenticatorError("an excluded credential is on this authenticator")

        options_rp_id: str = options.get("rp", {}).get("id") or _origin_host(origin)
        user_handle = base64url_to_bytes(options["user"]["id"])
        for old in [
            c.id
            for c in self.credentials.values()
            if c.rp_id == options_rp_id and c.user_handle == user_handle
        ]:
            del self.credentials[old]

        credential = Credential(
            id=secrets.token_bytes(16),
            private_key=ec.generate_private_key(ec.SECP256R1()),
            rp_id=options_rp_id,
            user_handle=user_handle,
        )
        self.credentials[credential.id] = credential

        client_data = _client_data_json("webauthn.create", _challenge(options, challenge), origin)
        auth_data = (
            hashlib.sha256((rp_id if rp_id is not None else options_rp_id).encode()).digest()
            + bytes([_flags(user_present=user_present, user_verified=user_verified, attested=True)])
            + struct.pack(">I", credential.sign_count)
            + AAGUID
            + struct.pack(">H", len(credential.id))
            + credential.id
            + credential.cose_public_key()
        )
        attestation_object = cbor2.dumps(
            {"fmt": "none", "attStmt": {}, "authData": auth_data}, canonical=True
        )
        credential_id = bytes_to_base64url(credential.id)
        return {
            "id": credential_id,
            "rawId": credential_id,
            "type": "public-key",
            "response": {
                "clientDataJSON": bytes_to_base64url(client_data),
                "attestationObject": bytes_to_base64url(attestation_object),
                "transports": ["internal"],
                # What toJSON() also carries (AuthenticatorAttestationResponseJSON).
                "authenticatorData": bytes_to_base64url(auth_data),
                "publicKey": bytes_to_base64url(credential.spki_public_key()),
                "publicKeyAlgorithm": COSE_ALG_ES256,
            },
            "clientExtensionResults": {},
            "authenticatorAttachment": "platform",
        }

    def sign_in(
        self,
        options: dict[str, Any],
        origin: str,
        credential_id: bytes | None = None,
        *,
        challenge: str | None = None,
        rp_id: str | None = None,
        user_present: bool = True,
        user_verified: bool = True,
        tamper_signature: bool = False,
        sign_count: int | None = None,
    ) -> dict[str, Any]:
        """Answer `navigator.credentials.get()` for `options` (the server's JSON, parsed).

        Uses `credential_id` if given (as given, even if allowCredentials leaves it out or it
        was made for another RP: a hostile client can present any credential it holds);
        otherwise the first credential for the options' RP ID (or the origin's host) that
        allowCredentials names, or if that is empty, the first for the RP ID (the one a user
        would pick from the passkey chooser). Raises SoftAuthenticatorError when there is
        none. Adds one to its signature counter and returns the AuthenticationResponseJSON a
        browser posts, with the credential's user handle.

        Forgeries: `challenge`, `rp_id`, `user_present`, `user_verified` as for `register`;
        `tamper_signature` flips a bit of the signature after signing; `sign_count` reports
        that counter value instead, and leaves the credential's counter as it was (so a
        replay of an old counter does not spoil the next honest sign-in).
        """
        options_rp_id: str = options.get("rpId") or _origin_host(origin)
        if credential_id is not None:
            if credential_id not in self.credentials:
                raise SoftAuthenticatorError("no such credential on this authenticator")
            credential = self.credentials[credential_id]
        else:
            allowed = {base64url_to_bytes(c["id"]) for c in options.get("allowCredentials") or []}
            candidates = [
                c
                for c in self.credentials.values()
                if c.rp_id == options_rp_id and (not allowed or c.id in allowed)
            ]
            if not candidates:
                raise SoftAuthenticatorError(f"no credential for {options_rp_id!r}")
            credential = candidates[0]

        if sign_count is None:
            credential.sign_count += 1
            counter = credential.sign_count
        else:
            counter = sign_count

        client_data = _client_data_json("webauthn.get", _challenge(options, challenge), origin)
        auth_data = (
            hashlib.sha256((rp_id if rp_id is not None else options_rp_id).encode()).digest()
            + bytes(
                [_flags(user_present=user_present, user_verified=user_verified, attested=False)]
            )
            + struct.pack(">I", counter)
        )
        signature = credential.private_key.sign(
            auth_data + hashlib.sha256(client_data).digest(), ec.ECDSA(hashes.SHA256())
        )
        if tamper_signature:
            # The last byte is in S's value, so the DER stays well-formed; the check fails.
            signature = signature[:-1] + bytes([signature[-1] ^ 0x01])

        raw_id = bytes_to_base64url(credential.id)
        return {
            "id": raw_id,
            "rawId": raw_id,
            "type": "public-key",
            "response": {
                "clientDataJSON": bytes_to_base64url(client_data),
                "authenticatorData": bytes_to_base64url(auth_data),
                "signature": bytes_to_base64url(signature),
                "userHandle": bytes_to_base64url(credential.user_handle),
            },
            "clientExtensionResults": {},
            "authenticatorAttachment": "platform",
        }

"""The soft authenticator against py_webauthn itself: what it makes verifies, what it forges
does not."""

from __future__ import annotations

import json
from typing import Any

import cbor2
import pytest
from webauthn import (
    generate_authentication_options,
    generate_registration_options,
    options_to_json,
    verify_authentication_response,
    verify_registration_response,
)
from webauthn.helpers import base64url_to_bytes, bytes_to_base64url
from webauthn.helpers.exceptions import (
    InvalidAuthenticationResponse,
    InvalidRegistrationResponse,
)
from webauthn.helpers.structs import (
    AttestationFormat,
    AuthenticatorSelectionCriteria,
    CredentialDeviceType,
    PublicKeyCredentialDescriptor,
    ResidentKeyRequirement,
    UserVerificationRequirement,
)
from webauthn.registration.verify_registration_response import VerifiedRegistration

from tests.accounts.soft_authenticator import SoftAuthenticator, SoftAuthenticatorError

RP_ID = "localhost"
ORIGIN = "http://localhost:8000"
USER_ID = b"quaymoor-user-0001"


def _registration_options(
    user_id: bytes = USER_ID, rp_id: str = RP_ID, **kwargs: Any
) -> tuple[dict[str, Any], bytes]:
    options = generate_registration_options(
        rp_id=rp_id,
        rp_name="Quaymoor",
        user_name="alice",
        user_id=user_id,
        authenticator_selection=AuthenticatorSelectionCriteria(
            resident_key=ResidentKeyRequirement.REQUIRED,
            user_verification=UserVerificationRequirement.PREFERRED,
        ),
        **kwargs,
    )
    parsed: dict[str, Any] = json.loads(options_to_json(options))
    return parsed, options.challenge


def _authentication_options(rp_id: str = RP_ID, **kwargs: Any) -> tuple[dict[str, Any], bytes]:
    options = generate_authentication_options(rp_id=rp_id, **kwargs)
    parsed: dict[str, Any] = json.loads(options_to_json(options))
    return parsed, options.challenge


def _registered(authenticator: SoftAuthenticator, user_id: bytes = USER_ID) -> VerifiedRegistration:
    options, challenge = _registration_options(user_id)
    response = authenticator.register(options, ORIGIN)
    return verify_registration_response(
        credential=response,
        expected_challenge=challenge,
        expected_rp_id=RP_ID,
        expected_origin=ORIGIN,
    )


def test_registration_verifies_with_py_webauthn() -> None:
    authenticator = SoftAuthenticator()
    options, challenge = _registration_options()
    response = authenticator.register(options, ORIGIN)

    # The shape a browser's PublicKeyCredential.toJSON() posts.
    assert response["type"] == "public-key"
    assert response["id"] == response["rawId"]
    assert response["clientExtensionResults"] == {}
    assert response["authenticatorAttachment"] == "platform"
    assert response["response"]["transports"] == ["internal"]
    client_data = base64url_to_bytes(response["response"]["clientDataJSON"])
    expected = (
        f'{{"type":"webauthn.create","challenge":"{bytes_to_base64url(challenge)}",'
        f'"origin":"{ORIGIN}","crossOrigin":false}}'
    )
    assert client_data == expected.encode()
    attestation = cbor2.loads(base64url_to_bytes(response["response"]["attestationObject"]))
    assert attestation["fmt"] == "none"
    assert attestation["attStmt"] == {}

    # As a dict, and as the JSON string the browser posts.
    for credential in (response, json.dumps(response)):
        verified = verify_registration_response(
            credential=credential,
            expected_challenge=challenge,
            expected_rp_id=RP_ID,
            expected_origin=ORIGIN,
            require_user_verification=True,
        )
        assert verified.fmt == AttestationFormat.NONE
        assert verified.sign_count == 0
        assert verified.user_verified
        assert verified.aaguid == "00000000-0000-0000-0000-000000000000"
        assert verified.credential_device_type is CredentialDeviceType.SINGLE_DEVICE
        assert not verified.credential_backed_up

    stored = authenticator.credentials[verified.credential_id]
    assert stored.rp_id == RP_ID
    assert stored.user_handle == USER_ID
    assert stored.sign_count == 0


def test_sign_in_verifies_with_py_webauthn() -> None:
    authenticator = SoftAuthenticator()
    registration = _registered(authenticator)

    for expected_count in (1, 2):
        options, challenge = _authentication_options()
        assert options["allowCredentials"] == []  # a passkey sign-in: discoverable only
        response = authenticator.sign_in(options, ORIGIN)
        assert response["type"] == "public-key"
        assert response["clientExtensionResults"] == {}
        assert response["authenticatorAttachment"] == "platform"
        assert base64url_to_bytes(response["response"]["userHandle"]) == USER_ID
        verified = verify_authentication_response(
            credential=json.dumps(response),
            expected_challenge=challenge,
            expected_rp_id=RP_ID,
            expected_origin=ORIGIN,
            credential_public_key=registration.credential_public_key,
            credential_current_sign_count=expected_count - 1,
            require_user_verification=True,
        )
        assert verified.credential_id == registration.credential_id
        assert verified.new_sign_count == expected_count
        assert verified.user_verified


@pytest.mark.parametrize(
    ("forgery", "origin", "reason"),
    [
        ({}, "http://evil.example:8000", "origin"),
        ({"challenge": bytes_to_base64url(b"not the server's challenge")}, ORIGIN, "challenge"),
        ({"rp_id": "evil.example"}, ORIGIN, "RP ID hash"),
        ({"user_present": False}, ORIGIN, "presence"),
    ],
    ids=["origin", "challenge", "rp_id", "user_not_present"],
)
def test_forged_registration_is_refused(forgery: dict[str, Any], origin: str, reason: str) -> None:
    authenticator = SoftAuthenticator()
    options, challenge = _registration_options()
    response = authenticator.register(options, origin, **forgery)
    with pytest.raises(InvalidRegistrationResponse, match=reason):
        verify_registration_response(
            credential=response,
            expected_challenge=challenge,
            expected_rp_id=RP_ID,
            expected_origin=ORIGIN,
        )


def test_registration_without_user_verification_is_refused_when_required() -> None:
    options, challenge = _registration_options()
    response = SoftAuthenticator().register(options, ORIGIN, user_verified=False)
    verified = verify_registration_response(
        credential=response,
        expected_challenge=challenge,
        expected_rp_id=RP_ID,
        expected_origin=ORIGIN,
    )
    assert not verified.user_verified
    with pytest.raises(InvalidRegistrationResponse, match="verification"):
        verify_registration_response(
            credential=response,
            expected_challenge=challenge,
            expected_rp_id=RP_ID,
            expected_origin=ORIGIN,
            require_user_verification=True,
        )


@pytest.mark.parametrize(
    ("forgery", "origin", "reason"),
    [
        ({}, "http://evil.example:8000", "origin"),
        ({"challenge": bytes_to_base64url(b"not the server's challenge")}, ORIGIN, "challenge"),
        ({"rp_id": "evil.example"}, ORIGIN, "RP ID hash"),
        ({"tamper_signature": True}, ORIGIN, "signature"),
        ({"user_present": False}, ORIGIN, "not present"),
        ({"sign_count": 1}, ORIGIN, "sign count"),
    ],
    ids=["origin", "challenge", "rp_id", "signature", "user_not_present", "replayed_counter"],
)
def test_forged_sign_in_is_refused(forgery: dict[str, Any], origin: str, reason: str) -> None:
    authenticator = SoftAuthenticator()
    registration = _registered(authenticator)
    # One honest sign-in first, so the server's counter is 1 and a 1 again is a replay.
    options, challenge = _authentication_options()
    honest = verify_authentication_response(
        credential=authenticator.sign_in(options, ORIGIN),
        expected_challenge=challenge,
        expected_rp_id=RP_ID,
        expected_origin=ORIGIN,
        credential_public_key=registration.credential_public_key,
        credential_current_sign_count=0,
    )

    options, challenge = _authentication_options()
    response = authenticator.sign_in(options, origin, **forgery)
    with pytest.raises(InvalidAuthenticationResponse, match=reason):
        verify_authentication_response(
            credential=response,
            expected_challenge=challenge,
            expected_rp_id=RP_ID,
            expected_origin=ORIGIN,
            credential_public_key=registration.credential_public_key,
            credential_current_sign_count=honest.new_sign_count,
        )


def test_forced_counter_leaves_the_real_one_alone() -> None:
    authenticator = SoftAuthenticator()
    registration = _registered(authenticator)
    options, _ = _authentication_options()
    authenticator.sign_in(options, ORIGIN, sign_count=7)
    assert authenticator.credentials[registration.credential_id].sign_count == 0
    options, challenge = _authentication_options()
    verified = verify_authentication_response(
        credential=authenticator.sign_in(options, ORIGIN),
        expected_challenge=challenge,
        expected_rp_id=RP_ID,
        expected_origin=ORIGIN,
        credential_public_key=registration.credential_public_key,
        credential_current_sign_count=0,
    )
    assert verified.new_sign_count == 1


def test_choosing_among_credentials() -> None:
    authenticator = SoftAuthenticator()
    alice = _registered(authenticator, b"alice")
    bob = _registered(authenticator, b"bob")
    options, _ = _registration_options(b"elsewhere", rp_id="elsewhere.example")
    authenticator.register(options, "https://elsewhere.example")
    assert len(authenticator.credentials) == 3

    # No allowCredentials: the first for the RP ID.
    options, _ = _authentication_options()
    response = authenticator.sign_in(options, ORIGIN)
    assert base64url_to_bytes(response["rawId"]) == alice.credential_id

    # Named by the caller.
    response = authenticator.sign_in(options, ORIGIN, credential_id=bob.credential_id)
    assert base64url_to_bytes(response["rawId"]) == bob.credential_id
    assert base64url_to_bytes(response["response"]["userHandle"]) == b"bob"

    # Named by the server's allowCredentials.
    options, challenge = _authentication_options(
        allow_credentials=[PublicKeyCredentialDescriptor(id=bob.credential_id)]
    )
    response = authenticator.sign_in(options, ORIGIN)
    assert base64url_to_bytes(response["rawId"]) == bob.credential_id
    verify_authentication_response(
        credential=response,
        expected_challenge=challenge,
        expected_rp_id=RP_ID,
        expected_origin=ORIGIN,
        credential_public_key=bob.credential_public_key,
        credential_current_sign_count=0,
    )

    # None for this RP ID, or none of those allowed.
    with pytest.raises(SoftAuthenticatorError):
        authenticator.sign_in(_authentication_options("nowhere.example")[0], ORIGIN)
    options, _ = _authentication_options(
        allow_credentials=[PublicKeyCredentialDescriptor(id=b"unknown")]
    )
    with pytest.raises(SoftAuthenticatorError):
        authenticator.sign_in(options, ORIGIN)
    with pytest.raises(SoftAuthenticatorError):
        authenticator.sign_in(options, ORIGIN, credential_id=b"unknown")


def test_registering_the_same_user_again_replaces_the_credential() -> None:
    authenticator = SoftAuthenticator()
    first = _registered(authenticator)
    second = _registered(authenticator)
    assert list(authenticator.credentials) == [second.credential_id]
    assert first.credential_id != second.credential_id


def test_refused_options() -> None:
    authenticator = SoftAuthenticator()
    registration = _registered(authenticator)

    options, _ = _registration_options(
        b"someone else",
        exclude_credentials=[PublicKeyCredentialDescriptor(id=registration.credential_id)],
    )
    with pytest.raises(SoftAuthenticatorError):
        authenticator.register(options, ORIGIN)

    options, _ = _registration_options(b"someone else")
    options["pubKeyCredParams"] = [{"type": "public-key", "alg": -257}]
    with pytest.raises(SoftAuthenticatorError):
        authenticator.register(options, ORIGIN)
    assert list(authenticator.credentials) == [registration.credential_id]

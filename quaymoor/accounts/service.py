"""Accounts as the HTTP side uses them: registering with a passkey, signing in, sessions,
signing out (here or everywhere), an account's passkeys (another added, one removed, listed)
and deleting an account. Transport-free: refusals are
``AccountRefusal`` with a stable code; the store's blocking calls run in worker threads.

A ceremony (a registration, a sign-in or a passkey added) is two requests: the options,
whose challenge the server keeps for ``CEREMONY_SECONDS`` under a random ceremony id, and
the answer, which takes that challenge away as it is verified, whether or not it
verifies: each challenge is answered once, so a recorded answer cannot be replayed, and a
failed attempt starts over. The store holds the challenge, so the two requests may reach
different processes of a cluster.

A session is a random 256-bit token in a cookie; the store keeps its SHA-256 only, with
the session's CSRF token (``GET /api/accounts/me`` gives it to the page; every request that
changes something while signed in must echo it in ``X-CSRF-Token``: ``http.accounts_api``)
and its expiry, ``SESSION_SECONDS`` after sign-in.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import re
import secrets
import time
from collections.abc import Callable
from typing import Any, Final

import attrs
import trio
from webauthn.helpers import base64url_to_bytes, bytes_to_base64url

from quaymoor.accounts import passkeys
from quaymoor.accounts.names import NameRefused, account_name
from quaymoor.accounts.passkeys import PasskeyRefused, RelyingParty
from quaymoor.protocol.codes import Code
from quaymoor.store.accounts import (
    MAX_PASSKEYS,
    AccountError,
    AccountStore,
    Ceremony,
    Passkey,
    Session,
)

#: Seconds a ceremony's challenge is kept (the browser's own timeout is 120 s).
CEREMONY_SECONDS: Final = 180.0
#: Ceremonies under way at once, all addresses together; past it, new ones wait (429).
MAX_CEREMONIES: Final = 10_000
#: Seconds a ``too_many_ceremonies`` refusal says to wait when the server has
#: ``MAX_CEREMONIES`` under way (they expire in ``CEREMONY_SECONDS``).
SERVER_RETRY_AFTER: Final = 60
#: Seconds a session lasts after sign-in.
SESSION_SECONDS: Final = 30 * 24 * 3600.0
#: The longest ceremony id or session token a request may name (ours are 22 and 43).
_MAX_ID: Final = 64
#: What a ceremony id may be (ours: ``secrets.token_urlsafe(16)``); anything else, a lone
#: surrogate included, is refused before the store is asked.
CEREMONY_ID: Final = re.compile(r"[A-Za-z0-9_-]{1,64}")
#: What a passkey's id may be: base64url of at most ``passkeys.MAX_CREDENTIAL_ID`` bytes.
PASSKEY_ID: Final = re.compile(passkeys.CREDENTIAL_ID_PATTERN)


class AccountRefusal(Exception):
    """A request about accounts that cannot be done; ``code`` says which, the message
    what and where."""

    def __init__(self, code: Code, message: str, retry_after: int | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        #: seconds to wait before asking again, for a refusal that says (429)
        self.retry_after = retry_after


def _at(message: str, where: str) -> str:
    """``message`` ending with ``@ where``, unless it names its place already."""
    return message if "@ $" in message else f"{message} @ {where}"


@attrs.frozen
class SignedIn:
    """A session just opened: the cookie's token (only ever sent to the browser) and
    what the page may know."""

    token: str
    name: str
    csrf: str


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def csrf_matches(session: Session, given: str | None) -> bool:
    return given is not None and hmac.compare_digest(
        session.csrf.encode(), given.encode("utf-8", "surrogatepass"))


class Accounts:
    """The accounts of one store, for the site ``rp``."""

    def __init__(self, store: AccountStore, rp: RelyingParty,
                 clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self.rp = rp
        self.clock = clock

    async def _run(self, fn: Callable[..., Any], *args: Any) -> Any:
        return await trio.to_thread.run_sync(fn, *args)

    async def _keep(self, ceremony: Ceremony) -> None:
        under_way = await self._run(self.store.add_ceremony, ceremony, self.clock())
        if under_way > MAX_CEREMONIES:
            await self._run(self.store.take_ceremony, ceremony.id, ceremony.kind, self.clock())
            raise AccountRefusal(Code.TOO_MANY_CEREMONIES,
                                 "too many sign-ins are under way: try again in a minute",
                                 retry_after=SERVER_RETRY_AFTER)

    async def _take(self, ceremony_id: object, kind: str) -> Ceremony:
        if not isinstance(ceremony_id, str) or not CEREMONY_ID.fullmatch(ceremony_id):
            raise AccountRefusal(Code.BAD_REQUEST, "the ceremony's id (from the options: 1 "
                                 "to 64 of A-Z a-z 0-9 _ -) is needed @ $.ceremony")
        taken = await self._run(self.store.take_ceremony, ceremony_id, kind, self.clock())
        if taken is None:
            raise AccountRefusal(Code.CEREMONY_GONE, "that ceremony is unknown, answered "
                                 "already or expired: ask for new options @ $.ceremony")
        assert isinstance(taken, Ceremony)
        return taken

    # ---------------------------------------------------------------- registering

    async def register_options(self, raw_name: object) -> dict[str, Any]:
        """The options for a new account named ``raw_name`` and its first passkey."""
        try:
            name = account_name(raw_name)
        except NameRefused as exc:
            raise AccountRefusal(Code.BAD_NAME, f"{exc} @ $.name") from None
        if await self._run(self.store.name_taken, name.key):
            raise AccountRefusal(Code.NAME_TAKEN, "that name, or one that looks like it, is "
                                 "taken @ $.name")
        handle = secrets.token_bytes(32)
        challenge, options = passkeys.registration_options(self.rp, handle, name.display)
        ceremony = Ceremony(secrets.token_urlsafe(16), "register", _b64(challenge),
                            _b64(handle), name.display, self.clock() + CEREMONY_SECONDS)
        await self._keep(ceremony)
        return {"ceremony": ceremony.id, "options": options}

    async def register(self, ceremony_id: object, credential: object) -> SignedIn:
        """The account made (with its first passkey) and signed in."""
        ceremony = await self._take(ceremony_id, "register")
        assert ceremony.account_id is not None and ceremony.name is not None
        try:
            new = passkeys.verify_registration(self.rp, credential,
                                               _unb64(ceremony.challenge))
        except PasskeyRefused as exc:
            raise AccountRefusal(Code.PASSKEY_REFUSED, _at(str(exc), "$.credential")) from None
        name = account_name(ceremony.name)
        try:
            await self._run(functools.partial(
                self.store.create_account, ceremony.account_id, name.display, name.key,
                credential_id=new.credential_id, public_key=new.public_key,
                sign_count=new.sign_count, now=self.clock()))
        except AccountError as exc:
            code = Code.NAME_TAKEN if exc.code == "name_taken" else Code.PASSKEY_REFUSED
            raise AccountRefusal(code, f"{exc} @ $.credential") from None
        return await self._open(ceremony.account_id, name.display)

    # ---------------------------------------------------------------- signing in

    async def signin_options(self) -> dict[str, Any]:
        challenge, options = passkeys.signin_options(self.rp)
        ceremony = Ceremony(secrets.token_urlsafe(16), "signin", _b64(challenge), None, None,
                            self.clock() + CEREMONY_SECONDS)
        await self._keep(ceremony)
        return {"ceremony": ceremony.id, "options": options}

    async def signin(self, ceremony_id: object, credential: object) -> SignedIn:
        ceremony = await self._take(ceremony_id, "signin")
        try:
            cred_id = passkeys.credential_id(credential)
            assert isinstance(credential, dict)
            handle = passkeys.user_handle(credential)
        except PasskeyRefused as exc:
            raise AccountRefusal(Code.PASSKEY_REFUSED, str(exc)) from None
        stored = await self._run(self.store.credential, cred_id)
        if stored is None or (handle is not None and handle != stored.account_id):
            raise AccountRefusal(Code.PASSKEY_REFUSED, "this passkey is not one of an "
                                 "account here (deleted, or made for another site) "
                                 "@ $.credential.rawId")
        try:
            count = passkeys.verify_signin(self.rp, credential, _unb64(ceremony.challenge),
                                           stored.public_key, stored.sign_count)
        except PasskeyRefused as exc:
            raise AccountRefusal(Code.PASSKEY_REFUSED, _at(str(exc), "$.credential")) from None
        if not await self._run(self.store.credential_used, cred_id, stored.sign_count, count,
                               self.clock()):
            raise AccountRefusal(Code.PASSKEY_REFUSED, "this passkey signed in at the same "
                                 "moment elsewhere: try again @ $.credential")
        return await self._open(stored.account_id, stored.name)

    # ---------------------------------------------------------------- an account's passkeys

    async def passkey_options(self, session: Session) -> dict[str, Any]:
        """The options for another passkey of the session's account: its user handle and
        name, and its passkeys listed as excluded (an authenticator that holds one of them
        says so instead of making a second). Refused at once when it holds
        ``MAX_PASSKEYS`` (before the person is asked for a passkey that would be)."""
        held = await self.passkeys(session)
        if len(held) >= MAX_PASSKEYS:
            raise AccountRefusal(Code.TOO_MANY_PASSKEYS, f"an account holds at most "
                                 f"{MAX_PASSKEYS} passkeys: remove one first")
        challenge, options = passkeys.registration_options(
            self.rp, _unb64(session.account_id), session.name,
            exclude=[p.id for p in held])
        ceremony = Ceremony(secrets.token_urlsafe(16), "add_passkey", _b64(challenge),
                            session.account_id, session.name, self.clock() + CEREMONY_SECONDS)
        await self._keep(ceremony)
        return {"ceremony": ceremony.id, "options": options}

    async def add_passkey(self, session: Session, ceremony_id: object,
                          credential: object) -> int:
        """The answer's passkey added to the session's account; how many it holds now."""
        ceremony = await self._take(ceremony_id, "add_passkey")
        if ceremony.account_id != session.account_id:
            raise AccountRefusal(Code.CEREMONY_GONE, "that ceremony was begun by another "
                                 "account: ask for new options @ $.ceremony")
        try:
            new = passkeys.verify_registration(self.rp, credential,
                                               _unb64(ceremony.challenge))
        except PasskeyRefused as exc:
            raise AccountRefusal(Code.PASSKEY_REFUSED, _at(str(exc), "$.credential")) from None
        try:
            held = await self._run(functools.partial(
                self.store.add_credential, session.account_id,
                credential_id=new.credential_id, public_key=new.public_key,
                sign_count=new.sign_count, now=self.clock()))
        except AccountError as exc:
            raise _passkey_refusal(exc, "$.credential") from None
        assert isinstance(held, int)
        return held

    async def passkeys(self, session: Session) -> list[Passkey]:
        found = await self._run(self.store.passkeys, session.account_id)
        assert isinstance(found, list)
        return found

    async def remove_passkey(self, session: Session, credential_id: object) -> int:
        """One of the account's passkeys removed, never its last; how many are left."""
        if not isinstance(credential_id, str) or not PASSKEY_ID.fullmatch(credential_id):
            raise AccountRefusal(Code.BAD_REQUEST, "the passkey's id (base64url, as GET "
                                 "/api/accounts/passkeys lists it) is needed @ $.id")
        try:
            left = await self._run(self.store.remove_credential, session.account_id,
                                   credential_id)
        except AccountError as exc:
            raise _passkey_refusal(exc, "$.id") from None
        assert isinstance(left, int)
        return left

    async def _open(self, account_id: str, name: str) -> SignedIn:
        token, csrf = secrets.token_urlsafe(32), secrets.token_urlsafe(24)
        now = self.clock()
        await self._run(self.store.open_session, token_hash(token), account_id, csrf, now,
                        now + SESSION_SECONDS)
        return SignedIn(token, name, csrf)

    # ---------------------------------------------------------------- sessions

    async def session(self, token: str | None) -> Session | None:
        """The session of a cookie's token, if it is one that has not ended."""
        if token is None or not CEREMONY_ID.fullmatch(token):
            return None  # not one of ours (ours are base64url, 43 characters)
        found = await self._run(self.store.session, token_hash(token), self.clock())
        assert found is None or isinstance(found, Session)
        return found

    async def account(self, session: Session) -> dict[str, Any]:
        """What ``GET /api/accounts/me`` says of the session's account."""
        found = await self._run(self.store.account, session.account_id)
        if found is None:  # deleted on another process a moment ago
            raise AccountRefusal(Code.SIGNED_OUT, "this account was deleted")
        return {"name": found.name, "since": found.created_at, "passkeys": found.passkeys,
                "sessions": found.sessions}

    async def signout(self, token: str) -> None:
        await self._run(self.store.end_session, token_hash(token))

    async def signout_everywhere(self, session: Session) -> int:
        ended = await self._run(self.store.end_sessions, session.account_id)
        assert isinstance(ended, int)
        return ended

    async def delete(self, session: Session, confirm: object) -> None:
        """The account, its passkeys and sessions removed, when ``confirm`` is its name."""
        if not isinstance(confirm, str) or confirm != session.name:
            raise AccountRefusal(Code.BAD_REQUEST, "to delete the account, send its name "
                                 "exactly as shown @ $.name")
        await self._run(self.store.delete_account, session.account_id)


#: The refusals of an account's passkeys, by the store's code.
_PASSKEY_CODES: Final = {"passkey_taken": Code.PASSKEY_REFUSED,
                         "too_many_passkeys": Code.TOO_MANY_PASSKEYS,
                         "last_passkey": Code.LAST_PASSKEY,
                         "unknown_passkey": Code.UNKNOWN_PASSKEY,
                         "account_gone": Code.SIGNED_OUT}


def _passkey_refusal(exc: AccountError, where: str) -> AccountRefusal:
    return AccountRefusal(_PASSKEY_CODES[exc.code], f"{exc} @ {where}")


def _b64(data: bytes) -> str:
    return bytes_to_base64url(data)


def _unb64(text: str) -> bytes:
    return base64url_to_bytes(text)


__all__ = ["CEREMONY_SECONDS", "MAX_CEREMONIES", "SESSION_SECONDS", "AccountRefusal",
           "Accounts", "SignedIn", "csrf_matches", "token_hash"]

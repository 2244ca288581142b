"""The HTTP API described once, as an OpenAPI 3.1 document (``GET /api/openapi.json``).

One home for the routes: the schemathesis check and ``quaymoor fuzz`` (its route table,
``tools.fuzz.schema``) read this document, and ``tests/http/test_openapi.py`` holds it to
the code both ways (every route the API answers is here, every route here is answered,
every status the code sends for a route is listed under it).

It is exactly as strict as the server: a request it allows is taken or refused only for
the server's state (404, 409, 429), one it does not allow is refused (a name must keep
something once cleaned: ``name_pattern``; integers are whole numbers, ``3.0`` too; every
body is required; query numbers are bounded as ``http.query`` reads them); every 429 and
the pending record's 202 carry ``Retry-After``; every path with GET has HEAD.
``tests/http/test_schemathesis.py`` runs schemathesis with all its checks against it.

Error bodies are the one shape ``http.responses.error_response`` sends, with the codes of
``protocol.codes.HTTP_STATUS``. Refusals made by the front door before the API sees a
request (malformed HTTP, 408, 413, 431) are plain text and are not described here, nor is
the static web client or the websocket (``docs/protocol.md`` section 3).

The lobby's write routes are described as they are after the deal-order change: play-now
seats the caller without starting (``{"name", "players", "bots", "pace"}`` ->
``{"table", "seat", "token", "fingerprint", ...}``), join takes ``{"name"}`` and answers
``{"seat", "token", "fingerprint"}``, ``POST /api/tables/{table}/commit`` takes the
seat's commitment before the start, and ``POST /api/tables/{table}/reveal`` its client
seed once the start has fixed every commitment (docs/fairness.md).
"""

from __future__ import annotations

import sys
import unicodedata
from functools import cache
from typing import Any, Final

from quaymoor.accounts.passkeys import CREDENTIAL_ID_PATTERN
from quaymoor.actors.supervisor import BOT_LEVELS
from quaymoor.http.query import MAX_VALUE
from quaymoor.protocol.codes import HTTP_STATUS, Code
from quaymoor.protocol.pace import DEFAULT_PACE, Pace
from quaymoor.rules.data import MAX_PLAYERS, MIN_PLAYERS
from quaymoor.store.archive import MAX_LIST

TABLE_ID: Final = "^[0-9a-f]{10}$"
JSON: Final = "application/json"


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def _error(*codes: Code) -> dict[str, Any]:
    """The refusal body, with ``code`` narrowed to ``codes``."""
    return {"description": ", ".join(codes), "content": {JSON: {"schema": {
        "type": "object", "required": ["error"], "additionalProperties": False,
        "properties": {"error": {
            "type": "object", "required": ["code", "message"], "additionalProperties": False,
            "properties": {"code": {"enum": [str(c) for c in codes]},
                           "message": {"type": "string"}}}}}}}}


def _refusals(*codes: Code, also: dict[int, tuple[Code, ...]] | None = None) -> dict[str, Any]:
    """Responses for ``codes``, grouped by their HTTP status (``also`` adds a code under
    a second status, as ``bad_step`` has 422)."""
    by_status: dict[int, list[Code]] = {}
    for code in codes:
        by_status.setdefault(HTTP_STATUS[code], []).append(code)
    for status, extra in (also or {}).items():
        by_status.setdefault(status, []).extend(extra)
    out = {str(status): _error(*group) for status, group in sorted(by_status.items())}
    if "429" in out:  # every 429 says when to ask again
        out["429"]["headers"] = {"Retry-After": RETRY_AFTER}
    return out


#: The seconds to wait before asking again (every 429, and a pending record's 202).
RETRY_AFTER: Final = {"required": True, "description": "seconds to wait before asking again",
                      "schema": {"type": "integer", "minimum": 1}}


def _ok(schema: dict[str, Any], status: int = 200, media: str = JSON,
        description: str = "answered") -> dict[str, Any]:
    return {str(status): {"description": description, "content": {media: {"schema": schema}}}}


def _query_int(low: int, high: int) -> dict[str, Any]:
    """A whole number in the query (``http.query``: ASCII digits only, at most 6)."""
    return {"type": "integer", "minimum": low, "maximum": high}


def _body(schema: dict[str, Any]) -> dict[str, Any]:
    """A JSON request body: always required (an empty body is ``bad_request``; ``{}``
    takes every default)."""
    return {"required": True, "content": {JSON: {"schema": schema}}}


def _name_blank(char: str) -> bool:
    """A character a name loses (``actors.lobby.clean_name``: control and format
    characters, white space); ``tests/http/test_openapi.py`` holds the two together."""
    return char.isspace() or unicodedata.category(char) in ("Cc", "Cf")


@cache
def name_pattern() -> str:
    """A regular expression (searched, as JSON Schema does) that a name matches exactly
    when something of it is left once cleaned: one character outside the ranges a name
    loses. The characters are written as themselves, so that every regex dialect reads
    the class alike (ECMA-262's, Python's, Rust's)."""
    ranges: list[tuple[int, int]] = []
    for point in range(sys.maxunicode + 1):
        if 0xD800 <= point <= 0xDFFF or not _name_blank(chr(point)):
            continue
        if ranges and ranges[-1][1] == point - 1:
            ranges[-1] = (ranges[-1][0], point)
        else:
            ranges.append((point, point))
    parts = [chr(a) if a == b else f"{chr(a)}-{chr(b)}" for a, b in ranges]
    return "[^" + "".join(parts) + "]"


def _obj(required: list[str], props: dict[str, Any], *, closed: bool = True) -> dict[str, Any]:
    out: dict[str, Any] = {"type": "object", "required": required, "properties": props}
    if closed:
        out["additionalProperties"] = False
    return out


STRING: Final = {"type": "string"}
FINGERPRINT: Final = {"type": "string", "pattern": "^[0-9a-f]{64}$"}
SEAT_NUMBER: Final = {"type": "integer", "minimum": 0, "maximum": MAX_PLAYERS - 1}
NAME: Final = {"type": "string", "pattern": name_pattern(),
               "description": "control and format characters dropped, white space "
                              "collapsed, cut to 24 characters; something must be left "
                              "(bad_name otherwise)"}
PLAYERS: Final = {"type": "integer", "minimum": MIN_PLAYERS, "maximum": MAX_PLAYERS,
                  "default": 4, "description": "a whole number (4 and 4.0 alike)"}
BOTS: Final = {"enum": list(BOT_LEVELS), "default": "normal",
               "description": "easy, normal, hard or expert (the lobby's); random plays any legal "
                              "move, for tests and benchmarks"}
PACE: Final = {"enum": [p.value for p in Pace], "default": DEFAULT_PACE.value,
               "description": "how long the bots wait before each move (docs/protocol.md)"}
HINTS: Final = {"type": "boolean", "default": False,
                "description": "hints for everyone at the table: joining is agreeing"
                               " (docs/protocol.md, hint)"}
RATED: Final = {"type": "boolean", "default": False,
                "description": "a rated game: opened and joined only signed in, no hints; "
                               "its result moves the players' ratings (docs/protocol.md)"}
#: A rating as shown: 60 x mu, a new player 1500, with its 95% interval.
SHOWN_RATING: Final = {"rating": {"type": "integer"},
                       "interval": {"type": "array", "items": {"type": "integer"},
                                    "minItems": 2, "maxItems": 2}}
CLIENT_SEED: Final = {"type": "string", "minLength": 1, "pattern": "^[^\\u0000]*$",
                       "description": "1 to 256 UTF-8 bytes, valid Unicode, no NUL"}
COMMITMENT: Final = {"type": "string", "pattern": "^[0-9a-f]{64}$",
                     "description": "SHA-256 of the client seed bound to the table and seat, "
                                    "lowercase hex (docs/fairness.md)"}
TABLE_PARAM: Final = {"name": "table", "in": "path", "required": True,
                      "schema": {"type": "string", "pattern": TABLE_ID}}
GAME_PARAM: Final = {"name": "game", "in": "path", "required": True,
                     "schema": {"type": "string", "pattern": TABLE_ID}}
ANY_OBJECT: Final = {"type": "object"}
#: What any POST may be refused for before its body is read: not JSON, or cross-site.
#: Every POST: JSON, from this site, and with the session's X-CSRF-Token when it carries
#: a session cookie (``http.accounts_api``).
POST_GATE: Final = (Code.UNSUPPORTED_MEDIA_TYPE, Code.CROSS_SITE, Code.CSRF)
#: Creating a table counts against the caller's address (``config.ClientLimits``).
NEW_TABLE: Final = (Code.TOO_MANY_NEW_TABLES, Code.TOO_MANY_OPEN_TABLES, Code.SERVER_FULL)
TABLE_WRITE: Final = (Code.BAD_REQUEST, Code.BAD_TOKEN, Code.UNKNOWN_TABLE, Code.NOT_FOUND,
                      Code.ALREADY_STARTED, Code.TABLE_CLOSED, *POST_GATE)
#: An id that is not 10 lowercase hex digits matches no route: ``not_found``.

SCHEMAS: Final[dict[str, Any]] = {
    "TableInfo": _obj(["table", "players", "fingerprint", "invite"], {
        "table": {"type": "string", "pattern": TABLE_ID}, "players": PLAYERS,
        "fingerprint": FINGERPRINT,
        "invite": {"type": "string", "pattern": "^/\\?table=[0-9a-f]{10}$"}}),
    "GameSummary": _obj(["id", "ended_at", "players", "reason", "seats", "winners", "totals",
                         "actions", "url", "record_url"], {
        "id": {"type": "string", "pattern": TABLE_ID}, "ended_at": {"type": "number"},
        "players": PLAYERS, "reason": STRING,
        "seats": {"type": "array", "items": _obj(["seat", "name", "bot"], {
            "seat": SEAT_NUMBER, "name": STRING, "bot": {"type": "boolean"}})},
        "winners": {"type": "array", "items": SEAT_NUMBER},
        "totals": {"type": "array", "items": {"type": "integer"}},
        "actions": {"type": "integer", "minimum": 0}, "url": STRING, "record_url": STRING}),
    "Seat": _obj(["seat", "name", "bot", "bot_playing", "connected"], {
        "seat": {"type": "integer", "minimum": 0}, "name": {"type": ["string", "null"]},
        "bot": {"type": "boolean"}, "bot_playing": {"type": "boolean"},
        "connected": {"type": "boolean"}}),
    "TableSummary": _obj(["id", "players", "bots", "pace", "hints", "rated", "state", "seats",
                          "round", "phase"], {
        "id": STRING, "players": PLAYERS, "bots": BOTS, "pace": PACE, "hints": HINTS,
        "rated": RATED,
        "state": {"enum": ["waiting", "playing", "finished", "ended"]},
        "seats": {"type": "array", "items": _ref("Seat")},
        "round": {"type": ["integer", "null"]}, "phase": {"type": ["string", "null"]}}),
}

#: path -> method -> operation.
#: An account's name as typed (``accounts.names``: 2 to 20 characters of one script,
#: letters first among them; look-alikes of a taken name are ``name_taken``).
ACCOUNT_NAME: Final = {"type": "string", "description": "2 to 20 letters, marks, digits "
                       "and inner single space - _ . ' of one script (bad_name otherwise)"}
SET_COOKIE: Final = {"Set-Cookie": {
    "required": True, "schema": {"type": "string"},
    "description": "quaymoor_session=<token>; Path=/; HttpOnly; SameSite=Lax; Max-Age=<s>"
                   " (; Secure over https); Max-Age=0 when it ends the session"}}
CEREMONY: Final = _obj(["ceremony", "options"], {
    "ceremony": STRING, "options": {**ANY_OBJECT, "description": "for the browser's "
                                    "navigator.credentials (PublicKeyCredential's JSON "
                                    "options: parseCreationOptionsFromJSON and "
                                    "parseRequestOptionsFromJSON)"}})
ANSWER: Final = _obj(["ceremony", "credential"], {
    "ceremony": {"type": "string", "pattern": "^[A-Za-z0-9_-]{1,64}$"},
    "credential": {**ANY_OBJECT, "description": "the browser's PublicKeyCredential.toJSON()"}})
SIGNED_IN: Final = _obj(["name", "csrf"], {"name": STRING, "csrf": STRING})
PASSKEY_ID: Final = {"type": "string", "pattern": f"^{CREDENTIAL_ID_PATTERN}$",
                     "description": "the passkey's credential id, base64url"}


def _with_cookie(responses: dict[str, Any], *statuses: str) -> dict[str, Any]:
    for status in statuses:
        responses[status] = {**responses[status], "headers": SET_COOKIE}
    return responses


ACCOUNT_PATHS: Final[dict[str, dict[str, Any]]] = {
    "/api/accounts/register/options": {"post": {
        "operationId": "register_options",
        "summary": "a new account's name: the options for its first passkey",
        "requestBody": _body(_obj(["name"], {"name": ACCOUNT_NAME})),
        "responses": {**_ok(CEREMONY),
                      **_refusals(Code.BAD_REQUEST, Code.BAD_NAME, Code.NAME_TAKEN,
                                  Code.TOO_MANY_CEREMONIES, *POST_GATE)}}},
    "/api/accounts/register": {"post": {
        "operationId": "register", "summary": "the passkey made: the account, signed in",
        "requestBody": _body(ANSWER),
        "responses": _with_cookie({**_ok(SIGNED_IN, 201, description="created"),
                                   **_refusals(Code.BAD_REQUEST, Code.CEREMONY_GONE,
                                               Code.PASSKEY_REFUSED, Code.NAME_TAKEN,
                                               *POST_GATE)}, "201")}},
    "/api/accounts/signin/options": {"post": {
        "operationId": "signin_options", "summary": "the options for signing in with a passkey",
        "requestBody": _body(_obj([], {})),
        "responses": {**_ok(CEREMONY),
                      **_refusals(Code.BAD_REQUEST, Code.TOO_MANY_CEREMONIES, *POST_GATE)}}},
    "/api/accounts/signin": {"post": {
        "operationId": "signin", "summary": "the passkey's answer: signed in",
        "requestBody": _body(ANSWER),
        "responses": _with_cookie({**_ok(SIGNED_IN),
                                   **_refusals(Code.BAD_REQUEST, Code.CEREMONY_GONE,
                                               Code.PASSKEY_REFUSED, *POST_GATE)}, "200")}},
    "/api/accounts/me": {"get": {
        "operationId": "me",
        "summary": "who this browser is: the signed-in account and the session's CSRF token",
        "responses": _ok({"oneOf": [
            _obj(["signed_in"], {"signed_in": {"const": False}}),
            _obj(["signed_in", "name", "since", "passkeys", "sessions", "rating", "csrf"], {
                "signed_in": {"const": True}, "name": STRING, "since": {"type": "number"},
                "passkeys": {"type": "integer"}, "sessions": {"type": "integer"},
                "rating": _obj(["rating", "interval", "games"], {
                    **SHOWN_RATING, "games": {"type": "integer", "minimum": 0}}),
                "csrf": STRING})]})}},
    "/api/accounts/signout": {"post": {
        "operationId": "signout", "summary": "end this session",
        "requestBody": _body(_obj([], {})),
        "responses": _with_cookie({**_ok(_obj(["signed_out"], {"signed_out": {"const": 1}})),
                                   **_refusals(Code.BAD_REQUEST, Code.SIGNED_OUT,
                                               *POST_GATE)}, "200")}},
    "/api/accounts/signout-everywhere": {"post": {
        "operationId": "signout_everywhere", "summary": "end every session of the account",
        "requestBody": _body(_obj([], {})),
        "responses": _with_cookie({**_ok(_obj(["signed_out"], {
            "signed_out": {"type": "integer", "minimum": 0}})),
            **_refusals(Code.BAD_REQUEST, Code.SIGNED_OUT, *POST_GATE)}, "200")}},
    "/api/accounts/passkeys": {
        "get": {"operationId": "passkeys", "summary": "the account's passkeys, oldest first",
                "responses": {**_ok(_obj(["passkeys"], {"passkeys": {
                    "type": "array", "items": _obj(["id", "created", "used"], {
                        "id": PASSKEY_ID, "created": {"type": "number"},
                        "used": {"type": ["number", "null"], "description": "its last "
                                 "sign-in, seconds since the epoch; null: never"}})}})),
                    **_refusals(Code.SIGNED_OUT)}},
        "post": {"operationId": "add_passkey",
                 "summary": "the new passkey's answer: added to the signed-in account",
                 "requestBody": _body(ANSWER),
                 "responses": {**_ok(_obj(["passkeys"], {"passkeys": {
                     "type": "integer", "minimum": 2, "description": "how many the account "
                     "holds now"}}), 201, description="added"),
                     **_refusals(Code.BAD_REQUEST, Code.SIGNED_OUT, Code.CEREMONY_GONE,
                                 Code.PASSKEY_REFUSED, Code.TOO_MANY_PASSKEYS, *POST_GATE)}}},
    "/api/accounts/passkeys/options": {"post": {
        "operationId": "passkey_options",
        "summary": "the options for another passkey of the signed-in account",
        "requestBody": _body(_obj([], {})),
        "responses": {**_ok(CEREMONY),
                      **_refusals(Code.BAD_REQUEST, Code.SIGNED_OUT, Code.TOO_MANY_CEREMONIES,
                                  *POST_GATE)}}},
    "/api/accounts/passkeys/remove": {"post": {
        "operationId": "remove_passkey",
        "summary": "remove one of the account's passkeys (never its last)",
        "requestBody": _body(_obj(["id"], {"id": PASSKEY_ID})),
        "responses": {**_ok(_obj(["removed", "passkeys"], {
            "removed": PASSKEY_ID, "passkeys": {"type": "integer", "minimum": 1}})),
            **_refusals(Code.BAD_REQUEST, Code.SIGNED_OUT, Code.UNKNOWN_PASSKEY,
                        Code.LAST_PASSKEY, *POST_GATE)}}},
    "/api/accounts/delete": {"post": {
        "operationId": "delete_account",
        "summary": "delete the account, its passkeys and sessions (its name, to confirm)",
        "requestBody": _body(_obj(["name"], {"name": STRING})),
        "responses": _with_cookie({**_ok(_obj(["deleted"], {"deleted": STRING})),
                                   **_refusals(Code.BAD_REQUEST, Code.SIGNED_OUT,
                                               *POST_GATE)}, "200")}},
}

#: A game on a player's page.
PLAYED: Final = _obj(["game", "ended_at", "players", "seat", "place", "rated", "reason",
                      "change"], {
    "game": {"type": "string", "pattern": TABLE_ID}, "ended_at": {"type": "number"},
    "players": PLAYERS, "seat": SEAT_NUMBER,
    "place": {"type": ["integer", "null"], "minimum": 1,
              "description": "1 = won; null: the game did not finish"},
    "rated": {"type": "boolean"}, "reason": STRING,
    "change": {"type": ["integer", "null"],
               "description": "the shown rating after less before; null: unrated"}})
PLAYER_NAME_PARAM: Final = {"name": "name", "in": "path", "required": True,
                            "schema": STRING, "description": "an account's name (case, "
                            "width and look-alikes folded, as names are unique)"}
PLAYER_PATHS: Final[dict[str, dict[str, Any]]] = {
    "/api/players": {"get": {
        "operationId": "leaderboard",
        "summary": "players with a rated game, best rating first, and the bots' ratings",
        "parameters": [{"name": "limit", "in": "query", "required": False,
                        "schema": _query_int(1, 100)}],
        "responses": {**_ok(_obj(["players", "bots"], {
            "players": {"type": "array", "items": _obj(
                ["place", "name", "rating", "interval", "games", "last_played"], {
                    "place": {"type": "integer", "minimum": 1}, "name": STRING,
                    **SHOWN_RATING, "games": {"type": "integer", "minimum": 1},
                    "last_played": {"type": ["number", "null"]}})},
            "bots": {"type": "array", "items": _obj(["level", "rating", "interval"], {
                "level": BOTS, **SHOWN_RATING})}})),
            **_refusals(Code.BAD_REQUEST, Code.ARCHIVE_UNAVAILABLE)}}},
    "/api/players/{name}": {"get": {
        "operationId": "player",
        "summary": "one player: rating, its history over rated games, recent games",
        "parameters": [PLAYER_NAME_PARAM],
        "responses": {**_ok(_obj(["name", "since", "rating", "interval", "games",
                                  "last_played", "history", "recent"], {
            "name": STRING, "since": {"type": "number"}, **SHOWN_RATING,
            "games": {"type": "integer", "minimum": 0},
            "last_played": {"type": ["number", "null"]},
            "history": {"type": "array", "items": _obj(
                ["game", "at", "rating", "interval", "change", "place", "players"], {
                    "game": {"type": "string", "pattern": TABLE_ID},
                    "at": {"type": "number"}, **SHOWN_RATING,
                    "change": {"type": "integer"},
                    "place": {"type": "integer", "minimum": 1}, "players": PLAYERS})},
            "recent": {"type": "array", "items": PLAYED}})),
            **_refusals(Code.NO_PLAYER, Code.ARCHIVE_UNAVAILABLE)}}},
    "/players": {"get": {
        "operationId": "players_page", "summary": "the leaderboard's page",
        "responses": _ok(STRING, media="text/html; charset=utf-8")}},
    "/players/{name}": {"get": {
        "operationId": "player_page",
        "summary": "a player's page (it asks the API; 404: the same page)",
        "parameters": [PLAYER_NAME_PARAM],
        "responses": {**_ok(STRING, media="text/html; charset=utf-8"),
                      "404": {"description": "no player has that name: the page says so",
                              "content": {"text/html; charset=utf-8": {"schema": STRING}}}}}},
}

PATHS: Final[dict[str, dict[str, Any]]] = {
    "/api/openapi.json": {"get": {
        "operationId": "openapi", "summary": "this document",
        "responses": _ok(ANY_OBJECT)}},
    "/api/rules": {"get": {
        "operationId": "rules", "summary": "the rules catalogue and its limits",
        "responses": _ok(_obj(["limits"], {"limits": ANY_OBJECT}, closed=False))}},
    "/api/tables": {
        "get": {"operationId": "list_tables", "summary": "open tables",
                "responses": _ok(_obj(["tables"], {
                    "tables": {"type": "array", "items": _ref("TableSummary")}}))},
        "post": {"operationId": "create_table", "summary": "a table with empty chairs",
                 "requestBody": _body(_obj([], {"players": PLAYERS, "bots": BOTS,
                                                "pace": PACE, "hints": HINTS,
                                                "rated": RATED})),
                 "responses": {**_ok(_ref("TableInfo"), 201, description="created"),
                               **_refusals(Code.BAD_REQUEST, Code.BAD_PLAYERS,
                                           Code.BAD_BOTS, Code.BAD_PACE, Code.RATED_HINTS,
                                           Code.SIGNED_OUT, *NEW_TABLE, *POST_GATE)}}},
    "/api/play-now": {"post": {
        "operationId": "play_now",
        "summary": "a table against bots with the caller in seat 0 (not started)",
        "requestBody": _body(_obj([], {"name": NAME, "players": PLAYERS, "bots": BOTS,
                                       "pace": PACE, "rated": RATED})),
        "responses": {
            **_ok(_obj(["table", "players", "fingerprint", "invite", "seat", "token"], {
                **SCHEMAS["TableInfo"]["properties"], "seat": {"const": 0},
                "token": STRING}), 201, description="created"),
            **_refusals(Code.BAD_REQUEST, Code.BAD_PLAYERS, Code.BAD_BOTS, Code.BAD_NAME,
                        Code.BAD_PACE, Code.SIGNED_OUT, *NEW_TABLE, *POST_GATE)}}},
    "/api/tables/{table}/join": {"post": {
        "operationId": "join", "summary": "take the next free seat",
        "parameters": [TABLE_PARAM],
        "requestBody": _body(_obj(["name"], {"name": NAME})),
        "responses": {
            **_ok(_obj(["table", "seat", "token", "fingerprint"], {
                "table": {"type": "string", "pattern": TABLE_ID}, "seat": SEAT_NUMBER,
                "token": STRING, "fingerprint": FINGERPRINT})),
            **_refusals(Code.BAD_REQUEST, Code.BAD_NAME, Code.UNKNOWN_TABLE, Code.NOT_FOUND,
                        Code.ALREADY_STARTED, Code.TABLE_FULL, Code.TABLE_CLOSED,
                        Code.SIGNED_OUT, Code.ALREADY_SEATED, *POST_GATE)}}},
    "/api/tables/{table}/commit": {"post": {
        "operationId": "commit",
        "summary": "a seated player's commitment to its client seed, before the start",
        "parameters": [TABLE_PARAM],
        "requestBody": _body(_obj(["token", "commitment"], {
            "token": STRING, "commitment": COMMITMENT})),
        "responses": {**_ok(_obj(["table", "committed"], {
                          "table": STRING, "committed": {"const": True}})),
                      **_refusals(*TABLE_WRITE, Code.BAD_COMMITMENT, Code.ALREADY_COMMITTED)}}},
    "/api/tables/{table}/start": {"post": {
        "operationId": "start",
        "summary": "start the game (the host; anyone seated once the host has been away for "
                   "30 s); bots take the empty chairs and every commitment is fixed",
        "parameters": [TABLE_PARAM],
        "requestBody": _body(_obj(["token"], {"token": STRING})),
        "responses": {**_ok(_obj(["table", "started", "commitments"], {
                          "table": STRING, "started": {"const": True},
                          "commitments": {"type": "array",
                                          "items": {"anyOf": [COMMITMENT, {"type": "null"}]}}})),
                      **_refusals(*TABLE_WRITE, Code.NOT_HOST)}}},
    "/api/tables/{table}/reveal": {"post": {
        "operationId": "reveal",
        "summary": "a seat's client seed, once the start has fixed every commitment and "
                   "before the reveal closes; it must match the seat's commitment",
        "parameters": [TABLE_PARAM],
        "requestBody": _body(_obj(["token", "client_seed"], {
            "token": STRING, "client_seed": CLIENT_SEED})),
        "responses": {**_ok(_obj(["table", "revealed"], {
                          "table": STRING, "revealed": {"const": True}})),
                      **_refusals(*TABLE_WRITE, Code.BAD_CLIENT_SEED, Code.NOT_REVEALING,
                                  Code.NO_COMMITMENT, Code.SEED_MISMATCH,
                                  Code.ALREADY_REVEALED)}}},
    "/api/games": {"get": {
        "operationId": "list_games", "summary": "the games that ended last, newest first",
        "parameters": [{"name": "limit", "in": "query", "required": False,
                        "schema": _query_int(1, MAX_LIST)}],
        "responses": {**_ok(_obj(["games"], {"games": {"type": "array",
                                                       "items": _ref("GameSummary")}})),
                      **_refusals(Code.BAD_REQUEST, Code.ARCHIVE_UNAVAILABLE)}}},
    "/api/games/{game}": {"get": {
        "operationId": "game", "summary": "one ended game", "parameters": [GAME_PARAM],
        "responses": {**_ok(_obj(["id", "seed"], {"id": STRING, "seed": STRING},
                                 closed=False)),
                      **_refusals(Code.UNKNOWN_GAME, Code.NOT_FOUND,
                                  Code.ARCHIVE_UNAVAILABLE)}}},
    "/api/games/{game}/replay": {"get": {
        "operationId": "replay", "summary": "an ended game replayed, whole or at ?step",
        "parameters": [GAME_PARAM, {"name": "step", "in": "query", "required": False,
                                    "schema": _query_int(0, MAX_VALUE)}],
        "responses": {**_ok(_obj(["id"], {"id": STRING}, closed=False)),
                      **_refusals(Code.BAD_REQUEST, Code.BAD_STEP, Code.UNKNOWN_GAME,
                                  Code.NOT_FOUND, Code.ARCHIVE_UNAVAILABLE,
                                  also={422: (Code.BAD_STEP,)})}}},
    "/api/games/{game}/views": {"get": {
        "operationId": "replay_views",
        "summary": "a seat's (or, without ?seat, the spectator's) view after each step",
        "parameters": [GAME_PARAM, {"name": "seat", "in": "query", "required": False,
                                    "schema": _query_int(0, MAX_PLAYERS - 1)}],
        "responses": {**_ok(_obj(["id", "seat", "start", "patches"], {
                          "id": STRING, "start": {"type": "object"},
                          "patches": {"type": "array"}}, closed=False)),
                      **_refusals(Code.BAD_REQUEST, Code.BAD_SEAT, Code.UNKNOWN_GAME,
                                  Code.NOT_FOUND, Code.ARCHIVE_UNAVAILABLE,
                                  also={422: (Code.BAD_STEP,)})}}},
    "/api/games/{game}/charts": {"get": {
        "operationId": "charts",
        "summary": "an ended game's numbers by round and by source, for its charts",
        "parameters": [GAME_PARAM],
        "responses": {**_ok(_obj(["id", "points", "sources"], {
                          "id": STRING, "points": {"type": "array"},
                          "sources": {"type": "array"}}, closed=False)),
                      **_refusals(Code.UNKNOWN_GAME, Code.NOT_FOUND,
                                  Code.ARCHIVE_UNAVAILABLE, also={422: (Code.BAD_STEP,)})}}},
    "/api/games/{game}/analysis": {"get": {
        "operationId": "analysis",
        "summary": "an ended game's post-game analysis: started by the first ask, 202 with "
                   "its progress until done",
        "parameters": [GAME_PARAM],
        "responses": {**_ok(_obj(["status", "id", "iterations", "players", "decisions"], {
                          "status": {"const": "done"}, "id": STRING,
                          "iterations": {"type": "integer"},
                          "players": {"type": "array"}, "decisions": {"type": "array"}},
                          closed=False)),
                      "202": {"description": "being analysed (ask again after Retry-After "
                                             "seconds)",
                              "headers": {"Retry-After": RETRY_AFTER},
                              "content": {JSON: {"schema": _obj(
                                  ["status", "id", "done", "total", "message"], {
                                      "status": {"const": "running"}, "id": STRING,
                                      "done": {"type": "integer"},
                                      "total": {"type": "integer"},
                                      "message": STRING})}}},
                      **_refusals(Code.UNKNOWN_GAME, Code.NOT_FOUND,
                                  Code.ARCHIVE_UNAVAILABLE, Code.ANALYSIS_BUSY,
                                  also={422: (Code.BAD_STEP,)})}}},
    "/games/{game}.json": {"get": {
        "operationId": "record", "summary": "an ended game's record (a download)",
        "parameters": [GAME_PARAM],
        "responses": {**_ok(_obj(["seed", "actions"], {}, closed=False)),
                      "202": {"description": "ended, its record not yet written: the "
                                             "archive is failing (ask again after "
                                             "Retry-After seconds)",
                              "headers": {"Retry-After": RETRY_AFTER},
                              "content": {JSON: {"schema": _obj(
                                  ["status", "id", "pending_since", "message"], {
                                      "status": {"const": "pending"}, "id": STRING,
                                      "pending_since": {"type": "number"},
                                      "message": STRING})}}},
                      **_refusals(Code.UNKNOWN_GAME, Code.NOT_FOUND,
                                  Code.ARCHIVE_UNAVAILABLE)}}},
    "/games/{game}": {"get": {
        "operationId": "game_page", "summary": "an ended game's page (404: the same page)",
        "parameters": [GAME_PARAM],
        "responses": {**_ok(STRING, media="text/html; charset=utf-8"),
                      "404": {"description": "no such game: the page says so (not_found: "
                                             "the page itself is missing)", "content": {
                          "text/html; charset=utf-8": {"schema": STRING},
                          JSON: _error(Code.NOT_FOUND)["content"][JSON]}},
                      **_refusals(Code.ARCHIVE_UNAVAILABLE)}}},
    "/status.json": {"get": {
        "operationId": "status", "summary": "operators' status (loopback or bearer token)",
        "responses": {**_ok(_obj(["tables", "crash_count"], {}, closed=False)),
                      **_refusals(Code.OPERATOR_TOKEN, Code.OPERATORS_ONLY)}}},
    "/healthz": {"get": {
        "operationId": "health", "summary": "the process answers (HAProxy's check in a "
                                            "cluster); draining: it takes no new tables",
        "responses": _ok(_obj(["ok", "draining"], {"ok": {"type": "boolean"},
                                                   "draining": {"type": "boolean"}}))}},
    "/status": {"get": {
        "operationId": "status_page", "summary": "the status page (a shell with no data)",
        "responses": _ok(STRING, media="text/html; charset=utf-8")}},
    "/metrics": {"get": {
        "operationId": "metrics", "summary": "Prometheus metrics (as /status.json)",
        "responses": {**_ok(STRING, media="text/plain; version=0.0.4; charset=utf-8"),
                      **_refusals(Code.OPERATOR_TOKEN, Code.OPERATORS_ONLY)}}},
    **ACCOUNT_PATHS,
    **PLAYER_PATHS,
}


def _with_head(paths: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Every path that takes GET takes HEAD too: the same answer without its body."""
    out: dict[str, dict[str, Any]] = {}
    for path, ops in paths.items():
        out[path] = dict(ops)
        if "get" in ops:
            get = ops["get"]
            out[path]["head"] = {
                "operationId": f"{get['operationId']}_head",
                "summary": f"{get['summary']} (the head only)",
                **({"parameters": get["parameters"]} if "parameters" in get else {}),
                "responses": {status: {k: v for k, v in answer.items() if k != "content"}
                              for status, answer in get["responses"].items()}}
    return out


def document(server_url: str | None = None) -> dict[str, Any]:
    """The OpenAPI 3.1 document; ``server_url`` fills ``servers`` when given."""
    doc: dict[str, Any] = {
        "openapi": "3.1.0",
        "info": {"title": "Quaymoor", "version": "1",
                 "description": "The lobby and finished games over HTTP; the game itself is "
                                "the websocket at /ws (docs/protocol.md)."},
        "paths": _with_head(PATHS),
        "components": {"schemas": SCHEMAS, "responses": {
            "NotFound": _error(Code.NOT_FOUND) | {
                "description": "not_found: any path under /api/ that is not described here"},
            "MethodNotAllowed": _error(Code.METHOD_NOT_ALLOWED) | {
                "description": "method_not_allowed: a method a described path does not take"},
        }},
    }
    if server_url:
        doc["servers"] = [{"url": server_url}]
    return doc

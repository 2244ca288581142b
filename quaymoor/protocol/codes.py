"""Every code on the wire, in one table: error codes (with their HTTP status), websocket
close codes, the names of phases, and the rules' errors turned into codes.

An error that leaves the server carries a ``Code``: ``ProtocolError`` (a malformed
message), ``TableError`` (a refused lobby or attach request), the table's own refusals
(``spectator``, ``not_playing``) and the rules' errors through ``rules_code``. Over HTTP,
``HTTP_STATUS`` says which status goes with a code; codes missing from it are only ever
sent on the websocket. ``docs/protocol.md`` (sections 7 and 8) lists exactly these codes;
``tests/protocol/test_codes.py`` checks that it does.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import IntEnum, StrEnum
from typing import Final

from quaymoor.rules.errors import GameOver, NotYourDecision, RulesError


class Code(StrEnum):
    """A refusal's stable code: the ``code`` of an ``error`` message or HTTP error body."""

    # A malformed websocket message (``ProtocolError``).
    BAD_JSON = "bad_json"
    BAD_MESSAGE = "bad_message"
    UNKNOWN_TYPE = "unknown_type"
    BAD_ACTION = "bad_action"
    HELLO_FIRST = "hello_first"
    ALREADY_ATTACHED = "already_attached"
    # Refused by a table or the supervisor (``TableError``).
    UNKNOWN_TABLE = "unknown_table"
    BAD_TOKEN = "bad_token"
    TABLE_CLOSED = "table_closed"
    BAD_PLAYERS = "bad_players"
    BAD_BOTS = "bad_bots"
    BAD_NAME = "bad_name"
    BAD_CLIENT_SEED = "bad_client_seed"
    ALREADY_SEEDED = "already_seeded"
    ALREADY_STARTED = "already_started"
    TABLE_FULL = "table_full"
    SERVER_FULL = "server_full"
    # A client address over one of its limits (``config.ClientLimits``).
    TOO_MANY_NEW_TABLES = "too_many_new_tables"
    TOO_MANY_OPEN_TABLES = "too_many_open_tables"
    TOO_MANY_CONNECTIONS = "too_many_connections"
    IDLE_TIMEOUT = "idle_timeout"
    # An ``act`` the table or the rules refuse.
    SPECTATOR = "spectator"
    NOT_PLAYING = "not_playing"
    NOT_YOUR_DECISION = "not_your_decision"
    ILLEGAL_ACTION = "illegal_action"
    GAME_OVER = "game_over"
    # A ``vote_bot`` the table refuses (``actors.handover``).
    BAD_SEAT = "bad_seat"
    NOT_AWAY = "not_away"
    VOTE_NOT_OPEN = "vote_not_open"
    ALREADY_VOTED = "already_voted"
    # A ``chat`` or ``rematch`` the table refuses.
    BAD_CHAT = "bad_chat"
    CHAT_TOO_FAST = "chat_too_fast"
    NOT_FINISHED = "not_finished"
    # Table settings: who starts it, the bots' pace.
    NOT_HOST = "not_host"
    BAD_PACE = "bad_pace"
    # Only over HTTP.
    BAD_REQUEST = "bad_request"
    UNKNOWN_GAME = "unknown_game"
    BAD_STEP = "bad_step"
    ARCHIVE_UNAVAILABLE = "archive_unavailable"
    NOT_FOUND = "not_found"
    METHOD_NOT_ALLOWED = "method_not_allowed"
    UNSUPPORTED_MEDIA_TYPE = "unsupported_media_type"
    CROSS_SITE = "cross_site"
    OPERATORS_ONLY = "operators_only"
    OPERATOR_TOKEN = "operator_token"


#: The HTTP status of every code the HTTP side sends.
HTTP_STATUS: Final[Mapping[Code, int]] = {
    Code.BAD_REQUEST: 400,
    Code.BAD_PLAYERS: 400,
    Code.BAD_BOTS: 400,
    Code.BAD_NAME: 400,
    Code.BAD_CLIENT_SEED: 400,
    Code.BAD_PACE: 400,
    Code.BAD_STEP: 400,  #: 422 when the record itself does not replay (``http.games``)
    Code.OPERATOR_TOKEN: 401,
    Code.BAD_TOKEN: 403,
    Code.NOT_HOST: 403,
    Code.OPERATORS_ONLY: 403,
    Code.CROSS_SITE: 403,
    Code.UNKNOWN_TABLE: 404,
    Code.UNKNOWN_GAME: 404,
    Code.NOT_FOUND: 404,
    Code.METHOD_NOT_ALLOWED: 405,
    Code.ALREADY_STARTED: 409,
    Code.ALREADY_SEEDED: 409,
    Code.TABLE_FULL: 409,
    Code.TABLE_CLOSED: 409,
    Code.SERVER_FULL: 409,
    Code.UNSUPPORTED_MEDIA_TYPE: 415,
    Code.TOO_MANY_NEW_TABLES: 429,
    Code.TOO_MANY_OPEN_TABLES: 429,
    Code.ARCHIVE_UNAVAILABLE: 503,
}


def http_status(code: Code) -> int:
    """The HTTP status for ``code``. Raises ``KeyError`` for a websocket-only code."""
    return HTTP_STATUS[code]


class Close(IntEnum):
    """The close codes the server sends (trio-websocket itself closes an oversized
    message with 1009)."""

    NORMAL = 1000  #: the websocket handler returned
    POLICY = 1008  #: no hello in time, a first message that is not a hello, a flood
    INTERNAL_ERROR = 1011  #: the websocket handler raised
    TABLE_CLOSED = 4000  #: the table closed (lingering over, or never started)
    TABLE_CRASHED = 4001
    SHUTDOWN = 4002  #: the server is stopping
    TOO_SLOW = 4003  #: the connection's outbox was full
    UNKNOWN_TABLE = 4004
    BAD_TOKEN = 4005  #: the hello's token was refused, or the table closed meanwhile
    TOO_MANY_CONNECTIONS = 4006  #: the client's address holds as many websockets as it may
    IDLE = 4007  #: nothing received from the client for ``ClientLimits.idle_seconds``


def rules_code(exc: RulesError) -> Code:
    """The wire code of an error the rules raised while applying an action. Every other
    refusal of play (``IllegalAction``) is ``illegal_action``."""
    match exc:
        case NotYourDecision():
            return Code.NOT_YOUR_DECISION
        case GameOver():
            return Code.GAME_OVER
        case _:
            return Code.ILLEGAL_ACTION

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
    # The client seeds' commit and reveal (``docs/fairness.md``).
    BAD_COMMITMENT = "bad_commitment"
    ALREADY_COMMITTED = "already_committed"
    NOT_REVEALING = "not_revealing"
    NO_COMMITMENT = "no_commitment"
    SEED_MISMATCH = "seed_mismatch"
    ALREADY_REVEALED = "already_revealed"
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
    TABLE_PAUSED = "table_paused"
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
    HINTS_OFF = "hints_off"
    # Only over HTTP.
    BAD_REQUEST = "bad_request"
    UNKNOWN_GAME = "unknown_game"
    BAD_STEP = "bad_step"
    ARCHIVE_UNAVAILABLE = "archive_unavailable"
    ANALYSIS_BUSY = "analysis_busy"
    NOT_FOUND = "not_found"
    METHOD_NOT_ALLOWED = "method_not_allowed"
    UNSUPPORTED_MEDIA_TYPE = "unsupported_media_type"
    CROSS_SITE = "cross_site"
    OPERATORS_ONLY = "operators_only"
    OPERATOR_TOKEN = "operator_token"
    # Accounts (``accounts.service``, ``http.accounts_api``).
    NAME_TAKEN = "name_taken"
    PASSKEY_REFUSED = "passkey_refused"
    CEREMONY_GONE = "ceremony_gone"
    TOO_MANY_PASSKEYS = "too_many_passkeys"
    LAST_PASSKEY = "last_passkey"
    UNKNOWN_PASSKEY = "unknown_passkey"
    SIGNED_OUT = "signed_out"
    CSRF = "csrf"
    TOO_MANY_CEREMONIES = "too_many_ceremonies"
    # Rated games and players' pages.
    RATED_HINTS = "rated_hints"
    ALREADY_SEATED = "already_seated"
    NO_PLAYER = "no_player"


#: The HTTP status of every code the HTTP side sends.
HTTP_STATUS: Final[Mapping[Code, int]] = {
    Code.BAD_REQUEST: 400,
    Code.BAD_PLAYERS: 400,
    Code.BAD_BOTS: 400,
    Code.BAD_NAME: 400,
    Code.BAD_CLIENT_SEED: 400,
    Code.BAD_COMMITMENT: 400,
    Code.SEED_MISMATCH: 400,
    Code.BAD_PACE: 400,
    Code.OPERATOR_TOKEN: 401,
    Code.SIGNED_OUT: 401,
    Code.CSRF: 403,
    Code.NAME_TAKEN: 409,
    Code.PASSKEY_REFUSED: 400,
    Code.TOO_MANY_CEREMONIES: 429,
    Code.RATED_HINTS: 400,
    Code.ALREADY_SEATED: 409,
    Code.NO_PLAYER: 404,
    Code.BAD_TOKEN: 403,
    Code.NOT_HOST: 403,
    Code.OPERATORS_ONLY: 403,
    Code.CROSS_SITE: 403,
    Code.UNKNOWN_TABLE: 404,
    Code.UNKNOWN_GAME: 404,
    #: A step past the game's end (a query the document cannot bound: each game has its
    #: own length); 422 when the record itself does not replay (``http.games``).
    Code.BAD_STEP: 404,
    Code.BAD_SEAT: 404,  #: over HTTP: ``?seat`` past the game's seats
    Code.NOT_FOUND: 404,
    Code.CEREMONY_GONE: 404,
    Code.TOO_MANY_PASSKEYS: 409,
    Code.LAST_PASSKEY: 409,
    Code.UNKNOWN_PASSKEY: 404,
    Code.METHOD_NOT_ALLOWED: 405,
    Code.ALREADY_STARTED: 409,
    Code.ALREADY_COMMITTED: 409,
    Code.NOT_REVEALING: 409,
    Code.NO_COMMITMENT: 409,
    Code.ALREADY_REVEALED: 409,
    Code.TABLE_FULL: 409,
    Code.TABLE_CLOSED: 409,
    Code.SERVER_FULL: 409,
    Code.UNSUPPORTED_MEDIA_TYPE: 415,
    Code.TOO_MANY_NEW_TABLES: 429,
    Code.TOO_MANY_OPEN_TABLES: 429,
    Code.ARCHIVE_UNAVAILABLE: 503,
    Code.ANALYSIS_BUSY: 503,
}


#: What each code means, in a line (``web/wire.js`` carries these; docs/protocol.md
#: section 8 says when each is sent, at length).
CODE_MEANINGS: Final[Mapping[Code, str]] = {
    Code.BAD_JSON: "the message is not JSON, or holds a number that cannot be read exactly",
    Code.BAD_MESSAGE: "the message has the wrong shape: wrong or extra fields",
    Code.UNKNOWN_TYPE: "the message's type is not one the server knows",
    Code.BAD_ACTION: "the action is malformed",
    Code.HELLO_FIRST: "the first message must be hello",
    Code.ALREADY_ATTACHED: "this connection has sent its hello already",
    Code.UNKNOWN_TABLE: "no such table is open",
    Code.BAD_TOKEN: "that token is not a seat's at this table",
    Code.TABLE_CLOSED: "the table closed meanwhile",
    Code.BAD_PLAYERS: "a table seats 2 to 5",
    Code.BAD_BOTS: "the bots are easy, normal or hard",
    Code.BAD_NAME: "the name is empty or not valid Unicode",
    Code.BAD_CLIENT_SEED: "the client seed is not a non-empty string of at most 256 bytes "
                          "without NUL",
    Code.BAD_COMMITMENT: "the commitment is not 64 lowercase hex digits",
    Code.ALREADY_COMMITTED: "this seat has sent its commitment already",
    Code.NOT_REVEALING: "client seeds are revealed only once the start has fixed every "
                        "commitment, and before the reveal closes",
    Code.NO_COMMITMENT: "this seat sent no commitment before the start, so it has no seed "
                        "to reveal",
    Code.SEED_MISMATCH: "the client seed does not match this seat's commitment",
    Code.ALREADY_REVEALED: "this seat has revealed its client seed already",
    Code.ALREADY_STARTED: "the game has started",
    Code.TABLE_FULL: "every seat is taken",
    Code.SERVER_FULL: "the server takes no more tables now",
    Code.TOO_MANY_NEW_TABLES: "this address created too many tables in the last minute",
    Code.TOO_MANY_OPEN_TABLES: "this address has too many tables open",
    Code.TOO_MANY_CONNECTIONS: "this address holds too many websockets",
    Code.IDLE_TIMEOUT: "nothing was received for too long",
    Code.SPECTATOR: "spectators cannot do that",
    Code.NOT_PLAYING: "the game is not being played now",
    Code.TABLE_PAUSED: "the table is paused while its server waits for its database",
    Code.NOT_YOUR_DECISION: "it is not this seat's decision",
    Code.ILLEGAL_ACTION: "the rules do not allow that action now",
    Code.GAME_OVER: "the game has ended",
    Code.BAD_SEAT: "there is no such seat at this table",
    Code.NOT_AWAY: "that seat's player is not away",
    Code.VOTE_NOT_OPEN: "the vote opens after one of the away seat's decisions has timed out",
    Code.ALREADY_VOTED: "this seat has voted on that seat already",
    Code.BAD_CHAT: "the chat line is empty, shows nothing, is too long or not valid Unicode",
    Code.CHAT_TOO_FAST: "too many chat lines: wait a moment",
    Code.NOT_FINISHED: "a rematch is offered once the game has finished",
    Code.NOT_HOST: "only the table's host may start it (anyone, once the host is away 30 s)",
    Code.BAD_PACE: "the pace is people, steady or fast",
    Code.HINTS_OFF: "no hint now: hints are for your own decision at a table where every "
                    "other seat is a bot",
    Code.BAD_REQUEST: "the request body is malformed",
    Code.UNKNOWN_GAME: "no finished game has that id",
    Code.BAD_STEP: "the game has no such step, or its record does not replay",
    Code.ARCHIVE_UNAVAILABLE: "the archive cannot be read now",
    Code.ANALYSIS_BUSY: "too many analyses are waiting on this server; ask again soon",
    Code.NOT_FOUND: "nothing here",
    Code.METHOD_NOT_ALLOWED: "that method is not allowed here",
    Code.UNSUPPORTED_MEDIA_TYPE: "send the body as application/json",
    Code.CROSS_SITE: "another site's page cannot do this",
    Code.OPERATORS_ONLY: "for operators on this machine only",
    Code.OPERATOR_TOKEN: "this needs the operator token",
    Code.NAME_TAKEN: "that account name, or one that looks like it, is taken",
    Code.PASSKEY_REFUSED: "the passkey's answer does not verify",
    Code.CEREMONY_GONE: "that sign-in or registration is unknown, answered or expired",
    Code.TOO_MANY_PASSKEYS: "the account holds as many passkeys as it may: remove one first",
    Code.LAST_PASSKEY: "the account's only passkey cannot be removed",
    Code.UNKNOWN_PASSKEY: "the account has no passkey of that id",
    Code.SIGNED_OUT: "this needs you signed in",
    Code.CSRF: "this request needs your session's X-CSRF-Token",
    Code.TOO_MANY_CEREMONIES: "too many sign-ins under way; try again in a minute",
    Code.RATED_HINTS: "a rated table gives no hints",
    Code.ALREADY_SEATED: "your account has a seat at this rated table already",
    Code.NO_PLAYER: "no player has that name",
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
    #: This table's server is stopping, and ``game_ended`` ("shutdown", the seed) came
    #: first: the game is over, its record kept. Only that: on one process and in a
    #: cluster alike (a table whose record is still on its way is ``RECORD_PENDING``).
    SHUTDOWN = 4002
    TOO_SLOW = 4003  #: the connection's outbox was full
    UNKNOWN_TABLE = 4004
    BAD_TOKEN = 4005  #: the hello's token was refused, or the table closed meanwhile
    TOO_MANY_CONNECTIONS = 4006  #: the client's address holds as many websockets as it may
    IDLE = 4007  #: nothing received from the client for ``ClientLimits.idle_seconds``
    #: In a cluster: the table's process stopped and a survivor is ending its game (its
    #: record not archived yet): no ``game_ended`` yet, reconnect in a moment to get it.
    RECORD_PENDING = 4008


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


#: What each close code means, in a line (``web/wire.js``; docs/protocol.md section 7).
CLOSE_MEANINGS: Final[Mapping[Close, str]] = {
    Close.NORMAL: "normal closure",
    Close.POLICY: "no valid hello in time, or too many messages",
    Close.INTERNAL_ERROR: "an internal error in the server",
    Close.TABLE_CLOSED: "the table closed",
    Close.TABLE_CRASHED: "the table crashed",
    Close.SHUTDOWN: "the server is shutting down",
    Close.TOO_SLOW: "the client was too slow to read",
    Close.UNKNOWN_TABLE: "unknown table",
    Close.BAD_TOKEN: "the token was refused, or the table closed meanwhile",
    Close.TOO_MANY_CONNECTIONS: "this address holds too many websockets",
    Close.IDLE: "nothing was received for too long",
    Close.RECORD_PENDING: "the table's server stopped; its record is on its way: reconnect",
}
#: The close code trio-websocket sends itself, for a message over the size limit.
MESSAGE_TOO_BIG: Final = 1009

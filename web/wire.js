// @ts-check
// The wire's facts, generated from the server's Python sources by
// quaymoor/tools/wire_js.py: do not edit; run `quaymoor wire-js` (a test fails
// when this file is stale). docs/protocol.md says what each means.

/** The pace a table has unless one is chosen. */
export const DEFAULT_PACE = "people";

/**
 * Every error code (`error` messages, HTTP error bodies). (Readonly<Record<string, string>>)
 */
export const CODES = Object.freeze({
  "BAD_JSON": "bad_json",
  "BAD_MESSAGE": "bad_message",
  "UNKNOWN_TYPE": "unknown_type",
  "BAD_ACTION": "bad_action",
  "HELLO_FIRST": "hello_first",
  "ALREADY_ATTACHED": "already_attached",
  "UNKNOWN_TABLE": "unknown_table",
  "BAD_TOKEN": "bad_token",
  "TABLE_CLOSED": "table_closed",
  "BAD_PLAYERS": "bad_players",
  "BAD_BOTS": "bad_bots",
  "BAD_NAME": "bad_name",
  "BAD_CLIENT_SEED": "bad_client_seed",
  "BAD_COMMITMENT": "bad_commitment",
  "ALREADY_COMMITTED": "already_committed",
  "NOT_REVEALING": "not_revealing",
  "NO_COMMITMENT": "no_commitment",
  "SEED_MISMATCH": "seed_mismatch",
  "ALREADY_REVEALED": "already_revealed",
  "ALREADY_STARTED": "already_started",
  "TABLE_FULL": "table_full",
  "SERVER_FULL": "server_full",
  "TOO_MANY_NEW_TABLES": "too_many_new_tables",
  "TOO_MANY_OPEN_TABLES": "too_many_open_tables",
  "TOO_MANY_CONNECTIONS": "too_many_connections",
  "IDLE_TIMEOUT": "idle_timeout",
  "SPECTATOR": "spectator",
  "NOT_PLAYING": "not_playing",
  "TABLE_PAUSED": "table_paused",
  "NOT_YOUR_DECISION": "not_your_decision",
  "ILLEGAL_ACTION": "illegal_action",
  "GAME_OVER": "game_over",
  "BAD_SEAT": "bad_seat",
  "NOT_AWAY": "not_away",
  "VOTE_NOT_OPEN": "vote_not_open",
  "ALREADY_VOTED": "already_voted",
  "BAD_CHAT": "bad_chat",
  "CHAT_TOO_FAST": "chat_too_fast",
  "NOT_FINISHED": "not_finished",
  "NOT_HOST": "not_host",
  "BAD_PACE": "bad_pace",
  "HINTS_OFF": "hints_off",
  "BAD_REQUEST": "bad_request",
  "UNKNOWN_GAME": "unknown_game",
  "BAD_STEP": "bad_step",
  "ARCHIVE_UNAVAILABLE": "archive_unavailable",
  "ANALYSIS_BUSY": "analysis_busy",
  "NOT_FOUND": "not_found",
  "METHOD_NOT_ALLOWED": "method_not_allowed",
  "UNSUPPORTED_MEDIA_TYPE": "unsupported_media_type",
  "CROSS_SITE": "cross_site",
  "OPERATORS_ONLY": "operators_only",
  "OPERATOR_TOKEN": "operator_token",
  "NAME_TAKEN": "name_taken",
  "PASSKEY_REFUSED": "passkey_refused",
  "CEREMONY_GONE": "ceremony_gone",
  "TOO_MANY_PASSKEYS": "too_many_passkeys",
  "LAST_PASSKEY": "last_passkey",
  "UNKNOWN_PASSKEY": "unknown_passkey",
  "SIGNED_OUT": "signed_out",
  "CSRF": "csrf",
  "TOO_MANY_CEREMONIES": "too_many_ceremonies",
  "RATED_HINTS": "rated_hints",
  "ALREADY_SEATED": "already_seated",
  "NO_PLAYER": "no_player",
});

/**
 * What each error code means, in a line. (Readonly<Record<string, string>>)
 */
export const CODE_MEANINGS = Object.freeze({
  "bad_json": "the message is not JSON, or holds a number that cannot be read exactly",
  "bad_message": "the message has the wrong shape: wrong or extra fields",
  "unknown_type": "the message's type is not one the server knows",
  "bad_action": "the action is malformed",
  "hello_first": "the first message must be hello",
  "already_attached": "this connection has sent its hello already",
  "unknown_table": "no such table is open",
  "bad_token": "that token is not a seat's at this table",
  "table_closed": "the table closed meanwhile",
  "bad_players": "a table seats 2 to 5",
  "bad_bots": "the bots are easy, normal or hard",
  "bad_name": "the name is empty or not valid Unicode",
  "bad_client_seed": "the client seed is not a non-empty string of at most 256 bytes without NUL",
  "bad_commitment": "the commitment is not 64 lowercase hex digits",
  "already_committed": "this seat has sent its commitment already",
  "not_revealing": "client seeds are revealed only once the start has fixed every commitment, and before the reveal closes",
  "no_commitment": "this seat sent no commitment before the start, so it has no seed to reveal",
  "seed_mismatch": "the client seed does not match this seat's commitment",
  "already_revealed": "this seat has revealed its client seed already",
  "already_started": "the game has started",
  "table_full": "every seat is taken",
  "server_full": "the server takes no more tables now",
  "too_many_new_tables": "this address created too many tables in the last minute",
  "too_many_open_tables": "this address has too many tables open",
  "too_many_connections": "this address holds too many websockets",
  "idle_timeout": "nothing was received for too long",
  "spectator": "spectators cannot do that",
  "not_playing": "the game is not being played now",
  "table_paused": "the table is paused while its server waits for its database",
  "not_your_decision": "it is not this seat's decision",
  "illegal_action": "the rules do not allow that action now",
  "game_over": "the game has ended",
  "bad_seat": "there is no such seat at this table",
  "not_away": "that seat's player is not away",
  "vote_not_open": "the vote opens after one of the away seat's decisions has timed out",
  "already_voted": "this seat has voted on that seat already",
  "bad_chat": "the chat line is empty, shows nothing, is too long or not valid Unicode",
  "chat_too_fast": "too many chat lines: wait a moment",
  "not_finished": "a rematch is offered once the game has finished",
  "not_host": "only the table's host may start it (anyone, once the host is away 30 s)",
  "bad_pace": "the pace is people, steady or fast",
  "hints_off": "no hint now: hints are for your own decision at a table where every other seat is a bot",
  "bad_request": "the request body is malformed",
  "unknown_game": "no finished game has that id",
  "bad_step": "the game has no such step, or its record does not replay",
  "archive_unavailable": "the archive cannot be read now",
  "analysis_busy": "too many analyses are waiting on this server; ask again soon",
  "not_found": "nothing here",
  "method_not_allowed": "that method is not allowed here",
  "unsupported_media_type": "send the body as application/json",
  "cross_site": "another site's page cannot do this",
  "operators_only": "for operators on this machine only",
  "operator_token": "this needs the operator token",
  "name_taken": "that account name, or one that looks like it, is taken",
  "passkey_refused": "the passkey's answer does not verify",
  "ceremony_gone": "that sign-in or registration is unknown, answered or expired",
  "too_many_passkeys": "the account holds as many passkeys as it may: remove one first",
  "last_passkey": "the account's only passkey cannot be removed",
  "unknown_passkey": "the account has no passkey of that id",
  "signed_out": "this needs you signed in",
  "csrf": "this request needs your session's X-CSRF-Token",
  "too_many_ceremonies": "too many sign-ins under way; try again in a minute",
  "rated_hints": "a rated table gives no hints",
  "already_seated": "your account has a seat at this rated table already",
  "no_player": "no player has that name",
});

/**
 * The HTTP status of each code the HTTP API sends. (Readonly<Record<string, number>>)
 */
export const HTTP_STATUS = Object.freeze({
  "bad_request": 400,
  "bad_players": 400,
  "bad_bots": 400,
  "bad_name": 400,
  "bad_client_seed": 400,
  "bad_commitment": 400,
  "seed_mismatch": 400,
  "bad_pace": 400,
  "operator_token": 401,
  "signed_out": 401,
  "csrf": 403,
  "name_taken": 409,
  "passkey_refused": 400,
  "too_many_ceremonies": 429,
  "rated_hints": 400,
  "already_seated": 409,
  "no_player": 404,
  "bad_token": 403,
  "not_host": 403,
  "operators_only": 403,
  "cross_site": 403,
  "unknown_table": 404,
  "unknown_game": 404,
  "bad_step": 404,
  "bad_seat": 404,
  "not_found": 404,
  "ceremony_gone": 404,
  "too_many_passkeys": 409,
  "last_passkey": 409,
  "unknown_passkey": 404,
  "method_not_allowed": 405,
  "already_started": 409,
  "already_committed": 409,
  "not_revealing": 409,
  "no_commitment": 409,
  "already_revealed": 409,
  "table_full": 409,
  "table_closed": 409,
  "server_full": 409,
  "unsupported_media_type": 415,
  "too_many_new_tables": 429,
  "too_many_open_tables": 429,
  "archive_unavailable": 503,
  "analysis_busy": 503,
});

/**
 * Every websocket close code the server sends (and 1009, trio-websocket's own for a message too big). (Readonly<Record<string, number>>)
 */
export const CLOSE = Object.freeze({
  "NORMAL": 1000,
  "POLICY": 1008,
  "INTERNAL_ERROR": 1011,
  "TABLE_CLOSED": 4000,
  "TABLE_CRASHED": 4001,
  "SHUTDOWN": 4002,
  "TOO_SLOW": 4003,
  "UNKNOWN_TABLE": 4004,
  "BAD_TOKEN": 4005,
  "TOO_MANY_CONNECTIONS": 4006,
  "IDLE": 4007,
  "RECORD_PENDING": 4008,
  "MESSAGE_TOO_BIG": 1009,
});

/**
 * What each close code means, in a line. (Readonly<Record<string, string>>)
 */
export const CLOSE_MEANINGS = Object.freeze({
  "1000": "normal closure",
  "1008": "no valid hello in time, or too many messages",
  "1011": "an internal error in the server",
  "4000": "the table closed",
  "4001": "the table crashed",
  "4002": "the server is shutting down",
  "4003": "the client was too slow to read",
  "4004": "unknown table",
  "4005": "the token was refused, or the table closed meanwhile",
  "4006": "this address holds too many websockets",
  "4007": "nothing was received for too long",
  "4008": "the table's server stopped; its record is on its way: reconnect",
  "1009": "a message over 64 KiB",
});

/**
 * The phases (`board.phase`). (Readonly<Record<string, string>>)
 */
export const PHASES = Object.freeze({
  "PICK_ROLE": "pick_role",
  "SURVEYOR": "surveyor",
  "REEVE": "reeve",
  "MASON": "mason",
  "MILLER": "miller",
  "CHANDLER": "chandler",
  "BARGEMASTER": "bargemaster",
  "KEEP_GOODS": "keep_goods",
  "GAME_OVER": "game_over",
});

/**
 * The goods, in the order of count lists such as `goods_made`. (ReadonlyArray<string>)
 */
export const GOODS = Object.freeze([
  "clay",
  "flax",
  "wool",
  "honey",
  "amber",
]);

/**
 * The plot kinds: the goods and the stone pit. (ReadonlyArray<string>)
 */
export const PLOT_KINDS = Object.freeze([
  "clay",
  "flax",
  "wool",
  "honey",
  "amber",
  "stone_pit",
]);

/**
 * The role cards, in table order. (ReadonlyArray<string>)
 */
export const ROLES = Object.freeze([
  "surveyor",
  "reeve",
  "mason",
  "miller",
  "chandler",
  "bargemaster",
  "pedlar",
]);

/**
 * The buildings, in the rules' order. (ReadonlyArray<string>)
 */
export const BUILDINGS = Object.freeze([
  "flax_shed",
  "wool_shed",
  "flax_mill",
  "wool_mill",
  "honey_house",
  "amber_works",
  "stall",
  "farmstead",
  "stonecutters_hut",
  "cellar",
  "almshouse",
  "counting_house",
  "market_cross",
  "granary",
  "manufactory",
  "academy",
  "lock_house",
  "boatyard",
  "guildhall",
  "manor",
  "dormitory",
  "toll_house",
  "moot_hall",
]);

/**
 * A table's state (`GET /api/tables`). (Readonly<Record<string, string>>)
 */
export const TABLE_STATES = Object.freeze({
  "WAITING": "waiting",
  "PLAYING": "playing",
  "FINISHED": "finished",
  "ENDED": "ended",
});

/**
 * The bots' paces (`pace`). (Readonly<Record<string, string>>)
 */
export const PACES = Object.freeze({
  "PEOPLE": "people",
  "STEADY": "steady",
  "FAST": "fast",
});

/**
 * Seconds a bot waits at each pace (unless the server overrides them all). (Readonly<Record<string, number>>)
 */
export const PACE_SECONDS = Object.freeze({
  "people": 1.6,
  "steady": 0.8,
  "fast": 0.2,
});

/**
 * Why a game ended (`game_ended`'s `reason`). (Readonly<Record<string, string>>)
 */
export const END_REASONS = Object.freeze({
  "FINISHED": "finished",
  "SHUTDOWN": "shutdown",
  "CRASHED": "crashed",
  "ABANDONED": "abandoned",
});

/**
 * Why the round is the last (`board.end_reasons`). (Readonly<Record<string, string>>)
 */
export const END_TRIGGERS = Object.freeze({
  "SEALS": "seals",
  "APPRENTICES": "apprentices",
  "HIGH_STREET": "high_street",
});

/**
 * The bot levels a table may have (`bots`). (ReadonlyArray<string>)
 */
export const BOT_LEVELS = Object.freeze([
  "easy",
  "normal",
  "hard",
  "expert",
]);

/**
 * The types of the messages a client sends. (Readonly<Record<string, string>>)
 */
export const CLIENT_MESSAGES = Object.freeze({
  "ACT": "act",
  "CHAT": "chat",
  "EXPLAIN": "explain",
  "HELLO": "hello",
  "HINT": "hint",
  "PACE": "pace",
  "PING": "ping",
  "REMATCH": "rematch",
  "RESYNC": "resync",
  "VOTE_BOT": "vote_bot",
});

/**
 * The types of the messages the server sends. (Readonly<Record<string, string>>)
 */
export const SERVER_MESSAGES = Object.freeze({
  "ACTED": "acted",
  "CHAT_LINE": "chat_line",
  "CHAT_RECENT": "chat_recent",
  "ERROR": "error",
  "EXPLANATION": "explanation",
  "GAME_ENDED": "game_ended",
  "GAME_STARTED": "game_started",
  "HINT": "hint",
  "LOBBY": "lobby",
  "PACE": "pace",
  "PONG": "pong",
  "REMATCH_OFFER": "rematch_offer",
  "REMATCH_SEAT": "rematch_seat",
  "SEEDS_COMMITTED": "seeds_committed",
  "TABLE_PAUSED": "table_paused",
  "TABLE_RESUMED": "table_resumed",
  "UPDATE": "update",
  "WATCHERS": "watchers",
  "WELCOME": "welcome",
});

/**
 * The types of an update's events. (Readonly<Record<string, string>>)
 */
export const EVENTS = Object.freeze({
  "APPRENTICE_BARGE_REFILLED": "apprentice_barge_refilled",
  "APPRENTICES_ARRANGED": "apprentices_arranged",
  "APPRENTICES_ARRIVED": "apprentices_arrived",
  "BARGE_EMPTIED": "barge_emptied",
  "BUILT": "built",
  "COIN_TAKEN": "coin_taken",
  "END_TRIGGERED": "end_triggered",
  "EXTRA_GOOD_TAKEN": "extra_good_taken",
  "GAME_ENDED": "game_ended",
  "GOODS_MADE": "goods_made",
  "GOODS_RETURNED": "goods_returned",
  "LOADED": "loaded",
  "MANUFACTORY_PAID": "manufactory_paid",
  "MARKET_HALL_EMPTIED": "market_hall_emptied",
  "PASSED": "passed",
  "PLOT_TAKEN": "plot_taken",
  "PLOTS_TURNED_UP": "plots_turned_up",
  "ROLE_PICKED": "role_picked",
  "ROUND_ENDED": "round_ended",
  "SOLD": "sold",
  "TIMED_OUT": "timed_out",
});

/**
 * The types of actions. (Readonly<Record<string, string>>)
 */
export const ACTIONS = Object.freeze({
  "BUILD": "build",
  "DONE": "done",
  "DRAW_PLOT": "draw_plot",
  "KEEP_GOOD": "keep_good",
  "LOAD": "load",
  "PASS": "pass",
  "PICK_ROLE": "pick_role",
  "PLACE_ON_BUILDING": "place_on_building",
  "PLACE_ON_PLOT": "place_on_plot",
  "SELL": "sell",
  "SHIP_ON_BOATYARD": "ship_on_boatyard",
  "STORE_GOODS": "store_goods",
  "TAKE_BACK_FROM_BUILDING": "take_back_from_building",
  "TAKE_BACK_FROM_PLOT": "take_back_from_plot",
  "TAKE_EXTRA_GOOD": "take_extra_good",
  "TAKE_PLOT": "take_plot",
  "TAKE_STONE_PIT": "take_stone_pit",
});

/**
 * Numbers a client shows. (Readonly<Record<string, number>>)
 */
export const LIMITS = Object.freeze({
  "MAX_WATCHER_NAMES": 10,
  "WATCHERS_EVERY": 2.0,
});

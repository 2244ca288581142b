// @ts-check
// What the players' pages say (players.html: the leaderboard; player.html: one player),
// worked out without a DOM: places ("1st", "1st of 2"), rating changes ("+32", "−12",
// "±0"), a rating with its 95% interval, how long ago, the leaderboard read from
// GET /api/players (what is malformed is left out, never thrown), and an error's
// sentence. Pure: tested under node (tests/web_model/players.test.mjs).

/**
 * A leaderboard's row, as GET /api/players lists it (best first).
 * @typedef {object} PlayerRow
 * @property {number} place 1-based; equal ratings may share one
 * @property {string} name
 * @property {number} rating the displayed rating (a new player 1500)
 * @property {[number, number] | null} interval its 95% interval
 * @property {number} games rated games played
 * @property {number | null} last_played seconds since the epoch
 */
/**
 * A bot level's fixed ladder rating.
 * @typedef {{level: string, rating: number, interval: [number, number] | null}} BotRow
 */
/** GET /api/players, as read. @typedef {{players: PlayerRow[], bots: BotRow[]}} Board */
/** A time for a <time> element. @typedef {{text: string, iso: string, full: string}} When */

/** The rating a player starts at. */
export const NEW_RATING = 1500;
/** How many players the leaderboard asks for (the server's most). */
export const BOARD_LIMIT = 100;
/** What the leaderboard says when nobody has played a rated game. */
export const EMPTY_BOARD = "No rated games yet: sign in and open a rated table from the lobby.";
const MINUS = "\u2212"; // a real minus sign, as wide as the plus

/**
 * A name inside a sentence set as text: isolated (U+2068 ... U+2069), as <bdi> isolates it
 * in markup, so that a right-to-left name, or one with a direction mark, cannot reorder
 * the words around it.
 * @param {string} name
 */
export const isolate = (name) => `\u2068${name}\u2069`;

/** @param {unknown} x @returns {x is number} */
const isNumber = (x) => typeof x === "number" && Number.isFinite(x);

/** @param {unknown} x @returns {Record<string, unknown>} an object's fields; none for anything else */
export function fields(x) {
  return x !== null && typeof x === "object" && !Array.isArray(x) ? /** @type {Record<string, unknown>} */ (x) : {};
}

/**
 * An interval as [low, high] (two finite numbers, low first), or null.
 * @param {unknown} x @returns {[number, number] | null}
 */
export function readInterval(x) {
  if (!Array.isArray(x) || x.length !== 2 || !isNumber(x[0]) || !isNumber(x[1])) return null;
  return x[0] <= x[1] ? [x[0], x[1]] : [x[1], x[0]];
}

/**
 * "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "102nd".
 * @param {number} n
 */
export function ordinal(n) {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? "th" : ({ 1: "st", 2: "nd", 3: "rd" })[n % 10] || "th";
  return `${n}${suffix}`;
}

/**
 * A finishing place among the table's players: "1st of 2"; null (not placed) when the
 * place is not a whole number from 1.
 * @param {unknown} place @param {unknown} players
 */
export function placeText(place, players) {
  if (!isNumber(place) || !Number.isInteger(place) || place < 1) return null;
  return isNumber(players) && players >= place ? `${ordinal(place)} of ${players}` : ordinal(place);
}

/**
 * A rating change as shown: "+32", "−12" (a minus sign), "±0"; null when there is none.
 * `kind` for its colour, `said` for a screen reader ("up 32", "down 12", "no change").
 * @param {unknown} change
 * @returns {{text: string, kind: "up" | "down" | "same", said: string} | null}
 */
export function changeText(change) {
  if (!isNumber(change)) return null;
  const n = Math.round(change);
  if (n > 0) return { text: `+${n}`, kind: "up", said: `up ${n}` };
  if (n < 0) return { text: `${MINUS}${-n}`, kind: "down", said: `down ${-n}` };
  return { text: "±0", kind: "same", said: "no change" };
}

/** "1101–1963" (an en dash), or "" without an interval. @param {[number, number] | null} interval */
export function intervalText(interval) {
  return interval ? `${Math.round(interval[0])}–${Math.round(interval[1])}` : "";
}

/**
 * A rating with its interval: "1532 (95% range 1101–1963)", or the rating alone.
 * @param {number} rating @param {[number, number] | null} interval
 */
export function ratingText(rating, interval) {
  const range = intervalText(interval);
  return range ? `${Math.round(rating)} (95% range ${range})` : String(Math.round(rating));
}

/**
 * The account's rating from GET /api/accounts/me (its `rating.rating`), or null when it has
 * none (signed out, an older server, anything malformed).
 * @param {unknown} me
 */
export function ratingOf(me) {
  const r = fields(fields(me).rating).rating;
  return isNumber(r) ? Math.round(r) : null;
}

/**
 * The top bar's account link: "Ada · 1532" with a rating, the name alone without.
 * @param {string} name @param {number | null | undefined} rating
 */
export function accountLinkText(name, rating) {
  return isNumber(rating) ? `${name} · ${Math.round(rating)}` : name;
}

/**
 * A time, for a <time> element: how long ago (`text`: "just now", "5 minutes ago",
 * "3 hours ago", "4 days ago", then the date), its ISO form, and in full (a title).
 * @param {number} at seconds since the epoch
 * @param {number} now seconds since the epoch
 * @param {string} [locale] the dates' language (the browser's when none)
 * @returns {When}
 */
export function whenText(at, now, locale) {
  const date = new Date(at * 1000);
  if (Number.isNaN(date.getTime())) return { text: "—", iso: "", full: "" }; // past what a Date holds
  const iso = date.toISOString();
  const full = date.toLocaleString(locale, { year: "numeric", month: "long", day: "numeric", hour: "2-digit", minute: "2-digit" });
  const s = Math.max(0, now - at);
  let text;
  if (s < 90) text = "just now";
  else if (s < 90 * 60) text = `${Math.round(s / 60)} minutes ago`;
  else if (s < 36 * 3600) text = `${Math.round(s / 3600)} hours ago`;
  else if (s < 14 * 86400) text = `${Math.round(s / 86400)} days ago`;
  else text = date.toLocaleDateString(locale, { year: "numeric", month: "short", day: "numeric" });
  return { text, iso, full };
}

/**
 * A date only ("14 March 2026"), for "member since", with its ISO day.
 * @param {number} at seconds since the epoch @param {string} [locale]
 */
export function dayText(at, locale) {
  const date = new Date(at * 1000);
  if (Number.isNaN(date.getTime())) return { text: "—", iso: "" };
  return { text: date.toLocaleDateString(locale, { year: "numeric", month: "long", day: "numeric" }),
    iso: date.toISOString().slice(0, 10) };
}

/** A name for a bot level: "hard" -> "Hard bot". @param {string} level */
export function botName(level) {
  return `${level.charAt(0).toUpperCase()}${level.slice(1)} bot`;
}

/** A player's page: /players/<name>, the name escaped. @param {string} name */
export function playerHref(name) {
  return `/players/${encodeURIComponent(name)}`;
}

/**
 * GET /api/players read for the page: each row with a name and a rating kept (the place
 * its position when it has none, no interval, 0 games, no date when those are malformed),
 * anything else left out; not an object at all: nothing.
 * @param {unknown} data
 * @returns {Board}
 */
export function readBoard(data) {
  const d = fields(data);
  /** @type {PlayerRow[]} */
  const players = [];
  for (const row of Array.isArray(d.players) ? d.players : []) {
    const r = fields(row);
    if (typeof r.name !== "string" || !r.name || !isNumber(r.rating)) continue;
    players.push({
      place: isNumber(r.place) && r.place >= 1 ? Math.floor(r.place) : players.length + 1,
      name: r.name,
      rating: Math.round(r.rating),
      interval: readInterval(r.interval),
      games: isNumber(r.games) && r.games >= 0 ? Math.floor(r.games) : 0,
      last_played: isNumber(r.last_played) ? r.last_played : null,
    });
  }
  /** @type {BotRow[]} */
  const bots = [];
  for (const row of Array.isArray(d.bots) ? d.bots : []) {
    const r = fields(row);
    if (typeof r.level !== "string" || !r.level || !isNumber(r.rating)) continue;
    bots.push({ level: r.level, rating: Math.round(r.rating), interval: readInterval(r.interval) });
  }
  return { players, bots };
}

/**
 * Whether a row's place is shared with the row before or after it ("=2" is said as "2nd,
 * tied").
 * @param {PlayerRow[]} rows @param {number} i
 */
export function tied(rows, i) {
  const p = rows[i].place;
  return (i > 0 && rows[i - 1].place === p) || (i + 1 < rows.length && rows[i + 1].place === p);
}

/**
 * What the leaderboard's live region says once it has loaded.
 * @param {Board} board
 */
export function boardSummary(board) {
  const n = board.players.length;
  if (!n) return EMPTY_BOARD;
  const best = board.players[0];
  const more = n >= BOARD_LIMIT ? ` (the best ${BOARD_LIMIT} shown)` : "";
  return `${n} rated player${n === 1 ? "" : "s"}${more}; ${isolate(best.name)} leads with ${best.rating}.`;
}

/**
 * The sentence for a failure to load: the server's message (an ApiError's, with its
 * `code`), the network, or whatever else was thrown.
 * @param {unknown} err
 * @param {string} doing what could not be done ("Could not load the ratings")
 */
export function failureText(err, doing) {
  const e = fields(err);
  const message = typeof e.message === "string" ? e.message : String(err);
  const name = typeof e.name === "string" ? e.name : "";
  let why = message || name || "something went wrong";
  if (typeof e.code !== "string" && name === "TypeError" && /fetch|network|load failed/i.test(message)) {
    why = "the server could not be reached (check the connection, then try again)";
  }
  return `${doing}: ${why.replace(/[.:;,\s]+$/, "")}.`;
}

// @ts-check
// What a player's page (player.html, player.js) shows, worked out without a DOM: the name
// in the address (/players/<name>, escaped), GET /api/players/<name> read (what is
// malformed is left out, never thrown), each recent game's line and links, the rated
// games as a table, and the rating chart's geometry (points, scales, ticks, the interval's
// band), which player_chart.js draws. Pure: tested under node (tests/web_model/players.test.mjs).

import {
  NEW_RATING, changeText, fields, intervalText, placeText, readInterval, whenText,
} from "./players_model.js";

/**
 * A rated game in the player's history (oldest first): the rating after it.
 * @typedef {object} HistoryEntry
 * @property {string} game
 * @property {number} at seconds since the epoch
 * @property {number} rating
 * @property {[number, number] | null} interval
 * @property {number | null} change the displayed rating after minus before
 * @property {number | null} place
 * @property {number | null} players
 */
/**
 * One of the player's last games (newest first), rated or not.
 * @typedef {object} RecentGame
 * @property {string} game
 * @property {number | null} ended_at
 * @property {number | null} players
 * @property {number | null} place null: not finished, or not placed
 * @property {boolean} rated
 * @property {string} reason "finished", "shutdown", "crashed", ...
 * @property {number | null} change null: not rated, or not counted
 */
/**
 * GET /api/players/<name>, as read.
 * @typedef {object} Profile
 * @property {string} name
 * @property {number | null} since
 * @property {number} rating
 * @property {[number, number] | null} interval
 * @property {number} games
 * @property {number | null} last_played
 * @property {HistoryEntry[]} history
 * @property {RecentGame[]} recent
 */
/** A point of the chart. @typedef {{x: number, y: number, rating: number, index: number, game: string | null, at: number | null}} ChartPoint */
/**
 * The rating chart, in SVG units: the plot's edges, the points (the start first: the
 * rating before the first game, labelled 0), the line through them, the interval's band (clipped to
 * the plot), the ticks of both axes, and a line at 1500 when it is in view.
 * @typedef {object} ChartGeometry
 * @property {number} width
 * @property {number} height
 * @property {{left: number, right: number, top: number, bottom: number}} plot
 * @property {{min: number, max: number}} domain ratings at the bottom and the top
 * @property {ChartPoint[]} points
 * @property {string} line the polyline's points
 * @property {string} band an SVG path ("" when no game has an interval)
 * @property {{value: number, y: number}[]} yTicks
 * @property {{label: string, x: number}[]} xTicks
 * @property {number | null} baseline the y of 1500
 * @property {string} summary the chart in words, for its accessible name
 */

/** A game's id: 10 hex digits (a game page's address). */
const GAME_ID = /^[0-9a-f]{10}$/;
/** @type {Record<string, string>} */
const REASONS = { shutdown: "Ended when the server stopped", crashed: "Ended by a server fault" };

/** @param {unknown} x @returns {x is number} */
const isNumber = (x) => typeof x === "number" && Number.isFinite(x);
/** @param {unknown} x */
const numberOrNull = (x) => (isNumber(x) ? x : null);

/**
 * The player's name in a page's path (/players/<name>): `name` decoded, or null with the
 * `problem` to say (no name, or an escape that does not decode).
 * @param {string} pathname location.pathname
 * @returns {{name: string | null, problem: string | null}}
 */
export function nameFromPath(pathname) {
  const m = pathname.match(/^\/players\/(.*)$/);
  const raw = m ? m[1].replace(/\/$/, "") : "";
  if (!raw) return { name: null, problem: "This address names no player: a player's page is /players/ and the name." };
  try {
    return { name: decodeURIComponent(raw), problem: null };
  } catch {
    return { name: null, problem: "This address's name is not written correctly (a broken %-escape): open the player from the leaderboard." };
  }
}

/** @param {unknown} row @returns {HistoryEntry | null} */
function readEntry(row) {
  const r = fields(row);
  if (!isNumber(r.rating)) return null;
  return {
    game: typeof r.game === "string" ? r.game : "",
    at: isNumber(r.at) ? r.at : 0,
    rating: Math.round(r.rating),
    interval: readInterval(r.interval),
    change: isNumber(r.change) ? Math.round(r.change) : null,
    place: numberOrNull(r.place),
    players: numberOrNull(r.players),
  };
}

/** @param {unknown} row @returns {RecentGame | null} */
function readRecent(row) {
  const r = fields(row);
  if (typeof r.game !== "string") return null;
  return {
    game: r.game,
    ended_at: numberOrNull(r.ended_at),
    players: numberOrNull(r.players),
    place: numberOrNull(r.place),
    rated: r.rated === true,
    reason: typeof r.reason === "string" ? r.reason : "",
    change: isNumber(r.change) ? Math.round(r.change) : null,
  };
}

/**
 * GET /api/players/<name> read for the page; `asked` the name in the address, used when
 * the answer has none. A rating missing is the new player's.
 * @param {unknown} data @param {string} asked
 * @returns {Profile}
 */
export function readProfile(data, asked) {
  const d = fields(data);
  const list = (/** @type {unknown} */ x) => (Array.isArray(x) ? x : []);
  return {
    name: typeof d.name === "string" && d.name ? d.name : asked,
    since: numberOrNull(d.since),
    rating: isNumber(d.rating) ? Math.round(d.rating) : NEW_RATING,
    interval: readInterval(d.interval),
    games: isNumber(d.games) && d.games >= 0 ? Math.floor(d.games) : 0,
    last_played: numberOrNull(d.last_played),
    history: list(d.history).map(readEntry).filter((e) => e !== null),
    recent: list(d.recent).map(readRecent).filter((e) => e !== null),
  };
}

/**
 * A recent game's line: how it ended (its place, "1st of 2"), whether it was rated, the
 * change, when, and the links to its replay and its analysis (none for an id that is not
 * a game's; the analysis only for a game played to its end).
 * @param {RecentGame} g @param {number} now seconds since the epoch @param {string} [locale]
 */
export function recentLine(g, now, locale) {
  const finished = g.reason === "finished";
  const place = finished ? placeText(g.place, g.players) : null;
  const result = place || (finished ? "Played to the end" : REASONS[g.reason] || `Ended (${g.reason || "not finished"})`);
  const link = GAME_ID.test(g.game);
  const change = g.rated ? changeText(g.change) : null;
  return {
    game: g.game,
    result,
    won: finished && g.place === 1,
    rated: g.rated,
    badge: g.rated ? "Rated" : "Unrated",
    change,
    /** a rated game whose change is not known: not counted (it did not finish) */
    uncounted: g.rated && change === null,
    players: isNumber(g.players) ? `${g.players} players` : "",
    when: g.ended_at === null ? null : whenText(g.ended_at, now, locale),
    replay: link ? `/games/${g.game}` : null,
    analysis: link && finished ? `/games/${g.game}#analysis` : null,
  };
}

/**
 * The rated games as a table's rows, newest first (the chart's text alternative).
 * @param {HistoryEntry[]} history @param {number} now @param {string} [locale]
 */
export function historyRows(history, now, locale) {
  return history.map((e, i) => ({
    number: i + 1,
    game: e.game,
    href: GAME_ID.test(e.game) ? `/games/${e.game}` : null,
    when: e.at ? whenText(e.at, now, locale) : null,
    rating: String(e.rating),
    range: intervalText(e.interval),
    change: changeText(e.change),
    place: placeText(e.place, e.players) || "—",
  })).reverse();
}

/** A round step for an axis spanning `span` with 3 to 6 ticks. @param {number} span */
export function niceStep(span) {
  for (const step of [1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000]) if (span / step <= 5) return step;
  return Math.ceil(span / 5000) * 1000;
}

/**
 * The rating chart's geometry for `history` (oldest first), `width` by `height` SVG units.
 * The points are evenly spaced, one per rated game, after a start point (the rating before
 * the first game, when its change is known); the rating scale spans the ratings (at least
 * 100 points, padded to round ticks), and the band of each game's interval is cut at it.
 * Null when there is nothing to draw.
 * @param {HistoryEntry[]} history
 * @param {{width?: number, height?: number}} [size]
 * @returns {ChartGeometry | null}
 */
export function ratingChart(history, { width = 520, height = 220 } = {}) {
  const games = history.filter((e) => isNumber(e.rating));
  if (!games.length) return null;
  const first = games[0];
  /** @type {{rating: number, interval: [number, number] | null, game: string | null, at: number | null}[]} */
  const series = [];
  if (first.change !== null) series.push({ rating: first.rating - first.change, interval: null, game: null, at: null });
  for (const e of games) series.push({ rating: e.rating, interval: e.interval, game: e.game, at: e.at || null });
  const ratings = series.map((p) => p.rating);
  let lo = Math.min(...ratings);
  let hi = Math.max(...ratings);
  if (hi - lo < 100) { const mid = (hi + lo) / 2; lo = mid - 50; hi = mid + 50; }
  const pad = (hi - lo) * 0.1;
  const step = niceStep(hi - lo + 2 * pad);
  const min = Math.floor((lo - pad) / step) * step;
  const max = Math.ceil((hi + pad) / step) * step;
  const plot = { left: 44, right: width - 46, top: 12, bottom: height - 30 };
  /** @param {number} v */
  const y = (v) => plot.bottom - ((plot.bottom - plot.top) * (v - min)) / (max - min);
  /** @param {number} i */
  const x = (i) => (series.length > 1 ? plot.left + (i * (plot.right - plot.left)) / (series.length - 1)
    : (plot.left + plot.right) / 2);
  const offset = series.length - games.length; // 1 with a start point: game k is at index k
  /** @type {ChartPoint[]} */
  const points = series.map((p, i) => ({ x: x(i), y: y(p.rating), rating: p.rating, index: i + 1 - offset, game: p.game, at: p.at }));
  /** @param {number} v */
  const clip = (v) => Math.min(max, Math.max(min, v));
  const banded = series.map((p, i) => ({ i, interval: p.interval })).filter((p) => p.interval !== null);
  const r1 = (/** @type {number} */ n) => Math.round(n * 10) / 10;
  const band = banded.length ? `M ${[
    ...banded.map((p) => `${r1(x(p.i))},${r1(y(clip(/** @type {[number, number]} */ (p.interval)[1])))}`),
    ...banded.slice().reverse().map((p) => `${r1(x(p.i))},${r1(y(clip(/** @type {[number, number]} */ (p.interval)[0])))}`),
  ].join(" L ")} Z` : "";
  const yTicks = [];
  for (let v = min; v <= max; v += step) yTicks.push({ value: v, y: y(v) });
  const xStep = niceStep(games.length);
  const xTicks = [];
  if (offset) xTicks.push({ label: "0", x: x(0) }); // no game played yet
  for (let k = 1; k <= games.length; k++) {
    if ((k === 1 && !offset) || k === games.length || (k % xStep === 0 && games.length - k >= xStep / 2)) {
      xTicks.push({ label: String(k), x: x(k - 1 + offset) });
    }
  }
  const last = games[games.length - 1];
  const high = Math.max(...games.map((e) => e.rating));
  const low = Math.min(...games.map((e) => e.rating));
  const n = games.length;
  const summary = `Rating after each of ${n} rated game${n === 1 ? "" : "s"}: `
    + `${offset ? `from ${series[0].rating} ` : ""}to ${last.rating}`
    + `${n > 1 ? `, highest ${high}, lowest ${low}` : ""}`
    + `${last.interval ? `; now between ${intervalText(last.interval)} with 95% confidence` : ""}.`;
  return {
    width, height, plot, domain: { min, max }, points,
    line: points.map((p) => `${r1(p.x)},${r1(p.y)}`).join(" "),
    band, yTicks, xTicks,
    baseline: NEW_RATING > min && NEW_RATING < max ? y(NEW_RATING) : null,
    summary,
  };
}

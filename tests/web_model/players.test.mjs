// The players' pages' pure modules under node: web/players_model.js (places, changes,
// ratings as text, the leaderboard read from GET /api/players) and web/player_model.js
// (the name in the address, GET /api/players/<name> read, the recent games' lines, the
// rating chart's geometry). No DOM, no network. Run by tests/web_model/test_model_node.py.

import { test } from "node:test";
import assert from "node:assert/strict";
import {
  BOARD_LIMIT, EMPTY_BOARD, NEW_RATING, accountLinkText, isolate, boardSummary, botName, changeText,
  dayText, failureText, intervalText, ordinal, placeText, playerHref, ratingOf, ratingText,
  readBoard, readInterval, tied, whenText,
} from "../../web/players_model.js";
import {
  historyRows, nameFromPath, niceStep, ratingChart, readProfile, recentLine,
} from "../../web/player_model.js";

const MINUS = "\u2212";

// ---------------------------------------------------------------- words

test("ordinals: 1st 2nd 3rd 4th, the teens, and past 20", () => {
  const want = { 1: "1st", 2: "2nd", 3: "3rd", 4: "4th", 5: "5th", 10: "10th", 11: "11th", 12: "12th",
    13: "13th", 14: "14th", 21: "21st", 22: "22nd", 23: "23rd", 101: "101st", 111: "111th", 112: "112th", 122: "122nd" };
  for (const [n, text] of Object.entries(want)) assert.equal(ordinal(Number(n)), text);
});

test("a place among the players: '1st of 2'; not a place: null", () => {
  assert.equal(placeText(1, 2), "1st of 2");
  assert.equal(placeText(2, 2), "2nd of 2");
  assert.equal(placeText(3, 5), "3rd of 5");
  assert.equal(placeText(4, 4), "4th of 4");
  assert.equal(placeText(2, null), "2nd", "the count unknown: the place alone");
  assert.equal(placeText(3, 2), "3rd", "a count below the place is not believed");
  for (const bad of [null, undefined, 0, -1, 1.5, NaN, "1", Infinity]) assert.equal(placeText(bad, 2), null, String(bad));
});

test("changes: +32, a real minus sign, ±0; none for what is not a number", () => {
  assert.deepEqual(changeText(32), { text: "+32", kind: "up", said: "up 32" });
  assert.deepEqual(changeText(-12), { text: `${MINUS}12`, kind: "down", said: "down 12" });
  assert.deepEqual(changeText(0), { text: "±0", kind: "same", said: "no change" });
  assert.equal(changeText(-0.2).text, "±0", "rounded first");
  assert.equal(changeText(4.6).text, "+5");
  for (const bad of [null, undefined, "5", NaN, Infinity]) assert.equal(changeText(bad), null, String(bad));
});

test("a rating with its 95% range; the account link's text", () => {
  assert.equal(intervalText([1101, 1963]), "1101–1963");
  assert.equal(intervalText(null), "");
  assert.equal(ratingText(1532, [1101, 1963]), "1532 (95% range 1101–1963)");
  assert.equal(ratingText(1532.4, null), "1532");
  assert.deepEqual(readInterval([1963, 1101]), [1101, 1963], "put in order");
  for (const bad of [null, [1], [1, "2"], [1, 2, 3], { 0: 1, 1: 2 }, [NaN, 2]]) assert.equal(readInterval(bad), null);
  assert.equal(accountLinkText("Ada", 1532), "Ada · 1532");
  assert.equal(isolate("Ada"), "\u2068Ada\u2069");
  assert.equal(accountLinkText("Ada", null), "Ada");
  assert.equal(accountLinkText("Ada", undefined), "Ada");
  assert.equal(ratingOf({ name: "Ada", rating: { rating: 1532, interval: [1101, 1963], games: 3 } }), 1532);
  for (const none of [null, undefined, { name: "Ada" }, { rating: 1532 }, { rating: { rating: "1532" } }, "x"]) {
    assert.equal(ratingOf(none), null, JSON.stringify(none));
  }
});

test("how long ago, then the date; a date in the future is 'just now'", () => {
  const now = Date.UTC(2026, 2, 14, 12) / 1000;
  assert.equal(whenText(now - 30, now).text, "just now");
  assert.equal(whenText(now + 100, now).text, "just now");
  assert.equal(whenText(now - 5 * 60, now).text, "5 minutes ago");
  assert.equal(whenText(now - 3 * 3600, now).text, "3 hours ago");
  assert.equal(whenText(now - 4 * 86400, now).text, "4 days ago");
  const old = whenText(now - 60 * 86400, now, "en-GB");
  assert.equal(old.text, "13 Jan 2026");
  assert.equal(old.iso, "2026-01-13T12:00:00.000Z");
  assert.match(old.full, /13 January 2026/);
  assert.deepEqual(dayText(now, "en-US"), { text: "March 14, 2026", iso: "2026-03-14" });
  assert.deepEqual(whenText(1e20, now), { text: "—", iso: "", full: "" }, "past what a Date holds: no throw");
  assert.deepEqual(dayText(-1e20), { text: "—", iso: "" });
});

test("links and names: a player's page escapes the name; a bot level's name", () => {
  assert.equal(playerHref("Ada"), "/players/Ada");
  assert.equal(playerHref("Ada Lovelace"), "/players/Ada%20Lovelace");
  assert.equal(playerHref("a/b?c#d"), "/players/a%2Fb%3Fc%23d");
  assert.equal(playerHref("Зоя"), "/players/%D0%97%D0%BE%D1%8F");
  assert.equal(botName("hard"), "Hard bot");
  assert.equal(botName("expert"), "Expert bot");
});

test("an error said in words: the server's, the network's, anything thrown", () => {
  const apiError = Object.assign(new Error("the archive is away; try again"), { code: "archive_unavailable", status: 503 });
  assert.equal(failureText(apiError, "Could not load the ratings"), "Could not load the ratings: the archive is away; try again.");
  assert.match(failureText(new TypeError("Failed to fetch"), "Could not load the ratings"),
    /^Could not load the ratings: the server could not be reached/);
  assert.equal(failureText("odd", "Could not load Ada's page"), "Could not load Ada's page: odd.");
});

// ---------------------------------------------------------------- the leaderboard

const BOARD = {
  players: [
    { place: 1, name: "Ada", rating: 1532, interval: [1101, 1963], games: 3, last_played: 1765000000.5 },
    { place: 2, name: "Bede", rating: 1510, interval: [1200, 1820], games: 5, last_played: 1764000000 },
    { place: 2, name: "Зоя", rating: 1510, interval: [1190, 1830], games: 4, last_played: 1763000000 },
    { place: 4, name: "Cy", rating: 1400, interval: [1000, 1800], games: 1, last_played: 1762000000 },
  ],
  bots: [{ level: "easy", rating: 1210, interval: [1150, 1270] }, { level: "hard", rating: 1650, interval: [1580, 1720] }],
};

test("the leaderboard read as sent, with ties marked", () => {
  const b = readBoard(BOARD);
  assert.deepEqual(b.players.map((p) => [p.place, p.name, p.rating]), [[1, "Ada", 1532], [2, "Bede", 1510], [2, "Зоя", 1510], [4, "Cy", 1400]]);
  assert.deepEqual(b.players[0].interval, [1101, 1963]);
  assert.equal(b.players[0].games, 3);
  assert.equal(b.players[0].last_played, 1765000000.5);
  assert.deepEqual(b.bots, BOARD.bots);
  assert.deepEqual(b.players.map((_, i) => tied(b.players, i)), [false, true, true, false]);
  assert.equal(boardSummary(b), "4 rated players; \u2068Ada\u2069 leads with 1532.");
});

test("an empty leaderboard says how to get on it", () => {
  const b = readBoard({ players: [], bots: [] });
  assert.deepEqual(b, { players: [], bots: [] });
  assert.equal(boardSummary(b), EMPTY_BOARD);
  assert.match(EMPTY_BOARD, /^No rated games yet: sign in and open a rated table from the lobby/);
  const full = readBoard({ players: Array.from({ length: BOARD_LIMIT }, (_, i) => ({ place: i + 1, name: `P${i}`, rating: 2000 - i })) });
  assert.equal(boardSummary(full), "100 rated players (the best 100 shown); \u2068P0\u2069 leads with 2000.");
  assert.equal(boardSummary(readBoard({ players: [{ name: "مريم", rating: 1500 }] })), "1 rated player; \u2068مريم\u2069 leads with 1500.",
    "a name is isolated in a sentence: a right-to-left one cannot reorder the words around it");
});

test("a malformed leaderboard: rows without a name or rating left out, the rest defaulted", () => {
  for (const junk of [null, undefined, "x", 42, [], { players: "no" }, { players: null, bots: 3 }]) {
    assert.deepEqual(readBoard(junk), { players: [], bots: [] }, JSON.stringify(junk));
  }
  const b = readBoard({
    players: [null, "Ada", { name: "", rating: 1500 }, { name: "NoRating" }, { name: "Str", rating: "1500" },
      { name: "Ok", rating: 1500.6, place: "first", interval: [1], games: -2, last_played: "yesterday" },
      { name: "<b>Eve</b>", rating: 1400, place: 7, games: 2.9 }],
    bots: [{ level: "hard" }, { rating: 1600 }, { level: "normal", rating: 1400, interval: "wide" }],
  });
  assert.deepEqual(b.players, [
    { place: 1, name: "Ok", rating: 1501, interval: null, games: 0, last_played: null },
    { place: 7, name: "<b>Eve</b>", rating: 1400, interval: null, games: 2, last_played: null },
  ]);
  assert.deepEqual(b.bots, [{ level: "normal", rating: 1400, interval: null }]);
});

// ---------------------------------------------------------------- a player's page

test("the name in the address: decoded; none, or a broken escape, said", () => {
  assert.deepEqual(nameFromPath("/players/Ada"), { name: "Ada", problem: null });
  assert.deepEqual(nameFromPath("/players/Ada/"), { name: "Ada", problem: null });
  assert.equal(nameFromPath("/players/Ada%20Lovelace").name, "Ada Lovelace");
  assert.equal(nameFromPath("/players/%D0%97%D0%BE%D1%8F").name, "Зоя");
  assert.equal(nameFromPath("/players/a%2Fb").name, "a/b", "an escaped slash is part of the name");
  assert.equal(nameFromPath(playerHref("x%y")).name, "x%y", "round trip through the link");
  for (const none of ["/players/", "/players", "/elsewhere/Ada"]) {
    const r = nameFromPath(none);
    assert.equal(r.name, null, none);
    assert.match(r.problem, /names no player/);
  }
  for (const broken of ["/players/%E0%A4%A", "/players/%", "/players/100%25%"]) {
    const r = nameFromPath(broken);
    assert.equal(r.name, null, broken);
    assert.match(r.problem, /not written correctly/);
  }
});

const PROFILE = {
  name: "Ada", since: 1764000000.0, rating: 1532, interval: [1101, 1963], games: 3, last_played: 1765000000.5,
  history: [
    { game: "00000000a1", at: 1764100000, rating: 1520, interval: [1000, 2040], change: 20, place: 1, players: 2 },
    { game: "00000000a2", at: 1764200000, rating: 1500, interval: [1050, 1950], change: -20, place: 3, players: 3 },
    { game: "00000000a3", at: 1765000000.5, rating: 1532, interval: [1101, 1963], change: 32, place: 1, players: 2 },
  ],
  recent: [
    { game: "00000000a3", ended_at: 1765000000.5, players: 2, seat: 0, place: 1, rated: true, reason: "finished", change: 32 },
    { game: "00000000b1", ended_at: 1764900000, players: 4, seat: 2, place: null, rated: false, reason: "finished", change: null },
    { game: "00000000b2", ended_at: 1764800000, players: 3, seat: 1, place: null, rated: true, reason: "shutdown", change: null },
    { game: "00000000a2", ended_at: 1764200000, players: 3, seat: 1, place: 3, rated: true, reason: "finished", change: -20 },
  ],
};

test("a profile read as sent", () => {
  const p = readProfile(PROFILE, "ada");
  assert.equal(p.name, "Ada");
  assert.equal(p.rating, 1532);
  assert.deepEqual(p.interval, [1101, 1963]);
  assert.equal(p.games, 3);
  assert.equal(p.since, 1764000000);
  assert.equal(p.history.length, 3);
  assert.deepEqual(p.history[1], { game: "00000000a2", at: 1764200000, rating: 1500, interval: [1050, 1950], change: -20, place: 3, players: 3 });
  assert.equal(p.recent.length, 4);
  assert.deepEqual(p.recent[2], { game: "00000000b2", ended_at: 1764800000, players: 3, place: null, rated: true, reason: "shutdown", change: null });
});

test("a malformed profile: the asked name, a new player's rating, entries without their numbers left out", () => {
  const p = readProfile({ history: [{ game: "x" }, null, { rating: 1490, change: "-10" }], recent: [{ place: 1 }, 5, { game: "00000000c1", rated: "yes" }] }, "Zed");
  assert.equal(p.name, "Zed");
  assert.equal(p.rating, NEW_RATING);
  assert.equal(p.interval, null);
  assert.equal(p.games, 0);
  assert.equal(p.since, null);
  assert.deepEqual(p.history, [{ game: "", at: 0, rating: 1490, interval: null, change: null, place: null, players: null }]);
  assert.deepEqual(p.recent, [{ game: "00000000c1", ended_at: null, players: null, place: null, rated: false, reason: "", change: null }]);
  const nothing = readProfile(null, "Zed");
  assert.deepEqual([nothing.history, nothing.recent, nothing.name], [[], [], "Zed"]);
});

test("the recent games' lines: place of players, the badge, the change, the links", () => {
  const now = 1765000000.5 + 3600 * 3;
  const [won, unrated, shut, lost] = readProfile(PROFILE, "Ada").recent.map((g) => recentLine(g, now, "en-GB"));
  assert.equal(won.result, "1st of 2");
  assert.equal(won.won, true);
  assert.equal(won.badge, "Rated");
  assert.deepEqual(won.change, { text: "+32", kind: "up", said: "up 32" });
  assert.equal(won.uncounted, false);
  assert.equal(won.players, "2 players");
  assert.equal(won.when.text, "3 hours ago");
  assert.equal(won.replay, "/games/00000000a3");
  assert.equal(won.analysis, "/games/00000000a3#analysis");
  assert.equal(unrated.result, "Played to the end");
  assert.equal(unrated.badge, "Unrated");
  assert.equal(unrated.change, null);
  assert.equal(unrated.uncounted, false, "an unrated game has no change to count");
  assert.equal(shut.result, "Ended when the server stopped");
  assert.equal(shut.uncounted, true, "a rated game that did not finish is not counted");
  assert.equal(shut.replay, "/games/00000000b2");
  assert.equal(shut.analysis, null, "no analysis of a game not played to its end");
  assert.equal(lost.result, "3rd of 3");
  assert.equal(lost.won, false);
  assert.equal(lost.change.text, `${MINUS}20`);
  const oddGame = { game: "../etc", ended_at: null, players: null, place: null, rated: false, reason: "", change: 5 };
  const odd = recentLine(oddGame, now);
  assert.equal(odd.replay, null, "no link for what is not a game's id");
  assert.equal(odd.analysis, null);
  assert.equal(odd.when, null);
  assert.equal(odd.change, null, "an unrated game shows no change, whatever is sent");
  assert.equal(odd.result, "Ended (not finished)");
  assert.equal(recentLine({ ...oddGame, reason: "crashed" }, now).result, "Ended by a server fault");
});

test("the rated games as a table: newest first, numbered from the oldest", () => {
  const rows = historyRows(readProfile(PROFILE, "Ada").history, 1765000000.5 + 60, "en-GB");
  assert.deepEqual(rows.map((r) => [r.number, r.rating, r.range, r.change.text, r.place]), [
    [3, "1532", "1101–1963", "+32", "1st of 2"], [2, "1500", "1050–1950", `${MINUS}20`, "3rd of 3"], [1, "1520", "1000–2040", "+20", "1st of 2"]]);
  assert.equal(rows[0].href, "/games/00000000a3");
  assert.equal(rows[0].when.text, "just now");
  assert.deepEqual(historyRows([], 0), []);
});

// ---------------------------------------------------------------- the chart

test("round steps for an axis", () => {
  assert.equal(niceStep(3), 1);
  assert.equal(niceStep(12), 5);
  assert.equal(niceStep(50), 10);
  assert.equal(niceStep(120), 25);
  assert.equal(niceStep(1000), 200);
  assert.equal(niceStep(12000), 3000);
});

test("the chart: a start point, one point a game, evenly spaced, the scale's ends at the plot's edges", () => {
  const g = ratingChart(readProfile(PROFILE, "Ada").history, { width: 520, height: 220 });
  assert.deepEqual(g.points.map((p) => [p.index, p.rating]), [[0, 1500], [1, 1520], [2, 1500], [3, 1532]],
    "the start is the first rating less its change");
  assert.equal(g.points[0].x, g.plot.left);
  assert.equal(g.points.at(-1).x, g.plot.right);
  const dx = g.points.map((p, i) => (i ? p.x - g.points[i - 1].x : null)).slice(1);
  assert.ok(dx.every((d) => Math.abs(d - dx[0]) < 1e-9), "evenly spaced");
  const { min, max } = g.domain;
  assert.ok(min <= 1500 && max >= 1532, "every rating in view");
  assert.ok(max - min >= 100, "at least 100 points of scale");
  /** y of a rating, from the ticks: linear */
  const y = (v) => g.plot.bottom - ((g.plot.bottom - g.plot.top) * (v - min)) / (max - min);
  for (const p of g.points) assert.ok(Math.abs(p.y - y(p.rating)) < 1e-9);
  assert.equal(g.yTicks[0].value, min);
  assert.equal(g.yTicks[0].y, g.plot.bottom);
  assert.equal(g.yTicks.at(-1).value, max);
  assert.equal(g.yTicks.at(-1).y, g.plot.top);
  const step = g.yTicks[1].value - g.yTicks[0].value;
  assert.ok([10, 20, 25, 50].includes(step), `a round step: ${step}`);
  assert.ok(g.yTicks.length >= 3 && g.yTicks.length <= 7, `${g.yTicks.length} ticks`);
  assert.deepEqual(g.xTicks.map((t) => t.label), ["0", "1", "2", "3"]);
  assert.equal(g.line.split(" ").length, 4);
  assert.ok(Math.abs(g.baseline - y(1500)) < 1e-9, "the line at 1500");
  assert.match(g.summary, /^Rating after each of 3 rated games: from 1500 to 1532, highest 1532, lowest 1500; now between 1101–1963 with 95% confidence\.$/);
});

test("the chart's band: every game's interval, cut at the plot's edges", () => {
  const g = ratingChart(readProfile(PROFILE, "Ada").history);
  assert.match(g.band, /^M [\d.]+,[\d.]+( L [\d.]+,[\d.]+){5} Z$/, "three games up, three down");
  const ys = [...g.band.matchAll(/,([\d.]+)/g)].map((m) => Number(m[1]));
  for (const v of ys) assert.ok(v >= g.plot.top - 0.05 && v <= g.plot.bottom + 0.05, `${v} inside the plot`);
  const none = ratingChart([{ game: "", at: 0, rating: 1510, interval: null, change: 10, place: 1, players: 2 }]);
  assert.equal(none.band, "");
});

test("the chart of one game, of a game without its change, of many, and of none", () => {
  assert.equal(ratingChart([]), null);
  const one = ratingChart([{ game: "00000000a1", at: 1, rating: 1532, interval: [1100, 1960], change: 32, place: 1, players: 2 }]);
  assert.equal(one.points.length, 2, "the start and the game");
  assert.match(one.summary, /^Rating after each of 1 rated game: from 1500 to 1532;/);
  assert.deepEqual(one.xTicks.map((t) => t.label), ["0", "1"]);
  const alone = ratingChart([{ game: "", at: 0, rating: 1480, interval: null, change: null, place: null, players: null }], { width: 360, height: 200 });
  assert.equal(alone.points.length, 1);
  assert.equal(alone.points[0].x, (alone.plot.left + alone.plot.right) / 2, "a single point in the middle");
  assert.ok(alone.domain.min <= 1430 && alone.domain.max >= 1530, "a flat chart still spans 100");
  assert.deepEqual(alone.xTicks.map((t) => t.label), ["1"]);
  assert.equal(alone.width, 360);
  const many = Array.from({ length: 57 }, (_, i) => ({ game: "", at: i, rating: 1500 + 10 * Math.sin(i) + i * 3, interval: [1400, 1700], change: 3, place: 1, players: 2 }));
  const g = ratingChart(many);
  assert.equal(g.points.length, 58);
  const labels = g.xTicks.map((t) => t.label);
  assert.deepEqual(labels, ["0", "20", "40", "57"], "0 games, a round step, the last game always named");
  assert.equal(g.baseline === null || (g.baseline >= g.plot.top && g.baseline <= g.plot.bottom), true);
  const high = ratingChart([{ game: "", at: 0, rating: 2100, interval: [2000, 2200], change: 40, place: 1, players: 2 }]);
  assert.equal(high.baseline, null, "1500 out of view: no line");
});

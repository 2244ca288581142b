// @ts-check
// The leaderboard (/players): every rated player, best first, with the rating's 95%
// range, rated games and when last played; the bots' fixed ladder ratings below. What it
// says comes from players_model.js; every outcome is said in #status (a polite live
// region). Names are the players' own: always set as text, never as markup.

import { h, clear } from "./dom.js";
import { api } from "./net.js";
import { loadSession } from "./session.js";
import { showAccountLink } from "./account_link.js";
import { say, timeEl } from "./page_status.js";
import {
  BOARD_LIMIT, EMPTY_BOARD, boardSummary, botName, failureText, intervalText, ordinal,
  playerHref, ratingOf, readBoard, tied, whenText,
} from "./players_model.js";

/** @typedef {import("./players_model.js").Board} Board */

/** The element with this id: players.html has every one asked for. @param {string} id */
const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));
/** @type {string | null} the signed-in account's name: its row is marked */
let me = null;


/** A rating and its range, in a cell. @param {number} rating @param {[number, number] | null} interval */
function ratingCell(rating, interval) {
  const range = intervalText(interval);
  return h("td", { class: "num rating" }, h("b", { class: "rating-value" }, rating),
    range ? [" ", h("span", { class: "range" }, h("span", { class: "sr-only" }, "95% range "), range)] : null);
}

/** @param {Board} board */
function drawBoard(board) {
  const now = Date.now() / 1000;
  const rows = clear($("leaderboard-rows"));
  board.players.forEach((p, i) => {
    const shared = tied(board.players, i);
    const mine = p.name === me;
    const last = p.last_played === null ? null : whenText(p.last_played, now);
    rows.append(h("tr", { class: `leader-row${mine ? " mine" : ""}`, "data-place": p.place, "data-name": p.name, "data-rating": p.rating },
      h("td", { class: "num place" }, shared ? `=${p.place}` : p.place,
        h("span", { class: "sr-only" }, shared ? ` (${ordinal(p.place)}, tied)` : "")),
      h("th", { scope: "row", class: "name" }, h("a", { href: playerHref(p.name) }, h("bdi", {}, p.name)),
        mine ? [" ", h("span", { class: "tag" }, "you")] : null,
        // on a phone the last two columns are folded in here
        h("span", { class: "row-more" }, `${p.games} rated game${p.games === 1 ? "" : "s"}`, last ? [", ", timeEl(last)] : null)),
      ratingCell(p.rating, p.interval),
      h("td", { class: "num wide-only" }, p.games),
      h("td", { class: "wide-only" }, last ? timeEl(last) : "—")));
  });
  const empty = $("board-empty");
  empty.textContent = EMPTY_BOARD;
  empty.hidden = board.players.length > 0;
  $("board-wrap").hidden = board.players.length === 0;
  $("board-sec").hidden = false;
  const bots = clear($("bot-rows"));
  for (const b of board.bots) {
    bots.append(h("tr", { class: "bot-row", "data-level": b.level, "data-rating": b.rating },
      h("th", { scope: "row" }, botName(b.level)), ratingCell(b.rating, b.interval)));
  }
  $("bots-sec").hidden = board.bots.length === 0;
}

/** Ask for the leaderboard (or take the answer already asked for), and show it. @param {Promise<unknown>} [asked] */
async function load(asked) {
  $("retry-row").hidden = true;
  say("Loading the ratings…");
  try {
    const board = readBoard(await (asked || api("GET", `/api/players?limit=${BOARD_LIMIT}`)));
    drawBoard(board);
    say(boardSummary(board));
    $("players-page").dataset.ready = "1";
  } catch (e) {
    say(failureText(e, "Could not load the ratings"), "error");
    $("retry-row").hidden = false;
  }
}

$("retry").addEventListener("click", () => load());

async function main() {
  const asked = api("GET", `/api/players?limit=${BOARD_LIMIT}`);
  asked.catch(() => { /* said by load */ });
  try {
    const a = await loadSession();
    me = a ? a.name : null; // the signed-in player's row is marked
    showAccountLink(me, ratingOf(a));
  } catch {
    showAccountLink(undefined);
  }
  await load(asked);
}

main();

// @ts-check
// A finished game's page, /games/<id>: the result with scores by component and its
// charts, the seed and the links to the record and the verify page, and the replay on the
// board (web/replay.js; the server replays the record through the rules).

import { h, clear } from "./dom.js";
import { setCatalogue, seatName, nameOrSeat, buildingName, endReasonText } from "./text.js";
import { drawCharts } from "./charts.js";
import { ReplayPlayer } from "./replay.js";
import { AnalysisPanel } from "./game_analysis.js";
import { installTooltips } from "./tooltip.js";
import { ApiError, errorOf, errorText } from "./net.js";

/**
 * GET /api/games/<id>: a finished game's summary (quaymoor/http/games.py).
 * @typedef {object} GameSummary
 * @property {string} id
 * @property {number} players
 * @property {{seat: number, name: string, bot: boolean, commitment?: string | null, removed?: boolean}[]} seats
 *   (`removed`: the name was taken out at its player's request and reads "Seat N (name removed)")
 * @property {number} [format] the record's format (5: quaymoor-fair-3, commitments per seat,
 *   no name in the key; 4: quaymoor-fair-2, the names in the key too; 1-3: quaymoor-fair-1)
 * @property {boolean} [rated] a rated game (its players' ratings moved if it finished)
 * @property {number | null} ended_at seconds since the epoch
 * @property {string} reason
 * @property {string} algorithm
 * @property {string} fingerprint
 * @property {string} seed
 * @property {string[]} client_seeds
 * @property {(string | null)[] | null} seat_seeds
 * @property {number} steps
 * @property {import("./verify_record.js").Result | null} result
 * @property {string} record_url
 * @property {string} verify_url
 */

/** The element with this id: game.html has every one asked for. @param {string} id */
const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));
const gameId = (location.pathname.match(/^\/games\/([0-9a-f]{10})\/?$/) || [])[1] || null;
/** @type {GameSummary} */
let info;
/** @type {GameSummary["seats"]} */
let seats = [];

/**
 * The answer's JSON, for the caller to read as the endpoint's documented shape; throws
 * ApiError on an HTTP error.
 * @param {string} url
 * @returns {Promise<unknown>}
 */
async function getJson(url) {
  const res = await fetch(url, { headers: { Accept: "application/json" } });
  /** @type {unknown} */
  let data;
  try { data = await res.json(); } catch { data = null; }
  if (!res.ok) {
    const error = errorOf(data);
    throw new ApiError(error.message || `HTTP ${res.status}`, error.code, res.status);
  }
  return data;
}

/** @type {Record<string, string>} */
const REASONS = { finished: "Played to the end", shutdown: "Ended when the server stopped", crashed: "Ended by a server fault" };

function renderResult() {
  const r = info.result;
  $("title").textContent = `Game ${info.id}`;
  document.title = `Game ${info.id} — Quaymoor`;
  const when = info.ended_at ? new Date(info.ended_at * 1000).toLocaleString() : "";
  $("status").textContent = `${info.players} players${info.rated ? " · Rated" : ""} · ${REASONS[info.reason] || info.reason}${when ? ` · ${when}` : ""} · ${info.steps} actions`;
  $("result").hidden = false;
  if (r) {
    const names = r.winners.map((s) => seatName(seats, s, null)).join(" and ");
    $("winners").textContent = `Winner${r.winners.length > 1 ? "s" : ""}: ${names}.${r.reasons.length ? ` The end came because ${r.reasons.map(endReasonText).join(" and ")}.` : ""}`;
    const rows = [...r.scores].sort((a, b) => b.total - a.total || b.tiebreak - a.tiebreak);
    clear($("scores")).append(
      h("thead", {}, h("tr", {}, ["Player", "Total", "Seals", "Buildings", "Bonuses", "Tie-break (coins and goods)"]
        .map((t) => h("th", { scope: "col" }, t)))),
      h("tbody", {}, rows.map((sc) => h("tr", { class: r.winners.includes(sc.seat) ? "win" : "", "data-seat": sc.seat },
        h("th", { scope: "row" }, seatName(seats, sc.seat, null)),
        h("td", {}, h("b", {}, sc.total)), h("td", {}, sc.seals), h("td", {}, sc.building_points),
        h("td", {}, Object.entries(sc.bonuses || {}).map(([k, n]) => `${buildingName(k)} +${n}`).join(", ") || "—"),
        h("td", {}, sc.tiebreak)))));
  } else {
    $("winners").textContent = "The game was ended before its end: no winner.";
    clear($("scores"));
  }
  const fair = clear($("fair"));
  fair.append(h("dt", {}, "Fingerprint (shown at the start)"), h("dd", { class: "mono", id: "fingerprint" }, info.fingerprint),
    h("dt", {}, "Seed (revealed)"), h("dd", { class: "mono", id: "seed" }, info.seed),
    h("dt", {}, "Client seeds"), h("dd", { class: "mono", id: "client-seeds" }, Array.isArray(info.seat_seeds)
      ? info.seat_seeds.map((s, i) => `${nameOrSeat(info.seats[i] && info.seats[i].name, i)}: ${s === null ? "none" : JSON.stringify(s)}`).join(", ")
      : JSON.stringify(info.client_seeds)),
    h("dt", {}, "Algorithm"), h("dd", { class: "mono" }, `${info.algorithm}${info.format ? ` (record format ${info.format})` : ""}`));
  if (info.seats.some((s) => typeof s.commitment === "string")) {
    fair.append(h("dt", {}, "Commitments (fixed at the start)"), h("dd", { class: "mono", id: "commitments" },
      info.seats.map((s, i) => `${nameOrSeat(s.name, i)}: ${typeof s.commitment === "string" ? s.commitment : "none"}`).join(", ")));
  }
  clear($("links")).append(
    h("a", { class: "button primary", href: info.verify_url, id: "verify-link" }, "Verify this game"),
    h("a", { class: "button", href: info.record_url, id: "record-link", download: `quaymoor-${info.id}.json` }, "Download the record"),
    h("a", { class: "button", href: "#replay", id: "replay-link" }, "Replay on the board"),
    h("a", { class: "button", href: "/" }, "Lobby"));
}

async function main() {
  if (!gameId) {
    $("status").textContent = "A game's page is /games/ and its 10-digit id.";
    return;
  }
  try {
    setCatalogue(/** @type {import("./text.js").Catalogue} */ (await getJson("/api/rules")));
  } catch { /* names fall back to keys */ }
  try {
    info = /** @type {GameSummary} */ (await getJson(`/api/games/${gameId}`));
  } catch (err) {
    $("title").textContent = "No such game";
    $("status").textContent = err instanceof ApiError && err.status === 404
      ? `There is no finished game ${gameId} here. (A game still being played shows here once it ends.)`
      : `Could not load game ${gameId}: ${errorText(err)}`;
    return;
  }
  seats = info.seats;
  renderResult();
  installTooltips();
  $("charts-sec").hidden = false;
  getJson(`/api/games/${gameId}/charts`)
    .then((data) => drawCharts($("charts"), /** @type {import("./charts.js").ChartsData} */ (data), seats, null))
    .catch((err) => { $("charts").textContent = `The charts could not be drawn: ${errorText(err)}`; });
  $("replay").hidden = false;
  const player = new ReplayPlayer({ bar: $("replay-bar"), stage: $("replay-table"), status: $("replay-status") },
    gameId, seats);
  $("analysis-sec").hidden = false;
  const panel = new AnalysisPanel($("analysis"), gameId, seats, (marks) => player.setMarks(marks),
    (step) => { player.stop(); player.show(step); $("replay").scrollIntoView({ block: "start" }); });
  if (location.hash === "#analysis") {
    $("analysis-sec").scrollIntoView({ block: "start" });
    panel.ask();
  }
  try {
    if (await player.load()) $("replay").scrollIntoView({ block: "start" }); // a link to a step
  } catch (err) {
    $("replay-status").textContent = `Could not replay the game: ${errorText(err)}`;
    $("replay-table").hidden = true;
  }
}

main();

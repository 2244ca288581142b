// @ts-check
// The end screen: the result and the scores, what to do next (each action named plainly),
// the fairness check, and the end-of-game pictures in a panel of their own. On a desktop it
// fits the screen without scrolling (the pictures scroll inside their panel); the final
// board is one press away ("Show the final board").

import { v, patch } from "./vdom.js";
import { seatName, buildingName, endReasonText } from "./text.js";
import { rematchRow } from "./rematch.js";
import { END_REASONS } from "./wire.js";
import { ALGORITHM, ALGORITHM_1, fingerprint as seedFingerprint, tableFingerprint } from "./fairness.js";

/** @typedef {import("./widgets.js").Draw} Draw */
/** @typedef {import("./vdom.js").VKid} VKid */

/**
 * @typedef {object} EndActions
 * @property {() => void} rematch
 * @property {() => void} playAgain
 * @property {() => void} lobby
 * @property {() => void} toggleBoard
 * @property {() => void} checkSeed
 */

/**
 * @typedef {object} EndParts
 * @property {EndActions} on
 * @property {string} tableId
 * @property {import("./rematch.js").RematchOffer | null} offer  the rematch offer of this game, if any
 * @property {boolean} asked  we asked for a rematch
 * @property {boolean} showingBoard  the final board is shown instead of the summary
 * @property {{text: string, ok: boolean | null}} seedCheck
 * @property {Node | null} charts  the pictures (charts.js draws them itself)
 */

/**
 * @param {Draw} d
 * @param {HTMLElement} el
 * @param {EndParts} p
 */
export function drawEnd(d, el, p) {
  const m = d.model;
  const e = m.ended;
  if (!e) { el.hidden = true; return; }
  el.hidden = false;
  const result = e.result || (m.view && m.view.result);
  const name = (/** @type {number} */ s) => seatName(m.seats, s, m.seat);
  const winners = result ? result.winners.map(name).join(" and ") : "";
  const head = v("div", { class: "end-head" },
    v("h2", {}, e.reason === END_REASONS.FINISHED ? "Game over" : `The game ended (${e.reason})`),
    result ? v("p", { class: "winners", id: "winners" }, `Winner${result.winners.length > 1 ? "s" : ""}: ${winners}`) : null,
    result && result.reasons && result.reasons.length
      ? v("p", { class: "end-why" }, `The end came because ${result.reasons.map(endReasonText).join(" and ")}.`) : null,
    hintsText(e.hints, name));
  const finished = e.reason === END_REASONS.FINISHED;
  const actions = v("div", { class: "end-actions", id: "end-actions" },
    finished ? rematchRow({ offer: p.offer, asked: p.asked, seat: m.seat }, p.on.rematch) : null,
    v("div", { class: "row end-next" },
      v("button", { type: "button", id: "play-again", class: finished && m.seat !== null ? "" : "primary",
        "aria-describedby": "play-again-what", title: "A fresh table against bots", onclick: p.on.playAgain }, "New game"),
      v("span", { class: "small", id: "play-again-what" }, "A fresh table against bots."),
      v("button", { type: "button", id: "lobby", class: "quiet", onclick: p.on.lobby }, "Lobby"),
      v("a", { href: "/how-to-play#scoring", class: "button quiet", id: "end-how-to-play", target: "_blank", rel: "noopener" },
        "How to play", v("span", { class: "sr-only" }, " (opens in a new tab)")),
      v("a", { href: `/games/${p.tableId}#analysis`, class: "button quiet", id: "end-analysis",
        title: "Each of your decisions scored by the bots' search, your mistakes marked on the replay" },
      "Analyse the game"),
      v("button", { type: "button", id: "show-board", class: "quiet", "aria-pressed": p.showingBoard ? "true" : "false",
        onclick: p.on.toggleBoard }, p.showingBoard ? "Back to the scores" : "Show the final board")));
  patch(el, [head, actions, p.showingBoard ? null : v("div", { class: "end-body" },
    v("div", { class: "end-main" }, result ? scores(d, result) : null, fairness(d, p)),
    p.charts && result ? v("div", { class: "end-charts", tabindex: "0", role: "region", "aria-label": "Pictures of the game" }, p.charts) : null)]);
}

/**
 * "Hints used: You 3", when anyone was given a hint (game_ended's hints, per seat).
 * @param {unknown} hints
 * @param {(seat: number) => string} name
 */
function hintsText(hints, name) {
  if (!Array.isArray(hints)) return null;
  const used = hints.map((n, seat) => [seat, Number(n) || 0]).filter(([, n]) => n > 0);
  if (!used.length) return null;
  return v("p", { class: "end-hints", id: "end-hints" },
    `Hints used: ${used.map(([seat, n]) => `${name(seat)} ${n}`).join(", ")}.`);
}

/**
 * @param {Draw} d
 * @param {Record<string, any>} result
 */
function scores(d, result) {
  const m = d.model;
  /** @type {Record<string, any>[]} */
  const rows = [...result.scores].sort((a, b) => b.total - a.total || b.tiebreak - a.tiebreak);
  const bonuses = rows.some((sc) => Object.keys(sc.bonuses || {}).length);
  const cols = /** @type {[string, string?][]} */ ([["Player"], ["Total"], ["Seals"], ["Buildings", "Building points"],
    ...(bonuses ? [["Bonuses", "End bonuses of staffed large buildings"]] : []),
    ["Tie-break", "Coins and goods, for a tie"]]);
  return v("div", { class: "scroll end-scores", tabindex: "0", role: "region", "aria-label": "Scores" },
    v("table", { class: "scores" },
      v("thead", {}, v("tr", {}, cols.map(([t, title]) => v("th", { scope: "col", title: title || null }, t)))),
      v("tbody", {}, rows.map((sc) => v("tr", { class: result.winners.includes(sc.seat) ? "win" : "" },
        v("th", { scope: "row" }, seatName(m.seats, sc.seat, m.seat)),
        v("td", {}, v("b", {}, sc.total)), v("td", {}, sc.seals), v("td", {}, sc.building_points),
        bonuses ? v("td", {}, Object.entries(sc.bonuses || {}).map(([k, n]) => `${buildingName(k)} +${n}`).join(", ") || "—") : null,
        v("td", {}, sc.tiebreak))))),
    bonuses ? null : v("p", { class: "small" }, "No large building earned an end bonus."));
}

/**
 * The seed beside the fingerprint, checked here at once, and the whole game's check.
 * @param {Draw} d
 * @param {EndParts} p
 */
function fairness(d, p) {
  const m = d.model;
  const e = /** @type {Record<string, any>} */ (m.ended);
  /** @type {(string | null)[]} */
  const seeds = Array.isArray(e.client_seeds) ? e.client_seeds : [];
  const check = p.seedCheck;
  return v("div", { class: "end-fair" },
    v("h3", {}, "Was it fair?"),
    v("dl", { class: "fair" },
      v("dt", {}, "Fingerprint"), v("dd", { id: "end-fingerprint" }, e.fingerprint),
      v("dt", {}, "Seed"), v("dd", { id: "seed" }, e.seed)),
    v("p", { class: "end-checks" },
      v("span", { id: "verify", class: `verify${check.ok === true ? " ok" : check.ok === false ? " bad" : ""}`, role: "status" }, check.text),
      " ", v("button", { type: "button", class: "quiet small-button", id: "check-seed", "aria-describedby": "verify", onclick: p.on.checkSeed },
        "Check again")),
    v("details", { class: "end-seeds" }, v("summary", {}, `Client seeds (${seeds.filter((x) => x !== null).length} given)`),
      v("ul", { class: "seat-seeds", id: "end-seeds" },
        seeds.map((x, i) => v("li", { "data-seat": i }, `${seatName(m.seats, i, m.seat)}: `,
          x === null ? v("i", {}, m.withheld.includes(i) ? "did not reveal its seed (committed): none" : "none")
            : v("span", { class: "mono" }, x))))),
    v("p", { class: "row end-verify" },
      v("a", { href: `/verify.html?game=${p.tableId}`, class: "button", id: "verify-game",
        "aria-describedby": "verify-game-what" }, "Verify every move"),
      e.record_url ? v("a", { href: e.record_url, class: "button quiet", id: "record" }, "The game record") : null,
      v("span", { class: "small", id: "verify-game-what" },
        "Verify replays the whole game from its seeds in your browser; the record is its JSON.")));
}

/**
 * The revealed seed against the fingerprint the table showed before anyone joined, in this
 * browser: SHA-256 of the algorithm, the table's id, its seats and the seed (fairness.js).
 * The algorithm is the one `game_ended` names (quaymoor-fair-3 when it names none: every
 * table is dealt with it now); a game of before commit-and-reveal (quaymoor-fair-1) showed
 * SHA-256 of its seed alone.
 * @param {string} seedHex
 * @param {string} fingerprint
 * @param {string} tableId
 * @param {number} players
 * @param {string} [algorithm] the table's (`game_ended`'s; fairness.js ALGORITHM, ALGORITHM_2 or ALGORITHM_1)
 * @returns {Promise<{text: string, ok: boolean | null}>}
 */
export async function checkSeed(seedHex, fingerprint, tableId, players, algorithm = ALGORITHM) {
  try {
    const hex = algorithm === ALGORITHM_1 ? await seedFingerprint(seedHex)
      : await tableFingerprint(seedHex, tableId, players, algorithm || ALGORITHM);
    return hex === fingerprint
      ? { text: "✔ The seed matches the fingerprint shown before the game (SHA-256 of the algorithm, the table, its seats and the seed)", ok: true }
      : { text: "✘ The seed does NOT match the fingerprint!", ok: false };
  } catch (err) {
    return { text: `Could not check the seed: ${err instanceof Error ? err.message : String(err)}`, ok: null };
  }
}

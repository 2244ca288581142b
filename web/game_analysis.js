// @ts-check
// The post-game analysis on the game page (/games/<id>): a button starts it
// (GET /api/games/<id>/analysis: 202 with progress until done, docs/protocol.md), then
// each analysed player's accuracy, points lost and biggest mistakes, each a link to its
// step in the replay, where the replay's timeline marks it and the better move is shown.
//
// Nothing here judges a move: the server's search did. analysisMarks is pure (the
// analysis to the replay's marks); AnalysisPanel draws and polls.

import { h, clear } from "./dom.js";
import { seatName } from "./text.js";
import { errorText } from "./net.js";

/** @typedef {import("./table_model.js").Action} Action */
/** @typedef {import("./text.js").NamedSeat} NamedSeat */
/**
 * One of a player's biggest mistakes.
 * @typedef {{step: number, loss: number, chosen: Action, better: Action, chosen_words: string, better_words: string, why: string}} Mistake
 */
/**
 * An analysed player.
 * @typedef {{seat: number, name: string, decisions: number, points_lost: number, per_decision: number, accuracy: number, mistakes: Mistake[]}} PlayerAnalysis
 */
/**
 * GET /api/games/<id>/analysis when done (the fields read here).
 * @typedef {{status: "done", iterations: number, mistake_from: number, players: PlayerAnalysis[], decisions: {step: number, seat: number, loss: number, best: Action, chosen: Action}[]}} Analysis
 */
/** A mark on the replay's timeline: a decision that lost points. @typedef {{step: number, seat: number, loss: number, better: Action, why: string}} Mark */

/** Milliseconds between asks while the analysis runs (the server says 2 s). */
const POLL_MS = 2000;

/**
 * The replay's marks: every decision that lost at least `mistake_from` points, by step.
 * @param {Analysis} analysis
 * @returns {Map<number, Mark>}
 */
export function analysisMarks(analysis) {
  /** @type {Map<string, string>} the biggest mistakes' sentences, by seat and step */
  const why = new Map();
  for (const p of analysis.players) for (const m of p.mistakes) why.set(`${p.seat}:${m.step}`, m.why);
  /** @type {Map<number, Mark>} */
  const marks = new Map();
  for (const d of analysis.decisions) {
    if (d.loss < analysis.mistake_from) continue;
    marks.set(d.step, { step: d.step, seat: d.seat, loss: d.loss, better: d.best,
      why: why.get(`${d.seat}:${d.step}`) || "" });
  }
  return marks;
}

/** @param {number} x */
const points = (x) => `${x.toFixed(1)} point${x.toFixed(1) === "1.0" ? "" : "s"}`;

export class AnalysisPanel {
  /**
   * @param {HTMLElement} el  the section's body
   * @param {string} gameId
   * @param {NamedSeat[]} seats
   * @param {(marks: Map<number, Mark>) => void} onMarks  the replay marks its timeline
   * @param {(step: number) => void} onStep  the replay shows a step
   */
  constructor(el, gameId, seats, onMarks, onStep) {
    this.el = el;
    this.gameId = gameId;
    this.seats = seats;
    this.onMarks = onMarks;
    this.onStep = onStep;
    this.status = h("p", { class: "muted", role: "status" });
    this.button = /** @type {HTMLButtonElement} */ (h("button", { type: "button", id: "analyse", class: "primary",
      onclick: () => this.ask() }, "Analyse this game"));
    clear(el).append(
      h("p", {}, "The bots' tree search scores each decision the players took against the best it finds ",
        "(in points of final margin), and marks the mistakes on the replay."),
      this.button, this.status);
  }

  /** Ask for the analysis (starting it), then again until it is done. */
  async ask() {
    this.button.disabled = true;
    this.status.textContent = "Starting the analysis…";
    for (;;) {
      let res;
      try {
        res = await fetch(`/api/games/${this.gameId}/analysis`, { headers: { Accept: "application/json" } });
      } catch (err) {
        this.fail(`The analysis could not be asked for: ${errorText(err)}`);
        return;
      }
      /** @type {any} */
      let data = null;
      try { data = await res.json(); } catch { /* shown below */ }
      if (res.status === 202 && data) {
        this.status.textContent = `Analysing: ${data.done} of ${data.total} decisions scored…`;
        await new Promise((done) => setTimeout(done, POLL_MS));
        continue;
      }
      if (res.ok && data && data.status === "done") {
        this.render(/** @type {Analysis} */ (data));
        return;
      }
      this.fail((data && data.error && data.error.message) || `HTTP ${res.status}`);
      return;
    }
  }

  /** @param {string} text */
  fail(text) {
    this.status.textContent = text;
    this.button.disabled = false;
    this.button.textContent = "Try again";
  }

  /** @param {Analysis} analysis */
  render(analysis) {
    this.button.remove();
    this.status.textContent = `Each decision searched with ${analysis.iterations} iterations.`;
    const rows = analysis.players.map((p) => h("tr", {},
      h("th", { scope: "row" }, seatName(this.seats, p.seat, null)),
      h("td", { class: "num" }, `${Math.round(p.accuracy)}%`),
      h("td", { class: "num" }, String(p.decisions)),
      h("td", { class: "num" }, p.points_lost.toFixed(1)),
      h("td", { class: "num" }, p.per_decision.toFixed(2))));
    const table = h("table", { id: "accuracy", class: "scores" },
      h("caption", { class: "sr-only" }, "Accuracy by player"),
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Player"), h("th", { scope: "col" }, "Accuracy"),
        h("th", { scope: "col" }, "Decisions"), h("th", { scope: "col" }, "Points lost"),
        h("th", { scope: "col" }, "A decision"))),
      h("tbody", {}, rows));
    const lists = analysis.players.filter((p) => p.mistakes.length).map((p) => h("div", { class: "mistakes" },
      h("h3", {}, `${seatName(this.seats, p.seat, null)}: the biggest mistakes`),
      h("ol", {}, p.mistakes.map((m) => h("li", {},
        h("button", { type: "button", class: "link", onclick: () => this.onStep(m.step) },
          `Step ${m.step}`),
        ` — ${m.why}.`)))));
    this.el.append(h("div", { class: "scroll", tabindex: 0, role: "region", "aria-label": "Accuracy" }, table),
      ...(lists.length ? lists : [h("p", {}, "No decision lost as much as "
        + `${points(analysis.mistake_from)}.`)]));
    this.onMarks(analysisMarks(analysis));
  }
}

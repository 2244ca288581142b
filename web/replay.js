// @ts-check
// The replay on the board (the game page, /games/<id>): the finished game drawn step by
// step on the live table's own rendering (TableScreen, read-only), from any seat's view or
// the spectator's, with the log of what happened so far beside it.
//
// Nothing here knows the rules. The server replays the record through the rules and sends
// the chosen seat's view after the setup and the patch after each action
// (/api/games/<id>/views?seat=S, docs/protocol.md); the views are kept here, one per step,
// each sharing what did not change with the one before (patch.js).
//
// Keys: ← and → a step, Page Up / Page Down (or Shift with an arrow) a round, Home and End
// the setup and the end. The address keeps the step and the view (?step=K&seat=S), so a
// moment of a game can be linked to; a step or seat in it that does not exist is ignored.

import { h, clear } from "./dom.js";
import { applyPatch } from "./patch.js";
import { TableScreen } from "./table.js";
import { GameLog } from "./gamelog.js";
import { actionLabel, eventText, seatName } from "./text.js";
import { playMotion } from "./motion.js";
import { errorText } from "./net.js";

/** @typedef {import("./table_model.js").View} View */
/** @typedef {import("./table_model.js").Action} Action */
/** @typedef {import("./text.js").GameEvent} GameEvent */
/** @typedef {import("./text.js").NamedSeat} NamedSeat */
/** One step of GET /api/games/<id>/replay. @typedef {{step: number, seat: number, action: Action, at: number, events: GameEvent[]}} Step */
/** GET /api/games/<id>/replay, the fields read here. @typedef {{actions: Step[], error: string | null}} ReplayAnswer */
/**
 * GET /api/games/<id>/views?seat=S: the view after the setup and a patch per action.
 * @typedef {{seat: number | null, players: number, start: import("./patch.js").View, patches: unknown[]}} ViewsAnswer
 */
/**
 * The bar's elements: bar, stage and status given, the others made by buildBar.
 * @typedef {object} ReplayEls
 * @property {HTMLElement} bar
 * @property {HTMLElement} stage
 * @property {HTMLElement} status
 * @property {HTMLInputElement} range
 * @property {HTMLElement} marks
 * @property {HTMLElement} label
 * @property {HTMLElement} round
 * @property {HTMLElement} said
 * @property {HTMLSelectElement} seat
 * @property {HTMLButtonElement} play
 * @property {HTMLSelectElement} speed
 */

/**
 * The game log of a replay: rebuilt for each step shown, drawn once per step. It is not a
 * live region here (redrawn whole at each step, it would be read out whole): the bar's
 * line says what the step was.
 */
class ReplayLog extends GameLog {
  /** @param {ConstructorParameters<typeof GameLog>} args */
  constructor(...args) {
    super(...args);
    for (const el of [this.list, this.list.parentElement]) if (el) el.setAttribute("aria-live", "off");
  }

  changed() { /* drawn by ReplayPlayer, once per step */ }
}

/** The live table's drawing (TableScreen), read-only, with the replay's log beside it. */
class ReplayScreen extends TableScreen {
  get readOnly() { return true; }

  newLog() { return new ReplayLog(`replay-${this.tableId}`, false, false); }
}

/** @param {string} url @returns {Promise<unknown>} the endpoint's JSON answer (docs/protocol.md) */
async function getJson(url) {
  const res = await fetch(url, { headers: { Accept: "application/json" } });
  let data;
  try { data = await res.json(); } catch { data = null; }
  if (!res.ok) throw new Error((data && data.error && data.error.message) || `HTTP ${res.status}`);
  return data;
}

const SPECTATOR = "spectator";
/** The autoplay's speeds: milliseconds a step. @type {[number, string][]} */
const SPEEDS = [[2000, "Slow (2 s a step)"], [1000, "Steady (1 s)"], [400, "Fast (0.4 s)"]];

export class ReplayPlayer {
  /**
   * @param {{bar: HTMLElement, stage: HTMLElement, status: HTMLElement}} els  bar (the
   *   controls' container), stage (the table's), status
   * @param {string} gameId
   * @param {NamedSeat[]} seats  [{seat, name, bot}]
   */
  constructor(els, gameId, seats) {
    this.els = /** @type {ReplayEls} */ (els); // the rest comes with buildBar, below
    this.gameId = gameId;
    this.seats = seats.map((s) => ({ ...s, connected: true }));
    /** @type {Step[]} per action */
    this.steps = [];
    /** @type {View[]} per step 0..n: the chosen seat's view */
    this.views = [];
    /** @type {number | null} a seat, or null for the spectator */
    this.viewer = null;
    /** @type {string | null} the first action the rules refuse, if any */
    this.error = null;
    this.current = 0;
    // read-only: it never leaves the table or plays again
    this.screen = new ReplayScreen(els.stage, gameId, /** @type {import("./table.js").Exits} */ ({}));
    this.screen.el.decision.textContent = "Replaying the game…"; // not the live table's "Connecting"
    this.log = this.screen.log;
    this.log.onJump = (k) => { this.stop(); this.show(k); };
    /** @type {number | null} the autoplay's timer while it plays */
    this.playing = null;
    this.logUpTo = 0; // the log holds the events of steps 1..logUpTo
    /** @type {Map<number, import("./game_analysis.js").Mark>} the analysis's mistakes, by step */
    this.marks = new Map();
    this.buildBar();
    this.onKey = (/** @type {KeyboardEvent} */ ev) => this.key(ev);
    document.addEventListener("keydown", this.onKey);
  }

  /**
   * Every step's action and events, then the views of the seat in the address (else the
   * spectator's); shows the step in the address, else the end. Returns whether the address
   * named a step.
   */
  async load() {
    const all = /** @type {ReplayAnswer} */ (await getJson(`/api/games/${this.gameId}/replay`));
    this.steps = all.actions;
    this.error = all.error;
    this.els.range.max = String(this.steps.length);
    const asked = new URLSearchParams(location.search);
    const seatText = asked.get("seat") || "";
    const seat = /^[0-9]$/.test(seatText) && this.seats.some((x) => x.seat === Number(seatText)) ? Number(seatText) : null;
    await this.loadViews(seat);
    this.els.seat.value = seat === null ? SPECTATOR : String(seat);
    const stepText = asked.get("step") || "";
    const step = /^[0-9]{1,5}$/.test(stepText) && Number(stepText) <= this.steps.length ? Number(stepText) : null;
    this.show(step === null ? 0 : step); // a game is watched from its start
    this.drawMarks();
    return step !== null;
  }

  /** @param {number | null} seat */
  async loadViews(seat) {
    const q = seat === null ? "" : `?seat=${seat}`;
    const data = /** @type {ViewsAnswer} */ (await getJson(`/api/games/${this.gameId}/views${q}`));
    const views = [data.start];
    for (const p of data.patches) views.push(applyPatch(views[views.length - 1], p));
    this.views = /** @type {View[]} */ (/** @type {unknown} */ (views.slice(0, this.steps.length + 1)));
    this.viewer = seat;
    this.log.mySeat = seat;
    this.logUpTo = -1; // rebuilt for the new viewer ("you" is that seat)
  }

  get last() { return this.views.length - 1; }

  buildBar() {
    /** @param {string} id @param {string} label @param {string} text @param {string} key @param {() => void} onclick */
    const b = (id, label, text, key, onclick) => h("button", {
      type: "button", id, class: "quiet", "aria-label": label, "aria-keyshortcuts": key, title: label,
      onclick: () => { this.stop(); onclick(); },
    }, text);
    const els = this.els;
    els.range = h("input", { type: "range", id: "step", min: 0, max: 0, value: 0, "aria-label": "Step",
      oninput: () => this.show(Number(els.range.value)) });
    els.label = h("span", { id: "step-label", class: "mono" });
    els.round = h("span", { id: "round-label" });
    els.said = h("span", { class: "sr-only" }); // what the step was, read out with its number
    els.seat = h("select", { id: "seat-view", onchange: () => this.pickSeat(els.seat.value) },
      h("option", { value: SPECTATOR }, "The spectator"),
      this.seats.map((s) => h("option", { value: String(s.seat) }, seatName(this.seats, s.seat, null))));
    clear(els.bar).append(
      h("div", { class: "replay-buttons", role: "group", "aria-label": "Step through the game" },
        b("first", "To the setup", "|◀", "Home", () => this.show(0)),
        b("prev-round", "Back a round", "◀◀ Round", "PageUp", () => this.show(this.roundBack())),
        b("prev", "One step back", "◀ Step", "ArrowLeft", () => this.show(this.current - 1)),
        b("next", "One step on", "Step ▶", "ArrowRight", () => this.show(this.current + 1, true)),
        b("next-round", "On a round", "Round ▶▶", "PageDown", () => this.show(this.roundOn())),
        b("last", "To the end", "▶|", "End", () => this.show(this.last))),
      h("div", { class: "replay-range" }, els.range,
        els.marks = h("div", { class: "replay-marks", "aria-hidden": "true" })),
      h("div", { class: "replay-auto", role: "group", "aria-label": "Play by itself" },
        els.play = h("button", { type: "button", id: "play", class: "primary", "aria-pressed": "false",
          onclick: () => (this.playing ? this.stop() : this.play()) }, "Play ▶"),
        h("label", { for: "speed", class: "sr-only" }, "Speed"),
        els.speed = h("select", { id: "speed", onchange: () => { if (this.playing) { this.stop(); this.play(); } } },
          SPEEDS.map(([ms, label]) => h("option", { value: String(ms), selected: ms === 1000 }, label)))),
      h("p", { class: "replay-where", "aria-live": "polite" }, els.label, " · ", els.round, els.said),
      h("div", { class: "replay-seat" }, h("label", { for: "seat-view" }, "View as"), els.seat));
  }

  /**
   * The analysis's mistakes: a tick on the timeline at each (a click shows its step), and
   * at its step the line says what the better move was.
   * @param {Map<number, import("./game_analysis.js").Mark>} marks
   */
  setMarks(marks) {
    this.marks = marks;
    this.drawMarks();
    this.show(this.current);
  }

  /** The timeline's ticks, once the views are here (a step's place needs their number). */
  drawMarks() {
    if (!this.views.length) return;
    const last = Math.max(1, this.last);
    clear(this.els.marks).append(...[...this.marks.values()].map((m) => {
      const tick = h("button", { type: "button", class: "replay-mark", tabindex: -1,
        title: `Step ${m.step}: ${m.loss.toFixed(1)} points lost`,
        onclick: () => { this.stop(); this.show(m.step); } });
      tick.style.left = `${(100 * m.step) / last}%`; // CSSOM: the page's CSP allows no style attribute
      return tick;
    }));
  }

  /** Step on by itself, one step each `speed` ms, until the end or a press on Pause. */
  play() {
    if (this.current >= this.last) this.show(0);
    const ms = Number(this.els.speed.value) || 1000;
    this.els.play.textContent = "Pause ❚❚";
    this.els.play.setAttribute("aria-pressed", "true");
    this.playing = setInterval(() => {
      if (this.current >= this.last) { this.stop(); return; }
      this.show(this.current + 1, true);
    }, ms);
  }

  stop() {
    clearInterval(this.playing ?? undefined);
    this.playing = null;
    this.els.play.textContent = "Play ▶";
    this.els.play.setAttribute("aria-pressed", "false");
  }

  /** @param {string} value */
  async pickSeat(value) {
    const seat = value === SPECTATOR ? null : Number(value);
    this.els.seat.disabled = true;
    try {
      await this.loadViews(seat);
      this.show(this.current);
    } catch (err) {
      this.els.status.textContent = `Could not load that view: ${errorText(err)}`;
    } finally {
      this.els.seat.disabled = false;
    }
  }

  /** The first step of round r (the step whose view is that round's start). @param {number} r */
  roundStart(r) {
    const k = this.views.findIndex((v) => v.board.round === r);
    return k < 0 ? 0 : k;
  }

  roundBack() {
    const r = this.views[this.current].board.round;
    const start = this.roundStart(r);
    return this.current > start ? start : this.roundStart(r - 1);
  }

  roundOn() {
    const r = this.views[this.current].board.round;
    const k = this.views.findIndex((v, i) => i > this.current && v.board.round > r);
    return k < 0 ? this.last : k;
  }

  /** Show the board after k steps; `animate`: a step on, with its motion. @param {number} k */
  show(k, animate = false) {
    if (!this.views.length) return;
    k = Math.max(0, Math.min(this.last, k));
    const before = this.views[this.current];
    const stepOn = animate && k === this.current + 1;
    this.current = k;
    this.rebuildLog(k);
    const view = this.views[k];
    /** @type {HTMLElement} */
    const bar = this.els.bar.closest(".replay-bar") || this.els.bar;
    document.documentElement.style.setProperty("--replay-bar", `${bar.offsetHeight}px`);
    const note = this.note(k);
    this.screen.showStatic(view, this.seats, this.viewer, note);
    const els = this.els;
    els.range.value = String(k);
    els.label.textContent = `step ${k} of ${this.last}`;
    els.round.textContent = view.result ? `Round ${view.board.round}, the end` : `Round ${view.board.round}`;
    els.said.textContent = `. ${note}`;
    /** @param {string} id */
    const button = (id) => /** @type {HTMLButtonElement} */ (els.bar.querySelector(`#${id}`));
    button("first").disabled = button("prev").disabled = k === 0;
    button("prev-round").disabled = k === 0;
    button("next").disabled = button("last").disabled = k === this.last;
    button("next-round").disabled = k === this.last;
    const url = new URL(location.href);
    url.searchParams.set("step", String(k));
    if (this.viewer === null) url.searchParams.delete("seat");
    else url.searchParams.set("seat", String(this.viewer));
    history.replaceState(null, "", url);
    if (stepOn) playMotion(this.screen.app, this.steps[k - 1].events, before, view, this.viewer);
  }

  /** What step k was, in words (the decision bar's line), and the analysis's mistake
   * about to be made there. @param {number} k */
  note(k) {
    const mark = this.marks.get(k);
    const said = this.said(k);
    if (!mark) return said;
    const who = seatName(this.seats, mark.seat, this.viewer);
    const better = actionLabel(mark.better, this.views[k] || null);
    return `${said} Mistake next: ${who} lost ${mark.loss.toFixed(1)} points here; better: ${better}.`;
  }

  /** @param {number} k */
  said(k) {
    if (k === 0) return "The setup, before anyone acts.";
    const s = this.steps[k - 1];
    const who = seatName(this.seats, s.seat, this.viewer);
    const did = actionLabel(s.action, null);
    const lines = s.events.map((e) => eventText(e, this.seats, this.viewer)).filter(Boolean);
    const stop = k === this.last && this.error ? ` The replay stops here: ${this.error}` : "";
    return `Step ${k}: ${who} — ${did}.${lines.length ? ` ${lines[0]}${lines.length > 1 ? " …" : ""}` : ""}${stop}`;
  }

  /** The log holds what happened in steps 1..k, as the live table's log would. @param {number} k */
  rebuildLog(k) {
    if (k < this.logUpTo || this.logUpTo < 0) {
      this.log.entries = [];
      this.logUpTo = 0;
    }
    for (let i = this.logUpTo + 1; i <= k; i++) {
      const from = this.log.entries.length;
      this.log.addEvents(this.steps[i - 1].events, this.views[i], this.seats, this.viewer);
      for (let j = from; j < this.log.entries.length; j++) this.log.entries[j].step = i;
    }
    this.logUpTo = k;
    this.log.render();
  }

  /** @param {KeyboardEvent} ev */
  key(ev) {
    const t = ev.target;
    if (t instanceof Element && /INPUT|SELECT|TEXTAREA/.test(t.tagName)) return;
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    /** @type {Record<string, () => number>} */
    const to = {
      ArrowLeft: () => (ev.shiftKey ? this.roundBack() : this.current - 1),
      ArrowRight: () => (ev.shiftKey ? this.roundOn() : this.current + 1),
      PageUp: () => this.roundBack(),
      PageDown: () => this.roundOn(),
      Home: () => 0,
      End: () => this.last,
    };
    const step = to[ev.key];
    if (!step) return;
    ev.preventDefault();
    this.stop();
    this.show(step(), ev.key === "ArrowRight" && !ev.shiftKey);
  }
}

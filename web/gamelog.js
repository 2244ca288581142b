// @ts-check
// The game log beside the table: grouped by round, each role pick a header with what it
// brought about below it; the Reeve's arrivals and arranging folded into one line per
// player; a filter (everything / mine / the role picks only). Kept in sessionStorage per
// table so that a reload keeps it.
//
// An entry: {r: round, k: "pick" | "line" | "note", s: seat or null, t: text, f: fold key}.
// Every text is set as text, never as HTML (names are the players' own).

import { h } from "./dom.js";
import { v, patch } from "./vdom.js";
import { eventText, seatName, buildingName, kindName, PLOT_KINDS } from "./text.js";

/** @typedef {import("./text.js").GameEvent} GameEvent */
/** @typedef {import("./text.js").NamedSeat} NamedSeat */
/** @typedef {import("./table_model.js").View} View */
/** @typedef {import("./table_model.js").Board} Board */
/** @typedef {import("./table_model.js").Mat} Mat */
/** @typedef {import("./vdom.js").VNode} VNode */
/**
 * One line of the log (above); a replay's lines also carry the step they came from.
 * @typedef {object} LogEntry
 * @property {number} r
 * @property {"pick" | "line" | "note"} k
 * @property {number | null} s
 * @property {string} t
 * @property {string} [f]  the fold key of a Reeve's line (ReeveEntry)
 * @property {number} [step]
 */
/** A Reeve's folded line: what arrived and how they were arranged.
 * @typedef {LogEntry & {f: string, got: number, barge: number, arranged: string | null}} ReeveEntry */
/** @typedef {Extract<GameEvent, {type: "apprentices_arrived" | "apprentices_arranged"}>} ReeveEvent */
/** @typedef {{add: (y: LogEntry, li: VNode) => void, done: () => VNode}} OpenPick */

const KEEP = 600;
/** @type {[string, string][]} */
const FILTERS = [["all", "All"], ["mine", "Mine"], ["roles", "Roles only"]];
/** @param {string} table */
const storeKey = (table) => `quaymoor.log.${table}`;
/** @param {number} n @param {string} w */
const plural = (n, w) => `${n} ${w}${n === 1 ? "" : "s"}`;

/** The round the first of an update's events belongs to: the view's round less the rounds
 * that ended within them (the last round_ended of a game does not move the round on).
 * @param {GameEvent[]} events @param {Board} board */
export function firstRound(events, board) {
  const ended = events.filter((e) => e.type === "round_ended").length;
  const over = events.some((e) => e.type === "game_ended");
  return Math.max(1, board.round - ended + (over && ended ? 1 : 0));
}

/** Where a seat's apprentices are, in short: "clay 2, wool 1; Flax Mill 1; lodge 1".
 * @param {Mat} mat */
function placed(mat) {
  const plots = PLOT_KINDS.filter((k) => mat.worked[k]).map((k) => `${kindName(k)} ${mat.worked[k]}`);
  const blds = mat.buildings.filter((b) => b.apprentices).map((b) => `${buildingName(b.building)} ${b.apprentices}`);
  const parts = [plots.join(", "), blds.join(", "), mat.lodge ? `lodge ${mat.lodge}` : ""].filter(Boolean);
  return parts.join("; ") || "none placed";
}

export class GameLog {
  /** keep: save it in sessionStorage (a seat's log); resume: start from what was saved.
   * @param {string} table @param {boolean} keep @param {boolean} resume */
  constructor(table, keep, resume) {
    this.table = table;
    this.keep = keep;
    this.filter = "all";
    this.entries = resume ? this.load() : [];
    // role=log is on a wrapper (on the <ol> itself it would break its list). It is no live
    // region: every bot move would queue for a screen reader ahead of what matters. Your
    // decisions, your timer and what ran out are announced (announce.js); the others' moves
    // are read here on demand, or aloud by the table's "Read moves" setting.
    this.list = h("ol", { id: "log", class: "log", "aria-label": "Game log", tabindex: "0" });
    this.box = h("div", { class: "log-live", role: "log", "aria-live": "off", "aria-label": "Game log" }, this.list);
    this.filterBar = h("div", { class: "log-filter", id: "log-filter", role: "group", "aria-label": "Show in the log" },
      FILTERS.map(([key, label]) => h("button", {
        type: "button", class: "quiet", "data-filter": key, "aria-pressed": key === this.filter ? "true" : "false",
        onclick: () => this.setFilter(key),
      }, label)));
    /** @type {number | null} */
    this.mySeat = null;
    /** @type {((step: number) => void) | null} a replay's: a line pressed goes to its step */
    this.onJump = null;
  }

  /** @returns {LogEntry[]} */
  load() {
    try {
      const got = JSON.parse(sessionStorage.getItem(storeKey(this.table)) || "[]");
      // an older page kept plain lines: keep them as notes
      return Array.isArray(got) ? got.map((/** @type {LogEntry | string} */ x) => (typeof x === "string" ? { r: 0, k: "note", s: null, t: x } : x)) : [];
    } catch {
      return [];
    }
  }

  save() {
    if (!this.keep) return;
    try { sessionStorage.setItem(storeKey(this.table), JSON.stringify(this.entries)); } catch { /* full */ }
  }

  get length() { return this.entries.length; }

  /** @param {string} key */
  setFilter(key) {
    this.filter = key;
    for (const b of this.filterBar.querySelectorAll("button")) {
      b.setAttribute("aria-pressed", b.dataset.filter === key ? "true" : "false");
    }
    this.list.dataset.filter = key;
    this.scrollToEnd();
  }

  /** Lines of our own (the client seeds at the start), in the round they are seen in.
   * @param {string[]} lines @param {number} round */
  addNotes(lines, round) {
    for (const t of lines) this.entries.push({ r: round || 0, k: "note", s: null, t });
    this.changed();
  }

  /**
   * One update's events, with the view they led to (for the Reeve's arrangement).
   * @param {GameEvent[]} events @param {View} view
   * @param {NamedSeat[]} seats @param {number | null} mySeat
   */
  addEvents(events, view, seats, mySeat) {
    if (!events.length) return;
    let round = firstRound(events, view.board);
    const over = events.some((e) => e.type === "game_ended"); // its last round_ended starts no round
    for (const e of events) {
      const who = "seat" in e ? e.seat : null;
      if (e.type === "apprentices_arrived" || e.type === "apprentices_arranged") {
        this.fold(round, e, view, seats, mySeat);
      } else {
        const t = eventText(e, seats, mySeat);
        if (t) this.entries.push({ r: round, k: e.type === "role_picked" ? "pick" : "line", s: who, t });
      }
      if (e.type === "round_ended" && !over) round = e.round + 1;
    }
    this.changed();
  }

  /**
   * The Reeve: one line per player, "got N (M from the barge); arranged: ...".
   * @param {number} round @param {ReeveEvent} e @param {View} view
   * @param {NamedSeat[]} seats @param {number | null} mySeat
   */
  fold(round, e, view, seats, mySeat) {
    const f = `reeve:${round}:${e.seat}`;
    let entry = /** @type {ReeveEntry | undefined} */ (this.entries.find((x) => x.f === f));
    if (!entry) {
      entry = { r: round, k: "line", s: e.seat, t: "", f, got: 0, barge: 0, arranged: null };
      this.entries.push(entry);
    }
    if (e.type === "apprentices_arrived") {
      entry.got += e.count;
      if (e.from_barge) entry.barge += e.count;
    } else {
      const mat = view.mats.find((m) => m.seat === e.seat);
      entry.arranged = mat ? placed(mat) : "";
    }
    const who = seatName(seats, e.seat, mySeat);
    const got = entry.got
      ? `got ${plural(entry.got, "apprentice")}${entry.barge === entry.got ? " from the barge" : entry.barge ? ` (${entry.barge} from the barge)` : ""}`
      : "got no apprentices";
    entry.t = `${who} ${got}${entry.arranged === null ? "" : `; arranged: ${entry.arranged}`}`;
  }

  changed() {
    if (this.entries.length > KEEP) this.entries.splice(0, this.entries.length - KEEP);
    this.save();
    this.render();
  }

  /** Drawn in place (vdom.js): what was there stays the same element, so reading the log
   * (or a line the pointer is on) is not disturbed by a new line. */
  render() {
    this.list.dataset.filter = this.filter;
    /** @param {LogEntry} x */
    const mine = (x) => this.mySeat !== null && x.s === this.mySeat;
    /** @param {LogEntry} x @returns {VNode | string} */
    const line = (x) => {
      const step = x.step;
      return this.onJump && step !== undefined
        ? v("button", { type: "button", class: "log-jump", "aria-label": `${x.t} (go to step ${step})`,
          onclick: () => { if (this.onJump) this.onJump(step); } }, x.t)
        : x.t;
    };
    /** @type {{r: number, picks: VNode[]}[]} */
    const rounds = [];
    /** @type {number | null} */
    let round = null;
    /** @type {VNode[] | null} */
    let picks = null;
    /** @type {OpenPick | null} */
    let pick = null;
    const closePick = () => { if (pick && picks) picks.push(pick.done()); pick = null; };
    for (const x of this.entries) {
      if (x.r !== round || !picks) {
        closePick();
        round = x.r;
        picks = [];
        rounds.push({ r: x.r, picks });
      }
      if (x.k === "pick") {
        closePick();
        const head = v("p", { class: "log-head" }, line(x));
        /** @type {VNode[]} */
        const lines = [];
        let has = mine(x);
        pick = { add: (y, li) => { lines.push(li); if (mine(y) || y.k === "note") has = true; },
          done: () => v("li", { class: `log-pick${mine(x) ? " mine" : ""}${has ? " has-mine" : ""}`, "data-seat": x.s ?? "" },
            head, v("ul", { class: "log-lines" }, lines)) };
        continue;
      }
      if (!pick) { // lines before the round's first pick
        /** @type {VNode[]} */
        const lines = [];
        let has = false;
        pick = { add: (y, li) => { lines.push(li); if (mine(y) || y.k === "note") has = true; },
          done: () => v("li", { class: `log-pick log-start${has ? " has-mine" : ""}` }, v("ul", { class: "log-lines" }, lines)) };
      }
      pick.add(x, v("li", { class: `log-line${x.k === "note" ? " note" : ""}${mine(x) ? " mine" : ""}`, "data-seat": x.s ?? "" }, line(x)));
    }
    closePick();
    patch(this.list, rounds.map(({ r, picks: p }) => v("li", { class: "log-round", "data-round": r, "data-key": `round:${r}` },
      v("h3", { class: "log-round-head" }, r ? `Round ${r}` : "Before"), v("ol", { class: "log-picks" }, p))));
    for (const el of this.list.querySelectorAll(".latest")) el.classList.remove("latest");
    const all = this.list.querySelectorAll(".log-head, .log-line");
    if (all.length) all[all.length - 1].classList.add("latest");
    this.scrollToEnd();
  }

  scrollToEnd() {
    this.list.scrollTop = this.list.scrollHeight;
  }
}

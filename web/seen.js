// @ts-check
// What this browser itself saw of each game, kept in localStorage for the verify page: the
// fingerprint shown before its seed went out, its own client seed and seat, the client seeds
// listed per seat at the start, the first Warden, and every plot it saw turned up. The
// verify page compares these with the revealed seed and the record, so a server that
// changed anything after the start would be caught by the player's browser.
//
// The order that keeps the server honest is kept here too: `sendClientSeed` refuses to send
// a seed for a table unless `showFingerprint` has first stored the fingerprint and shown it
// on the page. The server has then committed to its seed before it learns ours.
//
// One entry per table, `quaymoor.fair.<table>`:
//   {fingerprint, shown, client_seed, seat, start_seeds, first_warden, upto,
//    turned_up: [{from, to, source, goods}], at}
// A turn-up seen in an update that moved the game from version `from` to `to` happened at
// some step in (from, to]; the setup's is {from: 0, to: 0, source: "setup"}.

import { api } from "./net.js";

/** @typedef {import("./text.js").GameEvent} GameEvent */
/** @typedef {import("./table_model.js").View} View */
/** @typedef {import("./table_model.js").Board} Board */
/**
 * Plots seen turned up between versions `from` and `to` (setup: 0 and 0).
 * @typedef {{from: number, to: number, source: "setup" | "surveyor" | "farmstead", goods: string[]}} TurnUp
 */
/**
 * What this browser saw of one table (`quaymoor.fair.<table>`).
 * @typedef {object} SeenEntry
 * @property {string} [fingerprint]  the table's, as shown before our seed went out
 * @property {boolean} [shown]  the fingerprint was painted on the page
 * @property {string} [client_seed]
 * @property {number} [seat]  the seat our client seed is for
 * @property {boolean} [seed_sent]
 * @property {(string | null)[]} [start_seeds]
 * @property {number | null} [first_warden]
 * @property {number | null} [upto]  the version up to which the turn-ups are noted
 * @property {TurnUp[]} [turned_up]
 * @property {number} [at]  when it was last saved (ms)
 */

const PREFIX = "quaymoor.fair.";
const INDEX = "quaymoor.fair.index";
const KEEP = 50;

/**
 * @template T
 * @param {() => T} fn
 * @returns {T | null}  null when it threw (storage off, full, or unreadable)
 */
function safe(fn) {
  try { return fn(); } catch { return null; }
}

/** A fresh random client seed: 16 bytes from crypto.getRandomValues, as 32 hex digits. */
export function newClientSeed() {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** @param {string} table @returns {SeenEntry | null} */
export function seenFor(table) {
  return safe(() => JSON.parse(localStorage.getItem(PREFIX + table) || "null"));
}

/** @param {string} table @param {SeenEntry} entry */
function save(table, entry) {
  entry.at = Date.now();
  safe(() => {
    localStorage.setItem(PREFIX + table, JSON.stringify(entry));
    /** @type {string[]} */
    const index = (JSON.parse(localStorage.getItem(INDEX) || "[]") || []).filter((/** @type {string} */ t) => t !== table);
    index.push(table);
    while (index.length > KEEP) localStorage.removeItem(PREFIX + /** @type {string} */ (index.shift()));
    localStorage.setItem(INDEX, JSON.stringify(index));
  });
}

/** @param {string} table @returns {SeenEntry} */
function entryFor(table) {
  const e = seenFor(table);
  return e && typeof e === "object" ? e : { turned_up: [], upto: null };
}

/**
 * The fingerprint in the top bar (empty: none), short: its first 8 and last 8 digits with
 * the middle folded away (still in the page's text, so it reads and copies whole), a button
 * that unfolds it and one that copies it.
 * @param {string | null | undefined} fp
 */
export function displayFingerprint(fp) {
  const el = document.getElementById("fingerprint");
  if (!el) return;
  if (fp && el.dataset.fp === fp && el.firstChild) return; // drawn already: keep its state
  el.dataset.fp = fp || "";
  el.textContent = "";
  el.classList.remove("whole");
  el.title = fp ? `SHA-256 of the secret seed: ${fp}` : "";
  if (!fp) return;
  /** @param {string} cls @param {string} text */
  const span = (cls, text) => {
    const s = document.createElement("span");
    if (cls) s.className = cls;
    s.textContent = text;
    return s;
  };
  /** @param {string} id @param {string} text @param {() => void} onclick */
  const button = (id, text, onclick) => {
    const b = document.createElement("button");
    b.type = "button";
    b.id = id;
    b.className = "fp-button quiet";
    b.textContent = text;
    b.addEventListener("click", onclick);
    return b;
  };
  const value = span("fp-value", "");
  value.id = "fp-value";
  // the "…" is drawn by CSS, so the page's text is the 64 digits unbroken
  value.append(span("fp-head", fp.slice(0, 8)), span("fp-mid", fp.slice(8, -8)),
    span("fp-tail", fp.slice(-8)));
  const whole = button("fp-whole", "Show all", () => {
    const on = el.classList.toggle("whole");
    whole.textContent = on ? "Fold" : "Show all";
    whole.setAttribute("aria-expanded", on ? "true" : "false");
  });
  whole.setAttribute("aria-expanded", "false");
  whole.setAttribute("aria-controls", "fp-value");
  const copy = button("fp-copy", "Copy", async () => {
    try {
      await navigator.clipboard.writeText(fp);
      copy.textContent = "Copied";
    } catch {
      const range = document.createRange(); // no clipboard here: select it for the player
      range.selectNodeContents(value);
      const sel = /** @type {Selection} */ (getSelection()); // null only in a frame without a window
      sel.removeAllRanges();
      sel.addRange(range);
      copy.textContent = "Selected: copy it";
    }
    setTimeout(() => { copy.textContent = "Copy"; }, 2500);
  });
  copy.setAttribute("aria-label", "Copy the whole fingerprint");
  el.append(span("fp-label", "Seed fingerprint: "), value, whole, copy);
}

/** @returns {Promise<void>} */
const painted = () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => done())));

/**
 * Show the table's fingerprint (from the answer that seated us) and keep it: once the page
 * has painted it, this browser may send its client seed. A fingerprint other than one this
 * browser saw for the table before is refused (throws).
 * @param {string} table
 * @param {string} fingerprint  checked here: 64 hex digits
 */
export async function showFingerprint(table, fingerprint) {
  if (!/^[0-9a-f]{64}$/.test(String(fingerprint))) throw new Error("the server sent no fingerprint");
  const e = entryFor(table);
  if (e.fingerprint && e.fingerprint !== fingerprint) {
    throw new Error(`the server showed this browser another fingerprint for this table before (${e.fingerprint})`);
  }
  displayFingerprint(fingerprint);
  await painted();
  e.fingerprint = fingerprint;
  e.shown = true;
  save(table, e);
}

/**
 * Send our client seed for `seat` (its `token`), a fresh random one kept here first.
 * Refuses (throws, sends nothing) unless `showFingerprint` has shown the table's
 * fingerprint: the seed must never reach the server before its commitment.
 * @param {string} table
 * @param {{token: string, seat: number}} chair
 * @returns {Promise<string>} the client seed sent
 */
export async function sendClientSeed(table, { token, seat }) {
  const e = entryFor(table);
  if (!e.shown || !e.fingerprint) {
    throw new Error("refusing to send a client seed before this browser has shown the table's fingerprint");
  }
  if (e.client_seed && e.seat === seat && e.seed_sent) return e.client_seed;
  e.client_seed = newClientSeed();
  e.seat = seat;
  save(table, e);
  await api("POST", `/api/tables/${table}/seed`, { token, client_seed: e.client_seed });
  e.seed_sent = true;
  save(table, e);
  return e.client_seed;
}

/**
 * The client seeds the server listed per seat at the start (game_started, or a welcome
 * once started). The first list seen is kept. Returns {mine, listed, ok}: our own seed and
 * what is listed at our seat; ok is null when we gave no seed here.
 * @param {string} table
 * @param {number | null | undefined} seat
 * @param {unknown} clientSeeds  the list, or null before the start
 * @returns {{mine: string | null, listed: string | null, ok: boolean | null, first: boolean}}
 */
export function noteStart(table, seat, clientSeeds) {
  const e = entryFor(table);
  if (!Array.isArray(clientSeeds)) return { mine: null, listed: null, ok: null, first: false };
  const first = !Array.isArray(e.start_seeds);
  if (first) {
    e.start_seeds = clientSeeds.slice();
    save(table, e);
  }
  const mine = e.client_seed && e.seed_sent && seat !== null && seat === e.seat ? e.client_seed : null;
  const listed = seat === null || seat === undefined ? null : clientSeeds[seat] ?? null;
  return { mine, listed, ok: mine === null ? null : listed === mine, first };
}

/** The welcome: the fingerprint shown at the start (the first one seen is kept).
 * @param {string | null} table @param {{fingerprint?: string | null} | null} msg */
export function noteWelcome(table, msg) {
  if (!table || !msg || !msg.fingerprint) return;
  const e = entryFor(table);
  if (e.fingerprint) return;
  e.fingerprint = msg.fingerprint;
  save(table, e);
}

/**
 * An update: the first Warden (round 1) and the plots turned up in it.
 * @param {string | null} table
 * @param {{version: number, since: number, view?: View | null, events?: GameEvent[]} | null} msg
 */
export function noteUpdate(table, msg) {
  if (!table || !msg || !msg.view) return;
  const e = entryFor(table);
  const list = Array.isArray(e.turned_up) ? e.turned_up : [];
  /** @type {Partial<Board>} */
  const board = msg.view.board || {};
  let changed = false;
  if (board.round === 1 && (e.first_warden === undefined || e.first_warden === null)) {
    e.first_warden = board.warden;
    changed = true;
  }
  if (msg.version === 0 && !list.some((t) => t.source === "setup")) {
    list.unshift({ from: 0, to: 0, source: "setup", goods: (board.face_up || []).slice() });
    changed = true;
  }
  const fresh = e.upto === null || e.upto === undefined || msg.since >= e.upto;
  if (fresh && msg.version > msg.since) {
    for (const ev of msg.events || []) {
      if (ev.type === "plots_turned_up") {
        list.push({ from: msg.since, to: msg.version, source: "surveyor", goods: ev.goods.slice() });
      } else if (ev.type === "plot_taken" && ev.from_stack) {
        list.push({ from: msg.since, to: msg.version, source: "farmstead", goods: [ev.kind] });
      }
    }
    e.upto = msg.version;
    changed = true;
  } else if (e.upto === null || e.upto === undefined || msg.version > e.upto) {
    e.upto = msg.version;
    changed = true;
  }
  if (changed) {
    e.turned_up = list;
    save(table, e);
  }
}

// @ts-check
// What this browser itself saw of each game, kept in localStorage for the verify page: the
// fingerprint shown before anything of ours went out, our own client seed, its commitment
// and our seat, the commitments listed per seat at the start (before we revealed), the
// client seeds listed per seat when the game was dealt, the first Warden, and every plot
// it saw turned up. The verify page compares these with the revealed seed and the record,
// so a server that changed anything after the start would be caught by the player's
// browser.
//
// The order that keeps everyone honest (docs/fairness.md, "Commit, then reveal") is kept
// here too: `commitClientSeed` refuses to send a commitment for a table unless
// `showFingerprint` has first stored the fingerprint and shown it on the page, and
// `revealClientSeed` refuses to reveal our seed unless the start's list of commitments
// has our own at our seat, and never reveals twice.
//
// One entry per table, `quaymoor.fair.<table>`:
//   {fingerprint, shown, client_seed, commitment, seat, committed, start_commitments,
//    reveal_sent, revealed, start_seeds, deal_commitments, first_warden, upto,
//    turned_up: [{from, to, source, goods}], at}
// A turn-up seen in an update that moved the game from version `from` to `to` happened at
// some step in (from, to]; the setup's is {from: 0, to: 0, source: "setup"}.

import { api, ApiError } from "./net.js";
import { seedCommitment } from "./fairness.js";
import { CODES } from "./wire.js";

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
 * @property {string} [fingerprint]  the table's, as shown before our commitment went out
 * @property {boolean} [shown]  the fingerprint was painted on the page
 * @property {string} [client_seed]  ours, kept here before its commitment goes out
 * @property {string} [commitment]  seedCommitment(table, seat, client_seed)
 * @property {number} [seat]  the seat our client seed is for
 * @property {boolean} [committed]  the server took our commitment
 * @property {(string | null)[]} [start_commitments]  per seat, as the start listed them (before any reveal)
 * @property {{name: string | null, bot: boolean}[]} [start_seats]  the seats the start listed (names, bots: the key binds the bots; the verify page compares both)
 * @property {boolean} [reveal_sent]  our seed is on its way (the deal may come before the answer)
 * @property {boolean} [revealed]  the server took our seed (once: never again)
 * @property {(string | null)[]} [start_seeds]  per seat, the client seeds the deal listed (game_started)
 * @property {(string | null)[]} [deal_commitments]  per seat, the commitments the deal listed
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
  el.title = fp ? `The table's commitment to its secret seed (SHA-256 of the algorithm, the table, its seats and the seed): ${fp}` : "";
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

/** Two animation frames: what was drawn before is painted. @returns {Promise<void>} */
export const painted = () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => done())));

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
 * Commit to a fresh random client seed for `seat` (its `token`): the seed and its
 * commitment are kept here first, then only the commitment goes out (POST .../commit).
 * Refuses (throws, sends nothing) unless `showFingerprint` has shown the table's
 * fingerprint. Once committed, asking again sends nothing.
 * @param {string} table
 * @param {{token: string, seat: number}} chair
 * @returns {Promise<string>} the commitment sent
 */
export async function commitClientSeed(table, { token, seat }) {
  const e = entryFor(table);
  if (!e.shown || !e.fingerprint) {
    throw new Error("refusing to send a commitment before this browser has shown the table's fingerprint");
  }
  if (e.client_seed && e.commitment && e.seat === seat && e.committed) return e.commitment;
  if (!(e.client_seed && e.commitment && e.seat === seat)) { // a seed once kept is sent again, never replaced
    e.client_seed = newClientSeed();
    e.seat = seat;
    e.commitment = await seedCommitment(table, seat, e.client_seed);
    e.committed = false;
    e.revealed = false;
    save(table, e);
  }
  try {
    await api("POST", `/api/tables/${table}/commit`, { token, commitment: e.commitment });
  } catch (err) {
    // the same commitment sent before (its answer lost): the start's list says if it is ours
    if (!(err instanceof ApiError && err.code === CODES.ALREADY_COMMITTED)) throw err;
  }
  e.committed = true;
  save(table, e);
  return /** @type {string} */ (e.commitment);
}

/**
 * Our commitment against the commitments the start listed per seat (`seeds_committed`, the
 * start's answer, a welcome during the reveal). The first list seen is kept (what the
 * verify page compares the record with). `ok`: ours is listed at our seat (null: we
 * committed nothing here); `changed`: this list differs from the first one seen.
 * @param {string} table
 * @param {number | null | undefined} seat
 * @param {unknown} commitments
 * @param {unknown} [seats] the seats listed with them (names and bot flags), kept the first time
 * @returns {{mine: string | null, listed: string | null, ok: boolean | null, first: boolean, changed: boolean}}
 */
export function noteCommitments(table, seat, commitments, seats = null) {
  const e = entryFor(table);
  noteSeats(e, seats);
  if (!Array.isArray(commitments)) return { mine: null, listed: null, ok: null, first: false, changed: false };
  const first = !Array.isArray(e.start_commitments);
  if (first) {
    e.start_commitments = commitments.slice();
    save(table, e);
  }
  const changed = !first && JSON.stringify(e.start_commitments) !== JSON.stringify(commitments);
  const mine = e.commitment && e.committed && seat !== null && seat === e.seat ? e.commitment : null;
  const listed = seat === null || seat === undefined ? null : commitments[seat] ?? null;
  return { mine, listed, ok: mine === null ? null : listed === mine && !changed, first, changed };
}

/** Our seed was not revealed: the start's commitments do not have ours at our seat. */
export class RevealRefused extends Error {}

/**
 * Keep the seats the start listed (name and bot flag per seat), the first list seen.
 * @param {SeenEntry} e @param {unknown} seats
 */
function noteSeats(e, seats) {
  if (Array.isArray(e.start_seats) || !Array.isArray(seats)) return;
  e.start_seats = seats.map((/** @type {any} */ s) => ({ name: s && typeof s.name === "string" ? s.name : null, bot: !!(s && s.bot) }));
}

/** @type {Map<string, Promise<boolean>>} the reveals on their way, per table (one at a time) */
const revealing = new Map();

/**
 * Reveal our client seed (POST .../reveal), once: only when `commitments` (the start's
 * list, which the caller has shown) has our own commitment at our seat and is the list
 * this browser first saw. Resolves to true when our seed is revealed (now or before), false
 * when there is nothing of ours to reveal here; throws, sending nothing, when our
 * commitment is missing or changed.
 * @param {string} table
 * @param {{token: string, seat: number}} chair
 * @param {unknown} commitments per seat, as listed at the start
 * @returns {Promise<boolean>}
 */
export function revealClientSeed(table, { token, seat }, commitments) {
  const e = entryFor(table);
  if (!e.client_seed || !e.commitment || !e.committed || e.seat !== seat) return Promise.resolve(false);
  if (e.revealed) return Promise.resolve(true);
  const check = noteCommitments(table, seat, commitments);
  if (check.ok !== true) {
    const why = check.changed ? "the server listed other commitments than it did at the start"
      : check.listed === null ? "the server lists no commitment at your seat"
        : `the server lists ${check.listed} at your seat, not yours (${e.commitment})`;
    return Promise.reject(new RevealRefused(why));
  }
  const going = revealing.get(table);
  if (going) return going;
  e.reveal_sent = true;
  save(table, e);
  const reveal = (async () => {
    try {
      await api("POST", `/api/tables/${table}/reveal`, { token, client_seed: e.client_seed });
    } catch (err) {
      if (!(err instanceof ApiError && err.code === CODES.ALREADY_REVEALED)) throw err;
    } finally {
      revealing.delete(table);
    }
    const now = entryFor(table);
    now.revealed = true;
    save(table, now);
    return true;
  })();
  revealing.set(table, reveal);
  return reveal;
}

/**
 * The deal (game_started, or a welcome once started): the client seeds and commitments
 * listed per seat. The first lists seen are kept. Returns our own seed and what is listed
 * at our seat (ok: null when we revealed nothing here), whether our commitment is still
 * the one at our seat, and the seats that committed and did not reveal (withheld).
 * @param {string} table
 * @param {number | null | undefined} seat
 * @param {unknown} clientSeeds  per seat, or null before the deal
 * @param {unknown} [commitments]  per seat
 * @param {unknown} [seats]  the seats as dealt (names and bot flags), kept if the start's were not seen
 * @returns {{mine: string | null, listed: string | null, ok: boolean | null, first: boolean, withheld: number[], revealed: number[]}}
 */
export function noteDeal(table, seat, clientSeeds, commitments, seats = null) {
  const e = entryFor(table);
  noteSeats(e, seats);
  if (!Array.isArray(clientSeeds)) return { mine: null, listed: null, ok: null, first: false, withheld: [], revealed: [] };
  const committedList = Array.isArray(commitments) ? commitments : [];
  const first = !Array.isArray(e.start_seeds);
  if (first) {
    e.start_seeds = clientSeeds.slice();
    if (Array.isArray(commitments)) e.deal_commitments = commitments.slice();
    if (!Array.isArray(e.start_commitments) && Array.isArray(commitments)) e.start_commitments = commitments.slice();
    save(table, e);
  }
  const sent = e.revealed || e.reveal_sent;
  const mine = e.client_seed && sent && seat !== null && seat === e.seat ? e.client_seed : null;
  const listed = seat === null || seat === undefined ? null : clientSeeds[seat] ?? null;
  const ourCommitment = mine === null || !Array.isArray(commitments) ? true : committedList[/** @type {number} */ (seat)] === e.commitment;
  const withheld = [];
  const revealed = [];
  for (let i = 0; i < committedList.length; i++) {
    if (committedList[i] === null || committedList[i] === undefined) continue;
    if (clientSeeds[i] === null || clientSeeds[i] === undefined) withheld.push(i);
    else revealed.push(i);
  }
  return { mine, listed, ok: mine === null ? null : listed === mine && ourCommitment, first, withheld, revealed };
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

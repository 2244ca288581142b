// What this browser itself saw of each game, kept in localStorage for the verify page: the
// fingerprint shown at the start, its own client seed, the first Warden, and every plot it
// saw turned up. The verify page compares these with the revealed seed and the record, so
// a server that changed anything after the start would be caught by the player's browser.
//
// One entry per table, `quaymoor.fair.<table>`:
//   {fingerprint, client_seed, first_warden, upto, turned_up: [{from, to, source, goods}], at}
// A turn-up seen in an update that moved the game from version `from` to `to` happened at
// some step in (from, to]; the setup's is {from: 0, to: 0, source: "setup"}.

const PREFIX = "quaymoor.fair.";
const INDEX = "quaymoor.fair.index";
const KEEP = 50;

function safe(fn, fallback = null) {
  try { return fn(); } catch { return fallback; }
}

/** A fresh random client seed: 16 bytes from crypto.getRandomValues, as 32 hex digits. */
export function newClientSeed() {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

export function seenFor(table) {
  return safe(() => JSON.parse(localStorage.getItem(PREFIX + table) || "null"));
}

function save(table, entry) {
  entry.at = Date.now();
  safe(() => {
    localStorage.setItem(PREFIX + table, JSON.stringify(entry));
    const index = (JSON.parse(localStorage.getItem(INDEX) || "[]") || []).filter((t) => t !== table);
    index.push(table);
    while (index.length > KEEP) localStorage.removeItem(PREFIX + index.shift());
    localStorage.setItem(INDEX, JSON.stringify(index));
  });
}

function entryFor(table) {
  const e = seenFor(table);
  return e && typeof e === "object" ? e : { turned_up: [], upto: null };
}

/** At creating or joining a table: the fingerprint it was announced with, our client seed. */
export function rememberJoin(table, { fingerprint, clientSeed }) {
  if (!table) return;
  const e = entryFor(table);
  if (fingerprint && !e.fingerprint) e.fingerprint = fingerprint;
  if (clientSeed && !e.client_seed) e.client_seed = clientSeed;
  save(table, e);
}

/** The welcome: the fingerprint shown at the start (the first one seen is kept). */
export function noteWelcome(table, msg) {
  if (!table || !msg || !msg.fingerprint) return;
  const e = entryFor(table);
  if (e.fingerprint) return;
  e.fingerprint = msg.fingerprint;
  save(table, e);
}

/** An update: the first Warden (round 1) and the plots turned up in it. */
export function noteUpdate(table, msg) {
  if (!table || !msg || !msg.view) return;
  const e = entryFor(table);
  const list = Array.isArray(e.turned_up) ? e.turned_up : [];
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

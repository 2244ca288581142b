// @ts-check
// The status page's pure part: /status.json (docs/protocol.md, "Operators") turned into
// what the page shows: numbers as text, seats as kinds, tables in order, phases counted,
// the summary line and the charts' history points. No DOM, no network. /status.json
// carries public facts only, and the page shows no more.
//
// The page reads it with care: a field of another version of the server may be missing,
// null or of another type, and shows as a dash rather than breaking the page.

export const DASH = "–";
export const POLL_MS = 2000;
export const TIMEOUT_MS = 8000;
export const HISTORY_MS = 5 * 60 * 1000;
export const PHASES = ["pick_role", "surveyor", "reeve", "mason", "miller", "chandler",
  "bargemaster", "keep_goods", "game_over"];
const STATES = ["playing", "waiting", "finished", "ended"];

/**
 * A seat of a table (quaymoor/actors/status.py); `name` null: an open seat.
 * @typedef {object} StatusSeat
 * @property {number} seat from 0
 * @property {string | null} [name]
 * @property {boolean} [bot]
 * @property {boolean} [bot_playing] a bot plays for its disconnected player
 * @property {boolean} [connected]
 */
/**
 * A table of /status.json's `tables`.
 * @typedef {object} StatusTable
 * @property {string} id
 * @property {string} state "waiting", "playing", "finished" or "ended"
 * @property {StatusSeat[]} [seats]
 * @property {number | null} [round]
 * @property {string | null} [phase]
 * @property {number[]} [deciding] seats
 * @property {number | null} [time_left] seconds until the first deciding seat's deadline
 * @property {number} [connections]
 */
/**
 * One of /status.json's `crashes`.
 * @typedef {object} Crash
 * @property {string} [table]
 * @property {string} [error]
 * @property {number} [at] seconds since the epoch
 */
/**
 * /status.json's `live`: the last minute (quaymoor/ops/metrics.py `live`). Each figure
 * may be null (nothing measured).
 * @typedef {Record<string, unknown>} Live
 */
/**
 * How the archive's writes go (the server's `WriteHealth`; `text` is its one line).
 * @typedef {object} ArchiveHealth
 * @property {boolean} failing
 * @property {number} pending records ended and not yet written
 * @property {string} text "archive failing since ..., N pending"
 */
/**
 * /status.json's `totals`: the headline figures, this process's (`scope` "process") or,
 * from a cluster's process, the sums over the live processes (`scope` "cluster").
 * @typedef {object} Totals
 * @property {"process" | "cluster"} scope
 * @property {number} processes
 * @property {number} tables
 * @property {number} playing
 * @property {number} waiting
 * @property {number} connections
 * @property {number} games_finished
 */
/**
 * /status.json. `processes` and `haproxy` only from a cluster's process
 * (status_processes.js).
 * @typedef {object} Status
 * @property {Totals} [totals]
 * @property {number} [uptime_seconds]
 * @property {StatusTable[]} [tables]
 * @property {number} [table_count]
 * @property {number} [connections]
 * @property {number} [games_finished]
 * @property {number} [crash_count]
 * @property {Crash[]} [crashes]
 * @property {Live | null} [live]
 * @property {ArchiveHealth | null} [archive]
 * @property {import("./status_processes.js").Process[]} [processes]
 * @property {import("./status_processes.js").RouterView[] | string} [haproxy]
 */
/**
 * A charts' history point: one poll's figures.
 * @typedef {object} Point
 * @property {number} t when, ms since the epoch
 * @property {unknown} in messages in per second
 * @property {unknown} out messages out per second
 * @property {unknown} lat99 action-to-broadcast p99, ms
 * @property {unknown} lag99 event-loop lag p99, ms
 * @property {number | null} rss MiB
 */
/** @typedef {"in" | "out" | "lat99" | "lag99" | "rss"} PointKey */
/** @typedef {"human" | "away" | "botplaying" | "bot" | "open"} SeatKind */

// ------------------------------------------------------------------ formatting

/** @param {unknown} x @returns {x is number} */
export const isNum = (x) => typeof x === "number" && Number.isFinite(x);

/**
 * `obj[path[0]][path[1]]...`, or null where the path leaves the objects.
 * @param {unknown} obj @param {...string} path
 * @returns {unknown}
 */
export function get(obj, ...path) {
  let v = obj;
  for (const k of path) {
    if (v === null || v === undefined || typeof v !== "object") return null;
    v = /** @type {Record<string, unknown>} */ (v)[k];
  }
  return v === undefined ? null : v;
}

/** @param {unknown} x */
export function fmtMs(x) {
  if (!isNum(x)) return DASH;
  if (x === 0) return "0 ms";
  const digits = x < 1 ? 2 : x < 100 ? 1 : 0;
  return `${x.toFixed(digits)} ms`;
}

/** @param {unknown} x */
export function fmtRate(x) {
  if (!isNum(x)) return DASH;
  if (x === 0) return "0/s";
  return `${x.toFixed(x < 1 ? 2 : x < 10 ? 1 : 0)}/s`;
}

/** @param {unknown} bytes @returns {number | null} */
export const mib = (bytes) => (isNum(bytes) ? bytes / (1024 * 1024) : null);

/** @param {unknown} x */
export function fmtMiB(x) {
  return isNum(x) ? `${x.toFixed(x < 100 ? 1 : 0)} MiB` : DASH;
}

/** @param {unknown} x */
export function fmtCount(x) {
  return isNum(x) ? x.toLocaleString("en") : DASH;
}

/** @param {unknown} seconds */
export function fmtUptime(seconds) {
  if (!isNum(seconds)) return DASH;
  const s = Math.floor(seconds);
  const d = Math.floor(s / 86400);
  const h = Math.floor((s % 86400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  /** @param {number} n */
  const pad = (n) => String(n).padStart(2, "0");
  if (d) return `${d} d ${h} h`;
  if (h) return `${h} h ${pad(m)} min`;
  if (m) return `${m} min ${pad(s % 60)} s`;
  return `${s} s`;
}

/** A time of day, 24-hour. @param {number} ms since the epoch */
export function clock(ms) {
  return new Date(ms).toLocaleTimeString("en-GB", { hour12: false });
}

/** @param {unknown} p */
export const phaseLabel = (p) => String(p).replace(/_/g, " ");

/** @param {number} n @param {string} one */
export function plural(n, one, many = `${one}s`) {
  return `${n} ${n === 1 ? one : many}`;
}

// ------------------------------------------------------------------ seats and tables

/** @param {StatusSeat} seat @returns {SeatKind} */
export function seatKind(seat) {
  if (seat.name === null || seat.name === undefined) return "open";
  if (seat.bot) return "bot";
  if (!seat.connected) return seat.bot_playing ? "botplaying" : "away";
  return "human";
}

/** @type {Record<SeatKind, string[]>} */
export const SEAT_BADGES = { bot: ["bot"], away: ["disconnected"],
  botplaying: ["disconnected", "bot playing"], open: ["open"], human: [] };

/** Bots are named "Ada (bot)" by the server; the badge says so, once. @param {StatusSeat} seat */
export function seatName(seat) {
  const name = String(seat.name);
  return seat.bot ? name.replace(/\s*\(bot\)$/i, "") || name : name;
}

/** Who is deciding at `table`, by name. @param {StatusTable} table */
export function decidingText(table) {
  const who = (table.deciding || []).map((i) => {
    const seat = (table.seats || []).find((s) => s.seat === i);
    const name = seat && seat.name ? seatName(seat) : `seat ${i}`;
    return seat && (seat.bot || seat.bot_playing) ? `${name} (bot)` : name;
  });
  return who.length ? who.join(", ") : DASH;
}

/** @param {string} state */
function stateRank(state) {
  const i = STATES.indexOf(state);
  return i < 0 ? STATES.length : i;
}

/** The tables as the page lists them: playing first, then by id. @param {readonly StatusTable[]} tables */
export function sortedTables(tables) {
  return [...tables].sort((a, b) =>
    stateRank(a.state) - stateRank(b.state) || String(a.id).localeCompare(String(b.id)));
}

/**
 * Tables by phase (a playing table's phase, else its state), in the game's order.
 * @param {readonly StatusTable[]} tables
 * @returns {[string, number][]}
 */
export function phaseCounts(tables) {
  /** @type {Map<string, number>} */
  const counts = new Map();
  for (const t of tables) {
    const key = t.state === "playing" ? (t.phase || "starting") : t.state;
    counts.set(key, (counts.get(key) || 0) + 1);
  }
  const order = ["waiting", "starting", ...PHASES, "finished", "ended"];
  /** @param {string} k */
  const rank = (k) => (order.includes(k) ? order.indexOf(k) : order.length);
  return [...counts.entries()].sort((a, b) => rank(a[0]) - rank(b[0]) || a[0].localeCompare(b[0]));
}

/**
 * Seats at every table by kind; `away` counts those a bot plays for too.
 * @param {readonly StatusTable[]} tables
 * @returns {Record<SeatKind, number>}
 */
export function seatTotals(tables) {
  const totals = { human: 0, away: 0, botplaying: 0, bot: 0, open: 0 };
  for (const t of tables) {
    for (const seat of t.seats || []) {
      const kind = seatKind(seat);
      totals[kind] += 1;
      if (kind === "botplaying") totals.away += 1;
    }
  }
  return totals;
}

// ------------------------------------------------------------------ the whole page

/**
 * The headline's scope, in words. @param {Status} status
 * @returns {string}
 */
export function scopeText(status) {
  const totals = status.totals;
  if (!totals || totals.scope !== "cluster") return "(this process)";
  return `(cluster totals: ${plural(totals.processes, "live process", "live processes")})`;
}

/** The line at the top. @param {Status} status @param {readonly StatusTable[]} tables */
export function summaryText(status, tables) {
  const totals = status.totals;
  const archive = status.archive?.failing ? ` · ${status.archive.text}` : "";
  if (totals && totals.scope === "cluster") {  // the tables listed are this process's only
    return `Cluster: ${plural(totals.tables, "table")} (${totals.playing} playing, ` +
      `${totals.waiting} waiting) · ${plural(totals.connections, "connection")} · ` +
      `${plural(totals.games_finished, "game")} finished, over ` +
      `${plural(totals.processes, "live process", "live processes")}${archive}`;
  }
  const states = [...new Set([...STATES, ...tables.map((t) => t.state)])]
    .map((state) => /** @type {[string, number]} */ ([state, tables.filter((t) => t.state === state).length]))
    .filter(([, n]) => n > 0)
    .map(([state, n]) => `${n} ${state}`);
  const count = isNum(status.table_count) ? status.table_count : tables.length;
  const crashes = isNum(status.crash_count) ? status.crash_count : 0;
  return `${plural(count, "table")}${states.length ? ` (${states.join(", ")})` : ""} · ` +
    `${plural(status.connections ?? 0, "connection")} · ` +
    `${plural(status.games_finished ?? 0, "game")} finished · ` +
    `${crashes ? plural(crashes, "table crash", "table crashes") : "no crashes"}${archive}`;
}

/** The crashes card's note. @param {number} count since the start @param {number} listed */
export function crashNote(count, listed) {
  if (count > listed) return `The last ${listed} of ${count} crashes, newest first.`;
  if (count) return `${plural(count, "crash", "crashes")} since the server started, newest first.`;
  return "None since the server started.";
}

/** The charts' point for one poll. @param {Status} status @param {number} now @returns {Point} */
export function historyPoint(status, now) {
  const live = status.live;
  return {
    t: now,
    in: get(live, "messages_in_per_second"),
    out: get(live, "messages_out_per_second"),
    lat99: get(live, "action_latency_ms", "p99"),
    lag99: get(live, "event_loop_lag_ms", "p99"),
    rss: mib(get(live, "rss_bytes")),
  };
}

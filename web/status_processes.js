// @ts-check
// The status page's "Processes" card, for a cluster (docs/deploy.md): every table process
// from /status.json's `processes` (its tables, connections, p99s, RSS, draining, how old
// its heartbeat is) beside HAProxy's view of the same server (`haproxy`), and a last row
// adding up the live ones (the worst p99s). Hidden on a single-process server, whose
// /status.json has no `processes`.

/**
 * A table process of the cluster, from its heartbeat (quaymoor/cluster/member.py); a
 * process that is not alive reports only `tables` and `playing` (connections null).
 * @typedef {object} Process
 * @property {string} name
 * @property {boolean} [this] the process that answered
 * @property {boolean} [alive]
 * @property {boolean} [draining]
 * @property {number | null} [stopped_at]
 * @property {number} [beat_age_seconds]
 * @property {number | null} [tables]
 * @property {number | null} [connections]
 * @property {number | null} [action_p99_ms]
 * @property {number | null} [loop_lag_p99_ms]
 * @property {number | null} [rss_bytes]
 */
/**
 * HAProxy's view of one server (its runtime API's `show servers state`, by name).
 * @typedef {{svname: string, status: string, weight: string, scur: string}} RouterView
 */
/** @typedef {"tables" | "connections" | "rss_bytes"} Summed */

const DASH = "–";

/** @param {HTMLTableRowElement} row @param {string} text @param {string} [cls] */
function cell(row, text, cls) {
  const td = document.createElement("td");
  if (cls) td.className = cls;
  td.textContent = text;
  row.append(td);
  return td;
}

/** @param {unknown} x @returns {x is number} */
const num = (x) => typeof x === "number" && Number.isFinite(x);
/** @param {unknown} x */
const ms = (x) => (num(x) && x >= 0 ? `${x < 10 ? x.toFixed(1) : Math.round(x)} ms` : DASH);
/** @param {unknown} x */
const mib = (x) => (num(x) ? `${Math.round(x / 1048576)} MiB` : DASH);

/** @param {Process} proc */
function stateOf(proc) {
  if (proc.stopped_at !== null && proc.stopped_at !== undefined) return "stopped";
  if (!proc.alive) return "not beating";
  return proc.draining ? "draining" : "serving";
}

/** @param {{processes?: Process[], haproxy?: RouterView[] | string, lease?: Lease}} status /status.json */
export function renderProcesses(status) {
  const card = document.getElementById("processes-card");
  if (!card) return;
  const procs = Array.isArray(status.processes) ? status.processes : null;
  card.hidden = procs === null;
  if (procs === null) return;
  const seen = Array.isArray(status.haproxy) ? status.haproxy : [];
  const router = new Map(seen.map((s) => [s.svname, s]));
  const body = /** @type {HTMLElement} */ (document.getElementById("processes")); // in the card
  const rows = procs.map((p) => {
    const tr = document.createElement("tr");
    const state = stateOf(p);
    tr.className = `proc-${state.replace(" ", "-")}`;
    cell(tr, `${p.name}${p.this ? " (this one)" : ""}`);
    cell(tr, state, state === "serving" ? "" : "bad");
    cell(tr, num(p.tables) ? String(p.tables) : DASH);
    cell(tr, num(p.connections) ? String(p.connections) : DASH);
    cell(tr, ms(p.action_p99_ms));
    cell(tr, ms(p.loop_lag_p99_ms));
    cell(tr, mib(p.rss_bytes));
    cell(tr, num(p.beat_age_seconds) ? `${p.beat_age_seconds.toFixed(1)} s` : DASH);
    const view = p.stopped_at ? null : router.get(p.name);
    cell(tr, view ? `${view.status} (weight ${view.weight}, ${view.scur} open)` : DASH);
    return tr;
  });
  // The "Now" card shows the cluster's totals (/status.json's `totals`); the others are
  // this process's own figures. This row adds up the live ones' (RSS too).
  const live = procs.filter((p) => stateOf(p) === "serving" || stateOf(p) === "draining");
  /** @param {Summed} key */
  const sum = (key) => live.reduce((n, p) => {
    const v = p[key];
    return n + (num(v) ? v : 0);
  }, 0);
  const total = document.createElement("tr");
  total.className = "proc-total";
  cell(total, `All ${live.length} live`);
  cell(total, "");
  cell(total, String(sum("tables")));
  cell(total, String(sum("connections")));
  cell(total, ms(Math.max(...live.map((p) => (num(p.action_p99_ms) ? p.action_p99_ms : -1)))));
  cell(total, ms(Math.max(...live.map((p) => (num(p.loop_lag_p99_ms) ? p.loop_lag_p99_ms : -1)))));
  cell(total, mib(sum("rss_bytes")));
  cell(total, "");
  cell(total, "");
  body.replaceChildren(...rows, total);
  const note = /** @type {HTMLElement} */ (document.getElementById("haproxy-note")); // in the card
  note.textContent = typeof status.haproxy === "string" ? `HAProxy: ${status.haproxy}` : "";
  note.hidden = note.textContent === "";
  renderLease(status.lease);
}

/**
 * This process's lease (quaymoor/cluster/fencing.py `status`): a line under the card,
 * shown only when something is wrong (its heartbeat late, its tables paused).
 * @typedef {{age_seconds: number | null, lapsed: boolean, paused_tables: number,
 *   games_reaped: number, window_seconds: number}} Lease
 * @param {Lease | undefined} lease
 */
function renderLease(lease) {
  const note = document.getElementById("lease-note");
  if (!note) return;
  const age = lease && num(lease.age_seconds) ? `${lease.age_seconds.toFixed(1)} s` : "never";
  note.textContent = lease && (lease.lapsed || lease.paused_tables > 0)
    ? `This process's last heartbeat began ${age} ago: ${lease.paused_tables} tables paused, ` +
      `waiting for the database (taken for dead after ${lease.window_seconds} s).`
    : "";
  note.hidden = note.textContent === "";
}

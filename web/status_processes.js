// The status page's "Processes" card, for a cluster (docs/deploy.md): every table process
// from /status.json's `processes` (its tables, connections, p99s, RSS, draining, how old
// its heartbeat is) beside HAProxy's view of the same server (`haproxy`), and a last row
// adding up the live ones (the worst p99s). Hidden on a single-process server, whose
// /status.json has no `processes`.

const DASH = "–";

function cell(row, text, cls) {
  const td = document.createElement("td");
  if (cls) td.className = cls;
  td.textContent = text;
  row.append(td);
  return td;
}

const num = (x) => typeof x === "number" && Number.isFinite(x);
const ms = (x) => (num(x) && x >= 0 ? `${x < 10 ? x.toFixed(1) : Math.round(x)} ms` : DASH);
const mib = (x) => (num(x) ? `${Math.round(x / 1048576)} MiB` : DASH);

function stateOf(proc) {
  if (proc.stopped_at !== null && proc.stopped_at !== undefined) return "stopped";
  if (!proc.alive) return "not beating";
  return proc.draining ? "draining" : "serving";
}

export function renderProcesses(status) {
  const card = document.getElementById("processes-card");
  if (!card) return;
  const procs = Array.isArray(status.processes) ? status.processes : null;
  card.hidden = procs === null;
  if (procs === null) return;
  const seen = Array.isArray(status.haproxy) ? status.haproxy : [];
  const router = new Map(seen.map((s) => [s.svname, s]));
  const body = document.getElementById("processes");
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
  // The cards above are this process's own figures; this row adds up the live ones.
  const live = procs.filter((p) => stateOf(p) === "serving" || stateOf(p) === "draining");
  const sum = (key) => live.reduce((n, p) => n + (num(p[key]) ? p[key] : 0), 0);
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
  const note = document.getElementById("haproxy-note");
  note.textContent = typeof status.haproxy === "string" ? `HAProxy: ${status.haproxy}` : "";
  note.hidden = note.textContent === "";
}

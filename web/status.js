// The operators' status page: polls /status.json every 2 seconds and updates in place.
// /status.json carries public facts only (seats, rounds, phases, timers, counters): no
// hidden information is served there and none is shown here.
//
// With an operator token set on the server, /status.json answers 401 until the page sends
// "Authorization: Bearer <token>": the page asks once and keeps the token in sessionStorage
// (this tab only). Without a token set it answers only on loopback (403 from elsewhere).
//
// The Content-Security-Policy allows only files: no inline scripts or styles, so every
// attribute of the SVG charts is set here with setAttribute and every colour is in
// status.css.

import { renderProcesses } from "./status_processes.js";

const POLL_MS = 2000;
const TIMEOUT_MS = 8000;
const HISTORY_MS = 5 * 60 * 1000;
const TOKEN_KEY = "quaymoor.operatorToken";
const HISTORY_KEY = "quaymoor.statusHistory";
const SVG = "http://www.w3.org/2000/svg";
const W = 300;
const H = 80;
const PHASES = ["pick_role", "surveyor", "reeve", "mason", "miller", "chandler",
  "bargemaster", "keep_goods", "game_over"];
const STATES = ["playing", "waiting", "finished", "ended"];
const DASH = "–";

const $ = (id) => document.getElementById(id);

// ------------------------------------------------------------------ formatting

const isNum = (x) => typeof x === "number" && Number.isFinite(x);

function get(obj, ...path) {
  let v = obj;
  for (const k of path) {
    if (v === null || v === undefined || typeof v !== "object") return null;
    v = v[k];
  }
  return v === undefined ? null : v;
}

function fmtMs(x) {
  if (!isNum(x)) return DASH;
  if (x === 0) return "0 ms";
  const digits = x < 1 ? 2 : x < 100 ? 1 : 0;
  return `${x.toFixed(digits)} ms`;
}

function fmtRate(x) {
  if (!isNum(x)) return DASH;
  if (x === 0) return "0/s";
  return `${x.toFixed(x < 1 ? 2 : x < 10 ? 1 : 0)}/s`;
}

const mib = (bytes) => (isNum(bytes) ? bytes / (1024 * 1024) : null);

function fmtMiB(x) {
  return isNum(x) ? `${x.toFixed(x < 100 ? 1 : 0)} MiB` : DASH;
}

function fmtCount(x) {
  return isNum(x) ? x.toLocaleString("en") : DASH;
}

function fmtUptime(seconds) {
  if (!isNum(seconds)) return DASH;
  const s = Math.floor(seconds);
  const d = Math.floor(s / 86400);
  const h = Math.floor((s % 86400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  const pad = (n) => String(n).padStart(2, "0");
  if (d) return `${d} d ${h} h`;
  if (h) return `${h} h ${pad(m)} min`;
  if (m) return `${m} min ${pad(s % 60)} s`;
  return `${s} s`;
}

function clock(ms) {
  return new Date(ms).toLocaleTimeString("en-GB", { hour12: false });
}

const phaseLabel = (p) => String(p).replace(/_/g, " ");

function plural(n, one, many = `${one}s`) {
  return `${n} ${n === 1 ? one : many}`;
}

function setText(el, text) {
  if (el && el.textContent !== text) el.textContent = text;
}

function el(tag, cls, text) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined) node.textContent = text;
  return node;
}

function svg(tag, attrs = {}) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  return node;
}

// ------------------------------------------------------------------ charts

// Each chart: a caption (in the HTML), a top and bottom value label, the SVG, and the time
// axis. ``series`` are {key, cls, label, unit}; values come from the history points.
const CHARTS = [
  { id: "chart-messages", title: "Messages per second", fmt: fmtRate, floor: 1,
    series: [{ key: "in", cls: "in", label: "in" }, { key: "out", cls: "out", label: "out" }] },
  { id: "chart-latency", title: "Action to broadcast latency p99", fmt: fmtMs, floor: 1,
    idle: "No actions in the last minute",
    series: [{ key: "lat99", cls: "p99", label: "p99" }] },
  { id: "chart-lag", title: "Event-loop lag p99", fmt: fmtMs, floor: 1,
    series: [{ key: "lag99", cls: "p99", label: "p99" }] },
  { id: "chart-rss", title: "Memory (RSS)", fmt: fmtMiB, floor: 1, fromZero: false,
    idle: "Not measured on this system",
    series: [{ key: "rss", cls: "rss", label: "RSS" }] },
];

function buildChart(chart) {
  const fig = $(chart.id);
  const plot = el("div", "plot");
  const top = el("span", "y-top", "");
  const bottom = el("span", "y-bottom", "");
  const box = svg("svg", {
    viewBox: `0 0 ${W} ${H}`, preserveAspectRatio: "none", role: "img",
    "aria-label": `${chart.title}: no data yet`, focusable: "false",
  });
  for (const f of [0, 0.5, 1]) {
    box.append(svg("line", { x1: 0, x2: W, y1: f * H, y2: f * H, class: "grid" }));
  }
  chart.paths = chart.series.map((s) => {
    const path = svg("path", { d: "", class: `line ${s.cls}`, fill: "none",
      "vector-effect": "non-scaling-stroke", "stroke-linejoin": "round",
      "stroke-linecap": "round" });
    // the latest value as a round dot: a zero-length stroke with round caps, which stays
    // round although the chart stretches (preserveAspectRatio none)
    const dot = svg("path", { d: "", class: `dot ${s.cls}`, fill: "none",
      "vector-effect": "non-scaling-stroke", "stroke-linecap": "round" });
    box.append(path, dot);
    return { path, dot };
  });
  const empty = el("p", "nodata", "Collecting…");
  const axis = el("div", "x-axis");
  const since = el("span", "", "5 min ago");
  axis.append(since, el("span", "", "now"));
  plot.append(top, box, bottom, empty);
  fig.append(plot, axis);
  Object.assign(chart, { svg: box, top, bottom, empty, since });
}

function niceCeil(x) {
  if (!(x > 0)) return 1;
  const p = 10 ** Math.floor(Math.log10(x));
  for (const m of [1, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10]) if (m * p >= x) return m * p;
  return 10 * p;
}

function drawChart(chart, history, now, hasLive) {
  const values = [];
  for (const point of history) {
    for (const s of chart.series) if (isNum(point[s.key])) values.push(point[s.key]);
  }
  const drawable = values.length > 0;
  chart.empty.hidden = drawable;
  chart.svg.classList.toggle("empty", !drawable);
  if (!drawable) {
    let why = "Collecting…";
    if (!hasLive) why = "Not reported by this server";
    else if (history.length && chart.idle) why = chart.idle;
    setText(chart.empty, why);
    chart.paths.forEach(({ path, dot }) => { path.setAttribute("d", ""); dot.setAttribute("d", ""); });
    setText(chart.top, "");
    setText(chart.bottom, "");
    chart.svg.setAttribute("aria-label", `${chart.title}: ${why}`);
    setText(chart.since, "");
    return;
  }
  let lo = 0;
  let hi = niceCeil(Math.max(chart.floor, ...values) * 1.1);
  if (chart.fromZero === false) {
    // memory: the window's own range, so that slow growth shows
    const min = Math.min(...values);
    const max = Math.max(...values);
    const pad = Math.max((max - min) * 0.15, 1);
    lo = Math.max(0, Math.floor(min - pad));
    hi = Math.ceil(max + pad);
  }
  // the time axis grows with the history, a minute at a time, up to five minutes
  const first = history.length ? history[0].t : now;
  const minutes = Math.min(HISTORY_MS / 60000, Math.max(1, Math.ceil((now - first) / 60000)));
  const span = minutes * 60000;
  setText(chart.since, `${minutes} min ago`);
  const x = (t) => (W * (1 - (now - t) / span)).toFixed(1);
  const y = (v) => (H - ((v - lo) / (hi - lo)) * H).toFixed(1);
  chart.series.forEach((s, i) => {
    let d = "";
    let prev = null;
    let last = null;
    for (const point of history) {
      const v = point[s.key];
      if (!isNum(v)) { prev = null; continue; }
      // a gap of missed polls breaks the line rather than drawing across it
      const joined = prev !== null && point.t - prev <= 3 * POLL_MS + TIMEOUT_MS;
      d += `${joined ? "L" : "M"}${x(point.t)} ${y(v)} `;
      prev = point.t;
      last = point;
    }
    const { path, dot } = chart.paths[i];
    path.setAttribute("d", d.trim());
    dot.setAttribute("d", last === null ? "" : `M${x(last.t)} ${y(last[s.key])} h0`);
  });
  setText(chart.top, chart.fmt(hi));
  setText(chart.bottom, chart.fmt(lo));
  const described = chart.series.map((s) => {
    const vs = history.map((p) => p[s.key]).filter(isNum);
    if (!vs.length) return `${s.label} no data`;
    return `${s.label} now ${chart.fmt(vs[vs.length - 1])}, highest ${chart.fmt(Math.max(...vs))}`;
  });
  chart.svg.setAttribute("aria-label",
    `${chart.title}, last ${plural(minutes, "minute")}: ${described.join("; ")}`);
}

// ------------------------------------------------------------------ history

let history = loadHistory();

function loadHistory() {
  try {
    const saved = JSON.parse(sessionStorage.getItem(HISTORY_KEY) || "[]");
    const now = Date.now();
    return Array.isArray(saved) ? saved.filter((p) => isNum(p.t) && now - p.t < HISTORY_MS) : [];
  } catch {
    return [];
  }
}

function remember(status, now) {
  const live = status.live;
  history.push({
    t: now,
    in: get(live, "messages_in_per_second"),
    out: get(live, "messages_out_per_second"),
    lat99: get(live, "action_latency_ms", "p99"),
    lag99: get(live, "event_loop_lag_ms", "p99"),
    rss: mib(get(live, "rss_bytes")),
  });
  history = history.filter((p) => now - p.t < HISTORY_MS);
  try {
    sessionStorage.setItem(HISTORY_KEY, JSON.stringify(history));
  } catch {
    // storage full or off: the charts still work for this page's life
  }
}

// ------------------------------------------------------------------ tables

const rows = new Map(); // table id -> {tr, cells}
const COLUMNS = ["Table", "State", "Seats", "Round", "Phase", "Deciding", "Time left", "Connections"];

function seatKind(seat) {
  if (seat.name === null || seat.name === undefined) return "open";
  if (seat.bot) return "bot";
  if (!seat.connected) return seat.bot_playing ? "botplaying" : "away";
  return "human";
}

const SEAT_BADGES = { bot: ["bot"], away: ["disconnected"],
  botplaying: ["disconnected", "bot playing"], open: ["open"], human: [] };

// Bots are named "Ada (bot)" by the server; the badge says so, once.
function seatName(seat) {
  const name = String(seat.name);
  return seat.bot ? name.replace(/\s*\(bot\)$/i, "") || name : name;
}

function seatsCell(td, table) {
  const key = JSON.stringify([table.seats, table.deciding]);
  if (td.dataset.key === key) return;
  td.dataset.key = key;
  const list = el("ul", "seats");
  const deciding = new Set(table.deciding || []);
  for (const seat of table.seats || []) {
    const kind = seatKind(seat);
    const li = el("li", `seat ${kind}${deciding.has(seat.seat) ? " deciding" : ""}`);
    li.append(el("span", "seat-name", kind === "open" ? `seat ${seat.seat}` : seatName(seat)));
    for (const badge of SEAT_BADGES[kind]) li.append(" ", el("span", "badge", badge));
    list.append(li);
  }
  td.replaceChildren(list);
}

function decidingText(table) {
  const who = (table.deciding || []).map((i) => {
    const seat = (table.seats || []).find((s) => s.seat === i);
    const name = seat && seat.name ? seatName(seat) : `seat ${i}`;
    return seat && (seat.bot || seat.bot_playing) ? `${name} (bot)` : name;
  });
  return who.length ? who.join(", ") : DASH;
}

function renderRow(table) {
  let row = rows.get(table.id);
  if (!row) {
    const tr = el("tr");
    const cells = COLUMNS.map((label, i) => {
      const td = el(i === 0 ? "th" : "td");
      if (i === 0) td.setAttribute("scope", "row");
      td.dataset.label = label;
      tr.append(td);
      return td;
    });
    cells[0].className = "mono";
    row = { tr, cells };
    rows.set(table.id, row);
  }
  const [id, state, seats, round, phase, deciding, left, conns] = row.cells;
  row.tr.dataset.table = table.id;
  row.tr.dataset.state = table.state;
  setText(id, String(table.id));
  setText(state, String(table.state));
  seatsCell(seats, table);
  setText(round, isNum(table.round) ? String(table.round) : DASH);
  setText(phase, table.phase ? phaseLabel(table.phase) : DASH);
  setText(deciding, decidingText(table));
  setText(left, isNum(table.time_left) ? `${Math.max(0, table.time_left).toFixed(0)} s` : DASH);
  left.classList.toggle("low", isNum(table.time_left) && table.time_left < 10);
  setText(conns, fmtCount(table.connections));
  return row.tr;
}

function stateRank(state) {
  const i = STATES.indexOf(state);
  return i < 0 ? STATES.length : i;
}

function renderTables(tables) {
  const sorted = [...tables].sort((a, b) =>
    stateRank(a.state) - stateRank(b.state) || String(a.id).localeCompare(String(b.id)));
  const body = $("tables");
  const seen = new Set(sorted.map((t) => t.id));
  for (const [id, row] of rows) {
    if (!seen.has(id)) { row.tr.remove(); rows.delete(id); }
  }
  sorted.forEach((table, i) => {
    const tr = renderRow(table);
    if (body.children[i] !== tr) body.insertBefore(tr, body.children[i] || null);
  });
  $("no-tables").hidden = sorted.length > 0;
  body.closest("table").hidden = sorted.length === 0;
}

function phaseCounts(tables) {
  const counts = new Map();
  for (const t of tables) {
    const key = t.state === "playing" ? (t.phase || "starting") : t.state;
    counts.set(key, (counts.get(key) || 0) + 1);
  }
  const order = ["waiting", "starting", ...PHASES, "finished", "ended"];
  const rank = (k) => (order.includes(k) ? order.indexOf(k) : order.length);
  return [...counts.entries()].sort((a, b) => rank(a[0]) - rank(b[0]) || a[0].localeCompare(b[0]));
}

function renderPhases(tables) {
  const list = $("phases");
  const items = phaseCounts(tables).map(([key, n]) => {
    const li = el("li", `phase ${PHASES.includes(key) ? "in-play" : key}`);
    li.append(el("span", "phase-name", phaseLabel(key)), " ", el("b", "phase-count", String(n)));
    return li;
  });
  const key = JSON.stringify(phaseCounts(tables));
  if (list.dataset.key !== key) {
    list.dataset.key = key;
    list.replaceChildren(...items);
  }
}

function seatTotals(tables) {
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

// ------------------------------------------------------------------ crashes

function renderCrashes(status) {
  const crashes = Array.isArray(status.crashes) ? [...status.crashes] : [];
  crashes.sort((a, b) => (b.at || 0) - (a.at || 0));
  const count = isNum(status.crash_count) ? status.crash_count : crashes.length;
  const list = $("crashes");
  const key = JSON.stringify([count, crashes]);
  if (list.dataset.key === key) return;
  list.dataset.key = key;
  list.replaceChildren(...crashes.map((c) => {
    const li = el("li");
    const head = el("p", "crash-head");
    const when = el("time");
    if (isNum(c.at)) {
      const date = new Date(c.at * 1000);
      when.dateTime = date.toISOString();
      when.textContent = date.toLocaleString("en-GB", { hour12: false });
    } else {
      when.textContent = "at an unknown time";
    }
    head.append(when, " · table ", el("code", "", String(c.table ?? DASH)));
    li.append(head, el("pre", "crash-error", String(c.error ?? "(no message)")));
    return li;
  }));
  let note = "None since the server started.";
  if (count > crashes.length) note = `The last ${crashes.length} of ${count} crashes, newest first.`;
  else if (count) note = `${plural(count, "crash", "crashes")} since the server started, newest first.`;
  setText($("crash-note"), note);
  $("crash-note").classList.toggle("bad", count > 0);
}

// ------------------------------------------------------------------ the whole page

function summaryText(status, tables) {
  const states = [...new Set([...STATES, ...tables.map((t) => t.state)])]
    .map((state) => [state, tables.filter((t) => t.state === state).length])
    .filter(([, n]) => n > 0)
    .map(([state, n]) => `${n} ${state}`);
  const count = isNum(status.table_count) ? status.table_count : tables.length;
  const crashes = isNum(status.crash_count) ? status.crash_count : 0;
  return `${plural(count, "table")}${states.length ? ` (${states.join(", ")})` : ""} · ` +
    `${plural(status.connections ?? 0, "connection")} · ` +
    `${plural(status.games_finished ?? 0, "game")} finished · ` +
    `${crashes ? plural(crashes, "table crash", "table crashes") : "no crashes"}`;
}

function render(status, now) {
  renderProcesses(status);
  const tables = Array.isArray(status.tables) ? status.tables : [];
  const live = status.live && typeof status.live === "object" ? status.live : null;
  setText($("summary"), summaryText(status, tables));

  setText($("v-tables"), fmtCount(isNum(status.table_count) ? status.table_count : tables.length));
  setText($("v-connections"), fmtCount(status.connections));
  setText($("v-finished"), fmtCount(status.games_finished));
  setText($("v-crashes"), fmtCount(status.crash_count));
  $("v-crashes").classList.toggle("bad", (status.crash_count || 0) > 0);
  setText($("v-timeouts"), fmtCount(get(live, "timeouts")));
  const rss = fmtMiB(mib(get(live, "rss_bytes")));
  setText($("v-rss"), rss);
  setText($("v-rss2"), rss);
  setText($("v-uptime"), fmtUptime(status.uptime_seconds));

  const seats = seatTotals(tables);
  setText($("v-humans"), fmtCount(seats.human));
  setText($("v-away"), fmtCount(seats.away));
  setText($("v-botplaying"), fmtCount(seats.botplaying));
  setText($("v-bots"), fmtCount(seats.bot));
  setText($("v-open"), fmtCount(seats.open));

  setText($("v-in"), fmtRate(get(live, "messages_in_per_second")));
  setText($("v-out"), fmtRate(get(live, "messages_out_per_second")));
  setText($("v-lat50"), fmtMs(get(live, "action_latency_ms", "p50")));
  setText($("v-lat99"), fmtMs(get(live, "action_latency_ms", "p99")));
  setText($("v-lag"), fmtMs(get(live, "event_loop_lag_ms", "last")));
  setText($("v-lag99"), fmtMs(get(live, "event_loop_lag_ms", "p99")));
  setText($("v-botrate"), fmtRate(get(live, "bot_decisions_per_second")));
  setText($("v-bot50"), fmtMs(get(live, "bot_decision_ms", "p50")));
  setText($("v-bot99"), fmtMs(get(live, "bot_decision_ms", "p99")));

  renderPhases(tables);
  renderTables(tables);
  renderCrashes(status);
  remember(status, now);
  for (const chart of CHARTS) drawChart(chart, history, now, live !== null);
}

// ------------------------------------------------------------------ polling and the token

let timer = null;
let polls = 0;
let lastOk = null;
let waitingForToken = false;

function schedule(ms = POLL_MS) {
  clearTimeout(timer);
  timer = setTimeout(poll, ms);
}

function showDashboard(show) {
  $("dashboard").hidden = !show;
}

function setFreshness(text, bad = false) {
  setText($("freshness"), text);
  $("freshness").classList.toggle("bad", bad);
}

function askForToken(message) {
  waitingForToken = true;
  clearTimeout(timer);
  showDashboard(false);
  $("forget").hidden = true;
  $("auth").hidden = false;
  $("auth-form").hidden = false;
  setText($("auth-message"), message);
  setText($("summary"), "The operator token is needed to show the status.");
  setFreshness("Paused until the token is entered.");
  const input = $("auth-token");
  input.value = "";
  input.focus();
}

function refused(...parts) {
  showDashboard(false);
  $("auth").hidden = false;
  $("auth-form").hidden = true;
  $("forget").hidden = true;
  const message = $("auth-message");
  // plain strings as text, [text] as code; rebuilt only when it changes (role="alert")
  const text = parts.map((p) => (Array.isArray(p) ? p[0] : p)).join("");
  if (message.textContent !== text || !message.querySelector("code")) {
    message.replaceChildren(...parts.map((p) => (Array.isArray(p) ? el("code", "", p[0]) : p)));
  }
  setText($("summary"), "The status is not available from here.");
}

function tokenHeader() {
  const token = sessionStorage.getItem(TOKEN_KEY);
  return token ? { Authorization: `Bearer ${token}` } : {};
}

async function poll() {
  clearTimeout(timer);
  if (waitingForToken) return;
  const sentToken = Boolean(sessionStorage.getItem(TOKEN_KEY));
  const abort = new AbortController();
  const giveUp = setTimeout(() => abort.abort(), TIMEOUT_MS);
  let response;
  let status;
  try {
    response = await fetch("/status.json", {
      cache: "no-store", credentials: "same-origin", signal: abort.signal,
      headers: { Accept: "application/json", ...tokenHeader() },
    });
    if (response.status === 401) {
      if (sentToken) sessionStorage.removeItem(TOKEN_KEY);
      askForToken(sentToken
        ? "That token was not accepted. Enter the operator token again."
        : "This server has an operator token set. Enter it to see the status.");
      return;
    }
    if (response.status === 403) {
      refused("Refused: this server has no operator token set, so its status is shown only " +
        "on the server's own machine (loopback). Open this page there (for example through " +
        "an SSH tunnel), or start the server with ", ["--operator-token"], " or ",
        ["QUAYMOOR_OPERATOR_TOKEN"], " and enter that token here.");
      setFreshness(`Last asked ${clock(Date.now())}; asking again every ${(5 * POLL_MS) / 1000} s.`);
      schedule(5 * POLL_MS);
      return;
    }
    if (!response.ok) throw new Error(`the server answered HTTP ${response.status}`);
    status = await response.json();
    if (!status || typeof status !== "object") throw new Error("the answer was not a status");
  } catch (err) {
    const why = err && err.name === "AbortError" ? "no answer in time" : String(err.message || err);
    const since = lastOk ? ` Figures below are from ${clock(lastOk)}.` : "";
    setFreshness(`Status unavailable (${why}); retrying every ${POLL_MS / 1000} s.${since}`, true);
    document.body.classList.toggle("stale", lastOk !== null);
    if (lastOk === null) setText($("summary"), "Status unavailable.");
    schedule();
    return;
  } finally {
    clearTimeout(giveUp);
  }
  const now = Date.now();
  $("auth").hidden = true;
  showDashboard(true);
  document.body.classList.remove("stale");
  render(status, now);
  lastOk = now;
  polls += 1;
  document.body.dataset.polls = String(polls);
  const who = sentToken ? " · with the operator token" : "";
  setFreshness(`Updated ${clock(now)} · every ${POLL_MS / 1000} s${who}`);
  $("forget").hidden = !sentToken;
  schedule();
}

function start() {
  CHARTS.forEach(buildChart);
  $("forget").addEventListener("click", () => {
    sessionStorage.removeItem(TOKEN_KEY);
    $("forget").hidden = true;
    poll();
  });

  $("auth-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const token = $("auth-token").value.trim();
    if (!token) return;
    if (!/^[\x21-\x7e]+$/.test(token)) {
      setText($("auth-message"),
        "An operator token is plain printable characters (letters, digits, punctuation, no spaces).");
      return;
    }
    sessionStorage.setItem(TOKEN_KEY, token);
    waitingForToken = false;
    setText($("auth-message"), "Checking the token…");
    poll();
  });
  document.addEventListener("visibilitychange", () => {
    if (!document.hidden && !waitingForToken) poll(); // catch up at once when shown again
  });
  poll();
}

start();

// @ts-check
// The operators' status page: polls /status.json every 2 seconds and updates in place.
// /status.json carries public facts only (seats, rounds, phases, timers, counters): no
// hidden information is served there and none is shown here. This module draws the
// figures and the crashes, keeps the charts' history and does the polling; the other
// parts are status_data.js (the pure part: /status.json into what is shown),
// status_charts.js, status_tables.js and status_processes.js.
//
// With an operator token set on the server, /status.json answers 401 until the page sends
// "Authorization: Bearer <token>": the page asks once and keeps the token in sessionStorage
// (this tab only). Without a token set it answers only on loopback (403 from elsewhere).
//
// The Content-Security-Policy allows only files: no inline scripts or styles (every
// colour is in status.css).

import { renderProcesses } from "./status_processes.js";
import { CHARTS, buildChart, drawChart } from "./status_charts.js";
import { renderPhases, renderTables } from "./status_tables.js";
import { $, el, setText } from "./status_dom.js";
import {
  DASH, HISTORY_MS, POLL_MS, TIMEOUT_MS, clock, crashNote, fmtCount, fmtMiB, fmtMs, fmtRate,
  fmtUptime, get, historyPoint, isNum, mib, scopeText, seatTotals, summaryText,
} from "./status_data.js";

/** @typedef {import("./status_data.js").Status} Status */
/** @typedef {import("./status_data.js").Point} Point */

const TOKEN_KEY = "quaymoor.operatorToken";
const HISTORY_KEY = "quaymoor.statusHistory";

// ------------------------------------------------------------------ history

let history = loadHistory();

/** The history kept in this tab across reloads, the last five minutes of it. @returns {Point[]} */
function loadHistory() {
  try {
    const saved = JSON.parse(sessionStorage.getItem(HISTORY_KEY) || "[]");
    const now = Date.now();
    return Array.isArray(saved) ? saved.filter((p) => isNum(p.t) && now - p.t < HISTORY_MS) : [];
  } catch {
    return [];
  }
}

/** @param {Status} status @param {number} now */
function remember(status, now) {
  history.push(historyPoint(status, now));
  history = history.filter((p) => now - p.t < HISTORY_MS);
  try {
    sessionStorage.setItem(HISTORY_KEY, JSON.stringify(history));
  } catch {
    // storage full or off: the charts still work for this page's life
  }
}

// ------------------------------------------------------------------ crashes

/** @param {Status} status */
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
  setText($("crash-note"), crashNote(count, crashes.length));
  $("crash-note").classList.toggle("bad", count > 0);
}

// ------------------------------------------------------------------ the whole page

/** @param {Status} status @param {number} now */
function render(status, now) {
  renderProcesses(status);
  const tables = Array.isArray(status.tables) ? status.tables : [];
  const live = status.live && typeof status.live === "object" ? status.live : null;
  setText($("summary"), summaryText(status, tables));

  // The headline: this process's figures, or a cluster's sums over its live processes.
  const totals = status.totals;
  setText($("now-scope"), scopeText(status));
  setText($("v-tables"), fmtCount(totals ? totals.tables
    : isNum(status.table_count) ? status.table_count : tables.length));
  setText($("v-playing"), fmtCount(totals?.playing));
  setText($("v-waiting"), fmtCount(totals?.waiting));
  setText($("v-connections"), fmtCount(totals ? totals.connections : status.connections));
  setText($("v-finished"), fmtCount(totals ? totals.games_finished : status.games_finished));
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

/** @type {number | undefined} */
let timer;
let polls = 0;
/** @type {number | null} when the last poll answered, ms since the epoch */
let lastOk = null;
let waitingForToken = false;

function schedule(ms = POLL_MS) {
  clearTimeout(timer);
  timer = setTimeout(poll, ms);
}

/** @param {boolean} show */
function showDashboard(show) {
  $("dashboard").hidden = !show;
}

/** @param {string} text */
function setFreshness(text, bad = false) {
  setText($("freshness"), text);
  $("freshness").classList.toggle("bad", bad);
}

/** @param {string} message */
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
  const input = /** @type {HTMLInputElement} */ ($("auth-token"));
  input.value = "";
  input.focus();
}

/** @param {...(string | [string])} parts plain strings as text, [text] as code */
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

/** @returns {Record<string, string>} */
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
  /** @type {Status} */
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
    const why = err instanceof Error && err.name === "AbortError" ? "no answer in time"
      : String((err instanceof Error && err.message) || err);
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
    const token = /** @type {HTMLInputElement} */ ($("auth-token")).value.trim();
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

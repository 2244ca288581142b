// @ts-check
// The status page's charts: messages per second, action-to-broadcast latency, event-loop
// lag and memory over the last five minutes, drawn from the page's history of polls. Each
// chart: a caption (in the HTML), a top and bottom value label, the SVG, and the time axis.
//
// The Content-Security-Policy allows only files: no inline styles, so every attribute of
// the SVG is set here with setAttribute and every colour is in status.css.

import { $, el, setText } from "./status_dom.js";
import { HISTORY_MS, POLL_MS, TIMEOUT_MS, fmtMiB, fmtMs, fmtRate, isNum, plural } from "./status_data.js";

/** @typedef {import("./status_data.js").Point} Point */
/** @typedef {import("./status_data.js").PointKey} PointKey */
/**
 * A chart: what it shows (`series` of the history points' `key`), and once built, its
 * elements.
 * @typedef {object} Chart
 * @property {string} id the figure's id in status.html
 * @property {string} title
 * @property {(x: unknown) => string} fmt
 * @property {number} floor the top of the scale is at least this
 * @property {boolean} [fromZero] false: the scale is the window's own range
 * @property {string} [idle] why there is no line once polls have come
 * @property {{key: PointKey, cls: string, label: string}[]} series
 * @property {Built} [built]
 */
/**
 * @typedef {object} Built
 * @property {{path: SVGElement, dot: SVGElement}[]} paths by series
 * @property {SVGElement} svg
 * @property {HTMLElement} top
 * @property {HTMLElement} bottom
 * @property {HTMLElement} empty
 * @property {HTMLElement} since
 */

const SVG = "http://www.w3.org/2000/svg";
const W = 300;
const H = 80;

/** @param {string} tag @param {Record<string, string | number>} attrs */
function svg(tag, attrs = {}) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  return node;
}

/** @type {Chart[]} */
export const CHARTS = [
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

/** Make `chart`'s elements in its figure. @param {Chart} chart */
export function buildChart(chart) {
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
  const paths = chart.series.map((s) => {
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
  chart.built = { paths, svg: box, top, bottom, empty, since };
}

/** @param {number} x */
function niceCeil(x) {
  if (!(x > 0)) return 1;
  const p = 10 ** Math.floor(Math.log10(x));
  for (const m of [1, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10]) if (m * p >= x) return m * p;
  return 10 * p;
}

/**
 * Draw `chart` (built) from `history`.
 * @param {Chart} chart @param {readonly Point[]} history oldest first
 * @param {number} now @param {boolean} hasLive the server reports `live` at all
 */
export function drawChart(chart, history, now, hasLive) {
  const built = chart.built;
  if (!built) return;
  /** @type {number[]} */
  const values = [];
  for (const point of history) {
    for (const s of chart.series) {
      const v = point[s.key];
      if (isNum(v)) values.push(v);
    }
  }
  const drawable = values.length > 0;
  built.empty.hidden = drawable;
  built.svg.classList.toggle("empty", !drawable);
  if (!drawable) {
    let why = "Collecting…";
    if (!hasLive) why = "Not reported by this server";
    else if (history.length && chart.idle) why = chart.idle;
    setText(built.empty, why);
    built.paths.forEach(({ path, dot }) => { path.setAttribute("d", ""); dot.setAttribute("d", ""); });
    setText(built.top, "");
    setText(built.bottom, "");
    built.svg.setAttribute("aria-label", `${chart.title}: ${why}`);
    setText(built.since, "");
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
  setText(built.since, `${minutes} min ago`);
  /** @param {number} t */
  const x = (t) => (W * (1 - (now - t) / span)).toFixed(1);
  /** @param {number} v */
  const y = (v) => (H - ((v - lo) / (hi - lo)) * H).toFixed(1);
  chart.series.forEach((s, i) => {
    let d = "";
    /** @type {number | null} */
    let prev = null;
    /** @type {{t: number, v: number} | null} */
    let last = null;
    for (const point of history) {
      const v = point[s.key];
      if (!isNum(v)) { prev = null; continue; }
      // a gap of missed polls breaks the line rather than drawing across it
      const joined = prev !== null && point.t - prev <= 3 * POLL_MS + TIMEOUT_MS;
      d += `${joined ? "L" : "M"}${x(point.t)} ${y(v)} `;
      prev = point.t;
      last = { t: point.t, v };
    }
    const { path, dot } = built.paths[i];
    path.setAttribute("d", d.trim());
    dot.setAttribute("d", last === null ? "" : `M${x(last.t)} ${y(last.v)} h0`);
  });
  setText(built.top, chart.fmt(hi));
  setText(built.bottom, chart.fmt(lo));
  const described = chart.series.map((s) => {
    const vs = history.map((p) => p[s.key]).filter(isNum);
    if (!vs.length) return `${s.label} no data`;
    return `${s.label} now ${chart.fmt(vs[vs.length - 1])}, highest ${chart.fmt(Math.max(...vs))}`;
  });
  built.svg.setAttribute("aria-label",
    `${chart.title}, last ${plural(minutes, "minute")}: ${described.join("; ")}`);
}

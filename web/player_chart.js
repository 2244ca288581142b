// @ts-check
// A player's rating over their rated games, drawn as SVG from player_model.js's geometry:
// the 95% interval as a band, the rating as a line with a dot per game (each with its
// numbers as a tooltip), a dashed line at 1500 (where everyone starts) and the last
// rating written at the line's end. The image is named by the chart in words; the page
// adds the numbers as a table for screen readers (player.js). No chart library: as
// charts.js, a few shapes are less code than wiring one in.

import { changeText } from "./players_model.js";

/** @typedef {import("./player_model.js").ChartGeometry} ChartGeometry */
/** @typedef {Record<string, string | number | null | undefined>} SvgAttrs null, undefined: left out */

const NS = "http://www.w3.org/2000/svg";
const LINE = "#8fe0c0"; // --lit
const BAND = "#b49ab9"; // --heather-2, translucent
const MUTED = "#cfc7bb";
const INK = "#f4efe6";
/** Dots on the line up to this many games (past it the line alone reads better). */
const MAX_DOTS = 80;

/** An SVG element. @param {string} tag @param {SvgAttrs} attrs @param {...(Node | string | null)} children */
function s(tag, attrs, ...children) {
  const el = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== null && v !== undefined) el.setAttribute(k, String(v));
  for (const c of children) if (c !== null) el.append(c);
  return el;
}

/**
 * The chart as an SVG image.
 * @param {ChartGeometry} g
 * @param {(at: number) => string} date a game's time as text, for its dot's tooltip
 * @returns {SVGSVGElement}
 */
export function ratingChartSvg(g, date) {
  const { plot } = g;
  const fs = g.width <= 400 ? 13 : 11; // a phone's chart is drawn narrower and shown nearly as large
  const grid = g.yTicks.flatMap((t) => [
    s("line", { x1: plot.left, x2: plot.right, y1: t.y, y2: t.y, stroke: "#ffffff22" }),
    s("text", { x: plot.left - 6, y: t.y + 4, "text-anchor": "end", fill: MUTED, "font-size": fs }, String(t.value)),
  ]);
  const xs = g.xTicks.map((t) => s("text", { x: t.x, y: plot.bottom + 16, "text-anchor": "middle", fill: MUTED, "font-size": fs }, t.label));
  const baseline = g.baseline === null ? null : s("line", { x1: plot.left, x2: plot.right, y1: g.baseline, y2: g.baseline,
    stroke: MUTED, "stroke-width": 1, "stroke-dasharray": "4 4", class: "chart-baseline" });
  const band = g.band ? s("path", { d: g.band, fill: BAND, "fill-opacity": 0.22, stroke: "none", class: "chart-band" }) : null;
  const line = s("polyline", { points: g.line, fill: "none", stroke: LINE, "stroke-width": 2.5, "stroke-linejoin": "round", class: "chart-line" });
  const dots = g.points.length > MAX_DOTS ? [] : g.points.map((p, i) => {
    const before = i > 0 ? g.points[i - 1].rating : null;
    const change = before === null ? null : changeText(p.rating - before);
    const tip = p.index < 1 ? `Before the first rated game: ${p.rating}`
      : `Game ${p.index}${p.at ? `, ${date(p.at)}` : ""}: ${p.rating}${change ? ` (${change.text})` : ""}`;
    return s("circle", { cx: p.x, cy: p.y, r: 3.2, fill: LINE, "data-rating": p.rating }, s("title", {}, tip));
  });
  const last = g.points[g.points.length - 1];
  const end = s("text", { x: last.x + 7, y: last.y + 4, fill: INK, "font-size": fs + 1, "font-weight": 700, class: "chart-last" }, String(last.rating));
  const caption = s("text", { x: (plot.left + plot.right) / 2, y: g.height - 2, "text-anchor": "middle", fill: MUTED, "font-size": fs }, "rated games");
  const svg = /** @type {SVGSVGElement} */ (s("svg", { viewBox: `0 0 ${g.width} ${g.height}`, role: "img", "aria-label": g.summary,
    class: "chart-svg", width: "100%", preserveAspectRatio: "xMinYMin meet", "data-points": g.points.length },
  s("title", {}, g.summary), ...grid, baseline, band, line, ...dots, end, ...xs, caption));
  return svg;
}

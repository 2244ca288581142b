// @ts-check
// The end-of-game pictures: score after each round per player, points by source (seals,
// buildings, bonuses), goods shipped and sold. Hand-written SVG from the numbers of
// /api/games/<id>/charts (the server replays the record through the rules; nothing is
// worked out here). No chart library: three small charts are less code than wiring one
// in, and they take the page's own colours and words.
//
// Names are the players' own: always set as text, never as markup. Every chart is an
// image with its numbers in its name, and the numbers are drawn on it too (a colour is
// never the only key: lines carry their player's name at the end, bars their values).

import { h, clear } from "./dom.js";
import { errorText } from "./net.js";
import { GOODS, LETTER, seatName } from "./text.js";

/**
 * GET /api/games/<id>/charts (quaymoor/http/game_charts.py): the game replayed by the
 * server, as numbers.
 * @typedef {object} ChartsData
 * @property {number} players
 * @property {boolean} over
 * @property {{label: string, round: number, scores: number[]}[]} points the start, then
 *   each round's end: every seat's score
 * @property {SourceRow[]} sources by seat
 * @property {Record<string, number>[]} shipped by seat, goods loaded by good
 * @property {Record<string, number>[]} sold by seat, goods sold by good
 * @property {number[]} coins_from_sales by seat
 */
/**
 * @typedef {object} SourceRow
 * @property {number} seat
 * @property {number} seals
 * @property {number} building_points
 * @property {number} bonuses all bonuses added up
 * @property {number} total
 */
/**
 * A seat as text.js's seatName reads it: a game's summary's seats, or a view's.
 * @typedef {{seat: number, name: string | null, bot?: boolean, bot_playing?: boolean}} ChartSeat
 */
/** @typedef {Node | string | number | null | undefined} SvgChild */
/** @typedef {Record<string, string | number | null | undefined>} SvgAttrs null and undefined: left out */

const NS = "http://www.w3.org/2000/svg";
const WIDE = 520; // the charts' width in SVG units; a phone's are narrower, so their text stays legible
const NARROW = 360;
const LINE = ["#6aa7cc", "#ffd35a", "#d39be0", "#9fd48a", "#ff8d80"]; // by seat
const DASH = ["", "7 4", "2 3", "10 3 2 3", "4 4"];
/** @type {["seals" | "building_points" | "bonuses", string, string][]} */
const SOURCES = [["seals", "Seals", "#b49ab9"], ["building_points", "Buildings", "#8fae6a"], ["bonuses", "Bonuses", "#ffd35a"]];
const INK = "#f4efe6";
const MUTED = "#cfc7bb";
/** A good's letter, as on the board. @type {Record<string, string>} */
const LETTERS = LETTER;

/** An SVG element. @param {string} tag @param {SvgAttrs | null} attrs @param {...(SvgChild | SvgChild[])} children */
function s(tag, attrs, ...children) {
  const el = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs || {})) if (v !== null && v !== undefined) el.setAttribute(k, String(v));
  for (const c of children.flat()) {
    if (c === null || c === undefined) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

/** @param {string} name */
const short = (name, n = 14) => (name.length > n ? `${name.slice(0, n - 1)}…` : name);
/** @param {number} n @param {string} w */
const plural = (n, w) => `${n} ${w}${n === 1 ? "" : "s"}`;

/** A round-number step for an axis up to `max` with about 4 ticks. @param {number} max */
function tickStep(max) {
  for (const step of [1, 2, 5, 10, 20, 25, 50, 100]) if (max / step <= 5) return step;
  return Math.ceil(max / 500) * 100;
}

/**
 * A chart's image, named by `label`.
 * @param {number} W @param {string} label @param {number} height
 * @param {...(SvgChild | SvgChild[])} children
 */
function svg(W, label, height, ...children) {
  return s("svg", { viewBox: `0 0 ${W} ${height}`, role: "img", "aria-label": label, class: "chart-svg",
    width: "100%", preserveAspectRatio: "xMinYMin meet" }, s("title", {}, label), ...children);
}

/**
 * Score after each round: one line per player, named at its end.
 * @param {ChartsData} data @param {ChartSeat[]} seats @param {number | null} mySeat "You"
 */
export function scoreChart(data, seats, mySeat, W = WIDE) {
  const pts = data.points;
  /** @type {string[]} */
  const names = data.sources.map((x) => seatName(seats, x.seat, mySeat));
  const max = Math.max(1, ...pts.flatMap((p) => p.scores));
  const step = tickStep(max);
  const top = Math.ceil(max / step) * step;
  const left = 34;
  const right = W - 120;
  const y0 = 190;
  const y1 = 14;
  /** @param {number} i */
  const x = (i) => left + (pts.length > 1 ? (i * (right - left)) / (pts.length - 1) : 0);
  /** @param {number} v */
  const y = (v) => y0 - ((y0 - y1) * v) / top;
  const grid = [];
  for (let v = 0; v <= top; v += step) {
    grid.push(s("line", { x1: left, x2: right, y1: y(v), y2: y(v), stroke: "#ffffff22" }),
      s("text", { x: left - 6, y: y(v) + 4, "text-anchor": "end", fill: MUTED, "font-size": 11 }, v));
  }
  const every = Math.ceil(pts.length / 14);
  const lastI = pts.length - 1;
  const xs = pts.map((p, i) => ((i % every || lastI - i < every) && i !== lastI ? null
    : s("text", { x: x(i), y: y0 + 16, "text-anchor": "middle", fill: MUTED, "font-size": 11 }, i === 0 ? "start" : p.round)));
  // end labels, nudged apart so that equal scores stay readable
  /** @type {{seat: number, v: number, y: number}[]} */
  const ends = names.map((n, seat) => ({ seat, v: pts[pts.length - 1].scores[seat], y: 0 })).sort((a, b) => b.v - a.v);
  let lastY = -Infinity;
  for (const e of ends) { e.y = Math.max(y(e.v) + 4, lastY + 13); lastY = e.y; }
  const lines = names.map((n, seat) => s("g", { "data-seat": seat, "data-final": pts[pts.length - 1].scores[seat] },
    s("title", {}, `${n}: ${pts.map((p) => p.scores[seat]).join(", ")}`),
    s("polyline", { points: pts.map((p, i) => `${x(i)},${y(p.scores[seat])}`).join(" "), fill: "none",
      stroke: LINE[seat % LINE.length], "stroke-width": 2.5, "stroke-dasharray": DASH[seat % DASH.length] || null,
      "stroke-linejoin": "round" }),
    pts.map((p, i) => s("circle", { cx: x(i), cy: y(p.scores[seat]), r: 2.6, fill: LINE[seat % LINE.length] }))));
  const labels = ends.map((e) => s("text", { x: right + 8, y: e.y, fill: LINE[e.seat % LINE.length], "font-size": 12 },
    `${short(names[e.seat], 14)} ${e.v}`));
  const said = names.map((n, seat) => `${n} ${pts.map((p) => p.scores[seat]).join(", ")}`).join("; ");
  return svg(W, `Score at the start and after each round: ${said}.`, 224,
    grid, s("text", { x: (left + right) / 2, y: 222, "text-anchor": "middle", fill: MUTED, "font-size": 11 }, "round"),
    xs, lines, labels);
}

/**
 * Points by source: a bar per player, seals then buildings then bonuses, the total at its end.
 * @param {ChartsData} data @param {ChartSeat[]} seats @param {number | null} mySeat
 */
export function sourcesChart(data, seats, mySeat, W = WIDE) {
  const rows = data.sources;
  const max = Math.max(1, ...rows.map((r) => r.total));
  const left = 110;
  const right = W - 44;
  const bar = 22;
  const gap = 10;
  const top = 26;
  const each = (W - 8) / SOURCES.length;
  const legend = SOURCES.map(([, label, colour], i) => s("g", {},
    s("rect", { x: 4 + i * each, y: 4, width: 12, height: 12, fill: colour }),
    s("text", { x: 4 + i * each + 17, y: 14, fill: INK, "font-size": 12 }, label)));
  const bars = rows.map((r, i) => {
    /** @type {string} */
    const name = seatName(seats, r.seat, mySeat);
    const y = top + i * (bar + gap);
    let at = left;
    const parts = SOURCES.map(([key, label, colour]) => {
      const w = ((right - left) * r[key]) / max;
      const out = s("g", { "data-part": key, "data-value": r[key] },
        s("title", {}, `${name}: ${label.toLowerCase()} ${r[key]}`),
        s("rect", { x: at, y, width: Math.max(0, w), height: bar, fill: colour }),
        w >= 20 ? s("text", { x: at + w / 2, y: y + 15, "text-anchor": "middle", fill: "#1b1410", "font-size": 12, "font-weight": 700 }, r[key]) : null);
      at += w;
      return out;
    });
    return s("g", { "data-seat": r.seat, "data-total": r.total },
      s("text", { x: left - 8, y: y + 15, "text-anchor": "end", fill: INK, "font-size": 12 }, short(name)),
      parts,
      s("text", { x: at + 6, y: y + 15, fill: INK, "font-size": 13, "font-weight": 700, class: "chart-total" }, r.total));
  });
  const said = rows.map((r) => `${seatName(seats, r.seat, mySeat)} ${r.total} (${r.seals} seals, ${r.building_points} from buildings, ${r.bonuses} bonuses)`).join("; ");
  return svg(W, `Points by source: ${said}.`, top + rows.length * (bar + gap) + 4, legend, bars);
}

/**
 * Goods shipped and sold: two bars per player, each split by good, the count at its end.
 * @param {ChartsData} data @param {ChartSeat[]} seats @param {number | null} mySeat
 */
export function goodsChart(data, seats, mySeat, W = WIDE) {
  const n = data.sources.length;
  /** @param {Record<string, number>} byGood */
  const sum = (byGood) => GOODS.reduce((t, g) => t + (byGood[g] || 0), 0);
  const max = Math.max(1, ...data.shipped.map(sum), ...data.sold.map(sum));
  const left = 110;
  const right = W - 90;
  const bar = 13;
  const top = 24;
  const rowH = 2 * bar + 14;
  const each = (W - 8) / GOODS.length;
  const legend = GOODS.map((g, i) => s("g", {},
    s("rect", { x: 4 + i * each, y: 4, width: 12, height: 12, class: `fill-${g}`, stroke: "#0006" }),
    s("text", { x: 4 + i * each + 17, y: 14, fill: INK, "font-size": 12 }, g)));
  /** @type {SVGElement[]} */
  const rows = [];
  for (let seat = 0; seat < n; seat++) {
    /** @type {string} */
    const name = seatName(seats, seat, mySeat);
    const y = top + seat * rowH;
    /** @param {Record<string, number>} byGood @param {number} k the bar (0, 1) @param {string} word */
    const one = (byGood, k, word) => {
      let at = left;
      const yy = y + k * (bar + 2);
      const segs = GOODS.filter((g) => byGood[g]).map((g) => {
        const w = ((right - left) * byGood[g]) / max;
        // colour and letter, as on the board (clay and amber are near in colour)
        const r = s("g", {}, s("title", {}, `${name}: ${byGood[g]} ${g} ${word}`),
          s("rect", { x: at, y: yy, width: w, height: bar, class: `fill-${g}`, stroke: "#0006" }),
          w >= 12 ? s("text", { x: at + w / 2, y: yy + 10, "text-anchor": "middle", "font-size": 10, "font-weight": 800,
            fill: g === "clay" || g === "amber" ? "#fff" : "#1b1410" }, LETTERS[g]) : null);
        at += w;
        return r;
      });
      const total = sum(byGood);
      return s("g", { "data-kind": word, "data-count": total }, segs,
        s("text", { x: at + 5, y: yy + 11, fill: INK, "font-size": 11 }, `${total} ${word}`));
    };
    rows.push(s("g", { "data-seat": seat },
      s("text", { x: left - 8, y: y + bar + 5, "text-anchor": "end", fill: INK, "font-size": 12 }, short(name)),
      one(data.shipped[seat], 0, "shipped"),
      one(data.sold[seat], 1, "sold")));
  }
  const said = Array.from({ length: n }, (_, seat) => `${seatName(seats, seat, mySeat)} shipped ${sum(data.shipped[seat])}, sold ${sum(data.sold[seat])} for ${plural(data.coins_from_sales[seat], "coin")}`).join("; ");
  return svg(W, `Goods shipped and sold: ${said}.`, top + n * rowH, legend, rows);
}

/**
 * The three charts as figures, into `container`.
 * @param {HTMLElement} container @param {ChartsData} data @param {ChartSeat[]} seats
 * @param {number | null} mySeat
 */
export function drawCharts(container, data, seats, mySeat) {
  const W = window.matchMedia("(max-width: 599px)").matches ? NARROW : WIDE;
  /** @param {string} id @param {string} caption @param {SVGElement} chart */
  const fig = (id, caption, chart) => h("figure", { class: "chart", id }, h("figcaption", {}, caption), chart);
  clear(container).append(
    fig("chart-scores", "Score after each round", scoreChart(data, seats, mySeat, W)),
    fig("chart-sources", "Points by source", sourcesChart(data, seats, mySeat, W)),
    fig("chart-goods", "Goods shipped and sold", goodsChart(data, seats, mySeat, W)));
  container.dataset.ready = "1";
  return container;
}

/** @type {Map<string, HTMLElement>} */
const kept = new Map(); // game id -> its charts' element (the end screen is drawn again and again)

/**
 * The end screen's charts for the game at table `gameId`: one element, drawn when
 * /api/games/<id>/charts answers (the record is published as the game ends; a first 404
 * is tried again a few times).
 * @param {string} gameId @param {ChartSeat[]} seats @param {number | null} mySeat
 * @returns {HTMLElement}
 */
export function endCharts(gameId, seats, mySeat) {
  const drawn = kept.get(gameId);
  if (drawn) return drawn;
  /** @type {HTMLElement} */
  const el = h("div", { class: "charts", id: "end-charts" }, h("p", { class: "small" }, "Drawing the charts…"));
  kept.set(gameId, el);
  (async () => {
    for (let attempt = 0; attempt < 4; attempt++) {
      try {
        const res = await fetch(`/api/games/${gameId}/charts`, { headers: { Accept: "application/json" } });
        if (res.ok) {
          drawCharts(el, /** @type {ChartsData} */ (await res.json()), seats, mySeat);
          el.append(h("p", { class: "chart-more" }, h("a", { class: "button", href: `/games/${gameId}`, id: "end-replay" },
            "Replay the game on the board")));
          return;
        }
        if (res.status !== 404) throw new Error(`HTTP ${res.status}`);
      } catch (err) {
        clear(el).append(h("p", { class: "small" }, `The charts could not be drawn: ${errorText(err)}`));
        return;
      }
      await new Promise((r) => { setTimeout(r, 1000); });
    }
    clear(el).append(h("p", { class: "small" }, "The charts could not be drawn: the game's record is not published."));
  })();
  return el;
}

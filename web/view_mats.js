// @ts-check
// Your own mat (coins, seals, score, goods; the holding and the high street with their
// apprentices) and the other players' panels. Drawn in place (vdom.js).

import { v, patch } from "./vdom.js";
import { target, goodChip, letter, pips, plural, cap } from "./widgets.js";
import { GOODS, PLOT_KINDS, seatName, building, buildingFacts, kindName, plotText, limit } from "./text.js";
import { voteCount } from "./botvote.js";
import { ACTIONS } from "./wire.js";

/** @typedef {import("./widgets.js").Draw} Draw */
/** @typedef {import("./table_model.js").Mat} Mat */

/**
 * "3 of 12 spaces used, 9 free" ("3 spaces used" before the rules catalogue has loaded).
 * @param {number} used
 * @param {number | undefined} total
 * @param {string} word
 */
function spacesUsed(used, total, word) {
  return total === undefined ? `${used}${word || " spaces"} used` : `${used} of ${total}${word} used, ${total - used} free`;
}

/** @param {number} n @param {string} one @param {string} many */
const unit = (n, one, many) => (n === 1 ? one : many);

/**
 * Your mat; `extra` goes under its head (the keep-goods choice while it is yours).
 * @param {Draw} d
 * @param {HTMLElement} el
 * @param {import("./vdom.js").VKid} [extra]
 */
export function drawMat(d, el, extra) {
  const m = d.model;
  const view = m.view;
  if (!view) return;
  if (m.seat === null) {
    patch(el, [v("h2", {}, "Watching"), v("p", {}, d.readOnly
      ? "The spectator's view: every player's mat is under Players; seals show from the end."
      : "You are watching; scores are revealed at the end.")]);
    return;
  }
  const me = view.mats[m.seat];
  const stats = m.changed.has("my-stats") ? "stats changed" : "stats";
  const head = v("div", { class: "mat-head" }, v("h2", {}, `Your mat — ${seatName(m.seats, m.seat, null)}`),
    v("div", { class: stats, "data-key": "my-stats" },
      v("span", { class: "stat" }, v("b", {}, me.coins), unit(me.coins, " coin", " coins")),
      v("span", { class: "stat" }, v("b", { id: "my-seals" }, me.seals ?? "?"), unit(me.seals ?? 0, " seal", " seals")),
      v("span", { class: "stat" }, v("b", {}, me.building_points), unit(me.building_points, " building point", " building points")),
      v("span", { class: "stat score" }, v("b", {}, me.score ?? "?"), " score"),
      v("span", { class: "stat" }, v("b", {}, me.lodge), " in lodge"),
      v("span", { class: "stat goods" }, "Goods: ", GOODS.map((g) => goodChip(g, me.goods[g])))));

  let used = 0;
  const holding = [];
  for (const k of PLOT_KINDS) {
    const n = me.plots[k];
    if (!n) continue;
    used += n;
    const place = m.legalWhere((a) => a.type === ACTIONS.PLACE_ON_PLOT && a.kind === k)[0];
    holding.push(target(d, place, `tile good-${k}`, { "data-key": `holding:${k}` },
      [v("span", { class: "tile-top" }, letter(k), v("span", { class: "kind-word" }, kindName(k)), `×${n}`),
        v("span", { class: "worked" }, pips(me.worked[k], n), v("span", { class: "sr-only" }, `, ${me.worked[k]} worked`))],
      { tip: plotText(k), tipTitle: `${k === "stone_pit" ? "Stone pits" : `${cap(k)} plots`}: ${n}, ${me.worked[k]} with an apprentice` }));
  }
  let spaces = 0;
  const street = me.buildings.map((bv) => {
    const info = building(bv.building);
    spaces += info.spaces || 1;
    const place = m.legalWhere((a) => a.type === ACTIONS.PLACE_ON_BUILDING && a.building === bv.building)[0];
    const slots = info.slots || 1;
    return target(d, place, `tile bld-tile cat-${info.category || "x"}${info.spaces === 2 ? " large" : ""}`,
      { "data-key": `street:${bv.building}` },
      [v("span", { class: "tile-top" }, info.name),
        v("span", { class: "worked" }, `${bv.apprentices}/${slots}`,
          v("span", { class: "sr-only" }, ` apprentice${slots === 1 ? "" : "s"}`), pips(bv.apprentices, slots))],
      { tip: info.text || "", tipTitle: buildingFacts(bv.building) });
  });
  patch(el, [head, extra || null, v("div", { class: "mat-rows" },
    v("div", { class: "mat-row" }, v("h3", {}, `Holding: ${spacesUsed(used, limit("holding_spaces"), " spaces")}`),
      v("div", { class: "holding" }, holding)),
    v("div", { class: "mat-row" }, v("h3", {}, `High street: ${spacesUsed(spaces, limit("high_street_spaces"), "")}`),
      v("div", { class: "street" }, street)))]);
}

/**
 * The other players, one panel each: a bot marked as a bot, who is away, who decides.
 * @param {Draw} d
 * @param {HTMLElement} el
 */
export function drawOthers(d, el) {
  const m = d.model;
  const view = m.view;
  if (!view) return;
  const panels = view.mats.filter((x) => x.seat !== m.seat).map((x) => other(d, x));
  const me = m.seat !== null ? view.mats[m.seat] : null;
  patch(el, [v("h2", {}, "Players"), panels,
    me && me.seat === view.board.warden ? v("p", { class: "small" }, "You are the Warden.") : null]);
}

/**
 * @param {Draw} d
 * @param {Mat} x
 */
function other(d, x) {
  const m = d.model;
  const view = /** @type {NonNullable<typeof m.view>} */ (m.view);
  const s = m.seats.find((y) => y.seat === x.seat);
  const deciding = view.deciding.includes(x.seat);
  const staffed = x.buildings.reduce((n, bv) => n + bv.apprentices, 0);
  const onPlots = PLOT_KINDS.reduce((n, k) => n + x.worked[k], 0);
  const plots = PLOT_KINDS.filter((k) => x.plots[k]).map((k) => {
    const label = `${plural(x.plots[k], k === "stone_pit" ? "stone pit" : `${k} plot`)}, ${x.worked[k]} worked`;
    return v("span", { class: `plot-chip good-${k}`, role: "img", "aria-label": label, title: label },
      letter(k), pips(x.worked[k], x.plots[k]));
  });
  const blds = x.buildings.map((bv) => {
    const info = building(bv.building);
    const slots = info.slots || 1;
    return v("span", { class: `o-bld${bv.apprentices ? "" : " empty"}` },
      info.name, pips(bv.apprentices, slots),
      v("span", { class: "sr-only" }, ` (${bv.apprentices} of ${slots} staffed)`));
  });
  const away = s && !s.bot && !s.connected;
  const changed = m.changed.has(`seat:${x.seat}`) ? " changed" : "";
  return v("div", { class: `other${deciding ? " deciding" : ""}${changed}`, "data-seat": x.seat, "data-key": `seat:${x.seat}` },
    v("h3", {}, seatName(m.seats, x.seat, m.seat),
      s && (s.bot || s.bot_playing) ? v("span", { class: "tag bot", title: `This seat is played by a bot at level ${m.bots}` }, `bot · ${m.bots}`) : null,
      x.seat === view.board.warden ? v("span", { class: "tag" }, "Warden") : null,
      m.withheld.includes(x.seat) ? v("span", { class: "tag warn withheld", title: "This seat committed to a client seed and did not reveal it: the game was dealt without it" }, "did not reveal its seed") : null,
      away ? v("span", { class: "tag warn" }, s.bot_vote ? `disconnected · vote ${voteCount(s.bot_vote)}` : "disconnected") : null,
      deciding && !m.ended ? v("span", { class: "tag now" }, "deciding") : null),
    v("p", { class: "o-stats" }, `${plural(x.coins, "coin")} · ${plural(x.building_points, "building point")} · ${plural(x.lodge + staffed + onPlots, "apprentice")}`),
    v("p", { class: "goods" }, GOODS.map((g) => goodChip(g, x.goods[g]))),
    v("p", { class: "o-plots" }, v("span", { class: "label" }, "Plots:"), plots.length ? plots : " none"),
    v("p", { class: "o-blds" }, v("span", { class: "label" }, "Buildings:"), blds.length ? blds : " none"));
}

// @ts-check
// The shared board: the seven role cards, the plots, the canal (barges, the apprentice
// barge, the market hall, the supply) and the building market. Drawn in place (vdom.js).

import { v, patch } from "./vdom.js";
import { target, goodChip, letter, plural, cap } from "./widgets.js";
import {
  GOODS, roleName, roleText, seatName, building, buildingFacts, plotText, endReasonText, limit,
} from "./text.js";
import { ACTIONS, PHASES } from "./wire.js";

/** @typedef {import("./widgets.js").Draw} Draw */
/** @typedef {import("./table_model.js").Barge} Barge */
/** @typedef {import("./table_model.js").Mat} Mat */
/** @typedef {import("./table_model.js").Action} Action */

/**
 * @param {Draw} d
 * @param {{roles: Element, board: Element, lastRound: HTMLElement}} el
 */
export function drawBoard(d, el) {
  const m = d.model;
  const view = m.view;
  if (!view) return;
  const b = view.board;
  // "Last round" is said once, in the decision bar; the board shows it only where the bar
  // does not (the replay, whose bar holds the step's line).
  const reasons = b.end_reasons || [];
  el.lastRound.hidden = !reasons.length || !!m.ended || !d.readOnly;
  const last = reasons.length ? `Last round: ${reasons.map(endReasonText).join(" and ")}. The game ends after round ${b.round}.` : "";
  if (el.lastRound.textContent !== last) el.lastRound.textContent = last;
  patch(el.roles, roleCards(d));
  const me = m.seat !== null ? view.mats[m.seat] : null;
  patch(el.board, [plotsSection(d), canalSection(d, me), marketSection(d, me)]);
}

/** @param {Draw} d */
function roleCards(d) {
  const m = d.model;
  const b = /** @type {NonNullable<typeof m.view>} */ (m.view).board;
  return b.roles.map((r) => {
    const act = m.legalWhere((a) => a.type === ACTIONS.PICK_ROLE && a.role === r.role)[0];
    const picked = r.picked_by !== null && r.picked_by !== undefined;
    const current = b.role === r.role;
    const by = picked ? `by ${r.picked_by === m.seat ? "you" : seatName(m.seats, r.picked_by, m.seat)}` : "";
    return target(d, act, `role${picked ? " picked" : ""}${current ? " current" : ""}`,
      { "data-key": `role:${r.role}` },
      [v("span", { class: "role-name" }, roleName(r.role)),
        v("span", { class: "role-coins" }, r.coins ? plural(r.coins, "coin") : "no coins"),
        v("span", { class: "role-by" }, by)],
      { tip: roleText(r.role), tipTitle: roleName(r.role), lift: { type: "role", key: r.role } });
  });
}

/** @param {Draw} d */
function plotsSection(d) {
  const m = d.model;
  const b = /** @type {NonNullable<typeof m.view>} */ (m.view).board;
  const plots = b.face_up.map((g, i) => {
    const act = m.legalWhere((a) => a.type === ACTIONS.TAKE_PLOT && a.good === g)[0];
    return target(d, act, `plot good-${g}`, { "data-key": `plot:${i}` }, [letter(g), v("span", {}, g)],
      { tip: plotText(g), tipTitle: `${cap(g)} plot` });
  });
  const pit = m.legalWhere((a) => a.type === ACTIONS.TAKE_STONE_PIT)[0];
  const draw = m.legalWhere((a) => a.type === ACTIONS.DRAW_PLOT)[0];
  return v("div", { class: "board-section plots-sec", "data-key": "plots-sec" }, v("h3", {}, "Plots"),
    v("div", { class: "plots" }, plots),
    v("div", { class: "row" },
      target(d, pit, "pile stone", { "data-key": "stonepit" }, [`Stone pits: ${b.stone_pits}`],
        { tip: plotText("stone_pit"), tipTitle: "Stone pit" }),
      target(d, draw, "pile", { "data-key": "stack" }, [`Stack: ${b.stack}`]),
      v("span", { class: "pile" }, `Discard: ${b.discard}`)));
}

/**
 * @param {Draw} d
 * @param {Mat | null} me
 */
function canalSection(d, me) {
  const m = d.model;
  const b = /** @type {NonNullable<typeof m.view>} */ (m.view).board;
  const barges = b.barges.map((bg, i) => barge(d, me, bg, i));
  const hallSpaces = Math.max(limit("market_hall_spaces") || 0, b.hall.length);
  const hall = [];
  for (let k = 0; k < hallSpaces; k++) hall.push(b.hall[k] ? goodChip(b.hall[k]) : v("span", { class: "slot" }));
  const changed = (/** @type {string} */ key) => (m.changed.has(key) ? " changed" : "");
  return v("div", { class: "board-section canal", "data-key": "canal" }, v("h3", {}, "The canal"),
    v("div", { class: "barges" }, barges),
    v("div", { class: "row" },
      v("span", { class: `pile${changed("apprentice-barge")}`, "data-key": "apprentice-barge" },
        `Apprentices: barge ${b.apprentice_barge}, supply ${b.supply_apprentices}`),
      v("span", { class: "pile seals" }, `Seals left: ${b.seals}`)),
    v("div", { class: "row" }, v("span", { class: "label" }, "Market hall:"),
      v("div", { class: `hall${changed("hall")}`, "data-key": "hall" }, hall)),
    v("div", { class: "row supply" }, v("span", { class: "label" }, "Supply:"),
      GOODS.map((g) => goodChip(g, b.supply_goods[g]))));
}

/**
 * One barge: its kind, load and slots; lit when loading it is a choice. When several goods
 * could go on an empty barge, each is a lit button on it.
 * @param {Draw} d
 * @param {Mat | null} me
 * @param {Barge} bg
 * @param {number} i
 */
function barge(d, me, bg, i) {
  const m = d.model;
  const acts = m.legalWhere((a) => a.type === ACTIONS.LOAD && a.barge === i);
  const slots = [];
  for (let k = 0; k < bg.capacity; k++) {
    slots.push(k < bg.load && bg.good ? goodChip(bg.good) : v("span", { class: "slot" }));
  }
  /** what loading would put here, in words on the barge (not only in its label) @param {Action} a */
  const loadText = (a) => {
    const n = Math.min((me && me.goods[a.good]) || 0, bg.capacity - bg.load);
    return `+${n} ${a.good} → ${bg.load + n}/${bg.capacity}`;
  };
  const name = v("span", { class: "barge-name" }, `Barge ${i + 1}`);
  const slotRow = v("div", { class: "barge-slots" }, slots);
  if (acts.length <= 1) { // one element whether it is lit or not: it stays under the pointer
    const a = acts[0];
    const middle = a
      ? [v("span", { class: "barge-load", "aria-hidden": "true" }, `Load ${loadText(a)}`)]
      : [v("span", { class: "barge-kind" }, bg.good ? `${bg.good}` : "—"), v("span", {}, `${bg.load}/${bg.capacity}`)];
    return target(d, a, `barge${bg.load ? "" : " empty"}`, { "data-key": `barge:${i}` }, [name, ...middle, slotRow]);
  }
  const changed = m.changed.has(`barge:${i}`) ? " changed" : "";
  return v("div", { class: `barge options${bg.load ? "" : " empty"}${changed}`, "data-key": `barge:${i}` },
    name, v("span", { class: "barge-kind" }, bg.good ? `${bg.good}` : "—"), v("span", {}, `${bg.load}/${bg.capacity}`),
    slotRow,
    v("span", { class: "barge-options", role: "group", "aria-label": `Load barge ${i + 1}` },
      acts.map((a) => target(d, a, "barge-opt", { "data-key": `barge:${i}:${a.good}` },
        [v("span", { "aria-hidden": "true", title: `Load ${loadText(a)}` },
          v("span", { class: "opt-verb" }, "Load "), loadText(a).split(" →")[0])]))));
}

/**
 * @param {Draw} d
 * @param {Mat | null} me
 */
function marketSection(d, me) {
  const m = d.model;
  const view = /** @type {NonNullable<typeof m.view>} */ (m.view);
  const mason = view.board.phase === PHASES.MASON;
  const cards = view.board.market.map((e) => {
    const info = building(e.building);
    const act = m.legalWhere((a) => a.type === ACTIONS.BUILD && a.building === e.building)[0];
    const owned = !!me && me.buildings.some((x) => x.building === e.building);
    const cantAfford = !!me && (e.price > me.coins || e.copies === 0 || owned);
    const dim = mason && me && m.seat !== null && view.deciding.includes(m.seat) ? !act : cantAfford;
    return target(d, act, `bld${owned ? " owned" : ""} cat-${info.category || "x"}${dim ? " dim" : ""}${info.spaces === 2 ? " large" : ""}`,
      { "data-key": `market:${e.building}` },
      [v("span", { class: "bld-name" }, owned ? "✔ " : "", info.name),
        v("span", { class: "bld-meta" }, v("span", {}, plural(e.price, "coin")), v("span", { class: "sep" }, " · "),
          v("span", {}, `${info.points ?? "?"} pt${info.points === 1 ? "" : "s"}`), v("span", { class: "sep" }, " · "),
          v("span", {}, `${e.copies} left`))],
      { tip: info.text || "", tipTitle: `${buildingFacts(e.building)}${owned ? " (you own one)" : ""}`,
        lift: { type: "building", key: e.building } });
  });
  return v("div", { class: "board-section market-sec", "data-key": "market-sec" },
    v("h3", {}, "Buildings", me ? v("small", {}, " (price for you)") : null), v("div", { class: "market" }, cards));
}

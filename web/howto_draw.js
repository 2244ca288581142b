// @ts-check
// The How to play page's drawn examples, built in the DOM from /api/rules with the table's
// own classes (style.css: .tile, .good, .slot, .pip, .barge), so they look like the table:
// a holding with apprentices on some plots, the market hall, and barges being loaded. Each
// is a <figure> whose caption works its numbers out from the rules' data.
//
// The example positions (which plots, which goods) are this file's; every count a caption
// gives is computed from them and from the catalogue, never written out.

import { h } from "./dom.js";
import { goodChip, letterOf } from "./howto_tables.js";
import { capital, counted, listed, numberWord } from "./howto_words.js";

/** @typedef {import("./howto_tables.js").Rules} Rules */
/** @typedef {import("./howto_tables.js").BuildingRule} BuildingRule */

const kindName = (/** @type {string} */ k) => (k === "stone_pit" ? "stone pit" : k);

/** An apprentice marker: a filled pip when one stands there, a hollow one when not.
 * @param {boolean} on
 * @returns {HTMLElement} */
const pip = (on) => h("i", { class: on ? "pip on" : "pip", "aria-hidden": "true" });

/**
 * @param {string} id
 * @param {string} title
 * @param {Node} drawing
 * @param {string} caption
 * @returns {HTMLElement}
 */
function figure(id, title, drawing, caption) {
  return h("figure", { class: "example", id, "aria-labelledby": `${id}-caption` },
    drawing,
    h("figcaption", { id: `${id}-caption` }, h("strong", {}, `${title}. `), caption));
}

/** Plots of the example holding: [kind, with an apprentice]. */
const HOLDING = /** @type {[string, boolean][]} */ ([
  ["flax", true], ["flax", true], ["flax", false], ["clay", true], ["wool", true], ["stone_pit", true],
]);
/** Buildings of the example high street: [building, apprentices on it]. */
const STREET = /** @type {[string, number][]} */ ([["flax_shed", 1], ["flax_mill", 1]]);

/** A holding with apprentices on some plots, its high street, and what the Miller makes.
 * @param {Rules} rules
 * @returns {HTMLElement} */
export function holdingExample(rules) {
  const spaces = rules.limits.holding_spaces;
  const byKey = new Map(rules.buildings.map((b) => [b.key, b]));
  const street = STREET.filter(([key]) => byKey.has(key))
    .map(([key, n]) => /** @type {[BuildingRule, number]} */ ([byKey.get(key), n]));
  const plots = HOLDING.slice(0, spaces);
  const holding = h("ul", { class: "ex-holding", "aria-label": `Holding: ${plots.length} of ${spaces} spaces filled` });
  for (const [kind, staffed] of plots) {
    holding.append(h("li", { class: `tile good-${kind}` },
      h("span", { class: "tile-top" }, h("b", { class: "letter", "aria-hidden": "true", "data-letter": letterOf(kind) }), kindName(kind)),
      h("span", { class: "worked" }, pip(staffed), staffed ? "apprentice" : "no apprentice")));
  }
  for (let i = plots.length; i < spaces; i++) holding.append(h("li", { class: "ex-space" }, "empty"));
  const streetEl = h("ul", { class: "ex-street", "aria-label": "High street" },
    street.map(([b, n]) => h("li", { class: `tile bld-tile cat-${b.category}` },
      h("span", { class: "tile-top" }, b.name),
      h("span", { class: "worked" }, h("span", { class: "pips", "aria-hidden": "true" },
        Array.from({ length: b.slots }, (_, i) => pip(i < n))), `${Math.min(n, b.slots)} of ${counted(b.slots, "slot")} staffed`))));

  // what the Miller makes here, by the rules: clay by its staffed plots, a kind with
  // workshops by the smaller of its staffed plots and its staffed workshop slots
  const staffedPlots = (/** @type {string} */ k) => plots.filter(([kind, on]) => kind === k && on).length;
  const shopSlots = (/** @type {string} */ k) => street.filter(([b]) => b.good === k)
    .reduce((sum, [b, n]) => sum + Math.min(n, b.slots), 0);
  const hasShops = (/** @type {string} */ k) => rules.buildings.some((b) => b.good === k);
  const made = [...new Set(plots.map(([k]) => k))].filter((k) => k !== "stone_pit").map((k) => {
    if (!hasShops(k)) {
      const n = staffedPlots(k);
      return `${n} ${k} (${k} needs only its plot)`;
    }
    const p = staffedPlots(k), w = shopSlots(k), n = Math.min(p, w);
    if (!w) return `no ${k} (${counted(p, `${k} plot`)} with an apprentice, but no ${k} workshop)`;
    return `${n} ${k} (${counted(p, `${k} plot`)} with an apprentice and ${counted(w, "staffed workshop slot")}: the smaller count)`;
  });
  const pits = staffedPlots("stone_pit");
  const cut = pits * rules.amounts.stone_pit_discount;
  const caption = `${capital(numberWord(plots.length))} of the holding's ${spaces} spaces hold a plot; a filled dot is an apprentice. ` +
    `With the Miller it makes ${listed(made)}. ` +
    (pits ? `The stone pit with an apprentice takes ${counted(cut, "coin")} off each building's price (up to its column). ` : "") +
    "The lodge is empty: an apprentice may not wait there while a slot is free.";
  const drawing = h("div", { class: "ex-mat" },
    h("p", { class: "label" }, "Holding"), holding,
    h("p", { class: "label" }, "High street"), streetEl,
    h("p", { class: "label" }, "Lodge: ", h("span", { class: "free" }, "empty")));
  return figure("figure-holding", "A holding", drawing, caption);
}

/** Goods in the example market hall, in the order they were sold. */
const HALL = ["flax", "wool", "honey"];

/** The market hall: its spaces, what is in them, and what may still be sold.
 * @param {Rules} rules
 * @returns {HTMLElement} */
export function hallExample(rules) {
  const spaces = rules.limits.market_hall_spaces;
  const price = new Map(rules.goods.map((g) => [g.key, g.price]));
  const held = HALL.slice(0, Math.max(0, spaces - 1));
  const hall = h("ul", { class: "ex-hall", "aria-label": `Market hall: ${held.length} of ${spaces} spaces filled` },
    Array.from({ length: spaces }, (_, i) => (i < held.length
      ? h("li", { class: "ex-hall-space" }, goodChip(held[i], held[i]))
      : h("li", { class: "ex-hall-space" }, h("span", { class: "slot ex-slot" }), h("span", { class: "free" }, "empty")))));
  const prices = h("ul", { class: "ex-prices", "aria-label": "What the market hall pays" },
    rules.goods.map((g) => h("li", {}, goodChip(g.key, g.key), ` ${counted(g.price, "coin")}`)));
  const open = rules.goods.map((g) => g.key).filter((k) => !held.includes(k));
  const best = open.reduce((a, b) => ((price.get(b) || 0) > (price.get(a) || 0) ? b : a), open[0]);
  const counting = (rules.buildings.find((b) => b.key === "counting_house") || { name: "Counting House" }).name;
  const bestPrice = price.get(best) || 0;
  const caption = `${capital(listed(held))} have been sold, so the hall has room for ${counted(spaces - held.length, "more good")}. ` +
    `Only ${listed(open, "or")} may go there now: ${best} pays ${counted(bestPrice, "coin")}, ` +
    `${bestPrice + rules.amounts.chandler_picker_coins} for the Chandler's picker. A second ${held[1] || held[0]} needs a staffed ${counting}. ` +
    `Once all ${numberWord(spaces)} spaces are filled nobody sells more in that phase, and the full hall is emptied when the Chandler ends.`;
  const drawing = h("div", { class: "ex-board" },
    h("p", { class: "label" }, "Market hall"), hall,
    h("p", { class: "label" }, "It pays"), prices);
  return figure("figure-hall", "The market hall", drawing, caption);
}

/** The example barges before a load: [kind or null, goods on it, counted from the top]. */
const BARGES = /** @type {[string | null, number][]} */ ([["wool", -2], [null, 0], ["honey", 2]]);
/** What the loading player holds. */
const HOLDS = /** @type {[string, number][]} */ ([["wool", 4], ["flax", 2]]);

/** Barges loading: what a load puts where, and that a barge holds one kind.
 * @param {Rules} rules
 * @returns {HTMLElement} */
export function bargesExample(rules) {
  const counts = Object.values(rules.setups).map((s) => s.players);
  const players = counts.includes(4) ? 4 : Math.max(...counts);
  const caps = rules.setups[String(players)].barge_capacities;
  // a negative load is "this many short of full"
  const before = BARGES.slice(0, caps.length).map(([good, n], i) => ({
    good, load: n < 0 ? Math.max(0, caps[i] + n) : Math.min(n, caps[i]), cap: caps[i],
  }));
  const [kind, has] = HOLDS[0];
  const target = before.findIndex((b) => b.good === kind);
  const loaded = Math.min(has, before[target].cap - before[target].load);
  const seals = loaded * rules.amounts.seals_per_good;
  const canal = h("ul", { class: "barges ex-barges", "aria-label": "The barges after the load" },
    before.map((b, i) => {
      const now = i === target ? b.load + loaded : b.load;
      const slots = h("span", { class: "barge-slots", "aria-hidden": "true" },
        Array.from({ length: b.cap }, (_, k) => {
          if (k >= now || !b.good) return h("span", { class: "slot" });
          const chip = goodChip(b.good);
          if (k >= b.load) chip.classList.add("ex-new");
          return chip;
        }));
      const said = b.good ? `${now} ${b.good} of ${b.cap}${i === target ? `, ${loaded} just loaded` : ""}` : `empty, holds ${b.cap}`;
      return h("li", { class: `barge${i === target ? " ex-target" : ""}` },
        h("span", { class: "barge-name" }, `Barge ${i + 1}`),
        h("span", { class: "barge-kind" }, b.good || "empty"),
        h("span", { "aria-hidden": "true" }, `${now}/${b.cap}`),
        h("span", { class: "sr-only" }, said),
        slots,
        i === target ? h("span", { class: "barge-load" }, `+${loaded} ${kind}`) : null);
    }));
  const hand = h("p", { class: "ex-hand" }, h("span", { class: "label" }, "Ada holds "),
    HOLDS.map(([g, n]) => goodChip(g, `${n} ${g}`)));
  const [other, otherHas] = HOLDS[1];
  const empties = before.filter((b) => !b.good);
  const left = has - loaded;
  const caption = `With ${numberWord(players)} players the barges hold ${listed(caps.map(String))} goods. ` +
    `Ada loads ${kind}: ${kind} is already on barge ${target + 1}, so it may go only there, and a load takes all that fits, ` +
    `${loaded} of her ${has} (ringed, each with a dot). She gets ${counted(seals, "seal")}` +
    ` (${counted(seals + rules.amounts.bargemaster_picker_seals, "seal")} if she picked the Bargemaster). ` +
    `Barge ${target + 1} is full now and goes back to the supply when the Bargemaster ends; ` +
    (left ? `her other ${left} ${kind} can go on no other barge. ` : "") +
    `No barge carries ${other}, so her ${otherHas} ${other} can only start an empty one` +
    (empties.length > 1 ? ", the empty barge that takes the most" : ` (barge ${before.indexOf(empties[0]) + 1})`) +
    ` on a later turn. Each barge holds one kind.`;
  const drawing = h("div", { class: "ex-board canal" }, hand, canal);
  return figure("figure-barges", "Barges loading", drawing, caption);
}

// @ts-check
// The How to play page's tables and cards, generated from /api/rules (web/howto.js): the role
// cards, every building, and the supplies by player count. Nothing here holds a number of
// the rules; each cell is read from the catalogue.

import { h } from "./dom.js";
import { LETTER } from "./text.js";
import { capital, counted, numberWord } from "./howto_words.js";

/**
 * @typedef {{key: string, price: number}} GoodRule
 * @typedef {{key: string, name: string, text: string}} RoleRule
 * @typedef {{key: string, name: string, category: string, cost: number, points: number,
 *   column: number, slots: number, spaces: number, copies: number, copies_two_players: number,
 *   good: string | null, role: string | null, text: string}} BuildingRule
 * @typedef {{players: number, coins_each: number, seals: number, apprentices: number,
 *   barge_apprentices: number, barge_capacities: number[], picks_per_round: number,
 *   face_up_plots: number, plots: number[], stone_pits: number, goods: number[],
 *   starting_plots: string[]}} SetupRule
 * @typedef {{goods: GoodRule[], roles: RoleRule[], buildings: BuildingRule[],
 *   limits: Record<string, number>, amounts: Record<string, number>,
 *   setups: Record<string, SetupRule>, table: {decision_seconds: number}}} Rules
 */

const LETTERS = /** @type {Record<string, string>} */ (LETTER);

/** A good's or plot's letter beside its colour ("F" for flax), "?" for a kind it lacks.
 * @param {string} kind
 * @returns {string} */
export const letterOf = (kind) => LETTERS[kind] || "?";

/** A good's chip as the table draws it: its colour and its letter (style.css .good).
 * @param {string} kind
 * @param {string} [text] shown after the letter
 * @returns {HTMLElement} */
export function goodChip(kind, text) {
  return h("span", { class: `good good-${kind}` },
    h("b", { class: "letter", "aria-hidden": "true", "data-letter": letterOf(kind) }),
    text === undefined ? null : h("span", {}, text));
}

/** Where each role card points for more. */
const MORE = /** @type {Record<string, [string, string]>} */ ({
  surveyor: ["holding", "Your holding"],
  reeve: ["apprentices", "Apprentices"],
  mason: ["buildings", "Buildings"],
  miller: ["goods", "Making goods"],
  chandler: ["selling", "Selling"],
  bargemaster: ["shipping", "Shipping"],
});

/** The role cards, each with its anchor (#surveyor ... #pedlar), in table order.
 * @param {Rules} rules
 * @returns {HTMLElement[]} */
export function roleCards(rules) {
  return rules.roles.map((r) => {
    const more = MORE[r.key];
    return h("article", { class: "role-card", "aria-labelledby": r.key },
      h("h3", { id: r.key }, r.name),
      h("p", {}, r.text),
      more ? h("p", { class: "more" }, h("a", { href: `#${more[0]}` }, `More: ${more[1]}`)) : null);
  });
}

const CATEGORY = /** @type {Record<string, [string, string]>} */ ({
  small_workshop: ["Small workshop", "Small workshops"],
  large_workshop: ["Large workshop", "Large workshops"],
  civic: ["Civic building", "Civic buildings"],
  large: ["Large building", "Large buildings (end bonus)"],
});

/** Every building, by category: name (and its spaces when more than one), the good it
 * makes and the role it works in, cost, points, apprentice slots, copies, and what it does.
 * Each row is ``tr[data-key=<building>]``.
 * @param {Rules} rules
 * @returns {HTMLElement} */
export function buildingsTable(rules) {
  const heads = ["Building", "Works in", "Cost", "Points", "Apprentice slots",
    "Copies", "What it does"]; // the copies with the fewest players follow in brackets
  const columns = ["name", "kind", "cost", "points", "slots", "copies", "text"];
  const short = ["", "", "Cost", "Points", "Slots", "Copies", ""]; // a phone's card labels
  const groups = [...new Set(rules.buildings.map((b) => b.category))];
  return h("table", { class: "howto-table buildings", "aria-labelledby": "building-list" },
    h("thead", {}, h("tr", {}, heads.map((t, i) => h("th", { scope: "col", class: `col-${columns[i]}` }, t)))),
    groups.map((cat) => h("tbody", {},
      h("tr", { class: "group" }, h("th", { scope: "colgroup", colspan: heads.length },
        (CATEGORY[cat] || [cat, cat])[1])),
      rules.buildings.filter((b) => b.category === cat).map((b) => h("tr", { "data-key": b.key, id: `building-${b.key}` },
        h("th", { scope: "row", class: "name" }, h("span", { class: `bld-chip cat-${b.category}` }, b.name),
          b.spaces > 1 ? h("span", { class: "spaces" }, counted(b.spaces, "space")) : null),
        h("td", { class: "kind" }, b.good ? goodChip(b.good, b.good) : null,
          b.role ? ` ${capital(b.role)}` : "At the end"),
        h("td", { class: "cost", "data-label": short[2] }, String(b.cost)),
        h("td", { class: "points", "data-label": short[3] }, String(b.points)),
        h("td", { class: "slots", "data-label": short[4] }, String(b.slots)),
        h("td", { class: "copies", "data-label": short[5] }, String(b.copies),
          h("span", { class: "copies-two" }, ` (${b.copies_two_players})`)),
        h("td", { class: "text" }, b.text))))));
}

/** The supplies by player count: one column per count, one row per component. Each cell
 * is ``td[data-players=<n>][data-field=<field>]``.
 * @param {Rules} rules
 * @returns {HTMLElement} */
export function suppliesTable(rules) {
  const setups = Object.values(rules.setups).sort((a, b) => a.players - b.players);
  const goods = rules.goods.map((g) => g.key);
  /** @type {[string, Node | string, (s: SetupRule) => string][]} */
  const rows = [
    ["coins_each", "Coins at the start, each", (s) => String(s.coins_each)],
    ["seals", "Seals in the supply", (s) => String(s.seals)],
    ["apprentices", "Apprentices in the supply", (s) => String(s.apprentices)],
    ["barge_apprentices", "Apprentices on the apprentice barge at the start", (s) => String(s.barge_apprentices)],
    ["barge_capacities", `Barges (${numberWord(rules.limits.barges)}): how many goods each holds`,
      (s) => s.barge_capacities.join(", ")],
    ["picks_per_round", "Role picks in a round", (s) => (s.picks_per_round === s.players
      ? String(s.picks_per_round) : `${s.picks_per_round} (${s.picks_per_round / s.players} each)`)],
    ["face_up_plots", "Face-up plots", (s) => String(s.face_up_plots)],
    ...goods.map((g, i) => /** @type {[string, Node, (s: SetupRule) => string]} */ (
      [`plots.${i}`, h("span", {}, goodChip(g), ` ${capital(g)} plots`), (s) => String(s.plots[i])])),
    ["stone_pits", h("span", {}, goodChip("stone_pit"), " Stone pits"), (s) => String(s.stone_pits)],
    ...goods.map((g, i) => /** @type {[string, Node, (s: SetupRule) => string]} */ (
      [`goods.${i}`, h("span", {}, goodChip(g), ` ${capital(g)} goods`), (s) => String(s.goods[i])])),
    ["starting_plots", "Starting plots, from the first Warden going left",
      (s) => s.starting_plots.join(", ")],
  ];
  return h("table", { class: "howto-table supplies", "aria-labelledby": "supplies-h" },
    h("thead", {}, h("tr", {}, h("td", {}),
      setups.map((s) => h("th", { scope: "col" }, counted(s.players, "player"))))),
    h("tbody", {}, rows.map(([field, label, cell]) => h("tr", {},
      h("th", { scope: "row" }, label),
      setups.map((s) => h("td", { "data-players": s.players, "data-field": field }, cell(s)))))));
}

// @ts-check
// The How to play page (/how-to-play): the rules in words, with every number read from
// /api/rules so that the page cannot drift from the engine.
//
// The page's HTML holds the prose and placeholders; this fills them in:
// - <span data-rule="limits.holding_spaces"> gets the value at that path of the rules
//   (or of ``derived`` below), in digits, in words (data-as="word", "Word" for a capital) or
//   with a noun (data-unit="coin": "1 coin", "2 coins"); the value itself goes in data-value.
// - <span data-list="prices">, "goods.first", "goods.rest": lists built from the goods.
// - the role cards, the buildings and the supplies tables (howto_tables.js), the drawn
//   examples (howto_draw.js) and the table's shortcut keys (shortcuts.js).
// When it is done, <body data-ready="1">; if the rules cannot be read, the page says so.

import { h, clear } from "./dom.js";
import { SHORTCUTS } from "./shortcuts.js";
import { at, capital, counted, listed, numberWord } from "./howto_words.js";
import { buildingsTable, goodChip, roleCards, suppliesTable } from "./howto_tables.js";
import { bargesExample, hallExample, holdingExample } from "./howto_draw.js";

/** @typedef {import("./howto_tables.js").Rules} Rules */

const $ = (/** @type {string} */ id) => /** @type {HTMLElement} */ (document.getElementById(id));

/** Numbers the page says that are worked out from the rules rather than stored there.
 * @param {Rules} rules
 * @returns {Record<string, number>} */
export function derived(rules) {
  const large = rules.buildings.filter((b) => b.category === "large");
  const two = rules.setups[String(rules.limits.min_players)];
  return {
    two_player_picks_each: two ? two.picks_per_round / two.players : NaN,
    large_count: large.length,
    large_spaces: Math.max(...large.map((b) => b.spaces)),
    large_cost: Math.max(...large.map((b) => b.cost)),
  };
}

/** The text of a value as a placeholder asks for it.
 * @param {unknown} value
 * @param {DOMStringMap} how
 * @returns {string} */
function shown(value, how) {
  if (typeof value !== "number") return String(value);
  if (how.unit) return counted(value, how.unit);
  if (how.as === "word") return numberWord(value);
  if (how.as === "Word") return capital(numberWord(value));
  return String(value);
}

/** Fill every placeholder; returns the paths that the rules did not have.
 * @param {Rules & {derived: Record<string, number>}} facts
 * @returns {string[]} */
function fillPlaceholders(facts) {
  const missing = [];
  for (const el of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll("[data-rule]"))) {
    const path = el.dataset.rule || "";
    const value = at(facts, path);
    if (value === undefined || (typeof value === "number" && Number.isNaN(value))) {
      missing.push(path);
      continue;
    }
    el.dataset.value = String(value);
    el.textContent = shown(value, el.dataset);
  }
  const goods = facts.goods.map((g) => g.key);
  const withShops = new Set(facts.buildings.map((b) => b.good).filter(Boolean));
  /** @type {Record<string, () => string | (Node | string)[]>} */
  const lists = {
    "goods.first": () => listed(goods.filter((g) => !withShops.has(g))),
    "goods.rest": () => listed(goods.filter((g) => withShops.has(g))),
    prices: () => facts.goods.flatMap((g, i) => [
      goodChip(g.key, `${g.key} ${g.price}`),
      i === facts.goods.length - 1 ? " coins" : i === facts.goods.length - 2 ? " and " : ", "]),
  };
  for (const el of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll("[data-list]"))) {
    const make = lists[el.dataset.list || ""];
    if (!make) { missing.push(el.dataset.list || ""); continue; }
    const made = make();
    if (typeof made === "string") el.textContent = el.dataset.as === "Word" ? capital(made) : made;
    else clear(el).append(...made);
  }
  return missing;
}

/** The table's single-key shortcuts, from its own list (shortcuts.js).
 * @returns {(Node | string)[]} */
function shortcutKeys() {
  return SHORTCUTS.flatMap(([, key, what], i) => [
    h("kbd", {}, key.toUpperCase()), ` ${what.toLowerCase()}`,
    i === SHORTCUTS.length - 1 ? "." : i === SHORTCUTS.length - 2 ? " and " : ", "]);
}

/**
 * @param {Rules} rules
 */
function render(rules) {
  const facts = { ...rules, derived: derived(rules) };
  const missing = fillPlaceholders(facts);
  const cards = roleCards(rules);
  clear($("role-cards")).append(...cards);
  clear($("toc-roles")).append(...rules.roles.map((r) => h("li", {}, h("a", { href: `#${r.key}` }, r.name))));
  clear($("buildings-table")).append(buildingsTable(rules));
  clear($("supplies-table")).append(suppliesTable(rules));
  clear($("example-holding")).append(holdingExample(rules));
  clear($("example-hall")).append(hallExample(rules));
  clear($("example-barges")).append(bargesExample(rules));
  clear($("shortcut-keys")).append(...shortcutKeys());
  const status = $("rules-status");
  if (missing.length) {
    status.textContent = `Some numbers could not be read from the rules: ${missing.join(", ")}.`;
    status.classList.add("bad");
  } else {
    status.textContent = "";
    status.hidden = true;
  }
}

/** Go to the section the address names, and mark it (class "here"): the browser tried
 * before the role cards existed and before the filling moved everything, and :target
 * does not match an element made after the navigation. */
function toAnchor() {
  for (const old of document.querySelectorAll(".here")) old.classList.remove("here");
  const id = decodeURIComponent(location.hash.slice(1));
  const target = id ? document.getElementById(id) : null;
  if (!target) return;
  const shown = target.closest(".role-card") || target;
  shown.classList.add("here");
  shown.scrollIntoView();
}

async function main() {
  try {
    const res = await fetch("/api/rules", { headers: { Accept: "application/json" } });
    if (!res.ok) throw new Error(`the server answered ${res.status}`);
    render(await res.json());
    document.body.dataset.ready = "1";
    toAnchor();
    window.addEventListener("hashchange", toAnchor);
  } catch (err) {
    const status = $("rules-status");
    status.textContent = `The rules could not be read (${err instanceof Error ? err.message : err}): the numbers on this page are missing. Reload to try again.`;
    status.classList.add("bad");
    document.body.dataset.ready = "failed";
  }
}

main();

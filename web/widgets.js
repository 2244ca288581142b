// @ts-check
// The small pieces the table's panels are drawn from (descriptions for vdom.js): a good's
// chip, apprentice pips, and the targets (role cards, plots, buildings, barges, tiles).
//
// A target is always the same kind of element for a seated player: a button, lit when it
// carries a legal action, unlit (aria-disabled, out of the tab order) when not. So a card
// under the pointer or a finger, or holding the focus, stays the same element when a turn
// comes or goes, and its tooltip, a long press or a press in progress survive. What a press
// does is decided when it lands (`Draw.press`), from the latest drawing.

import { v } from "./vdom.js";
import { LETTER, actionLabel } from "./text.js";

/** @typedef {import("./vdom.js").VNode} VNode */
/** @typedef {import("./vdom.js").VKid} VKid */
/** @typedef {import("./table_model.js").Action} Action */
/** @typedef {import("./table_model.js").TableModel} TableModel */
/** @typedef {{type: "role" | "building", key: string}} LiftSpec */
/** @typedef {{action: Action | null, lift: LiftSpec | null}} Target */

/**
 * What a panel draws with: the model, and what its targets do. `targets` is filled while
 * drawing (data-key -> what it carries now); `press(key)` is called when one is pressed.
 * @typedef {object} Draw
 * @property {TableModel} model
 * @property {boolean} readOnly
 * @property {Map<string, Target>} targets
 * @property {(key: string) => void} press
 */

/** @param {string} w */
export const cap = (w) => w.charAt(0).toUpperCase() + w.slice(1);
/** @param {number} n @param {string} w */
export const plural = (n, w) => `${n} ${w}${n === 1 ? "" : "s"}`;

/** A good's or plot's letter beside its colour, drawn by CSS (style.css .letter). @param {string} kind */
export const letter = (kind) => v("b", { class: "letter", "aria-hidden": "true", "data-letter": /** @type {Record<string, string>} */ (LETTER)[kind] });

/**
 * @param {string} good
 * @param {number} [count]
 * @param {VKid} [extra]
 */
export function goodChip(good, count, extra) {
  const label = count === undefined ? good : `${count} ${good}`;
  return v("span", { class: `good good-${good}`, title: label, "aria-label": label, role: "img" },
    letter(good),
    count === undefined ? null : v("span", { "aria-hidden": "true" }, `×${count}`),
    extra || null);
}

/** Apprentice pips: filled for each staffed slot, hollow for each empty one. @param {number} staffed @param {number} total */
export function pips(staffed, total) {
  /** @type {VNode[]} */
  const out = [];
  for (let i = 0; i < total; i++) out.push(v("i", { class: i < staffed ? "pip on" : "pip" }));
  return v("span", { class: "pips", "aria-hidden": "true" }, out);
}

/**
 * A target: a lit button that carries `action`, an unlit one when there is none (a seated
 * player's table), a plain element for a spectator, a replay or a finished game.
 * opts.lift: lifted first (a role card, a market building); opts.tip / tipTitle: its text.
 * @param {Draw} d
 * @param {Action | null | undefined} action
 * @param {string} cls
 * @param {Record<string, string | number | null | undefined> & {"data-key": string}} attrs
 * @param {VKid[]} children
 * @param {{lift?: LiftSpec, tip?: string, tipTitle?: string}} [opts]
 */
export function target(d, action, cls, attrs, children, opts = {}) {
  const m = d.model;
  const tip = opts.tip ? { "data-tip": opts.tip, "data-tip-title": opts.tipTitle || null } : {};
  const kids = children.flatMap((c, i) => (i ? [" ", c] : [c]));
  const key = attrs["data-key"];
  const changed = m.changed.has(key) ? " changed" : "";
  if (d.readOnly || m.ended || m.seat === null) {
    return v("div", { class: cls + changed, ...tip, ...attrs }, kids);
  }
  const lift = action && opts.lift ? opts.lift : null;
  d.targets.set(key, { action: action || null, lift });
  const lifted = !!(lift && m.lifted && m.lifted.type === lift.type && m.lifted.key === lift.key);
  // the name keeps what the eye sees on the target (coins, picker, counts, "N left"),
  // the children apart by spaces as they read (WCAG 2.5.3)
  const seen = visibleText(kids);
  // an unlit target's name is its own text (no aria-label); a lit one says what it does
  let label = null;
  if (action) {
    label = lift ? `${lifted ? "Lifted: " : "Lift "}${seen}` : `${actionLabel(action, m.view)}${seen ? `, ${seen}` : ""}`;
  }
  return v("button", {
    type: "button", class: `${cls} target${action ? " lit" : ""}${lifted ? " lifted" : ""}${changed}`,
    "data-act": action ? "1" : null, "data-type": action ? action.type : null,
    "data-lift": lift ? lift.type : null,
    "aria-pressed": lift ? (lifted ? "true" : "false") : null,
    "aria-label": label, "aria-disabled": !action || m.pending ? "true" : null,
    tabindex: action ? null : "-1",
    onclick: () => d.press(key),
    ...tip, ...attrs,
  }, kids);
}

/**
 * The text the eye sees in these children (aria-hidden text too; an element's own
 * aria-label, such as a good chip's, for its content), in one line.
 * @param {VKid[]} children
 */
export function visibleText(children) {
  /** @type {string[]} */
  const parts = [];
  /** @param {VKid} node */
  const walk = (node) => {
    if (node === null || node === undefined || node === false) return;
    if (Array.isArray(node)) { node.forEach(walk); return; }
    if (typeof node === "string" || typeof node === "number") { parts.push(String(node)); return; }
    if (typeof Node !== "undefined" && node instanceof Node) { parts.push(` ${node.textContent || ""} `); return; }
    const d = /** @type {VNode} */ (node);
    const label = d.attrs["aria-label"];
    if (label) { parts.push(` ${label} `); return; }
    parts.push(" ");
    d.children.forEach(walk);
    parts.push(" ");
  };
  walk(children);
  return parts.join("").replace(/\s+/g, " ").trim();
}

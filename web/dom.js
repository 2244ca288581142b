// @ts-check
// A tiny element builder: h("button", {class: "x", onclick: fn}, "text", child).

/** @typedef {string | number | boolean | null | undefined} AttrValue */
/**
 * An attribute's value: `on<event>` a handler, `dataset` the data-* values, `class` the
 * class names; null/undefined/false leave it out, true sets it empty.
 * @typedef {AttrValue | Listener | Record<string, string>} Attr
 */
/**
 * A handler for the event its `on<event>` names, so it may take that event's own type
 * (MouseEvent, SubmitEvent): written as a method's type, whose parameter TypeScript checks
 * both ways, as the DOM's own listeners are.
 * @typedef {{handle(ev: Event): void}["handle"]} Listener
 */
/** @typedef {Node | string | number | null | undefined | false | Kid[]} Kid  (lists are flattened) */

/**
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Record<string, Attr> | null} [attrs]
 * @param {...Kid} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith("on") && typeof v === "function") el.addEventListener(k.slice(2), v);
    else if (k === "class") el.className = String(v);
    else if (k === "dataset") Object.assign(el.dataset, v);
    else if (v === true) el.setAttribute(k, "");
    else el.setAttribute(k, String(v));
  }
  append(el, children);
  return el;
}

/** @param {Element} el @param {Kid[]} children */
function append(el, children) {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    if (Array.isArray(c)) append(el, c);
    else el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
}

/** @template {Node} T @param {T} el @returns {T} */
export function clear(el) {
  while (el.firstChild) el.removeChild(el.firstChild);
  return el;
}

/** @type {number | undefined} */
let toastTimer;
/** @param {string} text */
export function toast(text) {
  const el = /** @type {HTMLElement} */ (document.getElementById("toast")); // on every page that toasts
  el.textContent = text;
  el.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { el.hidden = true; }, 6000);
}

// @ts-check
// Drawing in place: a panel describes what it shows as light element descriptions
// (`v("button", {class: "role lit", "data-key": "role:miller", onclick}, "Miller")`), and
// `patch` makes the page's elements say that, changing only what differs.
//
// How it works. A description's element is found among the container's current children:
// by its key (`data-key`) when it has one, otherwise the next unkeyed child of the same tag.
// A found element is kept and updated: the attributes the last description set and this one
// does not are removed, the others set when they differ; attributes nobody described (the
// tooltip's aria-describedby, say) are left alone. Event handlers are looked up at the time
// of the event (`el.handlers`), so a kept element acts on what the latest drawing says, and
// a press that began before an update ends on the same element after it. Only an element
// whose tag changes, or that is no longer described, is replaced or removed; a kept element
// is moved only when the order changed, so hover, focus and a long press survive an update.
// A real DOM node may stand among the children (a control that draws itself); it is placed
// as it is.

/** @typedef {string | number | boolean | null | undefined} AttrValue */
/** @typedef {(ev: Event) => void} Handler */
/**
 * @typedef {object} VNode
 * @property {string} tag
 * @property {string | null} key  its data-key, by which it is found again
 * @property {Record<string, AttrValue>} attrs
 * @property {Record<string, Handler>} on  event type -> handler
 * @property {VChild[]} children
 */
/** @typedef {VNode | Node | string} VChild */
/** @typedef {VChild | number | null | undefined | false | VKids} VKid */
/** @typedef {VKid[]} VKids  (nested lists are flattened) */

/** @typedef {HTMLElement & {handlers?: Record<string, Handler>, described?: Record<string, AttrValue>}} Drawn */

/**
 * An element's description: `attrs` as for `h` (dom.js): `on<event>` functions are
 * handlers, null/undefined/false attributes are absent, true is present and empty.
 * @param {string} tag
 * @param {Record<string, AttrValue | Handler> | null} [attrs]
 * @param {...VKid} kids
 * @returns {VNode}
 */
export function v(tag, attrs, ...kids) {
  /** @type {Record<string, AttrValue>} */
  const plain = {};
  /** @type {Record<string, Handler>} */
  const on = {};
  for (const [k, value] of Object.entries(attrs || {})) {
    if (typeof value === "function") on[k.slice(2)] = value;
    else if (value !== null && value !== undefined && value !== false) plain[k] = value;
  }
  /** @type {VChild[]} */
  const children = [];
  flatten(kids, children);
  const key = plain["data-key"];
  return { tag, key: key === undefined ? null : String(key), attrs: plain, on, children };
}

/**
 * @param {VKid[]} kids
 * @param {VChild[]} out
 */
function flatten(kids, out) {
  for (const c of kids) {
    if (c === null || c === undefined || c === false) continue;
    if (Array.isArray(c)) flatten(c, out);
    else if (typeof c === "number") out.push(String(c));
    else out.push(c);
  }
}

/** @param {unknown} c @returns {c is VNode} */
const isVNode = (c) => typeof c === "object" && c !== null && !(c instanceof Node) && "tag" in c;

/** @param {Node} n */
const keyOf = (n) => (n instanceof HTMLElement ? n.getAttribute("data-key") : null);

/**
 * Make `parent`'s children what `kids` describe, keeping every element that can be kept.
 * @param {Element} parent
 * @param {VKid[]} kids
 */
export function patch(parent, kids) {
  /** @type {VChild[]} */
  const want = [];
  flatten(kids, want);
  /** @type {Map<string, Node>} */
  const byKey = new Map();
  /** @type {Node[]} */
  const loose = [];
  for (const n of Array.from(parent.childNodes)) {
    const k = keyOf(n);
    if (k !== null && !byKey.has(k)) byKey.set(k, n);
    else loose.push(n);
  }
  /** @type {Set<Node>} */
  const used = new Set();
  /** @param {(n: Node) => boolean} fits */
  const takeLoose = (fits) => {
    const i = loose.findIndex((n) => !used.has(n) && fits(n));
    return i < 0 ? null : loose[i];
  };
  /** @type {Node[]} */
  const next = [];
  for (const c of want) {
    /** @type {Node | null} */
    let node = null;
    if (c instanceof Node) {
      node = c;
    } else if (typeof c === "string") {
      node = takeLoose((n) => n.nodeType === Node.TEXT_NODE);
      if (node) { if (node.nodeValue !== c) node.nodeValue = c; } else node = document.createTextNode(c);
    } else if (isVNode(c)) {
      const old = c.key !== null ? byKey.get(c.key) : takeLoose((n) => n instanceof HTMLElement
        && keyOf(n) === null && n.tagName === c.tag.toUpperCase());
      if (old instanceof HTMLElement && old.tagName === c.tag.toUpperCase() && !used.has(old)) {
        update(/** @type {Drawn} */ (old), c);
        node = old;
      } else {
        node = create(c);
      }
    }
    if (node) { used.add(node); next.push(node); }
  }
  for (const n of Array.from(parent.childNodes)) if (!used.has(n)) parent.removeChild(n);
  // place in order, moving only what is out of place
  let at = parent.firstChild;
  for (const n of next) {
    if (n === at) { at = at.nextSibling; continue; }
    parent.insertBefore(n, at);
  }
}

/**
 * A new element for a description.
 * @param {VNode} d
 * @returns {Drawn}
 */
export function create(d) {
  /** @type {Drawn} */
  const el = document.createElement(d.tag);
  update(el, d);
  return el;
}

/**
 * @param {Drawn} el
 * @param {VNode} d
 */
function update(el, d) {
  const before = el.described || {};
  for (const name of Object.keys(before)) {
    if (!(name in d.attrs)) el.removeAttribute(name);
  }
  for (const [name, value] of Object.entries(d.attrs)) {
    const text = value === true ? "" : String(value);
    if (el.getAttribute(name) !== text) el.setAttribute(name, text);
  }
  el.described = d.attrs;
  const had = el.handlers;
  el.handlers = d.on;
  for (const type of Object.keys(d.on)) {
    if (!had || !(type in had)) el.addEventListener(type, dispatch);
  }
  patch(el, d.children);
}

/** @param {Event} ev */
function dispatch(ev) {
  const el = /** @type {Drawn} */ (ev.currentTarget);
  const fn = el.handlers && el.handlers[ev.type];
  if (fn) fn(ev);
}

// @ts-check
// A delta update's patch applied to a view (docs/protocol.md, section 5). Pure: no DOM,
// no network; the same module runs under node in the tests.
//
// A patch is a list of operations, in order: [pointer, value] sets (an object's member is
// added or replaced; an array's element at an existing index is replaced, at the index
// equal to the length appended), [pointer] removes. A pointer is an RFC 6901 JSON Pointer,
// never the empty one.

/**
 * A JSON value, as parsed.
 * @typedef {null | boolean | number | string | Json[] | JsonObject} Json
 */
/** @typedef {{[key: string]: Json}} JsonObject */
/** What a pointer's tokens walk through: an array or an object. @typedef {Json[] | JsonObject} Container */
/**
 * A seat's or the spectator's view (docs/protocol.md): a JSON object whose `version` is the
 * number of actions applied.
 * @typedef {JsonObject} View
 */

/**
 * A JSON Pointer's reference tokens, unescaped (~1 is "/", ~0 is "~").
 * @param {unknown} pointer
 * @returns {string[]}
 */
function tokens(pointer) {
  if (typeof pointer !== "string" || !pointer.startsWith("/")) {
    throw new PatchError(`not a JSON Pointer: ${JSON.stringify(pointer)}`);
  }
  return pointer.slice(1).split("/").map((t) => t.replace(/~1/g, "/").replace(/~0/g, "~"));
}

export class PatchError extends Error {}

/**
 * @param {string} token
 * @param {number} length the greatest index allowed
 * @param {string} pointer
 */
function index(token, length, pointer) {
  if (!/^(0|[1-9][0-9]*)$/.test(token)) throw new PatchError(`not an array index: ${pointer}`);
  const i = Number(token);
  if (i > length) throw new PatchError(`past the end of the array: ${pointer}`);
  return i;
}

/** @param {Container} container @param {string} token @param {string} pointer @returns {Json} */
function child(container, token, pointer) {
  if (Array.isArray(container)) return container[index(token, container.length - 1, pointer)];
  if (Object.hasOwn(container, token)) return container[token];
  throw new PatchError(`no such place: ${pointer}`);
}

/** @param {Container} container @param {string} token @param {Json} value */
function put(container, token, value) {
  if (Array.isArray(container)) container[Number(token)] = value;
  else container[token] = value;
}

/** A shallow copy of an array or an object. @param {Container} value @returns {Container} */
function copy(value) {
  return Array.isArray(value) ? value.slice() : { ...value };
}

/**
 * The view with `patch` applied. `view` is not changed: the containers on each
 * operation's path are copied, the rest is shared. Throws PatchError on an operation the
 * protocol does not allow (the caller asks for a snapshot).
 * @param {View} view
 * @param {unknown} patch a list of operations, as parsed from the update
 * @returns {View}
 */
export function applyPatch(view, patch) {
  if (!Array.isArray(patch)) throw new PatchError("a patch is an array");
  const root = { ...view };
  /** @type {Set<Container>} */
  const fresh = new Set([root]); // containers copied by this call: safe to change
  for (const op of patch) {
    if (!Array.isArray(op) || (op.length !== 1 && op.length !== 2)) {
      throw new PatchError(`not an operation: ${JSON.stringify(op)}`);
    }
    const pointer = op[0];
    const path = tokens(pointer);
    const last = path[path.length - 1];
    /** @type {Container} */
    let parent = root;
    for (const token of path.slice(0, -1)) {
      let next = child(parent, token, pointer);
      if (next === null || typeof next !== "object") throw new PatchError(`no such place: ${pointer}`);
      if (!fresh.has(next)) {
        next = copy(next);
        fresh.add(next);
        put(parent, token, next);
      }
      parent = next;
    }
    if (Array.isArray(parent)) {
      const i = index(last, parent.length, pointer);
      if (op.length === 1) {
        if (i === parent.length) throw new PatchError(`past the end of the array: ${pointer}`);
        parent.splice(i, 1);
      } else {
        parent[i] = structuredCloneOf(op[1]); // i === length appends
      }
    } else if (op.length === 1) {
      if (!Object.hasOwn(parent, last)) throw new PatchError(`no such place: ${pointer}`);
      delete parent[last];
    } else {
      parent[last] = structuredCloneOf(op[1]);
    }
  }
  return root;
}

/**
 * A value from a parsed message, copied so that no two places of a view share it.
 * @param {Json} value
 * @returns {Json}
 */
function structuredCloneOf(value) {
  return value === null || typeof value !== "object" ? value : JSON.parse(JSON.stringify(value));
}

/**
 * A snapshot (`view`) or a delta (`since`, `patch`, `version`) update (docs/protocol.md).
 * @typedef {object} ViewUpdate
 * @property {View | null} [view]
 * @property {unknown} [since]
 * @property {unknown} [version]
 * @property {unknown} [patch]
 */

/**
 * One connection's view, kept from its updates. `take(msg)` answers with the view to draw
 * (null: drop this update) and whether to ask for a snapshot (`resync`).
 */
export class ViewKeeper {
  constructor() {
    /** @type {View | null} */
    this.view = null;
    this.waiting = false; // a resync is asked for: deltas are dropped until a snapshot
  }

  /** @param {ViewUpdate} msg @returns {{view: View|null, resync: boolean}} */
  take(msg) {
    if (msg.view) {
      this.view = msg.view;
      this.waiting = false;
      return { view: this.view, resync: false };
    }
    if (this.waiting) return { view: null, resync: false };
    if (!this.view || this.view.version !== msg.since || !Array.isArray(msg.patch)) {
      this.waiting = true;
      return { view: null, resync: true };
    }
    let view;
    try {
      view = applyPatch(this.view, msg.patch);
    } catch (err) {
      if (!(err instanceof PatchError)) throw err;
      view = null;
    }
    if (!view || view.version !== msg.version) {
      this.waiting = true;
      return { view: null, resync: true };
    }
    this.view = view;
    return { view, resync: false };
  }

  /** A new connection: its catch-up is a snapshot, and a resync asked on the old one is moot. */
  reset() {
    this.waiting = false;
  }
}

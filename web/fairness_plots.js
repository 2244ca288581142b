// @ts-check
// The plots of Quaymoor's fair draws (docs/fairness.md, "How the game uses it"), with the
// draws of fairness.js: the face-down stack shuffled from the seed, its reshuffles, and
// every turn-up of plots a game makes, worked out from the key and the record's actions
// alone; and the turn-ups a record shows compared with those, turn-up for turn-up.

import { shuffled } from "./fairness.js";

export const LABEL_PLOTS = "plots";
export const GOODS = ["clay", "flax", "wool", "honey", "amber"];

/** A good's name, one of GOODS (a plot is of one good). @typedef {string} Good */
/** Where a turn-up happened. @typedef {"setup" | "surveyor" | "farmstead"} TurnUpSource */
/**
 * A turn-up of plots worked out from the seed (`expectedTurnUps`).
 * @typedef {object} TurnUp
 * @property {number} step actions applied when it happened (0: the setup)
 * @property {TurnUpSource} source
 * @property {Good[]} goods
 * @property {boolean} reshuffled the discard pile was shuffled into a new stack for it
 * @property {boolean} open the game may have ended before it (see `expectedTurnUps`)
 */
/**
 * A turn-up as a record or the server's replay shows it (the record's `turned_up`).
 * @typedef {object} ShownTurnUp
 * @property {number} step
 * @property {string} source
 * @property {Good[]} goods
 */
/**
 * One action of a record: the seat that made it and the action (docs/protocol.md). Only
 * the fields the plot flow reads are named.
 * @typedef {object} RecordedAction
 * @property {number} seat
 * @property {{type: string, role?: string, good?: Good}} action
 */
/**
 * A row of `compareTurnUps`.
 * @typedef {object} TurnUpRow
 * @property {number} index
 * @property {number} step
 * @property {string} source
 * @property {Good[] | null} expected null: the seed gives no turn-up here
 * @property {Good[] | null} shown null: the record shows none here
 * @property {"ok" | "changed" | "missing" | "extra" | "open" | "unshown"} status
 *   ("unshown": the record lists no turn-ups at all; the verify page's own rows)
 * @property {boolean} reshuffled
 */

/**
 * The fixed plot table of docs/fairness.md ("How the game uses it"), in this page's own
 * code and never fetched from a server: by player count, the plots in the game (by good,
 * canonical order), the starting plots taken out of them before the stack is shuffled, and
 * how many plots lie face up (N+1: turned up at the setup and after each Surveyor phase).
 * A server that forges /api/rules changes nothing the verify page computes.
 * @type {Readonly<Record<number, Readonly<{plots: readonly number[], starting: readonly Good[], faceUp: number}>>>}
 */
export const SETUPS = Object.freeze({
  2: Object.freeze({ plots: Object.freeze([7, 9, 8, 6, 5]), starting: Object.freeze(["flax", "clay"]), faceUp: 3 }),
  3: Object.freeze({ plots: Object.freeze([10, 12, 11, 9, 8]), starting: Object.freeze(["flax", "flax", "clay"]), faceUp: 4 }),
  4: Object.freeze({ plots: Object.freeze([10, 12, 11, 9, 8]), starting: Object.freeze(["flax", "flax", "clay", "clay"]), faceUp: 5 }),
  5: Object.freeze({ plots: Object.freeze([10, 12, 11, 9, 8]), starting: Object.freeze(["flax", "flax", "flax", "clay", "clay"]), faceUp: 6 }),
});

/**
 * The table's row for a game of `players`, or an error for a count it has no row for.
 * @param {unknown} players
 */
export function setupFor(players) {
  const setup = typeof players === "number" && Object.hasOwn(SETUPS, players) ? SETUPS[players] : null;
  if (!setup) throw new Error(`a game needs 2 to 5 players, not ${JSON.stringify(players)}`);
  return setup;
}

/** @param {number} k */
export function reshuffleLabel(k) {
  if (!Number.isInteger(k) || k < 1) throw new Error(`reshuffles are counted from 1, got ${k}`);
  return `plots-reshuffle-${k}`;
}

/** Goods in canonical order: clay, flax, wool, honey, amber. @param {readonly Good[]} goods */
export function canonical(goods) {
  return goods.slice().sort((a, b) => GOODS.indexOf(a) - GOODS.indexOf(b));
}

/** The plots that go into the stack at the start, in canonical order. @param {number} players */
export function stackPlots(players) {
  const setup = setupFor(players);
  const counts = setup.plots.slice();
  for (const g of setup.starting) counts[GOODS.indexOf(g)] -= 1;
  /** @type {Good[]} */
  const out = [];
  GOODS.forEach((g, i) => { for (let k = 0; k < counts[i]; k++) out.push(g); });
  return out;
}

/**
 * The whole face-down stack at the start, index 0 on top (turned up first).
 * @param {Uint8Array<ArrayBuffer>} key @param {number} players
 */
export async function initialStack(key, players) {
  return shuffled(key, LABEL_PLOTS, stackPlots(players));
}

/** @type {Record<string, number>} */
const SOURCE_ORDER = { setup: 0, farmstead: 1, surveyor: 2 };

/**
 * Every turn-up of plots a game makes, worked out here from the key and the record's
 * actions alone: no list from the server is read. This is the rules' plot flow and nothing
 * more (docs/fairness.md, "How the game uses it"):
 *
 * - the setup turns up `faceUp` plots (N+1, from this file's `SETUPS`) from the top;
 * - a `draw_plot` action (a staffed Farmstead) draws one plot, at that action's step;
 * - a Surveyor phase runs from a `pick_role` of the surveyor to the next `pick_role` (every
 *   action in between is the Surveyor's: a `take_plot`, `take_stone_pit`, `draw_plot` or
 *   `pass`); at its end, the step of its last action, the face-up plots nobody took
 *   (`take_plot`) go to the discard pile and `faceUp` new ones are turned up;
 * - when the stack runs out, the discard pile, in canonical order, is shuffled with label
 *   `plots-reshuffle-k` into the new stack.
 *
 * The last Surveyor phase of a record with no `pick_role` after it ended with the game
 * when the game was played to its end (`finished`); in a game ended early (a shutdown, a
 * crash) it may or may not have ended, so that turn-up is marked `open` (it is checked if
 * the record shows it, and not missed if it does not).
 *
 * Returns the turn-ups in order.
 * @param {Uint8Array<ArrayBuffer>} key
 * @param {number} players
 * @param {readonly (RecordedAction | null)[]} actions the record's
 * @param {{finished: boolean}} how
 * @returns {Promise<TurnUp[]>}
 */
export async function expectedTurnUps(key, players, actions, { finished }) {
  const { faceUp } = setupFor(players);
  let stack = await initialStack(key, players);
  /** @type {Good[]} */
  let discard = [];
  let reshuffles = 0;
  /** @type {TurnUp[]} */
  const out = [];

  /** @returns {Promise<Good | null>} null: no plot is left anywhere */
  async function draw() {
    if (!stack.length) {
      if (!discard.length) return null;
      reshuffles += 1;
      stack = await shuffled(key, reshuffleLabel(reshuffles), canonical(discard));
      discard = [];
    }
    return /** @type {Good} */ (stack.shift()); // the stack is not empty here
  }

  /** @param {number} step @param {TurnUpSource} source @param {number} count */
  async function turnUp(step, source, count, open = false) {
    const before = reshuffles;
    const goods = [];
    for (let k = 0; k < count; k++) {
      const g = await draw();
      if (g === null) break;
      goods.push(g);
    }
    out.push({ step, source, goods, reshuffled: reshuffles > before, open });
    return goods.slice(); // the face-up row, which takes shrink (not the turn-up's list)
  }

  let row = await turnUp(0, "setup", faceUp);
  let surveying = false;
  /** @type {{type?: string, role?: string, good?: Good}[]} */
  const types = actions.map((a) => (a && a.action ? a.action : {}));
  for (let i = 0; i < types.length; i++) {
    const action = types[i];
    const step = i + 1;
    if (action.type === "pick_role") surveying = action.role === "surveyor";
    if (!surveying) continue;
    if (action.type === "take_plot") {
      const at = action.good === undefined ? -1 : row.indexOf(action.good);
      if (at >= 0) row.splice(at, 1);
    } else if (action.type === "draw_plot") {
      await turnUp(step, "farmstead", 1);
    }
    const next = types[i + 1];
    const last = next === undefined;
    if ((next && next.type === "pick_role") || last) {
      discard.push(...row);
      row = await turnUp(step, "surveyor", faceUp, last && !finished);
      surveying = false;
    }
  }
  return out;
}

/** @param {readonly Good[]} a @param {readonly Good[]} b */
function sameGoods(a, b) {
  return a.length === b.length && a.every((g, i) => g === b[i]);
}

/**
 * The turn-ups a record shows against the ones worked out (`expectedTurnUps`), matched by
 * step and source in order. Returns one row per turn-up, in order: {index, step, source,
 * expected, shown, status}, where status is "ok", "changed" (other plots), "missing" (the
 * game turned it up, the record leaves it out), "extra" (the record shows a turn-up the
 * game never made) or "open" (a last turn-up that may not have happened, not shown).
 * @param {readonly TurnUp[]} expected
 * @param {readonly ShownTurnUp[]} shown
 * @returns {TurnUpRow[]}
 */
export function compareTurnUps(expected, shown) {
  /** @type {TurnUpRow[]} */
  const rows = [];
  let i = 0;
  let j = 0;
  /** @param {TurnUp | ShownTurnUp} t @returns {[number, number]} */
  const order = (t) => [t.step, SOURCE_ORDER[t.source] ?? 9];
  while (i < expected.length || j < shown.length) {
    const e = expected[i];
    const t = shown[j];
    let cmp;
    if (!e) cmp = 1;
    else if (!t) cmp = -1;
    else {
      const [a, b] = [order(e), order(t)];
      cmp = a[0] - b[0] || a[1] - b[1];
    }
    const index = rows.length;
    if (cmp === 0) {
      const goods = Array.isArray(t.goods) ? t.goods : [];
      rows.push({ index, step: e.step, source: e.source, expected: e.goods, shown: goods,
        status: sameGoods(e.goods, goods) ? "ok" : "changed", reshuffled: e.reshuffled });
      i++; j++;
    } else if (cmp < 0) {
      rows.push({ index, step: e.step, source: e.source, expected: e.goods, shown: null,
        status: e.open ? "open" : "missing", reshuffled: e.reshuffled });
      i++;
    } else {
      rows.push({ index, step: t.step, source: t.source, expected: null,
        shown: Array.isArray(t.goods) ? t.goods : [], status: "extra", reshuffled: false });
      j++;
    }
  }
  return rows;
}

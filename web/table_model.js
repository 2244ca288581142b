// @ts-check
// The table's model: what this page knows of the table and of the person at it, apart from
// any drawing. Pure (no DOM, no network, no clock of its own): the controller (table.js)
// feeds it the server's messages and the person's gestures, and the panels (view_*.js) draw
// from it. The same module runs under node in the tests (tests/web_model).
//
// It holds the view (from a snapshot and the deltas after it, patch.js), the seats, what
// is lifted (a role card or a building read before it is chosen), whether a move is on its
// way, whether Done is being asked, the seats voted on, and what the last update changed
// (`changed`: the keys of the targets and panels that show it, marked until the next one).

import { ViewKeeper } from "./patch.js";
import { eventText, seatName } from "./text.js";
import { ACTIONS, EVENTS } from "./wire.js";

/** @typedef {Record<string, any>} Action  one legal action, as on the wire (docs/protocol.md, 4) */
/** @typedef {{role: string, coins: number, picked_by: number | null}} RoleCard */
/** @typedef {{building: string, copies: number, price: number}} MarketEntry */
/** @typedef {{good: string | null, load: number, capacity: number}} Barge */
/**
 * @typedef {object} Board
 * @property {number} round
 * @property {number} warden
 * @property {string} phase
 * @property {string | null} role
 * @property {number | null} picker
 * @property {RoleCard[]} roles
 * @property {string[]} face_up
 * @property {number} stack
 * @property {number} discard
 * @property {number} stone_pits
 * @property {MarketEntry[]} market
 * @property {Barge[]} barges
 * @property {string[]} hall
 * @property {number} apprentice_barge
 * @property {number} supply_apprentices
 * @property {Record<string, number>} supply_goods
 * @property {number} seals
 * @property {string[]} [end_reasons]
 */
/** @typedef {{building: string, apprentices: number}} Owned */
/**
 * @typedef {object} Mat
 * @property {number} seat
 * @property {number} coins
 * @property {number | null} [seals]
 * @property {number | null} [score]
 * @property {number} building_points
 * @property {number} lodge
 * @property {Record<string, number>} goods
 * @property {Record<string, number>} plots
 * @property {Record<string, number>} worked
 * @property {Owned[]} buildings
 */
/**
 * @typedef {object} View
 * @property {number | null} seat
 * @property {number} players
 * @property {number} version
 * @property {Board} board
 * @property {Mat[]} mats
 * @property {number[]} deciding
 * @property {Action[]} legal
 * @property {Action[]} [takebacks]
 * @property {Record<string, any> | null} [keep]
 * @property {Record<string, any> | null} [result]
 */
/**
 * @typedef {object} SeatInfo
 * @property {number} seat
 * @property {string | null} name
 * @property {boolean} bot
 * @property {boolean} bot_playing
 * @property {boolean} connected
 * @property {{voters: number[], votes: number[], needed: number} | null} [bot_vote]
 */
/** @typedef {{seat: number, remaining: number}} Clock */
/** @typedef {{type: "role" | "building", key: string, action: Action}} Lifted */
/** @typedef {Record<string, any>} Update  an `update` message (docs/protocol.md, 3) */

/** @param {Action} a */
export const actKey = (a) => JSON.stringify(a);

export class TableModel {
  /** @param {number | null} [seat] */
  constructor(seat = null) {
    /** @type {number | null} */ this.seat = seat;
    /** @type {SeatInfo[]} */ this.seats = [];
    this.players = 0;
    /** the level of the table's bots (welcome's `bots`): shown beside each bot */
    this.bots = "normal";
    /** the table was opened with hints for everyone (welcome's `hints`) */
    this.hintsForAll = false;
    /** a rated table (welcome's and lobby's `rated`): no hints, ratings change at the end */
    this.rated = false;
    /** @type {View | null} */ this.view = null;
    /** @type {number | null} */ this.version = null;
    /** @type {Record<string, any> | null} */ this.ended = null;
    /** @type {Record<string, any> | null} */ this.lobby = null;
    /** @type {Lifted | null} */ this.lifted = null;
    /** an act of ours is on its way: no choices until its answer (`acted`, or an `error`) */
    this.pending = false;
    /** the id of the last act sent (each act's `id`: 1, 2, ... on this page) */
    this.actId = 0;
    /** the server answers acts' ids (welcome's `act_ids`; one before ids refuses them) */
    this.actIds = false;
    /** @type {number | null} the id of the act on its way, whose answer we wait for */
    this.awaiting = null;
    this.doneAsked = false;
    /** @type {Set<number>} */ this.voted = new Set();
    /** @type {number[]} the seats that committed to a client seed and did not reveal it (game_started) */
    this.withheld = [];
    /** @type {Clock[]} */ this.clocks = [];
    /** @type {Set<string>} what the last update changed, by the keys that show it */
    this.changed = new Set();
    /** @type {import("./text.js").GameEvent[]} the last update's events */
    this.lastEvents = [];
    this.keeper = new ViewKeeper();
    this.wasMine = false;
    /** @type {string | null} */ this.decisionKey = null;
    /** a replay's line for the step shown (read-only tables) */
    this.note = "";
  }

  /**
   * An update (snapshot or delta). The model moves to its view unless it does not follow
   * the one held (then `resync` asks for a snapshot, and nothing else changes).
   * @param {Update} update
   * @returns {{resync: boolean, since: number | null, drawn: boolean, before: View | null, fresh: boolean}}
   */
  takeUpdate(update) {
    const kept = this.keeper.view ? this.keeper.view.version : null;
    const held = typeof kept === "number" ? kept : null;
    const before = this.view;
    const got = this.keeper.take(update);
    if (!got.view) return { resync: got.resync, since: held, drawn: false, before, fresh: false };
    const view = /** @type {View} */ (/** @type {unknown} */ (got.view));
    if (update.seats) {
      this.seats = update.seats;
      this.voted.clear(); // the seats show our vote now (or its refusal came)
    }
    this.view = view;
    this.version = view.version;
    this.clocks = update.clocks || [];
    if (this.awaiting === null) this.pending = false; // others' updates do not answer our act
    if (this.lifted && !this.legalKeys().has(actKey(this.lifted.action))) this.lifted = null;
    this.lastEvents = update.events || [];
    // A catch-up snapshot marks nothing: everything is new to the eye anyway.
    this.changed = before && update.patch ? changedKeys(before, view, this.seat) : new Set();
    const mine = this.isMine();
    const b = view.board;
    const decision = `${b.round}|${b.phase}|${b.role}|${b.picker}`;
    // a new decision of ours: it was not ours, or the phase moved on while it stayed ours
    const fresh = mine && (!this.wasMine || decision !== this.decisionKey);
    this.decisionKey = decision;
    if (!mine || fresh) this.doneAsked = false;
    this.wasMine = mine;
    return { resync: got.resync, since: held, drawn: true, before, fresh };
  }

  /** The game ended (`game_ended`): no choices from now on. @param {Record<string, any>} m */
  end(m) {
    this.ended = m;
    this.changed = new Set();
    this.pending = false;
    this.awaiting = null;
    this.lifted = null;
    this.doneAsked = false;
  }

  /** Is a decision ours now, with something to choose? */
  isMine() {
    const v = this.view;
    return !!(v && !this.ended && this.seat !== null && v.deciding.includes(this.seat)
      && (v.legal.length || (v.takebacks || []).length));
  }

  /**
   * May we ask for a hint now? Our own decision with a choice, at a table where every
   * other seat is a bot's own chair or one opened with hints for everyone, and never at a
   * rated table (the server's rule, docs/protocol.md `hint`: it refuses anything else with
   * hints_off; this only decides whether to offer it).
   */
  hintsAllowed() {
    return this.isMine() && !!this.view && this.view.legal.length > 1
      && !this.rated && (this.hintsForAll || this.seats.every((s, i) => i === this.seat || s.bot));
  }

  /** Every action we may take now: the legal ones and the Reeve's take-backs. */
  choices() {
    const v = this.view;
    return v && !this.ended ? v.legal.concat(v.takebacks || []) : [];
  }

  legalKeys() { return new Set(this.choices().map(actKey)); }

  /** @param {(a: Action) => boolean} pred */
  legalWhere(pred) { return this.choices().filter(pred); }

  /** The action of a Done, when Done is a choice now. */
  doneAction() { return this.view && this.isMine() ? this.view.legal.find((a) => a.type === ACTIONS.DONE) || null : null; }

  /**
   * A press on a liftable card (a role card, a market building) that carries `action`.
   * @param {"role" | "building"} type
   * @param {string} key
   * @param {Action} action
   * @returns {"lifted" | "put-back" | "act" | "ignored"}  "act": the caller sends `action`
   */
  lift(type, key, action) {
    if (this.pending || this.ended) return "ignored";
    const same = this.lifted && this.lifted.type === type && this.lifted.key === key;
    if (same) {
      if (type === "role") return "act"; // a second press on a lifted role card picks it
      this.lifted = null;
      return "put-back";
    }
    this.lifted = { type, key, action };
    return "lifted";
  }

  /** @returns {string | null} the data-key of the card put back, if one was lifted */
  putBack() {
    if (!this.lifted) return null;
    const key = `${this.lifted.type === "role" ? "role" : "market"}:${this.lifted.key}`;
    this.lifted = null;
    return key;
  }

  /**
   * The id for the next act (sent as the act's `id`; `sent` takes it when it went out), or
   * null when the server takes no ids (then the next update or error opens the choices).
   */
  nextActId() { return this.actIds ? this.actId + 1 : null; }

  /** A move went out with `id`: nothing more until the server answers it. @param {number | null} id */
  sent(id) {
    if (id !== null) this.actId = id;
    this.awaiting = id;
    this.pending = true;
    this.lifted = null;
    this.doneAsked = false;
  }

  /**
   * The server applied our act `id` (`acted`, after the update that carries it): choices
   * are open again. False for an answer to an act we no longer wait for.
   * @param {unknown} id
   */
  acted(id) {
    if (id === null || id !== this.awaiting) return false;
    this.awaiting = null;
    this.pending = false;
    return true;
  }

  /**
   * The server refused something we sent (an `error`): with `id`, our act of that id, and
   * its choices are open again; without, something else (a vote: the votes sent are
   * forgotten, the seats show what stands).
   * @param {unknown} [id]
   */
  refused(id) {
    if (typeof id === "number") {
      this.acted(id);
      return;
    }
    this.voted.clear();
    if (this.awaiting === null) this.pending = false;
  }

  /** A new connection: an act still on its way has its answer in the catch-up's events. */
  reconnected() {
    this.awaiting = null;
    this.pending = false;
  }

  /**
   * The last update's moves in words, its last two ("Ada (bot) picked the Miller; …"), or
   * "" when it had none to tell.
   * @param {boolean} [withTimeouts]  also a timeout's line (the bar says a timeout apart)
   */
  lastMoves(withTimeouts = true) {
    return this.lastEvents.filter((e) => withTimeouts || e.type !== EVENTS.TIMED_OUT)
      .map((e) => eventText(e, this.seats, this.seat)).filter(Boolean).slice(-2).join("; ");
  }

  /** Who is deciding, as the decision bar says it. */
  whoText() {
    const deciding = (this.view && this.view.deciding) || [];
    if (!deciding.length) return "";
    if (this.seat !== null && deciding.includes(this.seat)) {
      const others = deciding.length - 1;
      return others > 0 ? `You (and ${others} other${others === 1 ? "" : "s"})` : "You";
    }
    return deciding.map((s) => seatName(this.seats, s, this.seat)).join(", ");
  }

  /**
   * The clock to show: ours when it runs, else the first running one, with the seconds
   * left `elapsed` seconds after the update that brought it.
   * @param {number} elapsed
   * @returns {{seat: number, left: number} | null}
   */
  clock(elapsed) {
    const c = this.clocks.find((x) => x.seat === this.seat) || this.clocks[0];
    return c ? { seat: c.seat, left: Math.max(0, c.remaining - elapsed) } : null;
  }
}

/**
 * What changed between two views, by the keys of what shows it (the data-key of a role
 * card, a plot, a barge, a market building, a tile of your mat, another player's panel).
 * @param {View} a
 * @param {View} b
 * @param {number | null} mySeat
 * @returns {Set<string>}
 */
export function changedKeys(a, b, mySeat) {
  /** @type {Set<string>} */
  const out = new Set();
  const same = (/** @type {unknown} */ x, /** @type {unknown} */ y) => JSON.stringify(x) === JSON.stringify(y);
  const ba = a.board;
  const bb = b.board;
  bb.roles.forEach((r, i) => { if (!same(r, ba.roles[i])) out.add(`role:${r.role}`); });
  if (!same(ba.face_up, bb.face_up)) bb.face_up.forEach((g, i) => { if (g !== ba.face_up[i]) out.add(`plot:${i}`); });
  if (ba.stone_pits !== bb.stone_pits) out.add("stonepit");
  if (ba.stack !== bb.stack) out.add("stack");
  bb.barges.forEach((bg, i) => { if (!same(bg, ba.barges[i])) out.add(`barge:${i}`); });
  if (!same(ba.hall, bb.hall)) out.add("hall");
  bb.market.forEach((m, i) => { if (!same(m, ba.market[i])) out.add(`market:${m.building}`); });
  if (ba.apprentice_barge !== bb.apprentice_barge || ba.supply_apprentices !== bb.supply_apprentices) {
    out.add("apprentice-barge");
  }
  for (const m of b.mats) {
    const was = a.mats.find((x) => x.seat === m.seat);
    if (!was) continue;
    if (m.seat === mySeat) {
      for (const k of Object.keys(m.plots)) {
        if (m.plots[k] !== was.plots[k] || m.worked[k] !== was.worked[k]) out.add(`holding:${k}`);
      }
      for (const bv of m.buildings) {
        const old = was.buildings.find((x) => x.building === bv.building);
        if (!old || old.apprentices !== bv.apprentices) out.add(`street:${bv.building}`);
      }
      if (m.coins !== was.coins || !same(m.goods, was.goods) || m.lodge !== was.lodge
        || m.seals !== was.seals || m.building_points !== was.building_points) out.add("my-stats");
    } else if (!same(m, was)) {
      out.add(`seat:${m.seat}`);
    }
  }
  return out;
}

// @ts-check
// Words for things: names from the rules catalogue, action labels, the game log.

/** @typedef {import("./table_model.js").View} View */
/** @typedef {import("./table_model.js").Board} Board */
/** @typedef {import("./table_model.js").Action} Action */
/**
 * A seat as far as its name goes: a `seats` entry (SeatInfo), or a game's seat from
 * /api/games/<id> (no bot_playing there).
 * @typedef {{seat: number, name: string | null, bot?: boolean, bot_playing?: boolean}} NamedSeat
 */
/**
 * One event of an update (docs/protocol.md, 3 and 5): the rules' events and the table's
 * own `timed_out`. `goods` of goods_made and goods_returned counts per good (GOODS' order).
 * @typedef {{type: "role_picked", seat: number, role: string, coins: number}
 *   | {type: "plot_taken", seat: number, kind: string, from_stack: boolean, with_apprentice: boolean}
 *   | {type: "plots_turned_up", goods: string[], discarded: number, reshuffled: boolean}
 *   | {type: "apprentices_arrived", seat: number, count: number, from_barge: boolean}
 *   | {type: "apprentices_arranged", seat: number}
 *   | {type: "apprentice_barge_refilled", count: number}
 *   | {type: "built", seat: number, building: string, price: number, with_apprentice: boolean}
 *   | {type: "goods_made", seat: number, goods: number[]}
 *   | {type: "extra_good_taken", seat: number, good: string}
 *   | {type: "manufactory_paid", seat: number, coins: number}
 *   | {type: "sold", seat: number, good: string, coins: number}
 *   | {type: "market_hall_emptied", goods: string[]}
 *   | {type: "loaded", seat: number, good: string, count: number, barge: number}
 *   | {type: "barge_emptied", barge: number, good: string, count: number}
 *   | {type: "goods_returned", seat: number, goods: number[]}
 *   | {type: "coin_taken", seat: number}
 *   | {type: "passed", seat: number, role: string}
 *   | {type: "end_triggered", reason: string}
 *   | {type: "round_ended", round: number, next_warden: number}
 *   | {type: "game_ended", reasons: string[], winners: number[]}
 *   | {type: "timed_out", seat: number, actions: Action[]}} GameEvent
 */
/** @typedef {{key: string, name: string, text: string}} RoleInfo */
/** @typedef {{key: string, price: number, text?: string}} GoodInfo */
/** @typedef {{key: string, text: string}} PlotInfo */
/**
 * @typedef {object} BuildingInfo  a building of the catalogue
 * @property {string} key
 * @property {string} name
 * @property {string} text
 * @property {number} cost
 * @property {number} points
 * @property {number} slots
 * @property {number} spaces
 * @property {string} [category]
 * @property {string | null} [good]
 * @property {string | null} [role]
 */
/**
 * A key not (yet) in the catalogue: a name made of it, and none of a listed one's facts.
 * @typedef {{key: string, name: string, text: string, cost?: undefined, points?: undefined,
 *   slots?: undefined, spaces?: undefined, category?: undefined, good?: undefined}} UnlistedBuilding
 */
/**
 * The rules catalogue, GET /api/rules (docs/protocol.md, 1); empty lists until it loads.
 * @typedef {object} Catalogue
 * @property {RoleInfo[]} roles
 * @property {BuildingInfo[]} buildings
 * @property {GoodInfo[]} goods
 * @property {PlotInfo[]} [plots]
 * @property {Record<string, number>} [limits]
 * @property {Record<string, number>} [amounts]
 */

export const GOODS = ["clay", "flax", "wool", "honey", "amber"];
export const PLOT_KINDS = [...GOODS, "stone_pit"];
/** @type {Record<string, string>} */
export const LETTER = { clay: "C", flax: "F", wool: "W", honey: "H", amber: "A", stone_pit: "S" };

/** @type {Catalogue} */
let catalogue = { roles: [], buildings: [], goods: [] };
/** @type {Map<string, RoleInfo>} */
const roleByKey = new Map();
/** @type {Map<string, BuildingInfo>} */
const buildingByKey = new Map();

/** @param {Catalogue} cat */
export function setCatalogue(cat) {
  catalogue = cat;
  for (const r of cat.roles || []) roleByKey.set(r.key, r);
  for (const b of cat.buildings || []) buildingByKey.set(b.key, b);
}

export function getCatalogue() { return catalogue; }

/** A limit of the rules from the catalogue ("holding_spaces", "high_street_spaces",
 * "market_hall_spaces", ...), or undefined before it has loaded.
 * @param {string} key @returns {number | undefined} */
export const limit = (key) => (catalogue.limits || {})[key];

/** @param {string} key */
function titleCase(key) {
  return String(key).split("_").map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join(" ");
}

/** @param {string} key */
export const roleName = (key) => roleByKey.get(key)?.name || titleCase(key);
/** @param {string} key */
export const roleText = (key) => roleByKey.get(key)?.text || "";
/** @param {string} key @returns {BuildingInfo | UnlistedBuilding} */
export const building = (key) => buildingByKey.get(key) || { key, name: titleCase(key), text: "" };
/** @param {string} key */
export const buildingName = (key) => building(key).name;
/** @param {string} kind */
export const kindName = (kind) => (kind === "stone_pit" ? "stone pit" : kind);

/**
 * A seat's own name, or "Seat N" when it has none: the one home of that default in the
 * client (the server's is ``rules.record.seat_label``).
 * @param {string | null | undefined} name @param {number} index the seat, from 0
 */
export const nameOrSeat = (name, index) => name || `Seat ${index + 1}`;

/**
 * A seat's display name: "You", "Ada", "Bede (bot)", "Cy (bot playing)".
 * @param {NamedSeat[] | null | undefined} seats
 * @param {number | null | undefined} seat
 * @param {number | null | undefined} mySeat
 */
export function seatName(seats, seat, mySeat) {
  if (seat === null || seat === undefined) return "—";
  const s = (seats || []).find((x) => x.seat === seat);
  let name = nameOrSeat(s && s.name, seat);
  if (s && s.bot && !/\(bot\)/.test(name)) name += " (bot)";
  if (s && s.bot_playing && !s.bot) name += " (bot playing)";
  if (seat === mySeat) return `You (${name})`;
  return name;
}

/** The label of a legal action on its button. @param {Action} a @param {View | null} view */
export function actionLabel(a, view) {
  const me = view && view.seat !== null ? view.mats[view.seat] : null;
  switch (a.type) {
    case "pick_role": {
      const r = view && view.board.roles.find((x) => x.role === a.role);
      const coins = r && r.coins ? ` (+${r.coins} coin${r.coins === 1 ? "" : "s"})` : "";
      return `Pick the ${roleName(a.role)}${coins}`;
    }
    case "take_plot": return `Take a ${a.good} plot`;
    case "take_stone_pit": return "Take a stone pit";
    case "draw_plot": return "Draw a plot from the stack";
    case "place_on_plot": return `Apprentice onto ${kindName(a.kind)}`;
    case "place_on_building": return `Apprentice onto ${buildingName(a.building)}`;
    case "take_back_from_plot": return `Take back from ${kindName(a.kind)}`;
    case "take_back_from_building": return `Take back from ${buildingName(a.building)}`;
    case "build": {
      const m = view && view.board.market.find((x) => x.building === a.building);
      return `Build ${buildingName(a.building)}${m ? ` for ${m.price}` : ""}`;
    }
    case "take_extra_good": return `Take 1 more ${a.good}`;
    case "sell": return `Sell 1 ${a.good}`;
    case "load": {
      let count = "";
      if (me && view) {
        const b = view.board.barges[a.barge];
        const n = Math.min(me.goods[a.good] || 0, b ? b.capacity - b.load : 0);
        if (n > 0) count = `${n} `;
      }
      return `Load ${count}${a.good} on barge ${a.barge + 1}`;
    }
    case "ship_on_boatyard": return `Ship all ${a.good} on your boat`;
    case "store_goods": return `Store all ${a.good}`;
    case "keep_good": return `Keep 1 ${a.good}`;
    case "done": return "Done";
    case "pass": return "Pass";
    default: return titleCase(a.type);
  }
}

/** What is being decided, in words. @param {Board} board */
export function phaseText(board) {
  switch (board.phase) {
    case "pick_role": return "picking a role";
    case "surveyor": return "Surveyor: taking a plot";
    case "reeve": return "Reeve: placing apprentices";
    case "mason": return "Mason: building";
    case "miller": return "Miller: taking the extra good";
    case "chandler": return "Chandler: selling a good";
    case "bargemaster": return "Bargemaster: loading the barges";
    case "keep_goods": return "choosing the goods to keep";
    case "game_over": return "the game is over";
    default: return board.phase.replace(/_/g, " ");
  }
}

/** @param {number[]} counts */
function goodsList(counts) {
  /** @type {string[]} */
  const parts = [];
  counts.forEach((n, i) => { if (n) parts.push(`${n} ${GOODS[i]}`); });
  return parts.length ? parts.join(", ") : "nothing";
}

/** @param {number} n @param {string} w */
const plural = (n, w) => `${n} ${w}${n === 1 ? "" : "s"}`;

/** @type {Record<string, string>} */
const END_REASONS = {
  seals: "the seals ran out",
  apprentices: "the apprentice barge could not be filled",
  high_street: "a high street is full",
};
/** @param {string} r */
export const endReasonText = (r) => END_REASONS[r] || r;

/**
 * One game-log line for an event, or null to skip it.
 * @param {GameEvent} e
 * @param {NamedSeat[] | null | undefined} seats
 * @param {number | null | undefined} mySeat
 * @returns {string | null}
 */
export function eventText(e, seats, mySeat) {
  const who = "seat" in e ? seatName(seats, e.seat, mySeat) : "";
  switch (e.type) {
    case "role_picked":
      return `${who} picked the ${roleName(e.role)}${e.coins ? ` and took ${plural(e.coins, "coin")}` : ""}`;
    case "plot_taken":
      return `${who} ${e.from_stack ? "drew" : "took"} a ${kindName(e.kind)}${e.kind === "stone_pit" ? "" : " plot"}${e.with_apprentice ? " with an apprentice" : ""}`;
    case "plots_turned_up":
      return `New plots turned up: ${e.goods.join(", ") || "none"}${e.reshuffled ? " (stack reshuffled)" : ""}`;
    case "apprentices_arrived":
      return `${who} got ${plural(e.count, "apprentice")}${e.from_barge ? " from the barge" : ""}`;
    case "apprentices_arranged": return `${who} arranged their apprentices`;
    case "apprentice_barge_refilled": return e.count ? `The apprentice barge was refilled with ${e.count}` : null;
    case "timed_out": return `${who} ran out of time: the table played ${timeoutMoves(e.actions || [], e.seat === mySeat)}`;
    case "built":
      return `${who} built the ${buildingName(e.building)} for ${plural(e.price, "coin")}${e.with_apprentice ? " with an apprentice" : ""}`;
    case "goods_made": return `${who} made ${goodsList(e.goods)}`;
    case "extra_good_taken": return `${who} took 1 more ${e.good}`;
    case "manufactory_paid": return `${who}'s manufactory paid ${plural(e.coins, "coin")}`;
    case "sold": return `${who} sold ${e.good} for ${plural(e.coins, "coin")}`;
    case "market_hall_emptied": return "The market hall was emptied";
    case "loaded":
      return `${who} loaded ${e.count} ${e.good} ${e.barge < 0 ? "on their own boat" : `on barge ${e.barge + 1}`}`;
    case "barge_emptied": return `Barge ${e.barge + 1} went back with ${e.count} ${e.good}`;
    case "goods_returned": return `${who} gave back ${goodsList(e.goods)}`;
    case "coin_taken": return `${who} took 1 coin`;
    case "passed": return `${who} passed (${roleName(e.role)})`;
    case "end_triggered": return `The game will end this round: ${endReasonText(e.reason)}`;
    case "round_ended":
      return `Round ${e.round} ended; ${seatName(seats, e.next_warden, mySeat)} is the Warden`;
    case "game_ended": {
      const w = (e.winners || []).map((s) => seatName(seats, s, mySeat)).join(" and ");
      return `The game ended. Winner: ${w}`;
    }
    default: return /** @type {{type: string}} */ (e).type.replace(/_/g, " "); // a newer server's
  }
}

/** What a timeout played, in plain words ("no plot taken; nothing spent").
 * @param {Action[]} actions @param {boolean} yours */
export function timeoutMoves(actions, yours) {
  const parts = actions.map((a) => {
    switch (a.type) {
      case "pass": return "a pass (nothing taken, nothing spent)";
      case "done": return "Done (the apprentices stay where they are)";
      case "pick_role": return `the ${roleName(a.role)}`;
      default: return actionLabel(a, null).replace(/^./, (c) => c.toLowerCase());
    }
  });
  const said = parts.length ? parts.join(", then ") : "nothing";
  return yours ? `${said} for you` : said;
}

/**
 * What a plot (or stone pit) does, for its tooltip. The words come from the rules data the
 * server gives (/api/rules): its own text when it has one, else the price the market hall
 * pays and the workshops the catalogue lists for that good.
 * @param {string} kind
 */
export function plotText(kind) {
  const given = [...(catalogue.plots || []), ...(catalogue.goods || [])].find((x) => x.key === kind);
  if (given && given.text) return given.text;
  // Before the catalogue has loaded: put a sentence together from what is known.
  const shops = (catalogue.buildings || []).filter((b) => b.good === kind).map((b) => b.name);
  const good = (catalogue.goods || []).find((g) => g.key === kind);
  const works = shops.length
    ? `Works with an apprentice on it; with a staffed ${shops.join(" or ")} it makes ${kind} for the Miller.`
    : `Works with an apprentice on it and makes ${kind} for the Miller; ${kind} needs only its plot.`;
  const pays = good ? ` The market hall pays ${good.price} coin${good.price === 1 ? "" : "s"} for ${kind}.` : "";
  return works + pays;
}

/** A building's facts for its tooltip title: "Cellar — 3 coins, 1 building point, 1 slot".
 * @param {string} key */
export function buildingFacts(key) {
  const b = building(key);
  if (b.cost === undefined) return b.name;
  const slots = b.slots === 1 ? "1 slot" : `${b.slots} slots`;
  const large = b.spaces === 2 ? ", 2 spaces" : "";
  return `${b.name} — ${plural(b.cost, "coin")}, ${plural(b.points, "building point")}, ${slots}${large}`;
}

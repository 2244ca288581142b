// @ts-check
// Motion that explains: goods flying from a player to a barge or the market hall, coins
// from a role card or the hall to a player and onto role cards at the end of a round,
// apprentices arriving from the barge. Decorative only: the table is already drawn in its
// new state when a flight starts, each flight is an overlay that takes no input
// (pointer-events: none, aria-hidden) and is gone within 400 ms, and nothing at all moves
// under prefers-reduced-motion.
//
// A flight goes from one element's centre to another's (both must be in view: a section
// hidden on a phone has no box, and its flights are skipped). Web Animations API, CSS
// transforms only; the flyers' look is in style.css (.flyer).

import { h } from "./dom.js";
import { LETTER } from "./text.js";

/** @typedef {import("./text.js").GameEvent} GameEvent */
/** @typedef {import("./table_model.js").View} View */
/**
 * One thing flying: from an element (none: a coin dropped onto a role card) to another.
 * @typedef {{kind: "good" | "coin" | "apprentice", good?: string, from: Element | null,
 *   to: Element | null, toKey: string}} Flight
 */

export const MOTION_MS = 400; // a flight's delay and duration together, at most
const FLY_MS = 300;
const MAX_FLIGHTS = 12;
const PER_EVENT = 3; // "3 clay loaded" flies three chips, "7 coins" three coins

export function reducedMotion() {
  return window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

/** @param {ParentNode} root @param {number} seat @param {number | null} mySeat */
function seatPlace(root, seat, mySeat) {
  if (seat === mySeat && seat !== null) return root.querySelector("#mat .stats") || root.querySelector("#mat");
  return root.querySelector(`#others .other[data-seat="${seat}"] h3`);
}

/** @param {ParentNode} root @param {string} key */
const place = (root, key) => root.querySelector(`[data-key="${CSS.escape(key)}"]`);

/**
 * What the events of one step (or update) show moving, as [{kind, good, from, to, toKey}].
 * @param {ParentNode} root
 * @param {GameEvent[]} events
 * @param {View | null} before
 * @param {View | null} after
 * @param {number | null} mySeat
 */
function flights(root, events, before, after, mySeat) {
  /** @type {Flight[]} */
  const out = [];
  /**
   * @param {Flight["kind"]} kind @param {Element | null} from @param {Element | null} to
   * @param {string} toKey @param {number} count @param {string} [good]
   */
  const add = (kind, from, to, toKey, count, good) => {
    for (let i = 0; i < Math.min(PER_EVENT, Math.max(1, count)); i++) out.push({ kind, good, from, to, toKey });
  };
  /** @param {number} s */
  const seat = (s) => seatPlace(root, s, mySeat);
  for (const e of events) {
    switch (e.type) {
      case "loaded":
        if (e.barge >= 0) add("good", seat(e.seat), place(root, `barge:${e.barge}`), `barge:${e.barge}`, e.count, e.good);
        break;
      case "sold":
        add("good", seat(e.seat), root.querySelector(".hall"), "hall", 1, e.good);
        if (e.coins > 0) add("coin", root.querySelector(".hall"), seat(e.seat), `seat:${e.seat}`, e.coins);
        break;
      case "role_picked":
        if (e.coins > 0) add("coin", place(root, `role:${e.role}`), seat(e.seat), `seat:${e.seat}`, e.coins);
        break;
      case "coin_taken":
        add("coin", root.querySelector("#roles"), seat(e.seat), `seat:${e.seat}`, 1);
        break;
      case "apprentices_arrived":
        if (e.count > 0) {
          add("apprentice", place(root, "apprentice-barge"), seat(e.seat), `seat:${e.seat}`, e.count);
        }
        break;
      default:
        break;
    }
  }
  // the round's end puts a coin on every role card nobody picked
  if (before && after && events.some((e) => e.type === "round_ended")) {
    const had = new Map(before.board.roles.map((r) => [r.role, r.coins]));
    for (const r of after.board.roles) {
      if (r.coins > (had.get(r.role) ?? r.coins)) {
        const card = place(root, `role:${r.role}`);
        add("coin", null, card, `role:${r.role}`, 1);
      }
    }
  }
  return out.filter(/** @returns {f is Flight & {to: Element}} */ (f) => !!(f.to && (f.from || f.kind === "coin")));
}

/** @param {Element} el */
function centre(el) {
  const r = el.getBoundingClientRect();
  return r.width && r.height ? { x: r.left + r.width / 2, y: r.top + r.height / 2 } : null;
}

/** @param {Flight} f */
function flyer(f) {
  const attrs = { class: `flyer flyer-${f.kind}`, "aria-hidden": "true", "data-motion": f.kind, "data-to": f.toKey };
  const el = f.kind === "good"
    ? h("span", { ...attrs, class: `${attrs.class} good good-${f.good}` }, h("b", {}, LETTER[f.good ?? ""] || ""))
    : h("span", attrs);
  return el;
}

/**
 * Play the flights of one step: events of the update that led from `before` to `after`
 * (both views), drawn under `root` as `mySeat` sees it. Returns how many flights started
 * (0 under reduced motion).
 * @param {Element} root
 * @param {GameEvent[] | null | undefined} events
 * @param {View | null} before
 * @param {View | null} after
 * @param {number | null} mySeat
 * @returns {number}
 */
export function playMotion(root, events, before, after, mySeat) {
  if (reducedMotion() || !events || !events.length || !root.isConnected) return 0;
  let started = 0;
  const list = flights(root, events, before, after, mySeat).slice(0, MAX_FLIGHTS);
  list.forEach((f, i) => {
    const to = centre(f.to);
    // a coin dropped onto a role card falls from just above it
    const from = f.from ? centre(f.from) : to && { x: to.x, y: to.y - 36 };
    if (!to || !from) return;
    const el = flyer(f);
    el.style.left = `${from.x}px`;
    el.style.top = `${from.y}px`;
    document.body.append(el);
    const delay = Math.min(i * 25, MOTION_MS - FLY_MS);
    const dx = to.x - from.x;
    const dy = to.y - from.y;
    const anim = el.animate([
      { transform: "translate(-50%, -50%) scale(1)", opacity: 1 },
      { transform: `translate(calc(${dx}px - 50%), calc(${dy}px - 50%)) scale(.8)`, opacity: 0.85 },
    ], { duration: FLY_MS, delay, easing: "cubic-bezier(.3, .7, .4, 1)", fill: "backwards" });
    const done = () => el.remove();
    anim.finished.then(done, done);
    setTimeout(done, MOTION_MS + 100); // whatever happens to the animation
    started += 1;
  });
  return started;
}

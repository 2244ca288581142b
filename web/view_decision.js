// @ts-check
// The decision bar: whose decision it is, what is being decided, the time left, and, when
// it is yours, what you can do (a lifted card's text with its button, the choices that are
// not on the board, the Reeve's take-backs, Done). Drawn in place (vdom.js).

import { v, patch } from "./vdom.js";
import { actKey } from "./table_model.js";
import { target } from "./widgets.js";
import {
  actionLabel, phaseText, seatName, roleName, roleText, building, buildingFacts, kindName, buildingName,
  endReasonText, getCatalogue,
} from "./text.js";
import { botVotes } from "./botvote.js";
import { doneConfirm } from "./shortcuts.js";
import { ACTIONS, PHASES } from "./wire.js";

/** @typedef {import("./widgets.js").Draw} Draw */
/** @typedef {import("./table_model.js").Action} Action */
/** @typedef {import("./table_model.js").Lifted} Lifted */
/** @typedef {import("./vdom.js").VKid} VKid */

/**
 * What the bar's buttons do.
 * @typedef {object} BarActions
 * @property {(a: Action) => void} act
 * @property {() => void} putBack
 * @property {(on: boolean) => void} askDone
 * @property {() => void} confirmDone
 * @property {() => void} jump
 * @property {(seat: number) => void} voteBot
 * @property {() => void} explain
 */

export const URGENT = 10;

/** What to do now, in a few words, by phase (a hint, not a rule): pointer, finger or keys alike. */
const PROMPTS = /** @type {Record<string, string>} */ ({
  [PHASES.PICK_ROLE]: "Lift a lit role card to read it, then pick it.",
  [PHASES.SURVEYOR]: "Choose a lit plot to take it.",
  [PHASES.REEVE]: "Choose a lit plot or building on your mat to put an apprentice on it.",
  [PHASES.MASON]: "Lift a lit building in the market to read it, then build it.",
  [PHASES.MILLER]: "Choose the extra good.",
  [PHASES.CHANDLER]: "Choose a good to sell.",
  [PHASES.BARGEMASTER]: "Choose a lit barge to load it, or choose below.",
  [PHASES.KEEP_GOODS]: "Choose the goods to keep, on your mat.",
});

/**
 * The clock's text and whether it is urgent, `elapsed` seconds after the last update.
 * @param {Draw} d
 * @param {number} elapsed
 */
export function clockText(d, elapsed) {
  const m = d.model;
  const c = m.ended ? null : m.clock(elapsed);
  if (!c) return { text: "", urgent: false, left: 0, mine: false };
  const secs = Math.ceil(c.left);
  const mm = Math.floor(secs / 60);
  const ss = String(secs % 60).padStart(2, "0");
  const whose = c.seat === m.seat ? "" : `${seatName(m.seats, c.seat, m.seat)}: `;
  return { text: `${whose}${mm}:${ss} left`, urgent: c.left <= URGENT, left: c.left, mine: c.seat === m.seat };
}

/**
 * @param {Draw} d
 * @param {HTMLElement} el
 * @param {{actions: BarActions, elapsed: number, meta: VKid[], notice: string | null, help: VKid, keep: VKid}} parts
 */
export function drawDecision(d, el, parts) {
  const m = d.model;
  const view = m.view;
  if (!view) return;
  const mine = m.isMine();
  el.classList.toggle("mine", mine);
  el.hidden = !!m.ended; // the end screen takes its place
  if (m.ended) return;
  const board = view.board;
  el.dataset.phase = board.phase;
  const picker = board.role ? seatName(m.seats, board.picker, m.seat) : "";
  const clock = clockText(d, parts.elapsed);
  const head = v("div", { class: "decision-head" },
    v("p", { class: "what" },
      v("strong", { id: "whose" }, m.whoText() || "Nobody"),
      mine ? ": your decision — " : " deciding: ", phaseText(board)),
    v("div", { class: "meta" },
      v("span", { id: "clock", class: `clock${clock.urgent ? " urgent" : ""}`, role: "timer", "aria-label": "Time left" }, clock.text),
      v("span", { class: "round" }, `Round ${board.round}`,
        board.role ? v("span", { class: "round-detail" }, ` — ${roleName(board.role)} picked by ${picker}`) : null),
      parts.meta));
  const reasons = board.end_reasons || [];
  const last = reasons.length
    ? v("p", { class: "last-round", id: "last-round" }, v("strong", {}, "Last round"),
      ` — ${reasons.map(endReasonText).join(" and ")}: the game ends when this round does.`)
    : null;
  /** @type {VKid} */
  let doing;
  // "Last round" heads the bar's lower part, which keeps one height on a desktop
  if (mine) doing = yourChoices(d, parts.actions, parts.keep, last);
  else if (d.readOnly) doing = v("div", { class: "doing" }, last, v("p", { class: "hint prompt", id: "step-action" }, m.note || ""));
  else {
    const moved = m.lastMoves(false);
    doing = v("div", { class: "doing" }, last,
      v("p", { class: "hint" }, m.seat === null ? "You are watching this table." : "Waiting for the others…"),
      moved ? v("p", { class: "hint last-move", id: "last-move" }, moved) : null);
  }
  patch(el, [head, botVotes(m.seats, m.seat, parts.actions.voteBot, m.voted),
    parts.notice ? v("p", { class: "notice", id: "notice", role: "status" }, parts.notice) : null,
    parts.help, doing]);
}

/**
 * @param {Draw} d
 * @param {BarActions} on
 * @param {VKid} keep  the keep-goods choice, when the bar holds it
 * @param {VKid} last  the "Last round" line
 */
function yourChoices(d, on, keep, last) {
  const m = d.model;
  const view = /** @type {NonNullable<typeof m.view>} */ (m.view);
  const phase = view.board.phase;
  /** @type {VKid[]} */
  const out = [last];
  const done = m.doneAction();
  if (m.doneAsked && done) out.push(doneConfirm(on.confirmDone, () => on.askDone(false)));
  else if (m.lifted) out.push(liftPanel(d, m.lifted, on));
  else if (keep) out.push(keep);
  else if (PROMPTS[phase]) out.push(v("p", { class: "hint prompt" }, PROMPTS[phase]));
  if (d.targets.size && !m.lifted) {
    out.push(v("button", { type: "button", class: "goto quiet", id: "jump-lit", "data-key": "jump-lit",
      "aria-keyshortcuts": "J", "data-shortcut": "jump", onclick: on.jump }, "Jump to lit",
    v("kbd", { "aria-hidden": "true" }, "J")));
  }
  const onBoard = new Set([...d.targets.values()].map((t) => (t.action ? actKey(t.action) : "")));
  const rest = view.legal.filter((a) => !onBoard.has(actKey(a)));
  const backs = (view.takebacks || []).filter((a) => !onBoard.has(actKey(a)));
  if (rest.length) {
    out.push(v("div", { class: "actions", id: "actions", role: "group", "aria-label": "Your choices" },
      rest.map((a) => actButton(d, a, `act${a.type === ACTIONS.PASS || a.type === ACTIONS.DONE ? " quiet" : ""}`, on, actionLabel(a, view)))));
  }
  if (backs.length) { // in the same row as Done: the bar keeps its height through the Reeve
    out.push(v("div", { class: "actions takebacks", role: "group", "aria-label": "Take an apprentice back to the lodge" },
      v("span", { class: "label", "aria-hidden": "true" }, "Take back from:"),
      backs.map((a) => actButton(d, a, "act takeback", on,
        a.type === ACTIONS.TAKE_BACK_FROM_PLOT ? kindName(a.kind) : buildingName(a.building), actionLabel(a, view)))));
  }
  if (m.pending) out.push(v("p", { class: "hint", role: "status" }, "Sent…"));
  return v("div", { class: "doing" }, out);
}

/**
 * A choice in the bar; `label` is what it says, `name` its accessible name when that differs.
 * @param {Draw} d
 * @param {Action} a
 * @param {string} cls
 * @param {BarActions} on
 * @param {string} label
 * @param {string} [name]
 */
function actButton(d, a, cls, on, label, name) {
  return v("button", {
    type: "button", class: cls, "data-act": "1", "data-type": a.type, "data-key": `act:${actKey(a)}`,
    "aria-label": name || null, "aria-disabled": d.model.pending ? "true" : null, onclick: () => on.act(a),
  }, label);
}

/**
 * A lifted card's text with its button (Pick / Build) and Put back.
 * @param {Draw} d
 * @param {Lifted} lifted
 * @param {BarActions} on
 */
function liftPanel(d, lifted, on) {
  const a = lifted.action;
  const isRole = lifted.type === "role";
  const name = isRole ? roleName(lifted.key) : buildingFacts(lifted.key);
  const text = isRole ? roleText(lifted.key) : building(lifted.key).text;
  return v("div", { id: "lift-panel", class: "lift-panel", role: "region", "aria-label": "Lifted" },
    v("p", { class: "lift-text", tabindex: "0" }, v("strong", {}, name), " ", text),
    v("div", { class: "lift-buttons" },
      v("button", {
        type: "button", id: "confirm", class: "primary", "data-act": "1", "data-type": a.type,
        "data-key": "confirm", "aria-disabled": d.model.pending ? "true" : null, onclick: () => on.act(a),
      }, actionLabel(a, d.model.view)),
      v("button", { type: "button", id: "put-back", class: "quiet", "aria-keyshortcuts": "Escape",
        onclick: on.putBack }, "Put back", v("kbd", { "aria-hidden": "true" }, "Esc"))));
}


/**
 * The keep-goods choice, drawn on your mat beside your goods: what you may keep, each
 * choice, and what Done would throw away now.
 * @param {Draw} d
 * @param {boolean} inBar  drawn in the decision bar (a desktop): its choices are the bar's
 */
export function keepPanel(d, inBar) {
  const m = d.model;
  const view = m.view;
  if (!view || !view.keep || !m.isMine() || view.board.phase !== PHASES.KEEP_GOODS) return null;
  const keep = view.keep;
  const choices = m.legalWhere((a) => a.type === ACTIONS.KEEP_GOOD || a.type === ACTIONS.STORE_GOODS || a.type === ACTIONS.DONE);
  const stored = (keep.stored || []).join(", ") || "none";
  const discards = keep.discards && typeof keep.discards === "object"
    ? Object.entries(keep.discards).filter(([, n]) => Number(n) > 0).map(([g, n]) => `${n} ${g}`) : null;
  return v("div", { class: "keep-panel", id: "keep-panel", role: "group", "aria-label": "Goods to keep", "data-key": "keep-panel" },
    v("p", { class: "keep-rule" }, keepRule(keep)),
    v("p", { class: "keep-so-far" }, `Kept so far: ${keep.kept || "none"}; stored: ${stored}.`),
    v("div", { class: "keep-choices actions", id: inBar ? "actions" : "keep-choices", role: "group", "aria-label": "Your choices" }, choices.map((a) => target(d, a, a.type === ACTIONS.DONE ? "keep-opt keep-done" : "keep-opt",
      { "data-key": `keep:${actKey(a)}` },
      [a.type === ACTIONS.DONE ? `Done${discards ? ` — gives back ${discards.join(", ") || "nothing"}` : ""}` : actionLabel(a, view)]))));
}

/**
 * What may be kept, in words from the view's numbers: "You may keep 1 good of one kind,
 * and every good of 1 kind in your Cellar; the rest goes back to the supply."
 * @param {Record<string, any>} keep
 */
function keepRule(keep) {
  const cat = /** @type {{amounts?: Record<string, number>}} */ (getCatalogue());
  const amounts = cat.amounts || {};
  const kept = amounts.kept_goods ?? 1;
  const kinds = Number(keep.storage) || 0;
  /** @type {string[]} */
  const where = Array.isArray(keep.storage_buildings) ? keep.storage_buildings.map((b) => buildingName(b)) : [];
  const store = kinds
    ? `, and every good of ${kinds} kind${kinds === 1 ? "" : "s"} in your ${where.join(" and ") || "storage"}`
    : "";
  return `You may keep ${kept} good${kept === 1 ? "" : "s"} of one kind${store}; the rest goes back to the supply.`;
}

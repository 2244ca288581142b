// @ts-check
// Before the start: the invite (with a Copy button), the chairs, who is watching, and
// either Start (the host), "Waiting for Ada to start" (another seated player) or the form
// to join; once the start has fixed every commitment, the reveal: the commitments per
// seat and how many reveals the deal waits for. Drawn in place (vdom.js), so a name half
// typed survives someone joining.

import { v, patch } from "./vdom.js";
import { seatName } from "./text.js";

/** @typedef {import("./widgets.js").Draw} Draw */

/**
 * @typedef {object} PreParts
 * @property {string} tableId
 * @property {boolean} seated  this page holds a seat's token
 * @property {string} name  the name to offer in the join form
 * @property {{count: number, names: string[]} | null} watchers
 * @property {boolean} busy  a start or a join is on its way
 * @property {() => void} start
 * @property {(ev: Event) => void} join
 * @property {() => void} copyInvite
 * @property {string} copied  what the Copy button last said ("" before)
 * @property {Reveal | null} reveal  the start has fixed the commitments (null: not yet)
 */
/**
 * The reveal, between the start and the deal: the commitments the start listed per seat,
 * when it closes (performance.now() ms), and our own seed's state.
 * @typedef {object} Reveal
 * @property {(string | null)[]} commitments
 * @property {number} closes
 * @property {"none" | "revealing" | "revealed" | "refused" | "failed"} mine
 * @property {string} note  what went wrong with ours ("" when nothing)
 */

/**
 * @param {Draw} d
 * @param {HTMLElement} el
 * @param {PreParts} p
 */
export function drawPre(d, el, p) {
  const m = d.model;
  if (p.reveal) {
    drawReveal(d, el, p, p.reveal);
    return;
  }
  const lobby = m.lobby || {};
  const invite = `${location.origin}/?table=${p.tableId}`;
  const seated = m.seats.filter((s) => s.name);
  /** @type {number | null} */
  const host = typeof lobby.host === "number" ? lobby.host : null;
  const hostName = host === null ? null : seatName(m.seats, host, m.seat);
  const mayStart = host === null || host === m.seat || lobby.host_away === true;
  const w = p.watchers;
  patch(el, [
    v("h2", {}, `Table ${p.tableId}: waiting to start`),
    v("p", { class: "invite-row" }, "Invite link: ", v("a", { href: invite, id: "invite" }, invite), " ",
      v("button", { type: "button", class: "quiet", id: "copy-invite", onclick: p.copyInvite }, "Copy invite"),
      v("span", { class: "small", role: "status", id: "copy-note" }, p.copied)),
    v("ul", { class: "seats" }, m.seats.map((s) => v("li", { "data-key": `pre-seat:${s.seat}` },
      s.name ? seatName(m.seats, s.seat, m.seat) : "(empty seat — a bot will take it)",
      s.name && s.seat === host ? [" ", v("span", { class: "tag" }, "host")] : null,
      s.name && !s.connected && !s.bot ? " — not connected" : ""))),
    v("p", {}, `${seated.length} of ${m.players} seats taken.`),
    w && w.count ? v("p", { class: "small", id: "watchers-pre" }, watchersText(w)) : null,
    m.rated ? v("p", { class: "rated-note", id: "rated-note" }, v("span", { class: "tag rated-badge" }, "Rated"),
      " Every seated person must be signed in, and there are no hints.") : null,
    lobby.rematch_of ? v("p", { class: "rematch-note", id: "rematch-note" },
      "A rematch: it starts by itself once every player seated here has come. ",
      "Starting now gives the chairs of those who have not to bots.") : null,
    p.seated ? startOrWait(p, mayStart, hostName) : joinForm(p),
  ]);
}

/** A commitment, short: its first 8 and last 8 digits. @param {string} c */
const shortHex = (c) => `${c.slice(0, 8)}…${c.slice(-8)}`;

/**
 * The reveal: every seat's commitment as the start fixed them, and the deal waiting for
 * the reveals (a seat that does not reveal in time plays on without its seed).
 * @param {Draw} d @param {HTMLElement} el @param {PreParts} p @param {Reveal} r
 */
function drawReveal(d, el, p, r) {
  const m = d.model;
  const committed = r.commitments.filter((c) => c !== null).length;
  const left = Math.max(0, Math.ceil((r.closes - performance.now()) / 1000));
  /** @type {Record<Reveal["mine"], string>} */
  const MINE = {
    none: "You sent no commitment here: your browser adds no seed to this game.",
    revealing: "Your commitment is listed at your seat: revealing your client seed…",
    revealed: "✔ Your commitment is listed at your seat, and your client seed is revealed.",
    refused: `✘ Your client seed was NOT revealed: ${r.note}`,
    failed: `✘ Your client seed could not be revealed: ${r.note}`,
  };
  patch(el, [
    v("h2", {}, `Table ${p.tableId}: dealing`),
    v("section", { class: "fair-state", id: "fair-state", "aria-labelledby": "fair-head" },
      v("h3", { id: "fair-head" }, "Seeds committed"),
      v("p", { id: "fair-status", role: "status" },
        `Seeds committed: waiting for ${committed} reveal${committed === 1 ? "" : "s"}. `,
        `The game is dealt once every seat that committed has revealed its seed, or in ${left} s without the seeds not revealed by then.`),
      v("ul", { class: "commitments", id: "fair-commitments" }, r.commitments.map((c, i) => {
        const s = m.seats.find((x) => x.seat === i);
        return v("li", { "data-seat": i, "data-key": `commit:${i}` }, v("bdi", {}, seatName(m.seats, i, m.seat)), ": ",
          c === null ? v("i", {}, s && s.bot ? "a bot: no seed" : "no commitment") : v("span", { class: "mono", title: c }, shortHex(c)));
      })),
      m.seat === null ? null : v("p", { id: "fair-mine", class: r.mine === "refused" || r.mine === "failed" ? "fair-bad" : "" }, MINE[r.mine])),
  ]);
}

/**
 * @param {PreParts} p
 * @param {boolean} mayStart
 * @param {string | null} hostName
 */
function startOrWait(p, mayStart, hostName) {
  if (mayStart) {
    return v("button", { class: "primary", type: "button", id: "start", disabled: p.busy, onclick: p.start },
      "Start the game (bots fill empty seats)");
  }
  return v("p", { class: "waiting-host", id: "waiting-host", role: "status" },
    `Waiting for ${hostName} to start the game. The host starts it; bots take the empty chairs.`);
}

/** @param {PreParts} p */
function joinForm(p) {
  return v("form", { class: "join", id: "join-form", onsubmit: p.join },
    v("label", { for: "join-name" }, "Your name"),
    v("input", { type: "text", id: "join-name", value: p.name, placeholder: "Your name", maxlength: 24 }),
    v("button", { class: "primary", type: "submit", disabled: p.busy }, "Join this table"));
}

/** "2 watching: Cy, Dee" / "3 watching (1 named: Cy)". @param {{count: number, names: string[]}} w */
export function watchersText(w) {
  const named = w.names.length;
  if (!named) return `${w.count} watching`;
  const more = w.count - named;
  return `${w.count} watching: ${w.names.join(", ")}${more > 0 ? ` and ${more} more` : ""}`;
}

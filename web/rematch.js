// @ts-check
// Rematch, on the end screen (the server's flow: quaymoor/actors/rematch.py). A player's
// "Rematch" opens a new table with the same seats; the others see "Ada wants a rematch"
// with a Join button and are never moved without it. A seat's chair there arrives as
// `rematch_seat`: its token is kept like a join's, the new table's fingerprint is shown,
// then the commitment to our client seed goes out (seen.js keeps that order) and the page
// goes to the new table, which starts by itself once every player has committed; there
// the seed is revealed as at any table (table_chrome.js, on seeds_committed).

import { v } from "./vdom.js";
import { setToken } from "./store.js";
import { commitClientSeed, showFingerprint } from "./seen.js";

/**
 * `rematch_offer` (docs/protocol.md, 3): the new table, the seat that offered and its name,
 * the seats that hold a chair there so far.
 * @typedef {{type: "rematch_offer", table: string, rematch: string, by: number, name: string, accepted: number[]}} RematchOffer
 */
/**
 * `rematch_seat`: our chair at the rematch table (its token, its fingerprint).
 * @typedef {{type: "rematch_seat", table: string, rematch: string, seat: number, token: string, fingerprint: string}} RematchSeat
 */

/**
 * The end screen's rematch row. state: {offer (rematch_offer or null), asked (we sent
 * rematch), seat (ours, null: watching)}; ask() sends `rematch`.
 * @param {{offer: RematchOffer | null, asked: boolean, seat: number | null | undefined}} state
 * @param {() => void} ask
 * @returns {import("./vdom.js").VNode | null}
 */
export function rematchRow(state, ask) {
  const { offer, asked, seat } = state;
  if (seat === null || seat === undefined) {
    return offer ? v("div", { class: "row rematch", id: "rematch-row" },
      v("p", { class: "rematch-offer", id: "rematch-offer" }, v("bdi", {}, offer.name),
        " offered a rematch. ", v("a", { href: `/?table=${offer.rematch}`, id: "watch-rematch" }, "Watch it"))) : null;
  }
  const accepted = offer ? offer.accepted.includes(seat) : false;
  if (offer && offer.by !== seat && !accepted) {
    return v("div", { class: "row rematch", id: "rematch-row" },
      v("p", { class: "rematch-offer", id: "rematch-offer", role: "status" }, v("bdi", {}, offer.name), " wants a rematch."),
      v("button", { type: "button", class: "primary", id: "rematch", disabled: asked, onclick: ask },
        asked ? "Joining…" : "Join the rematch"));
  }
  const waiting = asked || accepted;
  return v("div", { class: "row rematch", id: "rematch-row" },
    v("button", { type: "button", class: "primary", id: "rematch", disabled: waiting, onclick: ask,
      "aria-describedby": "rematch-what", title: "The same players at a new table" },
    waiting ? "Opening the rematch…" : "Rematch"),
    v("span", { class: "small", id: "rematch-what" }, waiting ? "" : "The same players at a new table; the others are asked to join."));
}

/** Take our chair at the rematch table (a `rematch_seat`); resolves to its table id.
 * @param {RematchSeat} msg */
export async function takeRematchSeat(msg) {
  setToken(msg.rematch, msg.token);
  await showFingerprint(msg.rematch, msg.fingerprint); // before our commitment goes out
  await commitClientSeed(msg.rematch, { token: msg.token, seat: msg.seat });
  return msg.rematch;
}

// @ts-check
// Handing an away player's seat to a bot by vote (docs/protocol.md, vote_bot and the
// seats' bot_vote). The server says who may vote, who has and how many votes it takes;
// here it is only drawn: a button for each away seat you may still vote on, and the count
// for everyone else (those who voted, spectators, the other players).

import { v as h } from "./vdom.js";
import { nameOrSeat } from "./text.js";

/** @typedef {import("./table_model.js").SeatInfo} SeatInfo */
/** @typedef {NonNullable<SeatInfo["bot_vote"]>} BotVote  a seat's open vote (docs/protocol.md, welcome) */

/** "1 of 2 votes": the votes cast of those it takes. @param {BotVote} v */
export const voteCount = (v) => `${v.votes.length} of ${v.needed} vote${v.needed === 1 ? "" : "s"}`;

/**
 * The vote controls for the decision bar, or null when no seat is open to a vote.
 * send(seat) sends the vote; sent: the seats voted on from this page, awaiting the count.
 * @param {SeatInfo[] | null | undefined} seats
 * @param {number | null} mySeat
 * @param {(seat: number) => void} send
 * @param {Set<number>} sent
 * @returns {import("./vdom.js").VNode | null}
 */
export function botVotes(seats, mySeat, send, sent) {
  const open = (seats || []).filter(/** @returns {s is SeatInfo & {bot_vote: BotVote}} */ (s) => !!s.bot_vote);
  if (!open.length) return null;
  return h("div", { class: "bot-votes", id: "bot-votes", role: "group", "aria-label": "Away players" },
    open.map((s) => {
      const v = s.bot_vote;
      const name = nameOrSeat(s.name, s.seat);
      const count = voteCount(v);
      const mayVote = mySeat !== null && v.voters.includes(mySeat) && !v.votes.includes(mySeat);
      if (mayVote) {
        const waiting = sent.has(s.seat);
        return h("button", {
          type: "button", class: "bot-vote", id: `bot-vote-${s.seat}`, "data-seat": s.seat,
          "aria-disabled": waiting ? "true" : null,
          onclick: () => { if (!sent.has(s.seat)) send(s.seat); },
        }, `Hand ${name}'s seat to a bot — ${count}`);
      }
      const mine = mySeat !== null && v.votes.includes(mySeat);
      return h("p", { class: "bot-vote-count", id: `bot-vote-${s.seat}`, "data-seat": s.seat },
        mine ? `You voted to hand ${name}'s seat to a bot — ${count}`
          : `${name} is away: ${count} to hand the seat to a bot`);
    }));
}

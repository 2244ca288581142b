// @ts-check
// The table's part of "Commit, then reveal" (docs/fairness.md), after the commitment went
// out (seen.js): the start's commitments shown (seeds_committed, the start's answer, or a
// welcome during the reveal) with the reveal's countdown, our seed revealed once they are
// on the page with ours at our seat (never twice; not at all, and said, when ours is
// missing or changed), and at the deal the seeds and commitments per seat kept for the
// verify page, ours checked at our seat, the seats that withheld their seed marked and
// logged.

import { toast } from "./dom.js";
import { announce } from "./announce.js";
import { errorText } from "./net.js";
import { seatName } from "./text.js";
import { RevealRefused, noteCommitments, noteDeal, painted, revealClientSeed, seenFor } from "./seen.js";

/** @typedef {import("./table.js").TableScreen} TableScreen */
/** @typedef {Record<string, any>} Msg */

export class TableFair {
  /** @param {TableScreen} t @param {() => void} redraw draws the waiting room (and the reveal) again */
  constructor(t, redraw) {
    this.t = t;
    this.redraw = redraw;
    /** @type {Msg | null} the client seeds at the deal, until they are logged */
    this.startSeeds = null;
    /** @type {import("./view_pre.js").Reveal | null} between the start and the deal */
    this.reveal = null;
    /** @type {ReturnType<typeof setInterval> | null} redraws the reveal's countdown */
    this.revealTimer = null;
    this.dealt = false; // game_started (or a welcome once started) came
  }

  /**
   * The start has fixed every commitment (seeds_committed, the start's answer, or a welcome
   * during the reveal): show them, then reveal our seed if ours is listed at our seat.
   * @param {unknown} commitments per seat @param {unknown} seats the seats as they will play (null: as we have them)
   * @param {unknown} seconds how long the reveal stays open from now (null: as we knew, else 10)
   */
  onCommitted(commitments, seats, seconds) {
    const t = this.t;
    if (this.dealt || !Array.isArray(commitments)) return;
    if (Array.isArray(seats)) {
      t.model.seats = seats;
      t.chat.setSeats(seats, t.model.seat);
    }
    const closes = performance.now() + 1000 * (typeof seconds === "number" ? seconds : 10);
    if (!this.reveal) {
      this.reveal = { commitments: commitments.slice(), closes, mine: "none", note: "" };
      announce(`Seeds committed: waiting for ${commitments.filter((c) => c !== null).length} reveals.`);
    } else {
      this.reveal.commitments = commitments.slice();
      if (typeof seconds === "number") this.reveal.closes = closes;
    }
    if (!this.revealTimer) {
      this.revealTimer = setInterval(() => {
        if (this.reveal && !this.dealt) this.redraw();
        else this.stopRevealTimer();
      }, 1000);
    }
    this.redraw();
    noteCommitments(t.tableId, t.model.seat, commitments, Array.isArray(seats) ? seats : t.model.seats);
    this.revealOurs(commitments);
  }

  stopRevealTimer() {
    if (this.revealTimer) clearInterval(this.revealTimer);
    this.revealTimer = null;
  }

  /** Our seed goes out once the commitments are on the page with ours at our seat. @param {unknown[]} commitments */
  async revealOurs(commitments) {
    const t = this.t;
    const r = this.reveal;
    const seat = t.model.seat;
    if (!r || !t.token || seat === null || seat === undefined) return;
    const seen = seenFor(t.tableId);
    if (!seen || !seen.committed || seen.seat !== seat) return; // nothing of ours to reveal here
    await painted(); // the commitments are shown before our seed goes out
    if (r.mine !== "revealed") r.mine = "revealing";
    this.redraw();
    try {
      const done = await revealClientSeed(t.tableId, { token: t.token, seat }, commitments);
      r.mine = done ? "revealed" : "none";
    } catch (e) {
      r.note = errorText(e);
      r.mine = e instanceof RevealRefused ? "refused" : "failed";
      const what = `Your client seed was not revealed: ${r.note}`;
      toast(what);
      announce(what);
    }
    if (!this.dealt) this.redraw();
  }

  /**
   * The deal (game_started, or a welcome once started): the seeds and commitments per seat
   * kept for the verify page, ours checked at our seat, the seats that withheld marked.
   * @param {(string | null)[]} seeds @param {(string | null)[] | null | undefined} commitments
   */
  onDeal(seeds, commitments) {
    const t = this.t;
    this.dealt = true;
    this.reveal = null;
    this.stopRevealTimer();
    const seen = noteDeal(t.tableId, t.model.seat, seeds, commitments, t.model.seats);
    t.model.withheld = seen.withheld;
    if (!seen.first && seen.ok !== false) return;
    this.startSeeds = { seeds, commitments: Array.isArray(commitments) ? commitments : [], ...seen };
  }

  /** Once the seats' names are known (the first update): the seeds' lines in the log. */
  logStartSeeds() {
    const s = this.startSeeds;
    const m = this.t.model;
    if (!s) return;
    this.startSeeds = null;
    this.t.log.addNotes(this.seedLines(s), m.view ? m.view.board.round : 0);
  }

  /** The log's lines for the seeds at the deal. @param {Msg} s @returns {string[]} */
  seedLines(s) {
    const m = this.t.model;
    const short = (/** @type {string} */ x) => (x.length > 16 ? `${x.slice(0, 12)}…` : x); // in full on the end screen
    const who = s.seeds.map((/** @type {string | null} */ x, /** @type {number} */ i) => {
      const name = seatName(m.seats, i, m.seat);
      if (x !== null) return `${name}: revealed ${short(x)}`;
      if (s.commitments[i]) return `${name}: did not reveal its seed`;
      const seat = m.seats.find((y) => y.seat === i);
      return `${name}: none${seat && seat.bot ? " (a bot)" : ""}`;
    });
    const lines = [`Client seeds at the deal — ${who.join("; ")}.`];
    if (s.withheld.length) {
      const names = s.withheld.map((/** @type {number} */ i) => seatName(m.seats, i, m.seat)).join(", ");
      lines.push(`${names} committed and did not reveal: the game was dealt without ${s.withheld.length === 1 ? "that seed" : "those seeds"}.`);
    }
    if (s.ok === true) lines.push("✔ Your client seed is listed at your seat.");
    if (s.ok === false) {
      lines.push(`✘ Your client seed ${s.mine} is NOT listed at your seat (the server lists ${s.listed === null ? "none" : s.listed}).`);
      toast("The server did not list your client seed at your seat: this game's draws may not include your randomness. Verify will fail.");
    }
    return lines;
  }
}

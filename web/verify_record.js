// @ts-check
// A game record as the verify page reads it (quaymoor/rules/record.py): its JSDoc types,
// with the server's replay, what this browser saw and a check's row; and the small words
// every check uses: a seat named by its player, seeds by seat, a check made.

/** @typedef {import("./fairness_plots.js").Good} Good */
/** @typedef {import("./fairness_plots.js").ShownTurnUp} ShownTurnUp */
/** @typedef {import("./fairness_plots.js").RecordedAction} RecordedAction */
/**
 * A seat of a record: its player's name, whether it is a bot's own chair, (formats 4 and
 * 5) the commitment its player sent before the start (null: none; always null for a bot)
 * and (format 5) whether its name was taken out at its player's request (the account
 * deleted: the name is then "Seat N (name removed)"; written only when true).
 * @typedef {object} RecordSeat
 * @property {string} name
 * @property {boolean} bot
 * @property {string | null} [commitment]
 * @property {unknown} [removed] true, or absent (anything else fails a check)
 */
/**
 * A final score (a record's and the server's replay's `result.scores`).
 * @typedef {object} FinalScore
 * @property {number} seat
 * @property {number} seals
 * @property {number} building_points
 * @property {Record<string, number>} [bonuses]
 * @property {number} total
 * @property {number} tiebreak coins and goods
 */
/** @typedef {{reasons: string[], scores: FinalScore[], winners: number[]}} Result */
/**
 * A game record (quaymoor/rules/record.py, formats 1 to 5; docs/fairness.md), fetched or
 * pasted: nothing has checked it yet, so the checks read it with care.
 * @typedef {object} GameRecord
 * @property {number} [format]
 * @property {unknown} algorithm
 * @property {number} players
 * @property {string} seed 64 hex digits
 * @property {string} fingerprint
 * @property {string[]} [client_seeds]
 * @property {RecordSeat[]} [seats]
 * @property {RecordedAction[]} [actions]
 * @property {Result | null} [result]
 * @property {string | null} [game] the id it was played under
 * @property {string | null} [end_reason]
 * @property {number | null} [ended_at]
 * @property {number | null} [first_warden]
 * @property {ShownTurnUp[] | null} [turned_up]
 * @property {(string | null)[] | null} [seat_seeds] per seat, the client seed it gave
 *   (formats 4 and 5: revealed; null with a commitment: committed, never revealed)
 */
/**
 * The server's replay of a game through the rules (GET /api/games/<id>/replay).
 * @typedef {object} Replay
 * @property {number | null} [first_warden]
 * @property {ShownTurnUp[]} [turned_up]
 * @property {RecordedAction[]} [actions]
 * @property {boolean} [over]
 * @property {Result | null} [result]
 * @property {string | null} [error] why the rules refuse an action of the record
 */
/**
 * What this browser saw of the game (seen.js's entry); any field may be missing.
 * @typedef {object} Seen
 * @property {string} [fingerprint]
 * @property {string} [client_seed]
 * @property {string} [commitment]  ours (formats 4 and 5), sent before the start
 * @property {boolean} [committed]
 * @property {boolean} [reveal_sent]  our client seed went out
 * @property {boolean} [revealed]  the server took it
 * @property {number | null} [seat]
 * @property {(string | null)[]} [start_commitments]  per seat, as the start listed them
 * @property {{name: string | null, bot: boolean}[]} [start_seats]  the seats as the start listed them
 * @property {(string | null)[]} [deal_commitments]  per seat, as the deal listed them
 * @property {(string | null)[]} [start_seeds]  per seat, the client seeds the deal listed
 * @property {number | null} [first_warden]
 * @property {{from: number, to: number, source: string, goods: Good[]}[]} [turned_up]
 */
/**
 * One check, one row of the verify page.
 * @typedef {object} Check
 * @property {string} id
 * @property {string} label
 * @property {"pass" | "fail" | "skip"} status
 * @property {string} [computed] what this browser worked out
 * @property {string} [game] what the record (or the game on the server) shows
 * @property {string} [seen] what this browser saw during the game
 * @property {string} [note]
 * @property {boolean | null} [drawOk] a draw's: false when the seed gives another than the game showed
 */
/** @typedef {Omit<Check, "id" | "label" | "status">} CheckValues */

/** @param {unknown} x @returns {x is number} */
export const isInt = (x) => Number.isInteger(x);

/**
 * @param {string} id @param {string} label @param {boolean | null} ok null: not checked
 * @param {CheckValues} [values]
 * @returns {Check}
 */
export function check(id, label, ok, values = {}) {
  return { id, label, status: ok === null ? "skip" : ok ? "pass" : "fail", ...values };
}

/** @param {unknown} s */
export const seedText = (s) => (s === null || s === undefined ? "none" : JSON.stringify(s));

/**
 * How a person names the record's seat `i` (from 0): its player's name from the record's
 * seats, or, where the record names nobody there, "seat 1" for seat 0 (counted from 1).
 * @param {GameRecord} record
 * @returns {(i: number) => string}
 */
export function seatNamer(record) {
  const seats = Array.isArray(record.seats) ? record.seats : [];
  return (i) => {
    const seat = seats[Number(i)];
    return seat && typeof seat.name === "string" && seat.name ? seat.name : `seat ${Number(i) + 1}`;
  };
}

/** @param {readonly unknown[]} list by seat @param {(i: number) => string} seatName */
export const seatSeedsText = (list, seatName) => list.map((s, i) => `${seatName(i)}: ${seedText(s)}`).join(", ");

/** A commitment, short: its first 8 and last 8 digits ("none" for anything else). @param {unknown} c */
export const commitText = (c) => (typeof c === "string" ? `${c.slice(0, 8)}…${c.slice(-8)}` : "none");

/**
 * The first key given twice in one object of a JSON text (already parsed once, so valid),
 * or null. A record with one is refused (docs/fairness.md): which value counts would be up
 * to the parser, and the reference's refuses it.
 * @param {string} text
 * @returns {string | null}
 */
export function repeatedKey(text) {
  /** @type {{object: boolean, keys: Set<string>, key: boolean}[]} */
  const open = [];
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    const top = open[open.length - 1];
    if (c === "\"") {
      let j = i + 1;
      while (j < text.length && text[j] !== "\"") j += text[j] === "\\" ? 2 : 1;
      if (top && top.object && top.key) {
        const key = JSON.parse(text.slice(i, j + 1));
        if (top.keys.has(key)) return key;
        top.keys.add(key);
        top.key = false;
      }
      i = j;
    } else if (c === "{" || c === "[") {
      open.push({ object: c === "{", keys: new Set(), key: c === "{" });
    } else if (c === "}" || c === "]") {
      open.pop();
    } else if (c === "," && top && top.object) {
      top.key = true;
    }
  }
  return null;
}

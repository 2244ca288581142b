// @ts-check
// The verify page's checks of the seats and of what this browser saw (verifier.js runs
// them): a format-4 or -5 record's deal (`dealOf`: the table's id, every seat's name, bot
// flag and commitment, and the seeds revealed, none of them stripped), format 4's bots named
// by the rule (`botNames`, `misnamedBot`: its key binds the names), the names taken out
// at their players' request (`removedChecks`: format 5 only, a person's seat only, named
// `Seat N (name removed)`), the seat binding of the client seeds (`seatSeedChecks`), and
// the record against what this browser kept while playing (`seenChecks`: the fingerprint
// it showed, its own commitment and seed at its seat, the seats and the commitments listed
// at the start, the seeds listed at the deal; a seat whose name was removed is compared
// by its bot flag alone, and said to be removed).

import { check, commitText, isInt, seatNamer, seatSeedsText, seedText } from "./verify_record.js";

/** @typedef {import("./verify_record.js").GameRecord} GameRecord */
/** @typedef {import("./verify_record.js").Seen} Seen */
/** @typedef {import("./verify_record.js").Check} Check */

/** The record format of quaymoor-fair-2 (commit-and-reveal, the seats' names in the key). */
export const FORMAT_2 = 4;
/** The record format of quaymoor-fair-3 (every table's game: no name in the key). */
export const FORMAT_3 = 5;

/** A record format that has a deal (the table's id, commitments, seeds by seat). @param {unknown} format */
export const isDealtFormat = (format) => format === FORMAT_2 || format === FORMAT_3;

/**
 * The name a format-5 record's seat `index` (from 0) reads once its player's account is
 * deleted: "Seat 2 (name removed)" for the second (docs/fairness.md, "Names and deleted
 * accounts").
 * @param {number} index
 */
export const removedName = (index) => `Seat ${index + 1} (name removed)`;

/**
 * The record's seat `i` says its name was taken out at its player's request, and may: a
 * format-5 record, a person's seat, named removedName(i).
 * @param {GameRecord} record @param {number} i
 */
function removedRightly(record, i) {
  const seat = Array.isArray(record.seats) ? record.seats[i] : undefined;
  return !!seat && seat.removed === true && record.format === FORMAT_3 && seat.bot === false && seat.name === removedName(i);
}

/** The bots' names, in the order they are given (`botNames`). */
export const BOT_NAMES = Object.freeze(["Ada", "Bede", "Cuthbert", "Dunstan", "Edith", "Frideswide", "Godric", "Hilda"]);
const BOT_SUFFIX = " (bot)";

/**
 * The names the bots at a table get, fixed by the people's (docs/fairness.md, "Commit,
 * then reveal", 3): `people` has per seat a person's name, or null for a bot's chair; the
 * bots' chairs, in seat order, take the first names of BOT_NAMES that no person at the
 * table has (with or without " (bot)"), each with " (bot)". Null at the people's seats.
 * Verifiers check it in format-4 records, whose key (quaymoor-fair-2) binds the names: so
 * nobody could have tried bots' names to move the key.
 * @param {readonly (string | null)[]} people
 * @returns {(string | null)[]}
 */
export function botNames(people) {
  const taken = new Set(people.filter((n) => n !== null).map((n) => (/** @type {string} */ (n)).endsWith(BOT_SUFFIX)
    ? /** @type {string} */ (n).slice(0, -BOT_SUFFIX.length) : n));
  const free = BOT_NAMES.filter((n) => !taken.has(n)).map((n) => n + BOT_SUFFIX);
  let next = 0;
  return people.map((n) => (n === null ? free[next++] ?? null : null));
}

/**
 * Format 4 (quaymoor-fair-2, whose key binds the names): why a bot of `deal` has another
 * name than botNames gives it, naming the first such seat, or null.
 * @param {import("./fairness.js").Deal} deal @returns {string | null}
 */
export function misnamedBot(deal) {
  const named = botNames(deal.seats.map((x) => (x.bot ? null : x.name)));
  const i = deal.seats.findIndex((x, k) => x.bot && x.name !== named[k]);
  return i < 0 ? null : `seat ${i} is a bot named ${JSON.stringify(deal.seats[i].name)}, but a bot there is named ${JSON.stringify(named[i])} (bots take the first free names of the list, in seat order: docs/fairness.md)`;
}

/**
 * A format-4 or -5 record's deal ({table, seats: [{name, bot, commitment, client_seed}]}),
 * or why it has none: `game`, a seat's `commitment` or `seat_seeds` missing (a binding
 * stripped), or lists for another number of seats.
 * @param {GameRecord} record
 * @returns {{deal: import("./fairness.js").Deal, problem: null} | {deal: null, problem: string}}
 */
export function dealOf(record) {
  const a = `a format-${JSON.stringify(record.format)} record`;
  if (typeof record.game !== "string" || !record.game) {
    return { deal: null, problem: `${a} names the table it was dealt at (game), and this one names none: stripped` };
  }
  const seats = Array.isArray(record.seats) ? record.seats : null;
  if (!seats) return { deal: null, problem: `${a} lists its seats, and this one has none` };
  const bare = seats.findIndex((x) => !x || typeof x !== "object" || !("commitment" in x) || x.commitment === undefined);
  if (bare >= 0) {
    return { deal: null, problem: `seat ${bare} has no "commitment" entry: ${a} lists every seat's commitment (null: none), so it was stripped` };
  }
  const bound = record.seat_seeds;
  if (!Array.isArray(bound)) {
    return { deal: null, problem: `${a} binds every client seed to its seat, and this one has no seat_seeds (${bound === null ? "null" : "missing"}): the binding was stripped` };
  }
  if (bound.length !== record.players || seats.length !== record.players) {
    return { deal: null, problem: `${seats.length} seats and ${bound.length} seat_seeds listed for ${JSON.stringify(record.players)} players` };
  }
  return { deal: { table: record.game, seats: seats.map((x, i) => ({
    name: x.name, bot: x.bot, commitment: /** @type {string | null} */ (x.commitment), client_seed: bound[i],
  })) }, problem: null };
}

/**
 * The names taken out at their players' request (docs/fairness.md, "Names and deleted
 * accounts"): a seat may say `"removed": true` only in a format-5 record, only on a
 * person's seat (bot false), and its name is then exactly removedName(seat). A `removed`
 * other than true or false, or any of these broken, fails naming the seat. No row when no
 * seat says `"removed": true` (false reads as absent, as the reference reads it) and none
 * breaks the rule.
 * @param {GameRecord} record
 * @returns {Check[]}
 */
export function removedChecks(record) {
  const seats = Array.isArray(record.seats) ? record.seats : [];
  const marked = seats.map((x, i) => ({ x, i })).filter(({ x }) => x && typeof x === "object" && "removed" in x);
  if (!marked.length) return [];
  const label = "A name removed at its player's request: only a person's, in format 5, as \"Seat N (name removed)\"";
  /** @type {string | null} */
  let problem = null;
  for (const { x, i } of marked) {
    const where = `seat ${i}`;
    if (x.removed === false) continue;
    if (x.removed !== true) problem = `${where} says "removed": ${JSON.stringify(x.removed)}; it is true or absent`;
    else if (record.format !== FORMAT_3) {
      problem = `${where} says its name was removed, which only a format-${FORMAT_3} record can (this one is format ${JSON.stringify(record.format)}${record.format === FORMAT_2 ? ", whose key binds the names" : ""})`;
    } else if (x.bot !== false) problem = `${where} is a bot, and a bot's name is never removed`;
    else if (x.name !== removedName(i)) {
      problem = `${where}'s name was removed, so it reads ${JSON.stringify(removedName(i))}, not ${JSON.stringify(x.name)}`;
    }
    if (problem) break;
  }
  const removed = marked.filter(({ x }) => x.removed === true).map(({ i }) => removedName(i));
  if (problem === null && !removed.length) return []; // every one "removed": false, as absent
  return [check("names-removed", label, problem === null, {
    game: removed.length ? removed.join(", ") : "no name removed",
    note: problem ?? "taken out of the record at their players' request (the key binds no name)",
  })];
}

/**
 * The record against what this browser saw of the game (nothing when it saw nothing).
 * @param {GameRecord} record @param {Seen | null} seen
 * @returns {Check[]}
 */
export function seenChecks(record, seen) {
  const seatNo = seatNamer(record);
  /** @type {Check[]} */
  const checks = [];
  if (seen && seen.fingerprint) {
    const ok = seen.fingerprint === record.fingerprint;
    checks.push(check("seen-fingerprint", "The fingerprint this browser was shown at the start", ok,
      { computed: "", game: String(record.fingerprint), seen: seen.fingerprint,
        note: ok ? "" : "the server showed this browser another fingerprint" }));
  }
  const bound = Array.isArray(record.seat_seeds) ? record.seat_seeds : null;
  const recordSeats = Array.isArray(record.seats) ? record.seats : [];
  const mySeat = seen && isInt(seen.seat) ? seen.seat : null;
  if (seen && seen.commitment && seen.committed) {
    const listed = mySeat !== null && recordSeats[mySeat] ? recordSeats[mySeat].commitment ?? null : null;
    const ok = listed === seen.commitment;
    checks.push(check("seen-commitment", `This browser's commitment is at its seat (${mySeat === null ? "?" : seatNo(mySeat)})`, ok, {
      game: commitText(listed), seen: commitText(seen.commitment),
      note: ok ? "" : "the record has another commitment at this browser's seat, or none",
    }));
  }
  if (seen && seen.client_seed && (seen.commitment ? seen.revealed || seen.reveal_sent : true)) {
    const ok = bound && mySeat !== null
      ? bound[mySeat] === seen.client_seed
      : (record.client_seeds || []).includes(seen.client_seed);
    checks.push(check("seen-client-seed", bound && mySeat !== null
      ? `This browser's client seed is at its seat (${seatNo(mySeat)}) and in the key`
      : "This browser's client seed was mixed into the key", ok,
    { game: bound ? seatSeedsText(bound, seatNo) : JSON.stringify(record.client_seeds || []), seen: seen.client_seed,
      note: ok ? "" : "the record leaves out this browser's client seed, or puts it at another seat" }));
  }
  if (seen && Array.isArray(seen.start_seats) && isDealtFormat(record.format)) {
    // the seats as the start listed them (the key binds their bot flags, and in format 4
    // their names); a seat whose name its player had removed (format 5) is compared by its
    // bot flag alone, and this browser's copy of the name is not shown
    const removed = recordSeats.map((_, i) => removedRightly(record, i));
    const differ = [];
    for (let i = 0; i < Math.max(recordSeats.length, seen.start_seats.length); i++) {
      const a = recordSeats[i];
      const b = seen.start_seats[i];
      const say = (/** @type {{name?: string | null, bot?: boolean} | undefined} */ x) => (x ? `${JSON.stringify(x.name ?? null)}${x.bot ? " (a bot)" : ""}` : "no seat");
      if (!a || !b || !!a.bot !== !!b.bot) differ.push(`seat ${i + 1}: the record has ${say(a)}, the start showed ${say(b)}`);
      else if (a.name !== b.name && !removed[i]) differ.push(`seat ${i + 1}: the record has ${say(a)}, the start showed ${say(b)}`);
    }
    const ok = differ.length === 0;
    const gone = removed.flatMap((r, i) => (r ? [`seat ${i + 1}`] : []));
    const removedNote = gone.length ? `the name at ${gone.join(" and ")} was removed at its player's request (an account deleted): that seat is compared by its bot flag only` : "";
    checks.push(check("seen-seats", "The seats this browser saw at the start (names, bots)", ok, {
      game: recordSeats.map((x) => `${x.name}${x.bot ? " (a bot)" : ""}`).join(", "),
      seen: seen.start_seats.map((x, i) => (removed[i] && !x.bot ? "(name removed at its player's request)" : `${x.name}${x.bot ? " (a bot)" : ""}`)).join(", "),
      note: ok ? removedNote : `the record lists other seats than the start did: ${differ.join("; ")}${removedNote ? ` (${removedNote})` : ""}`,
    }));
  }
  if (seen && (Array.isArray(seen.start_commitments) || Array.isArray(seen.deal_commitments))) {
    const listed = recordSeats.map((x) => (x && typeof x.commitment === "string" ? x.commitment : null));
    const differ = [];
    for (const [when, list] of /** @type {[string, (string | null)[] | undefined][]} */ ([["the start", seen.start_commitments], ["the deal", seen.deal_commitments]])) {
      if (!Array.isArray(list)) continue;
      for (let i = 0; i < Math.max(listed.length, list.length); i++) {
        const a = listed[i] ?? null;
        const b = list[i] ?? null;
        if (a !== b) differ.push(`${seatNo(i)}: the record has ${commitText(a)}, ${when} showed ${commitText(b)}`);
      }
    }
    const ok = differ.length === 0;
    checks.push(check("seen-commitments", "The commitments this browser saw listed at the start", ok, {
      game: listed.map((c, i) => `${seatNo(i)}: ${commitText(c)}`).join(", "),
      seen: (seen.start_commitments || seen.deal_commitments || []).map((c, i) => `${seatNo(i)}: ${commitText(c)}`).join(", "),
      note: ok ? "" : `a commitment this browser did not see: ${differ.join("; ")}`,
    }));
  }
  if (seen && Array.isArray(seen.start_seeds)) {
    const listed = bound || [];
    const seats = Math.max(listed.length, seen.start_seeds.length);
    const differ = [];
    for (let i = 0; i < seats; i++) {
      const a = listed[i] === undefined ? null : listed[i];
      const b = seen.start_seeds[i] === undefined ? null : seen.start_seeds[i];
      if (a !== b) differ.push(`${seatNo(i)}: the record has ${seedText(a)}, the start showed ${seedText(b)}`);
    }
    const ok = bound !== null && differ.length === 0;
    checks.push(check("seen-start-seeds", "The client seeds this browser saw listed when the game was dealt", ok, {
      game: bound ? seatSeedsText(bound, seatNo) : "no seeds bound to seats", seen: seatSeedsText(seen.start_seeds, seatNo),
      note: ok ? "" : bound ? `a seed this browser did not see at the start: ${differ.join("; ")}` : "the record does not say which seat gave which seed",
    }));
  }
  return checks;
}

/**
 * The seat binding (format 3, docs/fairness.md "Seeds and seats"): a format-3 record binds
 * every client seed to the seat that gave it, so `seat_seeds` null or missing is a binding
 * stripped; one per seat; the non-null ones in seat order are the key's client seeds; and a
 * bot's seat holds no seed (so a person's seed moved to a bot's seat fails even where the
 * key stays the same). An older format (1, 2) has no binding, and none may be added to it.
 * @param {GameRecord} record @param {(string | null)[] | null} bound
 * @returns {Check[]}
 */
export function seatSeedChecks(record, bound) {
  const seatNo = seatNamer(record);
  const label = "Each client seed is bound to the seat that gave it";
  const format = isInt(record.format) ? record.format : 1;
  const keys = JSON.stringify(record.client_seeds || []);
  if (isDealtFormat(format)) {
    // the seats' row checked the binding itself (dealOf, checkDeal); here: client_seeds is
    // exactly the seats' revealed seeds in seat order, as the record's readers take it
    if (!bound) return [];
    const keyed = bound.filter((x) => x !== null);
    const ok = JSON.stringify(keyed) === keys;
    return [check("seat-seeds", label, ok, { computed: JSON.stringify(keyed), game: seatSeedsText(bound, seatNo),
      note: ok ? "the key takes the seeds each seat revealed, at its seat" : `the record's client_seeds ${keys} are not the seats' revealed seeds in seat order` })];
  }
  if (format < 3) {
    return bound ? [check("seat-seeds", label, false, { game: seatSeedsText(bound, seatNo),
      note: `a format-${format} record binds no seeds to seats, yet this one lists seat_seeds` })] : [];
  }
  if (!bound) {
    return [check("seat-seeds", label, false, { game: record.seat_seeds === undefined ? "no seat_seeds" : "seat_seeds: null",
      note: "a format-3 record binds every client seed to the seat that gave it, and this one has no seat_seeds (null or missing): the binding was stripped" })];
  }
  const players = record.players;
  const keyed = bound.filter((x) => x !== null);
  if (bound.length !== players || JSON.stringify(keyed) !== keys) {
    return [check("seat-seeds", label, false, { computed: JSON.stringify(keyed), game: seatSeedsText(bound, seatNo),
      note: `the key's client seeds ${keys} are not the seats' seeds in seat order (${bound.length} listed for ${players} seats)` })];
  }
  const seats = Array.isArray(record.seats) ? record.seats : [];
  const botSeeded = bound.map((s, i) => ({ s, i })).filter(({ s, i }) => s !== null && seats[i] && seats[i].bot === true);
  if (botSeeded.length) {
    const { s, i } = botSeeded[0];
    return [check("seat-seeds", label, false, { computed: JSON.stringify(keyed), game: seatSeedsText(bound, seatNo),
      note: `${seatNo(i)} is a bot, and bots hold no seed, but the record gives it ${seedText(s)}` })];
  }
  return [check("seat-seeds", label, true, { computed: JSON.stringify(keyed), game: seatSeedsText(bound, seatNo),
    note: "the key takes the seats' seeds in seat order; no bot holds one" })];
}

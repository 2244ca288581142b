// @ts-check
// The checks of the verify page, as a pure function of a game record, the server's replay
// of the game (optional) and what this browser saw of it (optional). The plot table (how
// many plots of each good, which start taken out, how many lie face up) is the fixed one of
// docs/fairness.md, in fairness_plots.js: nothing the server answers changes it.
// Everything random is recomputed here (fairness.js, WebCrypto). A format-5 record
// (quaymoor-fair-3, every table's game) or format-4 one (quaymoor-fair-2): the fingerprint
// from the algorithm, the table's id, its seats and the seed; every seat's commitment
// against the seed it revealed, no seed without a commitment, bots with neither
// (checkDeal); the key from the seed and the seats (dealKey: their bot flags, commitments
// and seeds; format 4's their names too, so there the bots' names must be the ones the
// rule gives, misnamedBot); a name removed at its player's request only in format 5, only a
// person's (removedChecks). Formats 1-3 (quaymoor-fair-1): SHA-256 of the seed, the key
// from the client seeds. Then the first Warden, and every plot turned up, worked out from
// the key and the record's actions alone (fairness_plots.js expectedTurnUps), so that a
// list of turn-ups with one missing, added or changed fails and is named. The server's replay is used only
// for the rules (the actions and the result), never for a draw.
//
// A check is {id, label, status: "pass"|"fail"|"skip", computed, game, seen, note}:
// `computed` is what this browser worked out, `game` what the record (or the game on the
// server) shows, `seen` what this browser saw during the game. A seat is named as the
// record names its player ("seat 2", counted from 1, only where the record has no name).

import { ALGORITHM, ALGORITHM_1, ALGORITHM_2, dealKey, deriveKey, fingerprint, firstWarden, tableFingerprint } from "./fairness.js";
import { SETUPS, compareTurnUps, expectedTurnUps } from "./fairness_plots.js";
import { check, commitText, isInt, seatNamer, seedText } from "./verify_record.js";
import { FORMAT_2, FORMAT_3, dealOf, isDealtFormat, misnamedBot, removedChecks, seatSeedChecks, seenChecks } from "./verify_seats.js";

export { FORMAT_2, FORMAT_3, dealOf };

/**
 * The algorithm a record of `format` is played with (the pairing is fixed: docs/fairness.md),
 * or null for a format no record has.
 * @param {number} format @returns {string | null}
 */
export function algorithmOf(format) {
  if (format === FORMAT_3) return ALGORITHM;
  if (format === FORMAT_2) return ALGORITHM_2;
  return format >= 1 && format <= 3 ? ALGORITHM_1 : null;
}
/** @param {unknown} x */
const errText = (x) => (x instanceof Error ? x.message : String(x));

/** @typedef {import("./fairness_plots.js").Good} Good */
/** @typedef {import("./fairness_plots.js").ShownTurnUp} ShownTurnUp */
/** @typedef {import("./verify_record.js").GameRecord} GameRecord */
/** @typedef {import("./verify_record.js").Replay} Replay */
/** @typedef {import("./verify_record.js").Seen} Seen */
/** @typedef {import("./verify_record.js").Check} Check */
/** @typedef {import("./verify_record.js").FinalScore} FinalScore */

/** @param {readonly Good[] | null | undefined} goods */
const show = (goods) => (goods && goods.length ? goods.join(", ") : "nothing");
/** @param {unknown} a */
const describeAction = (a) => (a ? JSON.stringify(a) : "none");

/**
 * The first Warden the record shows: its own field, or the seat of the first action.
 * @param {GameRecord} record @returns {number | null}
 */
function recordedWarden(record) {
  if (isInt(record.first_warden)) return record.first_warden;
  return record.actions && record.actions.length ? record.actions[0].seat : null;
}

/**
 * Turn-ups the game shows: the record's (format 2 on), else the server's replay's.
 * @param {GameRecord} record @param {Replay | null} replay
 * @returns {{list: ShownTurnUp[], from: string} | {list: null, from: null}}
 */
function shownTurnUps(record, replay) {
  if (Array.isArray(record.turned_up)) return { list: record.turned_up, from: "the record" };
  if (replay && Array.isArray(replay.turned_up)) return { list: replay.turned_up, from: "the game's replay" };
  return { list: null, from: null };
}

/** @typedef {NonNullable<Seen["turned_up"]>[number]} SeenTurnUp */
/**
 * Match what this browser saw to the public turn-ups, in order (a seen turn-up happened at
 * a step in (from, to]). Returns the seen entry per public index, and the unmatched ones.
 * @param {readonly SeenTurnUp[] | null | undefined} seenList
 * @param {readonly import("./fairness_plots.js").TurnUp[]} publicList
 */
function matchSeen(seenList, publicList) {
  /** @type {Map<number, SeenTurnUp>} */
  const byIndex = new Map();
  /** @type {SeenTurnUp[]} */
  const unmatched = [];
  let p = 0;
  for (const s of seenList || []) {
    let found = -1;
    for (let i = p; i < publicList.length; i++) {
      const t = publicList[i];
      const inRange = s.source === "setup" ? t.step === 0 : s.from < t.step && t.step <= s.to;
      if (t.source === s.source && inRange) { found = i; break; }
    }
    if (found < 0) unmatched.push(s);
    else { byIndex.set(found, s); p = found + 1; }
  }
  return { byIndex, unmatched };
}

/** @param {readonly Good[]} a @param {readonly Good[]} b */
function sameGoods(a, b) {
  return a.length === b.length && a.every((g, i) => g === b[i]);
}

/** @type {Record<string, string>} */
const SOURCES = { setup: "at the setup", surveyor: "after the Surveyor", farmstead: "drawn by a Farmstead" };
/** @type {Record<string, string>} */
const ROW_NOTES = {
  changed: "the seed gives other plots here",
  missing: "the game turned these up, the list leaves them out",
  extra: "the game never turned up plots here",
  open: "the game ended during or right after this Surveyor phase: these may never have been turned up",
};

/** @param {import("./fairness_plots.js").TurnUpRow} r */
function describeRow(r) {
  const where = `#${r.index + 1} ${SOURCES[r.source] || r.source}${r.step ? ` (action ${r.step})` : ""}`;
  if (r.status === "missing") return `${where}: ${show(r.expected)} missing from the list`;
  if (r.status === "extra") return `${where}: ${show(r.shown)} shown, never turned up`;
  return `${where}: ${show(r.shown)} shown, the seed gives ${show(r.expected)}`;
}

/**
 * All the checks, in order: algorithm and format, fingerprint, the seats (formats 4 and 5:
 * every commitment against its seed, bots with neither; format 4: the bots' names; the
 * names removed at their players' request), what this browser saw, the draws (does
 * the key give this game's draws?), first Warden, every turn-up of plots, every action (by
 * the rules, on the server) and the final scores.
 * @param {GameRecord} record
 * @param {{replay?: Replay | null, seen?: Seen | null}} [given]
 * @returns {Promise<Check[]>}
 */
export async function verifyRecord(record, { replay = null, seen = null } = {}) {
  const seatNo = seatNamer(record);
  /** @type {Check[]} */
  const checks = [];
  const format = isInt(record.format) ? record.format : 1;
  // a table's deal (format 4, quaymoor-fair-2, or 5, quaymoor-fair-3), not quaymoor-fair-1
  const dealtFormat = isDealtFormat(format);
  const algorithm = algorithmOf(format);
  const known = algorithm !== null;
  const algoOk = known && record.algorithm === algorithm;
  checks.push(check("algorithm", "Algorithm and record format", algoOk, {
    computed: known ? `format ${format}: ${algorithm}` : `formats 1-3: ${ALGORITHM_1}, format 4: ${ALGORITHM_2}, format 5: ${ALGORITHM}`,
    game: `format ${JSON.stringify(record.format)}: ${String(record.algorithm)}`,
    note: algoOk ? "" : known ? `a format-${format} record is played with ${algorithm}, this one says ${JSON.stringify(record.algorithm)}`
      : `unknown record format ${JSON.stringify(record.format)}`,
  }));

  const fpLabel = dealtFormat ? "Fingerprint: SHA-256 of the algorithm, the table, its seats and the seed"
    : "SHA-256 of the seed is the fingerprint";
  let fpOk = false;
  /** @type {Uint8Array<ArrayBuffer> | null} */
  let key = null;
  const dealt = dealtFormat ? dealOf(record) : null;
  try {
    const fp = dealtFormat ? await tableFingerprint(record.seed, record.game, record.players, /** @type {string} */ (algorithm))
      : await fingerprint(record.seed);
    fpOk = fp === record.fingerprint;
    checks.push(check("fingerprint", fpLabel, fpOk,
      { computed: fp, game: String(record.fingerprint), note: fpOk ? "" : dealtFormat
        ? "the revealed seed, this table and its seats are not what the table committed to when it was created"
        : "the revealed seed is not the one committed to at the start" }));
  } catch (err) {
    checks.push(check("fingerprint", fpLabel, false,
      { computed: `cannot use this seed: ${errText(err)}`, game: String(record.fingerprint) }));
  }
  if (dealtFormat && dealt) {
    if (dealt.deal) {
      try {
        // quaymoor-fair-2's key binds the names: nobody may have chosen a bot's
        const misnamed = format === FORMAT_2 ? misnamedBot(dealt.deal) : null;
        if (misnamed) throw new Error(misnamed);
        key = await dealKey(record.seed, dealt.deal, /** @type {string} */ (algorithm));
        const committed = dealt.deal.seats.filter((x) => x.commitment !== null).length;
        const revealed = dealt.deal.seats.filter((x) => x.client_seed !== null).length;
        checks.push(check("seats", "Every seat's commitment against its seed; bots hold neither", true, {
          computed: `${committed} committed, ${revealed} revealed, each matching its commitment`,
          game: dealt.deal.seats.map((x, i) => `${seatNo(i)}: ${x.bot ? "bot" : x.commitment === null ? "no commitment"
            : x.client_seed === null ? `${commitText(x.commitment)}, did not reveal its seed` : `${commitText(x.commitment)} ← ${seedText(x.client_seed)}`}`).join("; "),
        }));
      } catch (err) {
        checks.push(check("seats", "Every seat's commitment against its seed; bots hold neither", false,
          { note: errText(err), game: dealt.deal.seats.map((x, i) => `${seatNo(i)}: ${x.bot ? "bot" : commitText(x.commitment)}, seed ${seedText(x.client_seed)}`).join("; ") }));
      }
    } else {
      checks.push(check("seats", "Every seat's commitment against its seed; bots hold neither", false, { note: dealt.problem }));
    }
  } else if (!dealtFormat) {
    const committed = (Array.isArray(record.seats) ? record.seats : []).findIndex((x) => x && x.commitment !== undefined && x.commitment !== null);
    if (committed >= 0) {
      checks.push(check("seats", "No commitments in a record before commit-and-reveal", false,
        { note: `a format-${format} record has no commitments, this one gives ${seatNo(committed)} one` }));
    }
    try {
      key = await deriveKey(record.seed, record.client_seeds || []);
    } catch {
      key = null; // the fingerprint's row says why the seed cannot be used
    }
  }

  checks.push(...removedChecks(record));

  const bound = Array.isArray(record.seat_seeds) ? record.seat_seeds : null;
  checks.push(...seenChecks(record, seen));

  // the draws, recomputed from the seed and client seeds
  /** @type {Check[]} */
  const draws = [];
  /** @type {Check | null} */
  let turnUps = null;
  const players = record.players;
  const shownWarden = recordedWarden(record);
  if (key) {
    const warden = await firstWarden(key, players);
    const seenWarden = seen && isInt(seen.first_warden) ? seen.first_warden : null;
    const ok = (shownWarden === null || shownWarden === warden) && (seenWarden === null || seenWarden === warden);
    draws.push(check("first-warden", "First Warden", shownWarden === null && seenWarden === null ? null : ok, {
      computed: seatNo(warden), game: shownWarden === null ? "" : seatNo(shownWarden),
      seen: seenWarden === null ? "" : seatNo(seenWarden),
      drawOk: shownWarden === null || shownWarden === warden,
    }));
    const shown = shownTurnUps(record, replay);
    if (typeof players !== "number" || !Object.hasOwn(SETUPS, players)) {
      turnUps = check("turn-ups", "Every plot turned up, worked out from the seed and the actions", false,
        { game: `${JSON.stringify(players)} players`, note: "a game has 2 to 5 players: docs/fairness.md's plot table has no row for this" });
    } else {
      // a game played to its end lists every turn-up, its last Surveyor phase's too; only a
      // game ended early may lack that one (docs/fairness.md, "How to check a game yourself")
      const expected = await expectedTurnUps(key, players, record.actions || [],
        { finished: !!record.result || record.end_reason === "finished" });
      /** @type {import("./fairness_plots.js").TurnUpRow[]} */
      const rows = shown.list ? compareTurnUps(expected, shown.list) : expected.map((e, index) => ({
        index, step: e.step, source: e.source, expected: e.goods, shown: null, status: "unshown", reshuffled: e.reshuffled,
      }));
      const matched = matchSeen(seen && seen.turned_up, expected);
      const wrong = rows.filter((r) => r.status === "changed" || r.status === "missing" || r.status === "extra");
      const counts = `${expected.filter((e) => !e.open).length} worked out`;
      turnUps = check("turn-ups", "Every plot turned up, worked out from the seed and the actions",
        shown.list ? wrong.length === 0 : null, {
          computed: counts, game: shown.list ? `${shown.list.length} in ${shown.from}` : "",
          note: !shown.list ? "this record does not list the plots turned up, and the game is not on this server"
            : wrong.length ? `${wrong.length} wrong, first ${describeRow(wrong[0])}` : "",
        });
      for (const r of rows) {
        const e = r.expected ? expected.find((x) => x.step === r.step && x.source === r.source) : null;
        const s = e ? matched.byIndex.get(expected.indexOf(e)) : null;
        const seenOk = !s || (r.expected && sameGoods(s.goods, r.expected));
        const ok = r.status === "ok" || r.status === "open" ? seenOk : r.status === "unshown" ? (s ? seenOk : null) : false;
        draws.push(check(`plots-${r.index + 1}`,
          `Plots turned up #${r.index + 1} ${SOURCES[r.source] || r.source}${r.step ? ` (action ${r.step})` : ""}${r.reshuffled ? ", after a reshuffle" : ""}`,
          ok, {
            computed: r.expected ? show(r.expected) : "no turn-up here", game: r.shown ? show(r.shown) : "not shown",
            seen: s ? show(s.goods) : "", drawOk: r.status === "changed" ? false : null,
            note: ROW_NOTES[r.status] || "",
          }));
      }
      if (seen && Array.isArray(seen.turned_up) && seen.turned_up.length) {
        const n = seen.turned_up.length;
        const ok = matched.unmatched.length === 0;
        draws.push(check("seen-plots", "Every turn-up this browser saw is in the game", ok, {
          game: `${expected.length} turn-ups`, seen: `${n} seen, ${n - matched.unmatched.length} found`,
          note: ok ? "" : `not in the game: ${matched.unmatched.map((u) => `${show(u.goods)} (${u.source}, actions ${u.from}-${u.to})`).join("; ")}`,
        }));
      }
    }
  }
  const drawLabel = dealtFormat ? "The seed and the seats give this game's draws" : "The seed and client seeds give this game's draws";
  if (key && fpOk) {
    // the key against the game (what this browser saw is checked apart)
    const bad = draws.filter((d) => d.drawOk === false);
    const from = format === FORMAT_2 ? "the seats (names, bots, commitments, seeds)"
      : dealtFormat ? "the seats (bots, commitments, seeds)" : `the client seeds ${JSON.stringify(record.client_seeds || [])}`;
    checks.push(check("client-seeds", drawLabel, bad.length === 0, {
      computed: `${draws.length} draws recomputed`, game: JSON.stringify(record.client_seeds || []),
      note: bad.length ? `the seed and ${from} do not give what the game showed (first: ${bad[0].label})` : "",
    }));
  } else {
    checks.push(check("client-seeds", drawLabel, null,
      { note: dealtFormat ? "needs a seed that matches the fingerprint and seats that hold" : "needs a seed that matches the fingerprint" }));
  }
  checks.push(...seatSeedChecks(record, bound));
  if (turnUps) checks.push(turnUps);
  checks.push(...draws);

  // the rules, replayed by the server, against this record
  if (replay && Array.isArray(replay.actions)) {
    const mine = record.actions || [];
    let diff = null;
    for (let i = 0; i < Math.max(mine.length, replay.actions.length) && !diff; i++) {
      const a = mine[i];
      const b = replay.actions[i];
      if (!a || !b || a.seat !== b.seat || canon(a.action) !== canon(b.action)) {
        diff = { i, a, b };
      }
    }
    if (replay.error) {
      checks.push(check("actions", "Every action (replayed through the rules by the server)", false,
        { game: replay.error, note: "the rules refuse an action of this game's record" }));
    } else if (diff) {
      const { i, a, b } = diff;
      checks.push(check("actions", "Every action (replayed through the rules by the server)", false, {
        computed: "", game: b ? `${seatNo(b.seat)}: ${describeAction(b.action)}` : "no such action",
        note: `action ${i + 1}: this record says ${a ? `${seatNo(a.seat)}: ${describeAction(a.action)}` : "nothing"}`,
      }));
    } else {
      checks.push(check("actions", "Every action (replayed through the rules by the server)", true,
        { game: `${replay.actions.length} actions replayed` }));
    }
  } else {
    checks.push(check("actions", "Every action", null,
      { note: "the game is not on this server: run quaymoor verify RECORD.json to replay it" }));
  }

  checks.push(scoresCheck(record, replay));
  return checks;
}

/**
 * JSON with every object's keys sorted, to compare values however they were written.
 * @param {unknown} value
 */
function canon(value) {
  /** @param {unknown} v @returns {unknown} */
  const sorted = (v) => {
    if (Array.isArray(v)) return v.map(sorted);
    if (v && typeof v === "object") {
      const o = /** @type {Record<string, unknown>} */ (v);
      return Object.fromEntries(Object.keys(o).sort().map((k) => [k, sorted(o[k])]));
    }
    return v;
  };
  return JSON.stringify(sorted(value));
}

/** @param {FinalScore} s */
function scoreText(s) {
  const bonuses = Object.values(s.bonuses || {}).reduce((n, x) => n + x, 0);
  return `total ${s.total} (seals ${s.seals}, buildings ${s.building_points}, bonuses ${bonuses}, coins+goods ${s.tiebreak})`;
}

/** @param {GameRecord} record @param {Replay | null} replay @returns {Check} */
function scoresCheck(record, replay) {
  const seatNo = seatNamer(record);
  const label = "Final scores";
  const result = record.result;
  if (!result) {
    const ended = replay && replay.over;
    return check("scores", label, ended ? false : null,
      { note: ended ? "the game ends, but this record has no result" : "the game was ended before its end: no scores" });
  }
  for (const s of result.scores) {
    const sum = s.seals + s.building_points + Object.values(s.bonuses || {}).reduce((n, x) => n + x, 0);
    if (sum !== s.total) {
      return check("scores", label, false, { computed: `${seatNo(s.seat)}: ${sum} = seals + buildings + bonuses`,
        game: `${seatNo(s.seat)}: ${scoreText(s)}`, note: "a total is not the sum of its parts" });
    }
  }
  if (!replay || !("result" in replay)) {
    return check("scores", label, null, { game: result.scores.map((s) => s.total).join(", "),
      note: "the game is not on this server: run quaymoor verify RECORD.json to replay it" });
  }
  const theirs = replay.result;
  if (!theirs) return check("scores", label, false, { game: "the replay does not finish the game", note: "" });
  for (const s of result.scores) {
    const t = theirs.scores.find((x) => x.seat === s.seat);
    if (!t || canon(t) !== canon(s)) {
      return check("scores", label, false, { computed: "", game: t ? `${seatNo(t.seat)}: ${scoreText(t)}` : "no such seat",
        note: `${seatNo(s.seat)}: this record says ${scoreText(s)}` });
    }
  }
  if (JSON.stringify(theirs.winners) !== JSON.stringify(result.winners)) {
    return check("scores", label, false, { game: `winners ${theirs.winners.join(", ")}`, note: `this record says winners ${result.winners.join(", ")}` });
  }
  return check("scores", label, true, { game: result.scores.map((s) => s.total).join(", "),
    computed: `winners: ${result.winners.map(seatNo).join(", ")}` });
}

// quaymoor-fair-3 (every table's game, record format 5: no seat's name in the key) in
// web/fairness.js under node (WebCrypto as the browser has it), against the test vectors
// as docs/fairness.md prints them: the vectors are read from the document itself ("Test
// vectors", the `quaymoor-fair-3` section, and the `quaymoor-fair-2` one beside it), so
// the page's code and the document cannot drift apart. Checked byte for byte: the
// fingerprint message and fingerprint, the key message and key, the first Warden, the
// plot stream and shuffle, the key with both seeds revealed, two bots alone; that a name
// changes no fair-3 key (and every fair-2 one); that no other algorithm deals a table; and
// the plot flow's vectors ("The plot flow": the setup's stack and turn-up, a reshuffle) with
// web/fairness_plots.js, the verify page's own plot code.
// Run by tests/web_model/test_model_node.py.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import {
  ALGORITHM, ALGORITHM_2, DealError, DrawStream, bytesToHex, dealKey, dealKeyMessage, firstWarden,
  seedCommitment, shuffled, tableFingerprint, tableFingerprintMessage,
} from "../../web/fairness.js";
import { SETUPS, canonical, initialStack, reshuffleLabel } from "../../web/fairness_plots.js";

const DOC = readFileSync(new URL("../../docs/fairness.md", import.meta.url), "utf8");
const TABLE = "a1b2c3d4e5";

/**
 * The text of the doc's section from the heading line `start` to the next heading of the
 * same or a higher level.
 * @param {string} text @param {string} start
 */
function section(text, start) {
  const lines = text.split("\n");
  const at = lines.indexOf(start);
  assert.ok(at >= 0, `docs/fairness.md has no heading ${JSON.stringify(start)}`);
  const level = start.indexOf(" ");
  const end = lines.findIndex((l, i) => i > at && /^#+ /.test(l) && l.indexOf(" ") <= level);
  return lines.slice(at + 1, end < 0 ? undefined : end).join("\n");
}

/**
 * The code blocks of a section (4-space indented), each as its entries in order:
 * `label        value` on one line (two or more spaces between), or a label alone on its
 * line with its value on the more indented lines below, joined (hex split over lines).
 * @param {string} text
 * @returns {Map<string, string>[]}
 */
function blocks(text) {
  /** @type {Map<string, string>[]} */
  const out = [];
  /** @type {Map<string, string> | null} */
  let block = null;
  /** @type {string | null} */
  let open = null; // a label whose value is on the lines below
  for (const line of text.split("\n")) {
    if (!line.startsWith("    ")) {
      if (line.trim()) { block = null; open = null; }
      continue;
    }
    if (!block) { block = new Map(); out.push(block); }
    const deeper = line.startsWith("     ");
    if (deeper && open !== null) {
      block.set(open, (block.get(open) ?? "") + line.trim());
      continue;
    }
    const m = /^ {4}(\S.*?)(?: {2,}(\S.*))?$/.exec(line);
    assert.ok(m, `cannot read the vector line ${JSON.stringify(line)}`);
    assert.ok(!block.has(m[1]), `the label ${m[1]} twice in one block`);
    if (m[2] === undefined) { open = m[1]; block.set(open, ""); } else { open = null; block.set(m[1], m[2]); }
  }
  return out;
}

/** @param {Map<string, string>} block @param {string} label */
function get(block, label) {
  assert.ok(block.has(label), `no ${JSON.stringify(label)} in ${JSON.stringify([...block.keys()])}`);
  return /** @type {string} */ (block.get(label));
}

const VECTORS = section(DOC, "## Test vectors");
const [SEED_BLOCK] = blocks(VECTORS.split("### ")[0]);
const SEED = get(SEED_BLOCK, "seed (hex)");
const FAIR_3 = blocks(section(DOC, "### `quaymoor-fair-3`"));
const FAIR_2 = blocks(section(DOC, "### `quaymoor-fair-2`"));
const [COMMITS] = FAIR_2.filter((b) => b.has("commitment, seat 0"));
const C0 = get(COMMITS, "commitment, seat 0");
const C2 = get(COMMITS, "commitment, seat 2");

/** The doc's deal: Alice revealed "alice", a bot, Bob committed and did not reveal (or did). */
const deal = (bob = null) => ({
  table: TABLE,
  seats: [
    { name: "Alice", bot: false, commitment: C0, client_seed: "alice" },
    { name: "Ada (bot)", bot: true, commitment: null, client_seed: null },
    { name: "Bob", bot: false, commitment: C2, client_seed: bob },
  ],
});
const twoBots = (names = ["Seat 1", "Seat 2"]) => ({ table: TABLE, seats: names.map((name) => (
  { name, bot: true, commitment: null, client_seed: null })) });

test("the doc's vectors are read: the seed, four fair-3 blocks, the commitments fair-3 shares", () => {
  assert.equal(SEED, "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f");
  assert.equal(FAIR_3.length, 4, JSON.stringify(FAIR_3.map((b) => [...b.keys()])));
  assert.match(C0, /^[0-9a-f]{64}$/);
  assert.match(C2, /^[0-9a-f]{64}$/);
  assert.equal(ALGORITHM, "quaymoor-fair-3");
  assert.equal(ALGORITHM_2, "quaymoor-fair-2");
});

/**
 * One algorithm's vectors, the doc's blocks in order: the fingerprint; (fair-2 only: the
 * commitments;) the deal; the deal with Bob's seed revealed; two bots alone.
 * @param {string} algorithm @param {Map<string, string>[]} doc
 */
async function checkVectors(algorithm, doc) {
  const [fp, main, both, bots] = doc.filter((b) => !b.has("commitment, seat 0"));
  assert.equal(bytesToHex(tableFingerprintMessage(SEED, TABLE, 3, algorithm)), get(fp, "fingerprint message (hex)"));
  assert.equal(await tableFingerprint(SEED, TABLE, 3, algorithm), get(fp, "fingerprint"));
  assert.equal(await tableFingerprint(SEED.toUpperCase(), TABLE, 3, algorithm), get(fp, "fingerprint"));
  assert.equal(bytesToHex(dealKeyMessage(deal(), algorithm)), get(main, "key message (hex)"));
  const key = await dealKey(SEED, deal(), algorithm);
  assert.equal(bytesToHex(key), get(main, "key"));
  assert.equal(String(await firstWarden(key, 3)), get(main, "first Warden"));
  assert.equal(bytesToHex(await new DrawStream(key, "plots").take(8)), get(main, "stream \"plots\", first 8 bytes"));
  assert.deepEqual(await shuffled(key, "plots", [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]),
    JSON.parse(get(main, "shuffled(key, \"plots\", [0, 1, 2, 3, 4, 5, 6, 7, 8, 9])")));
  const revealed = await dealKey(SEED, deal("bob"), algorithm);
  assert.equal(bytesToHex(revealed), get(both, "key"));
  assert.equal(String(await firstWarden(revealed, 3)), get(both, "first Warden"));
  assert.equal(bytesToHex(await dealKey(SEED, twoBots(), algorithm)), get(bots, "key"));
}

test("every quaymoor-fair-3 vector of docs/fairness.md, the default algorithm", async () => {
  await checkVectors(ALGORITHM, FAIR_3);
  // the default is quaymoor-fair-3
  assert.equal(await tableFingerprint(SEED, TABLE, 3), get(FAIR_3[0], "fingerprint"));
  assert.equal(bytesToHex(await dealKey(SEED, deal())), get(FAIR_3[1], "key"));
  assert.equal(bytesToHex(dealKeyMessage(deal())), get(FAIR_3[1], "key message (hex)"));
});

test("every quaymoor-fair-2 vector of docs/fairness.md, with ALGORITHM_2", async () => {
  assert.equal(FAIR_2.length, 5, JSON.stringify(FAIR_2.map((b) => [...b.keys()])));
  assert.equal(await seedCommitment(TABLE, 0, "alice"), C0);
  assert.equal(await seedCommitment(TABLE, 2, "bob"), C2);
  await checkVectors(ALGORITHM_2, FAIR_2);
});

test("a name changes no quaymoor-fair-3 key, and every quaymoor-fair-2 one", async () => {
  const renamed = deal();
  renamed.seats[2] = { ...renamed.seats[2], name: "Seat 3 (name removed)" };
  renamed.seats[1] = { ...renamed.seats[1], name: "Bede (bot)" };
  assert.equal(bytesToHex(await dealKey(SEED, renamed)), get(FAIR_3[1], "key"));
  assert.equal(bytesToHex(await dealKey(SEED, twoBots(["x", "y"]))), get(FAIR_3[3], "key"));
  assert.notEqual(bytesToHex(await dealKey(SEED, renamed, ALGORITHM_2)), get(FAIR_2[2], "key"));
  // what the fair-3 key does bind: the bot flags, the commitments, the seeds, the table
  const person = deal();
  person.seats[1] = { ...person.seats[1], bot: false };
  assert.notEqual(bytesToHex(await dealKey(SEED, person)), get(FAIR_3[1], "key"));
  const other = deal();
  other.seats[2] = { ...other.seats[2], commitment: await seedCommitment(TABLE, 2, "bobby") };
  assert.notEqual(bytesToHex(await dealKey(SEED, other)), get(FAIR_3[1], "key"));
  // (another table: the commitments are bound to theirs, so two bots alone)
  assert.notEqual(bytesToHex(await dealKey(SEED, { ...twoBots(), table: "a1b2c3d4e6" })), get(FAIR_3[3], "key"));
});

test("the two algorithms differ in the fingerprint and the key; no other deals a table", async () => {
  assert.notEqual(await tableFingerprint(SEED, TABLE, 3), await tableFingerprint(SEED, TABLE, 3, ALGORITHM_2));
  for (const bad of ["quaymoor-fair-1", "quaymoor-fair-4", "", "constructor"]) {
    await assert.rejects(tableFingerprint(SEED, TABLE, 3, bad), (e) => e instanceof DealError && e.message.includes("no table is dealt with algorithm"), bad);
    await assert.rejects(dealKey(SEED, deal(), bad), DealError, bad);
    assert.throws(() => dealKeyMessage(deal(), bad), DealError, bad);
  }
});

test("the plot flow's vectors of docs/fairness.md, with the verify page's plot code", async () => {
  const [setup, reshuffle] = blocks(section(DOC, "### The plot flow"));
  /** @param {string} text */
  const goods = (text) => text.split(",").map((g) => g.trim());
  const key = await dealKey(SEED, deal());
  const warden = await firstWarden(key, 3);
  assert.equal(String(warden), get(setup, "first Warden"));
  assert.deepEqual(goods(get(setup, "starting plots")),
    SETUPS[3].starting.map((g, i) => `seat ${(warden + i) % 3} ${g}`));
  const stack = await initialStack(key, 3);
  assert.equal(stack.length, 47);
  assert.deepEqual(goods(get(setup, "face up at the setup")), stack.slice(0, SETUPS[3].faceUp));
  assert.deepEqual(goods(get(setup, "stack after the setup (43 plots, top first)")), stack.slice(SETUPS[3].faceUp));
  const fresh = await shuffled(key, reshuffleLabel(1), canonical(goods(get(reshuffle, "discard pile"))));
  assert.deepEqual(goods(get(reshuffle, "new stack (top first)")), fresh);
  assert.equal(get(reshuffle, "plot drawn"), fresh[0]);
});

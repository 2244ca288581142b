// quaymoor-fair-2 (format-4 records: ALGORITHM_2, passed to tableFingerprint, dealKey and
// dealKeyMessage) in web/fairness.js under node (WebCrypto as the browser has it): every
// test vector of docs/fairness.md byte for byte (the fingerprint, both commitments, the key
// message and key, the first Warden, the plot stream and shuffle, the key with both seeds
// revealed, two bots alone), and checkDeal naming the first bad seat as the doc says.
// quaymoor-fair-3's vectors are fairness3.test.mjs. Run by tests/web_model/test_model_node.py.

import { test } from "node:test";
import assert from "node:assert/strict";
import {
  ALGORITHM_2, DealError, bytesToHex, checkDeal, commitmentMessage, dealKey, dealKeyMessage, DrawStream, firstWarden,
  seedCommitment, shuffled, tableFingerprint, tableFingerprintMessage,
} from "../../web/fairness.js";

const SEED = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";
const TABLE = "a1b2c3d4e5";
const C0 = "324d36568c34ed345b4d28a9b3fdfb5b4e96593fbcf8116df98f28a5e3a75d31";
const C2 = "ecbcb9779935adb5e0cf8bd42991c061000333ff300fc75a14c5a551cbf201eb";
const FAIR_2 = ALGORITHM_2;

/** The doc's deal: Alice revealed "alice", a bot, Bob committed and did not reveal. */
const deal = (bob = null) => ({
  table: TABLE,
  seats: [
    { name: "Alice", bot: false, commitment: C0, client_seed: "alice" },
    { name: "Ada (bot)", bot: true, commitment: null, client_seed: null },
    { name: "Bob", bot: false, commitment: C2, client_seed: bob },
  ],
});

test("the fingerprint vector", async () => {
  assert.equal(bytesToHex(tableFingerprintMessage(SEED, TABLE, 3, FAIR_2)),
    "717561796d6f6f722d666169722d3200000a61316232633364346535030001020304050607"
    + "08090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f");
  assert.equal(await tableFingerprint(SEED, TABLE, 3, FAIR_2), "25c301835fd4f79d88dba0be8f00f5f742c8c966628320f82243b1e5ab236cd8");
  assert.equal(await tableFingerprint(SEED.toUpperCase(), TABLE, 3, FAIR_2), "25c301835fd4f79d88dba0be8f00f5f742c8c966628320f82243b1e5ab236cd8");
  assert.notEqual(await tableFingerprint(SEED, TABLE, 4, FAIR_2), await tableFingerprint(SEED, TABLE, 3, FAIR_2));
  assert.notEqual(await tableFingerprint(SEED, "a1b2c3d4e6", 3, FAIR_2), await tableFingerprint(SEED, TABLE, 3, FAIR_2));
});

test("both commitment vectors", async () => {
  assert.equal(bytesToHex(commitmentMessage(TABLE, 0, "alice")),
    "717561796d6f6f722d636f6d6d69742d3200000a61316232633364346535000005616c696365");
  assert.equal(await seedCommitment(TABLE, 0, "alice"), C0);
  assert.equal(await seedCommitment(TABLE, 2, "bob"), C2);
  assert.notEqual(await seedCommitment(TABLE, 1, "alice"), C0); // bound to the seat
});

test("the key message, the key, the first Warden and the plots", async () => {
  assert.equal(bytesToHex(dealKeyMessage(deal(), FAIR_2)),
    "717561796d6f6f722d6b65792d3200000a6131623263336434653503000005416c69636501"
    + "324d36568c34ed345b4d28a9b3fdfb5b4e96593fbcf8116df98f28a5e3a75d31010005616c"
    + "6963650100094164612028626f74290000000003426f6201ecbcb9779935adb5e0cf8bd429"
    + "91c061000333ff300fc75a14c5a551cbf201eb00");
  const key = await dealKey(SEED, deal(), FAIR_2);
  assert.equal(bytesToHex(key), "e2cce3445289c7a74a77134073881070ba92e6894dcce9275af8d75cf666acf8");
  assert.equal(await firstWarden(key, 3), 2);
  assert.equal(bytesToHex(await new DrawStream(key, "plots").take(8)), "2d60c3a92df4a10f");
  assert.deepEqual(await shuffled(key, "plots", [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]), [6, 3, 1, 4, 9, 8, 2, 7, 0, 5]);
  const both = await dealKey(SEED, deal("bob"), FAIR_2);
  assert.equal(bytesToHex(both), "a957a416da1318f67af004a7ad872927e83ffd2b69e49aa40e74dd5527f7f578");
  assert.equal(await firstWarden(both, 3), 1);
  const bots = await dealKey(SEED, { table: TABLE, seats: [
    { name: "Seat 1", bot: true, commitment: null, client_seed: null },
    { name: "Seat 2", bot: true, commitment: null, client_seed: null }] }, FAIR_2);
  assert.equal(bytesToHex(bots), "608edff8f5f8e306fb9586c7e805c2b65d2df02f8bd4c4121d8f27d8b07034fb");
});

/** checkDeal's refusal for a deal edited by `edit`, or "ok". */
async function refusal(edit) {
  const d = deal("bob");
  edit(d);
  try {
    await checkDeal(d);
    await dealKey(SEED, d, FAIR_2);
    return "ok";
  } catch (e) {
    assert.ok(e instanceof DealError, String(e));
    return e.message;
  }
}

for (const [name, edit, words] of [
  ["a bot with a seed", (d) => { d.seats[1].client_seed = "x"; }, "seat 1 (Ada (bot)) is a bot, and bots hold no seed nor commitment"],
  ["a bot with a commitment", (d) => { d.seats[1].commitment = C0; }, "seat 1 (Ada (bot)) is a bot, and bots hold no seed nor commitment"],
  ["a seed moved to a bot", (d) => { d.seats[1].client_seed = "alice"; d.seats[0].client_seed = null; }, "seat 1 (Ada (bot)) is a bot"],
  ["a seed without a commitment", (d) => { d.seats[0].commitment = null; }, "seat 0 (Alice) gives a client seed it never committed to"],
  ["a seed not matching its commitment", (d) => { d.seats[2].client_seed = "bobby"; }, `seat 2 (Bob): its client seed "bobby" does not match its commitment ${C2}`],
  ["a seat's seed swapped with another's", (d) => { d.seats[0].client_seed = "bob"; d.seats[2].client_seed = "alice"; }, "seat 0 (Alice): its client seed \"bob\" does not match"],
  ["a malformed commitment", (d) => { d.seats[2].commitment = C2.toUpperCase(); }, "seat 2 (Bob): a commitment is 64 lowercase hex digits"],
  ["a short commitment", (d) => { d.seats[0].commitment = C0.slice(2); }, "seat 0 (Alice): a commitment is 64 lowercase hex digits"],
  ["an empty seed", (d) => { d.seats[0].client_seed = ""; }, "seat 0 (Alice): a client seed may not be empty"],
  ["a seed with NUL", (d) => { d.seats[0].client_seed = "a\u0000b"; }, "seat 0 (Alice): a client seed may not hold NUL"],
]) {
  test(`checkDeal refuses ${name}, naming the seat`, async () => {
    const said = await refusal(edit);
    assert.ok(said.startsWith(words), said);
  });
}

test("the first bad seat is the one named", async () => {
  const said = await refusal((d) => { d.seats[2].client_seed = "bobby"; d.seats[1].client_seed = "x"; });
  assert.match(said, /^seat 1 /);
});

test("swapping two seats, or renaming one, changes the key (and so the draws)", async () => {
  const d = deal();
  const swapped = { table: TABLE, seats: [d.seats[1], d.seats[0], d.seats[2]] };
  swapped.seats[1] = { ...swapped.seats[1], commitment: null, client_seed: null }; // the seed cannot follow: it is bound to seat 0
  assert.notEqual(bytesToHex(await dealKey(SEED, swapped, FAIR_2)), bytesToHex(await dealKey(SEED, d, FAIR_2)));
  const renamed = { table: TABLE, seats: d.seats.map((s, i) => (i === 1 ? { ...s, name: "Bede (bot)" } : s)) };
  assert.notEqual(bytesToHex(await dealKey(SEED, renamed, FAIR_2)), bytesToHex(await dealKey(SEED, d, FAIR_2)));
});

// The verify page's checks (web/verifier.js) under node: no DOM, no network, WebCrypto as
// the browser has it. A record's seat binding stripped (seat_seeds null or missing), a seed
// on a bot's seat, or a person's seed moved to a bot's seat fails the seat-seeds check while
// every draw still checks out; and nothing given besides the record (such as a forged
// /api/rules answer) changes what is computed. Run by tests/web_model/test_model_node.py.

import { test } from "node:test";
import assert from "node:assert/strict";
import { verifyRecord } from "../../web/verifier.js";
import { fingerprint, deriveKey, firstWarden } from "../../web/fairness.js";
import { SETUPS, expectedTurnUps } from "../../web/fairness_plots.js";

const SEED = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";

/** A two-player record before any action: "alice" at seat 0 (a person), a bot at seat 1. */
async function record() {
  const key = await deriveKey(SEED, ["alice"]);
  const [setup] = await expectedTurnUps(key, 2, [], { finished: false });
  return {
    format: 3, algorithm: "quaymoor-fair-1", players: 2, seed: SEED,
    fingerprint: await fingerprint(SEED), client_seeds: ["alice"],
    seats: [{ name: "Ada", bot: false }, { name: "Bede (bot)", bot: true }],
    actions: [], result: null, end_reason: "shutdown",
    first_warden: await firstWarden(key, 2),
    turned_up: [{ step: setup.step, source: setup.source, goods: setup.goods }],
    seat_seeds: ["alice", null],
  };
}

const failed = (checks) => checks.filter((c) => c.status === "fail").map((c) => c.id);
const seatRow = (checks) => checks.find((c) => c.id === "seat-seeds");

test("the faithful record passes every check it can make", async () => {
  const checks = await verifyRecord(await record());
  assert.deepEqual(failed(checks), []);
  assert.equal(seatRow(checks).status, "pass");
  assert.equal(checks.find((c) => c.id === "plots-1").status, "pass");
  assert.equal(checks.find((c) => c.id === "plots-1").computed.split(", ").length, SETUPS[2].faceUp);
});

for (const [name, edit, words] of [
  ["seat_seeds null", (r) => { r.seat_seeds = null; }, "the binding was stripped"],
  ["seat_seeds missing", (r) => { delete r.seat_seeds; }, "the binding was stripped"],
  ["a seed on a bot's seat", (r) => { r.seats[0].bot = true; }, "Ada is a bot, and bots hold no seed"],
  ["a person's seed moved to a bot's seat", (r) => { r.seat_seeds = [null, "alice"]; },
    "Bede (bot) is a bot, and bots hold no seed"],
  ["seat_seeds in a format-2 record", (r) => { r.format = 2; }, "a format-2 record binds no seeds to seats"],
]) {
  test(`${name} fails the seat binding, and only it`, async () => {
    const r = await record();
    edit(r);
    const checks = await verifyRecord(r);
    assert.deepEqual(failed(checks), ["seat-seeds"]);
    assert.match(seatRow(checks).note, new RegExp(words.replace(/[()]/g, "\\$&")));
  });
}

test("a genuine format-2 record (no binding) is read as before", async () => {
  const r = await record();
  r.format = 2;
  delete r.seat_seeds;
  const checks = await verifyRecord(r);
  assert.deepEqual(failed(checks), []);
  assert.equal(seatRow(checks), undefined);
});

test("nothing but the record decides the draws: a forged rules answer changes nothing", async () => {
  const r = await record();
  const honest = await verifyRecord(r);
  const forged = { 2: { face_up_plots: 1, plots: [1, 1, 1, 1, 1] } };
  // the old way in: a `setups` argument from /api/rules is ignored now
  const given = /** @type {any} */ ({ setups: forged, replay: null, seen: null });
  assert.deepEqual(await verifyRecord(r, given), honest);
  const short = await record();
  short.turned_up[0].goods = short.turned_up[0].goods.slice(0, 1); // what one face up would give
  assert.ok(failed(await verifyRecord(short, given)).includes("plots-1"));
});

test("the page's plot table cannot be changed by the code that uses it", () => {
  assert.ok(Object.isFrozen(SETUPS) && Object.isFrozen(SETUPS[2]) && Object.isFrozen(SETUPS[2].plots));
  assert.throws(() => { "use strict"; SETUPS[2].faceUp = 1; }, TypeError);
});

// The verify page's checks (web/verifier.js) on format-5 records (quaymoor-fair-3, every
// table's game: no seat's name in the key) under node. The faithful record passes; a seat
// whose name was removed at its player's request ("removed": true, "Seat N (name
// removed)") passes, and so does a record whose names were changed in any other way (the
// key binds none: that is the point), while a changed commitment, seed, bot flag or table
// fails. `removed` is refused, naming the seat, on a bot, in a format-4 record, with
// another name, or other than true; a format-5 record labelled quaymoor-fair-2, or turned
// into a format-4 one, fails. What this browser saw at the start: a removed seat's name is
// not compared (nor shown), the others' are. Run by tests/web_model/test_model_node.py.

import { test } from "node:test";
import assert from "node:assert/strict";
import { verifyRecord } from "../../web/verifier.js";
import { ALGORITHM, ALGORITHM_2, dealKey, fingerprint, firstWarden, seedCommitment, tableFingerprint } from "../../web/fairness.js";
import { expectedTurnUps } from "../../web/fairness_plots.js";
import { checkSeed } from "../../web/view_end.js";

const SEED = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";
const TABLE = "a1b2c3d4e5";
const ACTIONS = [
  { seat: 0, action: { type: "pick_role", role: "surveyor" } },
  { seat: 0, action: { type: "pass" } },
];

/**
 * A three-player record (docs/fairness.md's deal): Alice committed and revealed "alice",
 * a bot, Bob committed "bob" and revealed it or not; a Surveyor phase played, so the
 * draws cover the first Warden and two turn-ups. Format 5 (or 4 with `algorithm` fair-2).
 */
async function record({ bobRevealed = false, algorithm = ALGORITHM } = {}) {
  const seats = [
    { name: "Alice", bot: false, commitment: await seedCommitment(TABLE, 0, "alice") },
    { name: "Ada (bot)", bot: true, commitment: null },
    { name: "Bob", bot: false, commitment: await seedCommitment(TABLE, 2, "bob") },
  ];
  const seatSeeds = ["alice", null, bobRevealed ? "bob" : null];
  const key = await dealKey(SEED, { table: TABLE, seats: seats.map((s, i) => ({ ...s, client_seed: seatSeeds[i] })) }, algorithm);
  const turned = await expectedTurnUps(key, 3, ACTIONS, { finished: false });
  return {
    format: algorithm === ALGORITHM ? 5 : 4, algorithm, players: 3, seed: SEED, game: TABLE,
    fingerprint: await tableFingerprint(SEED, TABLE, 3, algorithm), client_seeds: seatSeeds.filter((x) => x !== null),
    seats, actions: ACTIONS, result: null, end_reason: "shutdown", first_warden: await firstWarden(key, 3),
    turned_up: turned.map(({ step, source, goods }) => ({ step, source, goods })),
    seat_seeds: seatSeeds,
  };
}

/** Bob's account deleted: his seat as the server rewrites it. */
const removeBob = (r) => { r.seats[2].name = "Seat 3 (name removed)"; r.seats[2].removed = true; };

const failed = (checks) => checks.filter((c) => c.status === "fail").map((c) => c.id);
const row = (checks, id) => checks.find((c) => c.id === id);
const KEY_CHECKS = ["algorithm", "fingerprint", "seats", "client-seeds", "seat-seeds", "first-warden", "plots-1", "plots-2"];

test("the faithful format-5 record passes every check it can make", async () => {
  for (const bobRevealed of [false, true]) {
    const r = await record({ bobRevealed });
    assert.equal(r.format, 5);
    assert.equal(r.algorithm, "quaymoor-fair-3");
    const checks = await verifyRecord(r);
    assert.deepEqual(failed(checks), []);
    for (const id of KEY_CHECKS) assert.equal(row(checks, id).status, "pass", id);
    assert.equal(row(checks, "names-removed"), undefined); // no seat says removed: no row
    assert.match(row(checks, "algorithm").computed, /format 5: quaymoor-fair-3/);
    assert.match(row(checks, "seats").game, bobRevealed ? /Bob: .*← "bob"/ : /Bob: .*did not reveal its seed/);
  }
});

test("a seat whose name was removed at its player's request passes", async () => {
  for (const bobRevealed of [false, true]) {
    const r = await record({ bobRevealed });
    removeBob(r);
    const checks = await verifyRecord(r);
    assert.deepEqual(failed(checks), []);
    for (const id of [...KEY_CHECKS, "names-removed"]) assert.equal(row(checks, id).status, "pass", id);
    assert.equal(row(checks, "names-removed").game, "Seat 3 (name removed)");
    assert.match(row(checks, "seats").game, /Seat 3 \(name removed\): /);
  }
  const r = await record();
  r.seats[2].removed = false; // as the reference reads it: not removed
  const checks = await verifyRecord(r);
  assert.deepEqual(failed(checks), []);
  assert.equal(row(checks, "names-removed"), undefined);
});

test("the names changed in any other way: the key binds none, so the key's checks pass", async () => {
  for (const edit of [
    (r) => { r.seats[0].name = "Alicia"; },
    (r) => { r.seats[1].name = "Bede (bot)"; }, // format 4 would refuse a bot named off the rule
    (r) => { [r.seats[0].name, r.seats[2].name] = [r.seats[2].name, r.seats[0].name]; },
    (r) => { for (const s of r.seats) s.name = ""; },
  ]) {
    const r = await record({ bobRevealed: true });
    edit(r);
    const checks = await verifyRecord(r);
    assert.deepEqual(failed(checks), [], edit.toString());
    for (const id of KEY_CHECKS) assert.equal(row(checks, id).status, "pass", `${id}: ${edit}`);
  }
});

for (const [name, edit, failing, words] of [
  ["a commitment changed (its seat never revealed)", async (r) => { r.seats[2].commitment = await seedCommitment(TABLE, 2, "bobby"); }, ["client-seeds"], "do not give what the game showed"],
  ["a commitment changed (its seat revealed)", async (r) => { r.seats[0].commitment = await seedCommitment(TABLE, 0, "alicia"); }, ["seats"], "seat 0 (Alice): its client seed \"alice\" does not match"],
  ["a client seed changed", (r) => { r.seat_seeds[0] = "alicia"; r.client_seeds = ["alicia"]; }, ["seats"], "seat 0 (Alice): its client seed \"alicia\" does not match"],
  ["a withheld seed added", (r) => { r.seat_seeds[2] = "bob"; r.client_seeds = ["alice", "bob"]; }, ["client-seeds"], "do not give what the game showed"],
  ["the server's seed changed", (r) => { r.seed = `ff${SEED.slice(2)}`; }, ["fingerprint"], "not what the table committed to"],
  ["a bot's seat made a person's", (r) => { r.seats[1].bot = false; }, ["client-seeds"], "the seats (bots, commitments, seeds)"],
  ["a person's seat made a bot's", (r) => { r.seats[0].bot = true; }, ["seats"], "seat 0 (Alice) is a bot, and bots hold no seed nor commitment"],
  ["the table changed", (r) => { r.game = "a1b2c3d4e6"; }, ["fingerprint", "seats"], "does not match its commitment"],
  ["removed on a bot's seat", (r) => { r.seats[1].name = "Seat 2 (name removed)"; r.seats[1].removed = true; }, ["names-removed"], "seat 1 is a bot, and a bot's name is never removed"],
  ["removed with another name", (r) => { r.seats[2].removed = true; }, ["names-removed"], "seat 2's name was removed, so it reads \"Seat 3 (name removed)\", not \"Bob\""],
  ["removed with another seat's number", (r) => { r.seats[2].name = "Seat 2 (name removed)"; r.seats[2].removed = true; }, ["names-removed"], "so it reads \"Seat 3 (name removed)\", not \"Seat 2 (name removed)\""],
  ["removed other than true", (r) => { removeBob(r); r.seats[2].removed = "yes"; }, ["names-removed"], "seat 2 says \"removed\": \"yes\"; it is true or absent"],
  ["format 5 with quaymoor-fair-2", (r) => { r.algorithm = "quaymoor-fair-2"; }, ["algorithm"], "a format-5 record is played with quaymoor-fair-3, this one says \"quaymoor-fair-2\""],
  ["format 5 with quaymoor-fair-1", (r) => { r.algorithm = "quaymoor-fair-1"; }, ["algorithm"], "a format-5 record is played with quaymoor-fair-3"],
  ["turned into format 4 (quaymoor-fair-2)", (r) => { r.format = 4; r.algorithm = "quaymoor-fair-2"; }, ["fingerprint", "first-warden"], "not what the table committed to"],
]) {
  test(`${name}: refused and named`, async () => {
    const r = await record();
    await edit(r);
    const checks = await verifyRecord(r);
    for (const id of failing) assert.ok(failed(checks).includes(id), `${id} in ${failed(checks)}`);
    const said = failing.map((id) => `${row(checks, id).note}`).join(" | ");
    assert.ok(said.includes(words), said);
  });
}

test("removed in a format-4 record is refused (its key binds the names)", async () => {
  const r = await record({ algorithm: ALGORITHM_2 });
  assert.deepEqual(failed(await verifyRecord(r)), []); // the faithful format-4 record passes
  removeBob(r);
  const checks = await verifyRecord(r);
  assert.equal(row(checks, "names-removed").status, "fail");
  assert.match(row(checks, "names-removed").note, /seat 2 says its name was removed, which only a format-5 record can \(this one is format 4, whose key binds the names\)/);
  assert.equal(row(checks, "client-seeds").status, "fail"); // and the name was in the key
  // a format-4 record relabelled format 5: the fingerprint names the algorithm
  const up = await record({ algorithm: ALGORITHM_2 });
  up.format = 5;
  up.algorithm = "quaymoor-fair-3";
  assert.ok(failed(await verifyRecord(up)).includes("fingerprint"));
});

test("what this browser saw: a removed seat's name is neither compared nor shown; the others' are", async () => {
  const r = await record();
  const honest = {
    fingerprint: r.fingerprint, client_seed: "alice", commitment: r.seats[0].commitment, committed: true, revealed: true, seat: 0,
    start_commitments: r.seats.map((s) => s.commitment), start_seeds: r.seat_seeds.slice(),
    start_seats: r.seats.map((s) => ({ name: s.name, bot: s.bot })),
  };
  let checks = await verifyRecord(r, { seen: honest });
  assert.deepEqual(failed(checks), []);
  assert.equal(row(checks, "seen-seats").status, "pass");
  assert.equal(row(checks, "seen-seats").note, "");

  removeBob(r);
  checks = await verifyRecord(r, { seen: honest });
  assert.deepEqual(failed(checks), []);
  const seats = row(checks, "seen-seats");
  assert.equal(seats.status, "pass");
  assert.match(seats.note, /the name at seat 3 was removed at its player's request \(an account deleted\): that seat is compared by its bot flag only/);
  assert.ok(!seats.seen.includes("Bob"), seats.seen); // the browser's own copy is not shown
  assert.match(seats.seen, /^Alice, Ada \(bot\) \(a bot\), \(name removed at its player's request\)$/);

  // another seat renamed is still caught here (not in the key, but not what the start showed)
  const renamed = structuredClone(r);
  renamed.seats[0].name = "Alicia";
  checks = await verifyRecord(renamed, { seen: honest });
  assert.deepEqual(failed(checks), ["seen-seats"]);
  assert.match(row(checks, "seen-seats").note, /seat 1: the record has "Alicia", the start showed "Alice"/);

  // a removed mark that does not hold excuses nothing
  const onBot = structuredClone(r);
  onBot.seats[2] = { name: "Bob", bot: false, commitment: r.seats[2].commitment };
  onBot.seats[1].name = "Seat 2 (name removed)";
  onBot.seats[1].removed = true;
  checks = await verifyRecord(onBot, { seen: honest });
  assert.deepEqual(failed(checks).sort(), ["names-removed", "seen-seats"]);
  assert.match(row(checks, "seen-seats").note, /seat 2: the record has "Seat 2 \(name removed\)" \(a bot\), the start showed "Ada \(bot\)" \(a bot\)/);

  // the removed seat's bot flag is still compared
  const flipped = structuredClone(honest);
  flipped.start_seats[2] = { name: "Cuthbert (bot)", bot: true };
  checks = await verifyRecord(r, { seen: flipped });
  assert.deepEqual(failed(checks), ["seen-seats"]);
  assert.match(row(checks, "seen-seats").note, /seat 3: the record has "Seat 3 \(name removed\)", the start showed "Cuthbert \(bot\)" \(a bot\)/);
});

test("the end screen checks the seed against the fingerprint of game_ended's algorithm (quaymoor-fair-3 when it names none)", async () => {
  const fp3 = await tableFingerprint(SEED, TABLE, 3);
  assert.equal((await checkSeed(SEED, fp3, TABLE, 3)).ok, true);
  assert.equal((await checkSeed(SEED, fp3, TABLE, 3, "quaymoor-fair-3")).ok, true);
  const fp2 = await tableFingerprint(SEED, TABLE, 3, ALGORITHM_2);
  assert.equal((await checkSeed(SEED, fp2, TABLE, 3)).ok, false);
  assert.equal((await checkSeed(SEED, fp2, TABLE, 3, ALGORITHM_2)).ok, true);
  // a game of before commit-and-reveal showed SHA-256 of its seed alone
  const fp1 = await fingerprint(SEED);
  assert.equal((await checkSeed(SEED, fp1, TABLE, 3, "quaymoor-fair-1")).ok, true);
  assert.equal((await checkSeed(SEED, fp1, TABLE, 3)).ok, false);
});

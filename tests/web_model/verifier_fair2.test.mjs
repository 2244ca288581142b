// The verify page's checks (web/verifier.js) on format-4 records (quaymoor-fair-2: the
// seats' names in the key) under node: the faithful record passes; each tamper fails and
// is named: the binding stripped (game, a seat's commitment, seat_seeds), a
// format/algorithm pairing other than (5, fair-3), (4, fair-2) or (1-3, fair-1), the
// record downgraded, seats swapped, a bot renamed, a name removed (only format 5 may), a
// seed moved to a bot's seat, a seed that does not match its commitment; what this
// browser saw (its commitment, the commitments listed at the start) against the record;
// and a finished game's last Surveyor turn-up left out. Format 5 is verifier_fair3.test.mjs.
// Run by tests/web_model/test_model_node.py.

import { test } from "node:test";
import assert from "node:assert/strict";
import { verifyRecord } from "../../web/verifier.js";
import { ALGORITHM_2, dealKey, firstWarden, seedCommitment, tableFingerprint } from "../../web/fairness.js";
import { botNames } from "../../web/verify_seats.js";
import { expectedTurnUps } from "../../web/fairness_plots.js";

const SEED = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";
const TABLE = "a1b2c3d4e5";

/**
 * A three-player record (docs/fairness.md's deal): Alice committed and revealed "alice",
 * a bot, Bob committed "bob" and did not reveal. `actions` and how it ended as given.
 */
async function record({ actions = [], end = "shutdown", bobRevealed = false } = {}) {
  const seats = [
    { name: "Alice", bot: false, commitment: await seedCommitment(TABLE, 0, "alice") },
    { name: "Ada (bot)", bot: true, commitment: null },
    { name: "Bob", bot: false, commitment: await seedCommitment(TABLE, 2, "bob") },
  ];
  const seatSeeds = ["alice", null, bobRevealed ? "bob" : null];
  const key = await dealKey(SEED, { table: TABLE, seats: seats.map((s, i) => ({ ...s, client_seed: seatSeeds[i] })) }, ALGORITHM_2);
  const turned = await expectedTurnUps(key, 3, actions, { finished: end === "finished" });
  return {
    format: 4, algorithm: "quaymoor-fair-2", players: 3, seed: SEED, game: TABLE,
    fingerprint: await tableFingerprint(SEED, TABLE, 3, ALGORITHM_2), client_seeds: seatSeeds.filter((x) => x !== null),
    seats, actions, result: null, end_reason: end, first_warden: await firstWarden(key, 3),
    turned_up: turned.map(({ step, source, goods }) => ({ step, source, goods })),
    seat_seeds: seatSeeds,
  };
}

const failed = (checks) => checks.filter((c) => c.status === "fail").map((c) => c.id);
const row = (checks, id) => checks.find((c) => c.id === id);

test("the faithful format-4 record passes every check it can make", async () => {
  for (const bobRevealed of [false, true]) {
    const checks = await verifyRecord(await record({ bobRevealed }));
    assert.deepEqual(failed(checks), []);
    for (const id of ["algorithm", "fingerprint", "seats", "client-seeds", "seat-seeds", "first-warden", "plots-1"]) {
      assert.equal(row(checks, id).status, "pass", id);
    }
    assert.match(row(checks, "seats").game, bobRevealed ? /Bob: .*← "bob"/ : /Bob: .*did not reveal its seed/);
  }
});

for (const [name, edit, failing, words] of [
  ["game stripped", (r) => { delete r.game; }, ["fingerprint", "seats"], "names none: stripped"],
  ["game null", (r) => { r.game = null; }, ["fingerprint", "seats"], "names none: stripped"],
  ["a seat's commitment stripped", (r) => { delete r.seats[2].commitment; }, ["seats"], "seat 2 has no \"commitment\" entry"],
  ["every commitment nulled", (r) => { for (const s of r.seats) s.commitment = null; }, ["seats"], "seat 0 (Alice) gives a client seed it never committed to"],
  ["seat_seeds null", (r) => { r.seat_seeds = null; }, ["seats"], "the binding was stripped"],
  ["seat_seeds missing", (r) => { delete r.seat_seeds; }, ["seats"], "the binding was stripped"],
  ["a seed moved to a bot's seat", (r) => { r.seat_seeds = [null, "alice", null]; r.client_seeds = ["alice"]; }, ["seats"], "seat 1 (Ada (bot)) is a bot, and bots hold no seed nor commitment"],
  ["a person's seat made a bot's", (r) => { r.seats[0].bot = true; }, ["seats"], "seat 0 is a bot named \"Alice\", but a bot there is named \"Ada (bot)\""],
  ["a bot renamed", (r) => { r.seats[1].name = "Bede (bot)"; }, ["seats"], "seat 1 is a bot named \"Bede (bot)\", but a bot there is named \"Ada (bot)\""],
  ["a seed that does not match", (r) => { r.seat_seeds[2] = "bobby"; r.client_seeds = ["alice", "bobby"]; }, ["seats"], "seat 2 (Bob): its client seed \"bobby\" does not match"],
  ["two seats swapped whole", (r) => {
    [r.seats[0], r.seats[2]] = [r.seats[2], r.seats[0]];
    r.seat_seeds = [null, null, "alice"];
  }, ["seats"], "seat 2 (Alice): its client seed \"alice\" does not match"],
  ["format 4 with quaymoor-fair-1", (r) => { r.algorithm = "quaymoor-fair-1"; }, ["algorithm"], "a format-4 record is played with quaymoor-fair-2"],
  ["format 5 with quaymoor-fair-2", (r) => { r.format = 5; }, ["algorithm"], "a format-5 record is played with quaymoor-fair-3"],
  ["format 6", (r) => { r.format = 6; }, ["algorithm"], "unknown record format 6"],
  ["a name removed (only format 5 may)", (r) => { r.seats[2].name = "Seat 3 (name removed)"; r.seats[2].removed = true; }, ["names-removed", "client-seeds"],
    "seat 2 says its name was removed, which only a format-5 record can (this one is format 4, whose key binds the names)"],
]) {
  test(`${name} is refused and named`, async () => {
    const r = await record();
    edit(r);
    const checks = await verifyRecord(r);
    for (const id of failing) assert.ok(failed(checks).includes(id), `${id} in ${failed(checks)}`);
    const said = failing.map((id) => row(checks, id).note).join(" | ");
    assert.ok(said.includes(words), said);
    if (failing.includes("seats")) assert.notEqual(row(checks, "client-seeds").status, "pass"); // no key, no draws passed
  });
}

test("the names swapped: the key changes, and the draws no longer match", async () => {
  const r = await record();
  [r.seats[0].name, r.seats[2].name] = [r.seats[2].name, r.seats[0].name];
  const checks = await verifyRecord(r);
  assert.equal(row(checks, "seats").status, "pass"); // each seed still matches its seat
  assert.equal(row(checks, "client-seeds").status, "fail");
  assert.ok(failed(checks).includes("plots-1") || failed(checks).includes("first-warden"), failed(checks));
});

test("a downgrade to format 3 and quaymoor-fair-1 fails: the fingerprint and the draws", async () => {
  const r = await record();
  r.format = 3;
  r.algorithm = "quaymoor-fair-1";
  for (const s of r.seats) delete s.commitment;
  const checks = await verifyRecord(r);
  assert.equal(row(checks, "fingerprint").status, "fail");
  assert.equal(row(checks, "algorithm").status, "pass");
});

test("a format-3 record with commitments, or with quaymoor-fair-2, is refused", async () => {
  const r = await record();
  r.format = 3;
  const checks = await verifyRecord(r);
  assert.ok(failed(checks).includes("algorithm"));
  assert.ok(failed(checks).includes("seats"));
  assert.match(row(checks, "seats").note, /a format-3 record has no commitments, this one gives Alice one/);
});

test("what this browser saw: its commitment and the commitments listed at the start", async () => {
  const r = await record();
  const mine = r.seats[0].commitment;
  const honest = {
    fingerprint: r.fingerprint, client_seed: "alice", commitment: mine, committed: true, revealed: true, seat: 0,
    start_commitments: r.seats.map((s) => s.commitment), start_seeds: r.seat_seeds.slice(),
    start_seats: r.seats.map((s) => ({ name: s.name, bot: s.bot })),
  };
  let checks = await verifyRecord(r, { seen: honest });
  assert.deepEqual(failed(checks), []);
  for (const id of ["seen-fingerprint", "seen-seats", "seen-commitment", "seen-client-seed", "seen-commitments", "seen-start-seeds"]) {
    assert.equal(row(checks, id).status, "pass", id);
  }
  const otherSeats = honest.start_seats.map((x, i) => (i === 2 ? { name: "Bobby", bot: false } : x));
  checks = await verifyRecord(r, { seen: { ...honest, start_seats: otherSeats } });
  assert.deepEqual(failed(checks), ["seen-seats"]);
  assert.match(row(checks, "seen-seats").note, /seat 3: the record has "Bob", the start showed "Bobby"/);
  checks = await verifyRecord(r, { seen: { ...honest, commitment: "f".repeat(64) } });
  assert.deepEqual(failed(checks), ["seen-commitment"]);
  const other = honest.start_commitments.slice();
  other[2] = "e".repeat(64);
  checks = await verifyRecord(r, { seen: { ...honest, start_commitments: other } });
  assert.deepEqual(failed(checks), ["seen-commitments"]);
  assert.match(row(checks, "seen-commitments").note, /Bob: the record has .*, the start showed eeeeeeee…eeeeeeee/);
  // committed and never revealed (the start did not list ours): no seed is looked for
  checks = await verifyRecord(r, { seen: { ...honest, revealed: false } });
  assert.equal(row(checks, "seen-client-seed"), undefined);
});

test("a finished game's last Surveyor turn-up may not be missing; a game ended early's may", async () => {
  const actions = [
    { seat: 0, action: { type: "pick_role", role: "surveyor" } },
    { seat: 0, action: { type: "pass" } },
  ];
  for (const [end, rowStatus, verdict] of [["finished", "missing", "fail"], ["shutdown", "open", "pass"]]) {
    const r = await record({ actions, end });
    assert.equal(r.turned_up.length, 2);
    r.turned_up = r.turned_up.slice(0, 1); // the last Surveyor phase's turn-up left out
    const checks = await verifyRecord(r);
    assert.equal(row(checks, "turn-ups").status, verdict, end);
    assert.equal(row(checks, "plots-2").note.includes(rowStatus === "missing" ? "leaves them out" : "may never"), true, end);
  }
});

test("bots' names are fixed by the people's (docs/fairness.md, bot_names)", () => {
  assert.deepEqual(botNames(["Alice", null, "Bob"]), [null, "Ada (bot)", null]);
  assert.deepEqual(botNames(["Ada", null, null]), [null, "Bede (bot)", "Cuthbert (bot)"]);
  assert.deepEqual(botNames([null, "Bede (bot)", null, "Ada"]), ["Cuthbert (bot)", null, "Dunstan (bot)", null]);
  assert.deepEqual(botNames([null, null]), ["Ada (bot)", "Bede (bot)"]);
});

test("a key given twice in one object is found (the record is refused as it is read)", async () => {
  const { repeatedKey } = await import("../../web/verify_record.js");
  const r = await record();
  const text = JSON.stringify(r);
  assert.equal(repeatedKey(text), null);
  assert.equal(repeatedKey(text.replace('"seed":', '"seed":"00","seed":')), "seed");
  assert.equal(repeatedKey('{"seats": [{"name": "A", "bot": false, "name": "B"}]}'), "name");
  assert.equal(repeatedKey('{"a": {"b": 1}, "b": {"a": "\\"a\\":"}, "c": [{"a": 1}, {"a": 2}]}'), null);
  assert.equal(repeatedKey('{"a\\u0062": 1, "ab": 2}'), "ab");
});

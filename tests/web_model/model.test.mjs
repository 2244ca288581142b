// The table's model (web/table_model.js) under node: no DOM, no network. Run by
// tests/web_model/test_model_node.py (node --test).

import { test } from "node:test";
import assert from "node:assert/strict";
import { TableModel, changedKeys, actKey } from "../../web/table_model.js";
import { nameOrSeat, seatName } from "../../web/text.js";

const ROLES = ["surveyor", "reeve", "mason", "miller", "chandler", "bargemaster", "pedlar"];

function mat(seat, extra = {}) {
  return {
    seat, coins: 3, seals: 0, score: 0, building_points: 0, lodge: 1,
    goods: { clay: 0, flax: 0, wool: 0, honey: 0, amber: 0 },
    plots: { clay: 1, flax: 0, wool: 0, honey: 0, amber: 0, stone_pit: 0 },
    worked: { clay: 0, flax: 0, wool: 0, honey: 0, amber: 0, stone_pit: 0 },
    buildings: [], ...extra,
  };
}

function view(version, { deciding = [0], legal = [], seat = 0, phase = "pick_role", roles } = {}) {
  return {
    seat, players: 2, version,
    board: {
      round: 1, warden: 0, phase, role: null, picker: null, turn: 0,
      roles: roles || ROLES.map((r) => ({ role: r, coins: 0, picked_by: null })),
      face_up: ["clay", "wool"], stack: 20, discard: 0, stone_pits: 5,
      market: [{ building: "stall", copies: 2, price: 1 }],
      barges: [{ good: null, load: 0, capacity: 4 }], hall: [],
      apprentice_barge: 2, supply_apprentices: 40, supply_goods: { clay: 9, flax: 9, wool: 9, honey: 9, amber: 9 },
      seals: 60, end_reasons: [],
    },
    mats: [mat(0), mat(1)], deciding, legal, takebacks: [], keep: null, result: null,
  };
}

const pick = (role) => ({ type: "pick_role", role });

test("a snapshot then a delta: the view follows, and what changed is marked", () => {
  const m = new TableModel(0);
  const first = m.takeUpdate({ version: 3, since: 0, view: view(3, { legal: [pick("miller")] }), seats: [], events: [] });
  assert.equal(first.drawn, true);
  assert.equal(first.fresh, true, "a decision of ours arrived");
  assert.equal(m.changed.size, 0, "a snapshot marks nothing");
  const patch = [["/version", 4], ["/board/roles/3/picked_by", 1], ["/board/roles/3/coins", 0], ["/deciding", [1]], ["/legal", []],
    ["/mats/1/coins", 4]];
  const got = m.takeUpdate({ version: 4, since: 3, patch, events: [{ type: "role_picked", seat: 1, role: "miller", coins: 0 }] });
  assert.equal(got.drawn, true);
  assert.equal(m.view.version, 4);
  assert.deepEqual([...m.changed].sort(), ["role:miller", "seat:1"]);
  assert.equal(m.isMine(), false);
  assert.equal(m.lastEvents.length, 1);
});

test("a delta that does not follow the view held asks for a snapshot and changes nothing", () => {
  const m = new TableModel(0);
  m.takeUpdate({ version: 3, since: 0, view: view(3), seats: [] });
  const got = m.takeUpdate({ version: 9, since: 8, patch: [["/version", 9]] });
  assert.equal(got.resync, true);
  assert.equal(got.since, 3, "resync names the version held");
  assert.equal(got.drawn, false);
  assert.equal(m.view.version, 3);
  // while the snapshot is awaited, later deltas are dropped
  assert.equal(m.takeUpdate({ version: 4, since: 3, patch: [["/version", 4]] }).drawn, false);
  assert.equal(m.takeUpdate({ version: 9, since: 8, view: view(9), seats: [] }).drawn, true);
});

test("a lifted card is put back when its action is no longer legal", () => {
  const m = new TableModel(0);
  m.takeUpdate({ version: 1, since: 0, view: view(1, { legal: [pick("miller"), pick("reeve")] }), seats: [] });
  assert.equal(m.lift("role", "miller", pick("miller")), "lifted");
  assert.equal(m.lifted.key, "miller");
  m.takeUpdate({ version: 2, since: 1, patch: [["/version", 2], ["/legal", [pick("reeve")]]] });
  assert.equal(m.lifted, null);
});

test("lifting: a second press on a role picks it, on a building puts it back; nothing while a move is out", () => {
  const m = new TableModel(0);
  const build = { type: "build", building: "stall" };
  m.takeUpdate({ version: 1, since: 0, view: view(1, { legal: [pick("miller"), build] }), seats: [] });
  assert.equal(m.lift("role", "miller", pick("miller")), "lifted");
  assert.equal(m.lift("role", "miller", pick("miller")), "act");
  assert.equal(m.lift("building", "stall", build), "lifted", "lifting another replaces the first");
  assert.equal(m.lifted.type, "building");
  assert.equal(m.lift("building", "stall", build), "put-back");
  assert.equal(m.lifted, null);
  m.sent(m.nextActId());
  assert.equal(m.lift("role", "miller", pick("miller")), "ignored");
  assert.equal(m.putBack(), null);
});

test("a decision is fresh when it becomes ours or its phase moves on, not at each step of it", () => {
  const m = new TableModel(0);
  const place = { type: "place_on_plot", kind: "clay" };
  m.takeUpdate({ version: 1, since: 0, view: view(1, { deciding: [1] }), seats: [] });
  assert.equal(m.isMine(), false);
  let got = m.takeUpdate({ version: 2, since: 1, patch: [["/version", 2], ["/deciding", [0]], ["/legal", [place]], ["/board/phase", "reeve"]] });
  assert.equal(got.fresh, true);
  got = m.takeUpdate({ version: 3, since: 2, patch: [["/version", 3], ["/mats/0/worked/clay", 1]] });
  assert.equal(got.fresh, false, "a second placement is the same decision");
  assert.deepEqual([...m.changed], ["holding:clay"]);
  m.doneAsked = true;
  got = m.takeUpdate({ version: 4, since: 3, patch: [["/version", 4], ["/board/phase", "mason"]] });
  assert.equal(got.fresh, true);
  assert.equal(m.doneAsked, false, "the Done question is put away at a new decision");
});

test("an act waits for its own answer: acted or the error with its id, not others' updates", () => {
  const m = new TableModel(0);
  m.actIds = true; // welcome's act_ids
  m.takeUpdate({ version: 1, since: 0, view: view(1, { legal: [pick("miller")] }), seats: [] });
  assert.equal(m.nextActId(), 1);
  m.sent(m.nextActId());
  assert.equal(m.pending, true);
  assert.equal(m.nextActId(), 2, "each act its own id");
  // another seat's move (a simultaneous phase) is no answer to ours
  m.takeUpdate({ version: 2, since: 1, patch: [["/version", 2]] });
  assert.equal(m.pending, true);
  m.voted.add(1);
  m.refused(); // an error without an id: a vote's, not our act's
  assert.equal(m.pending, true);
  assert.equal(m.voted.size, 0, "a refused vote is forgotten");
  assert.equal(m.acted(7), false, "an answer to an act we do not wait for");
  assert.equal(m.pending, true);
  assert.equal(m.acted(1), true);
  assert.equal(m.pending, false);
  m.sent(m.nextActId());
  m.refused(1); // a late answer to the first act
  assert.equal(m.pending, true);
  m.refused(2);
  assert.equal(m.pending, false, "refused: the choices are open again");
  m.sent(m.nextActId());
  m.reconnected(); // a new connection: its catch-up shows whether the act was applied
  assert.equal(m.pending, false);
  assert.equal(m.acted(3), false);
});

test("a server without act ids (an old process in a rolling deploy): acts go unnumbered", () => {
  const m = new TableModel(0);
  m.takeUpdate({ version: 1, since: 0, view: view(1, { legal: [pick("miller")] }), seats: [] });
  assert.equal(m.actIds, false, "until welcome says so");
  assert.equal(m.nextActId(), null);
  m.sent(m.nextActId());
  assert.equal(m.pending, true);
  m.refused(); // its error has no id: the choices open again
  assert.equal(m.pending, false);
  m.sent(m.nextActId());
  m.takeUpdate({ version: 2, since: 1, patch: [["/version", 2]] }); // so does an update
  assert.equal(m.pending, false);
  assert.equal(m.actId, 0, "no id used");
});

test("the end: no choices, nothing marked", () => {
  const m = new TableModel(0);
  m.takeUpdate({ version: 1, since: 0, view: view(1, { legal: [pick("miller")] }), seats: [] });
  m.end({ reason: "finished" });
  assert.equal(m.isMine(), false);
  assert.deepEqual(m.choices(), []);
  assert.equal(m.changed.size, 0);
});

test("changedKeys names the barge loaded, the hall, the market and the plots turned up", () => {
  const a = view(1);
  const b = structuredClone(a);
  b.board.barges[0] = { good: "wool", load: 2, capacity: 4 };
  b.board.hall = ["clay"];
  b.board.market[0].copies = 1;
  b.board.face_up = ["clay", "honey"];
  b.board.stone_pits = 4;
  b.mats[0].goods.wool = 1;
  assert.deepEqual([...changedKeys(a, b, 0)].sort(),
    ["barge:0", "hall", "market:stall", "my-stats", "plot:1", "stonepit"]);
  assert.deepEqual([...changedKeys(a, a, 0)], []);
});

test("who decides and the clock, as the bar says them", () => {
  const m = new TableModel(0);
  m.takeUpdate({ version: 1, since: 0, view: view(1, { deciding: [0, 1], legal: [pick("miller")] }),
    seats: [{ seat: 0, name: "Ada", bot: false, bot_playing: false, connected: true }, { seat: 1, name: "Bede", bot: true, bot_playing: false, connected: true }],
    clocks: [{ seat: 1, remaining: 30 }, { seat: 0, remaining: 12.5 }] });
  assert.equal(m.whoText(), "You (and 1 other)");
  assert.deepEqual(m.clock(2), { seat: 0, left: 10.5 }, "our own clock first");
  assert.deepEqual(m.clock(99).left, 0);
  const spectator = new TableModel(null);
  spectator.takeUpdate({ version: 1, since: 0, view: view(1, { deciding: [1], seat: null }), seats: m.seats });
  assert.equal(spectator.whoText(), "Bede (bot)");
  assert.equal(spectator.isMine(), false);
  assert.equal(actKey(pick("miller")), '{"type":"pick_role","role":"miller"}');
});

test("the last moves in words, a timeout's line left out for the bar", () => {
  const m = new TableModel(0);
  m.takeUpdate({ version: 1, since: 0, view: view(1), seats: [{ seat: 1, name: "Bede", bot: true, bot_playing: false, connected: true }] });
  m.takeUpdate({ version: 2, since: 1, patch: [["/version", 2]], events: [
    { type: "timed_out", seat: 1, actions: [{ type: "pass" }] },
    { type: "passed", seat: 1, role: "mason" }] });
  assert.match(m.lastMoves(), /ran out of time/);
  assert.equal(m.lastMoves(false), "Bede (bot) passed (Mason)");
});

test("a seat's name: its own, else Seat N; marked as a bot, a bot playing, or you", () => {
  assert.equal(nameOrSeat("Ada", 0), "Ada");
  assert.equal(nameOrSeat(null, 2), "Seat 3");
  assert.equal(nameOrSeat("", 0), "Seat 1");
  const seats = [{ seat: 0, name: null }, { seat: 1, name: "Bede (bot)", bot: true },
    { seat: 2, name: "Cy", bot_playing: true }];
  assert.deepEqual([0, 1, 2].map((s) => seatName(seats, s, 0)),
    ["You (Seat 1)", "Bede (bot)", "Cy (bot playing)"]);
});

test("a hint is offered for our own choice among bots, or with a person at a table opened with hints", () => {
  const m = new TableModel(0);
  const person = { seat: 1, name: "Bede", bot: false, bot_playing: false, connected: true };
  const bot = { seat: 1, name: "Bede (bot)", bot: true, bot_playing: false, connected: true };
  m.takeUpdate({ version: 1, since: 0, view: view(1, { legal: [pick("miller"), pick("reeve")] }), seats: [] });
  m.seats = [{ ...person, seat: 0, name: "Ada" }, bot];
  assert.equal(m.hintsAllowed(), true, "every other seat a bot");
  m.seats = [{ ...person, seat: 0, name: "Ada" }, person];
  assert.equal(m.hintsAllowed(), false, "another person, no agreement");
  m.hintsForAll = true;
  assert.equal(m.hintsAllowed(), true, "the table was opened with hints for everyone");
  m.rated = true;
  assert.equal(m.hintsAllowed(), false, "a rated table: never (the server refuses them)");
  m.seats = [{ ...person, seat: 0, name: "Ada" }, bot];
  assert.equal(m.hintsAllowed(), false, "not among bots either");
  m.rated = false;
  m.takeUpdate({ version: 2, since: 1, patch: [["/version", 2], ["/deciding", [1]], ["/legal", []]] });
  assert.equal(m.hintsAllowed(), false, "not our decision");
});

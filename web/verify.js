// @ts-check
// The verify page: /verify.html?game=<id>, or a pasted record. The checks themselves are in
// verifier.js; this page fetches the record and the server's replay (only for the rules:
// the actions and the result), adds what this browser saw (seen.js), and shows every check
// passed or failed with the values side by side. It asks the server for nothing the draws
// are computed from: the plot table is docs/fairness.md's, in fairness_plots.js.

import { h, clear } from "./dom.js";
import { verifyRecord } from "./verifier.js";
import { seenFor } from "./seen.js";
import { errorOf, errorText } from "./net.js";
import { nameOrSeat } from "./text.js";
import { repeatedKey } from "./verify_record.js";

/** @typedef {import("./verify_record.js").GameRecord} GameRecord */
/** @typedef {import("./verify_record.js").Check} Check */
/** Where the record came from: the game's id (null: none) and the words for it. @typedef {{id: string | null, source: string}} Origin */

const GAME_ID = /^[0-9a-f]{10}$/;
/** The element with this id: verify.html has every one asked for. @param {string} id */
const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));
/** @param {string} id */
const input = (id) => /** @type {HTMLInputElement | HTMLTextAreaElement} */ (document.getElementById(id));
const checksBody = () => /** @type {HTMLElement} */ ($("checks").querySelector("tbody"));

/**
 * An answer's status and parsed JSON (null when it is not JSON), for the caller to read as
 * the endpoint's documented shape.
 * @param {string} url
 * @returns {Promise<{ok: boolean, status: number, data: unknown, text: string}>}
 */
async function getJson(url) {
  const res = await fetch(url, { headers: { Accept: "application/json" } });
  const text = await res.text();
  /** @type {unknown} */
  let data;
  try { data = JSON.parse(text); } catch { data = null; }
  return { ok: res.ok, status: res.status, data, text };
}

/** Why a record's text cannot be read as one record (a key given twice), or "". @param {string} text */
function unreadable(text) {
  const key = repeatedKey(text);
  return key === null ? "" : `the key ${JSON.stringify(key)} is given twice in one object (which value counts would be up to the parser): refused, as quaymoor verify refuses it`;
}

/** @param {{status: number, data: unknown}} r */
function refusalText(r) {
  return errorOf(r.data).message || `HTTP ${r.status}`;
}

/** @param {string} text @param {"ok" | "bad" | "wait"} kind */
function setVerdict(text, kind) {
  const v = $("verdict");
  v.textContent = text;
  v.className = `verdict ${kind}`;
  v.dataset.state = kind;
}

/** @param {HTMLElement} dl @param {string} term @param {string | Node} value @param {string} [id] */
function fact(dl, term, value, id) {
  dl.append(h("dt", {}, term), h("dd", { class: "mono", id: id || null }, value));
}

/** @param {GameRecord} record @param {Check[]} checks @param {Origin} origin */
function render(record, checks, { id, source }) {
  const dl = clear($("facts"));
  if (id) {
    fact(dl, "Game", h("span", {}, id, " · ", h("a", { href: `/games/${id}` }, "game page"), " · ",
      h("a", { href: `/games/${id}.json` }, "record")));
  }
  fact(dl, "From", source);
  fact(dl, "Players", (record.seats || []).map((s, i) => `${nameOrSeat(s.name, i)}${s.bot && !/\(bot\)/.test(s.name || "") ? " (bot)" : ""}`).join(", "));
  const removed = (record.seats || []).flatMap((s, i) => (s && s.removed === true ? [`seat ${i + 1}`] : []));
  if (removed.length) {
    fact(dl, "Names removed", `${removed.join(", ")}: taken out of the record at ${removed.length === 1 ? "its player's" : "their players'"} request (an account deleted)`, "v-removed");
  }
  fact(dl, "Seed", String(record.seed), "v-seed");
  fact(dl, "Fingerprint", String(record.fingerprint), "v-fingerprint");
  fact(dl, "Format", `${String(record.format ?? 1)} (${String(record.algorithm)})`, "v-format");
  if (record.game) fact(dl, "Table", String(record.game), "v-table");
  if (Array.isArray(record.seats) && record.seats.some((s) => s && typeof s.commitment === "string")) {
    fact(dl, "Commitments by seat", record.seats.map((s, i) => `${nameOrSeat(s.name, i)}: ${typeof s.commitment === "string" ? s.commitment : "none"}`).join(", "), "v-commitments");
  }
  fact(dl, "Client seeds", JSON.stringify(record.client_seeds || []), "v-client-seeds");
  if (Array.isArray(record.seat_seeds)) {
    fact(dl, "Seeds by seat", record.seat_seeds.map((s, i) => `${nameOrSeat(record.seats && record.seats[i] && record.seats[i].name, i)}: ${s === null ? "none" : JSON.stringify(s)}`).join(", "), "v-seat-seeds");
  }
  if (record.end_reason) fact(dl, "Ended", record.end_reason);

  const body = clear(checksBody());
  for (const c of checks) {
    const mark = c.status === "pass" ? "✔ passed" : c.status === "fail" ? "✘ FAILED" : "– not checked";
    body.append(h("tr", { "data-check": c.id, "data-status": c.status },
      h("td", { class: "check-label" }, c.label, c.note ? h("span", { class: "note" }, c.note) : null),
      h("td", {}, c.computed || ""),
      h("td", {}, c.game || ""),
      h("td", {}, c.seen || ""),
      h("td", { class: "status" }, mark)));
  }
  const failed = checks.filter((c) => c.status === "fail");
  const passed = checks.filter((c) => c.status === "pass");
  if (failed.length) {
    setVerdict(`✘ ${failed.length} check${failed.length === 1 ? "" : "s"} FAILED — first: ${failed[0].label}`, "bad");
    $("verdict").dataset.first = failed[0].id;
  } else {
    setVerdict(`✔ All ${passed.length} checks passed`, "ok");
    delete $("verdict").dataset.first;
  }
  $("outcome").dataset.done = "1";
}

/** @param {GameRecord} record @param {Origin} origin */
async function run(record, { id, source }) {
  $("outcome").hidden = false;
  delete $("outcome").dataset.done;
  setVerdict("Checking…", "wait");
  clear(checksBody());
  /** @type {import("./verify_record.js").Replay | null} */
  let replay = null;
  if (id) {
    const r = await getJson(`/api/games/${id}/replay`);
    if (r.ok) replay = /** @type {import("./verify_record.js").Replay} */ (r.data);
  }
  /** @type {import("./verify_record.js").Seen | null} */
  const seen = id ? seenFor(id) : null;
  try {
    const checks = await verifyRecord(record, { replay, seen });
    render(record, checks, { id, source });
  } catch (err) {
    setVerdict(`Could not check: ${errorText(err)}`, "bad");
    $("outcome").dataset.done = "1";
  }
}

/** @param {string} id */
async function checkGame(id) {
  $("outcome").hidden = false;
  delete $("outcome").dataset.done;
  if (!GAME_ID.test(id)) {
    setVerdict("A game id is 10 hex digits (0-9, a-f).", "bad");
    $("outcome").dataset.done = "1";
    return;
  }
  setVerdict("Loading the game…", "wait");
  const r = await getJson(`/games/${id}.json`);
  if (!r.ok || !r.data) {
    setVerdict(`No record for game ${id}: ${refusalText(r)}`, "bad");
    clear($("facts"));
    clear(checksBody());
    $("outcome").dataset.done = "1";
    return;
  }
  const why = unreadable(r.text);
  if (why) {
    setVerdict(`✘ The record of game ${id} is not a game record: ${why}`, "bad");
    $("outcome").dataset.done = "1";
    return;
  }
  await run(/** @type {GameRecord} */ (r.data), { id, source: `this server's archive (/games/${id}.json)` });
}

/** @param {string} text a pasted record */
async function checkText(text) {
  /** @type {GameRecord} */
  let record;
  try {
    record = JSON.parse(text);
    if (!record || typeof record !== "object" || Array.isArray(record)) throw new Error("not a JSON object");
    const why = unreadable(text);
    if (why) throw new Error(why);
  } catch (err) {
    $("outcome").hidden = false;
    setVerdict(`That is not a game record: ${errorText(err)}`, "bad");
    $("outcome").dataset.done = "1";
    return;
  }
  const id = typeof record.game === "string" && GAME_ID.test(record.game) ? record.game : null;
  await run(record, { id, source: "the pasted record" });
}

function main() {
  const params = new URLSearchParams(location.search);
  const id = params.get("game");
  $("load-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const value = input("game-id").value.trim().toLowerCase();
    history.replaceState(null, "", `/verify.html?game=${encodeURIComponent(value)}`);
    checkGame(value);
  });
  $("paste-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    checkText(input("record-text").value);
  });
  if (id) {
    input("game-id").value = id;
    checkGame(id.trim().toLowerCase());
  }
}

main();

// The verify page: /verify.html?game=<id>, or a pasted record. The checks themselves are in
// verifier.js; this page fetches the record, the rules' setups (how many plots lie face up)
// and the server's replay, adds what this browser saw (seen.js), and shows every check
// passed or failed with the values side by side.

import { h, clear } from "./dom.js";
import { verifyRecord } from "./verifier.js";
import { seenFor } from "./seen.js";

const GAME_ID = /^[0-9a-f]{10}$/;
const $ = (id) => document.getElementById(id);

async function getJson(url) {
  const res = await fetch(url, { headers: { Accept: "application/json" } });
  let data;
  try { data = await res.json(); } catch { data = null; }
  return { ok: res.ok, status: res.status, data };
}

function errorText(r) {
  return (r.data && r.data.error && r.data.error.message) || `HTTP ${r.status}`;
}

function setVerdict(text, kind) {
  const v = $("verdict");
  v.textContent = text;
  v.className = `verdict ${kind}`;
  v.dataset.state = kind;
}

function fact(dl, term, value, id) {
  dl.append(h("dt", {}, term), h("dd", { class: "mono", id: id || null }, value));
}

function render(record, checks, { id, source }) {
  const dl = clear($("facts"));
  if (id) {
    fact(dl, "Game", h("span", {}, id, " · ", h("a", { href: `/games/${id}` }, "game page"), " · ",
      h("a", { href: `/games/${id}.json` }, "record")));
  }
  fact(dl, "From", source);
  fact(dl, "Players", (record.seats || []).map((s, i) => `${s.name || `Seat ${i + 1}`}${s.bot && !/\(bot\)/.test(s.name || "") ? " (bot)" : ""}`).join(", "));
  fact(dl, "Seed", String(record.seed), "v-seed");
  fact(dl, "Fingerprint", String(record.fingerprint), "v-fingerprint");
  fact(dl, "Client seeds", JSON.stringify(record.client_seeds || []), "v-client-seeds");
  if (Array.isArray(record.seat_seeds)) {
    fact(dl, "Seeds by seat", record.seat_seeds.map((s, i) => `${(record.seats && record.seats[i] && record.seats[i].name) || `Seat ${i + 1}`}: ${s === null ? "none" : JSON.stringify(s)}`).join(", "), "v-seat-seeds");
  }
  if (record.end_reason) fact(dl, "Ended", record.end_reason);

  const body = clear($("checks").querySelector("tbody"));
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

async function run(record, { id, source }) {
  $("outcome").hidden = false;
  delete $("outcome").dataset.done;
  setVerdict("Checking…", "wait");
  clear($("checks").querySelector("tbody"));
  let replay = null;
  if (id) {
    const r = await getJson(`/api/games/${id}/replay`);
    if (r.ok) replay = r.data;
  }
  const seen = id ? seenFor(id) : null;
  const rules = await getJson("/api/rules");
  const setups = rules.ok && rules.data ? rules.data.setups : null;
  try {
    const checks = await verifyRecord(record, { replay, seen, setups });
    render(record, checks, { id, source });
  } catch (err) {
    setVerdict(`Could not check: ${err.message}`, "bad");
    $("outcome").dataset.done = "1";
  }
}

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
    setVerdict(`No record for game ${id}: ${errorText(r)}`, "bad");
    clear($("facts"));
    clear($("checks").querySelector("tbody"));
    $("outcome").dataset.done = "1";
    return;
  }
  await run(r.data, { id, source: `this server's archive (/games/${id}.json)` });
}

async function checkText(text) {
  let record;
  try {
    record = JSON.parse(text);
    if (!record || typeof record !== "object" || Array.isArray(record)) throw new Error("not a JSON object");
  } catch (err) {
    $("outcome").hidden = false;
    setVerdict(`That is not a game record: ${err.message}`, "bad");
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
    const value = $("game-id").value.trim().toLowerCase();
    history.replaceState(null, "", `/verify.html?game=${encodeURIComponent(value)}`);
    checkGame(value);
  });
  $("paste-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    checkText($("record-text").value);
  });
  if (id) {
    $("game-id").value = id;
    checkGame(id.trim().toLowerCase());
  }
}

main();

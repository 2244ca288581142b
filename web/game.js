// A finished game's page, /games/<id>: the result with scores by component, the seed and
// the links to the record and the verify page, and a replay to step through (the server
// replays the record through the rules: /api/games/<id>/replay?step=K).

import { h, clear } from "./dom.js";
import {
  GOODS, PLOT_KINDS, setCatalogue, eventText, seatName, roleName, buildingName, kindName,
  endReasonText, actionLabel,
} from "./text.js";

const $ = (id) => document.getElementById(id);
const gameId = (location.pathname.match(/^\/games\/([0-9a-f]{10})\/?$/) || [])[1] || null;
let info = null;
let seats = [];
let steps = 0;
let current = -1;
let loading = 0;

async function getJson(url) {
  const res = await fetch(url, { headers: { Accept: "application/json" } });
  let data;
  try { data = await res.json(); } catch { data = null; }
  if (!res.ok) {
    const err = new Error((data && data.error && data.error.message) || `HTTP ${res.status}`);
    err.status = res.status;
    throw err;
  }
  return data;
}

const plural = (n, w) => `${n} ${w}${n === 1 ? "" : "s"}`;

const REASONS = { finished: "Played to the end", shutdown: "Ended when the server stopped", crashed: "Ended by a server fault" };

function renderResult() {
  const r = info.result;
  $("title").textContent = `Game ${info.id}`;
  document.title = `Game ${info.id} — Quaymoor`;
  const when = info.ended_at ? new Date(info.ended_at * 1000).toLocaleString() : "";
  $("status").textContent = `${info.players} players · ${REASONS[info.reason] || info.reason}${when ? ` · ${when}` : ""} · ${info.steps} actions`;
  $("result").hidden = false;
  if (r) {
    const names = r.winners.map((s) => seatName(seats, s, null)).join(" and ");
    $("winners").textContent = `Winner${r.winners.length > 1 ? "s" : ""}: ${names}.${r.reasons.length ? ` The end came because ${r.reasons.map(endReasonText).join(" and ")}.` : ""}`;
    const rows = [...r.scores].sort((a, b) => b.total - a.total || b.tiebreak - a.tiebreak);
    clear($("scores")).append(
      h("thead", {}, h("tr", {}, ["Player", "Total", "Seals", "Buildings", "Bonuses", "Tie-break (coins and goods)"]
        .map((t) => h("th", { scope: "col" }, t)))),
      h("tbody", {}, rows.map((sc) => h("tr", { class: r.winners.includes(sc.seat) ? "win" : "", "data-seat": sc.seat },
        h("th", { scope: "row" }, seatName(seats, sc.seat, null)),
        h("td", {}, h("b", {}, sc.total)), h("td", {}, sc.seals), h("td", {}, sc.building_points),
        h("td", {}, Object.entries(sc.bonuses || {}).map(([k, n]) => `${buildingName(k)} +${n}`).join(", ") || "—"),
        h("td", {}, sc.tiebreak)))));
  } else {
    $("winners").textContent = "The game was ended before its end: no winner.";
    clear($("scores"));
  }
  const fair = clear($("fair"));
  fair.append(h("dt", {}, "Fingerprint (shown at the start)"), h("dd", { class: "mono", id: "fingerprint" }, info.fingerprint),
    h("dt", {}, "Seed (revealed)"), h("dd", { class: "mono", id: "seed" }, info.seed),
    h("dt", {}, "Client seeds"), h("dd", { class: "mono", id: "client-seeds" }, Array.isArray(info.seat_seeds)
      ? info.seat_seeds.map((s, i) => `${(info.seats[i] && info.seats[i].name) || `Seat ${i + 1}`}: ${s === null ? "none" : JSON.stringify(s)}`).join(", ")
      : JSON.stringify(info.client_seeds)),
    h("dt", {}, "Algorithm"), h("dd", { class: "mono" }, info.algorithm));
  clear($("links")).append(
    h("a", { class: "button primary", href: info.verify_url, id: "verify-link" }, "Verify this game"),
    h("a", { class: "button", href: info.record_url, id: "record-link", download: `quaymoor-${info.id}.json` }, "Download the record"),
    h("a", { class: "button", href: "/" }, "Lobby"));
}

function mat(m, scores, board) {
  const sc = scores.find((x) => x.seat === m.seat) || {};
  const plots = PLOT_KINDS.filter((k) => m.plots[k]).map((k) => `${m.plots[k]} ${kindName(k)} (${m.worked[k]} worked)`);
  return h("div", { class: `replay-mat${m.seat === board.warden ? " warden" : ""}`, "data-seat": m.seat },
    h("h3", {}, seatName(seats, m.seat, null), m.seat === board.warden ? " · Warden" : ""),
    h("p", {}, `Score ${sc.total ?? "?"}: ${plural(sc.seals ?? "?", "seal")}, ${plural(sc.building_points ?? m.building_points, "building point")}`,
      Object.keys(sc.bonuses || {}).length ? `, bonuses ${Object.entries(sc.bonuses).map(([k, n]) => `${buildingName(k)} +${n}`).join(", ")}` : ""),
    h("p", {}, `${plural(m.coins, "coin")} · ${m.lodge} in the lodge · goods: ${GOODS.filter((g) => m.goods[g]).map((g) => `${m.goods[g]} ${g}`).join(", ") || "none"}`),
    h("p", { class: "muted" }, `Plots: ${plots.join(", ") || "none"}`),
    h("p", { class: "muted" }, `Buildings: ${m.buildings.map((b) => `${buildingName(b.building)}${b.apprentices ? "" : " (empty)"}`).join(", ") || "none"}`));
}

async function showStep(k) {
  k = Math.max(0, Math.min(steps, k));
  const ticket = ++loading;
  let data;
  try {
    data = await getJson(`/api/games/${gameId}/replay?step=${k}`);
  } catch (err) {
    $("step-action").textContent = `Could not replay step ${k}: ${err.message}`;
    return;
  }
  if (ticket !== loading) return;
  current = k;
  $("step").value = String(k);
  $("step-label").textContent = `step ${k} of ${steps}`;
  const v = data.view;
  const b = v.board;
  $("step-action").textContent = data.action
    ? `${seatName(seats, data.action.seat, null)}: ${actionLabel(data.action.action, null)}`
    : "The setup, before anyone acts.";
  clear($("step-events")).append(...data.events.map((e) => eventText(e, seats, null)).filter(Boolean).map((t) => h("li", {}, t)));
  $("board").textContent = `Round ${b.round} · ${b.phase.replace("_", " ")}${b.role ? ` (${roleName(b.role)})` : ""} · face-up plots: ${b.face_up.join(", ") || "none"} · stack ${b.stack}, discard ${b.discard} · seals left ${b.seals}`;
  clear($("mats")).append(...v.mats.map((m) => mat(m, data.scores, b)));
  for (const li of $("log").children) li.classList.toggle("current", Number(li.dataset.step) === k);
  $("first").disabled = $("prev").disabled = k === 0;
  $("next").disabled = $("last").disabled = k === steps;
}

async function loadLog() {
  try {
    const all = await getJson(`/api/games/${gameId}/replay`);
    const log = clear($("log"));
    for (const s of all.actions) {
      const lines = s.events.map((e) => eventText(e, seats, null)).filter(Boolean);
      const text = `${seatName(seats, s.seat, null)}: ${actionLabel(s.action, null)}${lines.length ? ` — ${lines.join("; ")}` : ""}`;
      log.append(h("li", { "data-step": s.step, class: s.step === current ? "current" : "" },
        h("button", { type: "button", onclick: () => showStep(s.step) }, text)));
    }
    if (all.error) log.append(h("li", {}, `The replay stops: ${all.error}`));
  } catch (err) {
    clear($("log")).append(h("li", {}, `Could not load the steps: ${err.message}`));
  }
}

async function main() {
  if (!gameId) {
    $("status").textContent = "A game's page is /games/ and its 10-digit id.";
    return;
  }
  try {
    setCatalogue(await getJson("/api/rules"));
  } catch { /* names fall back to keys */ }
  try {
    info = await getJson(`/api/games/${gameId}`);
  } catch (err) {
    $("title").textContent = "No such game";
    $("status").textContent = err.status === 404
      ? `There is no finished game ${gameId} here. (A game still being played shows here once it ends.)`
      : `Could not load game ${gameId}: ${err.message}`;
    return;
  }
  seats = info.seats;
  steps = info.steps;
  renderResult();
  $("replay").hidden = false;
  $("step").max = String(steps);
  $("step").addEventListener("input", () => showStep(Number($("step").value)));
  $("first").addEventListener("click", () => showStep(0));
  $("prev").addEventListener("click", () => showStep(current - 1));
  $("next").addEventListener("click", () => showStep(current + 1));
  $("last").addEventListener("click", () => showStep(steps));
  document.addEventListener("keydown", (ev) => {
    if (ev.target && /INPUT|TEXTAREA|SELECT/.test(ev.target.tagName)) return;
    if (ev.key === "ArrowLeft") showStep(current - 1);
    else if (ev.key === "ArrowRight") showStep(current + 1);
  });
  await showStep(steps);
  loadLog();
}

main();

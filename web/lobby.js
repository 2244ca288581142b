// The lobby: play now against bots, create a table, join one, watch one.

import { api } from "./net.js";
import { h, clear, toast } from "./dom.js";
import { getName, setName, setToken } from "./store.js";
import { sendClientSeed, showFingerprint } from "./seen.js";
import { limit } from "./text.js";

/** The table sizes the rules allow (from /api/rules); only the default if that failed. */
function tableSizes(value) {
  const low = limit("min_players"), high = limit("max_players");
  if (!low || !high) return [value];
  return Array.from({ length: high - low + 1 }, (_, i) => low + i);
}

function playersSelect(id, value = 4) {
  return h("select", { id, name: "players" },
    tableSizes(value).map((n) => h("option", { value: n, selected: n === value }, `${n} players`)));
}

const LEVELS = [
  ["easy", "Easy bots — a gentle game"],
  ["normal", "Normal bots — know the game"],
  ["hard", "Hard bots — think ahead (slower)"],
];

function botsSelect(id) {
  const saved = localStorage.getItem("quaymoor.bots") || "normal";
  return h("select", { id, name: "bots", onchange: (ev) => localStorage.setItem("quaymoor.bots", ev.target.value) },
    LEVELS.map(([value, label]) => h("option", { value, selected: value === saved }, label)));
}

/**
 * Play now against bots, in the order that keeps the server honest: the table and our
 * seat (the answer carries the fingerprint), the fingerprint shown, our client seed, the
 * start. Returns the table's id.
 */
export async function playNow({ name, players, bots }) {
  const r = await api("POST", "/api/play-now", { name, players, bots });
  setToken(r.table, r.token);
  await showFingerprint(r.table, r.fingerprint);
  await sendClientSeed(r.table, { token: r.token, seat: r.seat });
  await api("POST", `/api/tables/${r.table}/start`, { token: r.token });
  return r.table;
}

export function renderLobby(app, go) {
  clear(app);
  const name = h("input", {
    id: "name", type: "text", maxlength: 24, autocomplete: "nickname",
    value: getName() || "", placeholder: "Your name",
  });
  const playNowPlayers = playersSelect("playnow-players", 4);
  const playNowBots = botsSelect("playnow-bots");
  const playNowButton = h("button", { class: "big primary", id: "play-now", type: "submit" },
    "Play now against bots");

  const form = h("form", { class: "card playnow", onsubmit: async (ev) => {
    ev.preventDefault();
    playNowButton.disabled = true;
    const nm = name.value.trim() || "Player";
    setName(nm);
    try {
      go(await playNow({ name: nm, players: Number(playNowPlayers.value), bots: playNowBots.value }));
    } catch (e) {
      toast(`Could not start a game: ${e.message}`);
      playNowButton.disabled = false;
    }
  } },
  h("h1", {}, "Quaymoor"),
  h("p", { class: "lead" }, "A canal town on the moors. Lead a guild of apprentices, ship goods down the canal, earn seals."),
  h("label", { for: "name" }, "Your name"), name,
  h("label", { for: "playnow-players" }, "Players at the table"), playNowPlayers,
  h("label", { for: "playnow-bots" }, "Bots"), playNowBots,
  playNowButton);

  const createPlayers = playersSelect("create-players", 4);
  const createBots = botsSelect("create-bots");
  const createOut = h("div", { class: "create-out" });
  const createBtn = h("button", { type: "submit" }, "Create a table");
  const create = h("form", { class: "card", onsubmit: async (ev) => {
    ev.preventDefault();
    createBtn.disabled = true;
    const nm = name.value.trim() || "Player";
    setName(nm);
    try {
      const t = await api("POST", "/api/tables", { players: Number(createPlayers.value), bots: createBots.value });
      const j = await api("POST", `/api/tables/${t.table}/join`, { name: nm });
      if (j.fingerprint !== t.fingerprint) throw new Error("the server answered the join with another fingerprint");
      setToken(t.table, j.token);
      await showFingerprint(t.table, j.fingerprint);
      await sendClientSeed(t.table, { token: j.token, seat: j.seat });
      go(t.table);
    } catch (e) {
      toast(`Could not create a table: ${e.message}`);
      createBtn.disabled = false;
    }
  } },
  h("h2", {}, "Play with friends"),
  h("p", {}, "Create a table, send the invite link, and start when you are ready. Empty seats are taken by bots."),
  h("label", { for: "create-players" }, "Seats"), createPlayers,
  h("label", { for: "create-bots" }, "Bots in empty seats"), createBots, createBtn, createOut);

  const list = h("ul", { class: "tables", id: "open-tables" }, h("li", {}, "Loading…"));
  const games = h("ul", { class: "tables games", id: "recent-games" }, h("li", {}, "Loading…"));
  const refresh = h("button", { type: "button", id: "refresh-lists", onclick: () => loadLists(list, games, go) }, "Refresh");
  const watch = h("section", { class: "card", "aria-labelledby": "tables-head" },
    h("h2", { id: "tables-head" }, "Tables now"), list,
    h("h2", { id: "games-head" }, "Finished games"), games, refresh,
    h("p", { class: "small" }, `Refreshed every ${REFRESH_SECONDS} seconds.`));

  app.append(h("div", { class: "lobby" }, form, create, watch));
  loadLists(list, games, go);
  keepFresh(list, games, go);
  name.focus();
}

const REFRESH_SECONDS = 15;
const RECENT_GAMES = 10;

/** Reload both lists every REFRESH_SECONDS while the lobby is shown and the page visible. */
function keepFresh(list, games, go) {
  const timer = setInterval(() => {
    if (!list.isConnected) { clearInterval(timer); return; } // the lobby was left
    if (!document.hidden) loadLists(list, games, go);
  }, REFRESH_SECONDS * 1000);
}

function loadLists(list, games, go) {
  loadTables(list, go);
  loadGames(games);
}

/** A link that opens a table in this page (go), and still works as a link. */
function tableLink(id, text, go) {
  return h("a", { class: "button", href: `/?table=${id}`, "data-table": id, onclick: (ev) => {
    if (ev.button !== 0 || ev.ctrlKey || ev.metaKey || ev.shiftKey) return;
    ev.preventDefault();
    go(id);
  } }, text);
}

const who = (seats) => (seats || []).filter((s) => s.name).map((s) => s.name).join(", ");

async function loadTables(list, go) {
  try {
    const { tables } = await api("GET", "/api/tables");
    const open = tables.filter((t) => t.state === "waiting" || t.state === "playing");
    clear(list);
    if (!open.length) list.append(h("li", {}, "No tables are open now."));
    for (const t of open) {
      const seated = (t.seats || []).filter((s) => s.name).length;
      const waiting = t.state === "waiting";
      const what = waiting
        ? `${seated} of ${t.players} seated, waiting`
        : `${t.players} players${t.round ? `, round ${t.round}` : ""}`;
      list.append(h("li", { "data-state": t.state },
        h("span", {}, h("bdi", {}, who(t.seats) || `Table ${t.id}`), ` — ${what}`),
        tableLink(t.id, waiting ? "Open" : "Watch", go)));
    }
  } catch (e) {
    clear(list).append(h("li", {}, `Could not load the tables: ${e.message}`));
  }
}

function ago(at) {
  const s = Math.max(0, Math.round(Date.now() / 1000 - at));
  if (s < 90) return "just now";
  if (s < 5400) return `${Math.round(s / 60)} minutes ago`;
  if (s < 129600) return `${Math.round(s / 3600)} hours ago`;
  return new Date(at * 1000).toLocaleDateString();
}

async function loadGames(list) {
  try {
    const { games } = await api("GET", `/api/games?limit=${RECENT_GAMES}`);
    clear(list);
    if (!games.length) list.append(h("li", {}, "No finished games yet."));
    for (const g of games) {
      const winners = (g.winners || []).map((i) => (g.seats[i] || {}).name).filter(Boolean);
      const best = (g.totals || [])[(g.winners || [])[0]];
      const result = g.reason === "finished" && winners.length
        ? `won by ${winners.join(" and ")}${best === undefined ? "" : ` with ${best} points`}`
        : `ended (${g.reason})`;
      list.append(h("li", {},
        h("span", {}, h("bdi", {}, who(g.seats)), ` — ${result}, ${ago(g.ended_at)}`),
        h("a", { class: "button", href: g.url || `/games/${g.id}` }, "See the game")));
    }
  } catch (e) {
    clear(list).append(h("li", {}, `Could not load the finished games: ${e.message}`));
  }
}

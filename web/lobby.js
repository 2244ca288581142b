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
  const refresh = h("button", { type: "button", onclick: () => loadTables(list, go) }, "Refresh");
  const watch = h("section", { class: "card" }, h("h2", {}, "Tables"), list, refresh);

  app.append(h("div", { class: "lobby" }, form, create, watch));
  loadTables(list, go);
  name.focus();
}

async function loadTables(list, go) {
  try {
    const { tables } = await api("GET", "/api/tables");
    clear(list);
    if (!tables.length) list.append(h("li", {}, "No tables yet."));
    for (const t of tables) {
      const seated = (t.seats || []).filter((s) => s.name).length;
      const what = t.state === "lobby" || t.state === "waiting"
        ? `${seated}/${t.players} seated, waiting`
        : `${t.players} players, ${t.state}${t.round ? `, round ${t.round}` : ""}`;
      list.append(h("li", {},
        h("span", {}, `Table ${t.id}: ${what}`),
        h("button", { type: "button", onclick: () => go(t.id) },
          t.state === "lobby" || t.state === "waiting" ? "Open" : "Watch")));
    }
  } catch (e) {
    clear(list).append(h("li", {}, `Could not load the tables: ${e.message}`));
  }
}

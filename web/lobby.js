// @ts-check
// The lobby: play now against bots, create a table, join one, watch one.

import { api, errorText } from "./net.js";
import { h, clear, toast } from "./dom.js";
import { getName, setName, setToken } from "./store.js";
import { commitClientSeed, revealClientSeed, showFingerprint } from "./seen.js";
import { limit } from "./text.js";
import { BOT_LEVELS } from "./wire.js";
import { currentSession } from "./session.js";

const BOTS_KEY = "quaymoor.bots";

/** What the lobby does to open a table (null: the lobby). @typedef {(table: string | null) => void} Go */
/**
 * A seat in the lists of tables and games.
 * @typedef {object} ListedSeat
 * @property {number} seat
 * @property {string | null} name null: an open seat
 * @property {boolean} bot
 */
/**
 * POST /api/tables: the table made (docs/protocol.md).
 * @typedef {object} TableMade
 * @property {string} table
 * @property {number} players
 * @property {string} fingerprint
 * @property {string} invite
 */
/**
 * POST /api/tables/<id>/join, and POST /api/play-now's seat: a seat's token.
 * @typedef {object} Joined
 * @property {string} table
 * @property {number} seat
 * @property {string} token
 * @property {string} fingerprint
 */
/**
 * An entry of GET /api/tables.
 * @typedef {object} ListedTable
 * @property {string} id
 * @property {number} players
 * @property {string} state "waiting", "playing", "finished" or "ended"
 * @property {ListedSeat[]} seats
 * @property {number | null} round
 * @property {boolean} [hints] opened with hints for everyone (joining is agreeing)
 * @property {boolean} [rated] a rated table: every seated person signed in, no hints
 */
/**
 * An entry of GET /api/games (the archive's summary).
 * @typedef {object} ListedGame
 * @property {string} id
 * @property {number} ended_at seconds since the epoch
 * @property {string} reason
 * @property {ListedSeat[]} seats
 * @property {number[]} winners
 * @property {number[]} totals by seat
 * @property {string} [url]
 */

/**
 * The table sizes the rules allow (from /api/rules); only the default if that failed.
 * @param {number} value the default
 * @returns {number[]}
 */
function tableSizes(value) {
  const low = limit("min_players"), high = limit("max_players");
  if (!low || !high) return [value];
  return Array.from({ length: high - low + 1 }, (_, i) => low + i);
}

/** @param {string} id @returns {HTMLSelectElement} */
function playersSelect(id, value = 4) {
  return h("select", { id, name: "players" },
    tableSizes(value).map((n) => h("option", { value: n, selected: n === value }, `${n} players`)));
}

/** What the menu says of each level the server offers (BOT_LEVELS, from the server). */
const LEVEL_LABELS = /** @type {Readonly<Record<string, string>>} */ ({
  easy: "Easy bots — a gentle game",
  normal: "Normal bots — know the game",
  hard: "Hard bots — search ahead (slower)",
  expert: "Expert bots — search four times as far (slowest)",
});

/** @param {string} id @returns {HTMLSelectElement} */
function botsSelect(id) {
  const saved = savedBots();
  /** @param {Event} ev */
  const keep = (ev) => localStorage.setItem(BOTS_KEY, /** @type {HTMLSelectElement} */ (ev.target).value);
  return h("select", { id, name: "bots", onchange: keep },
    BOT_LEVELS.map((value) => h("option", { value, selected: value === saved },
      LEVEL_LABELS[value] ?? `${value} bots`)));
}

/** The bots' level this browser chose last (the lobby keeps it), for Play now and New game. */
export function savedBots() {
  try { return localStorage.getItem(BOTS_KEY) || "normal"; } catch { return "normal"; }
}

/** What a rated table asks of its players, under each Rated checkbox. */
const RATED_HINT = "Rated games need every seated person signed in; no hints.";

/**
 * A "Rated" checkbox with its hint: it can be ticked only when signed in (the server
 * refuses a rated table to a guest); signed out, the hint says where to sign in.
 * @param {string} id @param {boolean} signedIn
 * @returns {{box: HTMLInputElement, parts: HTMLElement[]}}
 */
function ratedChoice(id, signedIn) {
  /** @type {HTMLInputElement} */
  const box = h("input", { type: "checkbox", id, name: "rated", class: "rated-box", disabled: !signedIn,
    "aria-describedby": `${id}-hint` });
  const hint = h("p", { class: "hint", id: `${id}-hint` }, RATED_HINT,
    signedIn ? null : [" ", h("a", { href: "/account" }, "Sign in"), " to play one."]);
  return { box, parts: [h("label", { class: "check", for: id }, box, " Rated"), hint] };
}

/**
 * Play now against bots, in the order that keeps the server honest (docs/fairness.md,
 * "Commit, then reveal"): the table and our seat (the answer carries the fingerprint), the
 * fingerprint shown, the commitment to our client seed, the start (its answer lists the
 * commitments per seat), and our seed revealed only if ours is listed at our seat.
 * Returns the table's id; a seed not revealed is said (toast), and the table, dealt
 * without it, is still ours to play.
 * @param {{name: string, players: number, bots?: string, rated?: boolean}} ask without
 *   `bots`, the server's default level (normal); without `rated`, the server's default
 *   (not rated)
 * @returns {Promise<string>}
 */
export async function playNow({ name, players, bots, rated }) {
  const r = /** @type {TableMade & Joined} */ (await api("POST", "/api/play-now", { name, players, bots, rated }));
  setToken(r.table, r.token);
  await showFingerprint(r.table, r.fingerprint);
  await commitClientSeed(r.table, { token: r.token, seat: r.seat });
  const started = /** @type {{commitments?: (string | null)[]}} */ (
    await api("POST", `/api/tables/${r.table}/start`, { token: r.token }));
  try {
    await revealClientSeed(r.table, { token: r.token, seat: r.seat }, started && started.commitments);
  } catch (e) {
    toast(`Your client seed was not revealed: ${errorText(e)}`);
  }
  return r.table;
}

/** @param {HTMLElement} app @param {Go} go */
export function renderLobby(app, go) {
  clear(app);
  /** @type {HTMLInputElement} */
  const name = h("input", {
    id: "name", type: "text", maxlength: 24, autocomplete: "nickname",
    value: getName() || "", placeholder: "Your name",
  });
  // Signed in, a seat takes the account's name whatever is typed (docs/protocol.md
  // "Accounts"): the field shows it and cannot be changed here.
  const account = currentSession();
  /** @type {HTMLElement | null} */
  let nameNote = null;
  if (account) {
    name.value = account.name;
    name.readOnly = true;
    name.setAttribute("aria-describedby", "name-note");
    nameNote = h("p", { id: "name-note", class: "hint" }, "You are signed in: you play under your account's name.");
  }
  const playNowPlayers = playersSelect("playnow-players", 4);
  const playNowBots = botsSelect("playnow-bots");
  const playNowRated = ratedChoice("playnow-rated", !!account);
  /** @type {HTMLButtonElement} */
  const playNowButton = h("button", { class: "big primary", id: "play-now", type: "submit" },
    "Play now against bots");

  const form = h("form", { class: "card playnow", onsubmit: async (/** @type {SubmitEvent} */ ev) => {
    ev.preventDefault();
    playNowButton.disabled = true;
    const nm = name.value.trim() || "Player";
    if (!account) setName(nm);
    try {
      go(await playNow({ name: nm, players: Number(playNowPlayers.value), bots: playNowBots.value,
        rated: playNowRated.box.checked }));
    } catch (e) {
      toast(`Could not start a game: ${errorText(e)}`);
      playNowButton.disabled = false;
    }
  } },
  h("h1", {}, "Quaymoor"),
  h("p", { class: "lead" }, "A canal town on the moors. Lead a guild of apprentices, ship goods down the canal, earn seals."),
  h("label", { for: "name" }, "Your name"), name, ...(nameNote ? [nameNote] : []),
  h("label", { for: "playnow-players" }, "Players at the table"), playNowPlayers,
  h("label", { for: "playnow-bots" }, "Bots"), playNowBots,
  ...playNowRated.parts,
  playNowButton);

  const createPlayers = playersSelect("create-players", 4);
  const createBots = botsSelect("create-bots");
  /** @type {HTMLInputElement} */
  const createHints = h("input", { type: "checkbox", id: "create-hints", name: "hints" });
  const createRated = ratedChoice("create-rated", !!account);
  // a rated table has no hints: ticking Rated clears Hints and holds it off
  createRated.box.addEventListener("change", () => {
    if (createRated.box.checked) createHints.checked = false;
    createHints.disabled = createRated.box.checked;
  });
  const createOut = h("div", { class: "create-out" });
  /** @type {HTMLButtonElement} */
  const createBtn = h("button", { type: "submit" }, "Create a table");
  const create = h("form", { class: "card", onsubmit: async (/** @type {SubmitEvent} */ ev) => {
    ev.preventDefault();
    createBtn.disabled = true;
    const nm = name.value.trim() || "Player";
    if (!account) setName(nm);
    try {
      const t = /** @type {TableMade} */ (await api("POST", "/api/tables",
        { players: Number(createPlayers.value), bots: createBots.value, hints: createHints.checked,
          rated: createRated.box.checked }));
      const j = /** @type {Joined} */ (await api("POST", `/api/tables/${t.table}/join`, { name: nm }));
      if (j.fingerprint !== t.fingerprint) throw new Error("the server answered the join with another fingerprint");
      setToken(t.table, j.token);
      await showFingerprint(t.table, j.fingerprint);
      await commitClientSeed(t.table, { token: j.token, seat: j.seat });
      go(t.table);
    } catch (e) {
      toast(`Could not create a table: ${errorText(e)}`);
      createBtn.disabled = false;
    }
  } },
  h("h2", {}, "Play with friends"),
  h("p", {}, "Create a table, send the invite link, and start when you are ready. Empty seats are taken by bots."),
  h("label", { for: "create-players" }, "Seats"), createPlayers,
  h("label", { for: "create-bots" }, "Bots in empty seats"), createBots,
  h("label", { class: "check", for: "create-hints" }, createHints,
    " Hints for everyone (the lobby says so: whoever joins agrees)"),
  ...createRated.parts,
  createBtn, createOut);

  /** @type {HTMLElement} */
  const list = h("ul", { class: "tables", id: "open-tables" }, h("li", {}, "Loading…"));
  /** @type {HTMLElement} */
  const games = h("ul", { class: "tables games", id: "recent-games" }, h("li", {}, "Loading…"));
  const refresh = h("button", { type: "button", id: "refresh-lists", onclick: () => loadLists(list, games, go) }, "Refresh");
  const watch = h("section", { class: "card", "aria-labelledby": "tables-head" },
    h("h2", { id: "tables-head" }, "Tables now"), list,
    h("h2", { id: "games-head" }, "Finished games"), games, refresh,
    h("p", { class: "small" }, `Refreshed every ${REFRESH_SECONDS} seconds.`),
    h("p", {}, h("a", { href: "/players", id: "players-link" }, "Players' ratings"), " from rated games."));

  app.append(h("div", { class: "lobby" }, form, create, watch));
  loadLists(list, games, go);
  keepFresh(list, games, go);
  name.focus();
}

const REFRESH_SECONDS = 15;
const RECENT_GAMES = 10;

/**
 * Reload both lists every REFRESH_SECONDS while the lobby is shown and the page visible.
 * @param {HTMLElement} list @param {HTMLElement} games @param {Go} go
 */
function keepFresh(list, games, go) {
  const timer = setInterval(() => {
    if (!list.isConnected) { clearInterval(timer); return; } // the lobby was left
    if (!document.hidden) loadLists(list, games, go);
  }, REFRESH_SECONDS * 1000);
}

/** @param {HTMLElement} list @param {HTMLElement} games @param {Go} go */
function loadLists(list, games, go) {
  loadTables(list, go);
  loadGames(games);
}

/**
 * A link that opens a table in this page (go), and still works as a link.
 * @param {string} id @param {string} text @param {Go} go
 * @returns {HTMLAnchorElement}
 */
function tableLink(id, text, go) {
  return h("a", { class: "button", href: `/?table=${id}`, "data-table": id, onclick: (/** @type {MouseEvent} */ ev) => {
    if (ev.button !== 0 || ev.ctrlKey || ev.metaKey || ev.shiftKey) return;
    ev.preventDefault();
    go(id);
  } }, text);
}

/** The names of the seated, as one line. @param {ListedSeat[] | undefined} seats */
const who = (seats) => (seats || []).filter((s) => s.name).map((s) => s.name).join(", ");

/** @param {HTMLElement} list @param {Go} go */
async function loadTables(list, go) {
  try {
    const { tables } = /** @type {{tables: ListedTable[]}} */ (await api("GET", "/api/tables"));
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
        h("span", {}, h("bdi", {}, who(t.seats) || `Table ${t.id}`), ` — ${what}`,
          t.hints ? h("span", { class: "badge", title: "Every player at this table may ask for hints: joining is agreeing" }, "hints") : null,
          t.rated ? h("span", { class: "badge rated", title: "A rated game: every seated person signed in, no hints" }, "rated") : null),
        tableLink(t.id, waiting ? "Open" : "Watch", go)));
    }
  } catch (e) {
    clear(list).append(h("li", {}, `Could not load the tables: ${errorText(e)}`));
  }
}

/** @param {number} at seconds since the epoch */
function ago(at) {
  const s = Math.max(0, Math.round(Date.now() / 1000 - at));
  if (s < 90) return "just now";
  if (s < 5400) return `${Math.round(s / 60)} minutes ago`;
  if (s < 129600) return `${Math.round(s / 3600)} hours ago`;
  return new Date(at * 1000).toLocaleDateString();
}

/** @param {HTMLElement} list */
async function loadGames(list) {
  try {
    const { games } = /** @type {{games: ListedGame[]}} */ (await api("GET", `/api/games?limit=${RECENT_GAMES}`));
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
    clear(list).append(h("li", {}, `Could not load the finished games: ${errorText(e)}`));
  }
}

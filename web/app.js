// @ts-check
// Quaymoor's web client: the lobby, then the table. No build step, no rules here:
// the server's view says what may be chosen.

import { api, errorText } from "./net.js";
import { toast } from "./dom.js";
import { setCatalogue } from "./text.js";
import { playNow, renderLobby, savedBots } from "./lobby.js";
import { TableScreen } from "./table.js";
import { getName } from "./store.js";
import { installTooltips } from "./tooltip.js";
import { loadSession } from "./session.js";
import { showAccountLink } from "./account_link.js";
import { ratingOf } from "./players_model.js";

const app = /** @type {HTMLElement} */ (document.getElementById("app")); // index.html has it
/** @type {TableScreen | null} */
let screen = null;

function tableFromUrl() {
  const id = new URLSearchParams(location.search).get("table");
  return id && /^[0-9a-f]{10}$/.test(id) ? id : null;
}

function show() {
  if (screen) { screen.destroy(); screen = null; }
  /** @type {HTMLElement} */ (document.getElementById("fingerprint")).textContent = "";
  const table = tableFromUrl();
  if (table) {
    document.title = `Quaymoor — table ${table}`;
    screen = new TableScreen(app, table, { onLeave: () => go(null), onPlayAgain: playAgain, onGoTo: go });
  } else {
    document.title = "Quaymoor";
    renderLobby(app, go);
  }
}

/** Open `table` (null: the lobby), as a new history entry. @param {string | null} table */
function go(table) {
  history.pushState(null, "", table ? `/?table=${table}` : "/");
  show();
}

/**
 * A new game against bots like the finished one: its size, and rated if it was (the
 * server refuses a rated one to a player signed out since: said in a toast).
 * @param {number} [players] the finished table's size; 4 without one
 * @param {boolean} [rated] the finished table was rated
 */
async function playAgain(players, rated = false) {
  try {
    go(await playNow({ name: getName() || "Player", players: players || 4, bots: savedBots(),
      rated }));
  } catch (e) {
    toast(`Could not start a new game: ${errorText(e)}`);
  }
}

window.addEventListener("popstate", show);

async function main() {
  installTooltips();
  // Who is signed in, before any POST: a signed-in player's POSTs carry the session's
  // CSRF token (session.js), or the server refuses them.
  /** @type {Promise<{name: string | null | undefined, rating: number | null}>} */
  const session = loadSession().then((a) => ({ name: a ? a.name : null, rating: ratingOf(a) }),
    () => ({ name: undefined, rating: null }));
  try {
    setCatalogue(/** @type {import("./text.js").Catalogue} */ (await api("GET", "/api/rules")));
  } catch (e) {
    toast(`Could not load the rules catalogue: ${errorText(e)}`);
  }
  const who = await session;
  showAccountLink(who.name, who.rating);
  show();
}

main();

// Quaymoor's web client: the lobby, then the table. No build step, no rules here:
// the server's view says what may be chosen.

import { api } from "./net.js";
import { toast } from "./dom.js";
import { setCatalogue } from "./text.js";
import { playNow, renderLobby } from "./lobby.js";
import { TableScreen } from "./table.js";
import { getName } from "./store.js";
import { installTooltips } from "./tooltip.js";

const app = document.getElementById("app");
let screen = null;

function tableFromUrl() {
  const id = new URLSearchParams(location.search).get("table");
  return id && /^[0-9a-f]{10}$/.test(id) ? id : null;
}

function show() {
  if (screen) { screen.destroy(); screen = null; }
  document.getElementById("fingerprint").textContent = "";
  const table = tableFromUrl();
  if (table) {
    document.title = `Quaymoor — table ${table}`;
    screen = new TableScreen(app, table, { onLeave: () => go(null), onPlayAgain: playAgain, onGoTo: go });
  } else {
    document.title = "Quaymoor";
    renderLobby(app, go);
  }
}

function go(table) {
  history.pushState(null, "", table ? `/?table=${table}` : "/");
  show();
}

async function playAgain(players) {
  try {
    go(await playNow({ name: getName() || "Player", players: players || 4 }));
  } catch (e) {
    toast(`Could not start a new game: ${e.message}`);
  }
}

window.addEventListener("popstate", show);

async function main() {
  installTooltips();
  try {
    setCatalogue(await api("GET", "/api/rules"));
  } catch (e) {
    toast(`Could not load the rules catalogue: ${e.message}`);
  }
  show();
}

main();

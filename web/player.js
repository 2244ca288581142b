// @ts-check
// A player's page (/players/<name>): the rating with its 95% range, rated games, when
// last played and since when a member; the rating over the rated games as a chart
// (player_chart.js) with the same numbers as a table; the last games, rated or not, each
// with its place, its change and links to its replay and analysis. What it says comes
// from player_model.js and players_model.js; every outcome is said in #status (a polite
// live region). The name is the player's own: always set as text, never as markup.

import { h, clear } from "./dom.js";
import { ApiError, api } from "./net.js";
import { loadSession } from "./session.js";
import { showAccountLink } from "./account_link.js";
import { say, timeEl } from "./page_status.js";
import { dayText, failureText, intervalText, isolate, ratingOf, whenText } from "./players_model.js";
import { historyRows, nameFromPath, ratingChart, readProfile, recentLine } from "./player_model.js";
import { ratingChartSvg } from "./player_chart.js";

/** @typedef {import("./player_model.js").Profile} Profile */

/** The element with this id: player.html has every one asked for. @param {string} id */
const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));
const WIDE = 520; // the chart's width in SVG units; a phone's is narrower, so its text stays legible
const NARROW = 360;


/** The heading: `before` and the name, isolated (any script, right to left too). @param {string} before @param {string} name */
function title(before, name) {
  clear($("title")).append(before, h("bdi", {}, name));
}

/** @param {Profile} p */
function drawProfile(p) {
  const now = Date.now() / 1000;
  title("", p.name);
  document.title = `${p.name} — Quaymoor`;
  $("rating").textContent = String(p.rating);
  const range = intervalText(p.interval);
  $("rating-range").textContent = range ? `95% range ${range}` : "";
  $("games").textContent = String(p.games);
  const last = clear($("last-played"));
  last.append(p.last_played === null ? "never" : timeEl(whenText(p.last_played, now)));
  const since = clear($("since"));
  if (p.since !== null) {
    const day = dayText(p.since);
    since.append(h("time", { datetime: day.iso }, day.text));
  } else since.append("—");
  $("profile").hidden = false;
  drawChart(p, now);
  drawRecent(p, now);
}

/** @param {Profile} p @param {number} now */
function drawChart(p, now) {
  const W = window.matchMedia("(max-width: 599px)").matches ? NARROW : WIDE;
  const geometry = ratingChart(p.history, { width: W, height: W === NARROW ? 200 : 220 });
  const figure = clear($("rating-chart"));
  figure.hidden = geometry === null;
  $("chart-data").hidden = geometry === null;
  $("chart-empty").hidden = geometry !== null;
  if (geometry) {
    figure.append(ratingChartSvg(geometry, (at) => whenText(at, now).full),
      h("figcaption", { class: "small" }, "The line: the rating after each rated game, from the first on the left. ",
        geometry.band ? "The shaded band: where the rating lies with 95% confidence. " : "",
        geometry.baseline === null ? "" : "The dashed line: 1500, where everyone starts."));
  }
  clear($("history-rows")).append(...historyRows(p.history, now).map((r) => h("tr", { class: "history-row", "data-game": r.game },
    h("td", { class: "num" }, r.href ? h("a", { href: r.href }, h("span", { class: "sr-only" }, "Game "), r.number) : r.number),
    h("td", {}, r.when ? timeEl(r.when) : "—"),
    h("td", {}, r.place),
    h("td", { class: `num change ${r.change ? r.change.kind : ""}` }, r.change ? r.change.text : "—"),
    h("td", { class: "num" }, h("b", {}, r.rating), r.range ? [" ", h("span", { class: "range" }, r.range)] : null))));
  $("chart-sec").hidden = false;
}

/** @param {Profile} p @param {number} now */
function drawRecent(p, now) {
  const list = clear($("recent"));
  for (const g of p.recent) {
    const line = recentLine(g, now);
    const said = line.when ? ` of ${line.when.full}` : ` ${line.game}`;
    list.append(h("li", { class: `recent-game${line.won ? " won" : ""}`, "data-game": line.game, "data-rated": String(line.rated) },
      h("p", { class: "recent-head" },
        h("span", { class: "result" }, line.result),
        h("span", { class: `tag ${line.rated ? "rated-badge" : "unrated"}` }, line.badge),
        line.change ? h("span", { class: `change ${line.change.kind}`, title: `Rating ${line.change.said}` },
          h("span", { "aria-hidden": "true" }, line.change.text), h("span", { class: "sr-only" }, `rating ${line.change.said}`))
          : line.uncounted ? h("span", { class: "change none" }, "not counted") : null),
      h("p", { class: "small" }, [line.players, line.when ? timeEl(line.when) : null].filter(Boolean)
        .flatMap((x, i) => (i ? [" · ", x] : [x]))),
      line.replay || line.analysis ? h("p", { class: "recent-links" },
        line.replay ? h("a", { class: "button", href: line.replay }, "Replay", h("span", { class: "sr-only" }, ` the game${said}`)) : null,
        line.analysis ? h("a", { class: "button", href: line.analysis }, "Analysis", h("span", { class: "sr-only" }, ` of the game${said}`)) : null)
        : null));
  }
  $("recent-empty").hidden = p.recent.length > 0;
  $("recent-sec").hidden = false;
}

/** Ask for the player and show them; a 404 says there is no such player. @param {string} name */
async function load(name) {
  $("retry-row").hidden = true;
  say(`Loading ${isolate(name)}'s page…`);
  try {
    const profile = readProfile(await api("GET", `/api/players/${encodeURIComponent(name)}`), name);
    drawProfile(profile);
    say("");
    $("player-page").dataset.ready = "1";
  } catch (e) {
    if (e instanceof ApiError && e.status === 404) {
      title("No player named ", name);
      document.title = "No such player — Quaymoor";
      say(`No player named ${isolate(name)}: the leaderboard lists every player with a rated game.`);
      $("back-row").hidden = false;
      $("player-page").dataset.ready = "missing";
      return;
    }
    say(failureText(e, `Could not load ${isolate(name)}'s page`), "error");
    $("retry-row").hidden = false;
  }
}

async function main() {
  const { name, problem } = nameFromPath(location.pathname);
  loadSession().then((a) => showAccountLink(a ? a.name : null, ratingOf(a)), () => showAccountLink(undefined));
  if (name === null) {
    $("title").textContent = "No such player";
    say(problem || "", "error");
    $("back-row").hidden = false;
    $("player-page").dataset.ready = "missing";
    return;
  }
  $("retry").addEventListener("click", () => load(name));
  await load(name);
}

main();

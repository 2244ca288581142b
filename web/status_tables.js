// @ts-check
// The status page's "Tables by phase" card: how many tables are in each phase, and a row
// per open table (its seats, round, phase, who is deciding, time left, connections). Rows
// are kept by table id and changed in place, so that a poll moves nothing that did not
// change.

import { $, el, setText } from "./status_dom.js";
import {
  DASH, PHASES, SEAT_BADGES, decidingText, fmtCount, isNum, phaseCounts, phaseLabel, seatKind,
  seatName, sortedTables,
} from "./status_data.js";

/** @typedef {import("./status_data.js").StatusTable} StatusTable */

/** @type {Map<string, {tr: HTMLTableRowElement, cells: HTMLTableCellElement[]}>} */
const rows = new Map(); // table id -> its row
const COLUMNS = ["Table", "State", "Seats", "Round", "Phase", "Deciding", "Time left", "Connections"];

/** @param {HTMLElement} td @param {StatusTable} table */
function seatsCell(td, table) {
  const key = JSON.stringify([table.seats, table.deciding]);
  if (td.dataset.key === key) return;
  td.dataset.key = key;
  const list = el("ul", "seats");
  const deciding = new Set(table.deciding || []);
  for (const seat of table.seats || []) {
    const kind = seatKind(seat);
    const li = el("li", `seat ${kind}${deciding.has(seat.seat) ? " deciding" : ""}`);
    li.append(el("span", "seat-name", kind === "open" ? `seat ${seat.seat}` : seatName(seat)));
    for (const badge of SEAT_BADGES[kind]) li.append(" ", el("span", "badge", badge));
    list.append(li);
  }
  td.replaceChildren(list);
}

/** `table`'s row, made or brought up to date. @param {StatusTable} table */
function renderRow(table) {
  let row = rows.get(table.id);
  if (!row) {
    const tr = el("tr");
    const cells = COLUMNS.map((label, i) => {
      const td = el(i === 0 ? "th" : "td");
      if (i === 0) td.setAttribute("scope", "row");
      td.dataset.label = label;
      tr.append(td);
      return td;
    });
    cells[0].className = "mono";
    row = { tr, cells };
    rows.set(table.id, row);
  }
  const [id, state, seats, round, phase, deciding, left, conns] = row.cells;
  row.tr.dataset.table = table.id;
  row.tr.dataset.state = table.state;
  setText(id, String(table.id));
  setText(state, String(table.state));
  seatsCell(seats, table);
  setText(round, isNum(table.round) ? String(table.round) : DASH);
  setText(phase, table.phase ? phaseLabel(table.phase) : DASH);
  setText(deciding, decidingText(table));
  setText(left, isNum(table.time_left) ? `${Math.max(0, table.time_left).toFixed(0)} s` : DASH);
  left.classList.toggle("low", isNum(table.time_left) && table.time_left < 10);
  setText(conns, fmtCount(table.connections));
  return row.tr;
}

/** The table of open tables, playing first. @param {readonly StatusTable[]} tables */
export function renderTables(tables) {
  const sorted = sortedTables(tables);
  const body = $("tables");
  const seen = new Set(sorted.map((t) => t.id));
  for (const [id, row] of rows) {
    if (!seen.has(id)) { row.tr.remove(); rows.delete(id); }
  }
  sorted.forEach((table, i) => {
    const tr = renderRow(table);
    if (body.children[i] !== tr) body.insertBefore(tr, body.children[i] || null);
  });
  $("no-tables").hidden = sorted.length > 0;
  /** @type {HTMLElement} */ (body.closest("table")).hidden = sorted.length === 0;
}

/** The tables counted by phase. @param {readonly StatusTable[]} tables */
export function renderPhases(tables) {
  const list = $("phases");
  const items = phaseCounts(tables).map(([key, n]) => {
    const li = el("li", `phase ${PHASES.includes(key) ? "in-play" : key}`);
    li.append(el("span", "phase-name", phaseLabel(key)), " ", el("b", "phase-count", String(n)));
    return li;
  });
  const key = JSON.stringify(phaseCounts(tables));
  if (list.dataset.key !== key) {
    list.dataset.key = key;
    list.replaceChildren(...items);
  }
}

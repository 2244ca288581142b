// The operators' status page: polls /status.json every 2 seconds. No hidden information
// is served there: seats, rounds, phases and timers only.
const $ = (id) => document.getElementById(id);

function seatText(seat) {
  const span = document.createElement("span");
  let label = seat.name ?? "(empty)";
  if (seat.bot) { span.className = "bot"; }
  else if (seat.bot_playing) { label += " (bot playing)"; span.className = "bot"; }
  else if (!seat.connected) { label += " (away)"; span.className = "away"; }
  span.textContent = label;
  return span;
}

function row(table) {
  const tr = document.createElement("tr");
  const cells = [
    table.id, table.state, null, table.round ?? "–", table.phase ?? "–",
    table.deciding.length ? table.deciding.map((s) => `seat ${s}`).join(", ") : "–",
    table.time_left == null ? "–" : `${table.time_left.toFixed(0)} s`, table.connections,
  ];
  for (const value of cells) {
    const td = document.createElement("td");
    if (value === null) {
      table.seats.forEach((seat, i) => {
        if (i) td.append(", ");
        td.append(seatText(seat));
      });
    } else {
      td.textContent = String(value);
    }
    tr.append(td);
  }
  return tr;
}

async function refresh() {
  try {
    const response = await fetch("/status.json", { cache: "no-store" });
    const status = await response.json();
    const hours = (status.uptime_seconds / 3600).toFixed(1);
    $("summary").textContent =
      `${status.table_count} tables, ${status.connections} connections, ` +
      `${status.games_finished} games finished, ${status.crash_count} crashes, up ${hours} h`;
    $("tables").replaceChildren(...status.tables.map(row));
    $("crashes").replaceChildren(...status.crashes.map((c) => {
      const li = document.createElement("li");
      li.textContent = `${new Date(c.at * 1000).toISOString()} table ${c.table}: ${c.error}`;
      return li;
    }));
  } catch (err) {
    $("summary").textContent = `Status unavailable: ${err}`;
  }
}

refresh();
setInterval(refresh, 2000);

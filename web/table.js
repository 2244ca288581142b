// The table: decision bar, role cards, shared board, your mat, the others, the log, the end.

import { h, clear, toast } from "./dom.js";
import { api, TableConnection } from "./net.js";
import {
  GOODS, PLOT_KINDS, LETTER, actionLabel, phaseText, eventText, seatName, roleName, roleText,
  building, buildingName, kindName, endReasonText,
} from "./text.js";
import { getToken, setToken, dropToken, getVersion, setVersion, getName, setName } from "./store.js";

const HOLDING = 12;
const STREET = 12;
const URGENT = 10;

function goodChip(good, count, extra) {
  const label = count === undefined ? good : `${count} ${good}`;
  return h("span", { class: `good good-${good}`, title: label, "aria-label": label },
    h("b", { "aria-hidden": "true" }, LETTER[good]),
    count === undefined ? null : h("span", { "aria-hidden": "true" }, `×${count}`),
    extra || null);
}

const plural = (n, w) => `${n} ${w}${n === 1 ? "" : "s"}`;

export class TableScreen {
  constructor(app, tableId, { onLeave, onPlayAgain }) {
    this.app = app;
    this.tableId = tableId;
    this.onLeave = onLeave;
    this.onPlayAgain = onPlayAgain;
    this.token = getToken(tableId);
    this.version = this.token ? getVersion(tableId) : null;
    this.seat = null;
    this.welcome = null;
    this.seats = [];
    this.view = null;
    this.clocks = [];
    this.clocksAt = 0;
    this.log = [];
    this.ended = null;
    this.pending = false;
    this.lobby = null;
    this.players = 0;
    this.build();
    this.conn = new TableConnection(tableId,
      () => ({ token: this.token, since: this.version }),
      { onMessage: (m) => this.onMessage(m), onState: (s) => this.onConnState(s) });
    this.conn.open();
    this.tick = setInterval(() => this.renderClock(), 250);
    this.keyHandler = (ev) => this.onKey(ev);
    document.addEventListener("keydown", this.keyHandler);
  }

  destroy() {
    this.conn.close();
    clearInterval(this.tick);
    document.removeEventListener("keydown", this.keyHandler);
    setBanner(null);
  }

  build() {
    clear(this.app);
    this.el = {
      decision: h("section", { id: "decision", class: "decision", "aria-label": "Decision" }),
      end: h("section", { id: "end", class: "end", "aria-label": "Game over", hidden: true }),
      pre: h("section", { id: "pre", class: "pre card", hidden: true }),
      roles: h("div", { class: "roles", id: "roles" }),
      board: h("div", { class: "board-body" }),
      mat: h("section", { id: "mat", class: "mat panel", "aria-label": "Your mat", tabindex: "-1" }),
      others: h("aside", { id: "others", class: "others panel", "aria-label": "Other players", tabindex: "-1" }),
      log: h("ol", { id: "log", class: "log", role: "log", "aria-live": "polite", "aria-label": "Game log" }),
    };
    const board = h("section", { id: "board", class: "board panel", "aria-label": "Board", tabindex: "-1" },
      h("h2", {}, "Roles"), this.el.roles, this.el.board);
    const logPane = h("aside", { class: "logpane panel", "aria-label": "Game log" },
      h("h2", {}, "Log"), this.el.log);
    this.app.append(h("div", { class: "table-layout" },
      this.el.decision, this.el.end, this.el.pre, this.el.others, board, logPane, this.el.mat));
    this.el.decision.append(h("p", {}, "Connecting to the table…"));
  }

  // ------------------------------------------------------------------ messages

  onConnState(state) {
    if (state === "lost") setBanner("Connection lost — reconnecting…");
    else if (state === "open") setBanner(null);
  }

  onMessage(m) {
    switch (m.type) {
      case "welcome":
        this.welcome = m;
        this.seat = m.seat;
        this.players = m.players;
        this.seats = m.seats;
        setFingerprint(m.fingerprint);
        if (!m.started) this.renderPre();
        break;
      case "lobby":
        this.lobby = m;
        this.seats = m.seats;
        this.players = m.players;
        this.renderPre();
        break;
      case "update":
        this.onUpdate(m);
        break;
      case "game_ended":
        this.ended = m;
        this.pending = false;
        setFingerprint(m.fingerprint);
        this.render();
        this.el.log.scrollTop = this.el.log.scrollHeight;
        break;
      case "error":
        this.onError(m);
        break;
      default:
        break;
    }
  }

  onError(m) {
    this.pending = false;
    if (m.code === "bad_token" || m.code === "unknown_seat") {
      dropToken(this.tableId);
      this.token = null;
      this.version = null;
      toast(`Your seat could not be found (${m.message}); watching instead.`);
      this.conn.close();
      this.conn = new TableConnection(this.tableId, () => ({ token: null, since: null }),
        { onMessage: (x) => this.onMessage(x), onState: (s) => this.onConnState(s) });
      this.conn.open();
      return;
    }
    if (m.code === "unknown_table") {
      this.conn.close();
      clear(this.el.decision).append(h("p", {}, "There is no such table (it may have ended when the server restarted)."),
        h("button", { type: "button", onclick: () => this.onLeave() }, "Back to the lobby"));
      return;
    }
    toast(`${m.message} (${m.code})`);
    if (this.view) this.render();
  }

  onUpdate(m) {
    this.el.pre.hidden = true;
    this.seats = m.seats;
    this.view = m.view;
    this.clocks = m.clocks || [];
    this.clocksAt = performance.now();
    this.version = m.version;
    if (this.token) setVersion(this.tableId, m.version);
    this.pending = false;
    const lines = (m.events || []).map((e) => eventText(e, this.seats, this.seat)).filter(Boolean);
    if (lines.length) this.addLog(lines);
    this.render();
  }

  act(action) {
    if (this.pending) return;
    if (this.conn.send({ type: "act", action })) {
      this.pending = true;
      for (const b of this.app.querySelectorAll("[data-act]")) b.disabled = true;
    } else {
      toast("Not connected: the move was not sent.");
    }
  }

  addLog(lines) {
    for (const line of lines) {
      this.log.push(line);
      this.el.log.append(h("li", {}, line));
    }
    while (this.el.log.childNodes.length > 300) this.el.log.removeChild(this.el.log.firstChild);
    this.el.log.scrollTop = this.el.log.scrollHeight;
  }

  onKey(ev) {
    if (ev.target && /INPUT|SELECT|TEXTAREA/.test(ev.target.tagName)) return;
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const k = ev.key.toLowerCase();
    const focus = { h: "mat", b: "board", p: "others" }[k];
    if (focus) {
      const el = document.getElementById(focus);
      if (el) { el.focus(); el.scrollIntoView({ block: "nearest" }); }
    } else if (k === "d" && this.view) {
      const done = this.view.legal.find((a) => a.type === "done");
      if (done) this.act(done);
    }
  }

  // ------------------------------------------------------------------ before the start

  renderPre() {
    if (this.view) return;
    const pre = clear(this.el.pre);
    pre.hidden = false;
    const invite = `${location.origin}/?table=${this.tableId}`;
    const seated = this.seats.filter((s) => s.name);
    pre.append(h("h2", {}, `Table ${this.tableId}: waiting to start`),
      h("p", {}, "Invite link: ", h("a", { href: invite, id: "invite" }, invite)),
      h("ul", { class: "seats" }, this.seats.map((s) => h("li", {},
        s.name ? seatName(this.seats, s.seat, this.seat) : "(empty seat — a bot will take it)",
        s.name && !s.connected && !s.bot ? " — not connected" : ""))),
      h("p", {}, `${seated.length} of ${this.players} seats taken.`));
    if (this.token) {
      const start = h("button", { class: "primary", type: "button", onclick: async () => {
        start.disabled = true;
        try { await api("POST", `/api/tables/${this.tableId}/start`, { token: this.token }); }
        catch (e) { toast(`Could not start: ${e.message}`); start.disabled = false; }
      } }, "Start the game (bots fill empty seats)");
      pre.append(start);
    } else {
      const name = h("input", { type: "text", id: "join-name", value: getName(), placeholder: "Your name", maxlength: 24 });
      const join = h("button", { class: "primary", type: "submit" }, "Join this table");
      pre.append(h("form", { class: "join", onsubmit: async (ev) => {
        ev.preventDefault();
        join.disabled = true;
        const nm = name.value.trim() || "Player";
        setName(nm);
        try {
          const r = await api("POST", `/api/tables/${this.tableId}/join`, { name: nm });
          setToken(this.tableId, r.token);
          this.token = r.token;
          this.conn.close();
          this.conn = new TableConnection(this.tableId, () => ({ token: this.token, since: this.version }),
            { onMessage: (x) => this.onMessage(x), onState: (s) => this.onConnState(s) });
          this.conn.open();
        } catch (e) { toast(`Could not join: ${e.message}`); join.disabled = false; }
      } }, h("label", { for: "join-name" }, "Your name"), name, join));
    }
    clear(this.el.decision).append(h("p", { class: "what" }, "Waiting for the game to start…"));
  }

  // ------------------------------------------------------------------ the game

  legalWhere(pred) {
    return this.view ? this.view.legal.concat(this.view.takebacks || []).filter(pred) : [];
  }

  /** A button that carries out `action` (or a plain element when none). */
  target(action, cls, attrs, ...children) {
    if (!action || this.ended) return h("div", { class: cls, ...attrs }, ...children);
    return h("button", {
      type: "button", class: `${cls} lit`, "data-act": "1",
      "aria-label": `${actionLabel(action, this.view)}`, disabled: this.pending,
      onclick: () => this.act(action), ...attrs,
    }, ...children);
  }

  render() {
    if (!this.view) { if (this.ended) this.renderEnd(); return; }
    const active = document.activeElement;
    const focusKey = active && active.dataset ? active.dataset.key : null;
    this.renderDecision();
    this.renderRoles();
    this.renderBoard();
    this.renderMat();
    this.renderOthers();
    this.renderEnd();
    this.el.log.scrollTop = this.el.log.scrollHeight;
    if (focusKey) {
      const again = this.app.querySelector(`[data-key="${CSS.escape(focusKey)}"]`);
      if (again) again.focus();
    }
  }

  whoText() {
    const v = this.view;
    const deciding = v.deciding || [];
    if (!deciding.length) return "";
    if (deciding.includes(this.seat)) {
      const others = deciding.length - 1;
      return others > 0 ? `You (and ${others} other${others === 1 ? "" : "s"})` : "You";
    }
    return deciding.map((s) => seatName(this.seats, s, this.seat)).join(", ");
  }

  renderDecision() {
    const v = this.view;
    const d = clear(this.el.decision);
    const mine = v.deciding.includes(this.seat);
    d.classList.toggle("mine", mine && !this.ended);
    if (this.ended) {
      d.append(h("p", { class: "what" }, "The game is over."));
      return;
    }
    const board = v.board;
    const role = board.role ? ` — ${roleName(board.role)} picked by ${seatName(this.seats, board.picker, this.seat)}` : "";
    d.append(h("div", { class: "decision-head" },
      h("p", { class: "what" },
        h("strong", { id: "whose" }, this.whoText() || "Nobody"),
        mine ? ": your decision — " : " deciding: ", phaseText(board)),
      h("span", { id: "clock", class: "clock", role: "timer", "aria-label": "Time left" }, ""),
      h("span", { class: "round" }, `Round ${board.round}${role}`)));
    const legal = v.legal.concat(v.takebacks || []);
    if (legal.length && this.seat !== null) {
      const row = h("div", { class: "actions", id: "actions", role: "group", "aria-label": "Your choices" });
      v.legal.forEach((a, i) => row.append(h("button", {
        type: "button", class: a.type === "pass" || a.type === "done" ? "act quiet" : "act",
        "data-act": "1", "data-key": `act:${JSON.stringify(a)}`, disabled: this.pending,
        title: this.tipFor(a), onclick: () => this.act(a),
      }, actionLabel(a, v), i === 0 ? null : null)));
      (v.takebacks || []).forEach((a) => row.append(h("button", {
        type: "button", class: "act takeback", "data-act": "1", "data-key": `act:${JSON.stringify(a)}`,
        disabled: this.pending, onclick: () => this.act(a),
      }, actionLabel(a, v))));
      d.append(row);
      if (v.keep) {
        d.append(h("p", { class: "hint" }, `Kept so far: ${v.keep.kept || "none"}; stored: ${v.keep.stored.join(", ") || "none"}.`));
      }
    } else if (this.seat === null) {
      d.append(h("p", { class: "hint" }, "You are watching this table."));
    } else {
      d.append(h("p", { class: "hint" }, "Waiting for the others…"));
    }
    this.renderClock();
  }

  tipFor(a) {
    if (a.type === "pick_role") return roleText(a.role);
    if (a.building) return building(a.building).text || "";
    return "";
  }

  renderClock() {
    const el = document.getElementById("clock");
    if (!el || !this.view || this.ended) return;
    const clocks = this.clocks || [];
    const c = clocks.find((x) => x.seat === this.seat) || clocks[0];
    if (!c) { el.textContent = ""; el.classList.remove("urgent"); return; }
    const left = Math.max(0, c.remaining - (performance.now() - this.clocksAt) / 1000);
    const secs = Math.ceil(left);
    const mm = Math.floor(secs / 60);
    const ss = String(secs % 60).padStart(2, "0");
    const whose = c.seat === this.seat ? "" : `${seatName(this.seats, c.seat, this.seat)}: `;
    el.textContent = `${whose}${mm}:${ss} left`;
    el.classList.toggle("urgent", left <= URGENT);
  }

  renderRoles() {
    const v = this.view;
    const roles = clear(this.el.roles);
    for (const r of v.board.roles) {
      const act = this.legalWhere((a) => a.type === "pick_role" && a.role === r.role)[0];
      const picked = r.picked_by !== null && r.picked_by !== undefined;
      const current = v.board.role === r.role;
      roles.append(this.target(act, `role${picked ? " picked" : ""}${current ? " current" : ""}`,
        { title: roleText(r.role), "data-key": `role:${r.role}` },
        h("span", { class: "role-name" }, roleName(r.role)),
        h("span", { class: "role-coins" }, r.coins ? `${r.coins} coin${r.coins === 1 ? "" : "s"}` : "no coins"),
        h("span", { class: "role-by" }, picked ? `picked by ${seatName(this.seats, r.picked_by, this.seat)}` : "")));
    }
  }

  renderBoard() {
    const v = this.view;
    const b = v.board;
    const me = this.seat !== null ? v.mats[this.seat] : null;
    const out = clear(this.el.board);

    // plots
    const plots = h("div", { class: "plots" });
    b.face_up.forEach((g, i) => {
      const act = this.legalWhere((a) => a.type === "take_plot" && a.good === g)[0];
      plots.append(this.target(act, `plot good-${g}`, { title: `${g} plot`, "data-key": `plot:${i}` },
        h("b", { "aria-hidden": "true" }, LETTER[g]), h("span", {}, g)));
    });
    const pit = this.legalWhere((a) => a.type === "take_stone_pit")[0];
    const draw = this.legalWhere((a) => a.type === "draw_plot")[0];
    out.append(h("div", { class: "board-section plots-sec" }, h("h3", {}, "Plots"), plots,
      h("div", { class: "row" },
        this.target(pit, "pile stone", { "data-key": "stonepit" }, `Stone pits: ${b.stone_pits}`),
        this.target(draw, "pile", { "data-key": "stack" }, `Stack: ${b.stack}`),
        h("span", { class: "pile" }, `Discard: ${b.discard}`))));

    // barges, hall, supply
    const barges = h("div", { class: "barges" });
    b.barges.forEach((bg, i) => {
      const acts = this.legalWhere((a) => a.type === "load" && a.barge === i);
      const slots = h("div", { class: "barge-slots" });
      for (let k = 0; k < bg.capacity; k++) {
        slots.append(k < bg.load && bg.good ? goodChip(bg.good) : h("span", { class: "slot" }));
      }
      barges.append(this.target(acts.length === 1 ? acts[0] : null, "barge",
        { "data-key": `barge:${i}`, title: `Barge ${i + 1}` },
        h("span", { class: "barge-name" }, `Barge ${i + 1}`),
        h("span", { class: "barge-kind" }, bg.good ? `${bg.good}` : "empty"),
        h("span", {}, `${bg.load}/${bg.capacity}`), slots));
    });
    const hall = h("div", { class: "hall" });
    for (let k = 0; k < 4; k++) hall.append(b.hall[k] ? goodChip(b.hall[k]) : h("span", { class: "slot" }));
    out.append(h("div", { class: "board-section canal" }, h("h3", {}, "The canal"), barges,
      h("div", { class: "row" },
        h("span", { class: "pile" }, `Apprentice barge: ${b.apprentice_barge}`),
        h("span", { class: "pile" }, `Apprentice supply: ${b.supply_apprentices}`),
        h("span", { class: "pile seals" }, `Seals left: ${b.seals}`)),
      h("div", { class: "row" }, h("span", { class: "label" }, "Market hall:"), hall),
      h("div", { class: "row supply" }, h("span", { class: "label" }, "Goods supply:"),
        GOODS.map((g) => goodChip(g, b.supply_goods[g])))));

    // market
    const market = h("div", { class: "market" });
    const mason = b.phase === "mason";
    for (const m of b.market) {
      const info = building(m.building);
      const act = this.legalWhere((a) => a.type === "build" && a.building === m.building)[0];
      const owned = me && me.buildings.some((x) => x.building === m.building);
      const cantAfford = me && (m.price > me.coins || m.copies === 0 || owned);
      const dim = mason && me && v.deciding.includes(this.seat) ? !act : cantAfford;
      market.append(this.target(act, `bld${owned ? " owned" : ""} cat-${info.category || "x"}${dim ? " dim" : ""}${info.spaces === 2 ? " large" : ""}`,
        { title: `${info.name}${owned ? " (you own one)" : ""}: ${info.text || ""}`, "data-key": `market:${m.building}` },
        h("span", { class: "bld-name" }, info.name, owned ? " ✔" : ""),
        h("span", { class: "bld-meta" },
          `${plural(m.price, "coin")} · ${info.points ?? "?"} pt · ${m.copies} left`)));
    }
    out.append(h("div", { class: "board-section market-sec" },
      h("h3", {}, "Buildings", me ? h("small", {}, " (price for you)") : null), market));
  }

  renderMat() {
    const v = this.view;
    const mat = clear(this.el.mat);
    if (this.seat === null) {
      mat.append(h("h2", {}, "Watching"), h("p", {}, "You are watching; scores are revealed at the end."));
      return;
    }
    const me = v.mats[this.seat];
    mat.append(h("h2", {}, `Your mat — ${seatName(this.seats, this.seat, null)}`));
    mat.append(h("div", { class: "stats" },
      h("span", { class: "stat" }, h("b", {}, me.coins), " coins"),
      h("span", { class: "stat" }, h("b", {}, me.seals ?? "?"), " seals"),
      h("span", { class: "stat" }, h("b", {}, me.building_points), " building pts"),
      h("span", { class: "stat score" }, h("b", {}, me.score ?? "?"), " score"),
      h("span", { class: "stat" }, h("b", {}, me.lodge), " in lodge"),
      h("span", { class: "stat goods" }, "Goods: ", GOODS.map((g) => goodChip(g, me.goods[g])))));

    const holding = h("div", { class: "holding" });
    let used = 0;
    for (const k of PLOT_KINDS) {
      const n = me.plots[k];
      if (!n) continue;
      used += n;
      const acts = this.legalWhere((a) => (a.type === "place_on_plot" || a.type === "take_back_from_plot") && a.kind === k);
      const place = acts.find((a) => a.type === "place_on_plot") || acts[0];
      holding.append(this.target(place, `tile good-${k}`, { "data-key": `holding:${k}`, title: `${kindName(k)}: ${n}, ${me.worked[k]} worked` },
        h("b", { "aria-hidden": "true" }, LETTER[k]),
        h("span", {}, `${kindName(k)} ×${n}`),
        h("span", { class: "worked" }, `${me.worked[k]} worked`)));
    }
    holding.append(h("span", { class: "free" }, `${HOLDING - used} free`));

    const street = h("div", { class: "street" });
    let spaces = 0;
    for (const bv of me.buildings) {
      const info = building(bv.building);
      spaces += info.spaces || 1;
      const acts = this.legalWhere((a) => (a.type === "place_on_building" || a.type === "take_back_from_building") && a.building === bv.building);
      const place = acts.find((a) => a.type === "place_on_building") || acts[0];
      const slots = info.slots || 1;
      street.append(this.target(place, `tile bld-tile cat-${info.category || "x"}${info.spaces === 2 ? " large" : ""}`,
        { "data-key": `street:${bv.building}`, title: `${info.name}: ${info.text || ""}` },
        h("span", {}, info.name),
        h("span", { class: "worked" }, `${bv.apprentices}/${slots} apprentice${slots === 1 ? "" : "s"}`)));
    }
    street.append(h("span", { class: "free" }, `${STREET - spaces} free`));
    mat.append(h("div", { class: "mat-rows" },
      h("div", { class: "mat-row" }, h("h3", {}, `Holding (${used}/${HOLDING})`), holding),
      h("div", { class: "mat-row" }, h("h3", {}, `High street (${spaces}/${STREET})`), street)));
  }

  renderOthers() {
    const v = this.view;
    const others = clear(this.el.others);
    others.append(h("h2", {}, "Players"));
    for (const m of v.mats) {
      if (m.seat === this.seat) continue;
      const s = this.seats.find((x) => x.seat === m.seat) || {};
      const plots = PLOT_KINDS.filter((k) => m.plots[k]).map((k) => `${m.plots[k]} ${kindName(k)} (${m.worked[k]} worked)`);
      const deciding = v.deciding.includes(m.seat);
      const staffed = m.buildings.reduce((n, bv) => n + bv.apprentices, 0);
      const onPlots = PLOT_KINDS.reduce((n, k) => n + m.worked[k], 0);
      others.append(h("div", { class: `other${deciding ? " deciding" : ""}`, "data-seat": m.seat },
        h("h3", {}, seatName(this.seats, m.seat, this.seat),
          m.seat === v.board.warden ? h("span", { class: "tag" }, "Warden") : null,
          !s.bot && !s.connected ? h("span", { class: "tag warn" }, "disconnected") : null,
          deciding ? h("span", { class: "tag now" }, "deciding") : null),
        h("p", {}, `${plural(m.coins, "coin")} · ${m.building_points} building pts · ${plural(m.lodge + staffed + onPlots, "apprentice")}`),
        h("p", { class: "goods" }, GOODS.map((g) => goodChip(g, m.goods[g]))),
        h("p", { class: "small" }, `Plots: ${plots.join(", ") || "none"}`),
        h("p", { class: "small" }, `Buildings: ${m.buildings.map((bv) => `${buildingName(bv.building)}${bv.apprentices ? "" : " (empty)"}`).join(", ") || "none"}`)));
    }
    const me = this.seat !== null ? v.mats[this.seat] : null;
    if (me && me.seat === v.board.warden) others.append(h("p", { class: "small" }, "You are the Warden."));
  }

  renderEnd() {
    const end = this.el.end;
    if (!this.ended) { end.hidden = true; return; }
    clear(end);
    end.hidden = false;
    const e = this.ended;
    const result = e.result || (this.view && this.view.result);
    end.append(h("h2", {}, e.reason === "finished" ? "Game over" : `The game ended (${e.reason})`));
    if (result) {
      const winners = result.winners.map((s) => seatName(this.seats, s, this.seat)).join(" and ");
      end.append(h("p", { class: "winners", id: "winners" }, `Winner${result.winners.length > 1 ? "s" : ""}: ${winners}`));
      if (result.reasons && result.reasons.length) {
        end.append(h("p", {}, `The end came because ${result.reasons.map(endReasonText).join(" and ")}.`));
      }
      const rows = [...result.scores].sort((a, b) => b.total - a.total || b.tiebreak - a.tiebreak);
      end.append(h("div", { class: "scroll" }, h("table", { class: "scores" },
        h("thead", {}, h("tr", {}, ["Player", "Total", "Seals", "Building pts", "Bonuses", "Coins + goods"].map((t) => h("th", { scope: "col" }, t)))),
        h("tbody", {}, rows.map((sc) => h("tr", { class: result.winners.includes(sc.seat) ? "win" : "" },
          h("th", { scope: "row" }, seatName(this.seats, sc.seat, this.seat)),
          h("td", {}, h("b", {}, sc.total)), h("td", {}, sc.seals), h("td", {}, sc.building_points),
          h("td", {}, Object.entries(sc.bonuses || {}).map(([k, n]) => `${buildingName(k)} +${n}`).join(", ") || "—"),
          h("td", {}, sc.tiebreak)))))));
    }
    const verify = h("span", { id: "verify", class: "verify" });
    end.append(h("dl", { class: "fair" },
      h("dt", {}, "Fingerprint"), h("dd", { id: "end-fingerprint" }, e.fingerprint),
      h("dt", {}, "Seed"), h("dd", { id: "seed" }, e.seed)),
    h("div", { class: "row" },
      h("button", { type: "button", onclick: () => verifySeed(e.seed, e.fingerprint, verify) }, "Verify the seed"), verify,
      e.record_url ? h("a", { href: e.record_url, class: "button", id: "record" }, "The game record") : null,
      h("button", { type: "button", class: "primary", id: "play-again", onclick: () => this.onPlayAgain(this.players) }, "Play again"),
      h("button", { type: "button", onclick: () => this.onLeave() }, "Lobby")));
    verifySeed(e.seed, e.fingerprint, verify);
  }
}

async function verifySeed(seedHex, fingerprint, out) {
  try {
    if (!crypto.subtle) throw new Error("this browser cannot hash here (needs https or localhost)");
    const bytes = new Uint8Array((seedHex.match(/../g) || []).map((x) => parseInt(x, 16)));
    const digest = await crypto.subtle.digest("SHA-256", bytes);
    const hex = [...new Uint8Array(digest)].map((x) => x.toString(16).padStart(2, "0")).join("");
    out.textContent = hex === fingerprint ? "✔ SHA-256(seed) matches the fingerprint" : "✘ The seed does NOT match the fingerprint!";
    out.className = hex === fingerprint ? "verify ok" : "verify bad";
  } catch (err) {
    out.textContent = `Could not verify: ${err.message}`;
  }
}

function setBanner(text) {
  const el = document.getElementById("banner");
  if (!el) return;
  el.textContent = text || "";
  el.hidden = !text;
}

function setFingerprint(fp) {
  const el = document.getElementById("fingerprint");
  if (el) {
    el.textContent = fp ? `Seed fingerprint: ${fp}` : "";
    el.title = fp ? `SHA-256 of the secret seed: ${fp}` : "";
  }
}

// The table: decision bar, role cards, shared board, your mat, the others, the log, the end.
//
// Interaction: lit targets are the legal actions (from the server's view, never worked out
// here). Role cards and market buildings are lifted first (their text shows in the decision
// bar with Pick / Build); plots, stone pits, barges and Reeve placements act on one tap.
// Keys: Tab walks the lit targets, Enter chooses; J jumps to the next lit target (in view),
// H mat, B board, P players, L log, D Done (asks first), Esc puts back, M sound. The single
// keys can be turned off or remapped (shortcuts.js); the page says a new decision of yours
// and the last ten seconds in a polite live region (announce.js), not only by sound.

import { h, clear, toast } from "./dom.js";
import { api, TableConnection } from "./net.js";
import { ViewKeeper } from "./patch.js";
import { playMotion } from "./motion.js";
import { endCharts } from "./charts.js";
import {
  GOODS, PLOT_KINDS, LETTER, actionLabel, phaseText, seatName, roleName, roleText,
  building, buildingName, buildingFacts, kindName, plotText, endReasonText, limit,
} from "./text.js";
import { getToken, setToken, dropToken, getVersion, setVersion, getName, setName } from "./store.js";
import { sound } from "./sound.js";
import { GameLog } from "./gamelog.js";
import { ChatPanel } from "./chat.js";
import { AwaySignal, turnSound } from "./away.js";
import { rematchRow, takeRematchSeat } from "./rematch.js";
import { refreshTip, hideTip } from "./tooltip.js";
import {
  displayFingerprint, noteStart, noteUpdate, noteWelcome, sendClientSeed, showFingerprint,
} from "./seen.js";
import { botVotes, voteCount } from "./botvote.js";
import { doneConfirm, keyAction, keyOf, keysControl, onKeysChange, showKeys } from "./shortcuts.js";
import { announce } from "./announce.js";

const URGENT = 10;
const TICKS_FROM = 5;
const SECTIONS = { mat: "mat", board: "board", others: "others", log: "logpane" };

/** A good's or plot's letter beside its colour, drawn by CSS (style.css .letter): not text in
 * a target's name, which says the good in words. */
const letter = (kind) => h("b", { class: "letter", "aria-hidden": "true", "data-letter": LETTER[kind] });

function goodChip(good, count, extra) {
  const label = count === undefined ? good : `${count} ${good}`;
  return h("span", { class: `good good-${good}`, title: label, "aria-label": label, role: "img" },
    letter(good),
    count === undefined ? null : h("span", { "aria-hidden": "true" }, `×${count}`),
    extra || null);
}

/** "3 of 12 spaces used, 9 free" ("3 spaces used" before the rules catalogue has loaded). */
function spacesUsed(used, total, word) {
  return total === undefined ? `${used}${word || " spaces"} used` : `${used} of ${total}${word} used, ${total - used} free`;
}

/** Apprentice pips: filled for each staffed slot, hollow for each empty one. */
function pips(staffed, total) {
  const out = h("span", { class: "pips", "aria-hidden": "true" });
  for (let i = 0; i < total; i++) out.append(h("i", { class: i < staffed ? "pip on" : "pip" }));
  return out;
}

const cap = (w) => w.charAt(0).toUpperCase() + w.slice(1);
const plural = (n, w) => `${n} ${w}${n === 1 ? "" : "s"}`;
const points = (n) => plural(n, "building point");
const actKey = (a) => JSON.stringify(a);
const isPhone = () => window.matchMedia("(max-width: 599px)").matches;
/** What to do now, in a few words, by phase (a hint, not a rule). */
const PROMPTS = {
  pick_role: "Lift a lit role card to read it, then pick it.",
  surveyor: "Tap a lit plot to take it.",
  reeve: "Tap a lit plot or building on your mat to put an apprentice on it.",
  mason: "Lift a lit building in the market to read it, then build it.",
  miller: "Choose the extra good.",
  chandler: "Choose a good to sell.",
  bargemaster: "Tap a lit barge to load it, or choose below.",
  keep_goods: "Choose the goods to keep.",
};

export class TableScreen {
  constructor(app, tableId, { onLeave, onPlayAgain, onGoTo }) {
    this.app = app;
    this.tableId = tableId;
    this.onLeave = onLeave;
    this.onPlayAgain = onPlayAgain;
    this.onGoTo = onGoTo;
    this.chat = new ChatPanel((m) => this.conn.send(m));
    this.away = new AwaySignal();
    this.rematchOffer = null; // the rematch_offer of this finished game, if any
    this.rematchAsked = false;
    this.token = getToken(tableId);
    this.version = this.token ? getVersion(tableId) : null;
    this.seat = null;
    this.welcome = null;
    this.seats = [];
    this.view = null;
    this.keeper = new ViewKeeper(); // the view kept from snapshots and deltas
    this.clocks = [];
    this.clocksAt = 0;
    this.log = this.newLog();
    this.ended = null;
    this.pending = false;
    this.lobby = null;
    this.players = 0;
    this.lifted = null; // {type: "role"|"building", key, action}
    this.tab = "board"; // phone: which section shows
    this.side = "others"; // tablet: players or log
    this.wasMine = false;
    this.sawLive = false;
    this.urgentPlayed = false;
    this.lastTick = null;
    this.targeted = new Set();
    this.voted = new Set(); // seats voted on from here, until the seats show the count
    this.doneAsked = false; // D was pressed: the decision bar asks to confirm Done
    this.build();
    if (this.readOnly) { // the game page's replay (web/replay.js): no connection, keys or sound
      this.unSound = () => {};
      this.onResize = () => { this.applyTabs(); if (this.view) this.fit(); };
      window.addEventListener("resize", this.onResize);
      return;
    }
    this.conn = new TableConnection(tableId,
      () => this.helloArgs(),
      { onMessage: (m) => this.onMessage(m), onState: (s, c) => this.onConnState(s, c) });
    this.conn.open();
    this.tick = setInterval(() => this.renderClock(), 250);
    this.keyHandler = (ev) => this.onKey(ev);
    document.addEventListener("keydown", this.keyHandler);
    this.clickAway = (ev) => this.onClickAway(ev);
    document.addEventListener("click", this.clickAway);
    this.unSound = sound.onChange(() => this.renderSoundButton());
    this.unKeys = onKeysChange(() => { this.renderSoundButton(); showKeys(document); });
    this.onResize = () => { this.applyTabs(); if (this.view) this.fit(); };
    window.addEventListener("resize", this.onResize);
  }

  /** Ask for what we missed: everything since the start when our log is empty. */
  helloArgs() {
    const since = this.log.length && this.version !== null ? this.version : 0;
    return { token: this.token, since };
  }

  destroy() {
    if (this.conn) this.conn.close();
    clearInterval(this.tick);
    document.removeEventListener("keydown", this.keyHandler);
    document.removeEventListener("click", this.clickAway);
    window.removeEventListener("resize", this.onResize);
    this.unSound();
    this.unKeys();
    this.away.destroy();
    this.chat.destroy();
    hideTip();
    setBanner(null);
    setOutOfTabOrder(false);
  }

  build() {
    clear(this.app);
    this.soundBtn = h("button", {
      type: "button", id: "sound", class: "sound quiet", "aria-keyshortcuts": "M", "data-key": "sound",
      "data-shortcut": "sound",
      onclick: () => sound.toggle(),
    });
    this.renderSoundButton();
    this.keysBox = keysControl();
    this.el = {
      decision: h("section", { id: "decision", class: "decision", "aria-label": "Decision", tabindex: "-1" }),
      end: h("section", { id: "end", class: "end", "aria-label": "Game over", hidden: true }),
      pre: h("section", { id: "pre", class: "pre card", hidden: true }),
      roles: h("div", { class: "roles", id: "roles" }),
      lastRound: h("p", { class: "board-last-round", id: "board-last-round", role: "status", hidden: true }),
      board: h("div", { class: "board-body" }),
      mat: h("section", { id: "mat", class: "mat panel", "aria-label": "Your mat", tabindex: "-1" }),
      others: h("aside", { id: "others", class: "others panel", "aria-label": "Other players", tabindex: "0" }),
      log: this.log.list,
    };
    const tabs = [["mat", "Your mat", "H"], ["board", "Board", "B"], ["others", "Players", "P"], ["log", "Log", "L"]];
    this.el.tabs = h("nav", { id: "tabs", class: "tabs", "aria-label": "Sections" },
      tabs.map(([key, label, k]) => h("button", {
        type: "button", class: `tab tab-${key}`, "data-tab": key, "aria-controls": SECTIONS[key],
        "aria-keyshortcuts": k, "data-shortcut": key, onclick: () => this.showSection(key, false),
      }, label, h("kbd", { "aria-hidden": "true" }, k))));
    const board = h("section", { id: "board", class: "board panel", "aria-label": "Board", tabindex: "-1" },
      this.el.lastRound, h("h2", {}, "Roles"), this.el.roles, this.el.board);
    this.el.boardPanel = board;
    const logPane = h("aside", { id: "logpane", class: "logpane panel", "aria-label": "Game log", tabindex: "-1" },
      h("div", { class: "log-top" }, h("h2", {}, "Log"), this.log.filterBar), this.log.box);
    if (!this.readOnly) this.chat.mount(logPane); // a replay has no chat (none is kept)
    this.layout = h("div", { class: "table-layout waiting", "data-tab": this.tab, "data-side": this.side },
      this.el.decision, this.el.end, this.el.pre, this.el.others, board, logPane, this.el.mat, this.el.tabs);
    this.app.append(h("h1", { class: "sr-only" }, `Quaymoor — table ${this.tableId}`), this.layout);
    showKeys(document);
    this.el.decision.append(h("p", {}, "Connecting to the table…"));
    this.log.render();
    this.applyTabs();
  }

  renderSoundButton() {
    const on = sound.on;
    const k = keyOf("sound");
    clear(this.soundBtn).append(on ? "Sound on" : "Sound off", h("kbd", { "aria-hidden": "true", hidden: !k }, k ? k.toUpperCase() : ""));
    this.soundBtn.setAttribute("aria-pressed", on ? "true" : "false");
    const hint = k ? ` (${k.toUpperCase()} ${on ? "mutes" : "turns it on"})` : "";
    this.soundBtn.title = on ? `Sound is on${hint}` : `Sound is off${hint}`;
  }

  // ------------------------------------------------------------------ sections (tabs)

  applyTabs() {
    this.layout.dataset.tab = this.tab;
    this.layout.dataset.side = this.side;
    for (const b of this.el.tabs.querySelectorAll("button[data-tab]")) {
      const key = b.dataset.tab;
      const side = key === "others" || key === "log";
      const on = side && !isPhone() ? key === this.side : key === this.tab;
      b.setAttribute("aria-pressed", on ? "true" : "false");
    }
  }

  /** H, B, P, L and the tabs: show a section (on a phone or tablet) and focus it. */
  showSection(key, focus = true) {
    this.tab = key;
    if (key === "others" || key === "log") this.side = key;
    this.applyTabs();
    const el = document.getElementById(SECTIONS[key]);
    if (!el) return;
    if (focus) el.focus({ preventScroll: true });
    if (isPhone()) {
      if (this.readOnly) this.app.scrollIntoView({ block: "start" }); // the replay: its top, not the page's
      else window.scrollTo({ top: 0 });
    } else el.scrollIntoView({ block: "nearest" });
    if (key === "log") this.el.log.scrollTop = this.el.log.scrollHeight;
  }

  // ------------------------------------------------------------------ messages

  onConnState(state, code) {
    // 4000 after the game's end: the table is gone (its server stopped, or the linger
    // is over); the end screen stays, with nothing to reconnect to.
    if (state === "lost" && code === 4000 && this.ended) {
      this.conn.close();
      setBanner(null);
      return;
    }
    if (state === "lost") setBanner("Connection lost — reconnecting…");
    else if (state === "open") setBanner(null);
  }

  onMessage(m) {
    switch (m.type) {
      case "welcome":
        this.keeper.reset(); // a new connection: its catch-up is a snapshot
        this.welcome = m;
        this.seat = m.seat;
        this.players = m.players;
        this.seats = m.seats;
        this.el.mat.dataset.seat = m.seat === null ? "" : String(m.seat);
        this.chat.setSeats(m.seats, m.seat);
        noteWelcome(this.tableId, m); // what this browser saw, for the verify page
        displayFingerprint(m.fingerprint);
        if (m.started) this.onStartSeeds(m.client_seeds);
        else this.renderPre();
        break;
      case "game_started":
        this.onStartSeeds(m.client_seeds);
        break;
      case "lobby":
        this.lobby = m;
        this.seats = m.seats;
        this.players = m.players;
        this.chat.setSeats(m.seats, this.seat);
        this.renderPre();
        break;
      case "update":
        this.onUpdate(m);
        break;
      case "game_ended":
        if (!this.ended && this.sawLive) sound.play("end");
        this.ended = m;
        this.pending = false;
        this.lifted = null;
        displayFingerprint(m.fingerprint);
        this.render();
        this.el.log.scrollTop = this.el.log.scrollHeight;
        if (isPhone()) window.scrollTo({ top: 0 });
        break;
      case "error":
        this.onError(m);
        break;
      case "chat_line":
        this.chat.onLine(m);
        break;
      case "chat_recent":
        this.chat.onRecent(m.lines);
        break;
      case "rematch_offer":
        this.rematchOffer = m;
        this.renderEnd();
        break;
      case "rematch_seat":
        this.onRematchSeat(m);
        break;
      default:
        break;
    }
  }

  onError(m) {
    if (this.chat.onError(m)) return; // shown in the chat, under its form
    if (this.rematchAsked && this.ended) { // after the end we send only chat and rematch
      this.rematchAsked = false;
      toast(`No rematch: ${m.message}`);
      this.renderEnd();
      return;
    }
    this.pending = false;
    this.voted.clear();
    if (m.code === "bad_token" || m.code === "unknown_seat") {
      dropToken(this.tableId);
      this.token = null;
      this.version = null;
      toast(`Your seat could not be found (${m.message}); watching instead.`);
      this.conn.close();
      this.conn = new TableConnection(this.tableId, () => ({ token: null, since: null }),
        { onMessage: (x) => this.onMessage(x), onState: (s, c) => this.onConnState(s, c) });
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

  /** Our chair at the rematch table: take it (token, fingerprint, seed) and go there. */
  async onRematchSeat(m) {
    try {
      await takeRematchSeat(m);
    } catch (e) {
      toast(`Could not take your seat at the rematch: ${e.message}`);
    }
    if (this.onGoTo) this.onGoTo(m.rematch);
  }

  askRematch() {
    if (this.rematchAsked) return;
    if (this.conn.send({ type: "rematch" })) {
      this.rematchAsked = true;
      this.renderEnd();
    } else {
      toast("Not connected: the rematch was not asked for.");
    }
  }

  /**
   * The client seeds per seat at the start: kept for the verify page, and our own checked
   * at our seat (logged once the seats' names are known, at the next update).
   */
  onStartSeeds(seeds) {
    const seen = noteStart(this.tableId, this.seat, seeds);
    if (!seen.first && seen.ok !== false) return;
    this.startSeeds = { seeds, ...seen };
  }

  logStartSeeds() {
    const s = this.startSeeds;
    if (!s) return;
    this.startSeeds = null;
    const short = (x) => (x.length > 16 ? `${x.slice(0, 12)}…` : x); // in full on the end screen
    const who = s.seeds.map((x, i) => `${seatName(this.seats, i, this.seat)}: ${x === null ? "none" : short(x)}`);
    const lines = [`Client seeds at the start — ${who.join("; ")}.`];
    if (s.ok === true) lines.push("✔ Your client seed is listed at your seat.");
    if (s.ok === false) {
      lines.push(`✘ Your client seed ${s.mine} is NOT listed at your seat (the server lists ${s.listed === null ? "none" : s.listed}).`);
      toast("The server did not list your client seed at your seat: this game's draws may not include your randomness. Verify will fail.");
    }
    this.log.addNotes(lines, this.view ? this.view.board.round : 0);
  }

  /** Read-only (a subclass says so): no connection, no choices; it draws what showStatic gives. */
  get readOnly() { return false; }

  /** The log beside the table (a read-only subclass has its own). */
  newLog() {
    return new GameLog(this.tableId, !!this.token, !!(this.token && this.version !== null));
  }

  /** Read-only: draw `view` as `seat` saw it (null: a spectator); `note` in the decision bar. */
  showStatic(view, seats, seat, note) {
    this.view = view;
    this.seats = seats;
    this.seat = seat;
    this.note = note;
    this.el.mat.dataset.seat = seat === null ? "" : String(seat);
    this.el.pre.hidden = true;
    this.layout.classList.remove("waiting");
    this.render();
  }

  /** A snapshot or a delta (docs/protocol.md, section 5): drawn from the whole view. */
  onUpdate(update) {
    const held = this.keeper.view ? this.keeper.view.version : null; // the log is complete to it
    const before = this.view;
    const got = this.keeper.take(update);
    if (got.resync) this.conn.send(held === null ? { type: "resync" } : { type: "resync", since: held });
    if (!got.view) return; // a delta that does not follow our view: the snapshot will
    const m = { ...update, view: got.view, seats: update.seats || this.seats };
    noteUpdate(this.tableId, m);
    this.el.pre.hidden = true;
    if (this.layout.classList.contains("waiting") && this.chatOpened) this.chat.show(false);
    this.layout.classList.remove("waiting");
    this.seats = m.seats;
    this.chat.setSeats(m.seats, this.seat);
    if (update.seats) this.voted.clear(); // the seats show our vote now (or its refusal came)
    this.view = m.view;
    this.logStartSeeds();
    if (!m.view.result) this.sawLive = true;
    this.clocks = m.clocks || [];
    this.clocksAt = performance.now();
    this.version = m.version;
    if (this.token) setVersion(this.tableId, m.version);
    this.pending = false;
    if (this.lifted && !this.legalKeys().has(actKey(this.lifted.action))) this.lifted = null;
    this.log.mySeat = this.seat;
    this.log.addEvents(m.events || [], m.view, this.seats, this.seat);
    const mine = this.isMine();
    const b = m.view.board;
    const decision = `${b.round}|${b.phase}|${b.role}|${b.picker}`;
    // a new decision of yours: it was not yours, or the phase moved on while it stayed yours
    const fresh = mine && (!this.wasMine || decision !== this.decisionKey);
    this.decisionKey = decision;
    if (fresh) {
      sound.play(turnSound());
      announce(`Your decision: ${phaseText(b)}`);
      this.urgentPlayed = false;
      this.lastTick = null;
    }
    if (!mine || fresh) this.doneAsked = false;
    this.wasMine = mine;
    this.render();
    if (fresh) this.revealTargets();
    if (before && update.patch) playMotion(this.app, m.events || [], before, m.view, this.seat); // a delta: what just moved
  }

  isMine() {
    const v = this.view;
    return !!(v && !this.ended && this.seat !== null && v.deciding.includes(this.seat)
      && (v.legal.length || (v.takebacks || []).length));
  }

  legalKeys() {
    const v = this.view;
    return new Set(v ? v.legal.concat(v.takebacks || []).map(actKey) : []);
  }

  /** The lit targets on the board and your mat, in page order (the decision bar's are in view). */
  litTargets() {
    return [...this.app.querySelectorAll("#board button.lit, #mat button.lit")];
  }

  /**
   * On a phone or tablet, when a decision of yours starts: show the section that holds its
   * lit targets (phone) and scroll the first into view. Nothing moves on a desktop, where
   * everything is in view, and the focus stays where it is.
   */
  revealTargets() {
    if (window.matchMedia("(min-width: 1000px)").matches) return;
    const panel = document.getElementById(SECTIONS[this.tab]);
    const lit = this.litTargets();
    if (!lit.length) return;
    const here = isPhone() && panel ? lit.find((el) => panel.contains(el)) : null;
    this.jumpTo(here || lit[0], false);
  }

  /** J and the "Jump to lit" button: the next lit target (round and round), in view and focused. */
  jumpToLit() {
    const lit = this.litTargets();
    if (!lit.length) { toast("Nothing is lit on the board or your mat: your choices are in the decision bar."); return; }
    const at = lit.indexOf(document.activeElement);
    this.jumpTo(lit[(at + 1) % lit.length], true);
  }

  jumpTo(el, focus) {
    if (isPhone()) {
      const key = el.closest("#mat") ? "mat" : "board";
      if (this.tab !== key) { this.tab = key; this.applyTabs(); }
    }
    if (focus) el.focus({ preventScroll: true });
    // clear of the sticky decision bar above and, on a phone, the tab bar below
    const r = el.getBoundingClientRect();
    const top = this.el.decision.offsetHeight + 8;
    const tabs = isPhone() ? this.el.tabs.offsetHeight : 0;
    const bottom = window.innerHeight - tabs - 8;
    if (r.top >= top && r.bottom <= bottom) return;
    const want = top + Math.max(0, (bottom - top - r.height) / 2);
    window.scrollBy({ top: r.top - want, left: 0, behavior: "instant" });
  }

  act(action) {
    if (this.pending || this.ended) return;
    if (this.conn.send({ type: "act", action })) {
      this.pending = true;
      this.lifted = null;
      this.layout.classList.add("pending");
      for (const b of this.app.querySelectorAll("[data-act]")) b.setAttribute("aria-disabled", "true");
    } else {
      toast("Not connected: the move was not sent.");
    }
  }

  // ------------------------------------------------------------------ lifting

  lift(type, key, action) {
    if (this.pending) return;
    const same = this.lifted && this.lifted.type === type && this.lifted.key === key;
    if (same) {
      if (type === "role") this.act(action); // a second tap on a lifted role card picks it
      else this.putBack();
      return;
    }
    this.lifted = { type, key, action };
    this.render();
    const confirm = document.getElementById("confirm");
    if (confirm) confirm.focus({ preventScroll: true });
  }

  putBack() {
    if (!this.lifted) return;
    const key = `${this.lifted.type === "role" ? "role" : "market"}:${this.lifted.key}`;
    const hadFocus = this.app.contains(document.activeElement);
    this.lifted = null;
    this.render();
    if (hadFocus) {
      const card = this.app.querySelector(`[data-key="${CSS.escape(key)}"]`);
      if (card) card.focus({ preventScroll: true });
    }
  }

  onClickAway(ev) {
    if (!this.lifted) return;
    const t = ev.target;
    if (!(t instanceof Element)) return;
    if (t.closest("[data-lift]") || t.closest("#lift-panel")) return;
    this.putBack();
  }

  onKey(ev) {
    if (ev.key === "Escape") {
      if (this.doneAsked) { ev.preventDefault(); this.askDone(false); } else if (this.lifted) { ev.preventDefault(); this.putBack(); }
      return;
    }
    const k = keyAction(ev); // null while shortcuts are off (shortcuts.js)
    if (k === "mat" || k === "board" || k === "others" || k === "log") {
      ev.preventDefault();
      this.showSection(k);
    } else if (k === "done" && this.view && this.isMine()) {
      const done = this.view.legal.find((a) => a.type === "done");
      if (!done) return;
      ev.preventDefault();
      if (this.doneAsked) { this.doneAsked = false; this.act(done); } else this.askDone(true);
    } else if (k === "jump" && this.view && this.isMine()) {
      ev.preventDefault();
      this.jumpToLit();
    } else if (k === "sound") {
      ev.preventDefault();
      sound.toggle();
    }
  }

  /** D asks before Done: the question in the decision bar, its Yes focused (or put away). */
  askDone(on) {
    this.doneAsked = on;
    this.render();
    const el = document.getElementById(on ? "done-yes" : "decision");
    if (el) el.focus({ preventScroll: true });
  }

  voteBot(seat) {
    if (this.conn.send({ type: "vote_bot", seat })) {
      this.voted.add(seat);
      this.render();
    } else {
      toast("Not connected: the vote was not sent.");
    }
  }

  // ------------------------------------------------------------------ before the start

  renderPre() {
    if (this.view) return;
    const pre = clear(this.el.pre);
    pre.hidden = false;
    if (!this.chatOpened) { this.chatOpened = true; this.chat.show(true); } // the waiting room's talk
    const invite = `${location.origin}/?table=${this.tableId}`;
    const seated = this.seats.filter((s) => s.name);
    pre.append(h("h2", {}, `Table ${this.tableId}: waiting to start`),
      h("p", {}, "Invite link: ", h("a", { href: invite, id: "invite" }, invite)),
      h("ul", { class: "seats" }, this.seats.map((s) => h("li", {},
        s.name ? seatName(this.seats, s.seat, this.seat) : "(empty seat — a bot will take it)",
        s.name && !s.connected && !s.bot ? " — not connected" : ""))),
      h("p", {}, `${seated.length} of ${this.players} seats taken.`));
    const rematch = this.lobby && this.lobby.rematch_of;
    if (rematch) {
      pre.append(h("p", { class: "rematch-note", id: "rematch-note" },
        "A rematch: it starts by itself once every player seated here has come. ",
        "Starting now gives the chairs of those who have not to bots."));
    }
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
          await showFingerprint(this.tableId, r.fingerprint); // before our seed goes out
          await sendClientSeed(this.tableId, { token: r.token, seat: r.seat });
          this.conn.close();
          this.conn = new TableConnection(this.tableId, () => this.helloArgs(),
            { onMessage: (x) => this.onMessage(x), onState: (s, c) => this.onConnState(s, c) });
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

  /**
   * A lit button that carries out `action` (or a plain element when there is none).
   * opts.lift: {type, key} to lift it first; opts.tip / opts.tipTitle: its rules text.
   */
  target(action, cls, attrs0, children, opts = {}) {
    const attrs = Object.fromEntries(Object.entries(attrs0 || {}).filter(([, x]) => x !== null && x !== undefined));
    const tip = opts.tip ? { "data-tip": opts.tip, "data-tip-title": opts.tipTitle || null } : {};
    children = children.flatMap((c, i) => (i ? [" ", c] : [c]));
    if (!action || this.ended || this.seat === null) {
      return h("div", { class: cls, ...tip, ...attrs }, ...children);
    }
    this.targeted.add(actKey(action));
    const lift = opts.lift;
    const lifted = lift && this.lifted && this.lifted.type === lift.type && this.lifted.key === lift.key;
    // the name keeps what the eye sees on the target (coins, picker, counts, "N left"),
    // the children apart by spaces as they read (WCAG 2.5.3)
    const seen = visibleText(children);
    const label = lift
      ? `${lifted ? "Lifted: " : "Lift "}${seen}`
      : `${actionLabel(action, this.view)}${seen ? `, ${seen}` : ""}`;
    return h("button", {
      type: "button", class: `${cls} lit${lifted ? " lifted" : ""}`, "data-act": "1",
      "data-type": action.type, "data-lift": lift ? lift.type : null,
      "aria-pressed": lift ? (lifted ? "true" : "false") : null,
      "aria-label": label, "aria-disabled": this.pending ? "true" : null,
      onclick: () => (lift ? this.lift(lift.type, lift.key, action) : this.act(action)),
      ...tip, ...attrs,
    }, ...children);
  }

  render() {
    if (!this.view) { if (this.ended) this.renderEnd(); return; }
    const active = document.activeElement;
    const inApp = active && active !== document.body && this.app.contains(active);
    const focusKey = inApp && active.dataset ? active.dataset.key : null;
    const section = inApp ? active.closest("#mat, #board, #others, #logpane, #decision, #end") : null;
    this.targeted = new Set();
    this.layout.classList.toggle("pending", this.pending);
    this.layout.classList.toggle("ended", !!this.ended);
    this.renderRoles();
    this.renderBoard();
    this.renderMat();
    this.renderOthers();
    this.renderDecision();
    showKeys(this.el.decision); // the Jump button's key, as remapped
    this.renderEnd();
    setOutOfTabOrder(this.isMine());
    this.chat.setTabbable(!this.isMine());
    this.away.set(!this.readOnly && this.isMine());
    this.el.log.scrollTop = this.el.log.scrollHeight;
    if (inApp && !this.app.contains(document.activeElement)) {
      const again = focusKey ? this.app.querySelector(`[data-key="${CSS.escape(focusKey)}"]`) : null;
      if (again) again.focus({ preventScroll: true });
      if ((!again || document.activeElement !== again) && section && section.isConnected && !section.hidden) {
        section.focus({ preventScroll: true });
      }
    }
    this.fit();
    refreshTip(this.app);
  }

  /**
   * Desktop: the page does not scroll in play. A panel whose content would overflow (the
   * players with five seats late in a game; the board once your high street has grown) is
   * drawn denser, a level at a time (data-fit-others, data-fit-board: 0 to 3, style.css),
   * and at last the decision bar leaves out its hint (data-fit-bar).
   */
  fit() {
    const layout = this.layout;
    const desk = window.matchMedia("(min-width: 1000px)").matches && !this.ended && !!this.view;
    for (const [el, attr] of [[this.el.others, "fitOthers"], [this.el.boardPanel, "fitBoard"]]) {
      let level = 0;
      layout.dataset[attr] = "0";
      while (desk && level < 3 && el.scrollHeight > el.clientHeight + 1) {
        level += 1;
        layout.dataset[attr] = String(level);
      }
    }
    // last: the decision bar drops its one-line hint (the lit targets and buttons stay)
    layout.dataset.fitBar = "0";
    if (desk && this.el.boardPanel.scrollHeight > this.el.boardPanel.clientHeight + 1) layout.dataset.fitBar = "1";
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

  actButton(a, cls) {
    return h("button", {
      type: "button", class: cls, "data-act": "1", "data-type": a.type, "data-key": `act:${actKey(a)}`,
      "aria-disabled": this.pending ? "true" : null, onclick: () => this.act(a),
    }, actionLabel(a, this.view));
  }

  renderDecision() {
    const v = this.view;
    const d = clear(this.el.decision);
    const mine = this.isMine();
    d.classList.toggle("mine", mine);
    d.hidden = !!this.ended; // the end screen takes its place
    if (this.ended) return;
    const board = v.board;
    d.dataset.phase = board.phase;
    const picker = board.role ? seatName(this.seats, board.picker, this.seat) : "";
    d.append(h("div", { class: "decision-head" },
      h("p", { class: "what" },
        h("strong", { id: "whose" }, this.whoText() || "Nobody"),
        mine ? ": your decision — " : " deciding: ", phaseText(board)),
      h("div", { class: "meta" },
        h("span", { id: "clock", class: "clock", role: "timer", "aria-label": "Time left" }, ""),
        h("span", { class: "round" }, `Round ${board.round}`,
          board.role ? h("span", { class: "round-detail" }, ` — ${roleName(board.role)} picked by ${picker}`) : null),
        this.soundBtn, this.keysBox)));
    const votes = botVotes(this.seats, this.seat, (seat) => this.voteBot(seat), this.voted);
    if (votes) d.append(votes);
    const reasons = board.end_reasons || [];
    if (reasons.length) {
      d.append(h("p", { class: "last-round", id: "last-round" }, h("strong", {}, "Last round"),
        ` — ${cap(reasons.map(endReasonText).join(" and "))}: the game ends when this round does.`));
    }
    if (mine) {
      const doing = h("div", { class: "doing" });
      const done = v.legal.find((a) => a.type === "done");
      if (this.doneAsked && done) {
        doing.append(doneConfirm(() => { this.doneAsked = false; this.act(done); }, () => this.askDone(false)));
      } else if (this.lifted) doing.append(this.liftPanel(this.lifted));
      else if (PROMPTS[board.phase]) doing.append(h("p", { class: "hint prompt" }, PROMPTS[board.phase]));
      const goto = this.gotoButton();
      if (goto && !this.lifted) doing.append(goto);
      const rest = v.legal.filter((a) => !this.targeted.has(actKey(a)));
      if (rest.length) {
        const row = h("div", { class: "actions", id: "actions", role: "group", "aria-label": "Your choices" });
        for (const a of rest) {
          const quiet = a.type === "pass" || a.type === "done";
          row.append(this.actButton(a, `act${quiet ? " quiet" : ""}`));
        }
        doing.append(row);
      }
      const backs = v.takebacks || [];
      if (backs.length) {
        doing.append(h("div", { class: "actions takebacks", role: "group", "aria-label": "Take an apprentice back to the lodge" },
          h("span", { class: "label", "aria-hidden": "true" }, "Take back from:"),
          backs.map((a) => {
            const b = this.actButton(a, "act takeback");
            clear(b).append(a.type === "take_back_from_plot" ? kindName(a.kind) : buildingName(a.building));
            b.setAttribute("aria-label", actionLabel(a, v));
            return b;
          })));
      }
      d.append(doing);
      if (v.keep) {
        d.append(h("p", { class: "hint" }, `Kept so far: ${v.keep.kept || "none"}; stored: ${v.keep.stored.join(", ") || "none"}.`));
      }
      if (this.pending) d.append(h("p", { class: "hint", role: "status" }, "Sent…"));
    } else if (this.readOnly) {
      d.append(h("div", { class: "doing" }, h("p", { class: "hint prompt", id: "step-action" }, this.note || "")));
    } else if (this.seat === null) {
      d.append(h("div", { class: "doing" }, h("p", { class: "hint" }, "You are watching this table.")));
    } else {
      d.append(h("div", { class: "doing" }, h("p", { class: "hint" }, "Waiting for the others…")));
    }
    this.renderClock();
  }

  /** On a phone or tablet: a button to the next lit target (J); hidden on a desktop. */
  gotoButton() {
    if (!this.targeted.size) return null;
    return h("button", { type: "button", class: "goto quiet", id: "jump-lit", "data-key": "jump-lit",
      "aria-keyshortcuts": "J", "data-shortcut": "jump", onclick: () => this.jumpToLit() }, "Jump to lit",
    h("kbd", { "aria-hidden": "true" }, "J"));
  }

  liftPanel(lifted) {
    const a = lifted.action;
    const isRole = lifted.type === "role";
    const name = isRole ? roleName(lifted.key) : buildingFacts(lifted.key);
    const text = isRole ? roleText(lifted.key) : building(lifted.key).text;
    const label = actionLabel(a, this.view);
    return h("div", { id: "lift-panel", class: "lift-panel", role: "region", "aria-label": "Lifted" },
      h("p", { class: "lift-text", tabindex: "0" }, h("strong", {}, name), " ", text),
      h("div", { class: "lift-buttons" },
        h("button", {
          type: "button", id: "confirm", class: "primary", "data-act": "1", "data-type": a.type,
          "data-key": "confirm", "aria-disabled": this.pending ? "true" : null, onclick: () => this.act(a),
        }, label),
        h("button", { type: "button", id: "put-back", class: "quiet", "aria-keyshortcuts": "Escape",
          onclick: () => this.putBack() }, "Put back", h("kbd", { "aria-hidden": "true" }, "Esc"))));
  }

  renderClock() {
    const el = document.getElementById("clock");
    if (!el || !this.view || this.ended) return;
    const clocks = this.clocks || [];
    const c = clocks.find((x) => x.seat === this.seat) || clocks[0];
    if (!c) { if (el.textContent) el.textContent = ""; el.classList.remove("urgent"); return; }
    const left = Math.max(0, c.remaining - (performance.now() - this.clocksAt) / 1000);
    const secs = Math.ceil(left);
    const mm = Math.floor(secs / 60);
    const ss = String(secs % 60).padStart(2, "0");
    const whose = c.seat === this.seat ? "" : `${seatName(this.seats, c.seat, this.seat)}: `;
    const text = `${whose}${mm}:${ss} left`;
    if (el.textContent !== text) el.textContent = text; // written only when the shown value changes
    const urgent = left <= URGENT;
    el.classList.toggle("urgent", urgent);
    if (c.seat === this.seat && this.isMine() && !this.pending && left > 0) {
      if (urgent && !this.urgentPlayed) {
        this.urgentPlayed = true;
        sound.play("urgent");
        announce(`${URGENT} seconds left to decide.`);
      } else if (secs <= TICKS_FROM && secs !== this.lastTick) {
        this.lastTick = secs;
        sound.play("tick");
      }
    }
  }

  renderRoles() {
    const v = this.view;
    const roles = clear(this.el.roles);
    for (const r of v.board.roles) {
      const act = this.legalWhere((a) => a.type === "pick_role" && a.role === r.role)[0];
      const picked = r.picked_by !== null && r.picked_by !== undefined;
      const current = v.board.role === r.role;
      roles.append(this.target(act, `role${picked ? " picked" : ""}${current ? " current" : ""}`,
        { "data-key": `role:${r.role}` },
        [h("span", { class: "role-name" }, roleName(r.role)),
          h("span", { class: "role-coins" }, r.coins ? plural(r.coins, "coin") : "no coins"),
          h("span", { class: "role-by" }, picked ? `by ${r.picked_by === this.seat ? "you" : seatName(this.seats, r.picked_by, this.seat)}` : "")],
        { tip: roleText(r.role), tipTitle: roleName(r.role), lift: { type: "role", key: r.role } }));
    }
  }

  renderBoard() {
    const v = this.view;
    const b = v.board;
    const me = this.seat !== null ? v.mats[this.seat] : null;
    const out = clear(this.el.board);
    const reasons = b.end_reasons || [];
    this.el.lastRound.hidden = !reasons.length || !!this.ended;
    this.el.lastRound.textContent = reasons.length
      ? `Last round: ${reasons.map(endReasonText).join(" and ")}. The game ends after round ${b.round}.` : "";

    // plots
    const plots = h("div", { class: "plots" });
    b.face_up.forEach((g, i) => {
      const act = this.legalWhere((a) => a.type === "take_plot" && a.good === g)[0];
      plots.append(this.target(act, `plot good-${g}`, { "data-key": `plot:${i}` },
        [letter(g), h("span", {}, g)],
        { tip: plotText(g), tipTitle: `${cap(g)} plot` }));
    });
    const pit = this.legalWhere((a) => a.type === "take_stone_pit")[0];
    const draw = this.legalWhere((a) => a.type === "draw_plot")[0];
    out.append(h("div", { class: "board-section plots-sec" }, h("h3", {}, "Plots"), plots,
      h("div", { class: "row" },
        this.target(pit, "pile stone", { "data-key": "stonepit" }, [`Stone pits: ${b.stone_pits}`],
          { tip: plotText("stone_pit"), tipTitle: "Stone pit" }),
        this.target(draw, "pile", { "data-key": "stack" }, [`Stack: ${b.stack}`]),
        h("span", { class: "pile" }, `Discard: ${b.discard}`))));

    // barges, hall, supply
    const barges = h("div", { class: "barges" });
    b.barges.forEach((bg, i) => {
      const acts = this.legalWhere((a) => a.type === "load" && a.barge === i);
      const slots = h("div", { class: "barge-slots" });
      for (let k = 0; k < bg.capacity; k++) {
        slots.append(k < bg.load && bg.good ? goodChip(bg.good) : h("span", { class: "slot" }));
      }
      // what loading would put here, in words on the barge (not only in its label); when
      // several goods could go on it, one lit button on the barge for each
      const loadText = (a) => {
        const n = Math.min((me && me.goods[a.good]) || 0, bg.capacity - bg.load);
        return `+${n} ${a.good} → ${bg.load + n}/${bg.capacity}`;
      };
      const head = [h("span", { class: "barge-name" }, `Barge ${i + 1}`),
        h("span", { class: "barge-kind" }, bg.good ? `${bg.good}` : "—"),
        h("span", {}, `${bg.load}/${bg.capacity}`), slots];
      if (acts.length === 1) { // its kind and load are in the words it shows ("Load +1 clay → 1/5")
        barges.append(this.target(acts[0], "barge", { "data-key": `barge:${i}` },
          [head[0], h("span", { class: "barge-load", "aria-hidden": "true" }, `Load ${loadText(acts[0])}`), head[3]]));
      } else {
        barges.append(h("div", { class: `barge${acts.length ? " options" : ""}${bg.load ? "" : " empty"}`, "data-key": `barge:${i}` }, head,
          acts.length ? h("span", { class: "barge-options", role: "group", "aria-label": `Load barge ${i + 1}` },
            acts.map((a) => this.target(a, "barge-opt", { "data-key": `barge:${i}:${a.good}` },
              [h("span", { "aria-hidden": "true", title: `Load ${loadText(a)}` }, `Load ${loadText(a).split(" →")[0]}`)]))) : null));
      }
    });
    const hall = h("div", { class: "hall" });
    const hallSpaces = Math.max(limit("market_hall_spaces") || 0, b.hall.length);
    for (let k = 0; k < hallSpaces; k++) hall.append(b.hall[k] ? goodChip(b.hall[k]) : h("span", { class: "slot" }));
    out.append(h("div", { class: "board-section canal" }, h("h3", {}, "The canal"), barges,
      h("div", { class: "row" },
        h("span", { class: "pile", "data-key": "apprentice-barge" }, `Apprentices: barge ${b.apprentice_barge}, supply ${b.supply_apprentices}`),
        h("span", { class: "pile seals" }, `Seals left: ${b.seals}`)),
      h("div", { class: "row" }, h("span", { class: "label" }, "Market hall:"), hall),
      h("div", { class: "row supply" }, h("span", { class: "label" }, "Supply:"),
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
        { "data-key": `market:${m.building}` },
        [h("span", { class: "bld-name" }, owned ? "✔ " : "", info.name),
          h("span", { class: "bld-meta" },
            `${plural(m.price, "coin")} · ${info.points ?? "?"} pt${info.points === 1 ? "" : "s"} · ${m.copies} left`)],
        { tip: info.text || "", tipTitle: `${buildingFacts(m.building)}${owned ? " (you own one)" : ""}`,
          lift: { type: "building", key: m.building } }));
    }
    out.append(h("div", { class: "board-section market-sec" },
      h("h3", {}, "Buildings", me ? h("small", {}, " (price for you)") : null), market));
  }

  renderMat() {
    const v = this.view;
    const mat = clear(this.el.mat);
    if (this.seat === null) {
      mat.append(h("h2", {}, "Watching"), h("p", {}, this.readOnly
        ? "The spectator's view: every player's mat is under Players; seals show from the end."
        : "You are watching; scores are revealed at the end."));
      return;
    }
    const me = v.mats[this.seat];
    mat.append(h("div", { class: "mat-head" }, h("h2", {}, `Your mat — ${seatName(this.seats, this.seat, null)}`), h("div", { class: "stats" },
      h("span", { class: "stat" }, h("b", {}, me.coins), me.coins === 1 ? " coin" : " coins"),
      h("span", { class: "stat" }, h("b", { id: "my-seals" }, me.seals ?? "?"), me.seals === 1 ? " seal" : " seals"),
      h("span", { class: "stat" }, h("b", {}, me.building_points), me.building_points === 1 ? " building point" : " building points"),
      h("span", { class: "stat score" }, h("b", {}, me.score ?? "?"), " score"),
      h("span", { class: "stat" }, h("b", {}, me.lodge), " in lodge"),
      h("span", { class: "stat goods" }, "Goods: ", GOODS.map((g) => goodChip(g, me.goods[g]))))));

    const holding = h("div", { class: "holding" });
    let used = 0;
    for (const k of PLOT_KINDS) {
      const n = me.plots[k];
      if (!n) continue;
      used += n;
      const place = this.legalWhere((a) => a.type === "place_on_plot" && a.kind === k)[0];
      holding.append(this.target(place, `tile good-${k}`, { "data-key": `holding:${k}` },
        [h("span", { class: "tile-top" }, letter(k), `${kindName(k)} ×${n}`),
          h("span", { class: "worked" }, pips(me.worked[k], n), h("span", { class: "sr-only" }, `, ${me.worked[k]} worked`))],
        { tip: plotText(k), tipTitle: `${k === "stone_pit" ? "Stone pits" : `${cap(k)} plots`}: ${n}, ${me.worked[k]} with an apprentice` }));
    }

    const street = h("div", { class: "street" });
    let spaces = 0;
    for (const bv of me.buildings) {
      const info = building(bv.building);
      spaces += info.spaces || 1;
      const place = this.legalWhere((a) => a.type === "place_on_building" && a.building === bv.building)[0];
      const slots = info.slots || 1;
      street.append(this.target(place, `tile bld-tile cat-${info.category || "x"}${info.spaces === 2 ? " large" : ""}`,
        { "data-key": `street:${bv.building}` },
        [h("span", { class: "tile-top" }, info.name),
          h("span", { class: "worked" }, `${bv.apprentices}/${slots}`,
            h("span", { class: "sr-only" }, ` apprentice${slots === 1 ? "" : "s"}`), pips(bv.apprentices, slots))],
        { tip: info.text || "", tipTitle: buildingFacts(bv.building) }));
    }
    mat.append(h("div", { class: "mat-rows" },
      h("div", { class: "mat-row" }, h("h3", {}, `Holding: ${spacesUsed(used, limit("holding_spaces"), " spaces")}`), holding),
      h("div", { class: "mat-row" }, h("h3", {}, `High street: ${spacesUsed(spaces, limit("high_street_spaces"), "")}`), street)));
  }

  renderOthers() {
    const v = this.view;
    const others = clear(this.el.others);
    others.append(h("h2", {}, "Players"));
    for (const m of v.mats) {
      if (m.seat === this.seat) continue;
      const s = this.seats.find((x) => x.seat === m.seat) || {};
      const deciding = v.deciding.includes(m.seat);
      const staffed = m.buildings.reduce((n, bv) => n + bv.apprentices, 0);
      const onPlots = PLOT_KINDS.reduce((n, k) => n + m.worked[k], 0);
      const plots = PLOT_KINDS.filter((k) => m.plots[k]).map((k) => {
        const label = `${plural(m.plots[k], k === "stone_pit" ? "stone pit" : `${k} plot`)}, ${m.worked[k]} worked`;
        return h("span", { class: `plot-chip good-${k}`, role: "img", "aria-label": label, title: label },
          letter(k), pips(m.worked[k], m.plots[k]));
      });
      const blds = m.buildings.map((bv) => {
        const info = building(bv.building);
        const slots = info.slots || 1;
        return h("span", { class: `o-bld${bv.apprentices ? "" : " empty"}` },
          info.name, pips(bv.apprentices, slots),
          h("span", { class: "sr-only" }, ` (${bv.apprentices} of ${slots} staffed)`));
      });
      others.append(h("div", { class: `other${deciding ? " deciding" : ""}`, "data-seat": m.seat },
        h("h3", {}, seatName(this.seats, m.seat, this.seat),
          s.bot ? h("span", { class: "tag bot" }, "bot") : null,
          m.seat === v.board.warden ? h("span", { class: "tag" }, "Warden") : null,
          !s.bot && !s.connected ? h("span", { class: "tag warn" }, s.bot_vote ? `disconnected · vote ${voteCount(s.bot_vote)}` : "disconnected") : null,
          deciding && !this.ended ? h("span", { class: "tag now" }, "deciding") : null),
        h("p", { class: "o-stats" }, `${plural(m.coins, "coin")} · ${points(m.building_points)} · ${plural(m.lodge + staffed + onPlots, "apprentice")}`),
        h("p", { class: "goods" }, GOODS.map((g) => goodChip(g, m.goods[g]))),
        h("p", { class: "o-plots" }, h("span", { class: "label" }, "Plots:"), plots.length ? plots : " none"),
        h("p", { class: "o-blds" }, h("span", { class: "label" }, "Buildings:"), blds.length ? blds : " none")));
    }
    const me = this.seat !== null ? v.mats[this.seat] : null;
    if (me && me.seat === v.board.warden) others.append(h("p", { class: "small" }, "You are the Warden."));
  }

  renderEnd() {
    const end = this.el.end;
    if (!this.ended) { end.hidden = true; return; }
    clear(end);
    if (end.hidden) hideTip();
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
      const bonuses = rows.some((sc) => Object.keys(sc.bonuses || {}).length);
      end.append(h("div", { class: "scroll", tabindex: "0", role: "region", "aria-label": "Scores" }, h("table", { class: "scores" },
        h("thead", {}, h("tr", {}, [["Player"], ["Total"], ["Seals"], ["Buildings", "Building points"],
          bonuses ? ["Bonuses", "End bonuses of staffed large buildings"] : null,
          ["Tie-break", "Coins and goods, for a tie"]].filter(Boolean)
          .map(([t, title]) => h("th", { scope: "col", title: title || null }, t)))),
        h("tbody", {}, rows.map((sc) => h("tr", { class: result.winners.includes(sc.seat) ? "win" : "" },
          h("th", { scope: "row" }, seatName(this.seats, sc.seat, this.seat)),
          h("td", {}, h("b", {}, sc.total)), h("td", {}, sc.seals), h("td", {}, sc.building_points),
          bonuses ? h("td", {}, Object.entries(sc.bonuses || {}).map(([k, n]) => `${buildingName(k)} +${n}`).join(", ") || "—") : null,
          h("td", {}, sc.tiebreak)))))));
      if (!bonuses) end.append(h("p", { class: "small" }, "No large building earned an end bonus."));
      end.append(endCharts(this.tableId, this.seats, this.seat));
    }
    if (e.reason === "finished") {
      const row = rematchRow({ offer: this.rematchOffer, asked: this.rematchAsked, seat: this.seat },
        () => this.askRematch());
      if (row) end.append(row);
    }
    const verify = h("span", { id: "verify", class: "verify", role: "status" });
    const seeds = Array.isArray(e.client_seeds) ? e.client_seeds : [];
    end.append(h("dl", { class: "fair" },
      h("dt", {}, "Fingerprint"), h("dd", { id: "end-fingerprint" }, e.fingerprint),
      h("dt", {}, "Seed"), h("dd", { id: "seed" }, e.seed),
      h("dt", {}, "Client seeds"), h("dd", {}, h("ul", { class: "seat-seeds", id: "end-seeds" },
        seeds.map((x, i) => h("li", { "data-seat": i }, `${seatName(this.seats, i, this.seat)}: `,
          x === null ? h("i", {}, "none") : h("span", { class: "mono" }, x)))))),
    h("div", { class: "row" },
      h("button", { type: "button", onclick: () => verifySeed(e.seed, e.fingerprint, verify) }, "Verify the seed"), verify),
    h("div", { class: "row" },
      e.record_url ? h("a", { href: e.record_url, class: "button", id: "record" }, "The game record") : null,
      h("a", { href: `/verify.html?game=${this.tableId}`, class: "button", id: "verify-game" }, "Verify this game"),
      h("button", { type: "button", class: "primary", id: "play-again", onclick: () => this.onPlayAgain(this.players) }, "Play again"),
      h("button", { type: "button", onclick: () => this.onLeave() }, "Lobby")));
    verifySeed(e.seed, e.fingerprint, verify);
  }
}

/** The text the eye sees in these children (aria-hidden text too; an element's own
 * aria-label, such as a good chip's, for its content), in one line. */
function visibleText(children) {
  const parts = [];
  const walk = (node) => {
    if (node === null || node === undefined || node === false) return;
    if (Array.isArray(node)) { node.forEach(walk); return; }
    if (!(node instanceof Node)) { parts.push(String(node)); return; }
    if (node.nodeType === Node.TEXT_NODE) { parts.push(node.textContent); return; }
    if (node.nodeType !== Node.ELEMENT_NODE) return;
    const label = node.getAttribute("aria-label");
    if (label) { parts.push(` ${label} `); return; }
    parts.push(" ");
    node.childNodes.forEach(walk);
    parts.push(" ");
  };
  walk(children);
  return parts.join("").replace(/\s+/g, " ").trim();
}

/** While it is your decision only the lit targets, the decision bar and the two scrolling
 * side panels (#others, #log: a keyboard must be able to scroll them, WCAG 2.1.1) are in the
 * tab order. */
function setOutOfTabOrder(on) {
  for (const el of document.querySelectorAll(".topbar a, .topbar button, #tabs button, #log-filter button")) {
    if (on) el.setAttribute("tabindex", "-1");
    else el.removeAttribute("tabindex");
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

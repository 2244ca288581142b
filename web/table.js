// @ts-check
// The table: the controller between the connection, the model (table_model.js) and the
// panels that draw it in place (view_*.js). Nothing here knows the rules: lit targets are
// the legal actions of the server's view.
//
// Interaction: role cards and market buildings are lifted first (their text shows in the
// decision bar with Pick / Build); plots, stone pits, barges and Reeve placements act on
// one press. What a press does is decided when it lands, from the latest drawing: a target
// still lit acts, one that went dark while the finger was on it does nothing and the bar
// says what changed. Keys (shortcuts.js, remappable): Tab walks the lit targets, Enter
// chooses; J jumps to the next lit target, H mat, B board, P players, L log, D Done (asks
// first), Esc puts back, M sound, ? explains the decision.

import { h, toast } from "./dom.js";
import { TableModel, actKey } from "./table_model.js";
import { playMotion } from "./motion.js";
import { phaseText, eventText, timeoutMoves } from "./text.js";
import { getToken, dropToken, getVersion, setVersion } from "./store.js";
import { sound } from "./sound.js";
import { GameLog } from "./gamelog.js";
import { ChatPanel } from "./chat.js";
import { AwaySignal, turnSound } from "./away.js";
import { refreshTip, hideTip } from "./tooltip.js";
import { displayFingerprint, noteUpdate } from "./seen.js";
import { keysControl, onKeysChange, showKeys } from "./shortcuts.js";
import { announce } from "./announce.js";
import {
  SECTIONS, applyTabs, fit, isDesk, isPhone, setBanner, setOutOfTabOrder,
} from "./layout.js";
import { TableChrome } from "./table_chrome.js";
import { TableDrawing } from "./table_drawing.js";
import { jumpToLit, onTableKey, revealTargets } from "./table_keys.js";
import { CLIENT_MESSAGES, EVENTS, PHASES } from "./wire.js";

/** @typedef {import("./table_model.js").Action} Action */
/** @typedef {import("./text.js").GameEvent} GameEvent */
/** @typedef {import("./layout.js").Section} Section */
/** @typedef {{onLeave: () => void, onPlayAgain: (players: number, rated: boolean) => void, onGoTo?: (table: string) => void}} Exits */

export class TableScreen {
  /**
   * @param {HTMLElement} app
   * @param {string} tableId
   * @param {Exits} exits
   */
  constructor(app, tableId, exits) {
    this.app = app;
    this.tableId = tableId;
    this.exits = exits;
    this.token = getToken(tableId);
    this.model = new TableModel();
    this.model.version = this.token ? getVersion(tableId) : null;
    this.chat = new ChatPanel((/** @type {import("./net.js").ClientMessage} */ m) => this.send(m));
    this.away = new AwaySignal();
    this.log = this.newLog();
    /** @type {Section} */ this.tab = "board";
    /** @type {"others" | "log"} */ this.side = "others";
    this.clocksAt = 0;
    this.sawLive = false;
    /** @type {string | null} what the bar says changed under a press, or what a timeout played */
    this.notice = null;
    this.timedOutNow = false;
    this.chrome = new TableChrome(this);
    this.drawing = new TableDrawing(this);
    this.soundBtn = h("button", {
      type: "button", id: "sound", class: "sound quiet", "aria-keyshortcuts": "M", "data-key": "sound",
      "data-shortcut": "sound", onclick: () => sound.toggle(),
    });
    this.keysBox = keysControl(this.chrome.readMovesControl());
    const built = this.build();
    this.el = built.el;
    this.layout = built.layout;
    this.el.decision.append(h("p", {}, "Connecting to the table…"));
    this.log.render();
    this.showTabs();
    /** @type {import("./net.js").TableConnection | null} */
    this.conn = null;
    if (this.readOnly) { // the game page's replay (web/replay.js): no connection, keys or sound
      this.onResize = () => { this.showTabs(); this.draw(); };
      window.addEventListener("resize", this.onResize);
      return;
    }
    this.chrome.connect(this.token);
    this.tick = setInterval(() => this.drawing.tickClock(), 250);
    this.keyHandler = (/** @type {KeyboardEvent} */ ev) => onTableKey(this, ev);
    document.addEventListener("keydown", this.keyHandler);
    this.clickAway = (/** @type {MouseEvent} */ ev) => this.onClickAway(ev);
    document.addEventListener("click", this.clickAway);
    this.unSound = sound.onChange(() => this.draw());
    this.unKeys = onKeysChange(() => { this.draw(); showKeys(document); });
    this.onResize = () => { this.keepOnMat(); this.showTabs(); this.draw(); };
    window.addEventListener("resize", this.onResize);
    // the bar and your mat share the middle with the board: when either changes height
    // after a drawing (a line that wraps, a font), the board is fitted again
    this.sizes = new ResizeObserver(() => { if (this.model.view) this.refit(); });
    this.sizes.observe(this.el.decision);
    this.sizes.observe(this.el.mat);
  }

  /** Read-only (a subclass says so): no connection, no choices; it draws what showStatic gives. */
  get readOnly() { return false; }

  /** The log beside the table (a read-only subclass has its own). */
  newLog() {
    return new GameLog(this.tableId, !!this.token, !!(this.token && this.model.version !== null));
  }

  destroy() {
    if (this.conn) this.conn.close();
    clearInterval(this.tick);
    if (this.sizes) this.sizes.disconnect();
    if (this.keyHandler) document.removeEventListener("keydown", this.keyHandler);
    if (this.clickAway) document.removeEventListener("click", this.clickAway);
    window.removeEventListener("resize", this.onResize);
    if (this.unSound) this.unSound();
    if (this.unKeys) this.unKeys();
    this.away.destroy();
    this.chat.destroy();
    hideTip();
    setBanner(null);
    setOutOfTabOrder(false);
  }

  /** @param {import("./net.js").ClientMessage} m @returns {boolean} sent */
  send(m) { return !!this.conn && this.conn.send(m); }

  /** The page's sections, made once; the panels are drawn into them. */
  build() {
    this.app.textContent = "";
    const el = {
      decision: h("section", { id: "decision", class: "decision", "aria-label": "Decision", tabindex: "-1" }),
      end: h("section", { id: "end", class: "end", "aria-label": "Game over", hidden: true }),
      pre: h("section", { id: "pre", class: "pre card", hidden: true }),
      roles: h("div", { class: "roles", id: "roles" }),
      lastRound: h("p", { class: "board-last-round", id: "board-last-round", role: "status", hidden: true }),
      board: h("div", { class: "board-body" }),
      mat: h("section", { id: "mat", class: "mat panel", "aria-label": "Your mat", tabindex: "-1" }),
      others: h("aside", { id: "others", class: "others panel", "aria-label": "Other players", tabindex: "0" }),
      log: this.log.list,
      tabs: h("nav", { id: "tabs", class: "tabs", "aria-label": "Sections" },
        /** @type {[Section, string, string][]} */ ([["mat", "Your mat", "H"], ["board", "Board", "B"], ["others", "Players", "P"], ["log", "Log", "L"]])
          .map(([key, label, k]) => h("button", {
            type: "button", class: `tab tab-${key}`, "data-tab": key, "aria-controls": SECTIONS[key],
            "aria-keyshortcuts": k, "data-shortcut": key, onclick: () => this.showSection(key, false),
          }, label, h("kbd", { "aria-hidden": "true" }, k)))),
      boardPanel: document.createElement("section"),
    };
    el.boardPanel = h("section", { id: "board", class: "board panel", "aria-label": "Board", tabindex: "-1" },
      el.lastRound, h("h2", {}, "Roles"), el.roles, el.board);
    const logPane = h("aside", { id: "logpane", class: "logpane panel", "aria-label": "Game log", tabindex: "-1" },
      h("div", { class: "log-top" }, h("h2", {}, "Log"), this.log.filterBar), this.log.box);
    if (!this.readOnly) this.chat.mount(logPane); // a replay has no chat (none is kept)
    const layout = h("div", { class: "table-layout waiting", "data-tab": this.tab, "data-side": this.side },
      el.decision, el.end, el.pre, el.others, el.boardPanel, logPane, el.mat, el.tabs);
    this.app.append(h("h1", { class: "sr-only" }, `Quaymoor — table ${this.tableId}`), layout);
    showKeys(document);
    return { el, layout };
  }

  // ------------------------------------------------------------------ sections (tabs)

  showTabs() { applyTabs(this.layout, this.el.tabs, this.tab, this.side); }

  /** H, B, P, L and the tabs: show a section (on a phone or tablet) and focus it. @param {Section} key */
  showSection(key, focus = true) {
    this.tab = key;
    if (key === "others" || key === "log") this.side = key;
    this.showTabs();
    const el = document.getElementById(SECTIONS[key]);
    if (!el) return;
    if (focus) el.focus({ preventScroll: true });
    if (isPhone()) {
      if (this.readOnly) this.app.scrollIntoView({ block: "start" }); // the replay: its top, not the page's
      else window.scrollTo({ top: 0 });
    } else el.scrollIntoView({ block: "nearest" });
    if (key === "log") this.el.log.scrollTop = this.el.log.scrollHeight;
  }

  // ------------------------------------------------------------------ updates

  /** Read-only: draw `view` as `seat` saw it (null: a spectator); `note` in the decision bar. */
  showStatic(/** @type {any} */ view, /** @type {any[]} */ seats, /** @type {number | null} */ seat, /** @type {string} */ note) {
    const m = this.model;
    m.view = view;
    m.seats = seats;
    m.seat = seat;
    m.note = note;
    m.changed = new Set();
    this.el.mat.dataset.seat = seat === null ? "" : String(seat);
    this.el.pre.hidden = true;
    this.layout.classList.remove("waiting");
    this.draw();
  }

  /** A snapshot or a delta (docs/protocol.md, section 5). @param {Record<string, any>} update */
  onUpdate(update) {
    const m = this.model;
    const got = m.takeUpdate(update);
    if (got.resync) this.send(got.since === null ? { type: CLIENT_MESSAGES.RESYNC } : { type: CLIENT_MESSAGES.RESYNC, since: got.since });
    if (!got.drawn || !m.view) return; // a delta that does not follow our view: the snapshot will
    const view = m.view;
    noteUpdate(this.tableId, { version: update.version, since: update.since, events: update.events, view });
    this.el.pre.hidden = true;
    if (this.layout.classList.contains("waiting") && this.chrome.chatOpened) this.chat.show(false);
    this.layout.classList.remove("waiting");
    this.chat.setSeats(m.seats, m.seat);
    this.chrome.fair.logStartSeeds();
    if (!view.result) this.sawLive = true;
    this.clocksAt = performance.now();
    if (this.token) setVersion(this.tableId, view.version);
    /** @type {GameEvent[]} */
    const events = update.events || [];
    this.log.mySeat = m.seat;
    this.log.addEvents(events, view, m.seats, m.seat);
    this.onTimeouts(events, !!update.patch);
    if (got.fresh) {
      sound.play(turnSound());
      announce(`Your decision: ${phaseText(view.board)}`);
      this.drawing.newDecision();
      if (!this.timedOutNow) this.notice = null;
      this.keepOnMat();
    } else if (update.patch && this.chrome.readMoves && events.length) {
      announce(events.map((e) => eventText(e, m.seats, m.seat)).filter(Boolean).join(". "));
    }
    this.timedOutNow = false;
    this.drawing.explainIfOpen();
    this.draw();
    if (got.fresh) this.revealTargets();
    if (got.before && update.patch) playMotion(this.app, events, got.before, view, m.seat); // a delta: what just moved
  }

  /** A timeout of ours: the bar says what the table played, and it is said aloud. */
  onTimeouts(/** @type {GameEvent[]} */ events, /** @type {boolean} */ live) {
    const m = this.model;
    for (const e of events) {
      if (e.type !== EVENTS.TIMED_OUT || e.seat !== m.seat || !live) continue;
      this.notice = `Time ran out: the table played ${timeoutMoves(e.actions || [], true)}.`;
      this.timedOutNow = true;
      announce(this.notice);
    }
  }

  // ------------------------------------------------------------------ choosing

  /** A target was pressed: what it carries now decides. @param {string} key */
  press(key) {
    const m = this.model;
    if (m.pending || m.ended) return;
    const t = this.drawing.targets.get(key);
    if (!t || !t.action) {
      if (this.drawing.wasLit.has(key)) this.choiceGone();
      return;
    }
    if (t.lift) this.lift(t.lift.type, t.lift.key, t.action);
    else this.act(t.action);
  }

  /** A press on what is no longer a choice: the bar says what changed. */
  choiceGone() {
    this.notice = `That choice is gone: ${this.model.lastMoves() || "the table moved on"}.`;
    this.draw();
  }

  /** Send a move, when it is still a choice now. @param {Action} action */
  act(action) {
    const m = this.model;
    if (m.pending || m.ended) return;
    if (!m.legalKeys().has(actKey(action))) { this.choiceGone(); return; }
    const id = m.nextActId();
    if (this.send(id === null ? { type: CLIENT_MESSAGES.ACT, action } : { type: CLIENT_MESSAGES.ACT, action, id })) {
      m.sent(id);
      this.notice = null;
      this.draw();
    } else {
      toast("Not connected: the move was not sent.");
    }
  }

  /** @param {"role" | "building"} type @param {string} key @param {Action} action */
  lift(type, key, action) {
    const did = this.model.lift(type, key, action);
    if (did === "act") { this.act(action); return; }
    if (did === "ignored") return;
    this.draw();
    if (did === "lifted") document.getElementById("confirm")?.focus({ preventScroll: true });
  }

  putBack() {
    const hadFocus = this.app.contains(document.activeElement);
    const key = this.model.putBack();
    if (key === null) return;
    this.draw();
    if (hadFocus) {
      const card = /** @type {HTMLElement | null} */ (this.app.querySelector(`[data-key="${CSS.escape(key)}"]`));
      if (card) card.focus({ preventScroll: true });
    }
  }

  /** @param {MouseEvent} ev */
  onClickAway(ev) {
    if (!this.model.lifted) return;
    const t = ev.target;
    if (!(t instanceof Element)) return;
    if (t.closest("[data-lift]") || t.closest("#lift-panel")) return;
    this.putBack();
  }

  /** D asks before Done: the question in the decision bar, its Yes focused (or put away). */
  askDone(/** @type {boolean} */ on) {
    this.model.doneAsked = on;
    this.draw();
    document.getElementById(on ? "done-yes" : "decision")?.focus({ preventScroll: true });
  }

  confirmDone() {
    const done = this.model.doneAction();
    this.model.doneAsked = false;
    if (done) this.act(done);
  }

  // ------------------------------------------------------------------ lit targets in view

  revealTargets() { revealTargets(this); }

  jumpToLit() { jumpToLit(this); }

  // ------------------------------------------------------------------ drawing

  /** Draw every panel from the model, in place. */
  draw() {
    const m = this.model;
    this.layout.classList.toggle("pending", m.pending);
    this.layout.classList.toggle("ended", !!m.ended);
    if (!m.view) { this.drawing.drawEnd(); return; }
    this.drawing.drawAll();
    showKeys(this.el.decision); // the Jump button's key, as remapped
    setOutOfTabOrder(m.isMine());
    this.chat.setTabbable(!m.isMine());
    this.away.set(!this.readOnly && m.isMine());
    this.refit();
    refreshTip(this.app);
  }

  /** On a phone, the goods to keep are chosen on your mat: it is shown while that is ours. */
  keepOnMat() {
    const v = this.model.view;
    if (isPhone() && v && v.board.phase === PHASES.KEEP_GOODS && this.model.isMine() && this.tab !== "mat") {
      this.tab = "mat";
      this.showTabs();
    }
  }

  /** Fit the desktop's panels again (also when the bar or your mat change size later). */
  refit() {
    fit(this.layout, this.el.others, this.el.boardPanel, isDesk() && !this.model.ended);
  }

  /** @param {Record<string, any>} m */
  onEnded(m) {
    if (!this.model.ended && this.sawLive) sound.play("end");
    this.model.end(m);
    this.drawing.onEnded();
    displayFingerprint(m.fingerprint);
    this.draw();
    this.el.log.scrollTop = this.el.log.scrollHeight;
    if (isPhone()) window.scrollTo({ top: 0 });
  }

  /** The seat's token is gone (a bad token): watch instead. */
  dropSeat() {
    dropToken(this.tableId);
    this.token = null;
    this.model.version = null;
  }
}

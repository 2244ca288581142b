// @ts-check
// Drawing the whole table from its model, panel by panel, in place (vdom.js): the board,
// your mat (with the keep-goods choice on it), the others, the decision bar with its help
// ("?"), the pace and the watchers, the waiting room and the end screen. It keeps what the
// last drawing lit (`targets`, `wasLit`), so that a press is judged by what is on screen.

import { v } from "./vdom.js";
import { drawBoard } from "./view_board.js";
import { drawMat, drawOthers } from "./view_mats.js";
import { drawDecision, clockText, keepPanel, URGENT } from "./view_decision.js";
import { announce } from "./announce.js";
import { drawEnd, checkSeed } from "./view_end.js";
import { drawPre, watchersText } from "./view_pre.js";
import { endCharts } from "./charts.js";
import { getName } from "./store.js";
import { sound } from "./sound.js";
import { isDesk } from "./layout.js";
import { howToPlayHref, phaseSection } from "./howto_link.js";
import { keyOf } from "./shortcuts.js";
import { CLIENT_MESSAGES, PACES } from "./wire.js";

/** @typedef {import("./table.js").TableScreen} TableScreen */
/** @typedef {import("./widgets.js").Draw} Draw */
/** @typedef {import("./widgets.js").Target} Target */
/** @typedef {import("./vdom.js").VKid} VKid */

/** The clock ticks aloud from this many seconds left. */
const TICKS_FROM = 5;

const PACE_LABELS = /** @type {const} */ ([[PACES.PEOPLE, "Bots: slow"], [PACES.STEADY, "Bots: steady"], [PACES.FAST, "Bots: fast"]]);

export class TableDrawing {
  /** @param {TableScreen} t */
  constructor(t) {
    this.t = t;
    /** @type {Map<string, Target>} what each target carried at the last drawing */
    this.targets = new Map();
    /** @type {Set<string>} the targets lit at the drawing before the last */
    this.wasLit = new Set();
    this.helpOpen = false;
    /** @type {Record<string, any> | null} the last `explanation` */
    this.help = null;
    this.helpAskedAt = "";
    /** @type {Record<string, any> | null} the last `hint` */
    this.hint = null;
    /** @type {number | null} the version a hint was asked at */
    this.hintAskedAt = null;
    this.showingBoard = false;
    /** @type {{text: string, ok: boolean | null}} */
    this.seedCheck = { text: "Checking the seed…", ok: null };
    /** @type {Node | null} */
    this.charts = null;
    this.urgentPlayed = false;
    /** @type {number | null} */
    this.lastTick = null;
  }

  /** @returns {Draw} a fresh drawing context */
  context() {
    const t = this.t;
    return { model: t.model, readOnly: t.readOnly, targets: new Map(), press: (key) => t.press(key) };
  }

  drawAll() {
    const t = this.t;
    const d = this.context();
    drawBoard(d, { roles: t.el.roles, board: t.el.board, lastRound: t.el.lastRound });
    const keep = keepPanel(d, isDesk()); // on a desktop in the bar, beside Done; else on your mat
    drawMat(d, t.el.mat, isDesk() ? null : keep);
    drawOthers(d, t.el.others);
    drawDecision(d, t.el.decision, {
      actions: {
        act: (a) => t.act(a), putBack: () => t.putBack(), askDone: (on) => t.askDone(on),
        confirmDone: () => t.confirmDone(), jump: () => t.jumpToLit(), voteBot: (s) => t.chrome.voteBot(s),
        explain: () => this.toggleHelp(),
      },
      elapsed: (performance.now() - t.clocksAt) / 1000,
      meta: this.meta(),
      notice: t.notice,
      help: [this.helpPanel(), this.hintLine()],
      keep: isDesk() ? keep : null,
    });
    const pace = /** @type {HTMLSelectElement | null} */ (document.getElementById("pace"));
    if (pace && t.chrome.pace && pace.value !== t.chrome.pace) pace.value = t.chrome.pace;
    this.drawEnd();
    this.wasLit = new Set([...this.targets].filter(([, x]) => x.action).map(([k]) => k));
    this.targets = d.targets;
  }

  drawEnd() {
    const t = this.t;
    t.layout.dataset.endView = this.showingBoard ? "board" : "summary";
    drawEnd(this.context(), t.el.end, {
      on: {
        rematch: () => t.chrome.askRematch(), playAgain: () => t.exits.onPlayAgain(t.model.players, t.model.rated),
        lobby: () => t.exits.onLeave(), toggleBoard: () => { this.showingBoard = !this.showingBoard; t.draw(); },
        checkSeed: () => this.runSeedCheck(),
      },
      tableId: t.tableId, offer: t.chrome.rematchOffer, asked: t.chrome.rematchAsked,
      showingBoard: this.showingBoard, seedCheck: this.seedCheck, charts: this.charts,
    });
  }

  drawPre() {
    const t = this.t;
    const c = t.chrome;
    drawPre(this.context(), t.el.pre, {
      tableId: t.tableId, seated: !!t.token, name: getName(), watchers: c.watchers, busy: c.busy,
      start: () => c.start(), join: (ev) => c.join(ev), copyInvite: () => c.copyInvite(), copied: c.copied,
      reveal: c.fair.reveal,
    });
  }

  /** The clock's text, written only when the shown value changes. */
  drawClock() {
    const t = this.t;
    const el = document.getElementById("clock");
    if (!el || !t.model.view) return null;
    const c = clockText(this.context(), (performance.now() - t.clocksAt) / 1000);
    if (el.textContent !== c.text) el.textContent = c.text;
    el.classList.toggle("urgent", c.urgent);
    return c;
  }

  /** A new decision of ours: its last ten seconds will be said and sounded afresh. */
  newDecision() {
    this.urgentPlayed = false;
    /** @type {number | null} */
    this.lastTick = null;
  }

  /** Four times a second: the clock's text, its sounds and its announcement. */
  tickClock() {
    const m = this.t.model;
    const c = this.drawClock();
    if (!c || !c.mine || !m.isMine() || m.pending || c.left <= 0) return;
    const secs = Math.ceil(c.left);
    if (c.urgent && !this.urgentPlayed) {
      this.urgentPlayed = true;
      sound.play("urgent");
      announce(`${URGENT} seconds left to decide.`);
    } else if (secs <= TICKS_FROM && secs !== this.lastTick) {
      this.lastTick = secs;
      sound.play("tick");
    }
  }

  /** The game has ended: its pictures are fetched once, and the seed checked here. */
  onEnded() {
    const t = this.t;
    this.helpOpen = false;
    if (!this.charts) this.charts = endCharts(t.tableId, t.model.seats, t.model.seat);
    this.runSeedCheck();
  }

  async runSeedCheck() {
    const e = this.t.model.ended;
    if (!e) return;
    this.seedCheck = await checkSeed(e.seed, e.fingerprint, this.t.tableId, this.t.model.players, e.algorithm);
    this.t.draw();
  }

  // ------------------------------------------------------------------ the bar's extras

  /** @returns {VKid[]} */
  meta() {
    const t = this.t;
    const c = t.chrome;
    const seated = t.model.seat !== null && !t.readOnly;
    const w = c.watchers;
    const helpKey = keyOf("help");
    return [
      t.model.rated ? v("span", { class: "tag rated-badge", id: "rated-badge",
        title: "A rated game: every seated person signed in, no hints" }, "Rated") : null,
      w && w.count ? v("span", { class: "watchers", id: "watchers", title: watchersText(w) },
        v("span", { "aria-hidden": "true" }, "👁 "), watchersText(w)) : null,
      seated && c.pace ? v("select", { id: "pace", class: "pace", "aria-label": "The bots' pace",
        title: "How long each bot waits before it moves: slow (a person's pace, 1.6 s), steady (0.8 s) or fast (0.2 s)",
        onchange: (ev) => c.setPace(/** @type {HTMLSelectElement} */ (ev.currentTarget).value) },
      PACE_LABELS.map(([key, label]) => v("option", { value: key, selected: key === c.pace }, label))) : null,
      t.readOnly ? null : v("button", { type: "button", id: "help-button", class: "quiet help-button",
        "aria-expanded": this.helpOpen ? "true" : "false", "aria-controls": "help-panel", "data-shortcut": "help",
        "aria-label": "What is this decision?", onclick: () => this.toggleHelp() }, "?",
      v("kbd", { "aria-hidden": "true", hidden: !helpKey }, helpKey ? helpKey.toUpperCase() : "")),
      !t.readOnly && t.model.hintsAllowed() ? v("button", { type: "button", id: "hint-button",
        class: "quiet", title: "What would the hard bot do here? (At a table of bots, or one opened with hints for everyone; the record counts hints.)",
        disabled: this.hintAskedAt === t.model.version, onclick: () => this.askHint() }, "Hint") : null,
      t.readOnly || !t.soundBtn ? null : this.soundButton(),
      t.readOnly || !t.keysBox ? null : t.keysBox,
    ];
  }

  soundButton() {
    const btn = /** @type {HTMLElement} */ (this.t.soundBtn);
    const on = sound.on;
    const k = keyOf("sound");
    const want = `${on ? "Sound on" : "Sound off"}${k ? k.toUpperCase() : ""}`;
    if (btn.textContent !== want) {
      btn.textContent = on ? "Sound on" : "Sound off";
      const kbd = document.createElement("kbd");
      kbd.setAttribute("aria-hidden", "true");
      kbd.hidden = !k;
      kbd.textContent = k ? k.toUpperCase() : "";
      btn.append(kbd);
    }
    btn.setAttribute("aria-pressed", on ? "true" : "false");
    const hint = k ? ` (${k.toUpperCase()} ${on ? "mutes" : "turns it on"})` : "";
    btn.title = on ? `Sound is on${hint}` : `Sound is off${hint}`;
    return btn;
  }

  // ------------------------------------------------------------------ "?": this decision explained

  toggleHelp() {
    if (this.helpOpen) { this.closeHelp(); return; }
    this.helpOpen = true;
    this.ask();
    this.t.draw();
    document.getElementById("help-panel")?.focus({ preventScroll: true });
  }

  closeHelp() {
    this.helpOpen = false;
    this.t.draw();
    document.getElementById("help-button")?.focus({ preventScroll: true });
  }

  ask() {
    const m = this.t.model;
    this.helpAskedAt = String(m.version);
    this.t.send({ type: CLIENT_MESSAGES.EXPLAIN });
  }

  /** While the help is open it follows the game: asked again at each new version. */
  explainIfOpen() {
    if (this.helpOpen && String(this.t.model.version) !== this.helpAskedAt) this.ask();
  }

  /** @param {Record<string, any>} m */
  onExplanation(m) {
    this.help = m;
    if (this.helpOpen) this.t.draw();
  }

  // ------------------------------------------------------------------ a hint (the hard bot's move)

  askHint() {
    this.hintAskedAt = this.t.model.version;
    this.t.send({ type: CLIENT_MESSAGES.HINT });
    this.t.draw();
  }

  /** @param {Record<string, any>} m */
  onHint(m) {
    this.hint = m;
    this.t.draw();
  }

  /** The hint for this decision, once it has come; "thinking" while it is worked out. */
  hintLine() {
    const version = this.t.model.version;
    if (this.hint && this.hint.version === version) {
      return v("p", { class: "hint-answer", id: "hint-answer", role: "status" },
        v("strong", {}, `Hint: ${String(this.hint.words)}`), ` — ${String(this.hint.why)}.`);
    }
    if (this.hintAskedAt === version && this.t.model.isMine()) {
      return v("p", { class: "hint-answer", id: "hint-answer", role: "status" }, "The hard bot is thinking…");
    }
    return null;
  }

  helpPanel() {
    if (!this.helpOpen) return null;
    const e = this.help;
    /** @type {string[]} */
    const text = e && Array.isArray(e.text) ? e.text.map(String) : [];
    const phase = this.t.model.view ? this.t.model.view.board.phase : "";
    return v("div", { class: "help-panel", id: "help-panel", role: "region", "aria-label": "About this decision", tabindex: "-1" },
      v("h3", {}, e ? String(e.title || "This decision") : "This decision"),
      e ? text.map((p) => v("p", {}, p)) : v("p", {}, "Asking the table…"),
      v("p", { class: "small" }, v("a", { href: howToPlayHref(phaseSection(phase)), target: "_blank", rel: "noopener", id: "help-rules" },
        "How to play: this part of the rules", v("span", { class: "sr-only" }, " (opens in a new tab)"))),
      v("button", { type: "button", class: "quiet", id: "help-close", onclick: () => this.closeHelp() }, "Close"));
  }
}

// @ts-check
// The table's dealings with the server and the room around the game: the connection and
// every message it brings, the waiting room (join, start, invite), the bots' pace, who is
// watching, the rematch, and the client seed's commit and reveal: commit after the join
// (the fingerprint shown first), reveal once the start's commitments are shown with ours at
// our seat, and the seeds checked at the deal. The drawing is table_drawing.js;
// the game's own state is the model's (table_model.js).

import { toast } from "./dom.js";
import { announce } from "./announce.js";
import { api, TableConnection } from "./net.js";
import { setToken, getName, setName } from "./store.js";
import { commitClientSeed, displayFingerprint, noteWelcome, showFingerprint } from "./seen.js";
import { TableFair } from "./table_fair.js";
import { takeRematchSeat } from "./rematch.js";
import { setBanner } from "./layout.js";
import { CLIENT_MESSAGES, CLOSE, CODES, SERVER_MESSAGES } from "./wire.js";

/** @typedef {import("./table.js").TableScreen} TableScreen */
/** @typedef {Record<string, any>} Msg */
/** @typedef {import("./rematch.js").RematchOffer} RematchOffer */
/** @typedef {import("./rematch.js").RematchSeat} RematchSeat */

const READ_MOVES = "quaymoor.readMoves";

export class TableChrome {
  /** @param {TableScreen} t */
  constructor(t) {
    this.t = t;
    this.chatOpened = false;
    /** @type {RematchOffer | null} the rematch_offer of this finished game */
    this.rematchOffer = null;
    this.rematchAsked = false;
    /** @type {string | null} the bots' pace at this table (people, steady, fast) */
    this.pace = null;
    /** @type {{count: number, names: string[]} | null} */
    this.watchers = null;
    this.paused = false; // the server said table_paused, and not yet table_resumed
    this.busy = false; // a start or a join is on its way
    this.copied = "";
    /** the commit-and-reveal's part at this table: the reveal, the deal's seeds */
    this.fair = new TableFair(t, () => this.drawPre());
    /** @type {string | null} the name a spectator gives (none once the server refused it) */
    this.watchAs = getName() || null;
    /** say the others' moves aloud as they come (off: they are in the log, read on demand) */
    this.readMoves = readSetting();
  }

  /** Open the connection, as a seat (with its token) or a spectator. @param {string | null} token */
  connect(token) {
    const t = this.t;
    if (t.conn) t.conn.close();
    // a spectator gives the name this browser plays under, if any: the seats see who watches
    const hello = token ? () => this.helloArgs() : () => ({ token: null, since: null, name: this.watchAs });
    t.conn = new TableConnection(t.tableId, hello,
      { onMessage: (/** @type {Msg} */ m) => this.onMessage(m), onState: (s, c) => this.onConnState(s, c) });
    t.conn.open();
  }

  /** Ask for what we missed: everything since the start when our log is empty. */
  helloArgs() {
    const t = this.t;
    const v = t.model.version;
    return { token: t.token, since: t.log.length && v !== null ? v : 0 };
  }

  /** @param {import("./net.js").ConnectionState} state @param {number} [code] */
  onConnState(state, code) {
    const t = this.t;
    // 4000 after the game's end: the table is gone (its server stopped, or the linger is
    // over); the end screen stays, with nothing to reconnect to.
    if (state === "lost" && code === CLOSE.TABLE_CLOSED && t.model.ended) {
      if (t.conn) t.conn.close();
      setBanner(null);
      return;
    }
    if (state === "lost") this.paused = false; // the catch-up says again if it still is
    if (state === "lost") setBanner("Connection lost — reconnecting…");
    else if (state === "open") setBanner(null);
  }

  /** @param {Msg} m */
  onMessage(m) {
    const t = this.t;
    const model = t.model;
    switch (m.type) {
      case SERVER_MESSAGES.WELCOME:
        model.keeper.reset(); // a new connection: its catch-up is a snapshot
        model.reconnected();
        model.actIds = m.act_ids === true;
        model.seat = m.seat;
        model.players = m.players;
        model.seats = m.seats;
        if (typeof m.bots === "string") model.bots = m.bots;
        model.hintsForAll = m.hints === true;
        model.rated = m.rated === true;
        model.lobby = { ...(model.lobby || {}), host: m.host ?? null };
        if (typeof m.pace === "string") this.pace = m.pace;
        t.el.mat.dataset.seat = m.seat === null ? "" : String(m.seat);
        t.chat.setSeats(m.seats, m.seat);
        noteWelcome(t.tableId, m); // what this browser saw, for the verify page
        displayFingerprint(m.fingerprint);
        if (m.started) this.fair.onDeal(m.client_seeds, m.commitments);
        else if (Array.isArray(m.commitments)) this.fair.onCommitted(m.commitments, null, null); // the reveal is on
        else this.drawPre();
        break;
      case SERVER_MESSAGES.SEEDS_COMMITTED:
        this.fair.onCommitted(m.commitments, m.seats, m.reveal_seconds);
        break;
      case SERVER_MESSAGES.GAME_STARTED:
        this.fair.onDeal(m.client_seeds, m.commitments);
        break;
      case SERVER_MESSAGES.LOBBY:
        model.lobby = m;
        if (typeof m.rated === "boolean") model.rated = m.rated;
        model.seats = m.seats;
        model.players = m.players;
        if (typeof m.pace === "string") this.pace = m.pace;
        t.chat.setSeats(m.seats, model.seat);
        this.drawPre();
        break;
      case SERVER_MESSAGES.UPDATE: t.onUpdate(m); break;
      case SERVER_MESSAGES.GAME_ENDED: t.onEnded(m); break;
      case SERVER_MESSAGES.ERROR: this.onError(m); break;
      case SERVER_MESSAGES.ACTED: if (model.acted(m.id) && model.view) t.draw(); break;
      case SERVER_MESSAGES.CHAT_LINE: t.chat.onLine(/** @type {import("./chat.js").ChatLine} */ (m)); break;
      case SERVER_MESSAGES.CHAT_RECENT: t.chat.onRecent(m.lines); break;
      case SERVER_MESSAGES.REMATCH_OFFER: this.rematchOffer = /** @type {RematchOffer} */ (m); t.draw(); break;
      case SERVER_MESSAGES.REMATCH_SEAT: this.onRematchSeat(/** @type {RematchSeat} */ (m)); break;
      case SERVER_MESSAGES.PACE:
        this.pace = m.pace;
        if (model.view) t.draw(); else this.drawPre();
        break;
      case SERVER_MESSAGES.WATCHERS:
        this.watchers = { count: Number(m.count) || 0, names: Array.isArray(m.names) ? m.names.map(String) : [] };
        if (model.view) t.draw(); else this.drawPre();
        break;
      case SERVER_MESSAGES.EXPLANATION: t.drawing.onExplanation(m); break;
      case SERVER_MESSAGES.HINT: t.drawing.onHint(m); break;
      case SERVER_MESSAGES.TABLE_PAUSED: this.onPaused(m); break;
      case SERVER_MESSAGES.TABLE_RESUMED: this.onResumed(m); break;
      default: break;
    }
  }

  /** The table waits for its server's database: no clock runs, nothing can be played.
   * @param {Msg} m */
  onPaused(m) {
    const t = this.t;
    this.paused = true;
    t.model.clocks = []; // stopped: shown again, with the time they had left, on resuming
    setBanner(`The table is paused, ${String(m.reason)}: the timers are stopped and play goes on as soon as it is back.`);
    announce("The table is paused: its server is waiting for its database.");
    if (t.model.view) t.draw();
  }

  /** Play goes on, each timer with the time it had left. @param {Msg} m */
  onResumed(m) {
    const t = this.t;
    this.paused = false;
    t.model.clocks = Array.isArray(m.clocks) ? m.clocks : [];
    t.clocksAt = performance.now();
    setBanner(null);
    announce("The table is playing again.");
    if (t.model.view) t.draw();
  }

  /** @param {Msg} m */
  onError(m) {
    const t = this.t;
    if (t.chat.onError(/** @type {import("./chat.js").ServerError} */ (m))) return; // shown in the chat, under its form
    if (this.rematchAsked && t.model.ended) { // after the end we send only chat and rematch
      this.rematchAsked = false;
      toast(`No rematch: ${m.message}`);
      t.draw();
      return;
    }
    t.model.refused(m.id);
    if (m.code === CODES.BAD_NAME && !t.token) { // our name, as a spectator: watch unnamed
      this.watchAs = null;
      return;
    }
    if (m.code === CODES.BAD_TOKEN) {
      t.dropSeat();
      toast(`Your seat could not be found (${m.message}); watching instead.`);
      this.connect(null);
      return;
    }
    if (m.code === CODES.UNKNOWN_TABLE) {
      if (t.conn) t.conn.close();
      t.el.decision.textContent = "";
      t.el.decision.append(document.createTextNode("There is no such table (it may have ended when the server restarted). "));
      const back = document.createElement("button");
      back.type = "button";
      back.textContent = "Back to the lobby";
      back.addEventListener("click", () => t.exits.onLeave());
      t.el.decision.append(back);
      return;
    }
    toast(`${m.message} (${m.code})`);
    if (t.model.view) t.draw();
  }

  // ------------------------------------------------------------------ before the start

  drawPre() {
    const t = this.t;
    if (t.model.view) return;
    t.el.pre.hidden = false;
    if (!this.chatOpened) { this.chatOpened = true; t.chat.show(true); } // the waiting room's talk
    t.drawing.drawPre();
    const what = this.fair.reveal ? "Dealing: waiting for the client seeds to be revealed…" : "Waiting for the game to start…";
    const shown = t.el.decision.querySelector(".what");
    if (!shown) {
      t.el.decision.textContent = "";
      const p = document.createElement("p");
      p.className = "what";
      p.textContent = what;
      t.el.decision.append(p);
    } else if (shown.textContent !== what) {
      shown.textContent = what;
    }
  }

  async start() {
    const t = this.t;
    this.busy = true;
    this.drawPre();
    try {
      const r = /** @type {{commitments?: (string | null)[]}} */ (
        await api("POST", `/api/tables/${t.tableId}/start`, { token: t.token }));
      // the start's answer lists the commitments too (seeds_committed may come first)
      if (r && Array.isArray(r.commitments) && r.commitments.some((c) => c !== null)) {
        this.fair.onCommitted(r.commitments, null, null);
      }
    } catch (e) {
      toast(`Could not start: ${e instanceof Error ? e.message : String(e)}`);
    }
    this.busy = false;
    this.drawPre();
  }

  /** @param {Event} ev */
  async join(ev) {
    ev.preventDefault();
    const t = this.t;
    const input = /** @type {HTMLInputElement | null} */ (document.getElementById("join-name"));
    const name = (input ? input.value : "").trim() || "Player";
    this.busy = true;
    this.drawPre();
    setName(name);
    try {
      const r = /** @type {{token: string, seat: number, fingerprint: string}} */ (
        await api("POST", `/api/tables/${t.tableId}/join`, { name }));
      setToken(t.tableId, r.token);
      t.token = r.token;
      await showFingerprint(t.tableId, r.fingerprint); // before our commitment goes out
      await commitClientSeed(t.tableId, { token: r.token, seat: r.seat });
      this.connect(r.token);
    } catch (e) {
      toast(`Could not join: ${e instanceof Error ? e.message : String(e)}`);
    }
    this.busy = false;
    this.drawPre();
  }

  async copyInvite() {
    const url = `${location.origin}/?table=${this.t.tableId}`;
    try {
      await navigator.clipboard.writeText(url);
      this.copied = "Copied.";
    } catch {
      this.copied = "Could not copy: select the link and copy it.";
    }
    this.drawPre();
  }

  // ------------------------------------------------------------------ in play and after

  /** The bots' pace, for everyone at the table. @param {string} pace */
  setPace(pace) {
    if (!this.t.send({ type: CLIENT_MESSAGES.PACE, pace })) toast("Not connected: the pace was not changed.");
  }

  /** @param {boolean} on */
  setReadMoves(on) {
    this.readMoves = on;
    try { localStorage.setItem(READ_MOVES, on ? "1" : "0"); } catch { /* private mode */ }
  }

  /** The setting, for the Keys panel: a screen reader hears the others' moves as they come. */
  readMovesControl() {
    const box = document.createElement("input");
    box.type = "checkbox";
    box.id = "read-moves";
    box.checked = this.readMoves;
    box.addEventListener("change", () => this.setReadMoves(box.checked));
    const label = document.createElement("label");
    label.className = "keys-switch";
    label.htmlFor = "read-moves";
    label.append(box, " Read the others' moves aloud (else they are in the log)");
    return label;
  }

  /** @param {number} seat */
  voteBot(seat) {
    const t = this.t;
    if (t.send({ type: CLIENT_MESSAGES.VOTE_BOT, seat })) {
      t.model.voted.add(seat);
      t.draw();
    } else {
      toast("Not connected: the vote was not sent.");
    }
  }

  askRematch() {
    if (this.rematchAsked) return;
    if (this.t.send({ type: CLIENT_MESSAGES.REMATCH })) {
      this.rematchAsked = true;
      this.t.draw();
    } else {
      toast("Not connected: the rematch was not asked for.");
    }
  }

  /** Our chair at the rematch table: take it (token, fingerprint, seed) and go there. @param {RematchSeat} m */
  async onRematchSeat(m) {
    try {
      await takeRematchSeat(m);
    } catch (e) {
      toast(`Could not take your seat at the rematch: ${e instanceof Error ? e.message : String(e)}`);
    }
    if (this.t.exits.onGoTo) this.t.exits.onGoTo(m.rematch);
  }

}

function readSetting() {
  try { return localStorage.getItem(READ_MOVES) === "1"; } catch { return false; }
}

// @ts-check
// The table's chat, in the log's pane (a "Log | Chat" switch at its top): it costs the
// table no space a player needs. Players write (at most 200 characters, counted in code
// points as the server counts them); spectators read. Lines are drawn as text only
// (textContent, never HTML), with the name and the text each isolated (<bdi>) so that
// right-to-left text cannot reorder the line around it.
//
// Mute per player: by name (the name is what a player is known by from one table to the
// next, a rematch too), kept in localStorage as `quaymoor.muted`, a JSON list of names.
// A muted player's lines are hidden (the count of hidden lines is shown) and never count
// as unread. The server keeps the last 50 lines in memory for a page that attaches later
// (`chat_recent`); nothing is kept in the game's record.

import { h, clear } from "./dom.js";

/** @typedef {import("./table_model.js").SeatInfo} SeatInfo */
/** @typedef {import("./net.js").ClientMessage} ClientMessage */
/**
 * `chat_line` (docs/protocol.md, 3), and each of `chat_recent`'s lines: `at` is Unix time.
 * @typedef {{table: string, id: number, seat: number, name: string, text: string, at: number}} ChatLine
 */
/** `error`: a message of ours refused. @typedef {{type: "error", code: string, message: string}} ServerError */

export const MAX_CHARS = 200;
const MUTED_KEY = "quaymoor.muted";
const KEEP_LINES = 200; // drawn at most; the oldest go first

function loadMuted() {
  try {
    const got = JSON.parse(localStorage.getItem(MUTED_KEY) || "[]");
    return new Set(Array.isArray(got) ? got.filter((x) => typeof x === "string") : []);
  } catch {
    return new Set();
  }
}

/** @param {Set<string>} names */
function saveMuted(names) {
  try { localStorage.setItem(MUTED_KEY, JSON.stringify([...names])); } catch { /* private mode */ }
}

/** Code points, as the server counts them (a UTF-16 length counts an emoji twice).
 * @param {string} text */
const codePoints = (text) => [...text].length;

/** @param {number} at */
const clock = (at) => {
  const d = new Date(at * 1000);
  return Number.isNaN(d.getTime()) ? "" : d.toTimeString().slice(0, 5);
};

export class ChatPanel {
  /** send(msg): false when the message could not go out (not connected).
   * @param {(msg: ClientMessage) => boolean} send */
  constructor(send) {
    this.send = send;
    /** @type {Map<number, ChatLine>} id -> chat_line, in the order the table took them */
    this.lines = new Map();
    this.muted = loadMuted();
    /** @type {number | null | undefined} our seat (none: watching) */
    this.seat = null;
    /** @type {SeatInfo[]} */
    this.seats = [];
    /** @type {string | undefined} the seats as last drawn in the mute list */
    this.seatsKey = undefined;
    this.unread = 0;
    this.open = false;
    /** @type {HTMLElement | null} the log's pane, once mounted */
    this.pane = null;
    /** @type {HTMLButtonElement | null} */
    this.logBtn = null;
    /** @type {HTMLButtonElement | null} */
    this.chatBtn = null;
    /** @type {IntersectionObserver | null} */
    this.seen = null;
    this.sentAt = 0; // when our last line went out: an error soon after is the chat's
    this.list = h("ol", { class: "chat-lines", id: "chat-lines" });
    this.hiddenNote = h("p", { class: "chat-hidden small", id: "chat-hidden", hidden: true });
    this.empty = h("p", { class: "chat-empty small" }, "No messages yet.");
    this.input = h("input", {
      type: "text", id: "chat-text", class: "chat-text", autocomplete: "off", enterkeyhint: "send",
      "aria-label": "Message to the table", placeholder: "Message",
      oninput: () => this.renderCount(),
    });
    this.count = h("span", { class: "chat-count small", id: "chat-count", "aria-live": "polite" });
    this.error = h("p", { class: "chat-error", id: "chat-error", role: "status" });
    this.sendBtn = h("button", { type: "submit", class: "quiet", id: "chat-send" }, "Send");
    this.form = h("form", { class: "chat-form", id: "chat-form", onsubmit: (ev) => { ev.preventDefault(); this.submit(); } },
      this.input, this.sendBtn, this.count);
    this.readOnly = h("p", { class: "chat-readonly small", hidden: true }, "Spectators read the chat; only the players write in it.");
    this.mute = h("details", { class: "chat-mute", id: "chat-mute" }, h("summary", {}, "Mute players"),
      h("div", { class: "chat-mute-list" }));
    this.el = h("section", { class: "chat", id: "chat", "aria-label": "Table chat" },
      this.mute,
      h("div", { class: "chat-scroll", role: "log", "aria-live": "polite", "aria-label": "Chat messages", tabindex: "0" },
        this.empty, this.list),
      this.hiddenNote, this.readOnly, this.form, this.error);
    this.renderCount();
  }

  /** Put the switch and the chat into the log's pane; the log shows first. @param {HTMLElement} pane */
  mount(pane) {
    this.pane = pane;
    this.logBtn = h("button", { type: "button", class: "quiet", id: "pane-log", "aria-pressed": "true",
      onclick: () => this.show(false) }, "Log");
    this.chatBtn = h("button", { type: "button", class: "quiet", id: "pane-chat", "aria-pressed": "false",
      onclick: () => this.show(true) }, "Chat", h("span", { class: "unread", id: "chat-unread", hidden: true }));
    pane.prepend(h("div", { class: "pane-switch", role: "group", "aria-label": "Log or chat" }, this.logBtn, this.chatBtn));
    pane.append(this.el);
    pane.dataset.pane = "log";
    // on a phone or tablet the pane itself may be out of view (another tab): the lines
    // count as unread until the chat is both chosen and in view
    this.seen = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting) && this.open) this.markRead();
    });
    this.seen.observe(this.el);
  }

  destroy() { if (this.seen) this.seen.disconnect(); }

  /** The chat is chosen in the pane and the pane is on the page. */
  inView() { return this.open && this.el.getClientRects().length > 0; }

  markRead() {
    this.unread = 0;
    this.renderUnread();
  }

  /** Show the chat (true) or the log (false) in the pane. @param {boolean} chat */
  show(chat) {
    this.open = chat;
    if (!this.pane || !this.logBtn || !this.chatBtn) return; // all three come with mount
    this.pane.dataset.pane = chat ? "chat" : "log";
    this.logBtn.setAttribute("aria-pressed", chat ? "false" : "true");
    this.chatBtn.setAttribute("aria-pressed", chat ? "true" : "false");
    if (chat) {
      if (this.inView()) this.markRead();
      this.scrollToEnd();
    }
  }

  /**
   * While it is your decision only the lit targets and the decision bar take the focus
   * (table.js): the switch and the chat leave the tab order then, and come back after.
   * @param {boolean} on
   */
  setTabbable(on) {
    if (!this.pane) return;
    for (const el of this.pane.querySelectorAll(".pane-switch button, #chat button, #chat input, #chat summary")) {
      if (on) el.removeAttribute("tabindex");
      else el.setAttribute("tabindex", "-1");
    }
    const scroll = this.el.querySelector(".chat-scroll");
    if (scroll) scroll.setAttribute("tabindex", on ? "0" : "-1");
  }

  /** Our seat (null: watching) and the seats' names, for the form and the mute list.
   * @param {SeatInfo[] | null | undefined} seats @param {number | null | undefined} seat */
  setSeats(seats, seat) {
    const key = JSON.stringify([seat, (seats || []).map((s) => [s.name, s.bot])]);
    if (key === this.seatsKey) return; // unchanged: keep the mute list as it is (it may be open)
    this.seatsKey = key;
    this.seat = seat;
    this.seats = seats || [];
    const watching = seat === null || seat === undefined;
    this.form.hidden = watching;
    this.readOnly.hidden = !watching;
    this.renderMuteList();
  }

  renderMuteList() {
    const list = clear(/** @type {HTMLElement} */ (this.mute.querySelector(".chat-mute-list")));
    const others = this.seats.filter((s) => s.name && !s.bot && s.seat !== this.seat);
    this.mute.hidden = !others.length;
    for (const s of others) {
      const name = /** @type {string} */ (s.name); // others are the seats with a name
      const on = this.muted.has(name);
      list.append(h("button", {
        type: "button", class: "quiet mute-toggle", "data-name": name, "aria-pressed": on ? "true" : "false",
        onclick: () => this.toggleMute(name),
      }, on ? "Unmute " : "Mute ", h("bdi", {}, name)));
    }
  }

  /** @param {string} name */
  toggleMute(name) {
    if (this.muted.has(name)) this.muted.delete(name);
    else this.muted.add(name);
    saveMuted(this.muted);
    this.renderMuteList();
    this.render();
  }

  /** A chat_line from the table. @param {ChatLine | null | undefined} line */
  onLine(line) {
    if (!line || typeof line.id !== "number" || this.lines.has(line.id)) return;
    this.lines.set(line.id, line);
    this.trim();
    const mine = line.seat === this.seat && this.seat !== null;
    if (!mine && !this.muted.has(line.name) && !this.inView()) {
      this.unread += 1;
      this.renderUnread();
    }
    this.render();
  }

  /** chat_recent: the lines the table holds, on attaching (a reconnect sends them again).
   * @param {ChatLine[] | null | undefined} lines */
  onRecent(lines) {
    for (const line of lines || []) {
      if (line && typeof line.id === "number") this.lines.set(line.id, line);
    }
    this.lines = new Map([...this.lines.entries()].sort((a, b) => a[0] - b[0]));
    this.trim();
    this.render();
  }

  trim() {
    while (this.lines.size > KEEP_LINES) this.lines.delete(/** @type {number} */ (this.lines.keys().next().value));
  }

  /** An error for something we sent: true when it was the chat's (shown here). @param {ServerError} m */
  onError(m) {
    const chatCode = m.code === "bad_chat" || m.code === "chat_too_fast";
    if (!chatCode && !(m.code === "spectator" && performance.now() - this.sentAt < 5000)) return false;
    this.error.textContent = m.message;
    return true;
  }

  submit() {
    const text = this.input.value.trim();
    if (!text) return;
    if (codePoints(text) > MAX_CHARS) {
      this.error.textContent = `A message is at most ${MAX_CHARS} characters.`;
      return;
    }
    if (this.send({ type: "chat", text })) {
      this.sentAt = performance.now();
      this.input.value = "";
      this.error.textContent = "";
      this.renderCount();
    } else {
      this.error.textContent = "Not connected: the message was not sent.";
    }
  }

  renderCount() {
    const n = codePoints(this.input.value);
    this.count.textContent = n > MAX_CHARS - 40 ? `${n}/${MAX_CHARS}` : "";
    this.count.classList.toggle("over", n > MAX_CHARS);
    this.sendBtn.disabled = n > MAX_CHARS;
  }

  renderUnread() {
    /** @type {HTMLElement | null} */
    const badge = this.chatBtn && this.chatBtn.querySelector(".unread");
    if (badge) {
      badge.hidden = !this.unread;
      badge.textContent = this.unread ? String(this.unread) : "";
      badge.setAttribute("aria-label", `${this.unread} unread`);
    }
    /** @type {HTMLElement | null} */
    const tab = document.querySelector("#tabs .tab-log");
    if (tab) {
      if (this.unread) tab.dataset.unread = String(this.unread);
      else delete tab.dataset.unread;
    }
  }

  render() {
    const list = clear(this.list);
    let hidden = 0;
    for (const line of this.lines.values()) {
      if (this.muted.has(line.name)) { hidden += 1; continue; }
      const mine = line.seat === this.seat && this.seat !== null;
      list.append(h("li", { class: `chat-line${mine ? " mine" : ""}`, "data-seat": line.seat, "data-id": line.id },
        h("time", { class: "chat-at" }, clock(line.at)), " ",
        h("bdi", { class: "chat-name" }, mine ? "You" : line.name), ": ",
        h("bdi", { class: "chat-said" }, line.text)));
    }
    this.empty.hidden = this.lines.size > 0;
    this.hiddenNote.hidden = !hidden;
    this.hiddenNote.textContent = hidden ? `${hidden} message${hidden === 1 ? "" : "s"} from muted players hidden.` : "";
    this.scrollToEnd();
  }

  scrollToEnd() {
    const box = this.el.querySelector(".chat-scroll");
    if (box) box.scrollTop = box.scrollHeight;
  }
}

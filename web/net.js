// @ts-check
// The websocket to the table: hello first, reconnect by itself with backoff.

import { csrfToken } from "./session.js";

/**
 * A message from the server, parsed (docs/protocol.md): the table reads it by its `type`.
 * @typedef {{type: string} & Record<string, unknown>} ServerMessage
 */
/** A message to the server (docs/protocol.md). @typedef {{type: string} & Record<string, unknown>} ClientMessage */
/**
 * "open" (the hello is sent), "lost" (with the close code; a retry is scheduled) or
 * "closed" (by `close()`).
 * @typedef {"open" | "lost" | "closed"} ConnectionState
 */
/**
 * @typedef {object} ConnectionHandlers
 * @property {(msg: ServerMessage) => void} onMessage
 * @property {(state: ConnectionState, closeCode?: number) => void} onState
 */

export class TableConnection {
  /**
   * @param {string} table
   * @param {() => {token: string|null, since: number|null, name?: string | null}} helloArgs
   *   (`name`: a spectator's, listed to the table among its watchers)
   * @param {ConnectionHandlers} handlers
   */
  constructor(table, helloArgs, handlers) {
    this.table = table;
    this.helloArgs = helloArgs;
    this.handlers = handlers;
    /** @type {WebSocket | null} */
    this.ws = null;
    this.attempt = 0;
    this.stopped = false;
    /** @type {number | undefined} */
    this.pingTimer = undefined;
    /** @type {number | undefined} */
    this.retryTimer = undefined;
  }

  open() {
    if (this.stopped) return;
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    let ws;
    try {
      // The table in the URL too: a cluster's router sends it to the table's process.
      ws = new WebSocket(`${proto}//${location.host}/ws?table=${encodeURIComponent(this.table)}`);
    } catch {
      this.scheduleRetry();
      return;
    }
    this.ws = ws;
    ws.addEventListener("open", () => {
      this.attempt = 0;
      const { token, since, name } = this.helloArgs();
      const hello = { type: "hello", table: this.table, token, since, ...(name ? { name } : {}) };
      ws.send(JSON.stringify(hello));
      this.handlers.onState("open");
      clearInterval(this.pingTimer);
      this.pingTimer = setInterval(() => this.send({ type: "ping" }), 25000);
    });
    ws.addEventListener("message", (ev) => {
      /** @type {ServerMessage} */
      let msg;
      try { msg = JSON.parse(ev.data); } catch { return; }
      this.handlers.onMessage(msg);
    });
    ws.addEventListener("close", (ev) => {
      clearInterval(this.pingTimer);
      if (this.ws !== ws) return;
      this.ws = null;
      if (this.stopped) { this.handlers.onState("closed"); return; }
      this.handlers.onState("lost", ev.code);
      this.scheduleRetry();
    });
    ws.addEventListener("error", () => { /* close follows */ });
  }

  scheduleRetry() {
    clearTimeout(this.retryTimer);
    const delay = Math.min(15000, 500 * 2 ** this.attempt) * (0.75 + Math.random() * 0.5);
    this.attempt += 1;
    this.retryTimer = setTimeout(() => this.open(), delay);
  }

  /** @param {ClientMessage} msg @returns {boolean} whether it went out (false: not open) */
  send(msg) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify(msg));
      return true;
    }
    return false;
  }

  close() {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    clearInterval(this.pingTimer);
    if (this.ws) this.ws.close();
  }
}

/** An HTTP API's refusal: the server's message, its error code when it gave one, the HTTP status. */
export class ApiError extends Error {
  /** @param {string} message @param {string | null} code @param {number} status */
  constructor(message, code, status) {
    super(message);
    this.code = code;
    this.status = status;
  }
}

/**
 * A JSON API call: the answer's parsed JSON (null when it is not JSON), for the caller to
 * read as the endpoint's documented shape (docs/protocol.md). Throws ApiError on an HTTP
 * error, or a network error's TypeError. While signed in, a request that is not a read
 * carries the session's CSRF token (session.js), as the server asks of every one.
 * @param {string} method
 * @param {string} path
 * @param {unknown} [body] sent as JSON; none when undefined
 * @returns {Promise<unknown>}
 */
export async function api(method, path, body) {
  /** @type {Record<string, string>} */
  const headers = body === undefined ? {} : { "Content-Type": "application/json" };
  const csrf = method === "GET" || method === "HEAD" ? null : csrfToken();
  if (csrf !== null) headers["X-CSRF-Token"] = csrf;
  const res = await fetch(path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  /** @type {unknown} */
  let data;
  try { data = await res.json(); } catch { data = null; }
  if (!res.ok) {
    const error = errorOf(data);
    throw new ApiError(error.message || `HTTP ${res.status}`, error.code, res.status);
  }
  return data;
}

/**
 * What a caught value says: an Error's message, or the value as text (a catch clause's
 * value may be anything thrown).
 * @param {unknown} err
 */
export function errorText(err) {
  return err instanceof Error ? err.message : String(err);
}

/**
 * The message and code of an error answer, `{"error": {"code", "message"}}`
 * (docs/protocol.md), or nulls when the answer is not one.
 * @param {unknown} data
 * @returns {{message: string | null, code: string | null}}
 */
export function errorOf(data) {
  const error = data !== null && typeof data === "object" && "error" in data ? data.error : null;
  if (error === null || typeof error !== "object") return { message: null, code: null };
  const message = "message" in error && typeof error.message === "string" ? error.message : null;
  const code = "code" in error && typeof error.code === "string" ? error.code : null;
  return { message, code };
}

// The websocket to the table: hello first, reconnect by itself with backoff.

export class TableConnection {
  /**
   * @param {string} table
   * @param {() => {token: string|null, since: number|null}} helloArgs
   * @param {object} handlers  onMessage(msg), onState("open"|"lost"|"closed", closeCode)
   */
  constructor(table, helloArgs, handlers) {
    this.table = table;
    this.helloArgs = helloArgs;
    this.handlers = handlers;
    this.ws = null;
    this.attempt = 0;
    this.stopped = false;
    this.pingTimer = null;
    this.retryTimer = null;
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
      const { token, since } = this.helloArgs();
      ws.send(JSON.stringify({ type: "hello", table: this.table, token, since }));
      this.handlers.onState("open");
      clearInterval(this.pingTimer);
      this.pingTimer = setInterval(() => this.send({ type: "ping" }), 25000);
    });
    ws.addEventListener("message", (ev) => {
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

export async function api(method, path, body) {
  const res = await fetch(path, {
    method,
    headers: body === undefined ? {} : { "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  let data;
  try { data = await res.json(); } catch { data = null; }
  if (!res.ok) {
    const err = new Error((data && data.error && data.error.message) || `HTTP ${res.status}`);
    err.code = data && data.error && data.error.code;
    throw err;
  }
  return data;
}

// @ts-check
// The signed-in state of this page: the account its session cookie names (GET
// /api/accounts/me) and that session's CSRF token, which every POST must carry while
// signed in (net.js's api() sends it as X-CSRF-Token). The session cookie is HttpOnly: no
// script reads it, so the server is asked.
//
// A signed-out player's page should not ask at all: the 401 answer is right, but
// Chromium writes every 4xx it fetches on the console as an error. So this browser keeps
// a hint, the cookie `quaymoor_signed_in` (no secret: "1"), set at sign-in, dropped at
// sign-out or when the server says signed out, and cleared with the session's cookie
// when the player clears cookies. `loadSession({ onlyIfHinted: true })` (the lobby) asks
// only when it is there; the account page always asks.

/**
 * GET /api/accounts/me (docs/protocol.md "Accounts").
 * @typedef {object} Account
 * @property {string} name
 * @property {number} since when the account was made, seconds since the epoch
 * @property {number} passkeys
 * @property {number} sessions
 * @property {string} csrf this session's token
 */
/**
 * What this page knows of its session: the name and token (as a sign-in answers them),
 * and the rest of /me once it is loaded.
 * @typedef {{name: string, csrf: string} & Partial<Account>} Session
 */

const HINT = "quaymoor_signed_in";
const HINT_SECONDS = 30 * 24 * 3600; // a session's life (the server's SESSION_SECONDS)

/** @type {Session | null} */
let current = null;

/** Whether this browser signed in here and has not signed out since. */
export function hinted() {
  return document.cookie.split(";").some((part) => part.trim() === `${HINT}=1`);
}

/** @param {boolean} on */
function hint(on) {
  const secure = location.protocol === "https:" ? "; Secure" : "";
  document.cookie = `${HINT}=${on ? "1" : ""}; Path=/; Max-Age=${on ? HINT_SECONDS : 0}; SameSite=Lax${secure}`;
}

/** @param {unknown} data @returns {data is Account} */
function isAccount(data) {
  if (data === null || typeof data !== "object") return false;
  const d = /** @type {Record<string, unknown>} */ (data);
  return typeof d.name === "string" && typeof d.csrf === "string" && typeof d.since === "number"
    && typeof d.passkeys === "number" && typeof d.sessions === "number";
}

/**
 * The signed-in account (and its CSRF token, kept for api()), or null when signed out
 * (401). Throws an Error with the server's message on any other answer, or fetch's
 * TypeError when the server cannot be reached.
 * @param {{onlyIfHinted?: boolean}} [opts] onlyIfHinted: null at once, without asking,
 *   when this browser has not signed in (no hint)
 * @returns {Promise<Account | null>}
 */
export async function loadSession(opts = {}) {
  if (opts.onlyIfHinted && !hinted()) { current = null; return null; }
  const res = await fetch("/api/accounts/me", { headers: { Accept: "application/json" }, cache: "no-store" });
  /** @type {unknown} */
  let data;
  try { data = await res.json(); } catch { data = null; }
  if (res.status === 401) { clearSession(); return null; }
  if (!res.ok || !isAccount(data)) {
    const error = data !== null && typeof data === "object" && "error" in data ? data.error : null;
    const message = error !== null && typeof error === "object" && "message" in error ? error.message : null;
    throw new Error(typeof message === "string" ? message : `HTTP ${res.status}`);
  }
  current = data;
  hint(true);
  return data;
}

/** This session's CSRF token, or null when signed out (or not loaded). */
export function csrfToken() {
  return current ? current.csrf : null;
}

/** What is known of this page's session, or null. @returns {Session | null} */
export function currentSession() {
  return current;
}

/** Signed in (a sign-in's or registration's answer). @param {{name: string, csrf: string}} signed */
export function setSession(signed) {
  current = { name: signed.name, csrf: signed.csrf };
  hint(true);
}

/** Signed out, here or everywhere, or the account deleted. */
export function clearSession() {
  current = null;
  if (hinted()) hint(false);
}

// @ts-check
// The signed-in state of this page: the account its session cookie names (GET
// /api/accounts/me) and that session's CSRF token, which every POST must carry while
// signed in (net.js's api() sends it as X-CSRF-Token). The session cookie is HttpOnly: no
// script reads it, so the server is asked.
//
// Signed out, /me answers `{"signed_in": false}` (200): asking is never an error.

/**
 * GET /api/accounts/me when signed in (docs/protocol.md "Accounts").
 * @typedef {object} Account
 * @property {string} name
 * @property {number} since when the account was made, seconds since the epoch
 * @property {number} passkeys
 * @property {number} sessions
 * @property {string} csrf this session's token
 * @property {{rating: number, interval: [number, number], games: number}} [rating] the
 *   account's rating (issue 27; players_model.js's ratingOf reads it)
 */
/**
 * What this page knows of its session: the name and token (as a sign-in answers them),
 * and the rest of /me once it is loaded.
 * @typedef {{name: string, csrf: string} & Partial<Account>} Session
 */

/** @type {Session | null} */
let current = null;

/** @param {unknown} data @returns {data is Account} */
function isAccount(data) {
  if (data === null || typeof data !== "object") return false;
  const d = /** @type {Record<string, unknown>} */ (data);
  return typeof d.name === "string" && typeof d.csrf === "string" && typeof d.since === "number"
    && typeof d.passkeys === "number" && typeof d.sessions === "number";
}

/**
 * The signed-in account (and its CSRF token, kept for api()), or null when signed out.
 * Throws an Error with the server's message on any other answer, or fetch's TypeError
 * when the server cannot be reached.
 * @returns {Promise<Account | null>}
 */
export async function loadSession() {
  const res = await fetch("/api/accounts/me", { headers: { Accept: "application/json" }, cache: "no-store" });
  /** @type {unknown} */
  let data;
  try { data = await res.json(); } catch { data = null; }
  if (res.ok && data !== null && typeof data === "object" && "signed_in" in data
      && data.signed_in === false) { clearSession(); return null; }
  if (!res.ok || !isAccount(data)) {
    const error = data !== null && typeof data === "object" && "error" in data ? data.error : null;
    const message = error !== null && typeof error === "object" && "message" in error ? error.message : null;
    throw new Error(typeof message === "string" ? message : `HTTP ${res.status}`);
  }
  current = data;
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
}

/** Signed out, here or everywhere, or the account deleted. */
export function clearSession() {
  current = null;
}

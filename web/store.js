// @ts-check
// The seat token per table, kept across reloads.

/** @param {string} table */
const tokenKey = (table) => `quaymoor.seat.${table}`;
/** @param {string} table */
const versionKey = (table) => `quaymoor.version.${table}`;

/**
 * `fn()`, or null when it throws (storage off, full, or refused in private mode).
 * @template T
 * @param {() => T} fn
 * @returns {T | null}
 */
function safe(fn) {
  try { return fn(); } catch { return null; }
}

/** @param {string} table */
export const getToken = (table) => safe(() => localStorage.getItem(tokenKey(table)));
/** @param {string} table @param {string} token */
export const setToken = (table, token) => safe(() => localStorage.setItem(tokenKey(table), token));
/** @param {string} table */
export const dropToken = (table) => safe(() => localStorage.removeItem(tokenKey(table)));
/** @param {string} table @returns {number|null} */
export function getVersion(table) {
  const v = safe(() => localStorage.getItem(versionKey(table)));
  return v === null || v === "" ? null : Number(v);
}
/** @param {string} table @param {number} v */
export const setVersion = (table, v) => safe(() => localStorage.setItem(versionKey(table), String(v)));
export const getName = () => safe(() => localStorage.getItem("quaymoor.name")) || "";
/** @param {string} n */
export const setName = (n) => safe(() => localStorage.setItem("quaymoor.name", n));

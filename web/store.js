// The seat token per table, kept across reloads.

const tokenKey = (table) => `quaymoor.seat.${table}`;
const versionKey = (table) => `quaymoor.version.${table}`;

function safe(fn, fallback = null) {
  try { return fn(); } catch { return fallback; }
}

export const getToken = (table) => safe(() => localStorage.getItem(tokenKey(table)));
export const setToken = (table, token) => safe(() => localStorage.setItem(tokenKey(table), token));
export const dropToken = (table) => safe(() => localStorage.removeItem(tokenKey(table)));
export function getVersion(table) {
  const v = safe(() => localStorage.getItem(versionKey(table)));
  return v === null || v === undefined || v === "" ? null : Number(v);
}
export const setVersion = (table, v) => safe(() => localStorage.setItem(versionKey(table), String(v)));
export const getName = () => safe(() => localStorage.getItem("quaymoor.name")) || "";
export const setName = (n) => safe(() => localStorage.setItem("quaymoor.name", n));

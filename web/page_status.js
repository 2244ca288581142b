// @ts-check
// What the account and players' pages share: their status line (#status, a polite live
// region: every outcome is said there) and a <time> that says how long ago.

import { h } from "./dom.js";

/** @typedef {import("./players_model.js").When} When */

/**
 * Say `text` in the page's #status, in `tone` ("ok", "error" or plain).
 * @param {string} text @param {"ok" | "error" | ""} [tone]
 */
export function say(text, tone = "") {
  const status = document.getElementById("status");
  if (!status) return;
  status.textContent = text;
  status.className = `status${tone ? ` ${tone}` : ""}`;
}

/** A <time> with how long ago, its date in full as a title. @param {When} when */
export function timeEl(when) {
  return h("time", { datetime: when.iso, title: when.full }, when.text);
}

// @ts-check
// A link to a section of the How to play page (/how-to-play, web/how-to-play.html), for the
// table, its decision bar's "?" and the end screen: howToPlayLink("reeve", "How the Reeve works").
//
// HOW_TO_PLAY_SECTIONS is every anchor the page has (its headings' ids, and one per role
// card); the page's browser test checks that each is there. phaseSection(phase) names the
// section that explains a phase of the view (board.phase).

/** Every anchor of the page. */
export const HOW_TO_PLAY_SECTIONS = Object.freeze([
  "top", "round", "warden", "roles",
  "surveyor", "reeve", "mason", "miller", "chandler", "bargemaster", "pedlar",
  "plots", "holding", "goods", "apprentices",
  "buildings", "prices", "building-list",
  "selling-shipping", "selling", "shipping", "keeping",
  "end", "scoring", "supplies",
  "online", "keys", "timer", "bots", "server", "fair",
]);

const PHASES = /** @type {Record<string, string>} */ ({
  pick_role: "round", keep_goods: "keeping", game_over: "end",
});

/** The section that explains a phase of the view ("reeve" for "reeve", "keeping" for
 * "keep_goods"), or "top".
 * @param {string} phase
 * @returns {string} */
export function phaseSection(phase) {
  const name = PHASES[phase] || phase;
  return HOW_TO_PLAY_SECTIONS.includes(name) ? name : "top";
}

/** The address of a section: "/how-to-play#reeve" (the page's top for an unknown anchor, which
 * is also reported on the console).
 * @param {string} anchor
 * @returns {string} */
export function howToPlayHref(anchor) {
  if (!HOW_TO_PLAY_SECTIONS.includes(anchor)) {
    console.warn(`How to play has no section #${anchor}`);
    return "/how-to-play";
  }
  return `/how-to-play#${anchor}`;
}

/** An <a> to a section of How to play. At a table the page opens in a new tab (``newTab``,
 * the default), so the game stays where it is; the link says so to a screen reader.
 * @param {string} anchor
 * @param {string} text
 * @param {{newTab?: boolean}} [options]
 * @returns {HTMLAnchorElement} */
export function howToPlayLink(anchor, text, { newTab = true } = {}) {
  const a = document.createElement("a");
  a.href = howToPlayHref(anchor);
  a.className = "howto-link";
  a.textContent = text;
  if (newTab) {
    a.target = "_blank";
    a.rel = "noopener";
    const note = document.createElement("span");
    note.className = "sr-only";
    note.textContent = " (opens in a new tab)";
    a.append(note);
  }
  return a;
}

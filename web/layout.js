// @ts-check
// The table's layout by screen size: the sections as tabs on a phone or tablet, the desktop
// drawn denser until it fits (the page never scrolls in play), bringing a lit target into
// view clear of the sticky decision bar, and the tab order while a decision is yours.

/** The section of each tab (H B P L). */
export const SECTIONS = /** @type {const} */ ({ mat: "mat", board: "board", others: "others", log: "logpane" });
/** @typedef {keyof typeof SECTIONS} Section */

export const isPhone = () => window.matchMedia("(max-width: 599px)").matches;
export const isDesk = () => window.matchMedia("(min-width: 1000px)").matches;

/**
 * Mark the tabs: on a phone one section shows; on a tablet the board and mat always, the
 * players or the log beside them.
 * @param {HTMLElement} layout
 * @param {HTMLElement} tabs
 * @param {Section} tab
 * @param {"others" | "log"} side
 */
export function applyTabs(layout, tabs, tab, side) {
  layout.dataset.tab = tab;
  layout.dataset.side = side;
  for (const b of tabs.querySelectorAll("button[data-tab]")) {
    const key = /** @type {HTMLElement} */ (b).dataset.tab;
    const isSide = key === "others" || key === "log";
    const on = isSide && !isPhone() ? key === side : key === tab;
    b.setAttribute("aria-pressed", on ? "true" : "false");
  }
}

/**
 * Desktop: a panel whose content would overflow (the players with five seats late in a
 * game; the board once your high street has grown) is drawn denser, a level at a time
 * (data-fit-others, data-fit-board: 0 to 3, style.css); at last the decision bar leaves
 * out its hint (data-fit-bar). Each fit starts again from level 0, so a panel that has
 * room again is drawn roomy again; a level costs one layout.
 * @param {HTMLElement} layout
 * @param {HTMLElement} others
 * @param {HTMLElement} board
 * @param {boolean} on  a desktop table in play
 */
export function fit(layout, others, board, on) {
  for (const [el, attr] of /** @type {[HTMLElement, string][]} */ ([[others, "fitOthers"], [board, "fitBoard"]])) {
    let level = 0;
    layout.dataset[attr] = "0";
    while (on && level < 3 && el.scrollHeight > el.clientHeight) {
      level += 1;
      layout.dataset[attr] = String(level);
    }
  }
  layout.dataset.fitBar = on && board.scrollHeight > board.clientHeight ? "1" : "0";
}

/**
 * Bring `el` into view clear of the sticky decision bar above and, on a phone, the tab bar
 * below; focus it when asked.
 * @param {HTMLElement} el
 * @param {HTMLElement} decision
 * @param {HTMLElement} tabs
 * @param {boolean} focus
 */
export function bringIntoView(el, decision, tabs, focus) {
  if (focus) el.focus({ preventScroll: true });
  const r = el.getBoundingClientRect();
  const top = decision.offsetHeight + 8;
  const bottom = window.innerHeight - (isPhone() ? tabs.offsetHeight : 0) - 8;
  if (r.top >= top && r.bottom <= bottom) return;
  const want = top + Math.max(0, (bottom - top - r.height) / 2);
  window.scrollBy({ top: r.top - want, left: 0, behavior: "instant" });
}

/** While it is your decision only the lit targets, the decision bar and the two scrolling
 * side panels (#others, #log: a keyboard must be able to scroll them, WCAG 2.1.1) are in the
 * tab order. @param {boolean} on */
export function setOutOfTabOrder(on) {
  for (const el of document.querySelectorAll(".topbar a, .topbar button, #tabs button, #log-filter button")) {
    if (on) el.setAttribute("tabindex", "-1");
    else el.removeAttribute("tabindex");
  }
}

/** The banner under the top bar ("Connection lost — reconnecting…"), or none. @param {string | null} text */
export function setBanner(text) {
  const el = document.getElementById("banner");
  if (!el) return;
  el.textContent = text || "";
  el.hidden = !text;
}

/** Does this device have a fine pointer or a keyboard worth showing key letters for? */
export const showsKeyLetters = () => !window.matchMedia("(hover: none) and (pointer: coarse)").matches;

/** The lit targets on the board and your mat, in page order (the decision bar's are in view).
 * @param {HTMLElement} root */
export function litTargets(root) {
  return /** @type {HTMLElement[]} */ ([...root.querySelectorAll("#board button.lit, #mat button.lit")]);
}

// @ts-check
// Your turn while away: while a decision is yours the tab's title reads "● Your turn —
// Quaymoor" and its icon carries a lit dot; both come back as they were once it is not.
// A new decision while the page is hidden (another tab in front) gets the louder "away"
// chime instead of the turn chime; sound.js plays neither while the sound is off.

const MINE_TITLE = "● Your turn — Quaymoor";
const DOT = "data:image/svg+xml," + encodeURIComponent(
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">'
  + '<rect width="32" height="32" rx="6" fill="#3b2f45"/>'
  + '<circle cx="16" cy="16" r="10" fill="#f2b632" stroke="#fff" stroke-width="3"/></svg>');

/** The page's icon link, made when the page has none. @returns {HTMLLinkElement} */
function icon() {
  let link = /** @type {HTMLLinkElement | null} */ (document.querySelector('link[rel="icon"]'));
  if (!link) {
    link = document.createElement("link");
    link.rel = "icon";
    document.head.append(link);
  }
  return link;
}

/** The sound for a new decision of yours: "away" when the page is hidden, else "turn".
 * @returns {"away" | "turn"} */
export function turnSound() {
  return document.hidden ? "away" : "turn";
}

export class AwaySignal {
  constructor() {
    this.mine = false;
    this.title = document.title;
    /** @type {string | null} the icon's own href, while ours is shown */
    this.href = icon().getAttribute("href");
  }

  /** Show (mine) or take away the "your turn" title and icon. @param {boolean} mine */
  set(mine) {
    if (mine === this.mine) return;
    const link = icon();
    if (mine) {
      this.title = document.title;
      this.href = link.getAttribute("href");
      document.title = MINE_TITLE;
      link.setAttribute("href", DOT);
      link.dataset.mine = "1";
    } else {
      document.title = this.title;
      if (this.href === null) link.removeAttribute("href");
      else link.setAttribute("href", this.href);
      delete link.dataset.mine;
    }
    this.mine = mine;
  }

  destroy() { this.set(false); }
}

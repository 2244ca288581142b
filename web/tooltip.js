// @ts-check
// Tooltips for anything with a data-tip attribute (role cards, plots, buildings): shown by
// pointing with a mouse (a real move onto it, never a page that changed under a resting mouse), by keyboard focus, or by holding a finger on it (~500 ms) on a
// touch screen. A long press only shows the text: it never chooses anything.

const HOVER_DELAY = 250;
const LONG_PRESS = 500;
const MOVE_SLOP = 10;

/** @type {HTMLElement | null} */
let tip = null;
/** @type {HTMLElement | null} the element whose tip is shown */
let anchor = null;
/** @type {string | null} */
let anchorKey = null;
/** @type {number | undefined} */
let hoverTimer;
/** @type {{el: HTMLElement, x: number, y: number, timer: number, fired: boolean} | null} */
let press = null;
/** @type {HTMLElement | null} the element whose long press just ended: its click is not a choice */
let swallow = null;

/** @returns {HTMLElement} */
function tipEl() {
  if (!tip) {
    tip = document.getElementById("tip");
    if (!tip) {
      tip = document.createElement("div");
      tip.id = "tip";
      document.body.append(tip);
    }
    tip.setAttribute("role", "tooltip");
    tip.hidden = true;
  }
  return tip;
}

/** The element with a tip that an event's target is in, if any. @param {EventTarget | null} node */
const tipTarget = (node) => {
  const n = /** @type {Element | null} */ (node); // or a text node, which has no closest
  return /** @type {HTMLElement | null} */ (n && n.closest ? n.closest("[data-tip]") : null);
};

/**
 * Show el's tip; `how` says what showed it ("hover", "focus", "press"), which decides
 * what takes it away.
 * @param {HTMLElement} el
 * @param {string | undefined} how
 */
export function showTip(el, how) {
  const text = el.getAttribute("data-tip");
  if (!text) return;
  const t = tipEl();
  if (anchor && anchor !== el) anchor.removeAttribute("aria-describedby");
  anchor = el;
  anchorKey = el.dataset.key || null;
  t.textContent = "";
  const title = el.getAttribute("data-tip-title");
  if (title) {
    const b = document.createElement("strong");
    b.textContent = title;
    t.append(b, document.createElement("br"));
  }
  t.append(text);
  t.dataset.how = how;
  t.hidden = false;
  el.setAttribute("aria-describedby", "tip");
  place(el, t);
}

export function hideTip() {
  clearTimeout(hoverTimer);
  if (anchor) anchor.removeAttribute("aria-describedby");
  anchor = null;
  anchorKey = null;
  if (tip) tip.hidden = true;
}

/** @param {Element} el @param {HTMLElement} t */
function place(el, t) {
  const r = el.getBoundingClientRect();
  const vw = document.documentElement.clientWidth;
  const vh = window.innerHeight;
  t.style.maxWidth = `${Math.min(320, vw - 16)}px`;
  t.style.left = "0px";
  t.style.top = "0px";
  const w = t.offsetWidth;
  const hgt = t.offsetHeight;
  let left = r.left + r.width / 2 - w / 2;
  left = Math.max(8, Math.min(left, vw - w - 8));
  let top = r.bottom + 8;
  if (top + hgt > vh - 8 && r.top - hgt - 8 >= 8) top = r.top - hgt - 8;
  top = Math.max(8, Math.min(top, vh - hgt - 8));
  t.style.left = `${Math.round(left)}px`;
  t.style.top = `${Math.round(top)}px`;
}

/** Whether `el` is drawn: in the page and not hidden (itself or a panel around it, as
 * the end screen hides the board). @param {Element} el */
const drawn = (el) => el.isConnected && el.getClientRects().length > 0;

/** After a re-render: follow the anchor to its new element (same data-key), or hide (also
 * when the element is still in the page but no longer drawn).
 * @param {ParentNode} root */
export function refreshTip(root) {
  if (!anchor) return;
  if (drawn(anchor)) { place(anchor, tipEl()); return; }
  /** @type {HTMLElement | null} */
  const again = anchorKey ? root.querySelector(`[data-key="${CSS.escape(anchorKey)}"][data-tip]`) : null;
  if (again && drawn(again)) {
    const how = tipEl().dataset.how;
    showTip(again, how);
  } else {
    hideTip();
  }
}

export const tipShownFor = () => anchor;

function cancelPress() {
  if (press) clearTimeout(press.timer);
  press = null;
}

export function installTooltips() {
  tipEl();
  // mouse: point at it. Only a real move counts: when the page changes under a resting
  // mouse (a re-render, the end screen, a scroll) the browser sends pointerover to whatever
  // is now under it, and that must not pop a tooltip.
  /** @type {number | null} */
  let lastX = null;
  /** @type {number | null} */
  let lastY = null;
  /** @type {HTMLElement | null} */
  let hoverEl = null;
  document.addEventListener("pointermove", (ev) => {
    if (ev.pointerType !== "mouse") return;
    const moved = ev.clientX !== lastX || ev.clientY !== lastY;
    lastX = ev.clientX;
    lastY = ev.clientY;
    if (!moved) return;
    const el = tipTarget(ev.target);
    if (el === hoverEl) return;
    hoverEl = el;
    clearTimeout(hoverTimer);
    if (!el || el === anchor) return;
    hoverTimer = setTimeout(() => { if (el.isConnected && el === hoverEl) showTip(el, "hover"); }, HOVER_DELAY);
  });
  document.addEventListener("pointerout", (ev) => {
    if (ev.pointerType !== "mouse") return;
    const el = tipTarget(ev.target);
    if (!el) return;
    if (ev.relatedTarget && el.contains(/** @type {Node} */ (ev.relatedTarget))) return;
    clearTimeout(hoverTimer);
    if (hoverEl === el) hoverEl = null;
    if (anchor === el && tip && tip.dataset.how === "hover") hideTip();
  });
  // keyboard: focus shows it, leaving hides it
  document.addEventListener("focusin", (ev) => {
    const el = tipTarget(ev.target);
    if (el && el === ev.target && el.matches(":focus-visible")) showTip(el, "focus");
    else if (anchor && tip && tip.dataset.how === "focus") hideTip();
  });
  document.addEventListener("focusout", (ev) => {
    if (anchor === ev.target && tip && tip.dataset.how === "focus" && !ev.relatedTarget) hideTip();
  });
  // touch: hold a finger on it
  document.addEventListener("touchstart", (ev) => {
    const el = tipTarget(ev.target);
    swallow = null; // a new touch: its click (a tap) counts
    if (anchor && tip && tip.dataset.how === "press") hideTip(); // any new touch closes it
    cancelPress();
    if (!el || ev.touches.length !== 1) return;
    const t = ev.touches[0];
    press = {
      el, x: t.clientX, y: t.clientY, fired: false,
      timer: setTimeout(() => {
        if (!press || !el.isConnected) return;
        press.fired = true;
        showTip(el, "press");
      }, LONG_PRESS),
    };
  }, { passive: true });
  document.addEventListener("touchmove", (ev) => {
    if (!press || press.fired) return;
    const t = ev.touches[0];
    if (t && Math.hypot(t.clientX - press.x, t.clientY - press.y) > MOVE_SLOP) cancelPress();
  }, { passive: true });
  document.addEventListener("touchend", (ev) => {
    if (press && press.fired) {
      // A long press reads; it does not choose: no click follows it.
      ev.preventDefault();
      swallow = press.el;
      setTimeout(() => { swallow = null; }, 1000);
    }
    cancelPress();
  }, { passive: false });
  document.addEventListener("touchcancel", cancelPress, { passive: true });
  document.addEventListener("click", (ev) => {
    if (swallow && swallow.contains(/** @type {Node | null} */ (ev.target))) {
      ev.stopPropagation();
      ev.preventDefault();
    }
    swallow = null;
  }, { capture: true });
  document.addEventListener("contextmenu", (ev) => {
    if (tipTarget(ev.target)) ev.preventDefault();
  });
  document.addEventListener("keydown", (ev) => {
    if (ev.key === "Escape" && anchor && tip && tip.dataset.how !== "focus") hideTip();
  });
  window.addEventListener("resize", () => { if (anchor) refreshTip(document); });
  document.addEventListener("scroll", () => { if (anchor && anchor.isConnected) place(anchor, tipEl()); },
    { capture: true, passive: true });
}

// @ts-check
// The table's keys (shortcuts.js says which key is which, and lets a player remap them):
// Esc puts back what is lifted, closes the help or the Done question; H B P L show a
// section; D asks before Done and confirms it; J jumps to the next lit target; M sound;
// ? explains the decision; and bringing the lit targets into view (J, and a new decision
// of yours on a phone or tablet).

import { keyAction } from "./shortcuts.js";
import { sound } from "./sound.js";
import { toast } from "./dom.js";
import { SECTIONS, bringIntoView, isDesk, isPhone, litTargets } from "./layout.js";

/** @typedef {import("./table.js").TableScreen} TableScreen */

/**
 * @param {TableScreen} t
 * @param {KeyboardEvent} ev
 */
export function onTableKey(t, ev) {
  const m = t.model;
  if (ev.key === "Escape") {
    if (t.drawing.helpOpen) { ev.preventDefault(); t.drawing.closeHelp(); }
    else if (m.doneAsked) { ev.preventDefault(); t.askDone(false); } else if (m.lifted) { ev.preventDefault(); t.putBack(); }
    return;
  }
  const k = keyAction(ev); // null while shortcuts are off, or typing in a field
  if (k === "mat" || k === "board" || k === "others" || k === "log") {
    ev.preventDefault();
    t.showSection(k);
  } else if (k === "done" && m.isMine() && m.doneAction()) {
    ev.preventDefault();
    if (m.doneAsked) t.confirmDone(); else t.askDone(true);
  } else if (k === "jump" && m.isMine()) {
    ev.preventDefault();
    t.jumpToLit();
  } else if (k === "sound") {
    ev.preventDefault();
    sound.toggle();
  } else if (k === "help" && m.view && !m.ended) {
    ev.preventDefault();
    t.drawing.toggleHelp();
  }
}

/**
 * On a phone or tablet, when a decision of yours starts: show the section that holds its
 * lit targets (phone) and scroll the first into view. Nothing moves on a desktop, where
 * everything is in view, and the focus stays where it is.
 * @param {TableScreen} t
 */
export function revealTargets(t) {
  if (isDesk()) return;
  const lit = litTargets(t.app);
  if (!lit.length) return;
  const panel = document.getElementById(SECTIONS[t.tab]);
  const here = isPhone() && panel ? lit.find((el) => panel.contains(el)) : null;
  jumpTo(t, here || lit[0], false);
}

/** J and the "Jump to lit" button: the next lit target (round and round), in view and
 * focused. @param {TableScreen} t */
export function jumpToLit(t) {
  const lit = litTargets(t.app);
  if (!lit.length) { toast("Nothing is lit on the board or your mat: your choices are in the decision bar."); return; }
  const at = lit.indexOf(/** @type {HTMLElement} */ (document.activeElement));
  jumpTo(t, lit[(at + 1) % lit.length], true);
}

/** @param {TableScreen} t @param {HTMLElement} el @param {boolean} focus */
function jumpTo(t, el, focus) {
  if (isPhone()) {
    const key = el.closest("#mat") ? "mat" : "board";
    if (t.tab !== key) { t.tab = key; t.showTabs(); }
  }
  bringIntoView(el, t.el.decision, t.el.tabs, focus);
}

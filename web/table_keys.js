// @ts-check
// The table's keys (shortcuts.js says which key is which, and lets a player remap them):
// Esc puts back what is lifted, closes the help or the Done question; H B P L show a
// section; D asks before Done and confirms it; J jumps to the next lit target; M sound;
// ? explains the decision.

import { keyAction } from "./shortcuts.js";
import { sound } from "./sound.js";

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

// @ts-check
// The table's single-key shortcuts (WCAG 2.1.4): on by default, and a player may turn them
// off or give any of them another key, in a small "Keys" control by the sound button. The
// choice is kept in localStorage for every table. D (Done) always asks to confirm first.
//
// keyAction(ev) says which shortcut a key press is (or null); the table does the rest.

import { h, clear } from "./dom.js";
import { v } from "./vdom.js";

const KEY = "quaymoor.keys";

/** @typedef {{on: boolean, keys: Record<string, string>}} Settings  the shortcuts' keys by name */

/** Each shortcut: its name, its default key, what it does (the settings' label).
 * @type {[name: string, key: string, label: string][]} */
export const SHORTCUTS = [
  ["mat", "h", "Your mat"],
  ["board", "b", "Board"],
  ["others", "p", "Players"],
  ["log", "l", "Log"],
  ["done", "d", "Done (asks to confirm)"],
  ["jump", "j", "Jump to lit"],
  ["sound", "m", "Sound on/off"],
  ["help", "?", "What this decision is"],
];
/** @type {Record<string, string>} */
const DEFAULTS = Object.fromEntries(SHORTCUTS.map(([name, key]) => [name, key]));
const ALLOWED = /^[a-z0-9?]$/;

/** @returns {Settings} */
function load() {
  try {
    const saved = JSON.parse(localStorage.getItem(KEY) || "null");
    if (!saved || typeof saved !== "object") return { on: true, keys: { ...DEFAULTS } };
    const keys = { ...DEFAULTS };
    for (const [name] of SHORTCUTS) {
      const k = saved.keys && saved.keys[name];
      if (typeof k === "string" && ALLOWED.test(k)) keys[name] = k;
    }
    return { on: saved.on !== false, keys };
  } catch {
    return { on: true, keys: { ...DEFAULTS } };
  }
}

let settings = load();
/** @type {Set<() => void>} */
const listeners = new Set();

function save() {
  try { localStorage.setItem(KEY, JSON.stringify(settings)); } catch { /* private mode */ }
  for (const fn of listeners) fn();
}

/** Call fn whenever the settings change; returns the way to stop. @param {() => void} fn */
export function onKeysChange(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

/** The key of a shortcut now ("h"), or null while shortcuts are off.
 * @param {string} name @returns {string | null} */
export function keyOf(name) {
  return settings.on ? settings.keys[name] : null;
}

/** The shortcut a key press means, or null (off, a modifier held, typing in a field).
 * @param {KeyboardEvent} ev @returns {string | null} */
export function keyAction(ev) {
  if (!settings.on || ev.ctrlKey || ev.metaKey || ev.altKey) return null;
  if (ev.target instanceof Element && /INPUT|SELECT|TEXTAREA/.test(ev.target.tagName)) return null;
  if (ev.key.length !== 1) return null;
  const k = ev.key.toLowerCase();
  const found = SHORTCUTS.find(([name]) => settings.keys[name] === k);
  return found ? found[0] : null;
}

/**
 * Show the current keys on every element with data-shortcut="<name>" under root: its
 * aria-keyshortcuts and its <kbd> (both gone while shortcuts are off).
 * @param {ParentNode} root
 */
export function showKeys(root) {
  for (const el of root.querySelectorAll("[data-shortcut]")) {
    const k = keyOf(el.getAttribute("data-shortcut") || "");
    if (k) el.setAttribute("aria-keyshortcuts", k.toUpperCase());
    else el.removeAttribute("aria-keyshortcuts");
    const kbd = el.querySelector("kbd");
    if (kbd) { kbd.textContent = k ? k.toUpperCase() : ""; kbd.hidden = !k; }
  }
}

/** The "Keys" control: a disclosure with the on/off switch and a key for each shortcut;
 * `extra` (another setting of the table's) goes at its end.
 * @param {Node | null} [extra] */
export function keysControl(extra) {
  const box = h("details", { class: "keys", id: "keys" });
  const summary = h("summary", { class: "keys-summary" }, "Keys");
  const panel = h("div", { class: "keys-panel", role: "group", "aria-label": "Keyboard shortcuts" });
  const note = h("p", { class: "keys-note", role: "status" });
  box.append(summary, panel);

  const draw = () => {
    clear(panel);
    const on = h("input", { type: "checkbox", id: "keys-on", checked: settings.on,
      onchange: () => { settings = { ...settings, on: on.checked }; save(); draw(); } });
    panel.append(h("label", { class: "keys-switch", for: "keys-on" }, on, " Single-key shortcuts"));
    const list = h("div", { class: "keys-list" });
    for (const [name, , label] of SHORTCUTS) {
      const id = `key-${name}`;
      const input = h("input", {
        type: "text", id, class: "key-input", maxlength: 1, value: settings.keys[name].toUpperCase(),
        disabled: !settings.on, autocomplete: "off", spellcheck: "false",
        "aria-describedby": "keys-note",
        onchange: () => remap(name, input),
      });
      list.append(h("label", { class: "key-row", for: id }, h("span", {}, label), input));
    }
    note.id = "keys-note";
    panel.append(list, note, h("button", { type: "button", class: "quiet", id: "keys-reset",
      onclick: () => { settings = { on: true, keys: { ...DEFAULTS } }; save(); draw(); note.textContent = "Keys reset."; },
    }, "Reset keys"));
    if (extra) panel.append(extra);
  };

  /** @param {string} name @param {HTMLInputElement} input */
  const remap = (name, input) => {
    const k = input.value.trim().toLowerCase();
    const taken = SHORTCUTS.find(([other]) => other !== name && settings.keys[other] === k);
    if (!ALLOWED.test(k)) {
      note.textContent = "A shortcut is one letter or digit.";
    } else if (taken) {
      note.textContent = `${k.toUpperCase()} is already the key for ${taken[2]}.`;
    } else {
      settings = { ...settings, keys: { ...settings.keys, [name]: k } };
      save();
      const [, , label] = /** @type {[string, string, string]} */ (SHORTCUTS.find(([n]) => n === name));
      note.textContent = `${label}: ${k.toUpperCase()}.`;
    }
    input.value = settings.keys[name].toUpperCase();
  };

  draw();
  return box;
}

/** The question D asks before Done: yes plays Done, no puts it away.
 * @param {() => void} onYes @param {() => void} onNo */
export function doneConfirm(onYes, onNo) {
  const k = keyOf("done");
  return v("div", { class: "done-confirm", id: "done-confirm", role: "alertdialog",
    "aria-label": "Confirm Done", "aria-describedby": "done-confirm-text" },
  v("p", { id: "done-confirm-text" }, `End this part of your turn (Done)?${k ? ` Press ${k.toUpperCase()} again to confirm.` : ""}`),
  v("button", { type: "button", class: "primary", id: "done-yes", onclick: onYes }, "Yes, Done"),
  v("button", { type: "button", class: "quiet", id: "done-no", onclick: onNo }, "Not yet"));
}

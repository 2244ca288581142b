// @ts-check
// The account page (/account): create an account with a passkey, sign in with one, see
// the account and its passkeys (add one on this device, remove one), sign out here or
// everywhere, delete it. What it says comes from
// account_model.js; the ceremonies' browser side is passkey.js; the session (and its
// CSRF token, which api() sends) is session.js's. Every outcome is said in #status (a
// polite live region); after a change of state the new part's heading takes the focus.

import { api } from "./net.js";
import { clearSession, loadSession, setSession } from "./session.js";
import { createPasskey, getPasskey, passkeysAvailable } from "./passkey.js";
import { say } from "./page_status.js";
import {
  DONE, accountFacts, checkName, deleteProblem, failure, hostProblem, partsShown, passkeyRows,
} from "./account_model.js";

/** @typedef {import("./account_model.js").Mode} Mode */
/** @typedef {import("./account_model.js").Doing} Doing */
/** @typedef {import("./session.js").Account} Account */
/** A ceremony's first answer: its id and the options for the browser. @typedef {{ceremony: string, options: any}} Ceremony */
/** A sign-in's or registration's answer. @typedef {{name: string, csrf: string}} SignedIn */
/** @typedef {import("./account_model.js").Passkey} Passkey */

/**
 * An element of account.html by its id.
 * @template {HTMLElement} [T=HTMLElement]
 * @param {string} id
 * @returns {T}
 */
function $(id) {
  return /** @type {T} */ (document.getElementById(id));
}

const createName = /** @type {HTMLInputElement} */ ($("create-name"));
const deleteName = /** @type {HTMLInputElement} */ ($("delete-name"));
const deleteForm = $("delete-form");
const deleteStart = $("delete-start");
/** @type {Account | null} */
let account = null;
/** A request under way: the buttons say so and further clicks wait. */
let busy = false;


/**
 * Show the part of `mode` (only it); `focus`: move the focus to its heading, after the
 * player changed the state (not on the page's first load).
 * @param {Mode} mode @param {boolean} [focus]
 */
function show(mode, focus = false) {
  const shown = partsShown(mode);
  for (const [id, on] of Object.entries(shown)) $(id).hidden = !on;
  if (mode === "signed-in" && account) fillAccount(account);
  if (mode !== "signed-in") closeDelete();
  if (focus) {
    const part = Object.entries(shown).find(([, on]) => on);
    const heading = part && $(part[0]).querySelector("h2");
    if (heading) heading.focus();
  }
}

/** @param {Account} a */
function fillAccount(a) {
  const facts = accountFacts(a);
  $("me-name").textContent = facts.name;
  const since = $("me-since");
  since.textContent = facts.since;
  since.setAttribute("datetime", facts.sinceIso);
  $("me-passkeys").textContent = facts.passkeys;
  $("me-sessions").textContent = facts.sessions;
  $("delete-says").textContent = facts.name;
}

/** Read the account's passkeys and list them, each with its Remove button. */
async function listPasskeys() {
  const got = /** @type {{passkeys: Passkey[]}} */ (await api("GET", "/api/accounts/passkeys"));
  const list = $("keys");
  list.textContent = "";
  for (const row of passkeyRows(got.passkeys)) {
    const item = document.createElement("li");
    const what = document.createElement("span");
    const label = document.createElement("strong");
    label.textContent = row.label;
    what.append(label, `, ${row.made}; ${row.used}`);
    const remove = document.createElement("button");
    remove.type = "button";
    remove.className = "quiet";
    remove.textContent = "Remove";
    remove.dataset.key = row.id;
    remove.setAttribute("aria-label", `Remove ${row.label}`);
    if (!row.removable) { // not while busy only: setBusy leaves it so
      remove.dataset.unavailable = "true";
      remove.setAttribute("aria-disabled", "true");
      remove.title = "The account's only passkey: add another first, or delete the account";
    }
    remove.addEventListener("click", () => {
      if (row.removable) removePasskey(row.id, row.label);
    });
    item.append(what, remove);
    list.append(item);
  }
}

/** @param {string} id @param {string} label */
function removePasskey(id, label) {
  act("remove-passkey", `Removing ${label}…`, async () => {
    const done = /** @type {{passkeys: number}} */ (await api("POST", "/api/accounts/passkeys/remove", { id }));
    await refresh();
    say(DONE.passkeyRemoved(label, done.passkeys), "ok");
    $("keys-h").focus();
  });
}

$("add-key").addEventListener("click", () => act("add-passkey", "Making a passkey on this device: follow your browser's steps…", async () => {
  const made = /** @type {Ceremony} */ (await api("POST", "/api/accounts/passkeys/options", {}));
  const credential = await createPasskey(made.options);
  say("Checking the new passkey…");
  const added = /** @type {{passkeys: number}} */ (await api("POST", "/api/accounts/passkeys",
    { ceremony: made.ceremony, credential }));
  await refresh();
  say(DONE.passkeyAdded(added.passkeys), "ok");
}));

/**
 * Say what is wrong with what was typed in `input`, next to it (its own live region, which
 * the input names as its description), mark it and put the focus there; "" clears it.
 * @param {HTMLInputElement} input @param {string} text
 */
function fieldError(input, text) {
  $(`${input.id}-error`).textContent = text;
  if (!text) { input.removeAttribute("aria-invalid"); return; }
  input.setAttribute("aria-invalid", "true");
  input.focus();
}

/** @param {boolean} on */
function setBusy(on) {
  busy = on;
  for (const b of document.querySelectorAll("main button")) {
    if (on) b.setAttribute("aria-disabled", "true");
    else if (!(b instanceof HTMLElement && b.dataset.unavailable)) b.removeAttribute("aria-disabled");
  }
}

/**
 * Run `work` unless something else is under way: `waiting` said first, a failure said
 * as `doing`'s (its field, when the server pointed at one, marked and focused).
 * @param {Doing} doing @param {string} waiting @param {() => Promise<void>} work
 */
async function act(doing, waiting, work) {
  if (busy) return;
  setBusy(true);
  say(waiting);
  try {
    await work();
  } catch (e) {
    const { text, field } = failure(e, doing);
    const input = field === "name" ? (doing === "delete" ? deleteName : createName) : null;
    if (input) { say(""); fieldError(input, text); } else say(text, "error");
    if (e && typeof e === "object" && "code" in e && e.code === "signed_out") {
      try { await refresh(true); } catch { /* the error said stays */ }
    }
  } finally {
    setBusy(false);
  }
}

/** Ask the server who is signed in and show it (with the passkeys). @param {boolean} [focus] */
async function refresh(focus = false) {
  account = await loadSession();
  show(account ? "signed-in" : "signed-out", focus);
  if (account) {
    try {
      await listPasskeys();
    } catch (e) {
      say(failure(e, "passkeys").text, "error");
    }
  }
}

/** Signed in (a registration's or sign-in's answer): the account shown. @param {SignedIn} signed */
async function signedIn(signed) {
  setSession(signed);
  await refresh(true);
}

$("create-form").addEventListener("submit", (ev) => {
  ev.preventDefault();
  const { name, problem } = checkName(createName.value);
  fieldError(createName, problem || "");
  if (problem) return;
  act("create", "Making your passkey: follow your browser's steps…", async () => {
    const made = /** @type {Ceremony} */ (await api("POST", "/api/accounts/register/options", { name }));
    const credential = await createPasskey(made.options);
    say("Checking your new passkey…");
    const signed = /** @type {SignedIn} */ (await api("POST", "/api/accounts/register",
      { ceremony: made.ceremony, credential }));
    await signedIn(signed);
    createName.value = "";
    say(DONE.created(signed.name), "ok");
  });
});

createName.addEventListener("input", () => fieldError(createName, ""));

$("signin").addEventListener("click", () => act("signin", "Choose your passkey in your browser's window…", async () => {
  const asked = /** @type {Ceremony} */ (await api("POST", "/api/accounts/signin/options", {}));
  const credential = await getPasskey(asked.options);
  say("Checking your passkey…");
  const signed = /** @type {SignedIn} */ (await api("POST", "/api/accounts/signin",
    { ceremony: asked.ceremony, credential }));
  await signedIn(signed);
  say(DONE.signedIn(signed.name), "ok");
}));

$("signout").addEventListener("click", () => act("signout", "Signing out…", async () => {
  await api("POST", "/api/accounts/signout", {});
  clearSession();
  account = null;
  show("signed-out", true);
  say(DONE.signedOut, "ok");
}));

$("signout-everywhere").addEventListener("click", () => act("signout-everywhere", "Signing out everywhere…", async () => {
  const ended = /** @type {{signed_out: number}} */ (await api("POST", "/api/accounts/signout-everywhere", {}));
  clearSession();
  account = null;
  show("signed-out", true);
  say(DONE.signedOutEverywhere(ended.signed_out), "ok");
}));

/** @param {boolean} open */
function openDelete(open) {
  deleteForm.hidden = !open;
  deleteStart.setAttribute("aria-expanded", String(open));
  deleteName.value = "";
  fieldError(deleteName, "");
}

function closeDelete() {
  openDelete(false);
}

deleteStart.addEventListener("click", () => {
  if (busy) return;
  const opening = deleteStart.getAttribute("aria-expanded") !== "true";
  openDelete(opening);
  if (opening) deleteName.focus();
});

$("delete-cancel").addEventListener("click", () => {
  closeDelete();
  deleteStart.focus();
  say("The account is kept.");
});

deleteName.addEventListener("input", () => fieldError(deleteName, ""));

deleteForm.addEventListener("submit", (ev) => {
  ev.preventDefault();
  if (!account) return;
  const name = account.name;
  const problem = deleteProblem(deleteName.value, name);
  fieldError(deleteName, problem || "");
  if (problem) return;
  act("delete", "Deleting the account…", async () => {
    await api("POST", "/api/accounts/delete", { name: deleteName.value.trim() });
    clearSession();
    account = null;
    show("signed-out", true);
    say(DONE.deleted(name), "ok");
  });
});

$("retry-button").addEventListener("click", () => start(true));

/** The page's first look (or a retry): the address, then who is signed in. @param {boolean} [focus] */
async function start(focus = false) {
  const problem = hostProblem(location, { secureContext: window.isSecureContext, webauthn: passkeysAvailable() });
  if (problem) {
    $("wrong-host-text").textContent = problem.text;
    const link = /** @type {HTMLAnchorElement} */ ($("localhost-link"));
    $("wrong-host-go").hidden = problem.href === null;
    if (problem.href !== null) { link.href = problem.href; link.textContent = `Open ${problem.href}`; }
    say("");
    show("wrong-host", focus);
    return;
  }
  say("Checking whether you are signed in…");
  try {
    await refresh(focus);
    say(account ? `Signed in as ${account.name}.` : "You are not signed in.");
  } catch (e) {
    say(failure(e, "load").text, "error");
    show("failed", focus);
  }
}

start();

// @ts-check
// What the account page (account.html, account.js) shows, worked out without a DOM:
// which part for each state, whether passkeys can work on this address (not on an IP
// address: WebAuthn takes a site's name only), the account's facts as text, the name's
// quick check, and a sentence for each outcome and error. Pure: tested under node.

/** The length of a name, in characters (code points, after NFKC), as the server counts. */
export const NAME_MIN = 2;
export const NAME_MAX = 20;

/**
 * The page's states: "checking" (asking the server), "wrong-host" (passkeys cannot work
 * on this address or in this browser), "failed" (the server could not be asked),
 * "signed-out" and "signed-in".
 * @typedef {"checking" | "wrong-host" | "failed" | "signed-out" | "signed-in"} Mode
 */
/**
 * Why passkeys cannot work here, with the page to open instead (null: none).
 * @typedef {object} HostProblem
 * @property {"ip" | "insecure" | "unsupported"} reason
 * @property {string} text
 * @property {string | null} href
 */
/** The page's address, as `location` has it. @typedef {{protocol: string, hostname: string, port: string}} Where */

/** The parts each state shows (ids in account.html), in the page's order. */
const PARTS = /** @type {const} */ (["wrong-host", "retry", "signed-out", "signed-in"]);

/**
 * Which parts of the page show in `mode`: at most one.
 * @param {Mode} mode
 * @returns {Record<typeof PARTS[number], boolean>}
 */
export function partsShown(mode) {
  const shown = { "wrong-host": "wrong-host", failed: "retry", "signed-out": "signed-out",
    "signed-in": "signed-in", checking: null }[mode];
  return /** @type {Record<typeof PARTS[number], boolean>} */ (
    Object.fromEntries(PARTS.map((part) => [part, part === shown])));
}

/**
 * Whether a host (location.hostname: an IPv6 address in brackets) is an IP address.
 * @param {string} hostname
 */
export function isIpHost(hostname) {
  const host = hostname.replace(/^\[(.*)\]$/, "$1");
  return host.includes(":") || /^\d{1,3}(\.\d{1,3}){3}$/.test(host);
}

/** @param {string} hostname */
function isLoopback(hostname) {
  const host = hostname.replace(/^\[(.*)\]$/, "$1");
  return host === "::1" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/**
 * This page at localhost, same scheme and port: where a server on this computer makes
 * passkeys by default.
 * @param {Where} where
 */
export function localhostUrl(where) {
  return `${where.protocol}//localhost${where.port ? `:${where.port}` : ""}/account`;
}

/**
 * Why passkeys cannot work on this page, or null when they can.
 * @param {Where} where
 * @param {{secureContext: boolean, webauthn: boolean}} can the page is a secure
 *   context; the browser has PublicKeyCredential
 * @returns {HostProblem | null}
 */
export function hostProblem(where, can) {
  const local = "the computer the server runs on";
  if (isIpHost(where.hostname)) {
    const text = isLoopback(where.hostname)
      ? `Passkeys work only on a site's name, not on an address such as ${where.hostname}. `
        + "This server is on this computer: open this page at localhost instead."
      : `Passkeys work only on a site's name, not on an address such as ${where.hostname}. `
        + `Open the site by its name (ask whoever runs it) or, on ${local}, at localhost:`;
    return { reason: "ip", text, href: localhostUrl(where) };
  }
  if (!can.secureContext) {
    return { reason: "insecure", text: "Passkeys work only on a secure page, and this one is "
      + `plain http. Open the site over https or, on ${local}, at localhost:`, href: localhostUrl(where) };
  }
  if (!can.webauthn) {
    return { reason: "unsupported", text: "This browser cannot make or use passkeys. A recent "
      + "Chrome, Edge, Firefox or Safari can.", href: null };
  }
  return null;
}

/**
 * `n` and the word, plural when it is not 1.
 * @param {number} n @param {string} word
 */
export function counted(n, word) {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/**
 * What the signed-in part says of the account.
 * @param {{name: string, since: number, passkeys: number, sessions: number}} account
 * @param {string} [locale] the date's language (the browser's when none)
 */
export function accountFacts(account, locale) {
  const made = new Date(account.since * 1000);
  const others = account.sessions - 1;
  return {
    name: account.name,
    since: made.toLocaleDateString(locale, { year: "numeric", month: "long", day: "numeric" }),
    sinceIso: made.toISOString().slice(0, 10),
    passkeys: counted(account.passkeys, "passkey"),
    sessions: others > 0 ? `${counted(account.sessions, "session")} (this one and ${counted(others, "other")})`
      : "1 session (this one)",
  };
}

/**
 * The name to ask for (what was typed, without spaces around it), or why not yet: a
 * quick check of its length only; the server checks the rest and says what is wrong.
 * @param {string} raw
 * @returns {{name: string, problem: string | null}}
 */
export function checkName(raw) {
  const name = raw.trim();
  const length = [...name.normalize("NFKC")].length;
  if (length === 0) return { name, problem: "Type the name you want first." };
  if (length < NAME_MIN || length > NAME_MAX) {
    return { name, problem: `A name is ${NAME_MIN} to ${NAME_MAX} characters; this one has ${length}.` };
  }
  return { name, problem: null };
}

/**
 * Why the typed confirmation does not delete the account yet, or null when it is the
 * name exactly (spaces around it aside).
 * @param {string} typed @param {string} name
 */
export function deleteProblem(typed, name) {
  return typed.trim() === name ? null
    : `To delete the account, type its name, ${name}, exactly as it is shown.`;
}

/** What was being done, for an error's first words. @typedef {"load" | "create" | "signin" | "signout" | "signout-everywhere" | "delete" | "add-passkey" | "remove-passkey" | "passkeys"} Doing */
const DOING = {
  load: "Could not check whether you are signed in",
  "add-passkey": "Could not add the passkey",
  "remove-passkey": "Could not remove the passkey",
  passkeys: "Could not list your passkeys",
  create: "Could not create the account",
  signin: "Could not sign in",
  signout: "Could not sign out",
  "signout-everywhere": "Could not sign out everywhere",
  delete: "Could not delete the account",
};

/** What a passkey's DOMException means, by its name. @param {string} name @param {Doing} doing */
function browserSays(name, doing) {
  const making = doing === "create" || doing === "add-passkey";
  switch (name) {
    case "NotAllowedError":
      return making ? "no passkey was made: it was cancelled, or it took too long"
        : "no passkey was used: it was cancelled or took too long, or this device has no passkey for this site";
    case "InvalidStateError": return "this device already has a passkey for this account (one of those listed)";
    case "SecurityError": return "the browser refused passkeys on this address: open the site by its name (localhost on this computer)";
    case "AbortError": return "it was cancelled";
    case "NotSupportedError": return "this device cannot make a passkey of a kind the site takes";
    case "ConstraintError": return "this device cannot check that it is you (set up a screen lock, a PIN or a fingerprint)";
    default: return null;
  }
}

/**
 * A server's message for a player: without the field it points at (" @ $.name"), which
 * `field` gives instead.
 * @param {string} message
 * @returns {{text: string, field: string | null}}
 */
export function playerMessage(message) {
  const at = message.match(/\s*@ \$\.?([\w.[\]]*)\s*$/);
  const text = (at ? message.slice(0, at.index) : message).trim();
  return { text, field: at ? at[1] || null : null };
}

/**
 * The sentence for a failure while `doing`: the server's message (an ApiError's, with its
 * `code`), the browser's reason for a passkey refused (a DOMException's name), the
 * network, or whatever else was thrown. `field`: the input the server pointed at.
 * @param {unknown} err
 * @param {Doing} doing
 * @returns {{text: string, field: string | null}}
 */
export function failure(err, doing) {
  const e = err !== null && typeof err === "object" ? /** @type {Record<string, unknown>} */ (err) : {};
  const name = typeof e.name === "string" ? e.name : "";
  const message = typeof e.message === "string" ? e.message : String(err);
  const code = typeof e.code === "string" ? e.code : null;
  /** @param {string} why @param {string | null} [field] */
  const says = (why, field = null) => ({ text: `${DOING[doing]}: ${why.replace(/[.:;,\s]+$/, "")}.`, field });
  if (code === "csrf") {
    return says("this page's sign-in is out of date (you signed in or out in another tab): reload the page");
  }
  if (code !== null) {
    const { text, field } = playerMessage(message);
    return says(text || `the server refused (${code})`, field);
  }
  const browser = browserSays(name, doing);
  if (browser) return says(browser);
  if (name === "TypeError" && /fetch|network|load failed/i.test(message)) {
    return says("the server could not be reached (check the connection, then try again)");
  }
  return says(message || name || "something went wrong");
}

/**
 * One of the account's passkeys (GET /api/accounts/passkeys: `id`, `created`, `used` in
 * seconds since the epoch, `used` null when it never signed in).
 * @typedef {{id: string, created: number, used: number | null}} Passkey
 */
/**
 * A row of the passkeys' list: what it says, and whether (and why not) it may be removed.
 * @typedef {object} PasskeyRow
 * @property {string} id
 * @property {string} label "Passkey 2", in the order they were made
 * @property {string} made "made 4 December 2026"
 * @property {string} used "last used 6 December 2026", or "never used to sign in"
 * @property {boolean} removable not the account's only passkey
 */

/**
 * The account's passkeys as the page lists them, oldest first (numbered so); none may be
 * removed when there is only one (the server refuses it: last_passkey).
 * @param {readonly Passkey[]} keys
 * @param {string} [locale] the dates' language (the browser's when none)
 * @returns {PasskeyRow[]}
 */
export function passkeyRows(keys, locale) {
  /** @param {number} s */
  const day = (s) => new Date(s * 1000).toLocaleDateString(locale, { year: "numeric", month: "long", day: "numeric" });
  return [...keys].sort((a, b) => a.created - b.created).map((k, i) => ({
    id: k.id,
    label: `Passkey ${i + 1}`,
    made: `made ${day(k.created)}`,
    used: k.used === null ? "never used to sign in" : `last used ${day(k.used)}`,
    removable: keys.length > 1,
  }));
}

/** The sentences for what went well. */
export const DONE = {
  /** @param {number} n how many the account holds now */
  passkeyAdded: (n) => `Passkey added: this device can sign in to the account now (${counted(n, "passkey")} in all).`,
  /** @param {string} label @param {number} n how many are left */
  passkeyRemoved: (label, n) => `${label} is removed: it signs nobody in any more (${counted(n, "passkey")} left). `
    + "The device may still list it: you can remove it in the device's passkey settings.",
  /** @param {string} name */
  created: (name) => `Welcome, ${name}: your account is made, with this device's passkey, and you are signed in.`,
  /** @param {string} name */
  signedIn: (name) => `Signed in as ${name}.`,
  signedOut: "Signed out on this device.",
  /** @param {number} n */
  signedOutEverywhere: (n) => `Signed out everywhere: ${counted(n, "session")} ended.`,
  /** @param {string} name */
  deleted: (name) => `The account ${name} is deleted, with its passkeys and sessions. Your device `
    + "may still list its passkey for this site: you can remove it in the device's passkey settings.",
};

// The account page's pure modules under node: web/account_model.js (what the page shows
// in each state, the IP-address check, the error sentences) and web/passkey_json.js
// (base64url, the options and the credential to and from WebAuthn's JSON). No DOM, no
// network. Run by tests/web_model/test_model_node.py (node --test).

import { test } from "node:test";
import assert from "node:assert/strict";
import {
  DONE, NAME_MAX, NAME_MIN, accountFacts, checkName, counted, deleteProblem, failure,
  hostProblem, isIpHost, localhostUrl, partsShown, passkeyRows, playerMessage,
} from "../../web/account_model.js";
import {
  base64urlToBytes, bytesToBase64url, creationOptionsFromJSON, credentialToJSON,
  requestOptionsFromJSON,
} from "../../web/passkey_json.js";

const bytes = (buffer) => [...new Uint8Array(buffer)];
const buf = (list) => new Uint8Array(list).buffer;

// ---------------------------------------------------------------- base64url

test("base64url round trips every length from 0 to 40, and all 256 byte values", () => {
  for (let n = 0; n <= 40; n += 1) {
    const data = Array.from({ length: n }, (_, i) => (i * 97 + n * 13) % 256);
    const text = bytesToBase64url(new Uint8Array(data));
    assert.match(text, /^[A-Za-z0-9_-]*$/, "no padding, no + or /");
    assert.equal(text.length, Math.ceil((n * 4) / 3), `length for ${n} bytes`);
    assert.deepEqual(bytes(base64urlToBytes(text)), data);
  }
  const all = Array.from({ length: 256 }, (_, i) => i);
  assert.deepEqual(bytes(base64urlToBytes(bytesToBase64url(buf(all)))), all);
});

test("base64url: known values, empty, 1 and 2 bytes past a multiple of 3, and a view", () => {
  assert.equal(bytesToBase64url(new Uint8Array([])), "");
  assert.deepEqual(bytes(base64urlToBytes("")), []);
  assert.equal(bytesToBase64url(buf([1, 2, 3])), "AQID");
  assert.equal(bytesToBase64url(buf([1, 2, 3, 4])), "AQIDBA"); // 3n + 1: two characters
  assert.equal(bytesToBase64url(buf([1, 2, 3, 4, 5])), "AQIDBAU"); // 3n + 2: three
  assert.equal(bytesToBase64url(buf([0xfb, 0xff])), "-_8"); // "+/8=" in plain base64
  assert.deepEqual(bytes(base64urlToBytes("-_8")), [0xfb, 0xff]);
  assert.deepEqual(bytes(base64urlToBytes("AQIDBA==")), [1, 2, 3, 4], "padding is allowed");
  // a view of part of a buffer: only its own bytes
  const big = new Uint8Array([9, 9, 1, 2, 3, 9]);
  assert.equal(bytesToBase64url(big.subarray(2, 5)), "AQID");
  // long input (more than one chunk of String.fromCharCode)
  const long = Array.from({ length: 70000 }, (_, i) => i % 251);
  assert.deepEqual(bytes(base64urlToBytes(bytesToBase64url(buf(long)))), long);
});

test("base64url refuses what is not base64url", () => {
  for (const bad of ["A", "AQIDB", "a+b/", "AQ ID", "AQ=D", "AQID===", "é"]) {
    assert.throws(() => base64urlToBytes(bad), TypeError, bad);
  }
  assert.throws(() => base64urlToBytes(/** @type {any} */ (null)), TypeError);
});

// ---------------------------------------------------------------- options and credentials

// as the server sends them (py_webauthn's options_to_json)
const CREATION = {
  rp: { name: "Quaymoor", id: "localhost" },
  user: { id: "AQEBAQ", name: "Ada", displayName: "Ada" },
  challenge: "-Dioeq4I97DXvXfE4tBFug",
  pubKeyCredParams: [{ type: "public-key", alg: -8 }, { type: "public-key", alg: -7 }],
  timeout: 120000,
  excludeCredentials: [{ type: "public-key", id: "AQID", transports: ["internal"] }],
  authenticatorSelection: { residentKey: "required", requireResidentKey: true, userVerification: "preferred" },
  attestation: "none",
  extensions: { credProps: true },
};
const REQUEST = {
  challenge: "pdVy4qZxOqEFdeEKi6ItwQ", timeout: 120000, rpId: "localhost",
  allowCredentials: [{ type: "public-key", id: "-_8" }], userVerification: "preferred",
};

test("registration options: challenge, user id and excluded ids become bytes, the rest stays", () => {
  const o = creationOptionsFromJSON(CREATION);
  assert.ok(o.challenge instanceof ArrayBuffer);
  assert.deepEqual(bytes(o.challenge), bytes(base64urlToBytes(CREATION.challenge)));
  assert.deepEqual(bytes(o.user.id), [1, 1, 1, 1]);
  assert.equal(o.user.name, "Ada");
  assert.equal(o.user.displayName, "Ada");
  assert.deepEqual(o.rp, CREATION.rp);
  assert.deepEqual(o.pubKeyCredParams, CREATION.pubKeyCredParams);
  assert.equal(o.timeout, 120000);
  assert.equal(o.attestation, "none");
  assert.deepEqual(o.authenticatorSelection, CREATION.authenticatorSelection);
  assert.equal(o.excludeCredentials.length, 1);
  assert.deepEqual(bytes(o.excludeCredentials[0].id), [1, 2, 3]);
  assert.deepEqual(o.excludeCredentials[0].transports, ["internal"]);
  assert.equal("extensions" in o, false, "extensions are not passed on");
  assert.equal(typeof CREATION.challenge, "string", "the JSON is not changed");
  const bare = creationOptionsFromJSON({ ...CREATION, excludeCredentials: undefined });
  assert.equal(bare.excludeCredentials, undefined);
});

test("sign-in options: challenge and allowed ids become bytes; none listed stays none", () => {
  const o = requestOptionsFromJSON(REQUEST);
  assert.deepEqual(bytes(o.challenge), bytes(base64urlToBytes(REQUEST.challenge)));
  assert.equal(o.rpId, "localhost");
  assert.equal(o.userVerification, "preferred");
  assert.deepEqual(bytes(o.allowCredentials[0].id), [0xfb, 0xff]);
  assert.equal("transports" in o.allowCredentials[0], false);
  const empty = requestOptionsFromJSON({ ...REQUEST, allowCredentials: [] });
  assert.deepEqual(empty.allowCredentials, []);
  assert.throws(() => requestOptionsFromJSON({ challenge: "a+b" }), TypeError);
});

test("a registration's credential as toJSON() gives it, with the level 3 getters when there", () => {
  const response = {
    clientDataJSON: buf([123, 125]), attestationObject: buf([1, 2, 3]),
    getTransports() { return ["internal", "hybrid"]; },
    getAuthenticatorData() { return buf([4, 5]); },
    getPublicKey() { return buf([6]); },
    getPublicKeyAlgorithm() { return -7; },
  };
  const credential = {
    id: "AQID", rawId: buf([1, 2, 3]), type: "public-key", authenticatorAttachment: "platform",
    response, getClientExtensionResults: () => ({ credProps: { rk: true } }),
  };
  assert.deepEqual(credentialToJSON(credential), {
    id: "AQID", rawId: "AQID", type: "public-key", authenticatorAttachment: "platform",
    response: {
      clientDataJSON: "e30", attestationObject: "AQID", transports: ["internal", "hybrid"],
      authenticatorData: "BAU", publicKey: "Bg", publicKeyAlgorithm: -7,
    },
    clientExtensionResults: { credProps: { rk: true } },
  });
  // a level 2 browser: no getters but the attestation; no attachment
  const old = credentialToJSON({ ...credential, authenticatorAttachment: undefined,
    response: { clientDataJSON: buf([]), attestationObject: buf([0]) } });
  assert.deepEqual(old.response, { clientDataJSON: "", attestationObject: "AA", transports: [] });
  assert.equal(old.authenticatorAttachment, null);
});

test("a sign-in's credential as toJSON() gives it; no user handle, none written", () => {
  const credential = {
    id: "-_8", rawId: buf([0xfb, 0xff]), type: "public-key", authenticatorAttachment: null,
    response: { clientDataJSON: buf([1]), authenticatorData: buf([2, 3]), signature: buf([4, 5, 6]),
      userHandle: buf([7, 7, 7, 7]) },
    getClientExtensionResults: () => ({}),
  };
  const json = credentialToJSON(credential);
  assert.deepEqual(json, {
    id: "-_8", rawId: "-_8", type: "public-key", authenticatorAttachment: null,
    response: { clientDataJSON: "AQ", authenticatorData: "AgM", signature: "BAUG", userHandle: "BwcHBw" },
    clientExtensionResults: {},
  });
  const anonymous = credentialToJSON({ ...credential, response: { ...credential.response, userHandle: null } });
  assert.equal("userHandle" in anonymous.response, false);
});

// ---------------------------------------------------------------- the address

test("IP addresses are told apart from host names", () => {
  for (const ip of ["127.0.0.1", "[::1]", "::1", "192.168.1.20", "10.0.0.7", "[2001:db8::1]", "[::ffff:127.0.0.1]"]) {
    assert.equal(isIpHost(ip), true, ip);
  }
  for (const name of ["localhost", "example.com", "quaymoor.example", "127.0.0.1.nip.io", "app.localhost", "1.2.3"]) {
    assert.equal(isIpHost(name), false, name);
  }
});

const OK = { secureContext: true, webauthn: true };
const at = (hostname, port = "8000", protocol = "http:") => ({ protocol, hostname, port });

test("on 127.0.0.1 and [::1] the page sends the player to localhost, same port", () => {
  for (const host of ["127.0.0.1", "[::1]"]) {
    const p = hostProblem(at(host, "41234"), OK);
    assert.equal(p.reason, "ip");
    assert.equal(p.href, "http://localhost:41234/account");
    assert.match(p.text, /not on an address such as/);
    assert.match(p.text, /on this computer: open this page at localhost/);
    assert.ok(p.text.includes(host));
  }
  const lan = hostProblem(at("192.168.1.20"), OK);
  assert.equal(lan.reason, "ip");
  assert.match(lan.text, /by its name/);
  assert.equal(lan.href, "http://localhost:8000/account");
  assert.equal(localhostUrl(at("127.0.0.1", "")), "http://localhost/account");
  assert.equal(localhostUrl(at("127.0.0.1", "8443", "https:")), "https://localhost:8443/account");
});

test("localhost and a site's name are fine; an insecure page or no WebAuthn is said", () => {
  assert.equal(hostProblem(at("localhost"), OK), null);
  assert.equal(hostProblem(at("example.com", "", "https:"), OK), null);
  const plain = hostProblem(at("example.com"), { secureContext: false, webauthn: false });
  assert.equal(plain.reason, "insecure");
  assert.match(plain.text, /secure page/);
  assert.equal(plain.href, "http://localhost:8000/account");
  const old = hostProblem(at("example.com", "", "https:"), { secureContext: true, webauthn: false });
  assert.equal(old.reason, "unsupported");
  assert.equal(old.href, null);
});

// ---------------------------------------------------------------- the states

test("each state shows exactly its own part, and checking shows none", () => {
  const expect = { "wrong-host": "wrong-host", failed: "retry", "signed-out": "signed-out", "signed-in": "signed-in" };
  for (const [mode, part] of Object.entries(expect)) {
    const shown = partsShown(mode);
    assert.deepEqual(Object.keys(shown).sort(), ["retry", "signed-in", "signed-out", "wrong-host"]);
    assert.deepEqual(Object.entries(shown).filter(([, on]) => on).map(([p]) => p), [part], mode);
  }
  assert.deepEqual(Object.values(partsShown("checking")).filter(Boolean), []);
});

test("the signed-in facts: name, the date made, passkeys and sessions counted", () => {
  const since = Date.UTC(2026, 2, 14, 12) / 1000;
  const one = accountFacts({ name: "Ada", since, passkeys: 1, sessions: 1 }, "en-GB");
  assert.deepEqual(one, { name: "Ada", since: "14 March 2026", sinceIso: "2026-03-14",
    passkeys: "1 passkey", sessions: "1 session (this one)" });
  const more = accountFacts({ name: "Ada", since, passkeys: 2, sessions: 3 }, "en-US");
  assert.equal(more.since, "March 14, 2026");
  assert.equal(more.passkeys, "2 passkeys");
  assert.equal(more.sessions, "3 sessions (this one and 2 others)");
  assert.equal(accountFacts({ name: "Ada", since, passkeys: 1, sessions: 2 }).sessions,
    "2 sessions (this one and 1 other)");
  assert.equal(counted(0, "session"), "0 sessions");
});

test("the name: spaces around it dropped, 2 to 20 characters as the server counts", () => {
  assert.deepEqual(checkName("  Ada  "), { name: "Ada", problem: null });
  assert.equal(checkName("   ").problem, "Type the name you want first.");
  assert.equal(checkName("A").problem, `A name is ${NAME_MIN} to ${NAME_MAX} characters; this one has 1.`);
  assert.equal(checkName("x".repeat(21)).problem, "A name is 2 to 20 characters; this one has 21.");
  assert.equal(checkName("x".repeat(20)).problem, null);
  assert.equal(checkName("𠀀𠀁").problem, null, "two characters, four UTF-16 units");
  assert.equal(checkName("ﬁ").problem, null, "one ligature is two letters after NFKC");
});

test("deleting asks for the name exactly", () => {
  assert.equal(deleteProblem("Ada", "Ada"), null);
  assert.equal(deleteProblem(" Ada ", "Ada"), null);
  assert.equal(deleteProblem("ada", "Ada"), "To delete the account, type its name, Ada, exactly as it is shown.");
  assert.notEqual(deleteProblem("", "Ada"), null);
});

// ---------------------------------------------------------------- what is said

const apiError = (code, message, status = 400) => Object.assign(new Error(message), { code, status });
const domError = (name, message = "") => Object.assign(new Error(message), { name });

test("the server's message is shown, without its pointer, which names the field", () => {
  assert.deepEqual(playerMessage("that name, or one that looks like it, is taken @ $.name"),
    { text: "that name, or one that looks like it, is taken", field: "name" });
  assert.deepEqual(playerMessage("plain"), { text: "plain", field: null });
  assert.deepEqual(failure(apiError("name_taken", "that name, or one that looks like it, is taken @ $.name"), "create"),
    { text: "Could not create the account: that name, or one that looks like it, is taken.", field: "name" });
  assert.deepEqual(failure(apiError("passkey_refused", "the passkey's sign-in does not verify: bad @ $.credential.rawId"), "signin"),
    { text: "Could not sign in: the passkey's sign-in does not verify: bad.", field: "credential.rawId" });
  assert.equal(failure(apiError("bad_request", "to delete the account, send its name exactly as shown @ $.name"), "delete").field, "name");
  assert.equal(failure(apiError("too_many_ceremonies", "too many sign-ins are under way: try again in a minute"), "signin").text,
    "Could not sign in: too many sign-ins are under way: try again in a minute.");
  assert.match(failure(apiError("csrf", "you are signed in: send ... X-CSRF-Token header", 403), "signout").text,
    /^Could not sign out: this page's sign-in is out of date .*reload the page\.$/);
});

test("the browser's refusals and the network are said in words", () => {
  assert.match(failure(domError("NotAllowedError", "The operation either timed out or was not allowed."), "create").text,
    /^Could not create the account: no passkey was made: it was cancelled, or it took too long\.$/);
  assert.match(failure(domError("NotAllowedError"), "signin").text, /no passkey was used/);
  assert.match(failure(domError("InvalidStateError"), "create").text, /already has a passkey/);
  assert.match(failure(domError("SecurityError"), "signin").text, /open the site by its name/);
  assert.match(failure(new TypeError("Failed to fetch"), "signout").text,
    /^Could not sign out: the server could not be reached/);
  assert.equal(failure(new Error("odd"), "load").text, "Could not check whether you are signed in: odd.");
  assert.equal(failure("thrown text", "delete").text, "Could not delete the account: thrown text.");
});

test("what went well", () => {
  assert.match(DONE.created("Ada"), /^Welcome, Ada: your account is made/);
  assert.equal(DONE.signedIn("Ada"), "Signed in as Ada.");
  assert.equal(DONE.signedOutEverywhere(2), "Signed out everywhere: 2 sessions ended.");
  assert.match(DONE.deleted("Bede"), /^The account Bede is deleted/);
});

test("the passkeys listed: oldest first, numbered, dates said, the only one not removable", () => {
  const day = 1_795_996_800 + 43_200; // 2026-11-30, noon UTC
  const rows = passkeyRows([
    { id: "b", created: day + 86_400, used: null },
    { id: "a", created: day, used: day + 2 * 86_400 },
  ], "en-GB");
  assert.deepEqual(rows.map((r) => [r.id, r.label, r.made, r.used, r.removable]), [
    ["a", "Passkey 1", "made 30 November 2026", "last used 2 December 2026", true],
    ["b", "Passkey 2", "made 1 December 2026", "never used to sign in", true],
  ]);
  const [only] = passkeyRows([{ id: "a", created: day, used: null }], "en-GB");
  assert.equal(only.removable, false);
  assert.deepEqual(passkeyRows([]), []);
});

test("what adding or removing a passkey says, done or failed", () => {
  assert.equal(DONE.passkeyAdded(2), "Passkey added: this device can sign in to the account now (2 passkeys in all).");
  assert.match(DONE.passkeyRemoved("Passkey 1", 1), /^Passkey 1 is removed: it signs nobody in any more \(1 passkey left\)\. /);
  const excluded = Object.assign(new Error("x"), { name: "InvalidStateError" });
  assert.equal(failure(excluded, "add-passkey").text,
    "Could not add the passkey: this device already has a passkey for this account (one of those listed).");
  const cancelled = Object.assign(new Error("x"), { name: "NotAllowedError" });
  assert.match(failure(cancelled, "add-passkey").text, /^Could not add the passkey: no passkey was made/);
  const last = { code: "last_passkey", message: "this is the account's only passkey: add another before removing it, or delete the account @ $.id" };
  assert.deepEqual(failure(last, "remove-passkey"), { text: "Could not remove the passkey: this is the account's only passkey: add another before removing it, or delete the account.", field: "id" });
});

// @ts-check
// The browser's side of the passkey ceremonies: the server's options (JSON) in, the
// credential's JSON out, for the server to verify. The browser's own JSON helpers
// (PublicKeyCredential.parseCreationOptionsFromJSON, parseRequestOptionsFromJSON and
// credential.toJSON(), WebAuthn level 3) when it has them; passkey_json.js's otherwise.

import {
  creationOptionsFromJSON, credentialToJSON, requestOptionsFromJSON,
} from "./passkey_json.js";

/** Whether this browser can make and use passkeys at all (a secure page with WebAuthn). */
export function passkeysAvailable() {
  return typeof window.PublicKeyCredential === "function" && !!navigator.credentials
    && window.isSecureContext;
}

/**
 * The credential's JSON, by the browser's toJSON() when it has one.
 * @param {Credential | null} credential
 * @returns {unknown}
 */
function answer(credential) {
  if (!(credential instanceof PublicKeyCredential)) {
    throw new Error("the browser answered with no passkey");
  }
  return typeof credential.toJSON === "function" ? credential.toJSON()
    : credentialToJSON(/** @type {import("./passkey_json.js").CredentialLike} */ (
      /** @type {unknown} */ (credential))); // its response is one of the two kinds
}

/**
 * A new passkey for the server's registration options (POST
 * /api/accounts/register/options: `options`). Rejects with the browser's DOMException
 * (NotAllowedError: cancelled or timed out; InvalidStateError: this authenticator has
 * one already; SecurityError: not a site passkeys may be made for).
 * @param {PublicKeyCredentialCreationOptionsJSON} optionsJSON
 * @returns {Promise<unknown>} the credential's JSON, for POST /api/accounts/register
 */
export async function createPasskey(optionsJSON) {
  const PKC = PublicKeyCredential;
  const publicKey = typeof PKC.parseCreationOptionsFromJSON === "function"
    ? PKC.parseCreationOptionsFromJSON(optionsJSON) : creationOptionsFromJSON(optionsJSON);
  return answer(await navigator.credentials.create({ publicKey }));
}

/**
 * A passkey's answer to the server's sign-in options (POST
 * /api/accounts/signin/options: `options`); the browser lets the player choose which of
 * this site's passkeys. Rejects with the browser's DOMException as createPasskey does.
 * @param {PublicKeyCredentialRequestOptionsJSON} optionsJSON
 * @returns {Promise<unknown>} the credential's JSON, for POST /api/accounts/signin
 */
export async function getPasskey(optionsJSON) {
  const PKC = PublicKeyCredential;
  const publicKey = typeof PKC.parseRequestOptionsFromJSON === "function"
    ? PKC.parseRequestOptionsFromJSON(optionsJSON) : requestOptionsFromJSON(optionsJSON);
  return answer(await navigator.credentials.get({ publicKey }));
}

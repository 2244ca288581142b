// @ts-check
// WebAuthn's JSON forms by hand, for a browser without PublicKeyCredential's own
// parseCreationOptionsFromJSON / parseRequestOptionsFromJSON / toJSON (passkey.js uses
// those where they exist): base64url <-> bytes, the server's options into what
// navigator.credentials takes, and a credential into the JSON the server verifies (the
// shape toJSON() gives, W3C WebAuthn level 3 §5.1). Pure: no DOM, tested under node.

/**
 * A credential as navigator.credentials answers it: only what is read here, so a real
 * PublicKeyCredential fits, and so does a plain object in a test.
 * @typedef {object} CredentialLike
 * @property {string} id
 * @property {ArrayBuffer} rawId
 * @property {string} type
 * @property {string | null} [authenticatorAttachment]
 * @property {AttestationLike | AssertionLike} response
 * @property {() => AuthenticationExtensionsClientOutputs} getClientExtensionResults
 */
/**
 * A registration's response (AuthenticatorAttestationResponse); the getters are level 2
 * and 3's, each read when the browser has it.
 * @typedef {object} AttestationLike
 * @property {ArrayBuffer} clientDataJSON
 * @property {ArrayBuffer} attestationObject
 * @property {() => string[]} [getTransports]
 * @property {() => ArrayBuffer} [getAuthenticatorData]
 * @property {() => ArrayBuffer | null} [getPublicKey]
 * @property {() => number} [getPublicKeyAlgorithm]
 */
/**
 * A sign-in's response (AuthenticatorAssertionResponse).
 * @typedef {object} AssertionLike
 * @property {ArrayBuffer} clientDataJSON
 * @property {ArrayBuffer} authenticatorData
 * @property {ArrayBuffer} signature
 * @property {ArrayBuffer | null} userHandle
 */
/**
 * A credential as JSON (PublicKeyCredential.toJSON()): every binary value base64url.
 * @typedef {object} CredentialJSON
 * @property {string} id
 * @property {string} rawId
 * @property {string} type
 * @property {string | null} authenticatorAttachment
 * @property {Record<string, unknown>} response
 * @property {AuthenticationExtensionsClientOutputs} clientExtensionResults
 */

const ALPHABET = /^[A-Za-z0-9_-]*$/;

/**
 * Bytes as base64url without padding (RFC 4648 §5), as WebAuthn's JSON writes them.
 * @param {ArrayBuffer | ArrayBufferView} data
 * @returns {string}
 */
export function bytesToBase64url(data) {
  const bytes = data instanceof ArrayBuffer ? new Uint8Array(data)
    : new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/**
 * The bytes of base64url text (padding allowed, not needed). A TypeError for anything
 * else: another alphabet's characters, or a length no encoding has (4n + 1).
 * @param {string} text
 * @returns {ArrayBuffer}
 */
export function base64urlToBytes(text) {
  if (typeof text !== "string") throw new TypeError("base64url: not a string");
  const bare = text.replace(/={1,2}$/, "");
  if (!ALPHABET.test(bare) || bare.length % 4 === 1) {
    throw new TypeError(`base64url: not base64url text (${bare.length} characters)`);
  }
  const binary = atob(bare.replace(/-/g, "+").replace(/_/g, "/") + "==".slice(0, (4 - bare.length % 4) % 4));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
  return bytes.buffer;
}

/**
 * A credential descriptor's id as bytes (excludeCredentials, allowCredentials).
 * @param {PublicKeyCredentialDescriptorJSON} d
 * @returns {PublicKeyCredentialDescriptor}
 */
function descriptor(d) {
  return {
    type: /** @type {PublicKeyCredentialType} */ (d.type), id: base64urlToBytes(d.id),
    ...(d.transports ? { transports: /** @type {AuthenticatorTransport[]} */ (d.transports) } : {}),
  };
}

/**
 * The server's registration options (JSON) as navigator.credentials.create takes them:
 * the challenge, the user's id and the excluded credentials' ids as bytes, the rest as
 * it is. Extensions are left out (the server asks for none; their JSON forms differ).
 * @param {PublicKeyCredentialCreationOptionsJSON} json
 * @returns {PublicKeyCredentialCreationOptions}
 */
export function creationOptionsFromJSON(json) {
  const { challenge, user, excludeCredentials, ...rest } = json;
  delete rest.extensions;
  return /** @type {PublicKeyCredentialCreationOptions} */ ({
    ...rest,
    challenge: base64urlToBytes(challenge),
    user: { ...user, id: base64urlToBytes(user.id) },
    ...(excludeCredentials ? { excludeCredentials: excludeCredentials.map(descriptor) } : {}),
  });
}

/**
 * The server's sign-in options (JSON) as navigator.credentials.get takes them: the
 * challenge and the allowed credentials' ids as bytes.
 * @param {PublicKeyCredentialRequestOptionsJSON} json
 * @returns {PublicKeyCredentialRequestOptions}
 */
export function requestOptionsFromJSON(json) {
  const { challenge, allowCredentials, ...rest } = json;
  delete rest.extensions;
  return /** @type {PublicKeyCredentialRequestOptions} */ ({
    ...rest,
    challenge: base64urlToBytes(challenge),
    ...(allowCredentials ? { allowCredentials: allowCredentials.map(descriptor) } : {}),
  });
}

/**
 * `fn()` when the response has the method, else undefined (level 2 browsers lack some).
 * @template T
 * @param {(() => T) | undefined} fn
 * @param {object} self
 * @returns {T | undefined}
 */
function maybe(fn, self) {
  return typeof fn === "function" ? fn.call(self) : undefined;
}

/**
 * A registration's or sign-in's credential as the JSON toJSON() gives.
 * @param {CredentialLike} credential
 * @returns {CredentialJSON}
 */
export function credentialToJSON(credential) {
  const r = credential.response;
  /** @type {Record<string, unknown>} */
  let response;
  if ("attestationObject" in r) {
    const data = maybe(r.getAuthenticatorData, r);
    const key = maybe(r.getPublicKey, r);
    const algorithm = maybe(r.getPublicKeyAlgorithm, r);
    response = {
      clientDataJSON: bytesToBase64url(r.clientDataJSON),
      attestationObject: bytesToBase64url(r.attestationObject),
      transports: maybe(r.getTransports, r) ?? [],
      ...(data ? { authenticatorData: bytesToBase64url(data) } : {}),
      ...(key ? { publicKey: bytesToBase64url(key) } : {}),
      ...(algorithm !== undefined ? { publicKeyAlgorithm: algorithm } : {}),
    };
  } else {
    response = {
      clientDataJSON: bytesToBase64url(r.clientDataJSON),
      authenticatorData: bytesToBase64url(r.authenticatorData),
      signature: bytesToBase64url(r.signature),
      ...(r.userHandle ? { userHandle: bytesToBase64url(r.userHandle) } : {}),
    };
  }
  return {
    id: credential.id,
    rawId: bytesToBase64url(credential.rawId),
    type: credential.type,
    authenticatorAttachment: credential.authenticatorAttachment ?? null,
    response,
    clientExtensionResults: credential.getClientExtensionResults(),
  };
}

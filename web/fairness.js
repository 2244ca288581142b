// @ts-check
// Quaymoor's fair draws (algorithm "quaymoor-fair-1", docs/fairness.md) in the browser,
// with WebCrypto: SHA-256, HMAC-SHA256, big-endian reads, rejection sampling, Fisher-Yates,
// the game key from the seed and client seeds, the first Warden. The plot stack, its
// reshuffles and every turn-up are fairness_plots.js. Nothing here asks the server
// anything: the verify page feeds it the revealed seed and the client seeds, and compares.

export const ALGORITHM = "quaymoor-fair-1";
export const SEED_BYTES = 32;
export const MAX_CLIENT_SEED_BYTES = 256;
export const LABEL_FIRST_WARDEN = "first-warden";
const KEY_PREFIX = "quaymoor-key-1";
const BLOCK_BYTES = 32;
const RANGE = 2 ** 32;
const encoder = new TextEncoder();

function subtle() {
  const c = globalThis.crypto;
  if (!c || !c.subtle) {
    throw new Error("this browser offers no WebCrypto here (it needs https or localhost)");
  }
  return c.subtle;
}

/** @param {unknown} hex @returns {Uint8Array<ArrayBuffer>} */
export function hexToBytes(hex) {
  if (typeof hex !== "string" || hex.length % 2 || /[^0-9a-fA-F]/.test(hex)) {
    throw new Error("not a hex string");
  }
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

/** @param {Uint8Array} bytes */
export function bytesToHex(bytes) {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** Parse a seed: exactly 64 hex characters (either case). @param {unknown} text */
export function seedFromHex(text) {
  if (typeof text !== "string" || text.length !== 2 * SEED_BYTES) {
    throw new Error(`a seed must be exactly ${2 * SEED_BYTES} hex characters`);
  }
  if (/[^0-9a-fA-F]/.test(text)) throw new Error("a seed must contain only hex characters 0-9 and a-f");
  return hexToBytes(text);
}

/** @param {Uint8Array<ArrayBuffer>} bytes */
export async function sha256Hex(bytes) {
  return bytesToHex(new Uint8Array(await subtle().digest("SHA-256", bytes)));
}

/**
 * The commitment: lowercase hex SHA-256 of the 32 raw seed bytes (not of the hex text).
 * @param {unknown} seedHex the record's seed (anything: a wrong one throws, saying why)
 */
export async function fingerprint(seedHex) {
  return sha256Hex(seedFromHex(seedHex));
}

/** @param {Uint8Array<ArrayBuffer>} keyBytes */
async function hmacKey(keyBytes) {
  return subtle().importKey("raw", keyBytes, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
}

/** @param {CryptoKey} cryptoKey @param {Uint8Array<ArrayBuffer>} message */
async function hmac(cryptoKey, message) {
  return new Uint8Array(await subtle().sign("HMAC", cryptoKey, message));
}

// String.prototype.isWellFormed is ES2024: a browser without it skips the check here.
const isWellFormed = /** @type {{isWellFormed?: (this: string) => boolean}} */ (String.prototype).isWellFormed;

/** @param {unknown} text */
function utf8(text) {
  // TextEncoder would silently replace lone surrogates; the server refuses them.
  if (typeof text !== "string" || (isWellFormed && !isWellFormed.call(text))) {
    throw new Error("a client seed must be a valid Unicode string");
  }
  return encoder.encode(text);
}

/**
 * The key message: "quaymoor-key-1" || 0x00 || (2-byte big-endian length || UTF-8) each.
 * @param {readonly unknown[]} clientSeeds the record's (a seed that is no string throws)
 */
export function keyMessage(clientSeeds = []) {
  const parts = [encoder.encode(KEY_PREFIX), new Uint8Array([0])];
  clientSeeds.forEach((cs, i) => {
    const u = utf8(cs);
    if (u.length > MAX_CLIENT_SEED_BYTES) {
      throw new Error(`client seed ${i} is ${u.length} UTF-8 bytes; at most ${MAX_CLIENT_SEED_BYTES} are allowed`);
    }
    parts.push(new Uint8Array([u.length >> 8, u.length & 0xff]), u);
  });
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) { out.set(p, at); at += p.length; }
  return out;
}

/**
 * The game key: HMAC-SHA256(key = seed, message = keyMessage(clientSeeds)), 32 bytes.
 * @param {string | Uint8Array<ArrayBuffer>} seed 64 hex digits, or the seed's bytes
 * @param {readonly unknown[]} clientSeeds
 */
export async function deriveKey(seed, clientSeeds = []) {
  const seedBytes = typeof seed === "string" ? seedFromHex(seed) : seed;
  if (seedBytes.length !== SEED_BYTES) throw new Error(`a seed must be exactly ${SEED_BYTES} bytes`);
  return hmac(await hmacKey(seedBytes), keyMessage(clientSeeds));
}

/** @type {WeakMap<Uint8Array, CryptoKey>} */
const streamKeys = new WeakMap();

/** The byte stream of one label: block_i = HMAC(key, label || 0x00 || i as 8 bytes BE). */
export class DrawStream {
  /** @param {Uint8Array<ArrayBuffer>} key the game key @param {string} label */
  constructor(key, label) {
    this.key = key;
    this.label = encoder.encode(label);
    this.nextBlock = 0;
    this.buffer = new Uint8Array(0);
  }

  async cryptoKey() {
    let k = streamKeys.get(this.key);
    if (!k) {
      k = await hmacKey(this.key);
      streamKeys.set(this.key, k);
    }
    return k;
  }

  /** @param {number} index */
  async block(index) {
    const message = new Uint8Array(this.label.length + 9);
    message.set(this.label, 0);
    message[this.label.length] = 0;
    new DataView(message.buffer).setBigUint64(this.label.length + 1, BigInt(index), false);
    return hmac(await this.cryptoKey(), message);
  }

  /** The next n bytes of the stream (a read may span blocks; bytes are never reused). @param {number} n */
  async take(n) {
    while (this.buffer.length < n) {
      const block = await this.block(this.nextBlock);
      this.nextBlock += 1;
      const grown = new Uint8Array(this.buffer.length + BLOCK_BYTES);
      grown.set(this.buffer, 0);
      grown.set(block, this.buffer.length);
      this.buffer = grown;
    }
    const out = this.buffer.slice(0, n);
    this.buffer = this.buffer.slice(n);
    return out;
  }

  /** A uniform integer in [0, n) for 1 <= n <= 2^32 by rejection sampling. @param {number} n */
  async below(n) {
    if (!Number.isInteger(n) || n < 1 || n > RANGE) throw new Error(`below(n) needs 1 <= n <= 2**32, got ${n}`);
    const limit = Math.floor(RANGE / n) * n;
    for (;;) {
      const b = await this.take(4);
      const x = new DataView(b.buffer, b.byteOffset, 4).getUint32(0, false);
      if (x < limit) return x % n;
    }
  }
}

/** @param {Uint8Array<ArrayBuffer>} key @param {string} label @param {number} n */
export async function drawBelow(key, label, n) {
  return new DrawStream(key, label).below(n);
}

/**
 * Fisher-Yates on a copy: for i from len-1 down to 1, j = below(i + 1), swap i and j.
 * @template T
 * @param {Uint8Array<ArrayBuffer>} key @param {string} label @param {readonly T[]} items
 * @returns {Promise<T[]>}
 */
export async function shuffled(key, label, items) {
  const out = items.slice();
  const stream = new DrawStream(key, label);
  for (let i = out.length - 1; i > 0; i--) {
    const j = await stream.below(i + 1);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/** The first Warden's seat (from 0). @param {Uint8Array<ArrayBuffer>} key @param {number} players */
export async function firstWarden(key, players) {
  return drawBelow(key, LABEL_FIRST_WARDEN, players);
}

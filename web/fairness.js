// @ts-check
// Quaymoor's fair draws (docs/fairness.md) in the browser, with WebCrypto: SHA-256,
// HMAC-SHA256, big-endian reads, rejection sampling, Fisher-Yates, the first Warden.
// Algorithm "quaymoor-fair-3" (record format 5, every table's game): the table's
// fingerprint (`tableFingerprint`), a seat's commitment to its client seed
// (`seedCommitment`), the seats checked (`checkDeal`) and the game key made from the seed
// and the seats' bot flags, commitments and revealed seeds, no name (`dealKey`).
// "quaymoor-fair-2" (format 4: pass ALGORITHM_2) has its own name in the fingerprint and
// each seat's name in the key. "quaymoor-fair-1" (formats 1-3) is kept for old records:
// `fingerprint` (SHA-256 of the seed) and `deriveKey` (the seed and the client seeds).
// The plot stack, its reshuffles and every turn-up are fairness_plots.js. Nothing here
// asks the server anything: the verify page feeds it the record, and compares.

/** The algorithm of every table's game (record format 5): the seats' names not in the key. */
export const ALGORITHM = "quaymoor-fair-3";
/** The algorithm of format-4 records: the seats' names in the key. */
export const ALGORITHM_2 = "quaymoor-fair-2";
/** The algorithm of records of formats 1-3, before commit-and-reveal. */
export const ALGORITHM_1 = "quaymoor-fair-1";
export const SEED_BYTES = 32;
export const MAX_CLIENT_SEED_BYTES = 256;
export const LABEL_FIRST_WARDEN = "first-warden";
const KEY_PREFIX = "quaymoor-key-1";
const COMMIT_PREFIX = "quaymoor-commit-2";
/**
 * The algorithms a table is dealt with: each one's key message prefix, and whether the key
 * binds the seats' names. @type {Readonly<Record<string, {keyPrefix: string, named: boolean}>>}
 */
export const DEALT_ALGORITHMS = Object.freeze({
  [ALGORITHM]: Object.freeze({ keyPrefix: "quaymoor-key-3", named: false }),
  [ALGORITHM_2]: Object.freeze({ keyPrefix: "quaymoor-key-2", named: true }),
});
const MAX_FIELD = 0xffff;
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
 * quaymoor-fair-1's fingerprint: lowercase hex SHA-256 of the 32 raw seed bytes (not of the hex text).
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

// ------------------------------------------------------- quaymoor-fair-3 (and fair-2)

/** Seats that cannot make a table's key (`checkDeal` names the seat), or an unknown algorithm. */
export class DealError extends Error {}

/**
 * One seat as the key binds it: its name (quaymoor-fair-2's key only), a bot's own chair or
 * not, the commitment its player sent (64 lowercase hex digits; null: none) and the client
 * seed it revealed (null: none, or a commitment never revealed).
 * @typedef {{name: string, bot: boolean, commitment: string | null, client_seed: string | null}} DealtSeat
 */
/** The table's id and its seats, as the start fixed them. @typedef {{table: string, seats: readonly DealtSeat[]}} Deal */

/** @param {readonly Uint8Array[]} parts @returns {Uint8Array<ArrayBuffer>} */
function join(parts) {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) { out.set(p, at); at += p.length; }
  return out;
}

/**
 * field(x): the UTF-8 bytes of the string x after their length in 2 bytes, big-endian.
 * @param {unknown} text @param {string} what the words for it in an error
 */
export function field(text, what) {
  if (typeof text !== "string" || (isWellFormed && !isWellFormed.call(text))) {
    throw new DealError(`${what} is not a valid Unicode string`);
  }
  const u = encoder.encode(text);
  if (u.length > MAX_FIELD) throw new DealError(`${what} is ${u.length} UTF-8 bytes; at most ${MAX_FIELD}`);
  return join([new Uint8Array([u.length >> 8, u.length & 0xff]), u]);
}

/** byte(n), for a count of seats or a seat's index. @param {unknown} n @param {number} most @param {string} what */
function byte(n, most, what) {
  if (!Number.isInteger(n) || /** @type {number} */ (n) < 0 || /** @type {number} */ (n) > most) {
    throw new DealError(`${what} is 0 to ${most}, not ${JSON.stringify(n)}`);
  }
  return new Uint8Array([/** @type {number} */ (n)]);
}

/** How a table is dealt with `algorithm` (DEALT_ALGORITHMS), or DealError. @param {unknown} algorithm */
function dealt(algorithm) {
  if (typeof algorithm !== "string" || !Object.hasOwn(DEALT_ALGORITHMS, algorithm)) {
    throw new DealError(`no table is dealt with algorithm ${JSON.stringify(algorithm)}`);
  }
  return DEALT_ALGORITHMS[algorithm];
}

/**
 * The bytes hashed into a table's fingerprint: the algorithm's name ("quaymoor-fair-3";
 * "quaymoor-fair-2" for a format-4 record) || 0x00 || field(table) || byte(players) || seed.
 * @param {unknown} seedHex @param {unknown} tableId @param {unknown} players
 * @param {string} [algorithm] ALGORITHM or ALGORITHM_2 (anything else throws DealError)
 */
export function tableFingerprintMessage(seedHex, tableId, players, algorithm = ALGORITHM) {
  const seed = seedFromHex(seedHex);
  dealt(algorithm);
  if (!Number.isInteger(players) || /** @type {number} */ (players) < 1) {
    throw new DealError(`a table has 1 to 255 seats, not ${JSON.stringify(players)}`);
  }
  return join([encoder.encode(algorithm), new Uint8Array([0]), field(tableId, "the table id"),
    byte(players, 255, "a table's number of seats"), seed]);
}

/**
 * The fingerprint a table publishes when it is created: lowercase hex SHA-256 of the
 * algorithm, the table's id, its number of seats and the seed (tableFingerprintMessage).
 * @param {unknown} seedHex 64 hex digits (anything else throws, saying why)
 * @param {unknown} tableId @param {unknown} players
 * @param {string} [algorithm] ALGORITHM (every table's), or ALGORITHM_2 for a format-4 record
 */
export async function tableFingerprint(seedHex, tableId, players, algorithm = ALGORITHM) {
  return sha256Hex(tableFingerprintMessage(seedHex, tableId, players, algorithm));
}

/**
 * Why `value` cannot be a client seed (the server's rule), or null when it can: a
 * non-empty string of valid Unicode without NUL, at most 256 UTF-8 bytes.
 * @param {unknown} value @returns {string | null}
 */
export function clientSeedProblem(value) {
  if (typeof value !== "string") return `a client seed is a string, not ${value === null ? "null" : typeof value}`;
  if (!value) return "a client seed may not be empty";
  if (value.includes("\u0000")) return "a client seed may not hold NUL (U+0000)";
  if (isWellFormed && !isWellFormed.call(value)) return "a client seed must be valid Unicode";
  const n = encoder.encode(value).length;
  if (n > MAX_CLIENT_SEED_BYTES) return `a client seed is at most ${MAX_CLIENT_SEED_BYTES} UTF-8 bytes; this one is ${n}`;
  return null;
}

/**
 * The bytes hashed into a commitment: "quaymoor-commit-2" || 0x00 || field(table) ||
 * byte(seat) || field(client seed).
 * @param {unknown} tableId @param {unknown} seat @param {unknown} clientSeed
 */
export function commitmentMessage(tableId, seat, clientSeed) {
  return join([encoder.encode(COMMIT_PREFIX), new Uint8Array([0]), field(tableId, "the table id"),
    byte(seat, 254, "a seat"), field(clientSeed, "the client seed")]);
}

/**
 * A seat's commitment to its client seed: lowercase hex SHA-256 binding the seed to this
 * table and this seat (sent before the start; the seed itself only once every commitment
 * is fixed).
 * @param {unknown} tableId @param {unknown} seat from 0 @param {unknown} clientSeed
 */
export async function seedCommitment(tableId, seat, clientSeed) {
  return sha256Hex(commitmentMessage(tableId, seat, clientSeed));
}

/** @param {unknown} value @returns {value is string} 64 lowercase hex digits */
export const isCommitment = (value) => typeof value === "string" && /^[0-9a-f]{64}$/.test(value);

/**
 * Throws `DealError` naming the first seat whose entries cannot go together (as the
 * reference's check_deal): a bot's chair with a commitment or a seed (bots hold neither),
 * a malformed commitment, a seed with no commitment, a seed that is no client seed, a seed
 * that does not match its commitment.
 * @param {unknown} deal {table, seats: [{name, bot, commitment, client_seed}]}
 */
export async function checkDeal(deal) {
  const d = /** @type {Partial<Deal> | null} */ (deal);
  if (!d || typeof d !== "object" || !Array.isArray(d.seats)) throw new DealError("a deal lists its seats");
  field(d.table, "the table id");
  for (let index = 0; index < d.seats.length; index++) {
    const seat = d.seats[index];
    const where = `seat ${index} (${seat && typeof seat.name === "string" ? seat.name : "no name"})`;
    if (!seat || typeof seat !== "object") throw new DealError(`${where} is not a seat`);
    if (typeof seat.bot !== "boolean") throw new DealError(`${where} does not say whether it is a bot`);
    if (seat.bot && (seat.commitment !== null || seat.client_seed !== null)) {
      throw new DealError(`${where} is a bot, and bots hold no seed nor commitment`);
    }
    if (seat.commitment !== null && !isCommitment(seat.commitment)) {
      throw new DealError(`${where}: a commitment is 64 lowercase hex digits (SHA-256), not ${JSON.stringify(seat.commitment)}`);
    }
    if (seat.client_seed === null) continue;
    if (seat.commitment === null) throw new DealError(`${where} gives a client seed it never committed to`);
    const problem = clientSeedProblem(seat.client_seed);
    if (problem) throw new DealError(`${where}: ${problem}`);
    if (await seedCommitment(d.table, index, seat.client_seed) !== seat.commitment) {
      throw new DealError(`${where}: its client seed ${JSON.stringify(seat.client_seed)} does not match its commitment ${seat.commitment}`);
    }
  }
}

/**
 * The key message of quaymoor-fair-3: "quaymoor-key-3" || 0x00 || field(table) ||
 * byte(players) || per seat byte(bot) || (0x00 | 0x01 || the commitment's 32 bytes) ||
 * (0x00 | 0x01 || field(client seed)). quaymoor-fair-2's (format 4): "quaymoor-key-2",
 * and each seat's field(name) right after its byte(bot). Checks nothing but the encoding:
 * `dealKey` checks the deal first.
 * @param {Deal} deal @param {string} [algorithm] ALGORITHM or ALGORITHM_2 (else DealError)
 */
export function dealKeyMessage(deal, algorithm = ALGORITHM) {
  const { keyPrefix, named } = dealt(algorithm);
  /** @type {Uint8Array[]} */
  const parts = [encoder.encode(keyPrefix), new Uint8Array([0]), field(deal.table, "the table id"),
    byte(deal.seats.length, 255, "a table's number of seats")];
  deal.seats.forEach((seat, i) => {
    parts.push(new Uint8Array([seat.bot ? 1 : 0]));
    if (named) parts.push(field(seat.name, `seat ${i}'s name`));
    parts.push(seat.commitment === null ? new Uint8Array([0]) : join([new Uint8Array([1]), hexToBytes(seat.commitment)]));
    parts.push(seat.client_seed === null ? new Uint8Array([0])
      : join([new Uint8Array([1]), field(seat.client_seed, `seat ${i}'s client seed`)]));
  });
  return join(parts);
}

/**
 * A table's game key: HMAC-SHA256(key = seed, message = dealKeyMessage(deal, algorithm)),
 * after `checkDeal` (a deal that does not hold throws `DealError`).
 * @param {unknown} seedHex 64 hex digits @param {Deal} deal
 * @param {string} [algorithm] ALGORITHM (every table's), or ALGORITHM_2 for a format-4 record
 */
export async function dealKey(seedHex, deal, algorithm = ALGORITHM) {
  const seed = seedFromHex(seedHex);
  dealt(algorithm);
  await checkDeal(deal);
  return hmac(await hmacKey(seed), dealKeyMessage(deal, algorithm));
}

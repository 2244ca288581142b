// Quaymoor's fair draws (algorithm "quaymoor-fair-1", docs/fairness.md) in the browser,
// with WebCrypto: SHA-256, HMAC-SHA256, big-endian reads, rejection sampling, Fisher-Yates,
// the game key from the seed and client seeds, the first Warden, the plot stack and its
// reshuffles. Nothing here asks the server anything: the verify page feeds it the revealed
// seed, the client seeds and the public sequence of plots turned up, and compares.

export const ALGORITHM = "quaymoor-fair-1";
export const SEED_BYTES = 32;
export const MAX_CLIENT_SEED_BYTES = 256;
export const LABEL_FIRST_WARDEN = "first-warden";
export const LABEL_PLOTS = "plots";
export const GOODS = ["clay", "flax", "wool", "honey", "amber"];

/**
 * Plots in the game by player count (by good, canonical order) and the starting plots taken
 * out of them before the stack is shuffled (docs/fairness.md, "How the game uses it").
 */
export const SETUPS = {
  2: { plots: [7, 9, 8, 6, 5], starting: ["flax", "clay"] },
  3: { plots: [10, 12, 11, 9, 8], starting: ["flax", "flax", "clay"] },
  4: { plots: [10, 12, 11, 9, 8], starting: ["flax", "flax", "clay", "clay"] },
  5: { plots: [10, 12, 11, 9, 8], starting: ["flax", "flax", "flax", "clay", "clay"] },
};

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

export function hexToBytes(hex) {
  if (typeof hex !== "string" || hex.length % 2 || /[^0-9a-fA-F]/.test(hex)) {
    throw new Error("not a hex string");
  }
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

export function bytesToHex(bytes) {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** Parse a seed: exactly 64 hex characters (either case). */
export function seedFromHex(text) {
  if (typeof text !== "string" || text.length !== 2 * SEED_BYTES) {
    throw new Error(`a seed must be exactly ${2 * SEED_BYTES} hex characters`);
  }
  if (/[^0-9a-fA-F]/.test(text)) throw new Error("a seed must contain only hex characters 0-9 and a-f");
  return hexToBytes(text);
}

export async function sha256Hex(bytes) {
  return bytesToHex(new Uint8Array(await subtle().digest("SHA-256", bytes)));
}

/** The commitment: lowercase hex SHA-256 of the 32 raw seed bytes (not of the hex text). */
export async function fingerprint(seedHex) {
  return sha256Hex(seedFromHex(seedHex));
}

async function hmacKey(keyBytes) {
  return subtle().importKey("raw", keyBytes, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
}

async function hmac(cryptoKey, message) {
  return new Uint8Array(await subtle().sign("HMAC", cryptoKey, message));
}

function utf8(text) {
  // TextEncoder would silently replace lone surrogates; the server refuses them.
  if (typeof text !== "string" || (text.isWellFormed && !text.isWellFormed())) {
    throw new Error("a client seed must be a valid Unicode string");
  }
  return encoder.encode(text);
}

/** The key message: "quaymoor-key-1" || 0x00 || (2-byte big-endian length || UTF-8) each. */
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

/** The game key: HMAC-SHA256(key = seed, message = keyMessage(clientSeeds)), 32 bytes. */
export async function deriveKey(seed, clientSeeds = []) {
  const seedBytes = typeof seed === "string" ? seedFromHex(seed) : seed;
  if (seedBytes.length !== SEED_BYTES) throw new Error(`a seed must be exactly ${SEED_BYTES} bytes`);
  return hmac(await hmacKey(seedBytes), keyMessage(clientSeeds));
}

const streamKeys = new WeakMap();

/** The byte stream of one label: block_i = HMAC(key, label || 0x00 || i as 8 bytes BE). */
export class DrawStream {
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

  async block(index) {
    const message = new Uint8Array(this.label.length + 9);
    message.set(this.label, 0);
    message[this.label.length] = 0;
    new DataView(message.buffer).setBigUint64(this.label.length + 1, BigInt(index), false);
    return hmac(await this.cryptoKey(), message);
  }

  /** The next n bytes of the stream (a read may span blocks; bytes are never reused). */
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

  /** A uniform integer in [0, n) for 1 <= n <= 2^32 by rejection sampling. */
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

export async function drawBelow(key, label, n) {
  return new DrawStream(key, label).below(n);
}

/** Fisher-Yates on a copy: for i from len-1 down to 1, j = below(i + 1), swap i and j. */
export async function shuffled(key, label, items) {
  const out = items.slice();
  const stream = new DrawStream(key, label);
  for (let i = out.length - 1; i > 0; i--) {
    const j = await stream.below(i + 1);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

export function reshuffleLabel(k) {
  if (!Number.isInteger(k) || k < 1) throw new Error(`reshuffles are counted from 1, got ${k}`);
  return `plots-reshuffle-${k}`;
}

export async function firstWarden(key, players) {
  return drawBelow(key, LABEL_FIRST_WARDEN, players);
}

/** Goods in canonical order: clay, flax, wool, honey, amber. */
export function canonical(goods) {
  return goods.slice().sort((a, b) => GOODS.indexOf(a) - GOODS.indexOf(b));
}

/** The plots that go into the stack at the start, in canonical order. */
export function stackPlots(players) {
  const setup = SETUPS[players];
  if (!setup) throw new Error(`a game needs 2 to 5 players, not ${players}`);
  const counts = setup.plots.slice();
  for (const g of setup.starting) counts[GOODS.indexOf(g)] -= 1;
  const out = [];
  GOODS.forEach((g, i) => { for (let k = 0; k < counts[i]; k++) out.push(g); });
  return out;
}

/** The whole face-down stack at the start, index 0 on top (turned up first). */
export async function initialStack(key, players) {
  return shuffled(key, LABEL_PLOTS, stackPlots(players));
}

/**
 * Replay the plot draws of a game from the key and compare them with the public record of
 * what was turned up. `turnedUp` lists, in order, {step, source, goods}: "setup" (the
 * face-up plots at the start: players + 1 of them), "surveyor" (the new face-up plots
 * after a Surveyor phase) and "farmstead" (one plot drawn by a Farmstead). Which plots
 * were taken from the face-up row is public too: `taken` lists {step, good} for every
 * face-up plot a seat took (stone pits are no plots), so that the discard pile, and every
 * reshuffle of it, follows. Only the key decides the order; every expected group is drawn
 * from the stack rebuilt here, never read from the server.
 *
 * Returns one entry per turn-up: {index, step, source, expected, shown, ok, reshuffled}.
 */
export async function checkPlotDraws(key, players, turnedUp, taken) {
  let stack = await initialStack(key, players);
  let discard = [];
  let faceUp = [];
  let reshuffles = 0;
  let takenAt = 0;
  const results = [];

  async function draw() {
    if (!stack.length) {
      if (!discard.length) return null;
      reshuffles += 1;
      stack = await shuffled(key, reshuffleLabel(reshuffles), canonical(discard));
      discard = [];
    }
    return stack.shift();
  }

  function takeUpTo(step) {
    // plots taken from the face-up row up to and including this step
    while (takenAt < taken.length && taken[takenAt].step <= step) {
      const g = taken[takenAt].good;
      const i = faceUp.indexOf(g);
      if (i >= 0) faceUp.splice(i, 1);
      takenAt += 1;
    }
  }

  for (let index = 0; index < turnedUp.length; index++) {
    const t = turnedUp[index];
    const before = reshuffles;
    const expected = [];
    if (t.source === "setup") {
      for (let k = 0; k < players + 1; k++) {
        const g = await draw();
        if (g === null) break;
        expected.push(g);
      }
      faceUp = expected.slice();
    } else if (t.source === "farmstead") {
      takeUpTo(t.step - 1);
      const g = await draw();
      if (g !== null) expected.push(g);
    } else {
      takeUpTo(t.step);
      discard.push(...faceUp);
      faceUp = [];
      for (let k = 0; k < players + 1; k++) {
        const g = await draw();
        if (g === null) break;
        expected.push(g);
      }
      faceUp = expected.slice();
    }
    const shown = t.goods.slice();
    const ok = expected.length === shown.length && expected.every((g, i) => g === shown[i]);
    results.push({ index, step: t.step, source: t.source, expected, shown, ok, reshuffled: reshuffles > before });
  }
  return results;
}

/**
 * The plots taken from the face-up row, {step, good}, from a replay's per-step events
 * (plot_taken events that are not from the stack and not stone pits).
 */
export function takenFromEvents(steps) {
  const out = [];
  for (const s of steps) {
    for (const e of s.events || []) {
      if (e.type === "plot_taken" && !e.from_stack && e.kind !== "stone_pit") out.push({ step: s.step, good: e.kind });
    }
  }
  return out;
}

/** The turn-ups, {step, source, goods}, from a replay's per-step events. */
export function turnedUpFromEvents(initialFaceUp, steps) {
  const out = [{ step: 0, source: "setup", goods: initialFaceUp.slice() }];
  for (const s of steps) {
    for (const e of s.events || []) {
      if (e.type === "plots_turned_up") out.push({ step: s.step, source: "surveyor", goods: e.goods.slice() });
      else if (e.type === "plot_taken" && e.from_stack) out.push({ step: s.step, source: "farmstead", goods: [e.kind] });
    }
  }
  return out;
}

// @ts-check
// Short beeps made with WebAudio (no audio files): your turn, your turn while the page is
// hidden, the last seconds, the end. Sound is off until the player turns it on (M or the
// sound button), as browsers and players expect; the choice is kept in localStorage.

const KEY = "quaymoor.sound";

/** @typedef {[number, number, number, OscillatorType]} Note [frequency Hz, start s, length s, type] */
/** @typedef {"turn" | "away" | "urgent" | "tick" | "end"} SoundName */

/** @type {Record<SoundName, Note[]>} */
const SOUNDS = {
  turn: [[660, 0, 0.12, "sine"], [880, 0.14, 0.18, "sine"]],
  // a decision of yours while the page is hidden: the turn chime, louder-seeming and twice
  away: [[660, 0, 0.12, "triangle"], [880, 0.14, 0.18, "triangle"], [660, 0.5, 0.12, "triangle"],
    [880, 0.64, 0.22, "triangle"]],
  urgent: [[988, 0, 0.09, "square"], [988, 0.16, 0.09, "square"]],
  tick: [[1320, 0, 0.05, "square"]],
  end: [[523, 0, 0.16, "triangle"], [659, 0.18, 0.16, "triangle"], [784, 0.36, 0.16, "triangle"],
    [1047, 0.54, 0.4, "triangle"]],
};

function stored() {
  try { return localStorage.getItem(KEY) === "on"; } catch { return false; }
}

class Sound {
  constructor() {
    /** @type {AudioContext | null} */
    this.ctx = null;
    /** @type {Set<(on: boolean) => void>} */
    this.listeners = new Set();
    /** @type {SoundName[]} */
    this.played = []; // the names of the sounds made, newest last (tests read it)
    const unlock = () => this.unlock();
    // Browsers start audio only after a gesture: wake the context on the first one.
    for (const ev of ["pointerdown", "keydown", "touchstart"]) {
      window.addEventListener(ev, unlock, { capture: true, passive: true });
    }
  }

  get on() { return stored(); }

  /** @param {boolean} on */
  set(on) {
    try { localStorage.setItem(KEY, on ? "on" : "off"); } catch { /* private mode */ }
    for (const fn of this.listeners) fn(on);
  }

  toggle() {
    this.set(!this.on);
    if (this.on) this.play("tick");
    return this.on;
  }

  /** @param {(on: boolean) => void} fn @returns {() => boolean} the unsubscriber */
  onChange(fn) { this.listeners.add(fn); return () => this.listeners.delete(fn); }

  unlock() {
    if (!this.ctx) {
      const Ctx = window.AudioContext || /** @type {{webkitAudioContext?: typeof AudioContext}} */ (window).webkitAudioContext; // older Safari
      if (!Ctx) return;
      try { this.ctx = new Ctx(); } catch { return; }
    }
    if (this.ctx.state === "suspended") this.ctx.resume().catch(() => {});
  }

  /** @param {SoundName} name */
  play(name) {
    if (!this.on) return;
    const notes = SOUNDS[name];
    if (!notes) return;
    this.played.push(name);
    if (this.played.length > 50) this.played.shift();
    if (!this.ctx) this.unlock();
    const ctx = this.ctx;
    if (!ctx) return;
    const t0 = ctx.currentTime + 0.02;
    for (const [freq, at, len, type] of notes) {
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      osc.type = type;
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.0001, t0 + at);
      gain.gain.exponentialRampToValueAtTime(0.18, t0 + at + 0.015);
      gain.gain.exponentialRampToValueAtTime(0.0001, t0 + at + len);
      osc.connect(gain).connect(ctx.destination);
      osc.start(t0 + at);
      osc.stop(t0 + at + len + 0.02);
    }
  }
}

export const sound = new Sound();
/** @type {{quaymoorSound?: Sound}} */ (window).quaymoorSound = sound; // the browser tests read it

// Sound: short, quiet cues for a flip, a peace, winning the pot, going out and
// the end, synthesized with the Web Audio API (no sound files: nothing to
// download, made by the project, MIT like the rest). The player's choice is
// remembered (localStorage); nothing plays before their first click or key
// (browsers' autoplay rules: the audio context is made then), nor while the
// tab is in the background. `cue` is pure (tested with node); `makeSound`
// touches the browser only when called.

/** @typedef {import("./state.js").State} State */
/** @typedef {import("./state.js").Action} Action */
/** @typedef {"flip" | "peace" | "win" | "out" | "end"} Cue */

/** The localStorage key of the sound setting ("on" or "off"). */
export const SOUND_KEY = "cardwar.sound";

/**
 * The cue `action` calls for, now that the state is `s` (null: none).
 * A flip: ours as we make it, the others' as they come (not our own echo); a
 * battle: someone went out, else a peace, else the pot coming to us; the end.
 * @param {State} s
 * @param {Action} action
 * @returns {Cue | null}
 */
export function cue(s, action) {
  switch (action.type) {
    case "local:flip": return "flip";
    case "flipped": return action.seat === s.you ? null : "flip";
    case "battle":
      if (action.out.length) return "out";
      if (action.peaces.length) return "peace";
      return s.you !== null && action.winner === s.you ? "win" : null;
    case "over": return "end";
    case "local:slap": return "flip";
    case "move":  // a slap game: someone out, else the pile coming to us by a slap
      if (action.events.some((e) => e.event === "out")) return "out";
      return action.events.some((e) => e.event === "slap" && e.verdict === "valid" &&
        e.seat === s.you) ? "win" : null;
    default: return null;
  }
}

/**
 * Each cue as notes: [frequency in Hz (0: a noise burst), start s, length s, wave].
 * @type {Record<Cue, [number, number, number, OscillatorType][]>}
 */
const NOTES = {
  flip: [[0, 0, 0.05, "sine"]],
  peace: [[659.25, 0, 0.16, "sine"], [880, 0.12, 0.28, "sine"]],
  win: [[523.25, 0, 0.09, "triangle"], [659.25, 0.07, 0.09, "triangle"],
    [783.99, 0.14, 0.16, "triangle"]],
  out: [[392, 0, 0.16, "triangle"], [293.66, 0.14, 0.3, "triangle"]],
  end: [[523.25, 0, 0.12, "triangle"], [659.25, 0.1, 0.12, "triangle"],
    [783.99, 0.2, 0.12, "triangle"], [1046.5, 0.3, 0.5, "triangle"]],
};
/** Loudness of every cue (0..1): quiet. */
const VOLUME = 0.12;

/**
 * The page's sound: `play(cue)` plays it if the player wants sound, has
 * clicked or pressed a key on the page, and is looking at the tab.
 * @param {Storage | null} storage  where the setting is remembered
 * @returns {{play: (name: Cue) => void, on: () => boolean, set: (on: boolean) => void}}
 */
export function makeSound(storage) {
  /** @type {AudioContext | null} */
  let ctx = null;
  let enabled = read(storage) !== "off";
  let touched = false;  // the player has clicked or pressed a key

  const wake = () => {
    touched = true;
    if (enabled && !ctx && "AudioContext" in window) ctx = new AudioContext();
    if (ctx && ctx.state === "suspended") ctx.resume().catch(() => {});
  };
  for (const kind of ["pointerdown", "keydown"]) {
    document.addEventListener(kind, wake, { capture: true, passive: true });
  }

  /** @param {Cue} name */
  function play(name) {
    if (!enabled || !touched || !ctx || document.visibilityState !== "visible") return;
    const at = ctx.currentTime + 0.01;
    const out = ctx.createGain();
    out.gain.value = VOLUME;
    out.connect(ctx.destination);
    for (const [freq, start, length, wave] of NOTES[name]) {
      const env = ctx.createGain();
      env.gain.setValueAtTime(0.0001, at + start);
      env.gain.exponentialRampToValueAtTime(1, at + start + 0.008);
      env.gain.exponentialRampToValueAtTime(0.0001, at + start + length);
      env.connect(out);
      const source = freq ? tone(ctx, freq, wave) : noise(ctx, length);
      source.connect(env);
      source.start(at + start);
      source.stop(at + start + length + 0.02);
    }
  }

  return {
    play,
    on: () => enabled,
    set(on) {
      enabled = on;
      write(storage, on ? "on" : "off");
      if (on && touched) wake();
    },
  };
}

/**
 * @param {AudioContext} ctx
 * @param {number} freq
 * @param {OscillatorType} wave
 */
function tone(ctx, freq, wave) {
  const osc = ctx.createOscillator();
  osc.type = wave;
  osc.frequency.value = freq;
  return osc;
}

/**
 * A card's snap: a burst of noise through a band-pass filter.
 * @param {AudioContext} ctx
 * @param {number} length  seconds
 */
function noise(ctx, length) {
  const buffer = ctx.createBuffer(1, Math.ceil(ctx.sampleRate * length), ctx.sampleRate);
  const data = buffer.getChannelData(0);
  for (let i = 0; i < data.length; i++) data[i] = (Math.random() * 2 - 1) * (1 - i / data.length);
  const src = ctx.createBufferSource();
  src.buffer = buffer;
  const band = ctx.createBiquadFilter();
  band.type = "bandpass";
  band.frequency.value = 2400;
  band.Q.value = 0.8;
  src.connect(band);
  // the source starts and stops; what it plays goes through the filter
  return { connect: (/** @type {AudioNode} */ to) => band.connect(to),
    start: (/** @type {number} */ t) => src.start(t), stop: (/** @type {number} */ t) => src.stop(t) };
}

/** @param {Storage | null} storage */
function read(storage) {
  try { return storage ? storage.getItem(SOUND_KEY) : null; } catch { return null; }
}

/** @param {Storage | null} storage @param {string} value */
function write(storage, value) {
  try { if (storage) storage.setItem(SOUND_KEY, value); } catch { /* private mode */ }
}

/**
 * Which of several windows of one game plays the sounds: the one focused last
 * (the windows of a browser tell each other over a BroadcastChannel named after
 * the game), so two windows of the same seat never both play. A window alone
 * plays, focused or not.
 * @param {string} game  a name of the game shared by its windows (its socket path)
 * @returns {() => boolean}  whether this window plays now
 */
export function soundOwner(game) {
  if (typeof BroadcastChannel !== "function") return () => true;
  const me = Math.random().toString(36).slice(2);
  let owner = me;
  const channel = new BroadcastChannel("cardwar.sound:" + game);
  const claim = () => { owner = me; channel.postMessage(me); };
  channel.onmessage = (e) => { if (typeof e.data === "string") owner = e.data; };
  window.addEventListener("focus", claim);
  if (document.hasFocus()) claim();
  return () => owner === me;
}

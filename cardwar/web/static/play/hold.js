// The peace hold, pure: while a battle with a peace is on show, the next battle or
// the end of the game, and whatever comes after it, are kept and applied in order
// afterwards, so neither replaces the peace before it could be read (flips and
// presence before them are shown at once). `now` is always passed in (ms, the
// page's Date.now() clock): tests/js/hold.test.js runs it in node.

/** @typedef {import("./messages.js").ServerMessage} ServerMessage */

/** ms between two battles kept while a peace was shown, when they are applied */
export const CATCH_UP = 300;

/**
 * @typedef {object} Hold
 * @property {number} until  nothing kept is applied before this (ms)
 * @property {number} peaceAt  when the last battle with a peace was shown (ms)
 * @property {ServerMessage[]} held  kept messages, oldest first
 */

/** @returns {Hold} nothing held */
export function emptyHold() {
  return { until: 0, peaceAt: 0, held: [] };
}

/**
 * What to do with a message from the server: apply it now (`apply`), or keep it
 * (`hold` keeps it; wake up at `wake` and call {@link nextHeld}). A snapshot drops
 * what was kept (it brings it again); a fast-forward applies it all at once.
 * @param {Hold} h
 * @param {ServerMessage} m
 * @param {number} now
 * @returns {{hold: Hold, apply: ServerMessage[], wake: number | null}}
 */
export function receive(h, m, now) {
  if (m.type === "state") return { hold: emptyHold(), apply: [m], wake: null };
  if (m.type === "fast_forward") {  // skipping: nothing waits any more
    return { hold: emptyHold(), apply: [...h.held, m], wake: null };
  }
  if (h.held.length || ((m.type === "battle" || m.type === "over") && now < h.until)) {
    return { hold: { ...h, held: [...h.held, m] }, apply: [], wake: Math.max(now, h.until) };
  }
  return { hold: h, apply: [m], wake: null };
}

/**
 * The next kept message due at `now`, if any (apply it, then ask again); else when
 * to ask again (`wake`, null once nothing is kept). The end of the game waits for
 * the last peace as long as any peace at the game's pace (`pacedHold` ms).
 * @param {Hold} h
 * @param {number} now
 * @param {number} pacedHold
 * @returns {{hold: Hold, message: ServerMessage | null, wake: number | null}}
 */
export function nextHeld(h, now, pacedHold) {
  const m = h.held[0];
  if (!m) return { hold: h, message: null, wake: null };
  const until = m.type === "over" ? Math.max(h.until, h.peaceAt + pacedHold) : h.until;
  if (now < until) return { hold: h, message: null, wake: until };
  const held = h.held.slice(1);
  const after = m.type === "battle" && held.length ? Math.max(h.until, now + CATCH_UP) : h.until;
  return { hold: { ...h, held, until: after }, message: m, wake: null };
}

/**
 * A battle with a peace was shown at `now`: hold what comes next for `holdMs`
 * (not when the game is being fast-forwarded).
 * @param {Hold} h
 * @param {number} now
 * @param {number} holdMs
 * @param {boolean} skipping
 * @returns {Hold}
 */
export function peaceShown(h, now, holdMs, skipping) {
  return { ...h, peaceAt: now, until: skipping ? h.until : now + holdMs };
}

// The peace hold (cardwar/web/static/play/hold.js): what comes while a peace is on
// show waits for it, then is applied in order. Run with `node --test tests/js/`.

import assert from "node:assert/strict";
import { describe, it } from "node:test";

import { CATCH_UP, emptyHold, nextHeld, peaceShown, receive } from "../../cardwar/web/static/play/hold.js";

/** @typedef {import("../../cardwar/web/static/play/messages.js").ServerMessage} ServerMessage */

/** @param {number} seq @returns {ServerMessage} */
const battle = (seq) => /** @type {ServerMessage} */ (/** @type {unknown} */ (
  { type: "battle", seq, battle: seq, peaces: [] }));
/** @param {number} seq @returns {ServerMessage} */
const flipped = (seq) => /** @type {ServerMessage} */ (/** @type {unknown} */ (
  { type: "flipped", seq, seat: 0, battle: seq, by: "player" }));
/** @param {number} seq @returns {ServerMessage} */
const over = (seq) => /** @type {ServerMessage} */ (/** @type {unknown} */ ({ type: "over", seq }));

describe("the peace hold", () => {
  it("applies everything at once when no peace is on show", () => {
    const r = receive(emptyHold(), battle(1), 1000);
    assert.deepEqual(r.apply.map((m) => m.seq), [1]);
    assert.equal(r.wake, null);
  });

  it("keeps the next battle, and what follows it, until the peace was shown", () => {
    let h = peaceShown(emptyHold(), 1000, 2500, false);
    const a = receive(h, flipped(2), 1100);  // a flip before the next battle: shown at once
    assert.deepEqual(a.apply.map((m) => m.seq), [2]);
    const b = receive(a.hold, battle(3), 1200);
    assert.deepEqual(b.apply, []);
    assert.equal(b.wake, 3500);
    const c = receive(b.hold, flipped(4), 1300);  // after a kept battle: kept too, in order
    assert.deepEqual(c.apply, []);
    h = c.hold;
    assert.equal(nextHeld(h, 3499, 2500).message, null);
    assert.equal(nextHeld(h, 3499, 2500).wake, 3500);
    const d = nextHeld(h, 3500, 2500);
    assert.equal(d.message && d.message.seq, 3);
    // battles kept are applied CATCH_UP ms apart
    assert.equal(nextHeld(d.hold, 3500, 2500).wake, 3500 + CATCH_UP);
    const e = nextHeld(d.hold, 3500 + CATCH_UP, 2500);
    assert.equal(e.message && e.message.seq, 4);
    assert.deepEqual(nextHeld(e.hold, 4000, 2500), { hold: e.hold, message: null, wake: null });
  });

  it("holds the end for the last peace as long as a peace at the game's pace", () => {
    const h = receive(peaceShown(emptyHold(), 1000, 2000, false), over(5), 1500).hold;
    assert.equal(nextHeld(h, 3000, 4000).message, null);  // the slow pace shows it 4 s
    assert.equal(nextHeld(h, 3000, 4000).wake, 5000);
    assert.equal(nextHeld(h, 5000, 4000).message?.type, "over");
  });

  it("lets a snapshot drop what was kept and a fast-forward apply it", () => {
    const h = receive(peaceShown(emptyHold(), 0, 2000, false), battle(2), 10).hold;
    const snap = /** @type {ServerMessage} */ (/** @type {unknown} */ ({ type: "state", seq: 9 }));
    assert.deepEqual(receive(h, snap, 20).apply, [snap]);
    assert.deepEqual(receive(h, snap, 20).hold.held, []);
    const ff = /** @type {ServerMessage} */ (/** @type {unknown} */ (
      { type: "fast_forward", seq: 3, seat: 1 }));
    assert.deepEqual(receive(h, ff, 20).apply.map((m) => m.seq), [2, 3]);
  });

  it("never holds while the game is fast-forwarded", () => {
    const h = peaceShown(emptyHold(), 1000, 2500, true);
    assert.deepEqual(receive(h, battle(2), 1100).apply.map((m) => m.seq), [2]);
  });
});

// Slapping on the page of a slap game (cardwar/web/static/play/slap.js): keys,
// taps, the pile a slap names, one slap per pile.

import assert from "node:assert/strict";
import { it } from "node:test";

import {
  SlapOnce, keyAction, messageFor, pointerSlaps, slapFor,
} from "../../cardwar/web/static/play/slap.js";

/**
 * @param {Partial<import("../../cardwar/web/static/play/slap.js").KeyLike>} e
 * @returns {import("../../cardwar/web/static/play/slap.js").KeyLike}
 */
function key(e) {
  return { key: "", code: "", repeat: false, ctrlKey: false, altKey: false, metaKey: false, ...e };
}

it("keyAction: Space puts down in one's turn, S slaps at any moment", () => {
  assert.equal(keyAction(key({ key: " ", code: "Space" }), true), "put_down");
  assert.equal(keyAction(key({ key: " ", code: "Space" }), false), null);
  assert.equal(keyAction(key({ key: "s", code: "KeyS" }), false), "slap");
  assert.equal(keyAction(key({ key: "S", code: "KeyS" }), true), "slap");
  // the S key's place, whatever the layout prints on it (Cyrillic: ы)
  assert.equal(keyAction(key({ key: "ы", code: "KeyS" }), false), "slap");
  assert.equal(keyAction(key({ key: "d", code: "KeyD" }), true), null);
});

it("keyAction: no auto-repeat, no shortcuts, nothing typed into a field", () => {
  assert.equal(keyAction(key({ key: "s", code: "KeyS", repeat: true }), true), null);
  assert.equal(keyAction(key({ key: " ", code: "Space", repeat: true }), true), null);
  for (const mod of ["ctrlKey", "altKey", "metaKey"]) {
    assert.equal(keyAction(key({ key: "s", code: "KeyS", [mod]: true }), true), null, mod);
  }
  assert.equal(keyAction(key({ key: "s", code: "KeyS", typing: true }), true), null);
});

it("pointerSlaps: a touch or a left click, never a second finger or another button", () => {
  assert.equal(pointerSlaps({ button: 0, isPrimary: true }), true);
  assert.equal(pointerSlaps({ button: 0, isPrimary: false }), false);
  assert.equal(pointerSlaps({ button: 2, isPrimary: true }), false);
});

it("slapFor: a slap names the card drawn on top (0 before the first)", () => {
  assert.deepEqual(slapFor({ shown: 7 }), { type: "slap", pile: 7 });
  assert.deepEqual(slapFor({ shown: 0 }), { type: "slap", pile: 0 });
  assert.deepEqual(slapFor({ shown: -3 }), { type: "slap", pile: 0 });
});

it("messageFor: one slap per pile; a put-down is a flip naming the next card", () => {
  const once = new SlapOnce();
  assert.deepEqual(messageFor("slap", { shown: 3 }, once), { type: "slap", pile: 3 });
  assert.equal(messageFor("slap", { shown: 3 }, once), null);  // a second: never sent
  assert.deepEqual(messageFor("slap", { shown: 4 }, once), { type: "slap", pile: 4 });
  assert.equal(messageFor("slap", { shown: 3 }, once), null);  // an older pile: gone by
  assert.deepEqual(messageFor("put_down", { shown: 4 }, once), { type: "flip", battle: 5 });
  assert.equal(messageFor(null, { shown: 5 }, once), null);
});

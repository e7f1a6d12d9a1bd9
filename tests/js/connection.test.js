// The game's connection (cardwar/web/static/play/connection.js): how long it
// waits before connecting again.

import assert from "node:assert/strict";
import { it } from "node:test";

import { backoff, pongFor } from "../../cardwar/web/static/play/connection.js";

it("backoff: 1 s doubling up to 15 s, between half and all of it", () => {
  assert.deepEqual([1, 2, 3, 4, 5, 6, 10].map((n) => backoff(n, 0.999999)).map(Math.round),
    [1000, 2000, 4000, 8000, 15000, 15000, 15000]);
  assert.deepEqual([1, 2, 5].map((n) => backoff(n, 0)), [500, 1000, 7500]);
});

it("pongFor: a numbered heartbeat's answer echoes its id, a plain one's does not", () => {
  assert.deepEqual(pongFor({ type: "ping", id: 7 }), { type: "pong", id: 7 });
  assert.deepEqual(pongFor({ type: "ping" }), { type: "pong" });
});

// The small schema the page scripts check embedded page data with
// (cardwar/web/static/play/dom.js). Run with `node --test tests/js/`.

import assert from "node:assert/strict";
import { describe, it } from "node:test";

import { problems } from "../../cardwar/web/static/play/dom.js";

const SCHEMA = { locale: "string", heartbeat: "number?", peace_holds: "object?", seats: "array" };

describe("problems", () => {
  it("finds none in data that fits, optional keys missing or null", () => {
    assert.deepEqual(problems({ locale: "en", seats: [], heartbeat: null }, SCHEMA), []);
    assert.deepEqual(problems({ locale: "en", seats: [1], peace_holds: { fast: 1 } }, SCHEMA), []);
  });

  it("names each key missing or of another type", () => {
    assert.deepEqual(problems({ heartbeat: "20", seats: {} }, SCHEMA),
      ["locale: missing", "heartbeat: string, not number", "seats: object, not array"]);
  });

  it("refuses what is not an object", () => {
    for (const data of [null, [], "en", 3]) assert.deepEqual(problems(data, SCHEMA), ["not an object"]);
  });
});

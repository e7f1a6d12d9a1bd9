// A game in turns (Beggar-my-neighbour) on the game page: the `card` message in the
// reducer (cardwar/web/static/play/state.js) and its words (turns.js).
// Run with `node --test tests/js/` (`make jstest`).

import assert from "node:assert/strict";
import { describe, it } from "node:test";

import { acts, canFlip, idleSeats, reduce } from "../../cardwar/web/static/play/state.js";
import { cardText, inTurns, owedText } from "../../cardwar/web/static/play/turns.js";
import { makeWords } from "../../cardwar/web/static/play/words.js";
import { deepFreeze, snapshot } from "./fixtures.js";

/** @typedef {import("../../cardwar/web/static/play/messages.js").CardMessage} CardMessage */

const beggar = { variant: "beggar", tie_word: null, battle_limit: null, to_move: 0, owed: 0,
  owed_for: null, pile: 0, top: [], tricks: 0 };

/**
 * @param {number} seq
 * @param {Partial<CardMessage>} o
 * @returns {CardMessage}
 */
function card(seq, o) {
  return { type: "card", seq, card: seq - 4, seat: 0, face_up: "KH", paying: false, owed: 3,
    owed_for: "KH", to_move: 1, pile: 1, top: ["KH"], taken_by: null, taken: 0, tricks: 0,
    counts: [25, 26], ...o };
}

const S = {
  to_play: "{name} to play.", to_play_you: "Your turn to play.", puts_down: "{name} puts down the {card}.",
  must_pay: { one: "{name} must pay {count} card {for_card}.",
    other: "{name} must pay {count} cards {for_card}." },
  pay_for: { J: "for the jack of {suit}", Q: "for the queen of {suit}",
    K: "for the king of {suit}", A: "for the ace of {suit}" },
  suits_of: { C: "clubs", D: "diamonds", H: "hearts", S: "spades" },
  takes_trick: { one: "{name} takes the pile: {count} card.",
    other: "{name} takes the pile: {count} cards." },
  card: "{rank} of {suit}", ranks: { K: "king", "2": "two" }, suits: { H: "hearts", C: "clubs" },
  seat: "Seat {n}", computer_name: "Computer {n}",
};
const w = makeWords(/** @type {import("../../cardwar/web/static/play/words.js").Strings} */
  (/** @type {unknown} */ (S)), "en");

describe("a game in turns", () => {
  const start = deepFreeze(reduce(null, snapshot({ game: beggar })));
  it("only the seat to move flips, and the idle clock waits only for it", () => {
    assert.ok(start && inTurns(start.game));
    assert.ok(canFlip(start) && acts(start.game, 0) && !acts(start.game, 1));
    assert.deepEqual(idleSeats(start), [0]);
  });
  it("a card moves the turn, says what is owed and keeps the pile", () => {
    const s = reduce(start, card(5, {}));
    assert.ok(s && s !== start);
    assert.equal(s.game.to_move, 1);
    assert.equal(s.game.battle, 1);
    assert.deepEqual(s.game.top, ["KH"]);
    assert.ok(!canFlip(s));
    assert.deepEqual(idleSeats(s), [1]);
    const name = (/** @type {number} */ seat) => w.seatName(s.seats, seat);
    assert.equal(owedText(w, s.game, name), "Bob must pay 3 cards for the king of hearts.");
    // each language words the payment its own way: the article, the case, the order
    const de = makeWords(/** @type {import("../../cardwar/web/static/play/words.js").Strings} */
      (/** @type {unknown} */ ({ ...S,
        must_pay: { one: "{name} muss {for_card} {count} Karte zahlen.",
          other: "{name} muss {for_card} {count} Karten zahlen." },
        pay_for: { ...S.pay_for, K: "für den {suit}-König" },
        suits_of: { ...S.suits_of, H: "Herz" } })), "de");
    assert.equal(owedText(de, s.game, name), "Bob muss für den Herz-König 3 Karten zahlen.");
    assert.equal(cardText(w, /** @type {CardMessage} */ (s.turn), name),
      "Ann puts down the king of hearts.");
    assert.equal(reduce(s, card(5, {})), s, "a repeated card changes nothing");
  });
  it("a trick taken is said, and the taker is to play", () => {
    const s = reduce(start, card(5, { seat: 1, face_up: "2C", paying: true, owed: 0,
      owed_for: null, to_move: 0, pile: 0, top: ["KH", "2C"], taken_by: 0, taken: 2,
      tricks: 1, counts: [27, 25] }));
    assert.ok(s);
    const name = (/** @type {number} */ seat) => w.seatName(s.seats, seat);
    assert.equal(owedText(w, s.game, name), "Ann to play.");
    assert.equal(owedText(w, s.game, name, 0), "Your turn to play.", "on Ann's own page");
    assert.equal(owedText(w, s.game, name, 1), "Ann to play.");
    assert.equal(cardText(w, /** @type {CardMessage} */ (s.turn), name),
      "Bob puts down the two of clubs. Ann takes the pile: 2 cards.");
  });
});

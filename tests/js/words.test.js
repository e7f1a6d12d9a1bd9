// The game page's wording (cardwar/web/static/play/words.js): placeholders,
// plural forms and numbers by locale, names of seats and cards, battles in words.

import assert from "node:assert/strict";
import { describe, it } from "node:test";

import { seatPlace } from "../../cardwar/web/static/play/cards.js";
import { fmt, isolate, makeWords, numberFormat } from "../../cardwar/web/static/play/words.js";

/** @typedef {import("../../cardwar/web/static/play/words.js").Strings} Strings */
/** @typedef {import("../../cardwar/web/static/play/messages.js").Seat} Seat */

// the strings words.js reads, as cardwar.web.play.client_strings gives them in English
const EN = /** @type {Strings} */ (/** @type {unknown} */ ({
  seat: "Seat {n}", computer_name: "Computer {n}", battle: "Battle {n}",
  battle_of: "Battle {n} of {limit}", tie_word: "PEACE", tie_peace: "A tie: peace!",
  tie_war: "A tie: war!", nobody: "Nobody can turn a card: the pot stays on the table.",
  went_out: "{name} is out of the game.", card: "{rank} of {suit}",
  takes: { one: "{name} takes {count} card.", other: "{name} takes {count} cards." },
  cards: { one: "{count} card", other: "{count} cards" },
  ranks: { 2: "two", 5: "five", 9: "nine", T: "ten", K: "king", Q: "queen", 3: "three" },
  suits: { C: "clubs", D: "diamonds", H: "hearts", S: "spades" },
  number: { group: ",", min_grouping: 1, minus: "-" },
}));
// Polish has three forms for whole numbers (one, few, many)
const PL = /** @type {Strings} */ (/** @type {unknown} */ ({
  ...EN, battle_of: "Bitwa {n} z {limit}", number: { group: "\u00a0", min_grouping: 2, minus: "-" },
  cards: { one: "{count} karta", few: "{count} karty", many: "{count} kart",
    other: "{count} karty" },
}));
// French and Brazilian Portuguese: 0 and 1 are "one", exact millions "many" (with "de")
const FR = /** @type {Strings} */ (/** @type {unknown} */ ({
  ...EN, number: { group: "\u202f", min_grouping: 1, minus: "-" }, cards: { one: "{count} carte", many: "{count} de cartes", other: "{count} cartes" },
}));
const PT = /** @type {Strings} */ (/** @type {unknown} */ ({
  ...EN, number: { group: ".", min_grouping: 1, minus: "-" }, cards: { one: "{count} carta", many: "{count} de cartas", other: "{count} cartas" },
}));

/** @type {Seat[]} */
const SEATS = [
  { seat: 0, kind: "human", nickname: "Ann", online: true, auto_flip: false },
  { seat: 1, kind: "computer", nickname: null, online: true, auto_flip: false },
  { seat: 2, kind: "reserved", nickname: "Cy", online: false, auto_flip: false },
  { seat: 3, kind: "open", nickname: null, online: false, auto_flip: false },
];

describe("words", () => {
  it("fmt fills the placeholders it has and leaves the others", () => {
    assert.equal(fmt("{name} takes {count} {what}", { name: "Ann", count: 3 }),
      "Ann takes 3 {what}");
  });

  it("plural picks the locale's form and writes the number in its digits", () => {
    const en = makeWords(EN, "en");
    assert.equal(en.plural(EN.cards, 1), "1 card");
    assert.equal(en.plural(EN.cards, 1000), "1,000 cards");
    const pl = makeWords(PL, "pl");
    assert.deepEqual([1, 2, 5, 22, 25].map((n) => pl.plural(PL.cards, n)),
      ["1 karta", "2 karty", "5 kart", "22 karty", "25 kart"]);
    const fr = makeWords(FR, "fr");
    assert.deepEqual([0, 1, 2, 1000, 1e6].map((n) => fr.plural(FR.cards, n)),
      ["0 carte", "1 carte", "2 cartes", "1\u202f000 cartes", "1\u202f000\u202f000 de cartes"]);
    const pt = makeWords(PT, "pt-BR");
    assert.deepEqual([0, 1, 2, 1000, 1e6].map((n) => pt.plural(PT.cards, n)),
      ["0 carta", "1 carta", "2 cartas", "1.000 cartas", "1.000.000 de cartas"]);
  });

  it("names seats: nickname, computer, or the seat's number", () => {
    const w = makeWords(EN, "en");
    assert.deepEqual([0, 1, 2, 3].map((s) => w.seatName(SEATS, s)),
      ["Ann", "Computer 2", "Seat 3", "Seat 4"]);
    assert.equal(w.cardName("TD"), "ten of diamonds");
  });

  it("names a computer by its lobby seat once the seats are drawn", () => {
    const w = makeWords(EN, "en");
    /** @type {import("../../cardwar/web/static/play/messages.js").Seat[]} */
    const drawn = [
      { seat: 0, number: 3, kind: "computer", nickname: null, online: true, auto_flip: false },
      { seat: 1, number: 1, kind: "human", nickname: "Ann", online: true, auto_flip: false },
      { seat: 2, number: 2, kind: "computer", nickname: null, online: true, auto_flip: false },
    ];
    assert.deepEqual([0, 1, 2].map((s) => w.seatName(drawn, s)), ["Computer 3", "Ann", "Computer 2"]);
  });

  it("the battle number: the coming one, of the limit, in the locale's digits", () => {
    /** @type {import("../../cardwar/web/static/play/messages.js").Game} */
    const g = { players: 2, battle: 3, counts: [26, 26], in_play: [true, true],
      status: "playing", flipped: [], creator: 0, tie_word: "PEACE", battle_limit: 1000,
      rematch: null, rematch_by: null };
    assert.equal(makeWords(EN, "en").battleNumber(g), "Battle 4 of 1,000");
    assert.equal(makeWords(PL, "pl").battleNumber(g), "Bitwa 4 z 1000");
    assert.equal(makeWords(EN, "en").battleNumber({ ...g, status: "over" }), "Battle 3 of 1,000");
    assert.equal(makeWords(EN, "en").battleNumber({ ...g, battle_limit: null }), "Battle 4");
  });

  it("a battle in words: the tie, every card turned up, who takes the pot, who went out", () => {
    const w = makeWords(EN, "en");
    /** @param {number} s */
    const name = (s) => w.seatName(SEATS, s);
    const b = {
      battle: 7, face_up: ["5C", "5D", null, null], winning_seats: [0, 1], winner: 1, pot: 14,
      out: [0], counts: [0, 40, 0, 0],
      peaces: [{ face_down: [["2C"], ["9H"], null, null], face_up: ["KH", "3S", null, null],
        standing: [], winning_seats: [1] }],
    };
    assert.equal(w.summary(b, true, false, name),
      "A tie: peace! Computer 2 takes 14 cards. Ann is out of the game.");
    assert.equal(w.summary(b, false, true, name),
      "Battle 7: Ann five of clubs, Computer 2 five of diamonds. A tie: war! " +
      "Ann king of hearts, Computer 2 three of spades. Computer 2 takes 14 cards. " +
      "Ann is out of the game.");
    assert.equal(w.summary({ ...b, peaces: [], winner: null, out: [] }, true, false, name),
      "Nobody can turn a card: the pot stays on the table.");
  });

  it("the letters of a peace's face-down cards, none in War", () => {
    const w = makeWords(EN, "en");
    assert.deepEqual(w.tieLetters(true, 5), ["P", "E", "A", "C", "E"]);
    assert.deepEqual(w.tieLetters(true, 2), ["P", "E"]);
    assert.deepEqual(w.tieLetters(false, 3), ["", "", ""]);
  });
});

describe("words: numbers from the server's CLDR data, names isolated", () => {
  it("writes numbers as the rules pages do (Babel), whatever the browser's Intl says", () => {
    const it_ = numberFormat({ group: ".", min_grouping: 1, minus: "-" });
    assert.equal(it_(1000), "1.000");  // the bug: Intl printed "1000" in Italian
    assert.equal(it_(832), "832");
    assert.equal(it_(1234567), "1.234.567");
    const es = numberFormat({ group: ".", min_grouping: 2, minus: "-" });
    assert.deepEqual([es(1000), es(10000)], ["1000", "10.000"]);
    const cs = numberFormat({ group: "\u00a0", min_grouping: 1, minus: "-" });
    assert.equal(cs(-1000), "-1\u00a0000");
    const w = makeWords({ ...EN, number: { group: ".", min_grouping: 1, minus: "-" } }, "it");
    assert.equal(w.battleNumber(/** @type {any} */ ({ status: "playing", battle: 831,
      battle_limit: 1000 })), "Battle 832 of 1.000");
  });

  it("isolates a right-to-left nickname so it cannot reorder the sentence", () => {
    assert.equal(isolate("Ann"), "Ann");
    assert.equal(isolate("דנה"), "\u2068דנה\u2069");
    assert.equal(isolate("ليلى 7"), "\u2068ليلى 7\u2069");
    const w = makeWords(EN, "en");
    const seats = /** @type {Seat[]} */ ([{ ...SEATS[0], nickname: "דנה" }, SEATS[1]]);
    assert.equal(w.fmt(EN.went_out, { name: w.seatName(seats, 0) }),
      "\u2068דנה\u2069 is out of the game.");
  });
});

describe("the card table (issue 22)", () => {
  it("puts our seat at the bottom and the others around it, in turn", () => {
    assert.deepEqual([0, 1].map((s) => seatPlace(2, s, 1)), ["top", "bottom"]);
    assert.deepEqual([0, 1, 2].map((s) => seatPlace(3, s, 2)), ["left", "right", "bottom"]);
    assert.deepEqual([0, 1, 2, 3].map((s) => seatPlace(4, s, 1)), ["right", "bottom", "left", "top"]);
    // a spectator sees seat 0 at the bottom
    assert.deepEqual([0, 1, 2, 3].map((s) => seatPlace(4, s, null)),
      ["bottom", "left", "top", "right"]);
  });

  it("heads the table with the battle whose cards are on it", () => {
    const w = makeWords(EN, "en");
    const g = /** @type {any} */ ({ status: "playing", battle: 1, battle_limit: 1000 });
    assert.equal(w.battleNumber(g, true), "Battle 1 of 1,000");
    assert.equal(w.battleNumber(g), "Battle 2 of 1,000");
    assert.equal(w.battleNumber({ ...g, battle: 0 }, true), "Battle 1 of 1,000");  // none yet
  });
});

// Slapping on the page of a slap game (cardwar/web/static/play/slap.js): keys,
// taps, the pile a slap names, one slap per pile, the `move` event in the reducer,
// what a move did in words, the table's options and the replay's steps.

import assert from "node:assert/strict";
import { describe, it } from "node:test";

import {
  SlapOnce, describeMove, isSlapGame, keyAction, messageFor, optionsText, pointerSlaps,
  replaySteps, slapFor, withFigures,
} from "../../cardwar/web/static/play/slap.js";
import { acts, canFlip, placings, reduce } from "../../cardwar/web/static/play/state.js";
import { makeWords } from "../../cardwar/web/static/play/words.js";
import { deepFreeze, snapshot } from "./fixtures.js";

/** @typedef {import("../../cardwar/web/static/play/messages.js").MoveMessage} MoveMessage */
/** @typedef {import("../../cardwar/web/static/play/messages.js").SlapEvent} SlapEvent */

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

it("messageFor: one slap per pile; a put-down names the next card", () => {
  const once = new SlapOnce();
  assert.deepEqual(messageFor("slap", { shown: 3 }, once), { type: "slap", pile: 3 });
  assert.equal(messageFor("slap", { shown: 3 }, once), null);  // a second: never sent
  assert.deepEqual(messageFor("slap", { shown: 4 }, once), { type: "slap", pile: 4 });
  assert.equal(messageFor("slap", { shown: 3 }, once), null);  // an older pile: gone by
  assert.deepEqual(messageFor("put_down", { shown: 4 }, once), { type: "put", card: 5 });
  assert.equal(messageFor(null, { shown: 5 }, once), null);
});

const S = {
  puts_down: "{name} puts down the {card}.", card: "{rank} of {suit}",
  ranks: { "9": "nine", "7": "seven", J: "jack", Q: "queen" },
  suits: { C: "clubs", H: "hearts", D: "diamonds", S: "spades" },
  takes_trick: { one: "{name} takes the pile: {count} card.",
    other: "{name} takes the pile: {count} cards." },
  you_take_trick: { one: "You take the pile: {count} card.",
    other: "You take the pile: {count} cards." },
  went_out: "{name} is out of the game.", seat: "Seat {n}", computer_name: "Computer {n}",
  slap_pattern: { double: "the double", sandwich: "the sandwich", jack: "the jack" },
  slap_won: "{name} slapped {pattern} first: {ms} ms.",
  slap_won_plain: "{name} slapped {pattern} first.",
  slap_won_you: "You slapped {pattern} first: {ms} ms.",
  slap_won_you_against: "You slapped {pattern} first: {ms} ms against {others}.",
  slap_won_against: "{name} slapped {pattern} first: {ms} ms against {others}.",
  slap_won_against_you: "{name} slapped {pattern} first: {ms} ms against your {yours} ms.",
  slap_other: "{name} ({ms} ms)",
  slap_wrong_burn: { one: "Wrong slap by {name}: {count} card burned under the pile.",
    other: "Wrong slap by {name}: {count} cards burned under the pile." },
  slap_wrong_give: { one: "Wrong slap by {name}: {count} card goes to {other}.",
    other: "Wrong slap by {name}: {count} cards go to {other}." },
  slap_wrong_burn_you: { one: "Your wrong slap: {count} card burned under the pile.",
    other: "Your wrong slap: {count} cards burned under the pile." },
  slap_wrong_give_you: { one: "Your wrong slap: {count} card goes to {other}.",
    other: "Your wrong slap: {count} cards go to {other}." },
  slap_wrong_own: { one: "Wrong slap by {name} on their own card: {count} card goes to the bottom of their pile.",
    other: "Wrong slap by {name} on their own card: {count} cards go to the bottom of their pile." },
  slap_wrong_own_you: { one: "Your wrong slap on your own card: {count} card goes to the bottom of your pile.",
    other: "Your wrong slap on your own card: {count} cards go to the bottom of your pile." },
  slap_wrong_give_to_you: { one: "Wrong slap by {name}: {count} card goes to you.",
    other: "Wrong slap by {name}: {count} cards go to you." },
  slap_wrong_empty: "Wrong slap by {name}, who had no cards left.",
  slap_late: "{name} slapped too late: the pile was gone. No penalty.",
  slap_late_you: "Too late: the pile was already taken. No penalty.",
  slap_empty_you: "Nothing to slap yet: no penalty.",
  slap_no_slap_in_you: "Slapping in is off.", slap_out_you: "You are out.",
  pattern_names: { double: "double", sandwich: "sandwich", jack: "a jack on top",
    marriage: "marriage" },
  rules_patterns: "Slap: {patterns}.",
  rules_burn: { one: "A wrong slap burns {count} card.", other: "A wrong slap burns {count} cards." },
  rules_give: "A wrong slap gives a card to the player of the top card.",
  rules_slap_in: "Slapping in: yes.", rules_no_slap_in: "No slapping in.",
  number: { group: ",", min_grouping: 1, minus: "-" },
};
const w = makeWords(/** @type {import("../../cardwar/web/static/play/words.js").Strings} */
  (/** @type {unknown} */ (S)), "en");

const ers = { variant: "ers", tie_word: null, battle_limit: null, to_move: 0, owed: 0,
  owed_for: null, pile: 0, top: [], tricks: 0, cards_played: 0, window: null, slaps: 0,
  burned: 0, out: {}, patterns: /** @type {("double" | "sandwich")[]} */ (["double", "sandwich"]),
  options: { sandwich: true, marriage: false, top_bottom: false, burn: 1, slap_in: true,
    card_limit: 10000 } };

/**
 * A move event: Ann (seat 0) and Bob (seat 1) at 20 and 32 cards after it.
 * @param {number} seq
 * @param {Partial<MoveMessage>} o
 * @returns {MoveMessage}
 */
function move(seq, o) {
  return { type: "move", seq, move: seq - 4, moves: [], events: [], cards_played: 12,
    to_move: 1, owed: 0, owed_for: null, window: null, counts: [20, 32], pile: 0, top: [],
    tricks: 2, slaps: 1, burned: 0, out: {}, ...o };
}

/** @param {number} seat @param {number} pile @param {number} reaction */
const timed = (seat, pile, reaction) => ({ move: ["slap", seat, pile],
  timing: { sent: 1000, arrived: 1000 + reaction + 20, latency: 10, reaction, computer: false } });

/** The protocol's example: Bob's double at 305 ms beats Ann's 340 ms. */
const decided = move(9, {
  moves: [timed(1, 12, 305), timed(0, 12, 340)],
  events: [{ event: "slap", seat: 1, pile: 12, verdict: "valid", pattern: "double" },
    { event: "taken", seat: 1, count: 12, why: "slap", trick: null },
    { event: "slap", seat: 0, pile: 12, verdict: "too_late", pattern: null }],
});

describe("a slap game in the reducer", () => {
  const start = deepFreeze(reduce(null, snapshot({ game: ers })));
  it("is a slap game played in turns: only the seat to move puts down", () => {
    assert.ok(start && isSlapGame(start.game) && canFlip(start));
    assert.ok(acts(start.game, 0) && !acts(start.game, 1));
    assert.ok(!isSlapGame(snapshot().game));
  });
  it("a move moves the table: counts, turn, pile, and who is out", () => {
    const s = reduce(start, move(5, { events: [{ event: "card", number: 1, seat: 0, card: "9C",
      paid_for: null, pattern: null, owed: 0, owed_for: null, to_move: 1 }],
    cards_played: 1, counts: [25, 26], pile: 1, top: ["9C"], tricks: 0, slaps: 0 }));
    assert.ok(s && s !== start);
    assert.equal(s.game.battle, 1);
    assert.equal(s.game.cards_played, 1);
    assert.deepEqual(s.game.top, ["9C"]);
    assert.equal(s.game.to_move, 1);
    assert.ok(!canFlip(s));
    assert.equal(s.moved && s.moved.move, 1);
    const out = reduce(s, move(6, { out: { 0: 8 }, counts: [0, 52], to_move: null }));
    assert.ok(out);
    assert.deepEqual(out.game.in_play, [false, true]);
    assert.deepEqual(out.game.eliminated, { 0: 8 });
    assert.equal(reduce(out, move(6, {})), out);  // seen already
  });
  it("our slap is shown until a move judges it", () => {
    const s = reduce(start, { type: "local:slap", pile: 0 });
    assert.ok(s && s.slapped === 0);
    assert.equal(reduce(s, { type: "local:slap", pile: 0 }), s);
    const judged = reduce(s, move(5, { events: [
      { event: "slap", seat: 0, pile: 0, verdict: "empty_pile", pattern: null }] }));
    assert.equal(judged && judged.slapped, -1);
  });
  it("a snapshot brings the last move back", () => {
    const s = reduce(null, snapshot({ game: ers, last: /** @type {never} */ (decided) }));
    assert.equal(s && s.moved, decided);
  });
  it("the end's placings rank the players still in by cards, those out by when", () => {
    const r = { outcome: /** @type {"win"} */ ("win"), reason: "all_cards", winner: 1,
      battles: 40, final_counts: [0, 52], eliminated: { 0: 40 }, seed: "x", hands: null,
      command: "" };
    assert.deepEqual(placings(r), [{ seat: 1, place: 1 }, { seat: 0, place: 2 }]);
  });
});

describe("a move in words", () => {
  const seats = snapshot().seats;
  const name = (/** @type {number} */ seat) => w.seatName(seats, seat);
  it("the winner of a slap, against our slower one", () => {
    const d = describeMove(w, decided, 0, name);
    assert.equal(d.line, "Bob slapped the double first: 305\u00a0ms against your 340\u00a0ms. "
      + "Bob takes the pile: 12 cards.");
    assert.equal(d.kind, "valid");
    assert.deepEqual(d.said, ["Bob slapped the double first: 305\u00a0ms against your 340\u00a0ms.",
      "Bob takes the pile: 12 cards."]);
  });
  it("the same from the winner's seat, and from a spectator's", () => {
    assert.equal(describeMove(w, decided, 1, name).line,
      "You slapped the double first: 305\u00a0ms against Ann (340\u00a0ms). You take the pile: 12 cards.");
    assert.equal(describeMove(w, decided, null, name).line,
      "Bob slapped the double first: 305\u00a0ms against Ann (340\u00a0ms). Bob takes the pile: 12 cards.");
  });
  it("a slap alone, and one without figures (an old record)", () => {
    const alone = { events: decided.events.slice(0, 2), moves: decided.moves.slice(0, 1) };
    assert.equal(describeMove(w, alone, 0, name).said[0], "Bob slapped the double first: 305\u00a0ms.");
    assert.equal(describeMove(w, { events: alone.events }, 0, name).said[0],
      "Bob slapped the double first.");
  });
  it("a wrong slap and the card it burns, or gives in Slapjack", () => {
    /** @type {SlapEvent[]} */
    const burn = [{ event: "slap", seat: 0, pile: 3, verdict: "wrong", pattern: null },
      { event: "burned", seat: 0, count: 2, to_seat: null }];
    const d = describeMove(w, { events: burn }, 1, name);
    assert.equal(d.line, "Wrong slap by Ann: 2 cards burned under the pile.");
    assert.equal(d.kind, "wrong");
    /** @type {SlapEvent[]} */
    const give = [{ event: "slap", seat: 0, pile: 3, verdict: "wrong", pattern: null },
      { event: "burned", seat: 0, count: 1, to_seat: 1 }];
    assert.equal(describeMove(w, { events: give }, 2, name).line,
      "Wrong slap by Ann: 1 card goes to Bob.");
    /** @type {SlapEvent[]} */
    const empty = [{ event: "slap", seat: 0, pile: 3, verdict: "wrong", pattern: null },
      { event: "out", seat: 0, cards_played: 3 }];
    assert.deepEqual(describeMove(w, { events: empty }, 1, name).said,
      ["Wrong slap by Ann, who had no cards left.", "Ann is out of the game."]);
  });
  it("a wrong slap said to the one who made it, and to the one who gets the card", () => {
    /** @type {SlapEvent[]} */
    const burn = [{ event: "slap", seat: 0, pile: 3, verdict: "wrong", pattern: null },
      { event: "burned", seat: 0, count: 2, to_seat: null }];
    assert.equal(describeMove(w, { events: burn }, 0, name).line,
      "Your wrong slap: 2 cards burned under the pile.");
    /** @type {SlapEvent[]} */
    const give = [{ event: "slap", seat: 0, pile: 3, verdict: "wrong", pattern: null },
      { event: "burned", seat: 0, count: 1, to_seat: 1 }];
    assert.equal(describeMove(w, { events: give }, 0, name).line,
      "Your wrong slap: 1 card goes to Bob.");
    assert.equal(describeMove(w, { events: give }, 1, name).line,
      "Wrong slap by Ann: 1 card goes to you.");
    // a spectator, the replay: names only
    assert.equal(describeMove(w, { events: give }, null, name).line,
      "Wrong slap by Ann: 1 card goes to Bob.");
  });
  it("a wrong slap on one's own card (Slapjack): the card goes under one's own pile", () => {
    /** @type {SlapEvent[]} */
    const own = [{ event: "slap", seat: 0, pile: 3, verdict: "wrong", pattern: null },
      { event: "burned", seat: 0, count: 1, to_seat: 0 }];
    assert.equal(describeMove(w, { events: own }, 0, name).line,
      "Your wrong slap on your own card: 1 card goes to the bottom of your pile.");
    assert.equal(describeMove(w, { events: own }, 1, name).line,
      "Wrong slap by Ann on their own card: 1 card goes to the bottom of their pile.");
    assert.equal(describeMove(w, { events: own }, null, name).line,
      "Wrong slap by Ann on their own card: 1 card goes to the bottom of their pile.");
  });
  it("too late on its own: no penalty; ours is said, nothing else of ours is", () => {
    /** @type {SlapEvent[]} */
    const late = [{ event: "slap", seat: 0, pile: 12, verdict: "too_late", pattern: null }];
    assert.equal(describeMove(w, { events: late }, 0, name).line,
      "Too late: the pile was already taken. No penalty.");
    // another's late slap is said, but it is not the line (ours stays up)
    const theirs = describeMove(w, { events: late }, 1, name);
    assert.equal(theirs.line, null);
    assert.deepEqual(theirs.said, ["Ann slapped too late: the pile was gone. No penalty."]);
    /** @type {SlapEvent[]} */
    const early = [{ event: "slap", seat: 0, pile: 0, verdict: "empty_pile", pattern: null }];
    assert.equal(describeMove(w, { events: early }, 0, name).line, "Nothing to slap yet: no penalty.");
    assert.equal(describeMove(w, { events: early }, 1, name).line, null);
  });
  it("a card put down, and a trick taken", () => {
    /** @type {SlapEvent[]} */
    const events = [{ event: "card", number: 7, seat: 1, card: "7H", paid_for: "QS",
      pattern: null, owed: 0, owed_for: null, to_move: 0 },
    { event: "window", taker: 0, why: "trick" }];
    const d = describeMove(w, { events }, 0, name);
    assert.deepEqual(d.said, ["Bob puts down the seven of hearts."]);
    assert.equal(d.line, null);
    /** @type {SlapEvent[]} */
    const trick = [{ event: "taken", seat: 0, count: 7, why: "trick", trick: 3 }];
    assert.equal(describeMove(w, { events: trick }, 0, name).line, "You take the pile: 7 cards.");
    assert.equal(describeMove(w, { events: trick }, 1, name).line, "Ann takes the pile: 7 cards.");
  });
});

it("optionsText: the patterns, what a wrong slap costs, slapping in", () => {
  assert.deepEqual(optionsText(w, /** @type {never} */ ({ ...snapshot().game, ...ers })),
    ["Slap: double, sandwich.", "A wrong slap burns 1 card.", "Slapping in: yes."]);
  const slapjack = { ...snapshot().game, ...ers, patterns: ["jack"],
    options: { slap_in: false, card_limit: 10000 } };
  assert.deepEqual(optionsText(w, /** @type {never} */ (slapjack)),
    ["Slap: a jack on top.", "A wrong slap gives a card to the player of the top card.",
      "No slapping in."]);
  assert.deepEqual(optionsText(w, snapshot().game), []);
});

it("replaySteps: one step per card, with the slaps and takings after it (RULES 11.9)", () => {
  // `9C 9H 2C / QD 3D 4D`, slaps 3:1 (cardwar play --log --json, shortened)
  /** @type {SlapEvent[]} */
  const log = [
    { event: "card", number: 1, seat: 0, card: "9C", paid_for: null, pattern: null, owed: 0, owed_for: null, to_move: 1 },
    { event: "card", number: 2, seat: 1, card: "QD", paid_for: null, pattern: null, owed: 2, owed_for: "QD", to_move: 0 },
    { event: "card", number: 3, seat: 0, card: "9H", paid_for: "QD", pattern: "sandwich", owed: 1, owed_for: "QD", to_move: 0 },
    { event: "slap", seat: 1, pile: 3, verdict: "valid", pattern: "sandwich" },
    { event: "taken", seat: 1, cards: ["9C", "QD", "9H"], why: "slap", trick: null },
    { event: "card", number: 4, seat: 1, card: "3D", paid_for: null, pattern: null, owed: 0, owed_for: null, to_move: 0 },
    { event: "slap", seat: 0, pile: 4, verdict: "wrong", pattern: null },
    { event: "burned", seat: 0, cards: ["2C"], to_seat: null },
    { event: "out", seat: 0, cards_played: 4 },
  ];
  const steps = replaySteps(log, [3, 3]);
  assert.equal(steps.length, 5);
  assert.deepEqual(steps[3].counts, [1, 5]);
  assert.equal(steps[3].pile, 0);
  assert.deepEqual(steps[3].top, []);
  assert.equal(steps[3].events.length, 3);
  assert.deepEqual(steps[3].taken, { seat: 1, top: ["9C", "QD", "9H"] });
  assert.equal(steps[4].taken, null);
  assert.deepEqual(steps[2].top, ["9C", "QD"]);
  assert.deepEqual(steps[4].counts, [0, 4]);
  assert.equal(steps[4].pile, 2);  // 3D and the burned 2C
  assert.deepEqual(steps[4].in_play, [false, true]);
  // every card is somewhere at every step
  steps.forEach((st) => assert.equal(st.counts[0] + st.counts[1] + st.pile, 6));
});

it("withFigures: the record's slaps get their figures, the slower ones come back", () => {
  /** @type {SlapEvent[]} */
  const log = [
    { event: "card", number: 2, seat: 1, card: "2D", paid_for: null, pattern: "double", owed: 0, owed_for: null, to_move: 0 },
    { event: "slap", seat: 1, pile: 2, verdict: "valid", pattern: "double" },
    { event: "taken", seat: 1, cards: ["2C", "2D"], why: "slap", trick: null },
    { event: "card", number: 3, seat: 1, card: "4H", paid_for: null, pattern: null, owed: 0, owed_for: null, to_move: 0 },
  ];
  const judged = [
    { seat: 1, pile: 2, at: 2, verdict: "valid", sent: 10, arrived: 330, latency: 10, reaction: 300, computer: false },
    { seat: 0, pile: 2, at: 2, verdict: "too_late", sent: 12, arrived: 400, latency: 4, reaction: 380, computer: false },
  ];
  const full = withFigures(log, judged);
  assert.equal(full.length, 5);
  assert.equal(full[3].event, "slap");
  const steps = replaySteps(full, [2, 2]);
  const seats = snapshot().seats;
  const name = (/** @type {number} */ seat) => w.seatName(seats, seat);
  assert.equal(describeMove(w, { events: steps[1].events }, null, name).line,
    "Bob slapped the double first: 300\u00a0ms against Ann (380\u00a0ms). Bob takes the pile: 2 cards.");
  assert.deepEqual(withFigures(log, []), log);  // an old record: no figures, nothing added
});

it("describeMove: a reaction below zero (the latency over-estimated) reads 0 ms", () => {
  /** @type {SlapEvent[]} */
  const log = [
    { event: "card", number: 2, seat: 1, card: "2D", paid_for: null, pattern: "double", owed: 0, owed_for: null, to_move: 0 },
    { event: "slap", seat: 1, pile: 2, verdict: "valid", pattern: "double" },
    { event: "taken", seat: 1, cards: ["2C", "2D"], why: "slap", trick: null },
  ];
  const judged = [
    { seat: 1, pile: 2, at: 2, verdict: "valid", sent: 10, arrived: 17, latency: 5, reaction: -3, computer: false },
    { seat: 0, pile: 2, at: 2, verdict: "too_late", sent: 12, arrived: 19, latency: 4, reaction: -1, computer: false },
  ];
  const steps = replaySteps(withFigures(log, judged), [2, 2]);
  const seats = snapshot().seats;
  const name = (/** @type {number} */ seat) => w.seatName(seats, seat);
  assert.equal(describeMove(w, { events: steps[1].events }, null, name).line,
    "Bob slapped the double first: 0\u00a0ms against Ann (0\u00a0ms). Bob takes the pile: 2 cards.");
});

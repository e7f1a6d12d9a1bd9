// Reactions in the reducer (state.js), the sound cues (sound.js) and the shared
// result's words (words.js). Run with `node --test tests/js/` (`make jstest`).

import assert from "node:assert/strict";
import { describe, it } from "node:test";

import { cue } from "../../cardwar/web/static/play/sound.js";
import {
  nextExpiry, reactionsOf, reduce, REACTION_MS, REFUSED_MS, SPECTATOR_REACTIONS,
} from "../../cardwar/web/static/play/state.js";
import { makeWords } from "../../cardwar/web/static/play/words.js";
import { battle, deepFreeze, peaceBattle, snapshot } from "./fixtures.js";

/** @typedef {import("../../cardwar/web/static/play/state.js").State} State */
/** @typedef {import("../../cardwar/web/static/play/state.js").Action} Action */
/** @typedef {import("../../cardwar/web/static/play/messages.js").ReactionKey} ReactionKey */

const NOW = 50_000;

/**
 * `actions` applied in turn at `now` (each state frozen: the reducer may not change it).
 * @param {State | null} start
 * @param {number} now
 * @param {...Action} actions
 * @returns {State}
 */
function at(start, now, ...actions) {
  let s = deepFreeze(start);
  for (const a of actions) s = deepFreeze(reduce(s, deepFreeze(a), now));
  assert.ok(s, "a state");
  return s;
}

/** @param {Parameters<typeof snapshot>[0]} [o] */
const playing = (o) => at(null, NOW, snapshot(o));

/**
 * @param {number | null} seat
 * @param {ReactionKey} key
 * @returns {Action}
 */
const reaction = (seat, key) => ({ type: "reaction", seq: null, seat, key });

describe("reactions", () => {
  it("are shown next to their seat for a while, then taken down", () => {
    const s = at(playing(), NOW, reaction(1, "gg"));
    assert.deepEqual(reactionsOf(s, 1, NOW), [{ seat: 1, key: "gg", until: NOW + REACTION_MS, n: 1 }]);
    assert.deepEqual(reactionsOf(s, 0, NOW), []);
    assert.equal(nextExpiry(s), NOW + REACTION_MS);
    // still there a moment before; gone once the time is up
    assert.equal(at(s, NOW + REACTION_MS - 1, { type: "local:expire" }), s);
    const later = at(s, NOW + REACTION_MS, { type: "local:expire" });
    assert.deepEqual(later.reactions, []);
    assert.equal(nextExpiry(later), null);
  });

  it("keep only a seat's newest one", () => {
    const s = at(playing(), NOW, reaction(1, "gg"), reaction(0, "clap"), reaction(1, "again"));
    assert.deepEqual(reactionsOf(s, 1, NOW).map((r) => r.key), ["again"]);
    assert.deepEqual(reactionsOf(s, 0, NOW).map((r) => r.key), ["clap"]);
    assert.equal(s.reacted, 3);
  });

  it("of spectators are kept apart, a few at a time", () => {
    let s = playing();
    const keys = /** @type {ReactionKey[]} */ (["wow", "laugh", "sad", "dove", "clap"]);
    for (const key of keys) s = at(s, NOW, reaction(null, key));
    const theirs = reactionsOf(s, null, NOW).map((r) => r.key);
    assert.equal(theirs.length, SPECTATOR_REACTIONS);
    assert.deepEqual(theirs, keys.slice(-SPECTATOR_REACTIONS));
    assert.deepEqual(reactionsOf(s, 0, NOW), []);
  });

  it("of the others are hidden once muted (our own still show), and stay hidden", () => {
    const s = at(playing(), NOW, reaction(1, "gg"), reaction(null, "wow"), reaction(0, "clap"),
      { type: "local:mute", on: true });
    assert.deepEqual(s.reactions.map((r) => r.key), ["clap"]);
    const after = at(s, NOW, reaction(1, "laugh"), reaction(null, "sad"));
    assert.equal(after, s);  // nothing new shown
    assert.deepEqual(at(after, NOW, reaction(0, "again")).reactions.map((r) => r.key), ["again"]);
    // a new snapshot (a reconnection) keeps the choice and what is on show
    const resynced = at(after, NOW + 10, snapshot());
    assert.equal(resynced.muted, true);
    assert.deepEqual(resynced.reactions.map((r) => r.key), ["clap"]);
    const unmuted = at(resynced, NOW, { type: "local:mute", on: false }, reaction(1, "gg"));
    assert.deepEqual(reactionsOf(unmuted, 1, NOW).map((r) => r.key), ["gg"]);
  });

  it("refused is said for a moment, not in the status line", () => {
    const s = at(playing(), NOW, { type: "error", seq: null, code: "too_many_reactions" });
    assert.equal(s.refused, NOW + REFUSED_MS);
    assert.equal(s.error, null);
    assert.equal(nextExpiry(s), NOW + REFUSED_MS);
    assert.equal(at(s, NOW + REFUSED_MS, { type: "local:expire" }).refused, 0);
  });

  it("change nothing else, and count for nothing in seq", () => {
    const s = playing({ seq: 9 });
    const after = at(s, NOW, reaction(1, "tie"));
    assert.equal(after.seq, 9);
    assert.equal(after.game, s.game);
    assert.equal(after.seats, s.seats);
  });
});

describe("sound cues", () => {
  const s = playing();
  it("a flip: ours at once, the others' as they come, not our own echo", () => {
    assert.equal(cue(s, { type: "local:flip" }), "flip");
    assert.equal(cue(s, { type: "flipped", seq: 5, seat: 1, battle: 1 }), "flip");
    assert.equal(cue(s, { type: "flipped", seq: 5, seat: 0, battle: 1 }), null);
  });
  it("a battle: out before peace before our win; nothing for the others' pot", () => {
    assert.equal(cue(s, battle(5, 1)), "win");
    assert.equal(cue(s, battle(5, 1, { winner: 1 })), null);
    assert.equal(cue(s, peaceBattle(5, 1)), "peace");
    assert.equal(cue(s, battle(5, 1, { out: [1], winner: 0 })), "out");
    assert.equal(cue(playing({ you: null }), battle(5, 1)), null);  // a spectator wins nothing
  });
  it("the end; nothing for the rest", () => {
    const over = /** @type {Action} */ ({ type: "over", seq: 9, outcome: "win", reason: "all_cards",
      winner: 0, battles: 3, final_counts: [52, 0], eliminated: { 1: 3 }, seed: null,
      hands: "x", command: "cardwar play" });
    assert.equal(cue(s, over), "end");
    assert.equal(cue(s, reaction(1, "gg")), null);
    assert.equal(cue(s, { type: "watchers", seq: null, count: 2 }), null);
  });
});

describe("the shared result", () => {
  const forms = (/** @type {string} */ one, /** @type {string} */ other) => ({ one, other });
  const S = /** @type {import("../../cardwar/web/static/play/words.js").Strings} */ (
    /** @type {unknown} */ ({
      game_name: "Peace", seat: "Seat {n}", computer_name: "Computer {n}",
      share_won_me: forms("I won a game of {game} in {count} battle!",
        "I won a game of {game} in {count} battles!"),
      share_won: forms("{name} won a game of {game} in {count} battle.",
        "{name} won a game of {game} in {count} battles."),
      share_draw: forms("A draw after {count} battle.", "A draw after {count} battles."),
    }));
  const w = makeWords(S, "en");
  const seats = snapshot().seats;
  /** @param {Partial<import("../../cardwar/web/static/play/messages.js").Result>} o */
  const result = (o) => ({ outcome: /** @type {"win"} */ ("win"), reason: "all_cards",
    winner: 1, battles: 1234, final_counts: [0, 52], eliminated: {}, seed: null, hands: null,
    command: "", ...o });
  it("says who won from the reader's side, with the battles in the locale's digits", () => {
    assert.equal(w.shareText(result({}), seats, 1), "I won a game of Peace in 1,234 battles!");
    assert.equal(w.shareText(result({}), seats, 0), "Bob won a game of Peace in 1,234 battles.");
    assert.equal(w.shareText(result({}), seats, null), "Bob won a game of Peace in 1,234 battles.");
    assert.equal(w.shareText(result({ battles: 1 }), seats, 1), "I won a game of Peace in 1 battle!");
    assert.equal(w.shareText(result({ outcome: "draw", winner: null, battles: 1000 }), seats, 0),
      "A draw after 1,000 battles.");
  });
});

describe("the open tables list", async () => {
  const { applyListing } = await import("../../cardwar/web/static/play/tables.js");
  /** @param {string} id @param {number} waiting @param {number} [expires] */
  const table = (id, waiting, expires = 600) => ({ id, variant: "peace", players: 2, seated: 1,
    free: 1, locale: "it", waiting, expires });
  it("lists the newest first, follows changes, and drops a table once its time is up", () => {
    let list = applyListing([], { type: "tables", seq: null,
      tables: [table("old", 300), table("new", 10, 5)] }, NOW);
    assert.deepEqual(list.map((t) => t.id), ["new", "old"]);
    assert.equal(list[1].since, NOW - 300_000);
    list = applyListing(list, { type: "listed", seq: null, table: { ...table("old", 301), free: 2 } },
      NOW + 1000);
    assert.deepEqual(list.map((t) => [t.id, t.free]), [["new", 1], ["old", 2]]);
    list = applyListing(list, { type: "listed", seq: null, table: table("newest", 0) }, NOW + 1000);
    assert.deepEqual(list.map((t) => t.id), ["newest", "new", "old"]);
    const same = applyListing(list, { type: "unlisted", seq: null, id: "nope" }, NOW + 1000);
    assert.equal(same, list);
    list = applyListing(list, { type: "unlisted", seq: null, id: "old" }, NOW + 1000);
    assert.deepEqual(list.map((t) => t.id), ["newest", "new"]);
    list = applyListing(list, { type: "local:tick" }, NOW + 5000);  // "new" expires
    assert.deepEqual(list.map((t) => t.id), ["newest"]);
  });
});

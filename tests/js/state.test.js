// The game page's reducer (cardwar/web/static/play/state.js): every message the
// server sends, the page's own actions, reconnection and repeated events.
// Run with `node --test tests/js/` (`make jstest`).

import assert from "node:assert/strict";
import { describe, it } from "node:test";

import {
  canFinish, canFlip, canLeave, canSkip, canTakeBack, dealt, gamePace, idleLeft, idleSeats, isCreator, placings,
  reduce, shownCounts,
} from "../../cardwar/web/static/play/state.js";
import { battle, deepFreeze, peaceBattle, snapshot } from "./fixtures.js";

/** @typedef {import("../../cardwar/web/static/play/state.js").State} State */
/** @typedef {import("../../cardwar/web/static/play/state.js").Action} Action */
/** @typedef {import("../../cardwar/web/static/play/messages.js").Seat} Seat */

const NOW = 50_000;

/**
 * The state after `actions`, from `start` (frozen first: the reducer may not change it).
 * @param {State | null} start
 * @param {...Action} actions
 * @returns {State}
 */
function apply(start, ...actions) {
  let s = deepFreeze(start);
  for (const a of actions) s = deepFreeze(reduce(s, deepFreeze(a), NOW));
  assert.ok(s, "a state");
  return s;
}

/** @param {Parameters<typeof snapshot>[0]} [o] */
const playing = (o) => apply(null, snapshot(o));
/** @param {Parameters<typeof snapshot>[0]} [o] */
const lobby = (o) => apply(null, snapshot({
  ...o, game: { status: "lobby", counts: [0, 0], ...o?.game },
  seats: o?.seats ?? [
    { seat: 0, kind: "human", nickname: "Ann", online: true, auto_flip: false, gone: false },
    { seat: 1, kind: "open", nickname: null, online: false, auto_flip: false, gone: false },
  ] }));

describe("state: the snapshot", () => {
  it("makes the first state; nothing else does", () => {
    for (const m of [battle(5, 1), { type: "watchers", seq: null, count: 2 },
      { type: "error", seq: null, code: "bad_message" }, { type: "local:lost" }]) {
      assert.equal(reduce(null, /** @type {Action} */ (m), NOW), null, m.type);
    }
    const s = playing({ seq: 7, idle: 3.5, watchers: 2 });
    assert.equal(s.seq, 7);
    assert.equal(s.you, 0);
    assert.equal(s.watchers, 2);
    assert.deepEqual(s.idle, { battle: 1, deadline: NOW + 3500 });
    assert.equal(s.revealed, true);  // a battle in a snapshot is shown as it ended
    assert.equal(s.stale, false);
    assert.equal(s.pending, false);
    assert.equal(s.error, null);
  });

  it("replaces everything, whatever the page had (a resync)", () => {
    const s = apply(playing(), { type: "local:flip" }, { type: "local:lost" },
      { type: "error", seq: null, code: "not_playing" }, battle(5, 1));
    const fresh = apply(s, snapshot({ seq: 3, game: { battle: 0 } }));
    assert.equal(fresh.seq, 3);
    assert.equal(fresh.game.battle, 0);
    assert.equal(fresh.last, null);
    assert.deepEqual([fresh.stale, fresh.pending, fresh.error], [false, false, null]);
    assert.deepEqual(fresh.game.flipped, []);
  });

  it("without an idle clock has none", () => {
    assert.equal(playing({ idle: null }).idle, null);
  });
});

describe("state: lobby messages", () => {
  it("joined: a human takes an open seat, offline until a presence says otherwise", () => {
    const s = apply(lobby(), { type: "joined", seq: 5, seat: 1, kind: "human", nickname: "Bob" });
    assert.deepEqual(s.seats[1], { seat: 1, kind: "human", nickname: "Bob", online: false,
      auto_flip: false, gone: false, number: 2 });
    assert.equal(s.seq, 5);
    assert.equal(s.game.creator, 0);  // no creator in the event: unchanged
  });

  it("joined: a computer is online; a reserved seat names its player; the creator moves", () => {
    let s = apply(lobby(), { type: "joined", seq: 5, seat: 1, kind: "computer", nickname: null });
    assert.equal(s.seats[1].online, true);
    s = apply(lobby(), { type: "joined", seq: 5, seat: 1, kind: "reserved", nickname: "Bob",
      creator: 1 });
    assert.equal(s.seats[1].kind, "reserved");
    assert.equal(s.seats[1].nickname, "Bob");
    assert.equal(s.game.creator, 1);
  });

  it("joined: a seat that was online (presence came first) stays online", () => {
    const s = apply(lobby(), { type: "presence", seq: null, seat: 1, online: true },
      { type: "joined", seq: 5, seat: 1, kind: "human", nickname: "Bob" });
    assert.equal(s.seats[1].online, true);
  });

  it("started: playing with the dealt counts, nobody flipped", () => {
    const s = apply(lobby({ game: { flipped: [1] } }),
      { type: "started", seq: 5, counts: [26, 26] });
    assert.equal(s.game.status, "playing");
    assert.deepEqual(s.game.counts, [26, 26]);
    assert.deepEqual(s.game.flipped, []);
  });
});

describe("state: the seating drawn at the start (RULES.md 9)", () => {
  it("started: seats, ours, the creator and shown reactions go by table seat", () => {
    const three = [
      { seat: 0, kind: "human", nickname: "Ann", online: true, auto_flip: false, gone: false },
      { seat: 1, kind: "human", nickname: "Bob", online: false, auto_flip: false, gone: false },
      { seat: 2, kind: "computer", nickname: null, online: true, auto_flip: false, gone: false },
    ];
    const before = apply(lobby({ seats: /** @type {Seat[]} */ (three),
      game: { players: 3, counts: [0, 0, 0] } }),
    { type: "reaction", seq: null, seat: 0, key: "clap" });
    const s = apply(before, { type: "started", seq: 5, counts: [17, 17, 17], seating: [1, 2, 0] });
    assert.deepEqual(s.seats.map((x) => [x.seat, x.nickname, x.kind, x.online]),
      [[0, "Bob", "human", false], [1, null, "computer", true], [2, "Ann", "human", true]]);
    assert.equal(s.you, 2);  // Ann, the creator, was drawn to table seat 2
    assert.equal(s.game.creator, 2);  // still Ann, the creator, wherever she sits
    assert.deepEqual(s.game.seating, [1, 2, 0]);
    assert.deepEqual(s.reactions.map((r) => r.seat), [2]);
  });

  it("started without a seating (a stacked deal): the lobby's order", () => {
    const s = apply(lobby(), { type: "started", seq: 5, counts: [26, 26] });
    assert.deepEqual(s.seats.map((x) => x.nickname), ["Ann", null]);
    assert.equal(s.you, 0);
  });
});

describe("state: seats", () => {
  it("presence, gone, auto_flip and handed change one seat", () => {
    const s0 = playing();
    let s = apply(s0, { type: "presence", seq: null, seat: 1, online: false });
    assert.equal(s.seats[1].online, false);
    assert.equal(s.seats[0], s0.seats[0]);  // the other seat is untouched
    s = apply(s, { type: "gone", seq: null, seat: 1, gone: true });
    assert.equal(s.seats[1].gone, true);
    s = apply(s, { type: "auto_flip", seq: 5, seat: 0, on: true });
    assert.equal(s.seats[0].auto_flip, true);
    s = apply(s, { type: "handed", seq: 6, seat: 1 });
    assert.deepEqual([s.seats[1].kind, s.seats[1].gone, s.seats[1].online],
      ["computer", false, true]);
    assert.equal(s.seats[1].nickname, "Bob");
    assert.equal(s.seq, 6);
  });

  it("relinked: counted, nothing else (the old link's socket is closed by the server)", () => {
    const s0 = playing();
    const s = apply(s0, { type: "relinked", seq: 5, seat: 0 });
    assert.equal(s.seq, 5);
    assert.deepEqual({ ...s, seq: s0.seq }, s0);
  });

  it("watchers: the count, and the end of a catch-up: fresh again", () => {
    const s = apply(playing(), { type: "local:lost" }, { type: "watchers", seq: null, count: 3 });
    assert.equal(s.watchers, 3);
    assert.equal(s.stale, false);
  });
});

describe("state: flips and battles", () => {
  it("flipped: marks the seat once", () => {
    const f = /** @type {const} */ ({ type: "flipped", seq: 5, seat: 1, battle: 1, by: "player" });
    const s = apply(playing(), f);
    assert.deepEqual(s.game.flipped, [1]);
    assert.deepEqual(apply(s, { ...f, seq: 6 }).game.flipped, [1]);
  });

  it("battle: counts, the battle number, nobody flipped, shown on the table", () => {
    const b = battle(5, 1);
    const s = apply(playing({ game: { flipped: [1] }, idle: 4 }), b);
    assert.equal(s.game.battle, 1);
    assert.deepEqual(s.game.counts, [27, 25]);
    assert.deepEqual(s.game.flipped, []);
    assert.equal(s.last, b);
    assert.equal(s.revealed, true);  // no face-down cards to turn
    assert.equal(s.idle, null);
    assert.equal(s.seq, 5);
  });

  it("battle: a peace's result waits for its face-down cards (shownCounts)", () => {
    const before = playing();
    const counts = before.game.counts;
    let s = apply(before, peaceBattle(5, 1));
    assert.deepEqual(s.game.counts, [19, 33]);  // the game knows
    assert.deepEqual(shownCounts(s), counts);  // the table does not tell yet
    assert.notDeepEqual(counts, [19, 33]);
    s = apply(s, { type: "local:reveal", battle: 1 });
    assert.deepEqual(shownCounts(s), [19, 33]);
    s = apply(s, battle(6, 2, { counts: [20, 32] }));  // a plain battle: at once
    assert.deepEqual(shownCounts(s), [20, 32]);
  });

  it("battle: a peace's face-down cards are turned later (local:reveal, that battle only)", () => {
    let s = apply(playing(), peaceBattle(5, 1));
    assert.equal(s.revealed, false);
    assert.equal(apply(s, { type: "local:reveal", battle: 2 }), s);
    s = apply(s, { type: "local:reveal", battle: 1 });
    assert.equal(s.revealed, true);
    assert.equal(apply(s, { type: "local:reveal", battle: 1 }), s);
  });

  it("local:taken: the pot of that battle stays picked up, whatever draws the table next", () => {
    let s = apply(playing(), peaceBattle(5, 1), { type: "local:reveal", battle: 1 });
    assert.equal(apply(s, { type: "local:taken", battle: 2, still: false }), s);  // not shown
    s = apply(s, { type: "local:taken", battle: 1, still: false });
    assert.deepEqual(s.taken, { battle: 1, still: false });
    // a flip of the next battle changes the table, not the pot picked up
    s = apply(s, { type: "flipped", seq: 6, seat: 1, battle: 2, by: "computer" });
    assert.deepEqual(s.taken, { battle: 1, still: false });
    // a snapshot (a resync) of the same battle keeps it picked up
    assert.deepEqual(apply(s, snapshot({ seq: 7 })).taken, s.taken);
    s = apply(s, battle(7, 2));  // the next battle is drawn in full
    assert.notEqual(s.taken && s.taken.battle, s.last && s.last.battle);
  });

  it("battle: who is in play comes with it, or (a replay's log) from who went out", () => {
    const three = { game: { players: 3, counts: [20, 20, 12], in_play: [true, true, true] } };
    let s = apply(playing(three), battle(5, 1, { in_play: [true, false, true], out: [1] }));
    assert.deepEqual(s.game.in_play, [true, false, true]);
    const logged = battle(5, 1, { out: [2] });
    delete logged.in_play;
    s = apply(playing(three), logged);
    assert.deepEqual(s.game.in_play, [true, true, false]);
  });

  it("over: the result, the clock stops", () => {
    /** @type {import("../../cardwar/web/static/play/messages.js").OverMessage} */
    const over = {
      type: "over", seq: 9, outcome: "win", reason: "all_cards", winner: 0, battles: 4,
      final_counts: [52, 0], eliminated: { 1: 4 }, seed: "ab".repeat(32), hands: null,
      command: "cardwar play --seed x",
    };
    const s = apply(playing({ idle: 3 }), over);
    assert.equal(s.game.status, "over");
    assert.equal(s.result, over);
    assert.equal(s.idle, null);
  });
});

describe("state: our own flip", () => {
  it("local:flip: flipped at once, pending until the server's flipped", () => {
    let s = apply(playing(), { type: "local:flip" });
    assert.deepEqual(s.game.flipped, [0]);
    assert.equal(s.pending, true);
    assert.equal(canFlip(s), false);
    assert.equal(apply(s, { type: "local:flip" }), s);  // once
    s = apply(s, { type: "flipped", seq: 5, seat: 0, battle: 1, by: "player" });
    assert.deepEqual(s.game.flipped, [0]);
    assert.equal(s.pending, false);
  });

  it("local:flip: only a seated player in play, while playing and connected", () => {
    const cases = [
      playing({ you: null }), lobby(), playing({ game: { status: "over" } }),
      playing({ game: { in_play: [false, true] } }), playing({ game: { flipped: [0] } }),
      apply(playing(), { type: "local:lost" }),
    ];
    for (const s of cases) {
      assert.equal(canFlip(s), false);
      assert.equal(apply(s, { type: "local:flip" }), s);
    }
    assert.equal(canFlip(null), false);
    assert.equal(canFlip(playing()), true);
  });

  it("error: a flip refused as too fast, not understood or not saved can be made again", () => {
    for (const code of ["rate_limited", "bad_message", "unavailable"]) {
      const s = apply(playing(), { type: "local:flip" }, { type: "error", seq: null, code });
      assert.deepEqual(s.game.flipped, []);
      assert.equal(s.pending, false);
      assert.equal(s.error, code);
      assert.equal(canFlip(s), true);
    }
  });

  it("error: other refusals keep the flip and only say why", () => {
    const s = apply(playing(), { type: "local:flip" },
      { type: "error", seq: null, code: "not_playing" });
    assert.deepEqual(s.game.flipped, [0]);
    assert.equal(s.pending, true);
    assert.equal(s.error, "not_playing");
    const unsent = apply(playing(), { type: "error", seq: null, code: "rate_limited" });
    assert.deepEqual(unsent.game.flipped, []);
  });

  it("away and already flipped for: the pile takes the seat back, the card stays", () => {
    const away = apply(playing(), { type: "gone", seq: null, seat: 0, gone: true },
      { type: "flipped", seq: 5, seat: 0, battle: 1, by: "gone" });
    assert.equal(canFlip(away), false);  // nothing left to flip in this battle
    assert.equal(canTakeBack(away), true);  // but a tap says we are here
    assert.equal(apply(away, { type: "local:flip" }), away);  // no second card
    // the server takes the seat back: our flip of this battle is still shown
    const back = apply(away, { type: "gone", seq: null, seat: 0, gone: false });
    assert.equal(canTakeBack(back), false);
    assert.deepEqual(back.game.flipped, [0]);
    // not away, not flipped yet, out, a spectator, disconnected, over: nothing to take back
    const cases = [
      apply(playing(), { type: "flipped", seq: 5, seat: 0, battle: 1, by: "player" }),
      apply(playing(), { type: "gone", seq: null, seat: 0, gone: true }),
      apply(playing({ game: { in_play: [false, true], flipped: [0] } }),
        { type: "gone", seq: null, seat: 0, gone: true }),
      apply(away, { type: "local:lost" }),
      apply(playing({ game: { status: "over", flipped: [0] } }),
        { type: "gone", seq: null, seat: 0, gone: true }),
      playing({ you: null, game: { flipped: [0] } }),
    ];
    for (const s of cases) assert.equal(canTakeBack(s), false);
    assert.equal(canTakeBack(null), false);
  });

  it("battle: confirms a pending flip (its flipped may have been missed)", () => {
    const s = apply(playing(), { type: "local:flip" }, battle(5, 1));
    assert.equal(s.pending, false);
    assert.deepEqual(s.game.flipped, []);
  });
});

describe("state: reconnecting", () => {
  it("local:lost: stale until the catch-up ends (watchers) or a new state", () => {
    const s0 = playing();
    const s = apply(s0, { type: "local:lost" });
    assert.equal(s.stale, true);
    assert.equal(apply(s, { type: "local:lost" }), s);
    assert.equal(apply(s, snapshot()).stale, false);
  });

  it("local:retry: an unconfirmed flip is dropped; the catch-up restores it if it arrived", () => {
    const sent = apply(playing({ seq: 4 }), { type: "local:flip" }, { type: "local:lost" });
    const retry = apply(sent, { type: "local:retry" });
    assert.deepEqual(retry.game.flipped, []);
    assert.equal(retry.pending, false);
    // it did arrive: the catch-up (events after seq 4, presence, watchers) says so
    const caught = apply(retry, { type: "flipped", seq: 5, seat: 0, battle: 1, by: "player" },
      { type: "presence", seq: null, seat: 1, online: true },
      { type: "gone", seq: null, seat: 1, gone: false },
      { type: "watchers", seq: null, count: 0 });
    assert.deepEqual(caught.game.flipped, [0]);
    assert.equal(caught.stale, false);
    assert.equal(canFlip(caught), false);
    // it did not: the pile can be flipped again once the catch-up is over
    const lost = apply(retry, { type: "watchers", seq: null, count: 0 });
    assert.equal(canFlip(lost), true);
  });

  it("local:retry without a pending flip changes nothing", () => {
    const s = apply(playing(), { type: "local:lost" });
    assert.equal(apply(s, { type: "local:retry" }), s);
  });

  it("a catch-up that overlaps what the page has applies each event once", () => {
    const events = [
      /** @type {const} */ ({ type: "flipped", seq: 5, seat: 1, battle: 1, by: "player" }),
      /** @type {const} */ ({ type: "flipped", seq: 6, seat: 0, battle: 1, by: "player" }),
      battle(7, 1),
      /** @type {const} */ ({ type: "flipped", seq: 8, seat: 1, battle: 2, by: "player" }),
    ];
    const once = apply(playing(), ...events);
    const again = apply(playing(), ...events.slice(0, 3), { type: "local:lost" },
      { type: "local:retry" }, ...events.slice(1), { type: "watchers", seq: null, count: 0 });
    assert.deepEqual(again, once);
    assert.equal(once.seq, 8);
    assert.equal(once.game.battle, 1);
    assert.deepEqual(once.game.flipped, [1]);
  });
});

describe("state: repeated events", () => {
  it("a numbered message seen already gives back the same state", () => {
    const s = apply(playing({ seq: 4 }), battle(5, 1));
    /** @type {Action[]} */
    const seen = [battle(5, 1), battle(3, 1, { counts: [0, 52] }),
      { type: "joined", seq: 4, seat: 1, kind: "computer", nickname: null },
      { type: "over", seq: 2, outcome: "draw", reason: "cycle", winner: null, battles: 1,
        final_counts: [26, 26], eliminated: {}, seed: null, hands: null, command: null }];
    for (const m of seen) assert.equal(reduce(s, m, NOW), s, m.type);
  });

  it("heartbeats change nothing", () => {
    const s = playing();
    assert.equal(reduce(s, { type: "ping", seq: null }, NOW), s);
    assert.equal(reduce(s, { type: "pong", seq: null }, NOW), s);
  });

  it("a numbered message of a type this page does not know is counted, nothing else", () => {
    const s0 = playing({ seq: 4 });
    const s = apply(s0, /** @type {Action} */ (/** @type {unknown} */ ({ type: "later", seq: 5 })));
    assert.equal(s.seq, 5);
    assert.deepEqual({ ...s, seq: 4 }, s0);
  });
});

describe("state: rematch and the idle clock", () => {
  it("rematch: the new game and who offered it (kept from the snapshot when unsaid)", () => {
    const over = { game: { status: /** @type {const} */ ("over") } };
    let s = apply(playing(over), { type: "rematch", seq: 9, game: "NewGame000000000", by: 1 });
    assert.equal(s.game.rematch, "NewGame000000000");
    assert.equal(s.game.rematch_by, 1);
    s = apply(playing({ game: { status: "over", rematch_by: 1 } }),
      { type: "rematch", seq: 9, game: "NewGame000000000", by: null });
    assert.equal(s.game.rematch_by, 1);
  });

  it("idle: the clock of the coming battle, in whole seconds left", () => {
    const s = apply(playing(), { type: "flipped", seq: 5, seat: 1, battle: 1, by: "player" },
      { type: "idle", seq: null, battle: 1, left: 7.5 });
    assert.deepEqual(s.idle, { battle: 1, deadline: NOW + 7500 });
    assert.deepEqual(idleSeats(s), [0]);
    assert.equal(idleLeft(s, NOW), 8);
    assert.equal(idleLeft(s, NOW + 7000), 1);
    assert.equal(idleLeft(s, NOW + 9000), 0);
    assert.equal(apply(s, { type: "idle", seq: null, battle: 1, left: null }).idle, null);
  });

  it("idle: not shown for another battle, once played, or when nobody is waited for", () => {
    const s = apply(playing(), { type: "idle", seq: null, battle: 1, left: 5 });
    assert.equal(idleLeft(s, NOW), 5);
    assert.equal(idleLeft(apply(s, { type: "idle", seq: null, battle: 2, left: 5 }), NOW), null);
    assert.equal(idleLeft(apply(s, battle(5, 1)), NOW), null);
    const auto = apply(s, { type: "auto_flip", seq: 5, seat: 0, on: true },
      { type: "flipped", seq: 6, seat: 1, battle: 1, by: "player" });
    assert.deepEqual(idleSeats(auto), []);
    assert.equal(idleLeft(auto, NOW), null);
  });

  it("isCreator: only the seat that may start", () => {
    assert.equal(isCreator(lobby()), true);
    assert.equal(isCreator(lobby({ you: 1 })), false);
    assert.equal(isCreator(lobby({ you: null })), false);
  });
});

describe("state: the replay applies the logged battles", () => {
  it("from the deal to the end, as the game page saw them", () => {
    const seats = [{ seat: 0, kind: /** @type {const} */ ("human"), nickname: "Ann" },
      { seat: 1, kind: /** @type {const} */ ("computer"), nickname: null },
      { seat: 2, kind: /** @type {const} */ ("human"), nickname: "Cy" }];
    const start = dealt({ seats, start_counts: [17, 17, 17], tie_word: "PEACE",
      battle_limit: 1000 });
    assert.deepEqual(start.game.in_play, [true, true, true]);
    assert.equal(start.seats[1].kind, "computer");
    const log = [
      battle(0, 1, { face_up: ["2C", "9H", "KD"], counts: [20, 16, 15] }),
      { ...peaceBattle(0, 2), face_up: ["5C", "5D", "KD"], counts: [10, 28, 13] },
      battle(0, 3, { face_up: ["4C", "3H", "AD"], winner: 1, counts: [19, 32, 0], out: [2] }),
    ].map(({ in_play: _, ...b }, i) => ({ ...b, seq: i + 1 }));
    const peace = apply(start, log[0], log[1]);
    assert.equal(peace.revealed, false);  // the replay turns them at once: local:reveal
    assert.equal(apply(peace, { type: "local:reveal", battle: 2 }).revealed, true);
    const end = apply(start, ...log);
    assert.equal(end.game.battle, 3);
    assert.deepEqual(end.game.counts, [19, 32, 0]);
    assert.deepEqual(end.game.in_play, [true, true, false]);
    assert.equal(end.last?.winner, 1);
  });
});

describe("state: placings (RULES.md 7)", () => {
  /** @param {Partial<import("../../cardwar/web/static/play/messages.js").Result>} o */
  const result = (o) => /** @type {import("../../cardwar/web/static/play/messages.js").Result} */ ({
    outcome: "win", reason: "all_cards", winner: 0, battles: 9, final_counts: [52, 0, 0, 0],
    eliminated: {}, seed: null, hands: null, command: null, ...o });

  it("players who go out in the same battle share a placing", () => {
    const r = result({ eliminated: { 1: 9, 2: 4, 3: 4 } });
    assert.deepEqual(placings(r), [{ seat: 0, place: 1 }, { seat: 1, place: 2 },
      { seat: 2, place: 3 }, { seat: 3, place: 3 }]);
  });

  it("a draw: the players still in play share the first place", () => {
    const r = result({ outcome: "draw", reason: "battle_limit", winner: null,
      final_counts: [20, 0, 12, 20], eliminated: { 1: 300 } });
    assert.deepEqual(placings(r).map((p) => [p.seat, p.place]), [[0, 1], [2, 1], [3, 1], [1, 4]]);
  });
});

describe("state: pace, fast-forward and leaving", () => {
  it("pace sets a seat's pace; left gives the seat to the computer and moves the creator", () => {
    let s = apply(playing(), { type: "pace", seq: 5, seat: 1, pace: "fast" });
    assert.equal(s.seats[1].pace, "fast");
    s = apply(s, { type: "left", seq: 6, seat: 0, creator: 1 });
    assert.deepEqual([s.seats[0].kind, s.seats[0].nickname, s.seats[0].online], ["left", "Ann", true]);
    assert.equal(s.game.creator, 1);
  });

  it("left in the lobby: the seat is open, those after it move up, we follow ours", () => {
    const three = [
      { seat: 0, kind: "human", nickname: "Ann", online: true, auto_flip: false, gone: false },
      { seat: 1, kind: "human", nickname: "Bob", online: true, auto_flip: false, gone: false },
      { seat: 2, kind: "human", nickname: "Cy", online: false, auto_flip: false, gone: false },
    ];
    const before = apply(lobby({ you: 2, seats: /** @type {Seat[]} */ (three),
      game: { players: 3, counts: [0, 0, 0], creator: 0 } }),
    { type: "reaction", seq: null, seat: 1, key: "clap" });
    assert.equal(isCreator(before), false);
    const s = apply(before, { type: "left", seq: 6, seat: 0, creator: 0, seating: [1, 2, 0] });
    assert.deepEqual(s.seats.map((x) => [x.seat, x.nickname, x.kind, x.online]),
      [[0, "Bob", "human", true], [1, "Cy", "human", false], [2, null, "open", false]]);
    assert.equal(s.you, 1);  // Cy moved up with her seat
    assert.equal(s.game.creator, 0);  // Bob, who came second, may start
    assert.deepEqual(s.reactions.map((r) => r.seat), [0]);
    // the last one leaving: nobody moves
    const last = apply(s, { type: "left", seq: 7, seat: 1, creator: 0 });
    assert.deepEqual(last.seats.map((x) => x.kind), ["human", "open", "open"]);
  });

  it("a player who is out may skip only while nobody in play flips by hand", () => {
    const out = playing({ you: 1, game: { in_play: [true, false] } });
    assert.equal(canSkip(out), false);  // Ann flips by hand
    const auto = apply(out, { type: "auto_flip", seq: 5, seat: 0, on: true });
    assert.equal(canSkip(auto), true);
    const away = apply(out, { type: "gone", seq: null, seat: 0, gone: true });
    assert.equal(canSkip(away), true);
    const skipping = apply(auto, { type: "fast_forward", seq: 6, seat: 1 });
    assert.equal(skipping.game.skipping, true);
    assert.equal(canSkip(skipping), false);  // once only
    assert.equal(canSkip(playing({ game: { in_play: [true, false] } })), false);  // in play
  });

  it("a player in play may finish the game while every other seat in play is a computer or away", () => {
    const computer = { seat: 1, kind: /** @type {const} */ ("computer"), nickname: null,
      online: true, auto_flip: false, gone: false };
    const ann = { seat: 0, kind: /** @type {const} */ ("human"), nickname: "Ann", online: true,
      auto_flip: false, gone: false };
    const alone = playing({ seats: [ann, computer] });
    assert.equal(canFinish(alone), true);
    assert.equal(canSkip(alone), false);  // in play: "Finish the game", not "Skip"
    assert.equal(canFinish(playing()), false);  // Bob is at the table
    const bobOnAuto = apply(playing(), { type: "auto_flip", seq: 5, seat: 1, on: true });
    assert.equal(canFinish(bobOnAuto), false);  // on auto-flip, still there
    const bobAway = apply(playing(), { type: "gone", seq: null, seat: 1, gone: true });
    assert.equal(canFinish(bobAway), true);
    const bobLeft = apply(playing(), { type: "left", seq: 5, seat: 1, creator: 0 });
    assert.equal(canFinish(bobLeft), true);  // the computer plays his seat now
    const bobOut = playing({ game: { in_play: [true, false] } });
    assert.equal(canFinish(bobOut), true);
    assert.equal(canFinish(playing({ you: null, seats: [ann, computer] })), false);  // watching
    const once = apply(alone, { type: "fast_forward", seq: 5, seat: 0 });
    assert.equal(canFinish(once), false);
    assert.equal(canFinish(playing({ seats: [ann, computer], game: { status: "lobby" } })), false);
  });

  it("a computer keeps its lobby number when the seats are drawn", () => {
    const s = apply(lobby(), { type: "joined", seq: 5, seat: 1, kind: "computer", nickname: null });
    assert.equal(s.seats[1].number, 2);
    const drawn = apply(s, { type: "started", seq: 6, counts: [26, 26], seating: [1, 0] });
    assert.deepEqual(drawn.seats.map((x) => [x.seat, x.kind, x.nickname]),
      [[0, "computer", null], [1, "human", "Ann"]]);
    assert.equal(drawn.seats[0].number, 2);  // "Computer 2" at table seat 0, as in the lobby
  });

  it("while the end is kept behind the last peace nothing may be flipped", () => {
    const s = playing();
    assert.equal(canFlip(s), true);
    const ending = apply(s, { type: "local:ending" });
    assert.equal(ending.ending, true);
    assert.equal(canFlip(ending), false);
    assert.equal(apply(ending, { type: "local:flip" }), ending);  // the flip is not made
    const away = apply(playing({ you: 0 }), { type: "gone", seq: null, seat: 0, gone: true },
      { type: "flipped", seq: 5, seat: 0, battle: 1, by: "computer" });
    assert.equal(canTakeBack(away), true);
    assert.equal(canTakeBack(apply(away, { type: "local:ending" })), false);
  });

  it("a seated player may leave in the lobby or in play, not once out", () => {
    assert.equal(canLeave(lobby({ you: 0 })), true);
    assert.equal(canLeave(lobby({ you: null })), false);  // a spectator
    assert.equal(canLeave(playing({ you: 1 })), true);
    assert.equal(canLeave(playing({ you: 1, game: { in_play: [true, false] } })), false);
    const over = apply(playing({ you: 0 }), { type: "over", seq: 9, outcome: "win",
      reason: "all_cards", winner: 0, battles: 4, final_counts: [52, 0], eliminated: { 1: 4 },
      seed: "ab".repeat(32), hands: null, command: "cardwar play --seed x" });
    assert.equal(over.game.status, "over");
    assert.equal(canLeave(over), false);
  });

  it("the game's pace is normal while someone flips by hand, else the fastest chosen", () => {
    const s = playing({ you: 1 });
    assert.equal(gamePace(s), "normal");  // both flip by hand
    const slow = apply(apply(s, { type: "pace", seq: 5, seat: 0, pace: "slow" }),
      { type: "pace", seq: 6, seat: 1, pace: "slow" });
    assert.equal(gamePace(slow), "normal");  // still by hand
    let auto = apply(slow, { type: "auto_flip", seq: 7, seat: 0, on: true });
    auto = apply(auto, { type: "auto_flip", seq: 8, seat: 1, on: true });
    assert.equal(gamePace(auto), "slow");
    const fast = apply(auto, { type: "pace", seq: 9, seat: 1, pace: "fast" });
    assert.equal(gamePace(fast), "fast");  // the fastest of the two
  });
});

// The game page's state and its reducer: reduce(state, message, now) -> new state.
// Pure: no DOM, no timers, no globals; the state passed in is never changed
// (a message that changes nothing gives back the same object). node's tests
// (tests/js) cover every message type. To add a message type: its shape in
// messages.js, one entry in ON below (tsc fails until it has one), and what
// the page does with it in render.js (and the effects table in game.js).

import { applyMove } from "./slap.js";

/** @typedef {import("./messages.js").ServerMessage} ServerMessage */
/** @typedef {import("./messages.js").StateMessage} StateMessage */
/** @typedef {import("./messages.js").Game} Game */
/** @typedef {import("./messages.js").Seat} Seat */
/** @typedef {import("./messages.js").BattleMessage} BattleMessage */
/** @typedef {import("./messages.js").CardMessage} CardMessage */
/** @typedef {import("./messages.js").MoveMessage} MoveMessage */
/** @typedef {import("./messages.js").Result} Result */
/** @typedef {import("./messages.js").ReactionKey} ReactionKey */

/** How long a reaction is shown, in ms. */
export const REACTION_MS = 4000;
/** How long "not so fast" is shown after a refused reaction, in ms. */
export const REFUSED_MS = 3000;
/** Spectators' reactions shown at once (the newest). */
export const SPECTATOR_REACTIONS = 3;

/**
 * A reaction being shown: who sent it (null: a spectator), which, until when
 * (on the `now` clock, ms) and its number on this page (from 1).
 * @typedef {{seat: number | null, key: ReactionKey, until: number, n: number}} ShownReaction
 */

/**
 * What the page shows: the server's snapshot, kept up to date by its events,
 * plus what only this page knows.
 * @typedef {object} State
 * @property {number | null} seq  the last numbered event applied
 * @property {number | null} you  our seat, null for a spectator
 * @property {Game} game
 * @property {Seat[]} seats
 * @property {number} watchers  spectators connected
 * @property {BattleMessage | null} last  the last battle, shown on the table
 * @property {CardMessage | null} turn  in turns (Beggar-my-neighbour): the last card put down
 * @property {MoveMessage | null} [moved]  slap games: the last move (slap.js)
 * @property {number} [slapped]  slap games: the pile we slapped last (shown until the
 *   decision comes); -1 or missing: none
 * @property {Result | null} result  set once the game is over
 * @property {boolean} revealed  the last battle's face-down cards are shown
 * @property {number[]} [before]  the pile counts before the last battle, kept while
 *   its face-down cards are not turned: its result is not shown before (shownCounts)
 * @property {{battle: number, still: boolean} | null} taken  the battle whose pot was
 *   picked up (its cards are drawn no more; `still`: greyed in place, reduced motion)
 * @property {boolean} stale  the connection dropped: presence and counts may be out of date
 * @property {boolean} [ending]  the game is over, its end kept while its last peace is
 *   on show (game.js): nothing may be flipped
 * @property {boolean} pending  our flip is sent but the server has not confirmed it
 * @property {{battle: number, deadline: number} | null} idle  the coming battle's idle
 *   clock: when (on the `now` clock, ms) the game flips for whoever has not flipped
 * @property {string | null} error  the code of the last error frame (a key of strings.errors)
 * @property {ShownReaction[]} reactions  shown now: the newest of each seat, and a few of
 *   the spectators'
 * @property {number} reacted  reactions received so far (numbers them)
 * @property {boolean} muted  the others' reactions are hidden (this player's choice)
 * @property {number} refused  until when (ms) a refused reaction is said; 0: not
 */

/**
 * What the page itself does, reduced like the server's messages ("local:" never
 * comes from the server).
 * @typedef {{type: "local:flip"} | {type: "local:reveal", battle: number} |
 *   {type: "local:taken", battle: number, still: boolean} |
 *   {type: "local:lost"} | {type: "local:retry"} | {type: "local:mute", on: boolean} |
 *   {type: "local:expire"} | {type: "local:ending"} | {type: "local:slap", pile: number}}
 *   LocalAction
 *   local:flip - we flip: shown at once, pending until the server's "flipped";
 *   local:reveal - the face-down cards of `battle` are turned (a moment after it);
 *   local:taken - the pot of `battle` is being picked up: drawing the table again
 *   never puts its cards back;
 *   local:lost - the connection dropped; local:retry - connecting again: an
 *   unconfirmed flip is dropped (the catch-up brings it back if it arrived);
 *   local:mute - hide (on) or show the others' reactions; local:expire - the time
 *   of a shown reaction (or of a refusal) is up; local:ending - the game is over,
 *   its end is kept while the last peace is on show (nothing may be flipped);
 *   local:slap - we slapped, naming `pile` (shown until the decision).
 */

/** @typedef {ServerMessage | LocalAction} Action */

/**
 * @template {Action["type"]} K
 * @typedef {(state: State, action: Extract<Action, {type: K}>, now: number) => State} Handler
 */

/**
 * The new state after `action`; `now` is the clock (ms) for the idle countdown.
 * A numbered message seen already (seq not above state.seq) changes nothing, so
 * a catch-up that overlaps what the page has is harmless. Before the first
 * `state` message there is no state (null) and only `state` makes one.
 * @param {State | null} state
 * @param {Action} action
 * @param {number} [now]
 * @returns {State | null}
 */
export function reduce(state, action, now = 0) {
  if (action.type === "state") return snapshot(action, now, state);
  if (!state) return state;
  const seq = "seq" in action ? action.seq : null;
  if (seq !== null && seq !== undefined) {
    if (state.seq !== null && seq <= state.seq) return state;
    state = { ...state, seq };
  }
  const on = /** @type {Handler<Action["type"]> | undefined} */ (ON[action.type]);
  if (on) return on(state, action, now);
  return seq === null || seq === undefined ? state
    : stepped(state, /** @type {{counts?: unknown, step?: unknown}} */ (/** @type {unknown} */ (action)));
}

/**
 * A numbered message of a type this page has no handler for: counted, and when
 * it is the step of a kind of play the page does not know yet (its `counts`,
 * numbered by `step`: cardwar/tables/kinds.py), the table moves on with it.
 * @param {State} s
 * @param {{counts?: unknown, step?: unknown}} m
 * @returns {State}
 */
export function stepped(s, m) {
  const counts = m.counts;
  if (!Array.isArray(counts) || typeof m.step !== "number") return s;
  return { ...s, pending: false, idle: null,
    game: { ...s.game, battle: m.step, counts: counts.map(Number), flipped: [] } };
}

/**
 * The state a `state` message gives: it replaces everything the server knows;
 * what only this page knows (reactions on show, muting) stays.
 * @param {StateMessage} m
 * @param {number} now
 * @param {State | null} before
 * @returns {State}
 */
function snapshot(m, now, before) {
  return {
    seq: m.seq, you: m.you, game: m.game, seats: m.seats, watchers: m.watchers || 0,
    last: m.last && m.last.type === "battle" ? m.last : null,
    turn: m.last && m.last.type === "card" ? m.last : null, result: m.result,
    moved: m.last && m.last.type === "move" ? m.last : null,
    revealed: true, stale: false, pending: false, error: null,
    taken: before ? before.taken : null,
    idle: m.idle === null || m.idle === undefined ? null
      : { battle: m.game.battle + 1, deadline: now + m.idle * 1000 },
    reactions: before ? before.reactions.filter((r) => r.until > now) : [],
    reacted: before ? before.reacted : 0,
    muted: before ? before.muted : false,
    refused: 0,
  };
}

/**
 * The state of a finished game's replay at the deal (for replay.js, which then
 * applies its battles as `battle` messages).
 * @param {{seats: {seat: number, kind: Seat["kind"], nickname: string | null}[],
 *   start_counts: number[], tie_word: string | null, battle_limit: number | null}} deal
 * @returns {State}
 */
export function dealt(deal) {
  const players = deal.seats.length;
  return {
    seq: 0, you: null, watchers: 0, last: null, turn: null, result: null,
    revealed: true, stale: false, pending: false, idle: null, error: null, taken: null,
    reactions: [], reacted: 0, muted: false, refused: 0,
    seats: deal.seats.map((s) => ({ ...s, online: false, auto_flip: false, gone: false })),
    game: {
      players, battle: 0, counts: deal.start_counts, in_play: deal.start_counts.map(() => true),
      status: "playing", flipped: [], creator: null, tie_word: deal.tie_word,
      battle_limit: deal.battle_limit, rematch: null, rematch_by: null, seating: null,
    },
  };
}

// -- one handler per message type ---------------------------------------------
/** @type {{[K in Exclude<Action["type"], "state">]: Handler<K>}} */
const ON = {
  joined(s, m) {
    const old = s.seats[m.seat];
    s = withSeat(s, m.seat, {
      seat: m.seat, number: m.seat + 1, kind: m.kind, nickname: m.nickname, auto_flip: false,
      gone: false,
      online: m.kind === "computer" || Boolean(old && old.online),
    });
    // in a rematch the seat that may start moves to the lowest player who came back
    return m.creator === undefined ? s : withGame(s, { creator: m.creator });
  },
  presence: (s, m) => withSeat(s, m.seat, { online: m.online }),
  gone: (s, m) => withSeat(s, m.seat, { gone: m.gone }),
  handed: (s, m) => withSeat(s, m.seat, { kind: "computer", gone: false, online: true }),
  relinked: (s) => s,  // the server closes the socket of the old link (code 4001)
  // the last message of a catch-up: presence and counts are fresh again
  watchers: (s, m) => ({ ...s, watchers: m.count, stale: false }),
  idle: (s, m, now) => ({
    ...s,
    idle: m.left === null || m.left === undefined ? null
      : { battle: m.battle, deadline: now + m.left * 1000 },
  }),
  rematch: (s, m) => withGame(s, { rematch: m.game, rematch_by: m.by ?? s.game.rematch_by }),
  auto_flip: (s, m) => withSeat(s, m.seat, { auto_flip: m.on }),
  pace: (s, m) => withSeat(s, m.seat, { pace: m.pace }),
  fast_forward: (s) => withGame(s, { skipping: true }),
  left(s, m) {
    if (s.game.status !== "lobby") {
      s = withSeat(s, m.seat, { kind: "left", gone: false, online: true, auto_flip: false });
      return withGame(s, { creator: m.creator });
    }
    s = withSeat(s, m.seat,
      { kind: "open", nickname: null, online: false, gone: false, auto_flip: false });
    // the players after the freed seat move up: the lobby keeps the order they came in
    return withGame(m.seating ? moved(s, m.seating) : s, { creator: m.creator });
  },
  started: seatDrawn,
  flipped(s, m) {
    if (m.seat === s.you) s = { ...s, pending: false };
    const f = s.game.flipped;
    return f.indexOf(m.seat) < 0 ? withGame(s, { flipped: [...f, m.seat] }) : s;
  },
  battle(s, m) {
    const g = s.game;
    // a log entry of the replay has no in_play: those out are named in `out`
    const inPlay = m.in_play || g.in_play.map((on, seat) => on && m.out.indexOf(seat) < 0);
    return {
      ...s, pending: false, idle: null, last: m, revealed: !m.peaces.length,
      before: m.peaces.length ? g.counts : undefined,
      game: { ...g, battle: m.battle, counts: m.counts, in_play: inPlay, flipped: [] },
    };
  },
  card(s, m) {
    const g = s.game;
    return {
      ...s, pending: false, idle: null, turn: m,
      game: { ...g, battle: m.card, counts: m.counts, flipped: [], to_move: m.to_move,
        owed: m.owed, owed_for: m.owed_for, pile: m.pile, top: m.top, tricks: m.tricks },
    };
  },
  // slap games: one thing the table's judge did (slap.js words and draws it)
  move: (s, m) => ({ ...s, pending: false, idle: null, moved: m, game: applyMove(s.game, m),
    slapped: m.events.some((e) => e.event === "slap" && e.seat === s.you) ? -1 : s.slapped }),
  over: (s, m) => ({ ...withGame(s, { status: "over" }), result: m, idle: null }),
  reaction(s, m, now) {
    if (s.muted && (m.seat === null || m.seat !== s.you)) return s;
    const n = s.reacted + 1;
    // a seat's new reaction replaces its last one; spectators' stack up, a few at most
    let keep = s.reactions.filter((r) => r.until > now && (m.seat === null || r.seat !== m.seat));
    const theirs = keep.filter((r) => r.seat === null);
    if (m.seat === null && theirs.length >= SPECTATOR_REACTIONS) {
      const oldest = theirs[theirs.length - SPECTATOR_REACTIONS];
      keep = keep.filter((r) => r.seat !== null || r.n > oldest.n);
    }
    return { ...s, reacted: n,
      reactions: [...keep, { seat: m.seat, key: m.key, until: now + REACTION_MS, n }] };
  },
  error(s, m, now) {
    // a refused reaction: said for a moment by the reactions, not in the status line
    if (m.code === "too_many_reactions") return { ...s, refused: now + REFUSED_MS };
    // a refused flip did not count: the pile can be flipped again
    if (s.pending && (m.code === "rate_limited" || m.code === "bad_message"
        || m.code === "unavailable")) s = unflip(s);
    return { ...s, error: m.code };
  },
  ping: (s) => s,  // heartbeats: answered by connection.js
  pong: (s) => s,

  "local:flip"(s) {
    if (!canFlip(s) || s.you === null) return s;
    return { ...withGame(s, { flipped: [...s.game.flipped, s.you] }), pending: true };
  },
  "local:reveal": (s, a) =>
    s.revealed || !s.last || s.last.battle !== a.battle ? s : { ...s, revealed: true },
  "local:taken": (s, a) => (!s.last || s.last.battle !== a.battle ? s
    : { ...s, taken: { battle: a.battle, still: a.still } }),
  "local:lost": (s) => (s.stale ? s : { ...s, stale: true }),
  "local:ending": (s) => (s.ending ? s : { ...s, ending: true }),
  "local:slap": (s, a) => (s.slapped === a.pile ? s : { ...s, slapped: a.pile }),
  "local:retry": (s) => (s.pending ? unflip(s) : s),
  "local:mute"(s, a) {
    if (s.muted === a.on) return s;
    const mine = (/** @type {ShownReaction} */ r) => r.seat !== null && r.seat === s.you;
    return { ...s, muted: a.on, reactions: a.on ? s.reactions.filter(mine) : s.reactions };
  },
  "local:expire"(s, _a, now) {
    const reactions = s.reactions.filter((r) => r.until > now);
    const refused = s.refused > now ? s.refused : 0;
    if (reactions.length === s.reactions.length && refused === s.refused) return s;
    return { ...s, reactions, refused };
  },
};

/**
 * The game starts and the seed draws the seating (RULES.md 9): `seating[t]` is the
 * lobby seat now at table seat `t`; seats, ours, the creator and the reactions on
 * show are numbered by table seat from here on.
 * @param {State} s
 * @param {import("./messages.js").StartedMessage} m
 * @returns {State}
 */
function seatDrawn(s, m) {
  const order = m.seating || s.seats.map((_, i) => i);
  const drawn = moved(s, order);
  // the creator is the same player, wherever drawn: the human of the lowest lobby seat
  const humans = drawn.seats.filter((x) => x.kind === "human").map((x) => x.seat)
    .sort((a, b) => order[a] - order[b]);
  return {
    ...drawn,
    game: { ...s.game, status: "playing", counts: m.counts, flipped: [], seating: order,
      creator: humans.length ? humans[0] : null },
  };
}

/**
 * Players change seats (`order[t]`: the seat whose player now sits at `t`): at the
 * start, or in the lobby when those after a player who left move up; the seats,
 * ours and the reactions on show follow them.
 * @param {State} s
 * @param {number[]} order
 * @returns {State}
 */
function moved(s, order) {
  const at = (/** @type {number} */ before) => order.indexOf(before);
  return {
    ...s,
    seats: order.map((before, seat) => ({ ...s.seats[before], seat })),
    you: s.you === null ? null : at(s.you),
    reactions: s.reactions.map((r) => (r.seat === null ? r : { ...r, seat: at(r.seat) })),
  };
}

/**
 * @param {State} s
 * @param {number} seat
 * @param {Partial<Seat>} patch
 * @returns {State}
 */
function withSeat(s, seat, patch) {
  const seats = s.seats.slice();
  seats[seat] = { ...seats[seat], ...patch };
  return { ...s, seats };
}

/**
 * @param {State} s
 * @param {Partial<Game>} patch
 * @returns {State}
 */
function withGame(s, patch) {
  return { ...s, game: { ...s.game, ...patch } };
}

/** Take back our own flip that the server has not confirmed. @param {State} s @returns {State} */
function unflip(s) {
  const flipped = s.game.flipped.filter((seat) => seat !== s.you);
  return { ...withGame(s, { flipped }), pending: false };
}

// -- what the state says -------------------------------------------------------
/**
 * Whether our pile can be flipped now (seated, in play, not flipped yet, connected).
 * @param {State | null} s
 * @returns {boolean}
 */
export function canFlip(s) {
  if (!s || s.stale || s.ending || s.you === null) return false;
  const g = s.game;
  return g.status === "playing" && acts(g, s.you) && g.flipped.indexOf(s.you) < 0;
}

/**
 * Whether tapping our pile takes our seat back: we are away (played for) and the
 * computer has already flipped for us in the coming battle. The flip sent does not
 * count (our card for this battle stays as it is), but the server takes the seat
 * back at once (a `gone` message).
 * @param {State | null} s
 * @returns {boolean}
 */
export function canTakeBack(s) {
  if (!s || s.stale || s.ending || s.you === null) return false;
  const g = s.game;
  return g.status === "playing" && acts(g, s.you) && g.flipped.indexOf(s.you) >= 0 &&
    Boolean(s.seats[s.you].gone);
}

/**
 * Whether `seat` must flip for the coming step: every seat in play in a battle,
 * only the seat to move in a game in turns (`to_move`).
 * @param {Game} g
 * @param {number} seat
 */
export function acts(g, seat) {
  if (g.to_move === undefined) return g.in_play[seat];
  return g.to_move === seat;
}

/** Whether we may start the game. @param {State} s */
export function isCreator(s) {
  return s.you !== null && s.you === s.game.creator;
}

/**
 * The seats the idle clock waits for: humans in play who have not flipped and
 * are not played for (auto-flip, gone).
 * @param {State} s
 * @returns {number[]}
 */
export function idleSeats(s) {
  const g = s.game;
  return s.seats.filter((seat) => acts(g, seat.seat) && g.flipped.indexOf(seat.seat) < 0 &&
    seat.kind === "human" && !seat.auto_flip && !seat.gone).map((seat) => seat.seat);
}

/**
 * Whole seconds left on the idle clock at `now`, or null when no clock is to be
 * shown (not playing, not started for the coming battle, nobody waited for).
 * @param {State} s
 * @param {number} now
 * @returns {number | null}
 */
export function idleLeft(s, now) {
  const g = s.game;
  if (g.status !== "playing" || !s.idle || s.idle.battle !== g.battle + 1 ||
      !idleSeats(s).length) return null;
  return Math.max(0, Math.ceil((s.idle.deadline - now) / 1000));
}

/**
 * The reaction `seat` (null: the spectators') shows now, the newest last.
 * @param {State} s
 * @param {number | null} seat
 * @param {number} now
 * @returns {ShownReaction[]}
 */
export function reactionsOf(s, seat, now) {
  return s.reactions.filter((r) => r.seat === seat && r.until > now);
}

/**
 * When (ms) the next shown reaction or refusal runs out, or null when nothing is shown.
 * @param {State} s
 * @returns {number | null}
 */
export function nextExpiry(s) {
  const times = s.reactions.map((r) => r.until);
  if (s.refused) times.push(s.refused);
  return times.length ? Math.min(...times) : null;
}

/**
 * The placings of a finished game, best first: `place` counts from 1 and is
 * shared (RULES.md 7) by players who went out in the same battle, and by the
 * players still in play when the game is a draw; otherwise those in play rank
 * by the cards they hold, and those out by how late they went out.
 * @param {import("./messages.js").Result} r
 * @returns {{seat: number, place: number}[]}
 */
export function placings(r) {
  const out = r.eliminated || {};
  const wentOut = (/** @type {number} */ s) => out[s] !== undefined;
  const draw = r.outcome !== "win";
  /** the key that decides a place (equal keys share it), the lower the better */
  const key = (/** @type {number} */ s) => wentOut(s) ? [1, -out[s]] : [0, draw ? 0 : -r.final_counts[s]];
  const order = r.final_counts.map((_, s) => s);
  const cmp = (/** @type {number} */ a, /** @type {number} */ b) => {
    const [ka, kb] = [key(a), key(b)];
    return ka[0] - kb[0] || ka[1] - kb[1];
  };
  order.sort((a, b) => cmp(a, b) || a - b);
  return order.map((seat, i) => {
    let first = i;
    while (first > 0 && cmp(order[first - 1], seat) === 0) first--;
    return { seat, place: first + 1 };
  });
}

/**
 * Whether a human still in play flips by hand (not on auto-flip, not away): then
 * the game goes at the normal pace and nobody may fast-forward it.
 * @param {State} s
 */
export function handFlipping(s) {
  const g = s.game;
  return s.seats.some((seat) => g.in_play[seat.seat] && seat.kind === "human" &&
    !seat.auto_flip && !seat.gone);
}

/** The paces, fastest first. */
const PACES = /** @type {import("./messages.js").Pace[]} */ (["fast", "normal", "slow"]);

/**
 * The game's pace now, as the server sets its automatic flips: normal while a
 * human in play flips by hand, otherwise the fastest pace its human players chose.
 * @param {State} s
 * @returns {string}
 */
export function gamePace(s) {
  if (handFlipping(s)) return "normal";
  const chosen = s.seats.filter((seat) => seat.kind === "human").map((seat) => seat.pace || "normal");
  return PACES.find((pace) => chosen.indexOf(pace) >= 0) || "normal";
}

/**
 * Whether we may fast-forward to the result: seated, out of the game, the game
 * going on, nobody in play flipping by hand, not fast-forwarded already.
 * @param {State} s
 */
export function canSkip(s) {
  const g = s.game;
  return s.you !== null && s.seats[s.you].kind === "human" && g.status === "playing" &&
    !g.in_play[s.you] && !g.skipping && !handFlipping(s);
}

/**
 * Whether we may finish the game at once ("Finish the game"): seated and still in
 * play, the game going on, not fast-forwarded already, and every other seat in
 * play a computer's or away (no other human to hurry).
 * @param {State} s
 */
export function canFinish(s) {
  const g = s.game;
  if (s.you === null || s.seats[s.you].kind !== "human" || g.status !== "playing" ||
      !g.in_play[s.you] || g.skipping) return false;
  return s.seats.every((seat) => seat.seat === s.you || !g.in_play[seat.seat] ||
    seat.kind !== "human" || Boolean(seat.gone));
}

/**
 * Whether we may leave the table: a seated human, in the lobby (the seat is freed)
 * or still in play (the computer plays on); once out or over there is nothing to leave.
 * @param {State} s
 */
export function canLeave(s) {
  const g = s.game;
  if (s.you === null || s.seats[s.you].kind !== "human") return false;
  return g.status === "lobby" || (g.status === "playing" && Boolean(g.in_play[s.you]));
}

/**
 * The pile counts the table shows: until a peace's (or a war's) face-down cards are
 * turned, those from before its battle, so neither the counts nor the score bar
 * tell its result before the cards do; then the game's.
 * @param {State} s
 * @returns {number[]}  one count per seat
 */
export function shownCounts(s) {
  return !s.revealed && s.before ? s.before : s.game.counts;
}

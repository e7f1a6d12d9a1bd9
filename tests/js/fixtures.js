// Messages as the server sends them (shapes: cardwar/tables/views.py), for the
// tests of the game page's reducer.

/** @typedef {import("../../cardwar/web/static/play/messages.js").StateMessage} StateMessage */
/** @typedef {import("../../cardwar/web/static/play/messages.js").Game} Game */
/** @typedef {import("../../cardwar/web/static/play/messages.js").Seat} Seat */
/** @typedef {import("../../cardwar/web/static/play/messages.js").BattleMessage} BattleMessage */
/** @typedef {import("../../cardwar/web/static/play/state.js").State} State */

/**
 * A two-player Peace snapshot: Ann (seat 0, who created it) and Bob (seat 1).
 * @param {{seq?: number, you?: number | null, game?: Partial<Game>, seats?: Seat[],
 *   watchers?: number, idle?: number | null, last?: BattleMessage | null}} [o]
 * @returns {StateMessage}
 */
export function snapshot(o = {}) {
  return {
    type: "state", seq: o.seq ?? 4, you: o.you === undefined ? 0 : o.you,
    game: {
      id: "AbCdEfGhIjKlMnOp", variant: "peace", players: 2, battle: 0, counts: [26, 26],
      in_play: [true, true], eliminated: {}, status: "playing", flipped: [], creator: 0,
      tie_word: "PEACE", battle_limit: 1000, rematch: null, rematch_by: null,
      commitment: "ab".repeat(32), ...o.game,
    },
    seats: o.seats ?? [
      { seat: 0, kind: "human", nickname: "Ann", online: true, auto_flip: false, gone: false },
      { seat: 1, kind: "human", nickname: "Bob", online: true, auto_flip: false, gone: false },
    ],
    watchers: o.watchers ?? 0, idle: o.idle ?? null, last: o.last ?? null, result: null,
  };
}

/**
 * A battle without a tie: seat 0's two beats seat 1's nine (lowest wins in Peace).
 * @param {number} seq
 * @param {number} number
 * @param {Partial<BattleMessage>} [o]
 * @returns {BattleMessage}
 */
export function battle(seq, number, o = {}) {
  return {
    type: "battle", seq, battle: number, face_up: ["2C", "9H"], winning_seats: [0], peaces: [],
    winner: 0, pot: 2, out: [], counts: [27, 25], in_play: [true, true], ...o,
  };
}

/**
 * A battle with a peace: both turn a five, then five face-down cards each and
 * a card turned up; seat 1's three wins the pot of 14.
 * @param {number} seq
 * @param {number} number
 * @returns {BattleMessage}
 */
export function peaceBattle(seq, number) {
  return battle(seq, number, {
    face_up: ["5C", "5D"], winning_seats: [0, 1], winner: 1, pot: 14, counts: [19, 33],
    peaces: [{
      face_down: [["2C", "3C", "4C", "6C", "7C"], ["2D", "3D", "4D", "6D", "7D"]],
      face_up: ["KH", "3S"], standing: [], winning_seats: [1],
    }],
  });
}

/**
 * Freeze `value` and everything in it, so a test sees any change made to it.
 * @template T
 * @param {T} value
 * @returns {T}
 */
export function deepFreeze(value) {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

// The WebSocket protocol of the game page, as types (JSDoc for `tsc --checkJs`;
// nothing here runs). Server -> browser: every message is built by
// cardwar.tables.view_message (cardwar/tables/views.py); browser -> server:
// cardwar/web/protocol.py. A new message type is added here, to the ServerMessage
// union, and to the handler table in state.js (tsc fails until it has one).
export {};

/** @typedef {"open" | "human" | "computer" | "reserved" | "left"} SeatKind  `left`: its
 *   player left the table, the computer plays it */
/** @typedef {"slow" | "normal" | "fast"} Pace  a player's pace of automatic flips */
/** @typedef {"lobby" | "playing" | "over"} Status */

/**
 * One seat of the table as the page knows it (`state.seats[n]`).
 * @typedef {object} Seat
 * @property {number} seat
 * @property {SeatKind} kind  `reserved`: a rematch seat kept for `nickname`
 * @property {string | null} nickname
 * @property {boolean} online  at least one open connection (a computer always is)
 * @property {boolean} auto_flip
 * @property {Pace} [pace]  the player's pace of automatic flips (normal if missing)
 * @property {boolean} [gone]  away so long (or idle so many battles) that the game
 *   plays for them
 */

/**
 * A peace (a war in War) within a battle: per seat, the face-down cards
 * (null: not in it) and the card turned up; `standing`: seats whose card of
 * the battle stands because they had nothing left to turn.
 * @typedef {object} Peace
 * @property {(string[] | null)[]} face_down
 * @property {(string | null)[]} face_up
 * @property {number[]} standing
 * @property {number[]} winning_seats
 */

/**
 * One battle, as `cardwar play --log --json` logs it (engine battle_json).
 * Cards are codes like "QH"; `outcome`/`reason` only on the game's last battle.
 * @typedef {object} BattleRecord
 * @property {number} battle  its number, from 1
 * @property {(string | null)[]} face_up  per seat, null when out
 * @property {number[]} winning_seats
 * @property {Peace[]} peaces
 * @property {number | null} winner  who takes the pot (null: nobody can)
 * @property {number} pot  cards in the pot
 * @property {number[]} out  seats that went out in this battle
 * @property {number[]} counts  cards in each pile after it
 * @property {string} [outcome]
 * @property {string} [reason]
 */

/**
 * The game as the snapshot gives it (`state.game`): the engine's seat view
 * plus the table's own fields. Counts only, never pile order.
 * @typedef {object} Game
 * @property {string} [id]
 * @property {string} [variant]
 * @property {number} players
 * @property {number} battle  battles played so far
 * @property {number[]} counts
 * @property {boolean[]} in_play
 * @property {Record<string, number>} [eliminated]  seat -> the battle it went out in
 * @property {Status} status
 * @property {number[]} flipped  seats that have flipped for the coming battle
 * @property {number | null} creator  the seat that may start the game
 * @property {string | null} tie_word  e.g. "PEACE" (the page shows its own word), or null
 * @property {number | null} battle_limit
 * @property {string | null} rematch  the rematch's game id, once offered
 * @property {number | null} rematch_by  the seat that offered it
 * @property {string} [commitment]
 * @property {boolean} [skipping]  a player who is out fast-forwarded the game
 * @property {number[] | null} [seating]  who sits where, drawn from the seed at the start
 *   (RULES.md 9): item t is the lobby seat of the player at table seat t; null in the lobby
 * @property {number | null} [to_move]  in turns (Beggar-my-neighbour): the seat to put
 *   down the next card (null once over); missing in the battle games
 * @property {number} [owed]  in turns: cards the seat to move owes (0: none)
 * @property {string | null} [owed_for]  in turns: the court card being paid for
 * @property {number} [pile]  in turns: cards on the table
 * @property {string[]} [top]  in turns: the newest cards on the table, oldest first
 * @property {number} [tricks]  in turns: tricks taken so far
 */

/**
 * The end of the game.
 * @typedef {object} Result
 * @property {"win" | "draw"} outcome
 * @property {string} reason  all_cards, battle_limit, unresolvable or cycle
 * @property {number | null} winner
 * @property {number} battles
 * @property {number[]} final_counts
 * @property {Record<string, number>} eliminated  seat -> the battle it went out in
 * @property {string | null} seed
 * @property {string | null} hands
 * @property {string | null} command  the `cardwar play` line that replays the game
 * @property {number} [tricks]  in turns: tricks taken (`battles` counts cards put down)
 * @property {{start_trick: number, start_cards: number, length_tricks: number,
 *   length_cards: number} | null} [cycle]  in turns: where an endless game repeats
 */

/** @typedef {{type: "state", seq: number, you: number | null, game: Game, seats: Seat[],
 *   watchers: number, idle: number | null, last: BattleMessage | CardMessage | null,
 *   result: Result | null}} StateMessage  a full snapshot (on connecting, or instead of
 *   a catch-up too long) */
/** @typedef {{type: "joined", seq: number, seat: number, kind: SeatKind,
 *   nickname: string | null, creator?: number | null}} JoinedMessage */
/** @typedef {{type: "started", seq: number, counts: number[], seating?: number[]}}
 *   StartedMessage  `seating`: who sits where from now on (see Game) */
/** @typedef {{type: "flipped", seq: number, seat: number, battle: number, by?: string}}
 *   FlippedMessage */
/** @typedef {BattleRecord & {type: "battle", seq: number | null, in_play?: boolean[]}}
 *   BattleMessage  (`in_play` is missing only from the replay's logged battles) */
/** @typedef {{type: "card", seq: number | null, card: number, seat: number,
 *   face_up: string, paying: boolean, owed: number, owed_for: string | null,
 *   to_move: number, pile: number, top: string[], taken_by: number | null, taken: number,
 *   tricks: number, counts: number[], outcome?: string, reason?: string}} CardMessage
 *   in turns (Beggar-my-neighbour): `seat` put down card number `card`; `top` is the
 *   newest cards on the table (those just taken when `taken_by` took the pile) */
/** @typedef {Result & {type: "over", seq: number}} OverMessage */
/** @typedef {{type: "auto_flip", seq: number, seat: number, on: boolean}} AutoFlipMessage */
/** @typedef {{type: "handed", seq: number, seat: number}} HandedMessage */
/** @typedef {{type: "relinked", seq: number, seat: number}} RelinkedMessage  new device link */
/** @typedef {{type: "rematch", seq: number, game: string, by: number | null}} RematchMessage */
/** @typedef {{type: "pace", seq: number, seat: number, pace: Pace}} PaceMessage */
/** @typedef {{type: "fast_forward", seq: number, seat: number}} FastForwardMessage  a
 *   player who is out skips to the result: the battles left come without waiting */
/** @typedef {{type: "left", seq: number, seat: number, creator: number | null,
 *   seating?: number[]}} LeftMessage  the seat's player left the table; the computer
 *   plays it, or in the lobby the seat is open again and `seating[t]` (when given) is
 *   the seat whose player moves up to `t` */
/** @typedef {{type: "presence", seq: null, seat: number, online: boolean}} PresenceMessage */
/** @typedef {{type: "gone", seq: null, seat: number, gone: boolean}} GoneMessage */
/** @typedef {{type: "watchers", seq: null, count: number}} WatchersMessage  spectators */
/** @typedef {{type: "idle", seq: null, battle: number, left: number | null}} IdleMessage
 *   `left`: seconds before the game flips for whoever has not flipped for `battle` */
/** @typedef {"clap" | "wow" | "laugh" | "sad" | "dove" | "gg" | "tie" | "again"} ReactionKey
 *   the preset reactions (cardwar.tables.events.REACTIONS); strings.reactions words them */
/** @typedef {{type: "reaction", seq: null, seat: number | null, key: ReactionKey}}
 *   ReactionMessage  a player (or a spectator: seat null) reacted; shown briefly */
/** @typedef {{type: "error", seq: null, code: string}} ErrorMessage  `code`: a key of
 *   strings.errors */
/** @typedef {{type: "ping", seq: null, id?: number}} PingMessage  the server's heartbeat:
 *  answer with pong (echoing `id`) */
/** @typedef {{type: "pong", seq: null}} PongMessage */

/**
 * Every message the server sends. Numbered ones (`seq` not null) come once each,
 * in order; a reconnection says the last it saw (`?since=N`) and gets the rest,
 * then presence, gone and watchers for every seat (or a new `state`).
 * @typedef {StateMessage | JoinedMessage | StartedMessage | FlippedMessage | BattleMessage |
 *   CardMessage | OverMessage | AutoFlipMessage | HandedMessage | RelinkedMessage | RematchMessage |
 *   PaceMessage | FastForwardMessage | LeftMessage |
 *   PresenceMessage | GoneMessage | WatchersMessage | IdleMessage | ReactionMessage |
 *   ErrorMessage | PingMessage | PongMessage} ServerMessage
 */

/**
 * Every message the page sends (cardwar/web/protocol.py validates them).
 * @typedef {{type: "flip", battle: number} | {type: "auto", on: boolean} |
 *   {type: "pace", pace: Pace} | {type: "skip"} | {type: "leave"} | {type: "start"} |
 *   {type: "hand_over", seat: number} | {type: "react", key: ReactionKey} | {type: "ping"} |
 *   {type: "pong", id?: number}} ClientMessage
 */

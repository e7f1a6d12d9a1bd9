// The WebSocket protocol of the game page, as types (JSDoc for `tsc --checkJs`;
// nothing here runs). Server -> browser: every message is built by
// cardwar.tables.view_message (cardwar/tables/views.py); browser -> server:
// cardwar/web/protocol.py. The shapes of the registry's messages are generated into
// events.js (`python -m cardwar.web.events_js`); a message the page reads as its
// shape is an alias of it here. A new message type is added to the ServerMessage
// union here, and to the handler table in state.js (tsc fails until it has one).
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
 * @property {number} [number]  the lobby seat plus one, kept when the seats are drawn
 *   ("Computer {number}" at the table as in the lobby)
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
 * @property {boolean} [skipping]  a player fast-forwarded the game (out, or alone with
 *   computers: "Finish the game")
 * @property {boolean} [vs_computer]  one human against computers only (no reactions)
 * @property {number[] | null} [seating]  who sits where, drawn from the seed at the start
 *   (RULES.md 9): item t is the lobby seat of the player at table seat t; null in the lobby
 * @property {number | null} [to_move]  in turns (Beggar-my-neighbour): the seat to put
 *   down the next card (null once over); missing in the battle games
 * @property {number} [owed]  in turns: cards the seat to move owes (0: none)
 * @property {string | null} [owed_for]  in turns: the court card being paid for
 * @property {number} [pile]  in turns: cards on the table
 * @property {string[]} [top]  in turns: the newest cards on the table, oldest first
 * @property {number} [tricks]  in turns: tricks taken so far
 * @property {number} [cards_played]  slap games: cards put down so far (the pile a slap names)
 * @property {number | null} [window]  slap games: the seat that takes the waiting pile, or null
 * @property {number} [slaps]  slap games: valid slaps so far
 * @property {number} [burned]  slap games: cards burned (or given) for wrong slaps
 * @property {Record<string, number>} [out]  slap games: seat -> cards put down when it went out
 * @property {SlapOptions} [options]  slap games: the table's options (also in the lobby)
 * @property {SlapPattern[]} [patterns]  slap games: the patterns slapped at this table
 * @property {number} [window_ms]  slap games: the slap window, ms
 * @property {number} [latency_cap_ms]  slap games: the most latency credited, ms
 */

/** @typedef {"double" | "sandwich" | "marriage" | "top_bottom" | "jack"} SlapPattern
 *   a slappable pattern (RULES.md 11.4) */
/** @typedef {"valid" | "wrong" | "too_late" | "empty_pile" | "again" | "out" | "no_slap_in"}
 *   SlapVerdict  what a slap was judged to be (RULES.md 11.5-11.7) */
/**
 * A slap table's options (RULES.md 11.4-11.7; Slapjack has slap_in and card_limit only).
 * @typedef {{sandwich?: boolean, marriage?: boolean, top_bottom?: boolean, burn?: number,
 *   slap_in: boolean, card_limit: number}} SlapOptions
 */
/**
 * A slap's figures, whole ms on the server's clock: reaction = arrived - sent - 2 latency
 * (a computer's: its drawn delay).
 * @typedef {{sent: number, arrived: number, latency: number, reaction: number,
 *   computer: boolean}} SlapTiming
 */
/**
 * What a move of a slap game did (engine events, cards as text).
 * @typedef {{event: "card", number: number, seat: number, card: string,
 *   paid_for: string | null, pattern: SlapPattern | null, owed: number,
 *   owed_for: string | null, to_move: number} |
 *   {event: "window", taker: number, why: string} |
 *   {event: "slap", seat: number, pile: number, verdict: SlapVerdict,
 *   pattern: SlapPattern | null, timing?: SlapTiming} |
 *   {event: "burned", seat: number, count?: number, cards?: string[], to_seat: number | null} |
 *   {event: "taken", seat: number, count?: number, cards?: string[], why: string,
 *   trick: number | null} |
 *   {event: "out", seat: number, cards_played: number} |
 *   {event: "end", outcome: string, reason: string, winner: number | null}} SlapEvent
 *   (`count` online, `cards` in the record's log)
 */
/**
 * One engine move the table pushed: `["put", seat]`, `["slap", seat, pile]` or
 * `["close"]`; a slap has its figures.
 * @typedef {{move: (string | number)[], timing?: SlapTiming}} SlapMove
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
 * @property {number} [slaps]  slap games: valid slaps
 * @property {number} [burned]  slap games: cards burned or given for wrong slaps
 * @property {string} [decided_slaps]  slap games: the slaps that counted, as --slaps takes them
 * @property {{start_trick: number, start_cards: number, length_tricks: number,
 *   length_cards: number} | null} [cycle]  in turns: where an endless game repeats
 */

/** @typedef {{type: "state", seq: number, you: number | null, game: Game, seats: Seat[],
 *   watchers: number, idle: number | null, last: BattleMessage | CardMessage | MoveMessage | null,
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
/** @typedef {{type: "move", seq: number | null, move: number, moves: SlapMove[],
 *   events: SlapEvent[], cards_played: number, to_move: number | null, owed: number,
 *   owed_for: string | null, window: number | null, counts: number[], pile: number,
 *   top: string[], tricks: number, slaps: number, burned: number,
 *   out: Record<string, number>, outcome?: string, reason?: string,
 *   winner?: number | null}} MoveMessage
 *   slap games: one thing the table's judge did (a card put down, slaps decided, a
 *   waiting pile taken), numbered `move`; the state after it */
/** @typedef {Result & {type: "over", seq: number}} OverMessage */
/** @typedef {import("./events.js").AutoFlip} AutoFlipMessage */
/** @typedef {import("./events.js").Handed} HandedMessage */
/** @typedef {import("./events.js").Relinked} RelinkedMessage  new device link */
/** @typedef {{type: "rematch", seq: number, game: string, by: number | null}} RematchMessage */
/** @typedef {import("./events.js").PaceSet} PaceMessage */
/** @typedef {import("./events.js").FastForward} FastForwardMessage  a player who is out skips to the
 *   result: the battles left come without waiting */
/** @typedef {import("./events.js").Left} LeftMessage  the seat's player left the table; the computer
 *   plays it, or in the lobby the seat is open again and `seating[t]` (when given) is
 *   the seat whose player moves up to `t` */
/** @typedef {import("./events.js").Online} PresenceMessage */
/** @typedef {import("./events.js").Gone} GoneMessage */
/** @typedef {import("./events.js").Watchers} WatchersMessage  spectators */
/** @typedef {import("./events.js").Idle} IdleMessage
 *   `left`: seconds before the game flips for whoever has not flipped for `battle` */
/** @typedef {"clap" | "wow" | "laugh" | "sad" | "dove" | "gg" | "tie" | "again"} ReactionKey
 *   the preset reactions (cardwar.tables.events.REACTIONS); strings.reactions words them */
/** @typedef {import("./events.js").Reaction} ReactionMessage  a player (or a spectator: seat null)
 *   reacted; shown briefly */
/** @typedef {import("./events.js").Error} ErrorMessage  `code`: a key of
 *   strings.errors */
/** @typedef {import("./events.js").Ping} PingMessage  the server's heartbeat: answer with pong */
/** @typedef {import("./events.js").Pong} PongMessage */

/**
 * Every message the server sends. Numbered ones (`seq` not null) come once each,
 * in order; a reconnection says the last it saw (`?since=N`) and gets the rest,
 * then presence, gone and watchers for every seat (or a new `state`).
 * @typedef {StateMessage | JoinedMessage | StartedMessage | FlippedMessage | BattleMessage |
 *   CardMessage | MoveMessage | OverMessage | AutoFlipMessage | HandedMessage | RelinkedMessage | RematchMessage |
 *   PaceMessage | FastForwardMessage | LeftMessage |
 *   PresenceMessage | GoneMessage | WatchersMessage | IdleMessage | ReactionMessage |
 *   ErrorMessage | PingMessage | PongMessage} ServerMessage
 */

/**
 * Every message the page sends (cardwar/web/protocol.py validates them).
 * @typedef {{type: "flip", battle: number} | {type: "auto", on: boolean} |
 *   {type: "pace", pace: Pace} | {type: "skip"} | {type: "leave"} | {type: "start"} |
 *   {type: "hand_over", seat: number} | {type: "react", key: ReactionKey} | {type: "ping"} |
 *   {type: "put", card: number} | {type: "slap", pile: number} |
 *   {type: "pong", id?: number}} ClientMessage
 */

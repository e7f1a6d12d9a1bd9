// (About 460 lines: one short function per part of the page, each read on
// its own; the end screen, cards, pot and words are separate modules already.)
// The game page drawn from the state: one function per part of the page
// (join form, lobby, table and each seat, idle clock, watchers, status line,
// connection notice; the end screen and rematch are in end.js). DOM only: what
// to show comes from the state (state.js), the words from words.js.

import { byId, el, pileEl, pileLabel, playArea, seatBox, stackPile } from "./cards.js";
import { renderEnd, renderRematch } from "./end.js";
import {
  acts, canFinish, canFlip, canLeave, canSkip, canTakeBack, idleLeft, idleSeats, isCreator,
  reactionsOf, shownCounts,
} from "./state.js";
import { inTurns, renderTurn } from "./turns.js";
import { isSlapGame } from "./slap.js";
import { renderSlapRules, renderSlapTable } from "./slaptable.js";


/** @typedef {import("./state.js").State} State */
/** @typedef {import("./messages.js").Seat} Seat */
/** @typedef {import("./messages.js").ClientMessage} ClientMessage */
/** @typedef {import("./words.js").Words} Words */

/**
 * The game page's settings (cardwar.web.play.game_page, embedded as JSON).
 * @typedef {object} Config
 * @property {string} locale
 * @property {string} socket  the WebSocket path, e.g. /ws/g/ID
 * @property {number} [heartbeat]  seconds between the server's pings
 * @property {number} [flip_timeout]  seconds the others have once someone has flipped
 * @property {string} replay
 * @property {string} download
 * @property {string} variant_page
 * @property {string} share  the game's replay link to share (absolute, any language)
 * @property {boolean} [rematch_late]  the rematch has started without this viewer
 * @property {number} [peace_hold]  seconds a battle with a peace stays on the page at
 *   least (the fast pace's; the server waits at least as long before automatic flips)
 * @property {Object<string, number>} [peace_holds]  seconds the server shows a peace
 *   at each pace (slow, normal, fast) before an automatic flip
 */

/**
 * What the drawing needs besides the state: words, settings, the page's
 * actions, and the little the page remembers between two draws.
 * @typedef {object} View
 * @property {Words} w
 * @property {Config} C
 * @property {(message: ClientMessage) => void} send
 * @property {() => void} flip  flip our pile (when it can be flipped)
 * @property {() => void} slap  slap the pile in the middle (slap games)
 * @property {UI} ui
 */

/**
 * What the page remembers between two draws.
 * @typedef {object} UI
 * @property {boolean} focusPile  put the focus on our pile once it is drawn
 * @property {boolean} refused  the join was refused (?error=full)
 * @property {boolean} late  the rematch started without us (?error=rematch)
 * @property {string} shared  what the share button says it did
 * @property {boolean} [endFolded]  the end screen is folded down to a bar (end.js)
 * @property {number} [took]  the battle whose "+N" was drawn last (it pops once)
 * @property {number} [enter]  the battle whose cards are dealt onto the table in this draw
 * @property {number[]} [counts]  the pile counts drawn last (a change is shown)
 * @property {{battle: number, text: string, seat: number | null}[]} [history]
 *   the last battles in words, the newest first
 * @property {string} [status]  the game's status drawn last
 * @property {boolean | null} [autoWant]  auto-flip as we last chose it, until the
 *   state says so too (a state held behind a peace must not undo the choice)
 * @property {import("./slaptable.js").SlapUI} slap  slap games: the last line, the pile
 *   just taken, the card just burned
 */

/**
 * Draw the whole page for `state` (nothing before the first state).
 * @param {View} v
 * @param {State | null} state
 */
export function render(v, state) {
  if (!state) return;
  const g = state.game;
  byId("game").dataset.status = g.status;
  // over, its end kept while the last peace is on show
  byId("game").toggleAttribute("data-ending", Boolean(state.ending));
  byId("lobby").hidden = g.status !== "lobby";
  byId("table").hidden = g.status === "lobby";
  // the game starts: the table comes into view (the Start button may have been far down)
  if (v.ui.status === "lobby" && g.status === "playing") window.scrollTo({ top: 0 });
  v.ui.status = g.status;
  renderStatus(v, state);
  renderJoin(v, state);
  if (g.status === "lobby") renderLobby(v, state);
  else renderTable(v, state);
  renderEnd(v, state);
  renderRematch(v, state);
  // a seated player may leave, in the lobby (the seat is free again) or in play
  byId("leave-area").hidden = !canLeave(state);
  renderWatchers(v, state);
  renderReactions(v, state);
  renderSlapRules(v.w, state);
}

/**
 * Read a text out to screen readers: the play in `#announce`; the idle clock
 * in `#announce-clock`, so that "Flipping for you in 10 s" never replaces
 * the card just put down before it is heard.
 * @param {string} text
 * @param {"announce" | "announce-clock"} [region]
 */
export function announce(text, region = "announce") {
  const a = byId(region);
  a.textContent = "";
  window.setTimeout(() => { a.textContent = text; }, 50);
}

/** The connection notice: shown with `text`, hidden without. @param {string} text */
export function renderNotice(text) {
  const n = byId("conn-notice");
  n.hidden = !text;
  n.textContent = text || "";
}

/** The status line: the last error, if any. @param {View} v @param {State} state */
export function renderStatus(v, state) {
  const errors = v.w.S.errors;
  byId("game-status").textContent = state.error ? errors[state.error] || errors.bad_message : "";
}

/** @param {Seat} s */
const isOpen = (s) => s.kind === "open";

/**
 * The join form only while a seat is open; otherwise "Every seat is taken"
 * (also after a refused join).
 * @param {View} v
 * @param {State} state
 */
export function renderJoin(v, state) {
  const S = v.w.S;
  const g = state.game;
  const open = g.status === "lobby" && state.seats.some(isOpen);
  const form = /** @type {HTMLFormElement | null} */ (document.querySelector(".join-form"));
  if (form) {
    const wasShown = !form.hidden;
    form.hidden = state.you !== null || !open;
    if (wasShown && form.hidden && state.you === null) announce(S.errors.no_seat);
  }
  const full = state.you === null && !open && (g.status === "lobby" || v.ui.refused);
  let note = document.getElementById("join-full");
  if (full && !note) {
    note = el("p", "join-full" + (v.ui.refused ? " form-error" : ""), "");
    note.id = "join-full";
    if (v.ui.refused) note.setAttribute("role", "alert");
    const lobby = byId("lobby");
    lobby.parentNode?.insertBefore(note, lobby);  // where the form was
  }
  if (note) note.hidden = !full;
  if (note && full) note.textContent = fullLobbyWords(S, g.status === "lobby" && !v.ui.refused);
  // the sharing tools are the seated players': a visitor sees the invitation and the form
  byId("lobby-invite").hidden = state.you === null && g.status === "lobby";
}

/**
 * What a visitor who found every seat taken reads: in the lobby, that they can
 * watch once the game starts; after a refused join, only that the seats are taken.
 * @param {import("./words.js").Strings} S
 * @param {boolean} watching
 */
function fullLobbyWords(S, watching) {
  return watching ? `${S.errors.no_seat} ${S.watch_soon}` : S.errors.no_seat;
}

// -- lobby ----------------------------------------------------------------------
/**
 * The seats as they fill, and the start button (for whoever may start).
 * @param {View} v
 * @param {State} state
 */
export function renderLobby(v, state) {
  const { w } = v;
  const S = w.S;
  const list = byId("seat-list");
  list.textContent = "";
  state.seats.forEach((s) => list.appendChild(lobbySeat(v, state, s)));
  const area = byId("start-area");
  area.textContent = "";
  const open = state.seats.filter(isOpen).length;
  // seats the computer fills on start: open ones and those still kept for a player
  const empty = state.seats.filter((s) => s.kind === "open" || s.kind === "reserved").length;
  const kept = state.seats.some((s) => s.kind === "reserved");
  if (isCreator(state)) {
    // seats kept for the last game's players: waiting is the state, starting the option
    if (kept) area.appendChild(el("span", "lobby__wait", S.wait_kept + " "));
    const label = kept ? S.start_kept : empty ? S.start_fill : S.start;
    const b = el("button", kept ? "button button--quiet" : "button", label);
    b.type = "button";
    b.id = "start-game";
    b.addEventListener("click", () => {
      b.disabled = true;
      v.ui.focusPile = true;  // keyboard players land on their pile
      v.send({ type: "start" });
    });
    area.appendChild(b);
  } else if (state.you !== null) {
    const creator = w.seatName(state.seats, state.game.creator || 0);
    area.textContent = w.fmt(S.wait_start, { name: creator });
  } else if (!open) {
    area.textContent = S.watching;
  }
  byId("seating-lobby").textContent = S.seating_lobby;
}

/**
 * One seat of the lobby's list.
 * @param {View} v
 * @param {State} state
 * @param {Seat} s
 */
function lobbySeat(v, state, s) {
  const { w } = v;
  const S = w.S;
  const li = el("li", "seat-list__item");
  li.dataset.seat = String(s.seat);
  li.appendChild(el("span", "seat-list__label", w.fmt(S.seat, { n: w.num(s.seat + 1) })));
  if (s.kind === "open") {
    li.appendChild(el("span", "seat-list__name seat-list__name--open", S.open_seat));
  } else if (s.kind === "reserved") {  // a rematch seat kept for its former player
    li.appendChild(el("span", "seat-list__name seat-list__name--open seat-list__name--reserved",
      w.fmt(S.reserved_seat, { name: s.nickname || "" })));
  } else {
    li.appendChild(el("bdi", "seat-list__name", w.seatName(state.seats, s.seat)));
    seatTags(v, state, s, li);
    if (s.seat === state.game.creator) li.appendChild(el("span", "tag tag--quiet", S.creator));
    if (s.kind === "human") li.appendChild(presenceEl(v, state, s));
    const said = reactionBubble(v, state, s.seat);
    if (said) li.appendChild(said);
  }
  return li;
}

/**
 * The computer and "you" tags of a seat.
 * @param {View} v
 * @param {State} state
 * @param {Seat} s
 * @param {HTMLElement} into
 */
function seatTags(v, state, s, into) {
  const S = v.w.S;
  if (s.kind === "computer") {
    into.appendChild(el("span", "tag tag--quiet tag--computer", S.computer));
  }
  if (s.kind === "left") {  // the computer plays the seat of a player who left
    into.appendChild(el("span", "tag tag--quiet tag--left", S.left));
    into.appendChild(el("span", "tag tag--quiet tag--computer", S.computer));
  }
  if (s.seat === state.you) into.appendChild(el("span", "tag", S.you));
}

/**
 * A player's presence chip; unknown (dimmed) for the others while we reconnect.
 * @param {View} v
 * @param {State} state
 * @param {Seat} s
 */
function presenceEl(v, state, s) {
  const S = v.w.S;
  if (state.stale && s.seat !== state.you) {
    return el("span", "presence presence--unknown", S.presence_unknown);
  }
  const on = s.seat === state.you && state.stale ? false : s.online;
  return el("span", "presence" + (on ? " presence--on" : ""), on ? S.online : S.offline);
}

// -- table ----------------------------------------------------------------------
/**
 * The table: the battle number, every seat, the last battle in words, help,
 * the idle clock and auto-flip.
 * @param {View} v
 * @param {State} state
 */
export function renderTable(v, state) {
  const { w, C } = v;
  const S = w.S;
  const g = state.game;
  const you = state.you;
  const hadFocus = document.activeElement && document.activeElement.id === "my-pile";
  byId("table").dataset.battle = String(g.battle);
  // over (its end kept behind the last peace): the last battle, not a next one
  // the heading names the last battle, whose cards are on the table (issue 22)
  const slaps = isSlapGame(g);
  // a slap game counts its cards put down (its moves count slaps too)
  const shown = slaps ? { ...g, battle: g.cards_played || 0 } : g;
  byId("battle-number").textContent = w.battleNumber(state.ending ? { ...shown, status: "over" }
    : shown, !inTurns(g) && Boolean(state.last));
  const seats = byId("seats");
  seats.textContent = "";
  seats.dataset.players = String(g.players);
  byId("felt").dataset.players = String(g.players);
  byId("felt").classList.toggle("felt--turns", inTurns(g));
  state.seats.forEach((s) => seats.appendChild(tableSeat(v, state, s)));
  v.ui.counts = shownCounts(state).slice();
  v.ui.enter = undefined;  // dealt once: a drawing again shows the cards still
  renderScore(v, state);
  renderHistory(v);
  const name = (/** @type {number} */ seat) => w.seatName(state.seats, seat);
  // a peace's result is said once its face-down cards are turned
  byId("summary").textContent = state.last && state.revealed
    ? w.summary(state.last, Boolean(g.tie_word), false, name) : "";
  if (slaps) renderSlapTable(w, state, v.ui.slap, v.slap);
  else renderTurn(w, state);
  byId("felt").classList.toggle("felt--slaps", slaps);
  const mine = you !== null && g.status === "playing" && g.in_play[you];
  byId("flip-help").textContent = !mine ? "" : slaps ? S.slap_help
    : w.plural(inTurns(g) ? S.flip_help_turns : S.flip_help, Math.round(C.flip_timeout || 10));
  byId("watching-note").hidden = !(you === null && g.status !== "lobby");
  // a player who is out has nothing left to flip
  byId("auto-area").hidden = !mine;
  renderChoices(v, state);
  byId("seating-note").textContent = g.seating ? w.fmt(S.seating_note,
    { names: state.seats.map((s) => w.seatName(state.seats, s.seat)).join(", ") }) : "";
  if (you !== null) {
    const auto = /** @type {HTMLInputElement} */ (byId("auto-flip"));
    const on = Boolean(state.seats[you].auto_flip);
    // our own choice stands until the state agrees (one held behind a peace is older)
    if (v.ui.autoWant === on) v.ui.autoWant = null;
    if (v.ui.autoWant === null || v.ui.autoWant === undefined) auto.checked = on;
  }
  const pile = document.getElementById("my-pile");
  if ((hadFocus || v.ui.focusPile) && pile) {
    v.ui.focusPile = false;
    pile.focus({ preventScroll: true });
  }
  renderIdle(v, state, Date.now());
}

/**
 * What a seated player chooses besides flipping: the pace of automatic flips,
 * skipping to the result once out, leaving the table; and the note that says
 * we are played for after being idle.
 * @param {View} v
 * @param {State} state
 */
function renderChoices(v, state) {
  const S = v.w.S;
  const g = state.game;
  const me = state.you !== null ? state.seats[state.you] : null;
  const seated = Boolean(me && me.kind === "human") && g.status === "playing";
  byId("pace-area").hidden = !seated;
  const pace = /** @type {HTMLSelectElement} */ (byId("pace"));
  if (me && document.activeElement !== pace) pace.value = me.pace || "normal";
  renderSkip(S, state, seated);
  byId("skip-note").textContent = g.skipping && seated ? S.skipping : "";
  const away = Boolean(seated && me && me.gone && g.in_play[/** @type {number} */ (state.you)]);
  byId("away-note").hidden = !away;
  byId("away-note").textContent = away ? S.away_you : "";
}

/**
 * The button that fast-forwards to the result: "Skip to the result" once out,
 * "Finish the game" while in play with no other human in play (both send `skip`).
 * @param {import("./words.js").Strings} S
 * @param {State} state
 * @param {boolean} seated
 */
function renderSkip(S, state, seated) {
  const finish = canFinish(state);
  byId("skip-area").hidden = !(canSkip(state) || finish || (seated && state.game.skipping));
  const button = /** @type {HTMLButtonElement} */ (byId("skip"));
  button.disabled = Boolean(state.game.skipping);
  if (!state.game.skipping) button.textContent = finish ? S.finish : S.skip;
}

/**
 * One seat at the table: name and tags, presence, away, whether it has
 * flipped, its pile (ours is the flip button) and the cards it played.
 * @param {View} v
 * @param {State} state
 * @param {Seat} s
 */
export function tableSeat(v, state, s) {
  const { w } = v;
  const S = w.S;
  const g = state.game;
  const seat = s.seat;
  const { box, head } = seatBox(w, state, seat);
  seatTags(v, state, s, head);
  if (s.kind === "human") head.appendChild(presenceEl(v, state, s));
  if (s.kind === "human" && s.gone && g.status === "playing") {
    head.appendChild(el("span", "tag tag--quiet tseat__gone", S.gone));
    if (isCreator(state) && seat !== state.you) {
      const hand = el("button", "button button--quiet button--small tseat__hand",
        w.fmt(S.hand_over, { name: w.seatName(state.seats, seat) }));
      hand.type = "button";
      hand.addEventListener("click", () => {
        hand.disabled = true;
        v.send({ type: "hand_over", seat });
      });
      head.appendChild(hand);
    }
  }
  const said = reactionBubble(v, state, seat);
  if (said) head.appendChild(said);
  const flipped = g.flipped.indexOf(seat) >= 0;
  const st = !g.in_play[seat] ? "out" : g.status !== "playing" ? null : flipped ? "ready"
    : acts(g, seat) ? "wait" : null;
  if (st) {
    const waiting = isSlapGame(g) ? S.to_put_down : S.waiting;  // a slap game's turn
    const text = st === "out" ? S.out : st === "ready" ? S.flipped : waiting;
    head.appendChild(el("span", "tseat__state tseat__state--" + st, text));
  }
  const pile = seat === state.you && g.status === "playing" && g.in_play[seat]
    ? myPile(v, state, seat) : pileEl(w, state, seat);
  const before = v.ui.counts ? v.ui.counts[seat] : undefined;
  const count = pile.querySelector(".pile__count");
  const now = shownCounts(state)[seat];
  if (count && before !== undefined && before !== now) {
    count.classList.add(now > before ? "pile__count--up" : "pile__count--down");
  }
  box.appendChild(pile);
  const area = playArea(w, state, seat);
  if (state.last && v.ui.enter === state.last.battle) dealOrder(area);
  box.appendChild(area);
  if (state.last && state.revealed && state.last.winner === seat && state.last.pot && !inTurns(g)) {
    // the winner, unmistakably: what it takes, on the card that took it (clear of
    // the names and tags above the cards), else at the seat's corner
    const took = el("span", "tseat__took", "+" + w.num(state.last.pot));
    took.setAttribute("aria-hidden", "true");
    if (v.ui.took === state.last.battle) took.classList.add("tseat__took--shown");  // pops once
    v.ui.took = state.last.battle;
    const won = area.querySelector(".pcard--won");
    if (won) took.classList.add("tseat__took--card");
    (won || box).appendChild(took);
  }
  return box;
}

/**
 * Mark a battle's cards to be dealt in order (CSS animations, play.css): the card
 * turned up, then each peace letter by letter, then the peace's card turned up.
 * @param {HTMLElement} area  a seat's `.tplay`
 */
function dealOrder(area) {
  area.classList.add("tplay--enter");
  let k = 0;
  area.querySelectorAll(".tplay__peace").forEach((row) => {
    row.querySelectorAll(".tplay__down .pcard").forEach((c) => {
      /** @type {HTMLElement} */ (c).style.setProperty("--d", String(k++));
    });
    const up = row.querySelector(":scope > .pcard");
    if (up) /** @type {HTMLElement} */ (up).style.setProperty("--d", String(k + 1));
    k += 2;
  });
}

/**
 * The score bar: everyone's share of the cards, one coloured part per seat.
 * @param {View} v
 * @param {State} state
 */
function renderScore(v, state) {
  const { w } = v;
  const bar = byId("scorebar");
  bar.textContent = "";
  const counts = shownCounts(state);  // a peace's result waits for its cards
  const parts = state.seats.map((s) => w.seatName(state.seats, s.seat) + ": "
    + w.plural(w.S.cards, counts[s.seat]));
  bar.setAttribute("role", "img");
  bar.setAttribute("aria-label", parts.join(", "));
  state.seats.forEach((s) => {
    const n = counts[s.seat];
    const part = el("span", "scorebar__part");
    part.dataset.seat = String(s.seat);
    part.style.flexGrow = String(n);
    part.title = parts[s.seat];
    if (n > 0) part.appendChild(el("span", "scorebar__n", w.num(n)));
    bar.appendChild(part);
  });
}

/**
 * The last battles in words, the newest first (kept by game.js as they come).
 * @param {View} v
 */
function renderHistory(v) {
  const list = byId("history");
  const items = v.ui.history || [];
  byId("history-box").hidden = !items.length;
  list.textContent = "";
  items.forEach((h) => {
    const li = /** @type {HTMLLIElement} */ (el("li", "history__item", h.text));
    li.value = h.battle;
    if (h.seat !== null) li.dataset.seat = String(h.seat);
    list.appendChild(li);
  });
}

/**
 * Our own pile: a button that flips (Space and Enter flip too, see game.js); while
 * we are away and already flipped for, it takes our seat back.
 * @param {View} v
 * @param {State} state
 * @param {number} seat
 */
function myPile(v, state, seat) {
  const { w } = v;
  const can = canFlip(state);
  // away, flipped for already: a tap takes the seat back (no new card is shown)
  const back = canTakeBack(state);
  const label = pileLabel(w, state, seat);
  const pile = el("button", "pile pile--mine");
  pile.type = "button";
  pile.id = "my-pile";
  pile.setAttribute("aria-disabled", String(!can && !back));
  const slaps = isSlapGame(state.game);
  const word = slaps ? w.S.put_down : w.S.flip;
  pile.setAttribute("aria-label", can || back ? label + ". " + word : label);
  if (slaps) pile.setAttribute("aria-keyshortcuts", "Space");
  pile.addEventListener("click", v.flip);
  stackPile(w, pile, shownCounts(state)[seat]);
  // in a slap game the word keeps its room when it is not our turn: our pile stays put
  if (can || slaps) {
    const cta = pile.appendChild(el("span", "pile__flip" + (can ? "" : " pile__flip--off"), word));
    if (!can) cta.setAttribute("aria-hidden", "true");
    if (slaps) {  // the key that does it, shown on the pile
      cta.append(" ");
      cta.appendChild(el("kbd", "", w.S.key_space));
    }
  }
  return pile;
}

/**
 * The idle clock: once someone has flipped, the others have C.flip_timeout
 * seconds. Drawn again every quarter second while it runs.
 * @param {View} v
 * @param {State} state
 * @param {number} now  Date.now()
 */
export function renderIdle(v, state, now) {
  const { w } = v;
  const note = byId("idle-note");
  const left = idleLeft(state, now);
  if (left === null) {
    note.textContent = "";
    note.hidden = true;
    return;
  }
  const n = w.num(left);
  const seats = idleSeats(state);
  const lines = [];
  if (state.you !== null && seats.indexOf(state.you) >= 0) lines.push(w.fmt(w.S.idle_you, { n }));
  const others = seats.filter((s) => s !== state.you).map((s) => w.seatName(state.seats, s));
  if (others.length) lines.push(w.fmt(w.S.idle_wait, { names: others.join(", "), n }));
  note.textContent = lines.join(" ");
  note.hidden = false;
}

/**
 * "2 people are watching" (not while reconnecting: the count may be old).
 * @param {View} v
 * @param {State} state
 */
export function renderWatchers(v, state) {
  const box = byId("watchers");
  // a spectator is one of the watchers: "1 person is watching" would be themselves
  const n = state.stale ? 0 : Math.max(0, (state.watchers || 0) - (state.you === null ? 1 : 0));
  box.hidden = n <= 0;
  box.textContent = n > 0 ? v.w.plural(v.w.S.watching_count, n) : "";
}

// -- reactions -----------------------------------------------------------------
/**
 * A reaction as the page shows it: its emoji (named for screen readers) or its words.
 * @param {View} v
 * @param {import("./messages.js").ReactionKey} key
 */
export function reactionEl(v, key) {
  const r = v.w.S.reactions[key];
  if (!r.emoji || !emojiShown()) return el("span", "reaction reaction--words", r.text);
  const e = el("span", "reaction reaction--emoji", r.emoji);
  e.setAttribute("role", "img");
  e.setAttribute("aria-label", r.text);
  e.title = r.text;
  return e;
}

/** @type {boolean | undefined} */
let emojiOk;

/**
 * Whether this browser draws emoji in colour (an emoji font is installed): drawn
 * once on a small canvas; without one the reactions show their words.
 * @returns {boolean}
 */
export function emojiShown() {
  if (emojiOk !== undefined) return emojiOk;
  emojiOk = true;
  try {
    const c = document.createElement("canvas");
    c.width = c.height = 20;
    const x = c.getContext("2d", { willReadFrequently: true });
    if (!x) return emojiOk;
    x.textBaseline = "top";
    x.font = "16px sans-serif";
    x.fillStyle = "#000";
    x.fillText("\u{1F602}", 0, 0);
    const d = x.getImageData(0, 0, 20, 20).data;
    let colour = false;
    for (let i = 0; i < d.length && !colour; i += 4) {
      colour = d[i + 3] > 0 && (Math.abs(d[i] - d[i + 1]) > 30 || Math.abs(d[i + 1] - d[i + 2]) > 30);
    }
    emojiOk = colour;
  } catch { /* no canvas: take the emoji as shown */ }
  return emojiOk;
}

/**
 * The newest reaction a seat shows, or null.
 * @param {View} v
 * @param {State} state
 * @param {number} seat
 */
function reactionBubble(v, state, seat) {
  const shown = reactionsOf(state, seat, Date.now());
  return shown.length ? reactionEl(v, shown[shown.length - 1].key) : null;
}

/**
 * The row of preset reactions (made once): each button sends its key.
 * @param {View} v
 */
export function buildReactionBar(v) {
  const bar = byId("reaction-buttons");
  if (bar.childElementCount) return;
  for (const [key, r] of Object.entries(v.w.S.reactions)) {
    const emoji = r.emoji && emojiShown();
    const b = el("button", "button button--quiet reactions__button", emoji ? r.emoji : r.text);
    b.type = "button";
    b.dataset.reaction = key;
    if (emoji) {
      b.setAttribute("aria-label", r.text);
      b.title = r.text;
    }
    b.addEventListener("click", () => v.send({
      type: "react", key: /** @type {import("./messages.js").ReactionKey} */ (key) }));
    bar.appendChild(b);
  }
}

/**
 * The reactions' parts besides the seats: the spectators' reactions (shown
 * apart from the players'), and "not so fast" after a refused one.
 * @param {View} v
 * @param {State} state
 */
export function renderReactions(v, state) {
  const now = Date.now();
  // nobody to react to: every other seat is a computer
  // and a visitor who may still sit down is shown the join form, not reactions
  byId("reactions").hidden = (state.you === null && state.game.status === "lobby"
      && state.seats.some(isOpen))
    || (state.you !== null
      && state.seats.every((s) => s.seat === state.you || s.kind === "computer"));
  const box = byId("spectator-reactions");
  box.textContent = "";
  const theirs = reactionsOf(state, null, now);
  box.hidden = !theirs.length;
  if (theirs.length) {
    box.appendChild(el("span", "reactions__who", v.w.S.spectators_react));
    theirs.forEach((r) => box.appendChild(reactionEl(v, r.key)));
  }
  byId("reaction-note").textContent = state.refused > now ? v.w.S.errors.too_many_reactions : "";
  aloneWithComputers(Boolean(state.game.vs_computer));
}

/**
 * Against the computer nobody reads reactions: the buttons and the others'
 * reactions are not shown (the sound switch stays).
 * @param {boolean} alone
 */
function aloneWithComputers(alone) {
  byId("reaction-buttons").hidden = alone;
  byId("reaction-note").hidden = alone;
  if (alone) byId("spectator-reactions").hidden = true;
  const mute = byId("mute-reactions").parentElement;
  if (mute) mute.hidden = alone;
}

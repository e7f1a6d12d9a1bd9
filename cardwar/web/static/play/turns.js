// A game played in turns (Beggar-my-neighbour, RULES.md 10) on the game page and
// in the replay: the pile on the table (its newest cards and its size), whose
// turn it is, what is owed ("Bob must pay 3 cards for the king of hearts") and
// the trick just taken, drawn and said in words for the screen reader.

import { byId, cardEl, el } from "./cards.js";

/** @typedef {import("./state.js").State} State */
/** @typedef {import("./messages.js").CardMessage} CardMessage */
/** @typedef {import("./messages.js").Game} Game */
/** @typedef {import("./words.js").Words} Words */

/**
 * Whether the game is played in turns (its state names the seat to move).
 * @param {Game} g
 */
export function inTurns(g) {
  return g.to_move !== undefined;
}

/**
 * What is owed now, or whose turn it is, in words ("" once over).
 * @param {Words} w
 * @param {Game} g
 * @param {(seat: number) => string} name
 * @param {number | null} [you]  our seat ("Your turn to play."); null: a spectator, the replay
 */
export function owedText(w, g, name, you = null) {
  if (g.status !== "playing" || g.to_move === null || g.to_move === undefined) return "";
  if (g.owed && g.owed_for) {
    return w.plural(w.S.must_pay, g.owed, { name: name(g.to_move), for_card: payFor(w, g.owed_for) });
  }
  if (you !== null && g.to_move === you) return w.S.to_play_you;
  return w.fmt(w.S.to_play, { name: name(g.to_move) });
}

/**
 * What a payment is for, worded for the sentence: "for the king of hearts".
 * @param {Words} w
 * @param {string} code  a court card, e.g. "KH"
 */
export function payFor(w, code) {
  const phrase = w.S.pay_for[code[0]];
  return phrase ? w.fmt(phrase, { suit: w.S.suits_of[code[1]] }) : w.cardName(code);
}

/**
 * One card put down, in words: who put down what, and the trick if one was taken.
 * @param {Words} w
 * @param {CardMessage} m
 * @param {(seat: number) => string} name
 */
export function cardText(w, m, name) {
  const parts = [w.fmt(w.S.puts_down, { name: name(m.seat), card: w.cardName(m.face_up) })];
  if (m.taken_by !== null) {
    parts.push(w.plural(w.S.takes_trick, m.taken, { name: name(m.taken_by) }));
  }
  return parts.join(" ");
}

/**
 * The pile on the table: its newest cards face up and its size.
 * @param {Words} w
 * @param {string[]} top
 * @param {number} size
 * @param {boolean} taken  the cards shown were just taken (a trick)
 */
export function tablePile(w, top, size, taken) {
  const box = el("div", "turn__pile" + (taken ? " turn__pile--taken" : ""));
  box.id = "turn-pile";
  box.dataset.size = String(size);
  const row = el("div", "turn__cards");
  top.forEach((code) => row.appendChild(cardEl(w, code, "")));
  box.appendChild(row);
  box.appendChild(el("p", "turn__size", w.plural(w.S.table_pile, size)));
  return box;
}

/**
 * Draw the centre of a game in turns into `#turn` (hidden for battle games).
 * @param {Words} w
 * @param {State} state
 */
export function renderTurn(w, state) {
  const area = byId("turn");
  const g = state.game;
  area.hidden = !inTurns(g) || g.status === "lobby";
  if (area.hidden) return;
  const name = (/** @type {number} */ seat) => w.seatName(state.seats, seat);
  const m = state.turn;
  area.textContent = "";
  const taken = Boolean(m && m.taken_by !== null);
  area.appendChild(tablePile(w, g.top || [], g.pile || 0, taken));
  const owed = el("p", "turn__owed", owedText(w, g, name, state.you));
  owed.id = "turn-owed";
  area.appendChild(owed);
  const said = el("p", "turn__last", m ? cardText(w, m, name) : "");
  said.id = "turn-last";
  area.appendChild(said);
  area.appendChild(el("p", "turn__tricks", w.plural(w.S.tricks, g.tricks || 0)));
}

// Drawing, shared by the game (render.js) and the replay (replay.js): elements,
// card faces and backs, a seat's box, its pile and the cards it played in the
// last battle. DOM only; the words come from words.js.

/** @typedef {import("./words.js").Words} Words */
/** @typedef {import("./state.js").State} State */

import { el } from "./dom.js";
import { shownCounts } from "./state.js";

/** @type {Record<string, string>} */
const SUITS = { C: "\u2663", D: "\u2666", H: "\u2665", S: "\u2660" };

export { byId, el, embedded } from "./dom.js";

/**
 * A card face, named for screen readers.
 * @param {Words} w
 * @param {string} code  e.g. "QH", "TD"
 * @param {string} [extra]  more classes
 */
export function cardEl(w, code, extra) {
  const e = el("span", "pcard" + (extra ? " " + extra : ""));
  if (code[1] === "D" || code[1] === "H") e.classList.add("pcard--red");
  e.setAttribute("role", "img");
  e.setAttribute("aria-label", w.cardName(code));
  e.dataset.card = code;
  const r = el("span", "pcard__rank", code[0] === "T" ? "10" : code[0]);
  const s = el("span", "pcard__suit", SUITS[code[1]]);
  r.setAttribute("aria-hidden", "true");
  s.setAttribute("aria-hidden", "true");
  e.appendChild(r);
  e.appendChild(s);
  return e;
}

/**
 * A card back, with the letter of a peace when there is one.
 * @param {string} letter
 */
export function backEl(letter) {
  const e = el("span", "pcard pcard--back");
  if (letter) e.appendChild(el("span", "pcard__letter", letter));
  e.setAttribute("aria-hidden", "true");
  return e;
}

/**
 * Where a seat sits around the table, seen from ours (at the bottom; a
 * spectator sees seat 1 there): "bottom", "top", "left" or "right".
 * @param {number} players  2 to 4
 * @param {number} seat
 * @param {number | null} you
 * @returns {string}
 */
export function seatPlace(players, seat, you) {
  const r = (seat - (you === null ? 0 : you) + players) % players;
  const around = players === 2 ? ["bottom", "top"] : players === 3 ? ["bottom", "left", "right"]
    : ["bottom", "left", "top", "right"];
  return around[r] || "top";
}

/**
 * A seat's box (`section.tseat`) with its name in the header, marked as ours,
 * out of the game or the last battle's winner, and its place around the table.
 * @param {Words} w
 * @param {State} state
 * @param {number} seat
 * @returns {{box: HTMLElement, head: HTMLElement}}
 */
export function seatBox(w, state, seat) {
  const box = el("section", "tseat");
  const name = w.seatName(state.seats, seat);
  box.dataset.seat = String(seat);
  box.dataset.pos = seatPlace(state.seats.length, seat, state.you);
  box.setAttribute("aria-label", name);
  if (seat === state.you) box.classList.add("tseat--you");
  if (!state.game.in_play[seat]) box.classList.add("tseat--out");
  // the winner is marked once the cards that decide are turned (shownCounts)
  if (state.last && state.revealed && state.last.winner === seat) box.classList.add("tseat--won");
  const head = el("header", "tseat__head");
  head.appendChild(el("bdi", "tseat__name", name));  // a nickname of any script
  box.appendChild(head);
  return { box, head };
}

/**
 * Fill `pile` (a pile's element) with its top card back (or an empty place) and count.
 * @param {Words} w
 * @param {HTMLElement} pile
 * @param {number} count
 * @returns {HTMLElement} the pile
 */
export function stackPile(w, pile, count) {
  pile.appendChild(count > 0 ? backEl("") : el("span", "pile__empty"));
  const c = el("span", "pile__count", w.plural(w.S.cards, count));
  c.setAttribute("aria-hidden", "true");
  pile.appendChild(c);
  return pile;
}

/**
 * A pile nobody can click (another seat's, or any in the replay).
 * @param {Words} w
 * @param {State} state
 * @param {number} seat
 */
export function pileEl(w, state, seat) {
  const pile = el("div", "pile");
  pile.setAttribute("role", "img");
  pile.setAttribute("aria-label", pileLabel(w, state, seat));
  return stackPile(w, pile, shownCounts(state)[seat]);
}

/**
 * "Ann's pile: 12 cards".
 * @param {Words} w
 * @param {State} state
 * @param {number} seat
 */
export function pileLabel(w, state, seat) {
  return w.plural(w.S.pile, shownCounts(state)[seat], { name: w.seatName(state.seats, seat) });
}

/**
 * How a card turned up is marked: the one that takes the pot (`pcard--won`), one of
 * several tied for the lead that start a peace or war (`pcard--tie`), or nothing.
 * @param {number[]} leaders  the seats whose card leads (lowest in Peace, highest in War)
 * @param {number} seat
 * @param {boolean} deciding  the last cards turned in the battle: a lone leader wins
 */
function mark(leaders, seat, deciding) {
  if (leaders.indexOf(seat) < 0) return "";
  if (leaders.length > 1) return "pcard--lead pcard--tie";
  return deciding ? "pcard--lead pcard--won" : "pcard--lead";
}

/**
 * The cards `seat` played in the last battle: its card turned up, then a row
 * per peace (face-down cards, lettered, and the card turned up, or ↩ when its
 * card stands). Face-down cards are shown once `state.revealed`; once the pot is
 * picked up (`state.taken`) nothing, or the cards greyed with reduced motion.
 * @param {Words} w
 * @param {State} state
 * @param {number} seat
 */
export function playArea(w, state, seat) {
  const last = state.last;
  const box = el("div", "tplay");
  const face = last && last.face_up[seat];
  if (!last || !face) return box;
  const taken = state.taken && state.taken.battle === last.battle ? state.taken : null;
  if (taken && !taken.still) {  // the pot went to the winner: drawn again, nothing is back
    box.classList.add("tplay--cleared");
    return box;
  }
  if (taken) box.classList.add("tplay--taken-still");
  // turned over (the reveal's drawing also turns them, play.css .tplay--turn-now)
  if (state.revealed) box.classList.add("tplay--turning");
  const tieWord = Boolean(state.game.tie_word);
  const row = el("div", "tplay__row");
  row.appendChild(cardEl(w, face, mark(last.winning_seats, seat, last.peaces.length === 0)));
  box.appendChild(row);
  last.peaces.forEach((p, i) => {
    const down = p.face_down[seat];
    if (down === null) return;
    const prow = el("div", "tplay__row tplay__peace");
    prow.dataset.peace = String(i + 1);
    const letters = w.tieLetters(tieWord, down.length);
    const backs = el("span", "tplay__down");
    down.forEach((code, j) => {
      let b;
      if (state.revealed) {
        // the pot is taken: the face-down cards are shown, still labelled
        b = cardEl(w, code, "pcard--shown");
        b.style.setProperty("--i", String(j));  // turned over in the order laid
        b.removeAttribute("role");
        b.removeAttribute("aria-label");
        if (letters[j]) b.appendChild(el("span", "pcard__letter", letters[j]));
      } else {
        b = backEl(letters[j]);
      }
      b.dataset.card = code;
      backs.appendChild(b);
    });
    if (!tieWord && down.length && !state.revealed) {  // "3 face down", while they are
      backs.prepend(el("span", "tplay__count", w.plural(w.S.face_down_count, down.length)));
    }
    backs.setAttribute("role", "img");
    backs.setAttribute("aria-label", down.map(w.cardName).join(", ") || "-");
    prow.appendChild(backs);
    const up = p.face_up[seat];
    if (p.standing.indexOf(seat) >= 0) {
      prow.appendChild(el("span", "tplay__stands", "\u21a9"));
    } else if (up) {
      const deciding = i === last.peaces.length - 1 && state.revealed;
      prow.appendChild(cardEl(w, up, mark(p.winning_seats, seat, deciding)));
    }
    box.appendChild(prow);
  });
  return box;
}

// The centre of a slap game's table (Egyptian Ratscrew, Slapjack: RULES.md 11) on
// the game page and in the replay: the pile in the middle, its newest cards fanned
// so that a double or a sandwich shows, its size, and the button it is (a tap or
// a click slaps, key S); the line that says who took the pile and why; whose turn
// it is and what is owed; the table's options. DOM only: the words come from
// slap.js and turns.js, the state from state.js.

import { backEl, byId, cardEl, el } from "./cards.js";
import { optionsText, pointerSlaps } from "./slap.js";
import { owedText } from "./turns.js";

/** @typedef {import("./state.js").State} State */
/** @typedef {import("./words.js").Words} Words */

/** Cards put down after which the line of the last slap is taken down. */
export const LINE_CARDS = 4;

/**
 * What the page remembers of the last moves for the drawing (game.js keeps it).
 * @typedef {object} SlapUI
 * @property {{text: string, kind: string | null, card: number, move: number} | null} line
 *   the last line worth showing big, and the cards put down when it came
 * @property {{top: string[], card: number, seat: number} | null} taken  the cards of the
 *   pile just taken (still drawn a moment as they go), with the cards put down then
 * @property {number} burn  the move whose wrong slap burned a card (drawn going under)
 */

/**
 * Whether we may slap now: seated, in the game (holding cards or not: slapping in
 * is the server's to judge), the game going on, connected.
 * @param {State | null} s
 */
export function canSlap(s) {
  if (!s || s.stale || s.ending || s.you === null) return false;
  const g = s.game;
  return g.status === "playing" && Boolean(g.in_play[s.you]);
}

/**
 * The pile in the middle: a button for a player who may slap, a picture otherwise.
 * @param {Words} w
 * @param {State} state
 * @param {SlapUI} ui
 * @param {boolean} slappable  drawn as a button
 */
export function slapPile(w, state, ui, slappable) {
  const S = w.S;
  const g = state.game;
  const size = g.pile || 0;
  const shownTaken = size === 0 && ui.taken && ui.taken.card === (g.cards_played || 0);
  const top = shownTaken && ui.taken ? ui.taken.top : g.top || [];
  const box = el(slappable ? "button" : "div", "slap-pile");
  box.id = "slap-pile";
  box.dataset.size = String(size);
  if (slappable) {
    /** @type {HTMLButtonElement} */ (box).type = "button";
    box.setAttribute("aria-keyshortcuts", "S");
  } else {
    box.setAttribute("role", "img");
  }
  if (state.slapped !== undefined && state.slapped >= 0 && state.slapped === g.cards_played) {
    box.classList.add("slap-pile--slapped");
  }
  const fan = el("span", "slap-pile__cards");
  if (size > top.length || (ui.burn && ui.burn === g.battle)) {
    const under = backEl("");
    under.classList.add("slap-pile__under");
    if (ui.burn && ui.burn === g.battle) under.classList.add("slap-pile__under--burn");
    fan.appendChild(under);
  }
  if (!top.length) fan.appendChild(el("span", "pile__empty slap-pile__empty"));
  top.forEach((code, i) => {
    const c = cardEl(w, code, "slap-pile__card");
    c.style.setProperty("--k", String(i));
    c.removeAttribute("role");
    fan.appendChild(c);
  });
  if (shownTaken && ui.taken) {
    fan.classList.add("slap-pile__cards--taken");
    fan.dataset.to = String(ui.taken.seat);
  }
  box.appendChild(fan);
  const sizeText = w.plural(S.table_pile, size);
  const foot = box.appendChild(el("span", "slap-pile__foot"));
  foot.appendChild(el("span", "slap-pile__size", sizeText));
  const names = (g.top || []).map(w.cardName).join(", ");
  const label = (slappable ? S.slap_label + ". " : "") + sizeText + (names ? ": " + names : "");
  box.setAttribute("aria-label", label);
  if (slappable) {
    const cta = el("span", "slap-pile__cta", S.slap + " ");
    cta.setAttribute("aria-hidden", "true");
    cta.appendChild(el("kbd", "", "S"));
    foot.appendChild(cta);
  }
  return box;
}

/**
 * Draw the centre of a slap game into `#turn`: the pile, the last line, whose turn.
 * @param {Words} w
 * @param {State} state
 * @param {SlapUI} ui
 * @param {() => void} slapNow  slap (a press on the pile, or its key)
 */
export function renderSlapTable(w, state, ui, slapNow) {
  const area = byId("turn");
  const g = state.game;
  area.hidden = g.status === "lobby";
  if (area.hidden) return;
  const name = (/** @type {number} */ seat) => w.seatName(state.seats, seat);
  area.textContent = "";
  area.classList.add("turn--slap");
  const slappable = canSlap(state);
  const pile = /** @type {HTMLElement} */ (slapPile(w, state, ui, slappable));
  if (slappable) {
    // a press slaps at once (no waiting for the click); Enter on the focused pile too
    pile.addEventListener("pointerdown", (e) => {
      if (!pointerSlaps(e)) return;
      e.preventDefault();
      slapNow();
    });
    pile.addEventListener("click", (e) => { if (e.detail === 0) slapNow(); });
  }
  area.appendChild(pile);
  const line = ui.line && (g.cards_played || 0) - ui.line.card < LINE_CARDS ? ui.line : null;
  // its room is kept while it is empty (table.css), so the piles do not move as it comes and goes
  const said = el("p", "slap-line" + (!line ? " slap-line--none" : line.kind ? " slap-line--" + line.kind : ""));
  said.id = "slap-line";
  said.appendChild(el("span", "slap-line__text", line ? line.text : ""));
  if (line) said.title = line.text;  // all of it, should a long one end in an ellipsis
  else said.setAttribute("aria-hidden", "true");
  area.appendChild(said);
  const owed = el("p", "turn__owed", owedText(w, g, name, state.you));
  owed.id = "turn-owed";
  area.appendChild(owed);
}

/**
 * The table's options in words (`#slap-rules`, over the lobby and the table).
 * @param {Words} w
 * @param {State} state
 */
export function renderSlapRules(w, state) {
  const box = document.getElementById("slap-rules");
  if (!box) return;
  const lines = optionsText(w, state.game);
  box.hidden = !lines.length;
  box.textContent = lines.join(" ");
}

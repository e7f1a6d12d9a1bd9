// The replay page: step through every battle of a finished game.
// The record (the `cardwar play --log --json` object) is embedded as JSON; each
// logged battle is applied as the game page applies a `battle` message (the
// same reducer, state.js) and drawn with the same seats and cards (cards.js).
// Buttons, or Left/Right/Home/End keys. Loaded as <script type="module">.

import { byId, el, embedded, pileEl, playArea, seatBox } from "./cards.js";
import { dealt, reduce } from "./state.js";
import { makeWords } from "./words.js";

/** @typedef {import("./state.js").State} State */
/** @typedef {import("./messages.js").BattleRecord} BattleRecord */
/** @typedef {import("./messages.js").SeatKind} SeatKind */

/**
 * The replay page's data (cardwar.web.rooms.replay_page).
 * @typedef {object} ReplayData
 * @property {{log?: BattleRecord[]}} record
 * @property {{seat: number, kind: SeatKind, nickname: string | null}[]} seats
 * @property {number[]} start_counts
 * @property {string | null} tie_word
 * @property {number | null} battle_limit
 * @property {string} locale
 */

const S = /** @type {import("./words.js").Strings} */ (embedded("play-strings"));
const D = /** @type {ReplayData} */ (embedded("replay-data"));
const w = makeWords(S, D.locale);
const log = D.record.log || [];
/** The table after each battle: steps[0] is the deal, steps[n] after battle n. */
const steps = [dealt(D)];
log.forEach((b, i) => {
  const played = reduce(steps[i], { ...b, type: "battle", seq: i + 1 });
  // the replay shows a peace's face-down cards at once
  steps.push(/** @type {State} */ (reduce(played, { type: "local:reveal", battle: b.battle })));
});
let step = 0;

function draw() {
  const state = steps[step];
  byId("replay-step").textContent = step === 0 ? S.replay_start
    : w.fmt(S.replay_step, { n: w.num(step), total: w.num(log.length) });
  const seats = byId("replay-seats");
  seats.textContent = "";
  seats.dataset.players = String(state.seats.length);
  state.seats.forEach((s) => {
    const { box, head } = seatBox(w, state, s.seat);
    if (!state.game.in_play[s.seat]) {
      head.appendChild(el("span", "tseat__state tseat__state--out", S.out));
    }
    box.appendChild(pileEl(w, state, s.seat));
    box.appendChild(playArea(w, state, s.seat));
    seats.appendChild(box);
  });
  const name = (/** @type {number} */ seat) => w.seatName(state.seats, seat);
  byId("replay-summary").textContent = state.last
    ? w.summary(state.last, Boolean(state.game.tie_word), false, name) : "";
  const first = /** @type {HTMLButtonElement[]} */ ([byId("replay-first"), byId("replay-prev")]);
  const last = /** @type {HTMLButtonElement[]} */ ([byId("replay-last"), byId("replay-next")]);
  first.forEach((b) => { b.disabled = step === 0; });
  last.forEach((b) => { b.disabled = step === log.length; });
  byId("replay").dataset.step = String(step);
}

/** Show the table after battle `n` (0: the deal), kept within the game. @param {number} n */
function go(n) {
  step = Math.max(0, Math.min(log.length, n));
  draw();
}

byId("replay-first").addEventListener("click", () => go(0));
byId("replay-prev").addEventListener("click", () => go(step - 1));
byId("replay-next").addEventListener("click", () => go(step + 1));
byId("replay-last").addEventListener("click", () => go(log.length));
document.addEventListener("keydown", (e) => {
  const t = /** @type {Element | null} */ (e.target);
  const tag = t && t.tagName;
  if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT") return;
  const to = { ArrowRight: step + 1, ArrowLeft: step - 1, Home: 0, End: log.length }[e.key];
  if (to === undefined) return;
  go(to);
  e.preventDefault();
});
draw();

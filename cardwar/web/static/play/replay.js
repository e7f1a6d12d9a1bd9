// The replay page: step through a finished game, by hand or played back.
// The record (the `cardwar play --log --json` object) is embedded as JSON. In the
// battle games each logged battle is applied as the game page applies a `battle`
// message (the same reducer, state.js); in a game in turns (Beggar-my-neighbour)
// each step is one trick, drawn with the same seats and cards (cards.js, turns.js).
// Buttons, or Left/Right/Home/End keys; Play/Pause with a speed plays it back.
// An endless game (reason `cycle`) goes round its cycle for as long as it plays,
// counting the rounds. Loaded as <script type="module">.

import { byId, el, embedded, pileEl, playArea, seatBox } from "./cards.js";
import { dealt, reduce } from "./state.js";
import { tablePile } from "./turns.js";
import { describeMove, replaySteps, withFigures } from "./slap.js";
import { slapPile } from "./slaptable.js";
import { makeWords } from "./words.js";

/** @typedef {import("./state.js").State} State */
/** @typedef {import("./messages.js").BattleRecord} BattleRecord */
/** @typedef {import("./messages.js").SeatKind} SeatKind */

/**
 * One trick of a game in turns, as logged (cardwar.engine.trick_json).
 * @typedef {{trick: number, starter: number, cards: string[], seats: number[],
 *   taker: number, cards_played: number, counts: number[]}} TrickRecord
 */
/**
 * Where an endless game repeats itself (cardwar.engine.Cycle).
 * @typedef {{start_trick: number, start_cards: number, length_tricks: number,
 *   length_cards: number}} CycleRecord
 */
/**
 * The replay page's data (cardwar.web.rooms.replay_page, cardwar.web.records).
 * @typedef {object} ReplayData
 * @property {{log?: (BattleRecord | TrickRecord)[], cycle?: CycleRecord | null,
 *   judged?: import("./slap.js").JudgedSlap[]}} record
 * @property {boolean} [turns]  a game in turns: the log holds tricks
 * @property {boolean} [slaps]  a slap game: the log holds events, a step per card (slap.js)
 * @property {{seat: number, kind: SeatKind, nickname: string | null}[]} seats
 * @property {number[]} start_counts
 * @property {string | null} tie_word
 * @property {number | null} battle_limit
 * @property {string} locale
 */

/** Steps a second at each speed of the playback. */
const SPEEDS = [1, 2, 5, 10, 25];
/** The trick's cards drawn in the replay (the newest); the rest are counted. */
const SHOWN = 8;

const S = /** @type {import("./words.js").Strings} */ (embedded("play-strings"));
const D = /** @type {ReplayData} */ (embedded("replay-data"));
const w = makeWords(S, D.locale);
const log = D.record.log || [];
const cycle = D.record.cycle || null;
const turns = Boolean(D.turns);
const slaps = Boolean(D.slaps);
/** A slap game: the table after each card (steps[0] the deal), every slap with its figures. */
const cards = slaps ? replaySteps(withFigures(/** @type {import("./slap.js").SlapEvent[]} */
  (/** @type {unknown} */ (log)), D.record.judged || []), D.start_counts) : [];
/** The table after each step: steps[0] is the deal, steps[n] after step n. */
const steps = [dealt(D)];
cards.slice(1).forEach((c, i) => {
  const g = steps[i].game;
  steps.push({ ...steps[i], game: { ...g, battle: c.card, counts: c.counts, in_play: c.in_play } });
});
/** Steps in all: battles, tricks or cards. */
const total = slaps ? cards.length - 1 : log.length;
if (!slaps) log.forEach((b, i) => {
  if (turns) {
    const t = /** @type {TrickRecord} */ (b);
    const g = steps[i].game;
    steps.push({ ...steps[i], game: { ...g, battle: t.trick, counts: t.counts } });
    return;
  }
  const battle = /** @type {BattleRecord} */ (b);
  const played = reduce(steps[i], { ...battle, type: "battle", seq: i + 1 });
  // the replay shows a peace's face-down cards at once
  steps.push(/** @type {State} */ (reduce(played, { type: "local:reveal", battle: battle.battle })));
});
let step = 0;
/** Times the playback has gone back from the last trick to the cycle's start. */
let laps = 0;
/** @type {number | undefined} */
let timer;

const name = (/** @type {number} */ seat) => w.seatName(steps[0].seats, seat);

/** A trick in words: who started, how many cards, who took them. @param {TrickRecord} t */
function trickText(t) {
  return w.plural(S.trick_summary, t.cards.length,
    { name: name(t.starter), taker: name(t.taker) });
}

function draw() {
  const state = steps[step];
  byId("replay-step").textContent = step === 0 ? S.replay_start
    : w.fmt(slaps ? S.replay_card : turns ? S.replay_trick : S.replay_step,
      { n: w.num(step), total: w.num(total) });
  const seats = byId("replay-seats");
  seats.textContent = "";
  seats.dataset.players = String(state.seats.length);
  byId("replay-felt").dataset.players = String(state.seats.length);
  state.seats.forEach((s) => {
    const { box, head } = seatBox(w, state, s.seat);
    if (!state.game.in_play[s.seat]) {
      head.appendChild(el("span", "tseat__state tseat__state--out", S.out));
    }
    box.appendChild(pileEl(w, state, s.seat));
    if (!turns && !slaps) box.appendChild(playArea(w, state, s.seat));
    seats.appendChild(box);
  });
  const area = byId("replay-turn");
  area.hidden = !turns && !slaps;
  area.textContent = "";
  if (slaps) {
    drawCard(state, area);
    drawButtons();
    return;
  }
  const trick = turns && step > 0 ? /** @type {TrickRecord} */ (log[step - 1]) : null;
  if (trick) {
    // the trick was taken: its cards are in the taker's pile, the table is empty
    area.appendChild(tablePile(w, trick.cards.slice(-SHOWN), 0, true));
  }
  byId("replay-summary").textContent = trick ? trickText(trick)
    : state.last ? w.summary(state.last, Boolean(state.game.tie_word), false, name) : "";
  drawCycle();
  drawButtons();
}

/** The buttons as the step allows, and the step on the page (tests read it). */
function drawButtons() {
  const first = /** @type {HTMLButtonElement[]} */ ([byId("replay-first"), byId("replay-prev")]);
  const last = /** @type {HTMLButtonElement[]} */ ([byId("replay-last"), byId("replay-next")]);
  first.forEach((b) => { b.disabled = step === 0; });
  last.forEach((b) => { b.disabled = step === total && !cycle; });
  byId("replay").dataset.step = String(step);
}

/**
 * A slap game's card: the pile in the middle as it is after it (its newest three face
 * up), and what happened from it to the next card, slaps with their reaction times.
 * @param {State} state
 * @param {HTMLElement} area
 */
function drawCard(state, area) {
  const c = cards[step];
  const shown = { ...state, game: { ...state.game, pile: c.pile, top: c.top.slice(-3),
    cards_played: c.card } };
  // a pile taken after this card: its cards shown going, greyed
  const taken = c.taken ? { top: c.taken.top.slice(-3), card: c.card, seat: c.taken.seat } : null;
  area.appendChild(slapPile(w, shown, { line: null, taken, burn: 0 }, false));
  const d = describeMove(w, { events: c.events }, null, name);
  byId("replay-summary").textContent = d.said.join(" ");
  byId("replay-cycle").hidden = true;
}

/** The cycle of an endless game: where it starts, its length, the rounds so far. */
function drawCycle() {
  const box = byId("replay-cycle");
  box.hidden = !cycle;
  if (!cycle) return;
  byId("replay-cycle-info").textContent = w.plural(S.cycle_info, cycle.length_tricks, {
    start: w.num(cycle.start_trick), start_cards: w.plural(S.cards, cycle.start_cards),
    length_cards: w.plural(S.cards, cycle.length_cards),
  });
  // the last logged trick brings back the position after start_trick: one more round
  const rounds = laps + (step === log.length ? 1 : 0);
  byId("replay-rounds").textContent = w.fmt(S.cycle_rounds, { n: w.num(rounds) });
  const inside = cycle !== null && step > cycle.start_trick;
  box.dataset.inside = String(inside);
  box.dataset.rounds = String(rounds);
}

/** Show the table after step `n` (0: the deal), kept within the game. @param {number} n */
function go(n) {
  step = Math.max(0, Math.min(total, n));
  if (cycle && step <= cycle.start_trick) laps = 0;  // before the cycle: no round yet
  draw();
}

/** One step on; past the end an endless game goes round its cycle again. */
function forward() {
  if (step < total) {
    go(step + 1);
  } else if (cycle) {
    laps += 1;  // the position after the last trick is the one after start_trick
    go(cycle.start_trick + 1);
  } else {
    pause();
  }
}

function speed() {
  const select = /** @type {HTMLSelectElement} */ (byId("replay-speed"));
  return SPEEDS[Number(select.value)] || 1;
}

function play() {
  window.clearInterval(timer);
  if (step === total && !cycle) go(0);
  timer = window.setInterval(forward, 1000 / speed());
  const button = byId("replay-play");
  button.textContent = S.replay_pause;
  button.setAttribute("aria-pressed", "true");
}

function pause() {
  window.clearInterval(timer);
  timer = undefined;
  const button = byId("replay-play");
  button.textContent = S.replay_play;
  button.setAttribute("aria-pressed", "false");
}

const speedSelect = /** @type {HTMLSelectElement} */ (byId("replay-speed"));
SPEEDS.forEach((n, i) => {
  const option = /** @type {HTMLOptionElement} */ (el("option", "", w.fmt(S.replay_per_second,
    { n: w.num(n) })));
  option.value = String(i);
  speedSelect.appendChild(option);
});
speedSelect.addEventListener("change", () => { if (timer !== undefined) play(); });
byId("replay-play").addEventListener("click", () => (timer === undefined ? play() : pause()));
byId("replay-first").addEventListener("click", () => go(0));
byId("replay-prev").addEventListener("click", () => go(step - 1));
byId("replay-next").addEventListener("click", forward);
byId("replay-last").addEventListener("click", () => go(total));
document.addEventListener("keydown", (e) => {
  const t = /** @type {Element | null} */ (e.target);
  const tag = t && t.tagName;
  if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT") return;
  if (tag === "BUTTON" && e.key === " ") return;  // the button's own click
  if (e.key === " ") {
    if (timer === undefined) play(); else pause();
    e.preventDefault();
    return;
  }
  const to = { ArrowRight: step + 1, ArrowLeft: step - 1, Home: 0, End: total }[e.key];
  if (to === undefined) return;
  if (e.key === "ArrowRight") forward(); else go(to);
  e.preventDefault();
});
draw();
if (new URLSearchParams(location.search).get("play") === "1") play();

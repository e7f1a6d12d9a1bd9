// Slapping on the game page of a slap game (Egyptian Ratscrew, Slapjack:
// RULES.md 11): which pile a slap names, which key or tap does what, one slap
// per pile, how a `move` event moves the table, and what it did in words ("Bea
// slapped the double first: 305 ms against your 340 ms"), for the game page and
// the replay. Pure: no DOM, no socket; the page hands it what the player did and
// sends what it returns (the server judges, cardwar/tables/slap_judge.py; the wire
// protocol: PROTOCOL.md, `move`).
//
// Keys: Space puts down your card when it is your turn; S slaps (by its place
// on the keyboard, so it is the same key on AZERTY, QWERTZ or Cyrillic
// layouts). A key held down (auto-repeat) does nothing more; nor does a key
// with Ctrl, Alt or Meta, or one typed into a text field. A tap or a click of
// the primary button on the pile slaps.

/** @typedef {{type: "slap", pile: number}} SlapMessage  the page's slap (RULES.md 11.6) */
/** @typedef {"put_down" | "slap"} Action */
/** @typedef {import("./messages.js").Game} Game */
/** @typedef {import("./messages.js").MoveMessage} MoveMessage */
/** @typedef {import("./messages.js").SlapEvent} SlapEvent */
/** @typedef {import("./messages.js").SlapTiming} SlapTiming */
/** @typedef {import("./words.js").Words} Words */

/**
 * @typedef {object} KeyLike  what is read of a `keydown` event
 * @property {string} key
 * @property {string} code
 * @property {boolean} repeat
 * @property {boolean} ctrlKey
 * @property {boolean} altKey
 * @property {boolean} metaKey
 * @property {boolean} [typing]  the key went to a text field (input, textarea, contenteditable)
 */

/**
 * What a key does, or null for nothing (the page then lets the browser have it).
 * @param {KeyLike} e
 * @param {boolean} myTurn  it is this player's turn to put down a card
 * @returns {Action | null}
 */
export function keyAction(e, myTurn) {
  if (e.repeat || e.ctrlKey || e.altKey || e.metaKey || e.typing) return null;
  if (e.code === "Space" || e.key === " ") return myTurn ? "put_down" : null;
  if (e.code === "KeyS") return "slap";
  return null;
}

/**
 * Whether a pointer press on the pile slaps: the primary button (a touch, a pen,
 * the left mouse button), pressed, not a second finger of a pinch.
 * @param {{button: number, isPrimary: boolean}} e  a `pointerdown` event
 */
export function pointerSlaps(e) {
  return e.button === 0 && e.isPrimary;
}

/**
 * The pile a slap names: the number of the top card on the table as the page
 * shows it now (0 before the first card). The page shows cards a little after
 * they arrive (it animates them), and the player reacts to what they see, so
 * this is the card drawn, not the last one received; after a taking it is
 * still that card's number, so a slap then is judged too late, not wrong.
 * @param {{shown: number}} table  `shown`: the number of the card drawn on top
 * @returns {SlapMessage}
 */
export function slapFor(table) {
  return { type: "slap", pile: Math.max(0, Math.trunc(table.shown)) };
}

/**
 * One slap per pile (RULES.md 11.5: a second counts for nothing, so the page
 * does not send it). `take(pile)` is true the first time for a pile and false
 * after, until another card is shown (`take` with a larger pile).
 */
export class SlapOnce {
  constructor() {
    /** The pile slapped last, or -1. */
    this.last = -1;
  }

  /**
   * @param {number} pile
   * @returns {boolean}  true: send the slap
   */
  take(pile) {
    if (pile <= this.last) return false;
    this.last = pile;
    return true;
  }
}

/**
 * What the player's key press or tap sends, if anything: a slap naming the card
 * on top (once per pile), or a put-down naming the card it puts down (the one
 * after the last put down: a press meant for a card already put down counts for
 * nothing, so a key pressed twice never puts down two).
 * @param {Action | null} action
 * @param {{shown: number}} table  `shown`: cards put down as the page shows them
 * @param {SlapOnce} once
 * @returns {SlapMessage | {type: "put", card: number} | null}
 */
export function messageFor(action, table, once) {
  if (action === "put_down") return { type: "put", card: slapFor(table).pile + 1 };
  if (action !== "slap") return null;
  const slap = slapFor(table);
  return once.take(slap.pile) ? slap : null;
}

/**
 * Whether the game is a slap game (its state lists the patterns slapped).
 * @param {Game} g
 */
export function isSlapGame(g) {
  return Array.isArray(g.patterns);
}

/**
 * The game after a `move` event: counts, whose turn, what is owed, the pile, who is
 * out (`in_play`, and `eliminated` for the end screen's placings).
 * @param {Game} g
 * @param {MoveMessage} m
 * @returns {Game}
 */
export function applyMove(g, m) {
  const out = m.out || {};
  return {
    ...g, battle: m.move, counts: m.counts, flipped: [], to_move: m.to_move, owed: m.owed,
    owed_for: m.owed_for, window: m.window, pile: m.pile, top: m.top, tricks: m.tricks,
    slaps: m.slaps, burned: m.burned, out, eliminated: out, cards_played: m.cards_played,
    in_play: m.counts.map((_, seat) => out[seat] === undefined),
  };
}

/**
 * Each slap event of a move with its figures: a slap event's own `timing` (the
 * record's log), else the timing of the move that pushed it (the n-th slap move).
 * @param {{events: SlapEvent[], moves?: {move: (string | number)[], timing?: SlapTiming}[]}} m
 * @returns {Map<SlapEvent, SlapTiming>}
 */
export function slapTimings(m) {
  const timed = (m.moves || []).filter((x) => x.move[0] === "slap");
  const out = new Map();
  let k = 0;
  for (const e of m.events) {
    if (e.event !== "slap") continue;
    const t = e.timing || (timed[k] && timed[k].timing);
    k += 1;
    if (t) out.set(e, t);
  }
  return out;
}

/**
 * What a move did, in words: `said`, every sentence in order (for the screen
 * reader and the list of the last plays), and `line`, the one that matters most
 * (who took the pile and why, a wrong slap, our slap too late), or null when it
 * only put a card down. `you` is our seat (null: a spectator, the replay).
 * @param {Words} w
 * @param {{events: SlapEvent[], moves?: {move: (string | number)[], timing?: SlapTiming}[]}} m
 * @param {number | null} you
 * @param {(seat: number) => string} name
 * @returns {{said: string[], line: string | null, kind: string | null}}
 */
export function describeMove(w, m, you, name) {
  const S = w.S;
  const timing = slapTimings(m);
  const slaps = m.events.filter((e) => e.event === "slap");
  const valid = slaps.find((e) => e.verdict === "valid");
  /** @type {string[]} */
  const said = [];
  /** @type {{text: string, kind: string, rank: number} | null} */
  let best = null;
  const keep = (/** @type {string} */ text, /** @type {string} */ kind, /** @type {number} */ rank) => {
    said.push(text);
    if (!best || rank > best.rank) best = { text, kind, rank };
  };
  m.events.forEach((e, i) => {
    if (e.event === "card") {
      said.push(w.fmt(S.puts_down, { name: name(e.seat), card: w.cardName(e.card) }));
    } else if (e.event === "slap") {
      // a number and its "ms" stay on one line, and so do French colons with their word
      const text = slapText(w, e, i, m.events, valid, slaps, timing, you, name)
        .replace(/(\d) (ms|мс)(?=\W|$)/g, "$1\u00a0$2").replace(/ ([:;!?])/g, "\u00a0$1");
      // another player's slap that changed nothing is said, never the line
      const rank = e.verdict === "valid" ? 4 : e.verdict === "wrong" ? 3 : e.seat === you ? 2 : 0;
      if (text && rank) keep(text, e.verdict, rank);
      else if (text) said.push(text);
    } else if (e.event === "taken") {
      const count = e.count ?? (e.cards ? e.cards.length : 0);
      const text = e.seat === you ? w.plural(S.you_take_trick, count, {})
        : w.plural(S.takes_trick, count, { name: name(e.seat) });
      if (best && best.kind === "valid" && e.why === "slap") {
        best = { ...best, text: best.text + " " + text };
        said.push(text);
      } else {
        keep(text, "taken", 1);
      }
    } else if (e.event === "out") {
      said.push(w.fmt(S.went_out, { name: name(e.seat) }));
    }
  });
  const top = /** @type {{text: string, kind: string} | null} */ (best);
  return { said, line: top ? top.text : null, kind: top ? top.kind : null };
}

/**
 * One slap in words (see describeMove), or "" when it is not worth saying: a
 * second slap on the same pile, or another player's slap that changed nothing.
 * @param {Words} w
 * @param {Extract<SlapEvent, {event: "slap"}>} e
 * @param {number} i  its place among the move's events
 * @param {SlapEvent[]} events
 * @param {SlapEvent | undefined} valid  the move's valid slap, if any
 * @param {SlapEvent[]} slaps  the move's slap events
 * @param {Map<SlapEvent, SlapTiming>} timing
 * @param {number | null} you
 * @param {(seat: number) => string} name
 */
function slapText(w, e, i, events, valid, slaps, timing, you, name) {
  const S = w.S;
  const mine = you !== null && e.seat === you;
  // A reaction may come out below zero (RULES.md 11.6: the latency is an
  // estimate, and a slap can beat it by a few ms); the record keeps the figure,
  // a player reads 0 ms rather than "-3 ms".
  const ms = (/** @type {SlapEvent} */ x) => {
    const t = timing.get(x);
    return t ? w.num(Math.max(0, t.reaction)) : null;
  };
  if (e.verdict === "valid") {
    const pattern = S.slap_pattern[e.pattern || ""] || "";
    const mine_ms = ms(e);
    const late = slaps.filter((x) => x !== e && x.event === "slap" && x.verdict === "too_late"
      && timing.has(x));
    if (mine_ms === null) return w.fmt(S.slap_won_plain, { name: name(e.seat), pattern });
    const yours = late.find((x) => x.event === "slap" && x.seat === you);
    const others = late.filter((x) => x !== yours)
      .map((x) => w.fmt(S.slap_other, { name: name(/** @type {{seat: number}} */ (x).seat),
        ms: /** @type {string} */ (ms(x)) })).join(", ");
    if (mine) {
      return others ? w.fmt(S.slap_won_you_against, { pattern, ms: mine_ms, others })
        : w.fmt(S.slap_won_you, { pattern, ms: mine_ms });
    }
    const args = { name: name(e.seat), pattern, ms: mine_ms, others };
    if (yours) return w.fmt(S.slap_won_against_you, { ...args, yours: /** @type {string} */ (ms(yours)) });
    return others ? w.fmt(S.slap_won_against, args) : w.fmt(S.slap_won, args);
  }
  if (e.verdict === "wrong") {
    const burned = events.slice(i + 1).find((x) => x.event === "burned" && x.seat === e.seat);
    if (!burned || burned.event !== "burned") return w.fmt(S.slap_wrong_empty, { name: name(e.seat) });
    const count = burned.count ?? (burned.cards ? burned.cards.length : 1);
    if (burned.to_seat === e.seat) {  // Slapjack, on one's own card: it goes under one's own pile
      return mine ? w.plural(S.slap_wrong_own_you, count, {})
        : w.plural(S.slap_wrong_own, count, { name: name(e.seat) });
    }
    if (burned.to_seat !== null) {
      if (mine) return w.plural(S.slap_wrong_give_you, count, { other: name(burned.to_seat) });
      if (you !== null && burned.to_seat === you) {
        return w.plural(S.slap_wrong_give_to_you, count, { name: name(e.seat) });
      }
      return w.plural(S.slap_wrong_give, count, { name: name(e.seat), other: name(burned.to_seat) });
    }
    return mine ? w.plural(S.slap_wrong_burn_you, count, {})
      : w.plural(S.slap_wrong_burn, count, { name: name(e.seat) });
  }
  if (e.verdict === "too_late") {
    if (valid) return "";  // said with the valid slap it lost to
    return mine ? S.slap_late_you : w.fmt(S.slap_late, { name: name(e.seat) });
  }
  if (!mine) return "";
  if (e.verdict === "empty_pile") return S.slap_empty_you;
  if (e.verdict === "no_slap_in") return S.slap_no_slap_in_you;
  if (e.verdict === "out") return S.slap_out_you;
  return "";
}

/**
 * The table's options in words, as the lobby and the table show them: the
 * patterns slapped, what a wrong slap costs, slapping in (RULES.md 11.4-11.7).
 * @param {Words} w
 * @param {Game} g
 * @returns {string[]}  one sentence each; none for a game that is not a slap game
 */
export function optionsText(w, g) {
  const S = w.S;
  if (!isSlapGame(g)) return [];
  const patterns = (g.patterns || []).map((p) => S.pattern_names[p] || p).join(", ");
  const o = g.options || { slap_in: true, card_limit: 10000 };
  const cost = o.burn === undefined ? S.rules_give : w.plural(S.rules_burn, o.burn);
  return [w.fmt(S.rules_patterns, { patterns }), cost,
    o.slap_in ? S.rules_slap_in : S.rules_no_slap_in]
    .map((t) => t.replace(/ ([:;!?])/g, "\u00a0$1"));  // French colons stay with their word
}

/**
 * One card of a finished slap game's replay: the table after it and its events.
 * @typedef {object} ReplayStep
 * @property {number} card  cards put down (0: the deal)
 * @property {number[]} counts  cards in each seat's pile
 * @property {number} pile  cards on the table (burned ones included)
 * @property {string[]} top  the pile's face-up cards, oldest first (all of them)
 * @property {boolean[]} in_play  seats not out
 * @property {SlapEvent[]} events  what happened from this card to the next
 * @property {{seat: number, top: string[]} | null} taken  who took the pile after this
 *   card, and its face-up cards then (the replay shows them going)
 */

/**
 * The replay's steps from a record's log (engine events, `cardwar play --log --json`):
 * one step per card put down, with the slaps, burns and takings that followed it.
 * @param {SlapEvent[]} log
 * @param {number[]} start  each seat's cards at the deal
 * @returns {ReplayStep[]}  steps[0] is the deal
 */
export function replaySteps(log, start) {
  /** @type {ReplayStep} */
  let now = { card: 0, counts: start.slice(), pile: 0, top: [], in_play: start.map(() => true),
    events: [], taken: null };
  const steps = [now];
  for (const e of log) {
    if (e.event === "card") {
      const counts = now.counts.slice();
      counts[e.seat] -= 1;
      now = { ...now, card: e.number, counts, pile: now.pile + 1, top: [...now.top, e.card],
        events: [e], taken: null };
      steps.push(now);
      continue;
    }
    const counts = now.counts.slice();
    let { pile, top, in_play: inPlay, taken } = now;
    if (e.event === "burned") {
      const n = e.count ?? (e.cards ? e.cards.length : 0);
      counts[e.seat] -= n;
      if (e.to_seat !== null) counts[e.to_seat] += n; else pile += n;
    } else if (e.event === "taken") {
      counts[e.seat] += pile;
      taken = { seat: e.seat, top };
      pile = 0;
      top = [];
    } else if (e.event === "out") {
      inPlay = inPlay.map((on, seat) => on && seat !== e.seat);
    }
    now = { ...now, counts, pile, top, in_play: inPlay, taken, events: [...now.events, e] };
    steps[steps.length - 1] = now;
  }
  return steps;
}

/**
 * A slap as the game's record keeps it (`judged`, cardwar.tables.slap_kind): who,
 * which pile, when decided, the verdict, and its figures (none when untimed).
 * @typedef {{seat: number, pile: number, at: number, verdict: string, sent?: number,
 *   arrived?: number, latency?: number, reaction?: number, computer?: boolean}} JudgedSlap
 */

/**
 * The record's log with every slap's figures: each logged slap (those that counted)
 * gets the `timing` of its `judged` entry, and the slaps that came too late for a
 * valid one are put back after it, so the replay says "305 ms against Ann (340 ms)".
 * @param {SlapEvent[]} log
 * @param {JudgedSlap[]} judged
 * @returns {SlapEvent[]}
 */
export function withFigures(log, judged) {
  const left = judged.slice();
  /** @param {JudgedSlap} j @returns {SlapTiming | undefined} */
  const figures = (j) => (j.reaction === undefined ? undefined : {
    sent: j.sent || 0, arrived: j.arrived || 0, latency: j.latency || 0, reaction: j.reaction,
    computer: Boolean(j.computer) });
  /** @type {SlapEvent[]} */
  const out = [];
  /** @type {SlapEvent[]} */
  let late = [];
  for (const e of log) {
    if (e.event === "card" && late.length) { out.push(...late); late = []; }
    if (e.event !== "slap") { out.push(e); continue; }
    const k = left.findIndex((j) => j.seat === e.seat && j.pile === e.pile && j.verdict === e.verdict);
    const mine = k >= 0 ? left.splice(k, 1)[0] : null;
    const t = mine ? figures(mine) : undefined;
    out.push(t ? { ...e, timing: t } : e);
    if (e.verdict !== "valid") continue;
    // the slower slaps on the same pile, pushed with it: too late
    for (let i = left.length - 1; i >= 0; i--) {
      const j = left[i];
      if (j.pile !== e.pile || j.verdict !== "too_late") continue;
      left.splice(i, 1);
      const lt = figures(j);
      late.unshift({ event: "slap", seat: j.seat, pile: j.pile, verdict: "too_late", pattern: null,
        ...(lt ? { timing: lt } : {}) });
    }
  }
  return [...out, ...late];
}

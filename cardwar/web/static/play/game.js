// The game page: lobby, table and end screen, live over a WebSocket.
// Every message comes from the server's view_message(); the reducer (state.js)
// keeps the state, render.js draws it, connection.js keeps the link alive.
// This module wires them: it dispatches each message and does what follows
// it (announcements, timers, the pot's slide), and it handles the controls.
// Loaded as <script type="module">: no inline script, no inline handlers.

import { byId, embedded } from "./cards.js";
import { connect } from "./connection.js";
import { embeddedAs } from "./dom.js";
import { emptyHold, nextHeld, peaceShown, receive as receiveHeld } from "./hold.js";
import { copyText } from "./end.js";
import { dealIn } from "./motion.js";
import { settlePot, slidePot } from "./pot.js";
import {
  announce, buildReactionBar, render, renderIdle, renderNotice,
} from "./render.js";
import { makeSound, cue, soundOwner } from "./sound.js";
import { cardText, owedText } from "./turns.js";
import { SlapOnce, describeMove, isSlapGame, keyAction, messageFor } from "./slap.js";
import { canSlap } from "./slaptable.js";
import {
  canFlip, canLeave, canTakeBack, gamePace, idleSeats, nextExpiry, reduce,
} from "./state.js";
import { makeWords } from "./words.js";

/** @typedef {import("./state.js").State} State */
/** @typedef {import("./state.js").Action} Action */
/** @typedef {import("./render.js").View} View */

/** ms between a battle with a peace and its face-down cards being turned */
const REVEAL_DELAY = 700;
/** The localStorage key of "hide the others' reactions" ("on" when hidden). */
const MUTE_KEY = "cardwar.reactions.hidden";
/** The page's settings (render.js's Config), checked at load. @type {import("./dom.js").Schema} */
const CONFIG = { locale: "string", socket: "string", heartbeat: "number?",
  flip_timeout: "number?", replay: "string", download: "string", variant_page: "string",
  share: "string", rematch_late: "boolean?", peace_hold: "number?", peace_holds: "object?" };
/** ms after asking to leave during which the Leave button asks nothing again */
const LEAVE_ONCE = 3000;

const S = /** @type {import("./words.js").Strings} */ (embedded("play-strings"));
/** @type {import("./render.js").Config} */
const C = embeddedAs("play-config", CONFIG);
const w = makeWords(S, C.locale);
/** ms a battle with a peace stays on the table at least, whoever flips next (the
 * server waits at least as long before any automatic flip) */
const PEACE_HOLD = Math.max(REVEAL_DELAY + 1500, (C.peace_hold || 2.25) * 1000);
const query = new URLSearchParams(location.search);
/** @type {State | null} */
let state = null;
/** @type {number | undefined} */
let revealTimer;
/** @type {number | undefined} */
let expiryTimer;
/** @type {Storage | null} */
let storage = null;
try { storage = window.localStorage; } catch { /* storage blocked: nothing remembered */ }
const sound = makeSound(storage);
/** Whether this window plays the sounds: of several windows of the game, only the one
 * focused last does (they tell each other over a BroadcastChannel). */
const soundHere = soundOwner(C.socket);

// The peace hold (hold.js): what comes while a peace is on show waits for it.
let hold = emptyHold();
/** @type {number | undefined} */
let holdTimer;

/** A message from the server: applied now, or kept while a peace is shown.
 * @param {import("./messages.js").ServerMessage} m */
function receive(m) {
  const r = receiveHeld(hold, m, Date.now());
  hold = r.hold;
  if (r.wake !== null) {
    if (m.type === "over") dispatch({ type: "local:ending" });  // no flip invited meanwhile
    window.clearTimeout(holdTimer);
    holdTimer = window.setTimeout(releaseHeld, Math.max(0, r.wake - Date.now()));
  } else if (m.type === "state" || m.type === "fast_forward") {
    window.clearTimeout(holdTimer);
  }
  r.apply.forEach(dispatch);
}

/** The peace has been shown: apply what came meanwhile, a battle at a time. */
function releaseHeld() {
  for (;;) {
    const r = nextHeld(hold, Date.now(), state ? pacedHold(state) : PEACE_HOLD);
    hold = r.hold;
    if (r.message === null) {
      if (r.wake !== null) holdTimer = window.setTimeout(releaseHeld, r.wake - Date.now());
      return;
    }
    dispatch(r.message);
  }
}

/** ms a peace stays on the page at the game's pace (at least PEACE_HOLD); the
 * server waits as long before its next automatic flip. @param {State} s */
function pacedHold(s) {
  return Math.max(PEACE_HOLD, ((C.peace_holds || {})[gamePace(s)] || 0) * 1000);
}

/** @type {View} */
const view = {
  w, C, flip, slap,
  send: (message) => link.send(message),
  ui: { focusPile: false, refused: query.get("error") === "full",
    late: query.get("error") === "rematch", shared: "",
    slap: { line: null, taken: null, burn: 0 } },
};
/** Slap games: one slap per pile (slap.js). */
const slapOnce = new SlapOnce();

/**
 * Apply one message or local action; when it changed something, draw and do
 * what follows it (the table of effects below; by default, draw).
 * @param {Action} action
 */
function dispatch(action) {
  const before = state;
  const after = reduce(before, action, Date.now());
  if (after === before || !after) return;  // nothing new (e.g. a repeated event)
  state = after;
  const effect = /** @type {Effect<Action["type"]> | undefined} */ (EFFECTS[action.type]);
  (effect || draw)(after, action, before);
  const name = cue(after, action);
  if (name && soundHere()) sound.play(name);
  if (after.reactions !== (before && before.reactions) || after.refused !== before?.refused) {
    expireLater(after);
  }
}

/** Take the shown reactions (and a refusal) down when their time is up. @param {State} s */
function expireLater(s) {
  window.clearTimeout(expiryTimer);
  const at = nextExpiry(s);
  if (at !== null) {
    expiryTimer = window.setTimeout(() => dispatch({ type: "local:expire" }),
      Math.max(0, at - Date.now()) + 20);
  }
}

/** What the page remembers under `key`, or null. @param {string} key */
function remembered(key) {
  try { return storage ? storage.getItem(key) : null; } catch { return null; }
}

function draw() { render(view, state); }

/**
 * @template {Action["type"]} K
 * @typedef {(state: State, action: Extract<Action, {type: K}>, before: State | null) => void}
 *   Effect
 */
/**
 * What follows a message besides drawing the page again.
 * @type {{[K in Action["type"]]?: Effect<K>}}
 */
const EFFECTS = {
  state(s) {
    window.clearTimeout(revealTimer);
    // a slap game seen again (a reload, a reconnection): the last move's line comes back
    if (s.moved && isSlapGame(s.game) && !view.ui.slap.line) {
      const d = describeMove(w, s.moved, s.you, (seat) => w.seatName(s.seats, seat));
      if (d.line) {
        view.ui.slap.line = { text: d.line, kind: d.kind, card: s.moved.cards_played,
          move: s.moved.move };
      }
    }
    if (!s.muted && remembered(MUTE_KEY) === "on") {
      dispatch({ type: "local:mute", on: true });  // draws
      return;
    }
    draw();
  },
  reaction(s, m) {
    draw();
    if (m.seat !== null && m.seat === s.you) return;  // our own: seen already
    const who = m.seat === null ? S.a_spectator : w.seatName(s.seats, m.seat);
    announce(w.fmt(S.reaction_from, { name: who, reaction: S.reactions[m.key].text }));
  },
  battle(s, m) {
    window.clearTimeout(revealTimer);
    const name = (/** @type {number} */ seat) => w.seatName(s.seats, seat);
    remember(m.battle, w.summary(m, Boolean(s.game.tie_word), false, name), m.winner);
    // this drawing deals the cards onto the table (not while skipping: hundreds of
    // battles arrive at once)
    const deal = !s.game.skipping;
    if (deal) view.ui.enter = m.battle;
    draw();
    if (deal) dealIn();
    // a peace's result is said when its face-down cards are turned (local:reveal)
    if (!m.peaces.length) announce(w.summary(m, Boolean(s.game.tie_word), true, name));
    if (m.peaces.length) {  // the face-down cards are turned a moment later
      settlePot();  // the last battle's pick-up, if still to come, would take this one's
      hold = peaceShown(hold, Date.now(), PEACE_HOLD, Boolean(s.game.skipping));
      revealTimer = window.setTimeout(
        () => dispatch({ type: "local:reveal", battle: m.battle }), REVEAL_DELAY);
    } else {
      slidePot(s, undefined, taken);
    }
  },
  card(s, m) {
    const name = (/** @type {number} */ seat) => w.seatName(s.seats, seat);
    if (m.taken_by !== null) remember(m.card, cardText(w, m, name), m.taken_by);
    draw();
    announce([cardText(w, m, name), owedText(w, s.game, name, s.you)].filter(Boolean).join(" "));
  },
  move(s, m, before) {
    // a slap game: what the table's judge did (slap.js words it, slaptable.js draws it)
    const name = (/** @type {number} */ seat) => w.seatName(s.seats, seat);
    const d = describeMove(w, m, s.you, name);
    const ui = view.ui.slap;
    if (d.line) ui.line = { text: d.line, kind: d.kind, card: m.cards_played, move: m.move };
    const took = m.events.find((e) => e.event === "taken");
    if (took && took.event === "taken") {
      ui.taken = { top: before ? before.game.top || [] : [], card: m.cards_played, seat: took.seat };
      remember(m.move, d.line || "", took.seat);
    }
    if (m.events.some((e) => e.event === "burned" && e.to_seat === null)) ui.burn = m.move;
    draw();
    if (!s.game.skipping) announce([...d.said, owedText(w, s.game, name, s.you)].filter(Boolean).join(" "));
  },
  "local:reveal"(s) {
    draw();
    if (s.last) {
      const name = (/** @type {number} */ seat) => w.seatName(s.seats, seat);
      announce(w.summary(s.last, Boolean(s.game.tie_word), true, name));
    }
    // the face-down cards turn over one by one as they are gathered (CSS; still
    // with prefers-reduced-motion), then the pot goes to the winner
    document.querySelectorAll(".tplay").forEach((a) => a.classList.add("tplay--turn-now"));
    // on the table as long as the server waits at the game's pace (slow: longer)
    slidePot(s, Math.max(1600, pacedHold(s) - REVEAL_DELAY - 800), taken);
  },
  left(s, m, before) {
    draw();
    // named as they sat before leaving (in the lobby the seat is open now, and
    // nobody plays for them)
    const was = before || s;
    announce(w.fmt(was.game.status === "lobby" ? S.left_said_lobby : S.left_said,
      { name: w.seatName(was.seats, m.seat) }));
  },
  over(s, m) {
    settlePot();
    draw();
    announce(m.outcome === "win" && m.winner !== null
      ? w.fmt(S.wins, { name: w.seatName(s.seats, m.winner) }) : S.draw);
  },
  idle(s, m, before) {
    // said once per battle, when the clock starts for us
    const wasOff = !before || !before.idle || before.idle.battle !== m.battle;
    if (wasOff && s.idle && s.you !== null && idleSeats(s).indexOf(s.you) >= 0 && m.left !== null) {
      announce(w.fmt(S.idle_you, { n: w.num(Math.ceil(m.left)) }), "announce-clock");
    }
    renderIdle(view, s, Date.now());
  },
  // connecting again: keep showing what we had until the catch-up says whether
  // our flip arrived (no flicker)
  "local:retry"() {},
  // the pot is sliding away (pot.js): the next drawing leaves it picked up
  "local:taken"() {},
};

/** How many battles (or tricks) the page lists under "Last battles". */
const HISTORY = 6;

/** Keep a battle (or a trick) in words for the list of the last ones (each once,
 * however often a catch-up brings it again).
 * @param {number} n  its number @param {string} text @param {number | null} seat  who took it */
function remember(n, text, seat) {
  const list = (view.ui.history || []).filter((h) => h.battle !== n);
  list.unshift({ battle: n, text, seat: seat === undefined ? null : seat });
  view.ui.history = list.slice(0, HISTORY);
}

/** The pot of `battle` is being picked up: a flip, a presence or anything else that
 * draws the table before the next battle no longer puts its cards back.
 * @param {number} battle @param {boolean} still */
function taken(battle, still) {
  dispatch({ type: "local:taken", battle, still });
}

function flip() {
  const s = state;
  const back = canTakeBack(s);
  if (!s || (!back && !canFlip(s))) return;
  if (isSlapGame(s.game)) {
    // the card's number makes a put-down delayed by a reconnection harmless
    const put = messageFor("put_down", { shown: s.game.cards_played || 0 }, slapOnce);
    if (put) link.send(put);
  } else {
    // the battle number makes a flip delayed by a reconnection harmless
    link.send({ type: "flip", battle: s.game.battle + 1 });
  }
  // away and flipped for already: the flip does not count, the server only takes our
  // seat back (its "gone" message hides the away note); our card stays as it is
  if (!back) dispatch({ type: "local:flip" });
}

const link = connect({
  path: C.socket,
  heartbeat: C.heartbeat || 20,
  since: () => (state && state.seq !== null && state.seq !== undefined ? state.seq : null),
  message: receive,
  connecting() {
    hold = emptyHold();  // the catch-up sends again what we had not applied
    window.clearTimeout(holdTimer);
    // a flip sent just before a drop may never have reached the server
    dispatch({ type: "local:retry" });
    if (!state) byId("game-status").textContent = S.connecting;
  },
  lost() {
    dispatch({ type: "local:lost" });
    renderNotice(S.reconnecting);
  },
  back: () => renderNotice(""),
  moved: () => location.reload(),  // our seat moved or was handed over
});

window.setInterval(() => {
  if (state && state.idle) renderIdle(view, state, Date.now());
}, 250);

/** Slap the pile in the middle (a slap game): once per pile, naming the card on top. */
function slap() {
  const s = state;
  if (!s || !canSlap(s)) return;
  const m = messageFor("slap", { shown: s.game.cards_played || 0 }, slapOnce);
  if (!m || m.type !== "slap") return;
  link.send(m);
  dispatch({ type: "local:slap", pile: m.pile });
}

// -- controls -------------------------------------------------------------------
/** Keys of a slap game (slap.js): Space puts down, S slaps; true when it took the key.
 * @param {KeyboardEvent} e */
function slapKey(e) {
  const t = /** @type {HTMLElement | null} */ (e.target);
  const tag = t ? t.tagName : "";
  // Space on our pile or the pile in the middle is the game's key, not the button's
  const ours = t !== null && (t.id === "my-pile" || t.id === "slap-pile");
  const typing = tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT" ||
    Boolean(t && t.isContentEditable) || (!ours && (tag === "BUTTON" || tag === "A" ||
    tag === "SUMMARY") && (e.key === " " || e.key === "Enter"));
  const action = keyAction({ key: e.key, code: e.code, repeat: e.repeat, ctrlKey: e.ctrlKey,
    altKey: e.altKey, metaKey: e.metaKey, typing }, canFlip(state) || canTakeBack(state));
  if (e.code === "Space" && !typing) e.preventDefault();  // never scrolls the table away
  if (action === "put_down") flip();
  else if (action === "slap") slap();
  else return e.code === "Space" && !typing;
  e.preventDefault();
  return true;
}

document.addEventListener("keydown", (e) => {
  if (state && isSlapGame(state.game) && state.game.status === "playing") {
    if (slapKey(e) || e.key === " ") return;
  }
  if (e.key !== " " && e.key !== "Enter") return;
  const t = /** @type {Element | null} */ (e.target);
  const tag = t && t.tagName;
  if (tag === "INPUT" || tag === "BUTTON" || tag === "A" || tag === "SELECT" ||
      tag === "TEXTAREA" || tag === "SUMMARY") return;
  if (!canFlip(state) && !canTakeBack(state)) return;
  e.preventDefault();
  if (e.repeat) return;  // a held key flips once
  flip();
});
byId("auto-flip").addEventListener("change", (e) => {
  const on = /** @type {HTMLInputElement} */ (e.target).checked;
  view.ui.autoWant = on;  // kept until the state says so (see renderTable)
  link.send({ type: "auto", on });
});
byId("pace").addEventListener("change", (e) => {
  const pace = /** @type {HTMLSelectElement} */ (e.target).value;
  if (pace === "slow" || pace === "normal" || pace === "fast") link.send({ type: "pace", pace });
});
byId("skip").addEventListener("click", () => link.send({ type: "skip" }));
/** When we last asked to leave, and when the last question was answered
 * (Date.now() ms): a double click asks once, whatever the answer. */
let leftAt = 0;
let answeredAt = 0;
byId("leave").addEventListener("click", () => {
  const now = Date.now();
  if (!state || !canLeave(state) || now - leftAt < LEAVE_ONCE || now - answeredAt < 500) return;
  // in the lobby nothing is played yet: leaving only frees the seat
  const lobby = state.game.status === "lobby";
  const sure = window.confirm(lobby ? S.leave_confirm_lobby : S.leave_confirm);
  answeredAt = Date.now();
  if (sure) {
    leftAt = answeredAt;
    link.send({ type: "leave" });
  }
});
buildReactionBar(view);
const muteBox = /** @type {HTMLInputElement} */ (byId("mute-reactions"));
muteBox.checked = remembered(MUTE_KEY) === "on";
muteBox.addEventListener("change", () => {
  try { if (storage) storage.setItem(MUTE_KEY, muteBox.checked ? "on" : "off"); } catch { /**/ }
  dispatch({ type: "local:mute", on: muteBox.checked });
});
const soundBox = /** @type {HTMLInputElement} */ (byId("sound-on"));
soundBox.checked = sound.on();
soundBox.addEventListener("change", () => sound.set(soundBox.checked));

/**
 * A "Copy link" button: copies its field's link and says so.
 * @param {string} buttonId
 * @param {string} inputId
 * @param {string} doneId  where "Link copied." is shown
 */
function copyButton(buttonId, inputId, doneId) {
  const button = document.getElementById(buttonId);
  if (!button) return;
  const input = /** @type {HTMLInputElement} */ (byId(inputId));
  const done = () => { byId(doneId).textContent = S.copied; };
  const select = () => { input.select(); document.execCommand("copy"); done(); };
  button.addEventListener("click", () => { copyText(input.value).then(done, select); });
}
copyButton("copy-link", "share-link", "copied");
copyButton("copy-device-link", "device-link", "device-copied");  // seated players only
if ("share" in navigator) {
  const shareButton = byId("share-link-button");
  const input = /** @type {HTMLInputElement} */ (byId("share-link"));
  shareButton.hidden = false;
  shareButton.addEventListener("click", () => {
    navigator.share({ title: document.title, url: input.value }).catch(() => {});
  });
}

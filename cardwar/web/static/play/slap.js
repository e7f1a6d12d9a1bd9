// Slapping on the game page of a slap game (Egyptian Ratscrew, Slapjack:
// RULES.md 11): which pile a slap names, which key or tap does what, and one
// slap per pile. Pure: no DOM, no socket; the page hands it what the player
// did and sends what it returns (the server judges, cardwar/tables/slap_judge.py).
//
// Keys: Space puts down your card when it is your turn; S slaps (by its place
// on the keyboard, so it is the same key on AZERTY, QWERTZ or Cyrillic
// layouts). A key held down (auto-repeat) does nothing more; nor does a key
// with Ctrl, Alt or Meta, or one typed into a text field. A tap or a click of
// the primary button on the pile slaps.

/** @typedef {{type: "slap", pile: number}} SlapMessage  the page's slap (RULES.md 11.6) */
/** @typedef {"put_down" | "slap"} Action */

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
 * What the player's key press or tap sends, if anything: a slap (once per
 * pile) or a put-down (as a `flip` naming the card it puts down, the one after
 * the card shown, as in Beggar-my-neighbour: a press meant for a card already
 * put down counts for nothing, so a key pressed twice never puts down two).
 * @param {Action | null} action
 * @param {{shown: number}} table
 * @param {SlapOnce} once
 * @returns {SlapMessage | {type: "flip", battle: number} | null}
 */
export function messageFor(action, table, once) {
  if (action === "put_down") return { type: "flip", battle: slapFor(table).pile + 1 };
  if (action !== "slap") return null;
  const slap = slapFor(table);
  return once.take(slap.pile) ? slap : null;
}

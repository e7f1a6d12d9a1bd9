// The end of the game: the end screen (result, placings, the seed and how to
// replay the deal, links) and the rematch offer. DOM only, drawn from the state.

import { byId, el } from "./cards.js";
import { placings } from "./state.js";

/** @typedef {import("./state.js").State} State */
/** @typedef {import("./render.js").View} View */

/**
 * The end screen, once the game is over (focused when it first shows).
 * @param {View} v
 * @param {State} state
 */
export function renderEnd(v, state) {
  const { w, C } = v;
  const S = w.S;
  const r = state.result;
  const end = byId("end");
  const form = byId("rematch-form");  // drawn inside the end screen, under the result
  const wasHidden = end.hidden;
  end.textContent = "";
  if (!r) { end.hidden = true; end.appendChild(form); return; }
  end.hidden = false;
  /** @param {number} seat */
  const name = (seat) => w.seatName(state.seats, seat);
  const won = r.outcome === "win" && r.winner !== null;
  // a player reads "You won" or "You lost"; a spectator who won
  const mine = state.you !== null && state.seats[state.you].kind === "human";
  const head = !won ? S.draw_title : !mine ? S.game_over : r.winner === state.you ? S.you_won
    : S.you_lost;
  end.dataset.result = !won ? "draw" : !mine ? "over" : r.winner === state.you ? "won" : "lost";
  const title = el("h2", "end__title", head);
  title.id = "end-title";
  const top = el("div", "end__head");
  top.append(title, foldButton(v, end));
  end.appendChild(top);
  end.classList.toggle("end--folded", Boolean(v.ui.endFolded));
  if (won && mine && r.winner === state.you) end.appendChild(confetti());
  if (won) {
    end.appendChild(el("p", "end__result", w.fmt(S.wins, { name: name(/** @type {number} */ (r.winner)) })));
    end.appendChild(el("p", "end__why", w.fmt(S.win_why, { name: name(/** @type {number} */ (r.winner)) })));
  } else {
    const why = /** @type {Record<string, string | undefined>} */ (/** @type {unknown} */ (S));
    end.appendChild(el("p", "end__result", S.draw));
    end.appendChild(el("p", "end__why", w.fmt(why["reason_" + r.reason] || "",
      { limit: w.num(state.game.battle_limit || 0) })));
  }
  end.appendChild(form);
  if (r.slaps !== undefined) {  // a slap game: its four counts (RULES.md 11.7)
    end.appendChild(el("p", "end__length", w.fmt(S.slap_length, { cards: w.num(r.battles),
      tricks: w.num(r.tricks || 0), slaps: w.num(r.slaps), burned: w.num(r.burned || 0) })));
  } else if (r.tricks !== undefined) {  // a game in turns: its two counts (RULES.md 10)
    end.appendChild(el("p", "end__length",
      w.fmt(S.turns_length, { cards: w.num(r.battles), tricks: w.num(r.tricks) })));
  }
  end.appendChild(el("h3", "end__placings-title", S.placings));
  end.appendChild(placingList(v, state));
  if (state.game.players === 3) end.appendChild(el("p", "end__aside", S.set_aside));
  const links = el("p", "end__links");
  const replay = el("a", "button button--quiet", S.watch_replay);
  replay.href = C.replay;
  links.appendChild(replay);
  if (!mine) {  // a player's next game is the rematch; a spectator starts one
    const again = el("a", "button button--quiet", S.play_again);
    again.href = C.variant_page;
    links.appendChild(again);
  }
  end.appendChild(links);
  end.appendChild(shareBox(v, state));
  // how anyone can check the deal: the seed, the command line, the record
  const check = el("details", "end__check");
  check.appendChild(el("summary", "", S.check_deal));
  check.appendChild(el("p", "", S.seed));
  check.appendChild(el("p", "", "")).appendChild(el("code", "end__seed", r.seed || r.hands));
  check.appendChild(el("p", "", S.replay));
  check.appendChild(el("pre", "end__command")).appendChild(el("code", "", r.command));
  const dl = el("a", "button button--quiet button--small", S.download);
  dl.href = C.download;
  dl.setAttribute("download", "");
  check.appendChild(el("p", "")).appendChild(dl);
  end.appendChild(check);
  if (wasHidden) end.focus({ preventScroll: true });
}

/**
 * The button that folds the end screen down to a bar (its title, the rematch
 * and this button), so the table is seen as the game ended, and opens it again.
 * Escape folds it too. The choice holds while the page is open (`v.ui.endFolded`).
 * @param {View} v
 * @param {HTMLElement} end  the end screen
 */
function foldButton(v, end) {
  const S = v.w.S;
  const button = el("button", "button button--quiet button--small end__fold", "");
  button.type = "button";
  button.id = "end-fold";
  /** @param {boolean} folded */
  const show = (folded) => {
    v.ui.endFolded = folded;
    end.classList.toggle("end--folded", folded);
    button.textContent = folded ? S.see_result : S.see_table;
    button.setAttribute("aria-expanded", String(!folded));
  };
  show(Boolean(v.ui.endFolded));
  button.addEventListener("click", () => {
    show(!v.ui.endFolded);
    if (v.ui.endFolded) tableAboveBar(end);
  });
  if (!end.dataset.folds) {  // once: the screen is drawn again on every state
    end.dataset.folds = "1";
    document.addEventListener("keydown", (e) => {  // wherever the focus is, but a field
      if (e.key !== "Escape" || end.hidden || v.ui.endFolded) return;
      const field = document.activeElement;
      if (field && field !== end && /^(INPUT|TEXTAREA|SELECT)$/.test(field.tagName)) return;
      const fold = /** @type {HTMLButtonElement | null} */ (end.querySelector(".end__fold"));
      if (fold) { fold.click(); fold.focus(); }
    });
  }
  return button;
}

/**
 * Scroll the page so that the table's foot is above the folded bar (a phone's
 * table fills the screen): nothing when it already is.
 * @param {HTMLElement} end  the folded end screen
 */
function tableAboveBar(end) {
  const below = byId("felt").getBoundingClientRect().bottom - end.getBoundingClientRect().top + 8;
  if (below <= 0) return;
  const still = matchMedia("(prefers-reduced-motion: reduce)").matches;
  window.scrollBy({ top: below, behavior: still ? "auto" : "smooth" });
}

/** A small celebration for the winner: a few cards thrown up (CSS; none with
 * prefers-reduced-motion). */
function confetti() {
  const box = el("div", "end__confetti");
  box.setAttribute("aria-hidden", "true");
  ["\u2660", "\u2665", "\u2663", "\u2666", "\u2665", "\u2660", "\u2666", "\u2663"]
    .forEach((suit, i) => {
      const c = el("span", "end__bit" + (i % 2 ? " end__bit--red" : ""), suit);
      c.style.setProperty("--i", String(i));
      box.appendChild(c);
    });
  return box;
}

/**
 * Placings (state.placings): those still in play by cards held, then who went
 * out, the latest first; a shared place is numbered once for each (3, 3).
 * @param {View} v
 * @param {State} state
 */
function placingList(v, state) {
  const { w } = v;
  const r = /** @type {import("./messages.js").Result} */ (state.result);
  const out = r.eliminated || {};
  const list = el("ol", "end__counts");
  placings(r).forEach(({ seat, place }) => {
    const name = w.seatName(state.seats, seat);
    // a slap game counts cards put down, not battles
    const outText = r.slaps !== undefined ? w.S.out_after_card : w.S.out_in_battle;
    const li = /** @type {HTMLLIElement} */ (el("li", "", out[seat] !== undefined
      ? w.fmt(outText, { name, n: w.num(out[seat]) })
      : name + ": " + w.plural(w.S.cards, r.final_counts[seat])));
    li.value = place;
    li.dataset.place = String(place);
    list.appendChild(li);
  });
  return list;
}

/**
 * The rematch form, for the seated players of a finished game: offer one, or
 * join the one offered (naming who offered it); when it started without us,
 * a link to watch it instead.
 * @param {View} v
 * @param {State} state
 */
export function renderRematch(v, state) {
  const { w } = v;
  const S = w.S;
  const form = byId("rematch-form");
  const g = state.game;
  const seated = state.you !== null && state.seats[state.you].kind === "human";
  form.hidden = !(g.status === "over" && seated);
  if (form.hidden) return;
  const offer = byId("rematch-offer");
  const button = byId("rematch-button");
  offer.textContent = "";
  if (!g.rematch) {
    button.textContent = S.rematch;
    return;
  }
  const late = v.ui.late || Boolean(v.C.rematch_late);
  if (late) {
    // it started without us (the error above says so): watch it instead
    const watch = el("a", "button button--quiet", S.watch_rematch);
    watch.href = location.pathname.replace(/\/g\/[^/]+$/, "/g/" + g.rematch);
    watch.id = "rematch-watch";
    offer.appendChild(watch);
  } else {
    const by = g.rematch_by;
    offer.textContent = by !== null && by !== undefined && by !== state.you
      ? w.fmt(S.rematch_offer, { name: w.seatName(state.seats, by) }) : S.rematch_ready;
  }
  button.hidden = late;
  button.textContent = S.rematch_join;
}

/**
 * The "share the result" button: the Web Share API where there is one (a
 * phone's share sheet), else the text and the replay link to the clipboard;
 * either way it says what it did.
 * @param {View} v
 * @param {State} state
 */
function shareBox(v, state) {
  const { w, C } = v;
  const box = el("p", "end__share");
  const r = /** @type {import("./messages.js").Result} */ (state.result);
  const text = w.shareText(r, state.seats, state.you);
  const button = el("button", "button button--quiet", w.S.share_result);
  button.type = "button";
  button.id = "share-result";
  const note = el("span", "end__shared", v.ui.shared);
  note.id = "share-note";
  note.setAttribute("role", "status");
  const said = (/** @type {string} */ what) => { v.ui.shared = what; note.textContent = what; };
  button.addEventListener("click", () => {
    const full = text + " " + w.S.share_replay + " " + C.share;
    if (typeof navigator.share === "function") {
      navigator.share({ title: document.title, text: text + " " + w.S.share_replay, url: C.share })
        .catch(() => {});  // the sheet was closed: nothing to say
    } else {
      copyText(full).then(() => said(w.S.share_copied + " " + full), () => said(full));
    }
  });
  box.append(button, " ", note);
  return box;
}

/**
 * Copy `text` to the clipboard (the async API where the page may use it, else
 * a hidden field and the copy command).
 * @param {string} text
 * @returns {Promise<void>}
 */
export function copyText(text) {
  if (navigator.clipboard && window.isSecureContext) return navigator.clipboard.writeText(text);
  const field = document.createElement("textarea");
  field.value = text;
  field.setAttribute("readonly", "");
  field.className = "visually-hidden";
  document.body.appendChild(field);
  field.select();
  const done = document.execCommand("copy");
  field.remove();
  return done ? Promise.resolve() : Promise.reject(new Error("copy refused"));
}

// Wording, in the page's language: the strings and the way numbers are written
// come from the server (cardwar.web.play.client_strings, embedded as JSON: CLDR
// by Babel, as on the rules pages), plural forms from Intl.PluralRules. Pure: no
// DOM, so node's tests can use it too.

/** @typedef {import("./messages.js").Seat} Seat */
/** @typedef {import("./messages.js").BattleRecord} BattleRecord */
/** @typedef {import("./messages.js").Game} Game */

/** @typedef {Record<string, string>} PluralForms  a text per CLDR category (one, few, many…) */
/** @typedef {{emoji: string, text: string}} ReactionWords  a reaction's emoji ("" for a
 *   phrase) and its words (what an emoji means, for screen readers) */

/**
 * Every string the game and replay pages show; `{name}`-style placeholders.
 * @typedef {object} Strings
 * @property {string} seat
 * @property {string} open_seat
 * @property {string} reserved_seat
 * @property {string} computer
 * @property {string} computer_name
 * @property {string} copied
 * @property {string} you
 * @property {string} online
 * @property {string} offline
 * @property {string} presence_unknown
 * @property {string} creator
 * @property {string} start
 * @property {string} start_fill
 * @property {string} wait_kept
 * @property {string} start_kept
 * @property {string} wait_start
 * @property {string} watching
 * @property {string} battle_of
 * @property {string} battle
 * @property {string} card_number  in turns: "Card {n}"
 * @property {string} to_play  in turns: "{name} to play."
 * @property {string} to_play_you  in turns, on our turn: "Your turn to play."
 * @property {PluralForms} must_pay  in turns: "{name} must pay {count} cards {for_card}."
 * @property {Record<string, string>} pay_for  court rank -> "for the king of {suit}"
 * @property {Record<string, string>} suits_of  suit -> its form in pay_for ("hearts")
 * @property {string} puts_down  in turns: "{name} puts down the {card}."
 * @property {PluralForms} takes_trick  in turns: "{name} takes the pile: {count} cards."
 * @property {PluralForms} you_take_trick  the same for the page's own seat: "You take the pile: {count} cards."
 * @property {PluralForms} table_pile  in turns: "On the table: {count} cards"
 * @property {PluralForms} tricks  in turns: "{count} tricks"
 * @property {string} turns_length  in turns: "Cards put down: {cards}. Tricks: {tricks}."
 * @property {string} flip
 * @property {PluralForms} flip_help
 * @property {PluralForms} flip_help_turns  the same in a game in turns
 * @property {string} idle_you
 * @property {string} idle_wait
 * @property {string} placings
 * @property {string} out_in_battle
 * @property {string} set_aside
 * @property {string} flipped
 * @property {string} waiting
 * @property {string} out
 * @property {string} tie_word  the five letters of a peace in this language ("" in War)
 * @property {PluralForms} cards
 * @property {PluralForms} pile
 * @property {PluralForms} takes
 * @property {PluralForms} face_down_count
 * @property {string} tie_peace
 * @property {string} tie_war
 * @property {string} nobody
 * @property {string} went_out
 * @property {string} game_over
 * @property {string} you_won
 * @property {string} you_lost
 * @property {string} draw_title
 * @property {string} check_deal
 * @property {string} see_table  folds the end screen away
 * @property {string} see_result  opens it again
 * @property {string} wins
 * @property {string} win_why
 * @property {string} draw
 * @property {string} reason_battle_limit
 * @property {string} reason_unresolvable
 * @property {string} reason_cycle
 * @property {string} seed
 * @property {string} replay
 * @property {string} play_again
 * @property {string} connecting
 * @property {string} disconnected
 * @property {string} reconnecting
 * @property {string} gone
 * @property {string} hand_over
 * @property {PluralForms} watching_count
 * @property {string} watch_replay
 * @property {string} watch_rematch
 * @property {string} download
 * @property {string} rematch
 * @property {string} rematch_join
 * @property {string} rematch_offer
 * @property {string} rematch_ready
 * @property {string} replay_step
 * @property {string} replay_start
 * @property {string} replay_trick  "Trick {n} of {total}"
 * @property {string} replay_play
 * @property {string} replay_pause
 * @property {string} replay_per_second  "{n} a second"
 * @property {PluralForms} trick_summary  a trick of the replay in words
 * @property {PluralForms} cycle_info  where an endless game's cycle starts; {count} tricks long
 * @property {string} cycle_rounds  "Times round the cycle: {n}"
 * @property {string} card
 * @property {Record<string, string>} ranks
 * @property {Record<string, string>} suits
 * @property {Record<string, string>} errors  error code -> text
 * @property {Record<string, ReactionWords>} reactions  each preset reaction
 * @property {string} react
 * @property {string} spectators_react
 * @property {string} reaction_from
 * @property {string} a_spectator
 * @property {string} game_name  the variant's name
 * @property {string} share_result
 * @property {PluralForms} share_won_me
 * @property {PluralForms} share_won
 * @property {PluralForms} share_draw
 * @property {string} share_replay
 * @property {string} share_copied
 * @property {NumberWords} number  how numbers are written (CLDR, from the server)
 * @property {string} seating_lobby
 * @property {string} seating_note
 * @property {string} pace
 * @property {Record<string, string>} paces  slow, normal, fast
 * @property {string} skip
 * @property {string} finish
 * @property {string} watch_soon
 * @property {string} skipping
 * @property {string} away_you
 * @property {string} leave
 * @property {string} leave_confirm
 * @property {string} leave_confirm_lobby
 * @property {string} left
 * @property {string} left_said
 * @property {string} left_said_lobby
 * @property {Record<string, string>} slap_pattern  slap games: a pattern as "slapped {pattern}"
 *   names it ("the double")
 * @property {string} slap_won  "{name} slapped {pattern} first: {ms} ms."
 * @property {string} slap_won_plain  the same without figures
 * @property {string} slap_won_you  "You slapped {pattern} first: {ms} ms."
 * @property {string} slap_won_you_against  "... {ms} ms against {others}."
 * @property {string} slap_won_against  "{name} slapped {pattern} first: {ms} ms against {others}."
 * @property {string} slap_won_against_you  "... {ms} ms against your {yours} ms."
 * @property {string} slap_other  one of {others}: "{name} ({ms} ms)"
 * @property {PluralForms} slap_wrong_burn  "Wrong slap by {name}: {count} card burned."
 * @property {PluralForms} slap_wrong_give  "... {count} card to {other}."
 * @property {PluralForms} slap_wrong_burn_you  "Your wrong slap: {count} card burned under the pile."
 * @property {PluralForms} slap_wrong_give_you  "Your wrong slap: {count} card goes to {other}."
 * @property {PluralForms} slap_wrong_own  "Wrong slap by {name} on their own card: …"
 * @property {PluralForms} slap_wrong_own_you  "Your wrong slap on your own card: …"
 * @property {PluralForms} slap_wrong_give_to_you  "Wrong slap by {name}: {count} card goes to you."
 * @property {string} slap_wrong_empty  a wrong slap by a player with no cards
 * @property {string} slap_late  "{name}'s slap came too late: no penalty."
 * @property {string} slap_late_you
 * @property {string} slap_empty_you
 * @property {string} slap_no_slap_in_you
 * @property {string} slap_out_you
 * @property {Record<string, string>} pattern_names  a pattern in the table's options
 * @property {string} rules_patterns  "Slap: {patterns}."
 * @property {PluralForms} rules_burn  "A wrong slap burns {count} card."
 * @property {string} rules_give
 * @property {string} rules_slap_in
 * @property {string} rules_no_slap_in
 * @property {string} slap  the slap button's word
 * @property {string} slap_label  the pile's name for screen readers ("Slap the pile (S)")
 * @property {string} put_down  our pile's word in a slap game
 * @property {string} key_space  the space bar's name
 * @property {string} to_put_down  the tag of the seat to move in a slap game ("to play")
 * @property {string} slap_help  the keys and taps of a slap game
 * @property {string} slap_length  "Cards put down: {cards}. Tricks: {tricks}. Slaps: {slaps}. Burned: {burned}."
 * @property {string} replay_card  "Card {n} of {total}"
 * @property {string} out_after_card  "{name} went out after card {n}."
 * @property {string} slap_table_pile  the pile's heading: "The pile"
 */

/**
 * How a locale writes whole numbers, from the server's CLDR data (Babel): the
 * grouping separator, CLDR's minimum grouping digits (2: 1000 but 10 000) and
 * the minus sign.
 * @typedef {{group: string, min_grouping: number, minus: string}} NumberWords
 */

/**
 * `t` with each `{key}` replaced by `args[key]` (unknown keys are left as they are).
 * @param {string} t
 * @param {Record<string, string | number>} args
 * @returns {string}
 */
export function fmt(t, args) {
  return t.replace(/\{(\w+)\}/g, (m, k) => (k in args ? String(args[k]) : m));
}

/** Characters of the right-to-left scripts (Hebrew, Arabic, Syriac, Thaana, N'Ko…). */
const RTL = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc]|\ud802[\udc00-\udfff]|\ud83a/;

/**
 * A nickname made safe inside a sentence: one written right to left is wrapped in
 * the Unicode isolates FSI…PDI, so it cannot reorder the words around it (the
 * text's own `<bdi>`, for strings that are not elements).
 * @param {string} name
 */
export function isolate(name) {
  return RTL.test(name) ? "\u2068" + name + "\u2069" : name;
}

/**
 * How the page writes a whole number: the server's CLDR data (Babel), the same
 * as the rules pages, not the browser's Intl (whose data may differ).
 * @param {NumberWords | undefined} n
 * @returns {(value: number) => string}
 */
export function numberFormat(n) {
  const group = n ? n.group : ",";
  const minGrouping = n ? n.min_grouping : 1;
  const minus = n ? n.minus : "-";
  return (value) => {
    const digits = String(Math.abs(Math.trunc(value)));
    let out = digits;
    if (digits.length >= 3 + minGrouping) {
      out = digits.replace(/\B(?=(\d{3})+(?!\d))/g, group);
    }
    return value < 0 ? minus + out : out;
  };
}

/**
 * The wording helpers bound to the page's strings `S` and `locale` (a BCP 47 tag).
 * @param {Strings} S
 * @param {string} locale
 */
export function makeWords(S, locale) {
  const nf = { format: numberFormat(S.number) };
  const pr = new Intl.PluralRules(locale);

  /**
   * The form of `forms` for `n`, with `{count}` the number in the locale's digits.
   * @param {PluralForms} forms
   * @param {number} n
   * @param {Record<string, string | number>} [args]
   */
  function plural(forms, n, args) {
    return fmt(forms[pr.select(n)] || forms.other, { ...args, count: nf.format(n) });
  }
  /** @param {number} n */
  function num(n) { return nf.format(n); }
  /** A card's name for screen readers, e.g. "queen of hearts". @param {string} code e.g. "QH" */
  function cardName(code) {
    return fmt(S.card, { rank: S.ranks[code[0]], suit: S.suits[code[1]] });
  }
  /**
   * How a seat is called: its nickname, "Computer 2" (numbered by its lobby seat,
   * which the drawing of the seats keeps) or "Seat 3".
   * @param {Seat[]} seats
   * @param {number} seat
   */
  function seatName(seats, seat) {
    const s = seats[seat];
    if (s.kind === "computer") return fmt(S.computer_name, { n: num(s.number || seat + 1) });
    if ((s.kind === "human" || s.kind === "left") && s.nickname) return isolate(s.nickname);
    return fmt(S.seat, { n: num(seat + 1) });
  }
  /**
   * The letters on `count` face-down cards of a peace ("" each without a tie word).
   * @param {boolean} tieWord
   * @param {number} count
   * @returns {string[]}
   */
  function tieLetters(tieWord, count) {
    const out = [];
    for (let i = 0; i < count; i++) out.push(tieWord ? S.tie_word[i] || "" : "");
    return out;
  }
  /**
   * How a battle ended: who takes the pot, or nobody; who went out.
   * @param {BattleRecord} b
   * @param {(seat: number) => string} name
   * @returns {string[]}
   */
  function battleOutcome(b, name) {
    const parts = [];
    if (b.winner !== null && b.winner !== undefined) {
      parts.push(plural(S.takes, b.pot, { name: name(b.winner) }));
    } else {
      parts.push(S.nobody);
    }
    (b.out || []).forEach((s) => parts.push(fmt(S.went_out, { name: name(s) })));
    return parts;
  }
  /**
   * A battle in words: the tie (if any) and the outcome; `full` adds the number
   * and every card turned up (for the screen reader's announcement).
   * @param {BattleRecord} b
   * @param {boolean} tieWord  a peace (true) or a war
   * @param {boolean} full
   * @param {(seat: number) => string} name
   */
  function summary(b, tieWord, full, name) {
    /** @param {(string | null)[]} cards */
    const turned = (cards) => cards.map((c, s) => (c ? name(s) + " " + cardName(c) : null))
      .filter(Boolean).join(", ") + ".";
    const parts = [];
    if (full) parts.push(fmt(S.battle, { n: num(b.battle) }) + ": " + turned(b.face_up));
    if (b.peaces.length) {
      parts.push(tieWord ? S.tie_peace : S.tie_war);
      if (full) parts.push(turned(b.peaces[b.peaces.length - 1].face_up));
    }
    return parts.concat(battleOutcome(b, name)).join(" ");
  }
  /** "Battle 4 of 1,000": the coming battle, or the last one once the game is over
   * or while its cards are on the table (`onTable`: the heading names the cards below it).
   * @param {Game} g @param {boolean} [onTable] */
  function battleNumber(g, onTable = false) {
    const n = g.status === "over" || (onTable && g.battle > 0) ? g.battle : g.battle + 1;
    if (g.to_move !== undefined) return fmt(S.card_number, { n: num(n) });
    if (g.battle_limit) return fmt(S.battle_of, { n: num(n), limit: num(g.battle_limit) });
    return fmt(S.battle, { n: num(n) });
  }
  /**
   * The result to share, from the reader's side: "I won…" for the winner,
   * "{name} won…" for the others, or a draw; `{count}` battles.
   * @param {import("./messages.js").Result} r
   * @param {Seat[]} seats
   * @param {number | null} you
   */
  function shareText(r, seats, you) {
    const args = { game: S.game_name };
    if (r.outcome !== "win" || r.winner === null) return plural(S.share_draw, r.battles, args);
    if (r.winner === you) return plural(S.share_won_me, r.battles, args);
    return plural(S.share_won, r.battles, { ...args, name: seatName(seats, r.winner) });
  }
  return { S, fmt, num, plural, cardName, seatName, tieLetters, battleOutcome, summary,
    battleNumber, shareText };
}

/** @typedef {ReturnType<typeof makeWords>} Words */

"""Every string the game and replay scripts show, in the reader's language.

:func:`client_strings` is sent with the game page and the replay page (as
JSON); the scripts fill the placeholders in braces. ``errors`` words every
:class:`~cardwar.tables.ErrorCode` a page can receive.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from babel import Locale

from cardwar.engine import PEACE, VARIANTS
from cardwar.tables.events import REACTIONS

from . import i18n
from .slap_strings import slap_strings
from .variants import page_of

#: The emoji of the reactions that show one (the others show their words).
REACTION_EMOJI: dict[str, str] = {
    "clap": "\U0001F44F", "wow": "\U0001F62E", "laugh": "\U0001F602", "sad": "\U0001F622",
    "dove": "\U0001F54A\uFE0F",
}


def in_turns(variant: str) -> bool:
    """True for a variant played a card at a time (Beggar-my-neighbour, RULES.md 10, and
    the slap games, RULES.md 11): its length is in cards put down, not battles."""
    return variant in VARIANTS and VARIANTS[variant].play in ("turns", "slaps")


def _plural(pick: Callable[[int], str], locale: str) -> dict[str, str]:
    """One form per CLDR plural category (the browser picks with Intl.PluralRules).

    ``pick(n)`` is an ``ngettext`` call; Babel's CLDR categories match the
    browser's ``Intl.PluralRules`` categories. A category only fractions
    reach (Czech ``many``; Polish and Ukrainian ``other``: 1.5) has no
    gettext form of its own (Babel gives these languages three), so it takes
    the form of 2: a fraction takes the genitive singular, which is that form
    for the feminine card words (karty, карти). Every category the browser
    can select therefore has a text.
    """
    loc = Locale.parse(i18n.babel_locale(locale))
    forms: dict[str, str] = {}
    for n in (*range(0, 30), 100, 101, 102, 105, 1000, 1001, 1_000_000):
        forms.setdefault(loc.plural_form(n), pick(n))
    for fraction in (0.5, 1.5, 2.5, 5.5, 21.5):
        forms.setdefault(loc.plural_form(fraction), pick(2))
    return forms


def player_name(locale: str, n: int) -> str:
    """The nickname a join form suggests for seat number ``n`` (from 1), in ``locale``."""
    token = i18n.current_locale.set(locale)
    try:
        return i18n.gettext("Player {n}").format(n=n)
    finally:
        i18n.current_locale.reset(token)


def record_seat_names(locale: str) -> list[str]:
    """How a record deal's replay names its two seats, as the published records
    do: the first player (table seat 0) and the second player (seat 1)."""
    token = i18n.current_locale.set(locale)
    try:
        return [i18n.gettext("First player"), i18n.gettext("Second player")]
    finally:
        i18n.current_locale.reset(token)


def nickname_error(locale: str, code: str = "bad_char") -> str:
    """Why a nickname was refused (``code`` of the :class:`NicknameError`), in
    ``locale``; the same texts on creating and joining."""
    token = i18n.current_locale.set(locale)
    try:
        if code == "computer":
            return i18n.gettext(
                "That is how computer seats are named. Please choose another nickname.")
        return i18n.gettext(
            "Please choose a nickname of 1 to 24 letters, without invisible characters.")
    finally:
        i18n.current_locale.reset(token)


def client_strings(locale: str, variant: str = PEACE.name) -> dict[str, Any]:
    """Every string the game script shows, in ``locale`` (placeholders in braces);
    the tie wording follows ``variant``'s presentation (:mod:`cardwar.web.variants`:
    a war in War, a peace in Peace).

    Plural entries are dicts keyed by CLDR category (``one``, ``few``, ``many``,
    ``other``).
    """
    token = i18n.current_locale.set(locale)
    try:
        _ = i18n.gettext
        ngettext = i18n.ngettext
        page = page_of(variant)
        return {
            "seat": _("Seat {n}"),
            "open_seat": _("Waiting for a player…"),
            # TRANSLATORS: a rematch seat nobody else may take; {name} is the nickname
            # of the player of the last game it is waiting for
            "reserved_seat": _("Kept for {name}"),
            "computer": _("the computer"),
            "computer_name": _("Computer {n}"),
            "copied": _("Link copied."),
            "you": _("you"),
            "online": _("online"),
            "offline": _("offline"),
            # TRANSLATORS: a player's presence while our own connection is down
            "presence_unknown": _("status unknown"),
            "creator": _("starts the game"),
            "start": _("Start the game"),
            "start_fill": _("Fill the empty seats with the computer and start"),
            # the rematch's lobby, seats still kept for players of the last game
            "wait_kept": _("Waiting for the other players of the last game."),
            "start_kept": _("Start now: the computer plays for those missing"),
            "wait_start": _("Waiting for {name} to start the game."),
            "watching": _("You are watching this game."),
            "battle_of": _("Battle {n} of {limit}"),
            "battle": _("Battle {n}"),
            "flip": _("Flip"),
            "flip_help": _plural(lambda n: ngettext(
                "Click or tap your pile, or press Space or Enter, to flip. Once another "
                "player has flipped, you have {count} second before the game flips for you.",
                "Click or tap your pile, or press Space or Enter, to flip. Once another "
                "player has flipped, you have {count} seconds before the game flips for you.",
                n), locale),
            "flip_help_turns": _plural(lambda n: ngettext(
                "Click or tap your pile, or press Space or Enter, to put down your card "
                "when it is your turn. You then have {count} second before the game puts "
                "it down for you.",
                "Click or tap your pile, or press Space or Enter, to put down your card "
                "when it is your turn. You then have {count} seconds before the game puts "
                "it down for you.", n), locale),
            "idle_you": _("Flipping for you in {n} s"),
            "idle_wait": _("Waiting for {names}… {n} s"),
            "placings": _("Placings"),
            "out_in_battle": _("{name} went out in battle {n}."),
            "set_aside": _("With three players one card was set aside at the deal: "
                           "52 cards do not split evenly three ways."),
            "flipped": _("ready"),
            "waiting": _("to flip"),
            "out": _("out"),
            "tie_word": _(page.tie_word) if page.tie_word else "",
            "cards": _plural(lambda n: ngettext("{count} card", "{count} cards", n), locale),
            "pile": _plural(lambda n: ngettext(
                "{name}'s pile: {count} card", "{name}'s pile: {count} cards", n), locale),
            "takes": _plural(lambda n: ngettext(
                "{name} takes {count} card.", "{name} takes {count} cards.", n), locale),
            "face_down_count": _plural(lambda n: ngettext(
                "{count} face down", "{count} face down", n), locale),
            # Beggar-my-neighbour (a game in turns): the coming card, whose turn, what is owed
            "card_number": _("Card {n}"),
            "to_play": _("{name} to play."),
            # TRANSLATORS: the same, on the page of the player whose turn it is
            "to_play_you": _("Your turn to play."),
            # TRANSLATORS: {for_card} is one of the "for the jack of {suit}" phrases below
            "must_pay": _plural(lambda n: ngettext(
                "{name} must pay {count} card {for_card}.",
                "{name} must pay {count} cards {for_card}.", n), locale),
            # TRANSLATORS: what is owed is paid for a court card; {suit} is one of
            # the suit forms below ("suits_of"), chosen so that the phrase reads well
            "pay_for": {
                "J": _("for the jack of {suit}"), "Q": _("for the queen of {suit}"),
                "K": _("for the king of {suit}"), "A": _("for the ace of {suit}"),
            },
            # TRANSLATORS: a suit as it fits into "for the jack of {suit}" (a case
            # form, or an adjective's stem if the phrases above end it)
            "suits_of": {"C": i18n.pgettext("for the jack of", "clubs"),
                         "D": i18n.pgettext("for the jack of", "diamonds"),
                         "H": i18n.pgettext("for the jack of", "hearts"),
                         "S": i18n.pgettext("for the jack of", "spades")},
            "puts_down": _("{name} puts down the {card}."),
            "takes_trick": _plural(lambda n: ngettext(
                "{name} takes the pile: {count} card.",
                "{name} takes the pile: {count} cards.", n), locale),
            "you_take_trick": _plural(lambda n: ngettext(
                "You take the pile: {count} card.",
                "You take the pile: {count} cards.", n), locale),
            "table_pile": _plural(lambda n: ngettext(
                "On the table: {count} card", "On the table: {count} cards", n), locale),
            "tricks": _plural(lambda n: ngettext("{count} trick", "{count} tricks", n), locale),
            "tie_peace": _("A tie: peace!"),
            "tie_war": _("A tie: war!"),
            "nobody": _("Nobody can turn a card: the pot stays on the table."),
            "went_out": _("{name} is out of the game."),
            "game_over": _("Game over"),
            # TRANSLATORS: the end screen's title for the winner, then for the others
            "you_won": _("You won!"),
            "you_lost": _("You lost"),
            # TRANSLATORS: the end screen's title when nobody wins
            "draw_title": _("Draw"),
            # TRANSLATORS: opens the seed, the command line and the download of a game
            "check_deal": _("Check this deal"),
            # TRANSLATORS: folds the end screen down to a bar, to look at the table
            # as the game ended; then opens it again
            "see_table": _("See the table"),
            "see_result": _("See the result"),
            "wins": _("{name} wins the game!"),
            "win_why": _("{name} holds every card."),
            "draw": _("It is a draw."),
            "reason_battle_limit": _("The game reached its limit of {limit} battles."),
            "reason_unresolvable": _(page.unresolvable),
            "reason_cycle": _(page.cycle),
            "turns_length": _("Cards put down: {cards}. Tricks: {tricks}."),
            "seed": _("The seed of this deal:"),
            "replay": _("Replay this game on your computer with:"),
            "play_again": _("Play again"),
            "connecting": _("Connecting…"),
            "disconnected": _("The connection was lost. Reload the page to carry on."),
            "reconnecting": _("The connection was lost. Reconnecting…"),
            "gone": _("away: played for"),
            "hand_over": _("Let the computer play for {name}"),
            "watching_count": _plural(lambda n: ngettext(
                "{count} person is watching", "{count} people are watching", n), locale),
            "watch_replay": _("Watch the replay"),
            "watch_rematch": _("Watch the rematch"),
            "download": _("Download the game"),
            "rematch": _("Rematch"),
            "rematch_join": _("Join the rematch"),
            "rematch_offer": _("{name} offers a rematch with the same seats."),
            "rematch_ready": _("A rematch with the same seats is waiting for you."),
            "replay_step": _("Battle {n} of {total}"),
            "replay_start": _("The cards are dealt."),
            "replay_trick": _("Trick {n} of {total}"),
            "replay_play": _("Play"),
            "replay_pause": _("Pause"),
            # TRANSLATORS: a speed of the replay: {n} steps (battles or tricks) a second
            "replay_per_second": _("{n} a second"),
            "trick_summary": _plural(lambda n: ngettext(
                "{name} started; {count} card was put down and {taker} took it.",
                "{name} started; {count} cards were put down and {taker} took them.", n),
                locale),
            # TRANSLATORS: {count} tricks; {start_cards} and {length_cards} are "34 cards"
            "cycle_info": _plural(lambda n: ngettext(
                "This deal never ends. From trick {start} ({start_cards}) the same "
                "{count} trick ({length_cards}) comes round again and again.",
                "This deal never ends. From trick {start} ({start_cards}) the same "
                "{count} tricks ({length_cards}) come round again and again.", n), locale),
            "cycle_rounds": _("Times round the cycle: {n}"),
            # TRANSLATORS: a card's name for screen readers, e.g. "queen of hearts".
            "card": _("{rank} of {suit}"),
            "ranks": {
                "2": _("two"), "3": _("three"), "4": _("four"), "5": _("five"),
                "6": _("six"), "7": _("seven"), "8": _("eight"), "9": _("nine"),
                "T": _("ten"), "J": _("jack"), "Q": _("queen"), "K": _("king"), "A": _("ace"),
            },
            "suits": {"C": _("clubs"), "D": _("diamonds"), "H": _("hearts"), "S": _("spades")},
            **_social_strings(locale, variant),
            **_table_strings(locale),
            **slap_strings(lambda pick: _plural(pick, locale)),  # the slap games' table
            "errors": {
                "not_creator": _("Only the player who created the game can start it."),
                "not_seated": _("You are not seated at this table."),
                "not_playing": _("The game is not being played right now."),
                "out": _("You are out of this game."),
                "not_your_turn": _("It is not your turn: wait for the other player's card."),
                "bad_message": _("The server did not understand that."),
                "not_lobby": _("The game has already started."),
                "rate_limited": _("Slow down a little: too many moves at once."),
                "not_gone": _("That player is not away."),
                "not_out": _("Only a player who is out can skip to the result, and only "
                             "while nobody in play flips by hand."),
                "not_alone": _("The game can be finished at once only when no other "
                               "player is at the table."),
                "not_over": _("The game is not over yet."),
                "seat_taken": _("That seat is already taken."),
                "no_seat": _("Every seat is taken."),
                "already_seated": _("You already have a seat at this table."),
                "no_game": _("This game does not exist."),
                "too_many_reactions": _("Not so fast: wait a moment before reacting again."),
                "unavailable": _("The server could not save that just now. Please try again."),
            },
        }
    finally:
        i18n.current_locale.reset(token)


def reaction_words(variant: str = PEACE.name) -> dict[str, str]:
    """Each reaction's words in the current locale: what a phrase says, or
    what an emoji means (its label for screen readers). Keys:
    :data:`~cardwar.tables.events.REACTIONS`."""
    _ = i18n.gettext
    words = {
        "clap": _("Applause"),
        "wow": _("Wow"),
        "laugh": _("That is funny"),
        "sad": _("Oh no"),
        "dove": _("A dove of peace"),
        "gg": _("Good game"),
        # TRANSLATORS: a reaction a player sends to the table when a tie starts a
        # peace (or a war); in Beggar-my-neighbour, when a court card demands payment
        "tie": (_("Peace!") if page_of(variant).tie_word
                else _("Pay up!") if in_turns(variant) else _("War!")),
        "again": _("One more?"),
    }
    return words


def _table_strings(locale: str) -> dict[str, Any]:
    """Numbers, seating, pace, idle and leaving (see :func:`client_strings`)."""
    _ = i18n.gettext
    return {
        "number": i18n.number_words(locale),
        "seating_lobby": _("When the game starts, who sits where is drawn by lot: the seats do "
                           "not win equally often, so nobody chooses one."),
        # TRANSLATORS: {names} lists the players in the order of their seats at the table
        "seating_note": _("Seats drawn by lot: {names}."),
        "pace": _("Pace of automatic flips"),
        # TRANSLATORS: a pace of play (automatic flips)
        "paces": {"slow": _("slow"), "normal": _("normal"), "fast": _("fast")},
        "skip": _("Skip to the result"),
        # TRANSLATORS: a button: play the rest of a game against the computer at once
        "finish": _("Finish the game"),
        # TRANSLATORS: after "Every seat is taken." to a visitor of a full lobby
        "watch_soon": _("You can watch the game here once it starts."),
        "skipping": _("Skipping to the result…"),
        "away_you": _("You did not flip for several battles: the computer plays for you. "
                      "Flip to take your seat back."),
        "leave": _("Leave the table"),
        "leave_confirm": _("Leave this game? The computer plays your seat to the end, and "
                           "you cannot take it back."),
        # TRANSLATORS: asked before leaving a table whose game has not started yet:
        # nothing is played, the seat is simply free again
        "leave_confirm_lobby": _("Leave this table? The game has not started: your seat "
                                 "becomes free for another player."),
        # TRANSLATORS: a tag by a seat whose player left; the computer plays it
        "left": _("left the table"),
        "left_said": _("{name} left the table: the computer plays for them."),
        # TRANSLATORS: said when a player leaves a table whose game has not started yet
        "left_said_lobby": _("{name} left the table."),
    }


def _social_strings(locale: str, variant: str) -> dict[str, Any]:
    """The words of reactions and of sharing the result (see :func:`client_strings`)."""
    _ = i18n.gettext
    ngettext = i18n.ngettext
    words = reaction_words(variant)
    return {
        "reactions": {key: {"emoji": REACTION_EMOJI.get(key, ""), "text": words[key]}
                      for key in REACTIONS},
        "react": _("React"),
        "spectators_react": _("Spectators:"),
        # TRANSLATORS: read out to screen readers: who reacted, and how
        "reaction_from": _("{name}: {reaction}"),
        "a_spectator": _("A spectator"),
        "game_name": _(page_of(variant).title),
        "share_result": _("Share the result"),
        **(_share_in_cards(locale) if in_turns(variant) else {
            "share_won_me": _plural(lambda n: ngettext(
                "I won a game of {game} on cardwar in {count} battle!",
                "I won a game of {game} on cardwar in {count} battles!", n), locale),
            "share_won": _plural(lambda n: ngettext(
                "{name} won a game of {game} on cardwar in {count} battle.",
                "{name} won a game of {game} on cardwar in {count} battles.", n), locale),
            "share_draw": _plural(lambda n: ngettext(
                "A game of {game} on cardwar ended in a draw after {count} battle.",
                "A game of {game} on cardwar ended in a draw after {count} battles.", n), locale),
        }),
        "share_replay": _("Watch the replay:"),
        "share_copied": _("Copied: paste it wherever you like."),
    }


def _share_in_cards(locale: str) -> dict[str, Any]:
    """The shared result of a game in turns: its length in cards put down."""
    ngettext = i18n.ngettext
    return {
        "share_won_me": _plural(lambda n: ngettext(
            "I won a game of {game} on cardwar after {count} card!",
            "I won a game of {game} on cardwar after {count} cards!", n), locale),
        "share_won": _plural(lambda n: ngettext(
            "{name} won a game of {game} on cardwar after {count} card.",
            "{name} won a game of {game} on cardwar after {count} cards.", n), locale),
        "share_draw": _plural(lambda n: ngettext(
            "A game of {game} on cardwar was endless: a draw after {count} card.",
            "A game of {game} on cardwar was endless: a draw after {count} cards.", n), locale),
    }


def listing_strings(locale: str) -> dict[str, Any]:
    """Every string the open tables page's script shows, in ``locale``
    (placeholders in braces, plurals by CLDR category as in :func:`client_strings`)."""
    token = i18n.current_locale.set(locale)
    try:
        _ = i18n.gettext
        ngettext = i18n.ngettext
        return {
            "variants": {name: _(page_of(name).title) for name in VARIANTS},
            "languages": dict(i18n.LANGUAGE_NAMES),
            "count": _plural(lambda n: ngettext(
                "{count} open table", "{count} open tables", n), locale),
            "none": _("No open table right now."),
            # TRANSLATORS: how full an open table is, e.g. "1 of 2 players"
            "players": _plural(lambda n: ngettext(
                "{seated} of {count} player", "{seated} of {count} players", n), locale),
            "free": _plural(lambda n: ngettext(
                "{count} free seat", "{count} free seats", n), locale),
            "new": _("just opened"),
            "waiting": _plural(lambda n: ngettext(
                "waiting for {count} minute", "waiting for {count} minutes", n), locale),
            "join": _("Join"),
            # TRANSLATORS: the join button's full name for screen readers, e.g.
            # "Join this game of Peace (Italiano)"
            "join_label": _("Join this game of {game} ({language})"),
            "connecting": _("Connecting…"),
            "reconnecting": _("The connection was lost. Reconnecting…"),
            "number": i18n.number_words(locale),
        }
    finally:
        i18n.current_locale.reset(token)

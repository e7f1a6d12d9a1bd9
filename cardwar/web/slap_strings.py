"""The words of the slap games' table (Egyptian Ratscrew, Slapjack: RULES.md 11) on
the game page and the replay: who took the pile and why, wrong and late slaps, the
table's options, the keys. Part of :func:`cardwar.web.strings.client_strings`
(the ``play`` domain); the scripts fill the placeholders in braces
(``cardwar/web/static/play/slap.js``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from . import i18n

__all__ = ["slap_strings"]


def slap_strings(plural: Callable[[Callable[[int], str]], dict[str, str]]) -> dict[str, Any]:
    """The slap games' strings in the current locale (:data:`cardwar.web.i18n.current_locale`).

    Args:
        plural: makes the CLDR plural forms of an ``ngettext`` call (see
            ``cardwar.web.strings._plural``), bound to the locale.

    Returns:
        Keys as ``Strings`` in ``static/play/words.js`` documents them (``slap_*``,
        ``pattern_names``, ``rules_*``, ``put_down``, ``replay_card``).
    """
    _ = i18n.gettext
    ngettext = i18n.ngettext
    pgettext = i18n.pgettext
    return {
        # TRANSLATORS: a slappable pattern as it fits into "{name} slapped {pattern}
        # first" (with its article and case)
        "slap_pattern": {
            "double": pgettext("slapped", "the double"),
            "sandwich": pgettext("slapped", "the sandwich"),
            "marriage": pgettext("slapped", "the marriage"),
            "top_bottom": pgettext("slapped", "the top and bottom"),
            "jack": pgettext("slapped", "the jack"),
        },
        # TRANSLATORS: who took the pile by slapping it and how fast they reacted;
        # {pattern} is one of the phrases above, {ms} a number of milliseconds
        "slap_won": _("{name} slapped {pattern} first: {ms} ms."),
        "slap_won_plain": _("{name} slapped {pattern} first."),
        "slap_won_you": _("You slapped {pattern} first: {ms} ms."),
        # TRANSLATORS: {others} lists the slower players as "Bea (340 ms)"
        "slap_won_you_against": _("You slapped {pattern} first: {ms} ms against {others}."),
        "slap_won_against": _("{name} slapped {pattern} first: {ms} ms against {others}."),
        "slap_won_against_you": _(
            "{name} slapped {pattern} first: {ms} ms against your {yours} ms."),
        # TRANSLATORS: one slower player in {others}: a name and a reaction in ms
        "slap_other": _("{name} ({ms} ms)"),
        "slap_wrong_burn": plural(lambda n: ngettext(
            "Wrong slap by {name}: {count} card burned under the pile.",
            "Wrong slap by {name}: {count} cards burned under the pile.", n)),
        "slap_wrong_give": plural(lambda n: ngettext(
            "Wrong slap by {name}: {count} card goes to {other}.",
            "Wrong slap by {name}: {count} cards go to {other}.", n)),
        # TRANSLATORS: the same, said to the player who slapped wrong, then to the one
        # who gets the card
        "slap_wrong_burn_you": plural(lambda n: ngettext(
            "Your wrong slap: {count} card burned under the pile.",
            "Your wrong slap: {count} cards burned under the pile.", n)),
        "slap_wrong_give_you": plural(lambda n: ngettext(
            "Your wrong slap: {count} card goes to {other}.",
            "Your wrong slap: {count} cards go to {other}.", n)),
        # TRANSLATORS: Slapjack: a wrong slap on a card the slapper put down: the
        # card given goes from the top of their own pile to its bottom
        "slap_wrong_own": plural(lambda n: ngettext(
            "Wrong slap by {name} on their own card: {count} card goes to the bottom "
            "of their pile.",
            "Wrong slap by {name} on their own card: {count} cards go to the bottom "
            "of their pile.", n)),
        "slap_wrong_own_you": plural(lambda n: ngettext(
            "Your wrong slap on your own card: {count} card goes to the bottom of your pile.",
            "Your wrong slap on your own card: {count} cards go to the bottom of your pile.",
            n)),
        "slap_wrong_give_to_you": plural(lambda n: ngettext(
            "Wrong slap by {name}: {count} card goes to you.",
            "Wrong slap by {name}: {count} cards go to you.", n)),
        "slap_wrong_empty": _("Wrong slap by {name}, who had no cards left."),
        "slap_late": _("{name} slapped too late: the pile was gone. No penalty."),
        "slap_late_you": _("Too late: the pile was already taken. No penalty."),
        "slap_empty_you": _("Nothing to slap yet: no penalty."),
        "slap_no_slap_in_you": _("Slapping in is off at this table: with no cards you "
                                 "cannot slap."),
        "slap_out_you": _("You are out of this game: your slap does not count."),
        # TRANSLATORS: the patterns a table slaps, listed in its options
        "pattern_names": {
            "double": _("double"), "sandwich": _("sandwich"),
            "marriage": _("marriage (a king and a queen)"),
            "top_bottom": _("top and bottom"), "jack": _("a jack on top"),
        },
        # TRANSLATORS: the table's options; {patterns} lists the names above
        "rules_patterns": _("Slap: {patterns}."),
        "rules_burn": plural(lambda n: ngettext(
            "A wrong slap burns {count} card.", "A wrong slap burns {count} cards.", n)),
        "rules_give": _("A wrong slap gives a card to the player of the top card."),
        "rules_slap_in": _("Slapping in: a player with no cards may still slap."),
        "rules_no_slap_in": _("No slapping in: a player with no cards is out."),
        # TRANSLATORS: the word on the pile in the middle: tap it to slap
        "slap": _("Slap!"),
        "slap_label": _("The pile in the middle: slap it (key S)"),
        # TRANSLATORS: the word on our own pile in a slap game (key Space)
        "put_down": _("Put down"),
        # TRANSLATORS: a tag by the seat whose turn it is to put down a card
        "to_put_down": _("to play"),
        # TRANSLATORS: the name of the space bar, as printed on keyboards
        "key_space": pgettext("key", "Space"),
        "slap_help": _("Space, or a tap on your pile, puts down your card when it is your "
                       "turn. S, or a tap on the pile in the middle, slaps, at any moment, "
                       "even with no cards left. A slap is judged by your reaction time, "
                       "your connection's delay taken into account."),
        "slap_length": _("Cards put down: {cards}. Tricks: {tricks}. Slaps won: {slaps}. "
                         "Cards burned: {burned}."),
        # TRANSLATORS: the end screen's placings: a player out of a slap game
        "out_after_card": _("{name} went out after card {n}."),
        # TRANSLATORS: a step of a slap game's replay
        "replay_card": _("Card {n} of {total}"),
        "slap_table_pile": _("The pile"),
    }

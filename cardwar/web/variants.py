"""How each variant is presented: its name, tagline, route, rules page and tie word.

The rules of a variant are a row of :data:`cardwar.engine.VARIANTS`; this
module adds the words and pages of the same variant, keyed by its name. The
engine's list drives everything: every variant in it has a page here
(:func:`page_of` gives a plain one to a variant without a row), so the
navigation, the home page, the routes, the game and replay pages, the
command line and the metrics all follow that one list.

The strings here are msgids (``messages`` catalogs), translated where shown.
"""

from __future__ import annotations

from dataclasses import dataclass

from cardwar.engine import VARIANTS, Variant


def N_(message: str) -> str:
    """Mark ``message`` for extraction; it is translated where it is shown."""
    return message


@dataclass(frozen=True)
class VariantPage:
    """The presentation of one variant (see the module docstring).

    Attributes:
        name: the engine variant's name (:attr:`cardwar.engine.Variant.name`).
        title: msgid of its name, e.g. ``"Peace"``.
        tagline: msgid of one sentence that says what is special about it.
        template: the rules page's template (``variant.html``: the plain one).
        slug: the page's path segment (``/{locale}/{slug}``).
        tie_word: msgid of the word the face-down cards of a tie spell, one
            letter each (the engine's ``tie_word`` in the reader's language),
            or None.
        unresolvable: msgid of the end of a game whose tie nobody could break.
        cycle: msgid of the end of a game that would repeat itself forever.
    """

    name: str
    title: str
    tagline: str = ""
    template: str = "variant.html"
    slug: str = ""
    tie_word: str | None = None
    unresolvable: str = N_("A war nobody could decide: no cards were left to turn.")
    cycle: str = N_("This War would repeat itself forever.")

    @property
    def path(self) -> str:
        """The path segment of the rules page."""
        return self.slug or self.name


PAGES: dict[str, VariantPage] = {p.name: p for p in (
    VariantPage(
        name="peace",
        title=N_("Peace"),
        tagline=N_(
            "War turned upside down: the lowest card takes every battle, so 2s are the "
            "best cards and aces the worst, and a tie starts a peace with five face-down "
            "cards."
        ),
        template="variants/peace.html",
        # TRANSLATORS: the letters on the five face-down cards of a peace;
        # exactly five letters (Polish: POKÓJ). Keep PEACE if your word is shorter.
        tie_word=N_("PEACE"),
        unresolvable=N_("A peace nobody could decide: no cards were left to turn."),
    ),
    VariantPage(
        name="war",
        title=N_("War"),
        tagline=N_(
            "The classic card game for two to four players: the highest card takes every "
            "battle, and a tie starts a war with three face-down cards."
        ),
        template="variants/war.html",
    ),
    VariantPage(
        name="beggar",
        # TRANSLATORS: the game's name; use your language's traditional name for this
        # very game if it has one (the rules page says which name it is)
        title=N_("Beggar-my-neighbour"),
        tagline=N_(
            "War's famous sibling for two players, played in turns: a court card makes "
            "the other player pay up to four cards, and nobody has ever proved how long "
            "a game can last."
        ),
        template="variants/beggar.html",
        slug="beggar-my-neighbour",
        cycle=N_("This game would repeat itself forever: the same tricks come round again "
                 "and again."),
    ),
    VariantPage(
        name="ers",
        # TRANSLATORS: the game's name; use your language's traditional name for this
        # very game if it has one (French: Bataille corse), else keep the English name
        title=N_("Egyptian Ratscrew"),
        tagline=N_(
            "Beggar-my-neighbour with slaps, for two to four players: pay for the court "
            "cards in turn, and be the first to slap a double or a sandwich to take the "
            "whole pile."
        ),
        template="variants/slap.html",
        slug="egyptian-ratscrew",
    ),
    VariantPage(
        name="slapjack",
        # TRANSLATORS: the game's name; use your language's traditional name for this
        # very game if it has one, else keep the English name
        title=N_("Slapjack"),
        tagline=N_(
            "The simplest game of speed, for two to four players: put your cards down in "
            "turn, and be the first to slap each jack to take the whole pile."
        ),
        template="variants/slap.html",
    ),
)}


def page_of(variant: Variant | str) -> VariantPage:
    """The presentation of ``variant`` (a plain page, titled with its name, for a
    variant that has no row in :data:`PAGES`)."""
    name = variant if isinstance(variant, str) else variant.name
    return PAGES.get(name) or VariantPage(name=name, title=name.capitalize())


def pages() -> list[tuple[Variant, VariantPage]]:
    """Every variant of the engine's list with its presentation, in that order."""
    return [(v, page_of(v)) for v in VARIANTS.values()]


def by_path(path: str) -> Variant | None:
    """The variant whose rules page is ``/{locale}/{path}``, or None."""
    for v, page in pages():
        if page.path == path:
            return v
    return None

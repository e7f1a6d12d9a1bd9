"""Variants as data (RULES.md section 2).

A variant is a row of parameters; adding a variant means adding a
:class:`Variant` to :data:`VARIANTS` (:func:`register`), not a code path.
Its :attr:`Variant.play` names its kind of play: ``"battles"`` (RULES.md
sections 4-7: War, Peace), ``"turns"`` (Beggar-my-neighbour, RULES.md 10)
or ``"slaps"`` (Egyptian Ratscrew and Slapjack, RULES.md 11); its
:attr:`Variant.online` says whether tables can be created for it yet.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

#: The kinds of play a variant can name.
Play = Literal["battles", "turns", "slaps"]


class OptionError(ValueError):
    """An option the variant does not allow (players, face-down count)."""


@dataclass(frozen=True, slots=True)
class Variant:
    """The parameters of one game of the War family (RULES.md section 2).

    Attributes:
        name: the identifier, ``"peace"``, ``"war"`` or ``"beggar"``.
        low_wins: True when the lowest rank wins a battle (Peace).
        face_down: face-down cards laid before the deciding card in a tie
            (0 for a variant without ties).
        face_down_options: every face-down count the variant allows (none:
            no ties, ``--face-down`` is refused).
        battle_limit: battles after which the game is a draw, or None.
        players: the allowed player counts.
        default_players: the number of players when none is given.
        cycle_draw: True when a repeated position ends the game (section 7).
        tie_word: the letters the face-down cards stand for, if any.
        play: the kind of play: ``"battles"`` (every player turns a card at
            once, RULES.md 4-7), ``"turns"`` (one player after the other,
            RULES.md 10) or ``"slaps"`` (turns, and anyone may slap the pile,
            RULES.md 11).
        online: True when the site can seat a table for it (the start form
            and game creation offer only these); False for a variant played
            by the command line and the simulator only, so far.
    """

    name: str
    low_wins: bool
    face_down: int
    face_down_options: tuple[int, ...]
    battle_limit: int | None
    players: tuple[int, ...]
    default_players: int
    cycle_draw: bool
    tie_word: str | None = None
    play: Play = "battles"
    online: bool = True

    def check(self, players: int, face_down: int | None = None) -> int:
        """Validate options and return the face-down count to use.

        Raises:
            OptionError: ``players`` or ``face_down`` is not allowed here (any
                ``face_down`` for a variant without ties).
        """
        if players not in self.players:
            names = [str(n) for n in self.players]
            allowed = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]
            raise OptionError(f"{self.name} is played by {allowed} players, not {players}")
        if face_down is None or face_down == self.face_down:  # a rematch repeats it
            return self.face_down
        if not self.face_down_options:
            raise OptionError(f"{self.name} has no ties: it lays no face-down cards")
        if face_down not in self.face_down_options:
            allowed = " or ".join(map(str, self.face_down_options))
            raise OptionError(
                f"{self.name} lays {allowed} face-down cards in a tie, not {face_down}"
            )
        return face_down


WAR = Variant(
    name="war",
    low_wins=False,
    face_down=3,
    face_down_options=(3, 1),
    battle_limit=None,
    players=(2, 3, 4),
    default_players=2,
    cycle_draw=True,
)

PEACE = Variant(
    name="peace",
    low_wins=True,
    face_down=5,
    face_down_options=(5,),
    battle_limit=1000,
    players=(2, 3, 4),
    default_players=2,
    cycle_draw=False,
    tie_word="PEACE",
)

#: Beggar-my-neighbour (RULES.md 10): two players in turns, court cards to pay
#: for, no battles and no ties; a repeated position after a trick is endless (10.8).
BEGGAR = Variant(
    name="beggar",
    low_wins=False,
    face_down=0,
    face_down_options=(),
    battle_limit=None,
    players=(2,),
    default_players=2,
    cycle_draw=True,
    play="turns",
)

#: Egyptian Ratscrew (RULES.md 11): Beggar-my-neighbour's paying round the table
#: of 2-4, and slaps; its options (patterns, burn, slapping in) are
#: :class:`cardwar.engine.slap.SlapRules`. Online, slaps are judged by reaction
#: (RULES.md 11.6, :mod:`cardwar.tables.slap_judge`).
ERS = Variant(
    name="ers",
    low_wins=False,
    face_down=0,
    face_down_options=(),
    battle_limit=None,
    players=(2, 3, 4),
    default_players=2,
    cycle_draw=False,
    play="slaps",
    online=True,
)

#: Slapjack (RULES.md 11): no paying, slap every jack.
SLAPJACK = Variant(
    name="slapjack",
    low_wins=False,
    face_down=0,
    face_down_options=(),
    battle_limit=None,
    players=(2, 3, 4),
    default_players=2,
    cycle_draw=False,
    play="slaps",
    online=True,
)

#: Every variant by name, in the order pages list them; the standard game
#: (War) is the reference for rule changes.
VARIANTS: dict[str, Variant] = {v.name: v for v in (PEACE, WAR, BEGGAR, ERS, SLAPJACK)}
STANDARD = WAR


def register(variant: Variant) -> Variant:
    """Add ``variant`` to :data:`VARIANTS` (the command line, the pages and the
    online games offer it from then on); return it.

    Raises:
        ValueError: a different variant of that name is registered already.
    """
    known = VARIANTS.get(variant.name)
    if known is not None and known != variant:
        raise ValueError(f"another variant is called {variant.name!r}")
    VARIANTS[variant.name] = variant
    return variant


def unregister(name: str) -> None:
    """Remove the variant ``name`` from :data:`VARIANTS` (tests; never the standard game).

    Raises:
        ValueError: ``name`` is the standard game's.
    """
    if name == STANDARD.name:
        raise ValueError("the standard game cannot be removed")
    VARIANTS.pop(name, None)


def get_variant(name: str) -> Variant:
    """Return the variant called ``name``.

    Raises:
        OptionError: no such variant.
    """
    try:
        return VARIANTS[name]
    except KeyError:
        raise OptionError(f"unknown variant {name!r}") from None

"""Computer players of the slap games, drawn from the seed (RULES.md 11.8).

A computer watches every pile. When a card is put down, each computer seat
that may slap (:meth:`~.game.SlapGame.may_slap`), in table-seat order, draws
from the game's seed, whose words go on after the deal and the seating
(RULES.md 9; :func:`cardwar.engine.shuffle.words_after_seating`):

* on a **slappable** pile: a reaction time, and it slaps;
* on any other pile: ``u = uniform(1000)``; if ``u`` is below its skill's
  wrong-slap rate (per thousand piles) it slaps wrongly, after a reaction
  time drawn the same way; else it does nothing.

A reaction time, in milliseconds, is ``base + uniform(spread)`` three times
over (``base + a + b + c``: a bell-shaped spread, as human reaction times
have), then ``uniform(100)``: below the skill's lapse percentage the computer
was distracted and ``uniform(lapse)`` more milliseconds are added (the long
tail of real reaction times). No floating point anywhere, so any language
can check a game. The skills (:data:`REFLEXES`):

=========  ====  ======  ========  =====  ============  ==============
skill      base  spread  range     mean   lapse         wrong slaps
=========  ====  ======  ========  =====  ============  ==============
sharp      210   61      210-390   300    5%, +0-499    4 in 1,000
normal     335   111     335-665   500    7%, +0-599    10 in 1,000
relaxed    510   161     510-990   750    10%, +0-699   20 in 1,000
=========  ====  ======  ========  =====  ============  ==============

(The middle 95% of a sharp computer's reactions fall within about 250-350
ms, a normal one's within 400-600, a relaxed one's within 600-900, before
lapses; "wrong slaps" is per thousand piles that are not slappable.)

:func:`decide` orders the slaps of one pile as the server does (11.6): the
smallest reaction first; equal to the millisecond, the first seat round the
table after the player of the top card.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

from ..shuffle import Words
from .game import SlapGame


class Skill(StrEnum):
    """How quick and how careful a computer player is (RULES.md 11.8)."""

    RELAXED = "relaxed"
    NORMAL = "normal"
    SHARP = "sharp"


@dataclass(frozen=True, slots=True)
class Reflexes:
    """One skill's reaction times and wrong slaps (the module docstring's table).

    Attributes:
        base: the quickest reaction, in ms.
        spread: each of the three added draws is ``0..spread-1`` ms.
        lapse_percent: the chance, in percent, of a distracted moment.
        lapse: a distracted moment adds ``0..lapse-1`` ms.
        wrong_permille: wrong slaps per thousand piles that are not slappable.
    """

    base: int
    spread: int
    lapse_percent: int
    lapse: int
    wrong_permille: int

    def reaction(self, words: Words) -> int:
        """Draw one reaction time, in ms (4 or 5 draws from ``words``)."""
        ms = self.base + sum(words.uniform(self.spread) for _ in range(3))
        if words.uniform(100) < self.lapse_percent:
            ms += words.uniform(self.lapse)
        return ms


#: Every skill's reflexes (RULES.md 11.8: at least relaxed, normal and sharp).
REFLEXES: dict[Skill, Reflexes] = {
    Skill.SHARP: Reflexes(base=210, spread=61, lapse_percent=5, lapse=500, wrong_permille=4),
    Skill.NORMAL: Reflexes(base=335, spread=111, lapse_percent=7, lapse=600, wrong_permille=10),
    Skill.RELAXED: Reflexes(base=510, spread=161, lapse_percent=10, lapse=700,
                            wrong_permille=20),
}


@dataclass(frozen=True, slots=True)
class Intent:
    """A computer's slap on one pile, before the table judges it.

    Attributes:
        seat: the computer's table seat.
        pile: the pile it reacts to (cards put down when it saw it).
        reaction: its reaction time, in ms, from the moment the card was shown.
    """

    seat: int
    pile: int
    reaction: int


class Computers:
    """The computer seats of one game, drawing from the game's seed (11.8).

    Args:
        words: the seed's words after the seating
            (:func:`~cardwar.engine.shuffle.words_after_seating`).
        skills: table seat -> skill, for every computer seat (the others are
            people, whose slaps come from the table).
    """

    def __init__(self, words: Words, skills: Mapping[int, Skill]) -> None:
        self.words = words
        self.skills = dict(sorted(skills.items()))

    def react(self, game: SlapGame) -> list[Intent]:
        """Draw every computer's slap on the pile as it is now, just put down (11.8).

        Call it once per card put down, in the order of the game; it returns the
        slaps in table-seat order (order them with :func:`decide`).
        """
        pile = game.cards_played
        slappable = game.pattern() is not None
        intents = []
        for seat, skill in self.skills.items():
            if not game.may_slap(seat):
                continue
            reflexes = REFLEXES[skill]
            if slappable or self.words.uniform(1000) < reflexes.wrong_permille:
                intents.append(Intent(seat, pile, reflexes.reaction(self.words)))
        return intents


def decide(intents: Sequence[Intent], putter: int, players: int) -> list[Intent]:
    """The slaps of one pile in the order the table decides them (RULES.md 11.6).

    The smallest reaction first; equal to the millisecond, the first seat round
    the table after ``putter`` (the seat that put down the top card).
    """
    return sorted(intents, key=lambda i: (i.reaction, (i.seat - putter - 1) % players))


def parse_skills(text: str, players: int) -> list[Skill]:
    """Parse ``--skill``: one skill for every seat, or one per lobby position,
    comma-separated (``"sharp"``, ``"sharp,normal,normal"``).

    Raises:
        ValueError: an unknown skill, or a list that is not ``players`` long.
    """
    names = [t.strip().lower() for t in text.split(",")]
    known = ", ".join(s.value for s in Skill)
    for name in names:
        if name not in {s.value for s in Skill}:
            raise ValueError(f"unknown skill {name!r}: the skills are {known}")
    if len(names) == 1:
        names *= players
    if len(names) != players:
        raise ValueError(f"--skill lists {len(names)} skills for {players} players")
    return [Skill(n) for n in names]

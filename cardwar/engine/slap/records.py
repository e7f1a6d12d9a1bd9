"""Slap games' deals, decided slaps, whole games and their records (RULES.md 11).

* :class:`SlapSetup`: the deal (from a seed, RULES.md 9 and 3; a deck; or
  hands) with the table's :class:`~.rules.SlapRules`.
* :func:`parse_slaps` reads ``--slaps "STEP:SEAT,…"`` (RULES.md 11.9) into
  :class:`DecidedSlap` s; :func:`play_decided` plays a deal with them;
  :func:`play_computers` lets the computers play every seat (11.8).
* :func:`slap_json` is the ``cardwar play --variant ers|slapjack --json``
  object: ``variant``, ``players``, ``seed``, ``options``, ``outcome``,
  ``winner``, ``reason``, ``cards_played``, ``tricks``, ``slaps``,
  ``burned``, ``final_counts``, ``out`` (seat -> cards put down when it went
  out), ``seating``, ``skills`` (table seat -> skill, or null when the slaps
  were given) and ``decided_slaps`` (the slaps that counted, as ``--slaps``
  takes them: the same command with them plays the same game); with ``log``,
  ``log``: every event (:func:`event_json`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, fields
from enum import Enum
from typing import Any

from ..cards import Card, card_text, deal
from ..shuffle import seating, shuffled_deck, words_after_seating
from .computers import Computers, Skill, decide
from .events import Event, SlapError, Step
from .game import SlapGame
from .rules import SlapRules

_SLAP = re.compile(r"(\d+):(\d+)(?:@(\d+))?")


@dataclass(frozen=True, slots=True)
class DecidedSlap:
    """One slap of ``--slaps``, in the order decided (RULES.md 11.9).

    Attributes:
        pile: STEP, the pile the slap names: cards put down when the seat slapped.
        seat: the table seat.
        at: cards put down when the table decided it (``STEP:SEAT@AT``; the
            same as ``pile`` when written ``STEP:SEAT``). It is applied then,
            before that card's slap window closes.
    """

    pile: int
    seat: int
    at: int

    def text(self) -> str:
        """``STEP:SEAT``, or ``STEP:SEAT@AT`` when decided after a later card."""
        return f"{self.pile}:{self.seat}" + (f"@{self.at}" if self.at != self.pile else "")


def parse_slaps(text: str, players: int) -> list[DecidedSlap]:
    """Parse ``"3:1,4:0,8:0"`` (an empty text: no slaps), RULES.md 11.9.

    Raises:
        ValueError: a slap not written ``STEP:SEAT`` or ``STEP:SEAT@AT``
            (``AT`` not before ``STEP``), or a seat not at the table.
    """
    out = []
    for token in (t.strip() for t in text.split(",")):
        if not token and text.strip() == "":
            continue
        match = _SLAP.fullmatch(token)
        if match is None:
            raise ValueError(f"bad slap {token!r}: write STEP:SEAT, e.g. 3:1")
        pile, seat = int(match[1]), int(match[2])
        at = pile if match[3] is None else int(match[3])
        if seat >= players:
            raise ValueError(f"slap {token!r}: there is no seat {seat} with {players} players")
        if at < pile:
            raise ValueError(f"slap {token!r}: decided before the card it names")
        out.append(DecidedSlap(pile, seat, at))
    return out


def slaps_text(slaps: Iterable[DecidedSlap]) -> str:
    """The ``--slaps`` text of ``slaps``: ``"3:1,4:0"``."""
    return ",".join(s.text() for s in slaps)


@dataclass(frozen=True, slots=True)
class SlapSetup:
    """Everything that fixes a slap game but the slaps: rules, piles and seed.

    Attributes:
        rules: the table's options.
        piles: each table seat's pile after the deal, top card first.
        seed: the shuffle seed, or None when the deck or hands were given.
    """

    rules: SlapRules
    piles: tuple[tuple[Card, ...], ...]
    seed: str | None = None

    @classmethod
    def from_seed(cls, rules: SlapRules, players: int, seed: str) -> SlapSetup:
        """Shuffle by ``seed`` (RULES.md 9) and deal (RULES.md 3: 51 cards with three)."""
        return cls.from_deck(rules, players, shuffled_deck(seed), seed=seed)

    @classmethod
    def from_deck(cls, rules: SlapRules, players: int, deck: Sequence[Card], *,
                  seed: str | None = None) -> SlapSetup:
        """Deal ``deck`` (top card first) to ``players`` (RULES.md 3).

        Raises:
            OptionError: not 2, 3 or 4 players.
            ValueError: fewer cards than players, or a card twice.
        """
        setup = cls(rules, tuple(tuple(p) for p in deal(deck, players)), seed)
        setup.new_game()  # validates
        return setup

    @classmethod
    def from_hands(cls, rules: SlapRules, hands: Sequence[Sequence[Card]]) -> SlapSetup:
        """Use ``hands`` as the piles, top card first (any sizes).

        Raises:
            OptionError: not 2, 3 or 4 hands.
            ValueError: a card twice, or an empty hand.
        """
        setup = cls(rules, tuple(tuple(h) for h in hands), None)
        setup.new_game()  # validates
        return setup

    @property
    def players(self) -> int:
        """The number of seats."""
        return len(self.piles)

    @property
    def seating(self) -> list[int]:
        """Table seat -> lobby position (RULES.md 9, Seating); the identity without a seed."""
        return seating(self.seed, self.players)

    def new_game(self) -> SlapGame:
        """A fresh :class:`~.game.SlapGame` of this deal."""
        return SlapGame(self.piles, self.rules)

    def computers(self, skills: Sequence[Skill]) -> Computers:
        """Computers in every seat; ``skills`` by lobby position, placed by the seating.

        Raises:
            ValueError: no seed (the computers draw from it, 11.8), or not one
                skill per player.
        """
        if self.seed is None:
            raise ValueError("the computers draw from the seed: give --seed")
        if len(skills) != self.players:
            raise ValueError(f"{len(skills)} skills for {self.players} players")
        by_seat = {seat: skills[lobby] for seat, lobby in enumerate(self.seating)}
        return Computers(words_after_seating(self.seed, self.players), by_seat)


def _advance(game: SlapGame, to: int, on_step: Callable[[Step], None]) -> None:
    """Play until ``to`` cards are down (a waiting pile is taken before the next card)."""
    while not game.over and game.cards_played < to:
        on_step(game.close() if game.window is not None else game.put_down())


def play_decided(setup: SlapSetup, slaps: Sequence[DecidedSlap],
                 on_step: Callable[[Step], None] = lambda step: None) -> SlapGame:
    """Play ``setup`` to the end with the slaps the table decided, in that order (11.9).

    Each slap is applied once ``at`` cards are down, before that card's slap
    window closes; with no slap left, the game plays to its end.

    Raises:
        SlapError: a slap decided after the game's last card.
    """
    game = setup.new_game()
    for slap in slaps:
        _advance(game, slap.at, on_step)
        if game.cards_played < slap.at:
            raise SlapError(f"slap {slap.text()}: the game ended after "
                            f"{game.cards_played} cards")
        on_step(game.slap(slap.seat, slap.pile))
    _advance(game, game.rules.card_limit + 1, on_step)
    return game


def play_computers(setup: SlapSetup, skills: Sequence[Skill],
                   on_step: Callable[[Step], None] = lambda step: None
                   ) -> tuple[SlapGame, list[DecidedSlap]]:
    """Let computers play every seat from the seed (11.8); return the game and the
    slaps that counted (:func:`play_decided` with them plays the same game).

    Nothing is timed: every pile stays on the table until each computer has
    reacted to it, and :func:`~.computers.decide` orders the slaps.

    Raises:
        ValueError: as :meth:`SlapSetup.computers`.
    """
    computers = setup.computers(skills)
    game = setup.new_game()
    decided: list[DecidedSlap] = []
    while not game.over:
        if game.window is not None:
            on_step(game.close())
            continue
        step = game.put_down()
        on_step(step)
        if game.over:
            break
        putter = game.laid_by[-1]
        for intent in decide(computers.react(game), putter, game.players):
            judged = game.slap(intent.seat, intent.pile)
            on_step(judged)
            if judged.verdict is not None and judged.verdict.counts:
                decided.append(DecidedSlap(intent.pile, intent.seat, game.cards_played))
    return game, decided


_CARD_FIELDS = frozenset({"card", "paid_for", "owed_for"})


def event_json(event: Event) -> dict[str, Any]:
    """One event as a JSON-ready dict: ``{"event": KIND, ...its fields}``, cards as text.

    KIND is ``card`` (:class:`~.events.CardDown`), ``window``, ``slap``,
    ``burned``, ``taken``, ``out`` or ``end``.
    """
    out: dict[str, Any] = {"event": _KINDS[type(event).__name__]}
    for f in fields(event):
        value = getattr(event, f.name)
        if f.name in _CARD_FIELDS and value is not None:
            value = card_text(value)
        elif f.name == "cards":
            value = [card_text(c) for c in value]
        elif isinstance(value, Enum):
            value = value.value
        out[f.name] = value
    return out


_KINDS = {"CardDown": "card", "WindowOpened": "window", "SlapJudged": "slap",
          "CardsBurned": "burned", "PileTaken": "taken", "SeatOut": "out",
          "GameEnded": "end"}


def slap_json(setup: SlapSetup, *, slaps: Sequence[DecidedSlap] | None = None,
              skills: Sequence[Skill] | None = None, log: bool = False) -> dict[str, Any]:
    """Play ``setup`` and return the ``cardwar play`` record (keys in the module doc).

    With ``slaps`` the table's decided slaps are played (:func:`play_decided`);
    without them the computers play every seat at ``skills`` (by lobby
    position; default normal) when there is a seed, and nobody slaps when there
    is none.

    Raises:
        SlapError, ValueError: as :func:`play_decided` and :func:`play_computers`.
    """
    events: list[dict[str, Any]] = []
    counted: list[bool] = []  # per slap pushed: did it count (valid or wrong)?

    def keep(step: Step) -> None:
        if log:
            events.extend(event_json(e) for e in step.events)
        if step.verdict is not None:
            counted.append(step.verdict.counts)

    by_seat: list[str] | None = None
    if slaps is None and setup.seed is not None:
        lobby = list(skills or [Skill.NORMAL] * setup.players)
        game, decided = play_computers(setup, lobby, keep)
        by_seat = [lobby[p].value for p in setup.seating]
    else:
        given = list(slaps or [])
        game = play_decided(setup, given, keep)
        decided = [s for s, ok in zip(given, counted, strict=True) if ok]
    assert game.outcome is not None
    assert game.reason is not None
    out: dict[str, Any] = {
        "variant": setup.rules.variant,
        "players": setup.players,
        "seed": setup.seed,
        "options": setup.rules.options(),
        "outcome": game.outcome.value,
        "winner": game.winner,
        "reason": game.reason.value,
        "cards_played": game.cards_played,
        "tricks": game.tricks,
        "slaps": game.slaps,
        "burned": game.burned,
        "final_counts": list(game.counts()),
        "out": {str(s): n for s, n in sorted(game.out.items())},
        "seating": setup.seating,
        "skills": by_seat,
        "decided_slaps": slaps_text(decided),
    }
    if log:
        out["log"] = events
    return out


"""Game records: the JSON printed by ``cardwar play --json`` and stored for replays.

Shapes (all JSON-ready: only dicts, lists, strings, ints and None):

* :func:`battle_json` -> ``{"battle": 1, "face_up": ["2C", "9H"],
  "winning_seats": [0], "peaces": [{"face_down": [["3C", ...], [...]],
  "face_up": ["8C", "9D"], "standing": [], "winning_seats": [0]}],
  "winner": 0, "pot": 2, "out": [], "counts": [3, 1]}`` plus
  ``"outcome"``/``"reason"`` on the last battle. Seats not in play are null.
* :func:`game_json` -> the contract of ``cardwar play --json``, including
  ``"seating"``: table seat -> lobby position (RULES.md 9, Seating), drawn
  from the seed, or the identity ``[0, 1, ...]`` when the deck or hands
  were given (nobody was drawn to a seat).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..cards import Card, card_text, deal
from ..shuffle import seating, shuffled_deck
from ..variants import Variant
from .fast import Summary, play_fast, summarize
from .game import BattleResult, Game


def _card(c: Card | None) -> str | None:
    return None if c is None else card_text(c)


def battle_json(result: BattleResult) -> dict[str, Any]:
    """Return one battle as a JSON-ready dict (shape in the module docstring)."""
    out: dict[str, Any] = {
        "battle": result.number,
        "face_up": [_card(c) for c in result.face_up],
        "winning_seats": list(result.winning_seats),
        "peaces": [
            {
                "face_down": [
                    None if down is None else [card_text(c) for c in down]
                    for down in peace.face_down
                ],
                "face_up": [_card(c) for c in peace.face_up],
                "standing": list(peace.standing),
                "winning_seats": list(peace.winning_seats),
            }
            for peace in result.peaces
        ],
        "winner": result.winner,
        "pot": result.pot,
        "out": list(result.out),
        "counts": list(result.counts),
    }
    if result.outcome is not None and result.reason is not None:
        out["outcome"] = result.outcome.value
        out["reason"] = result.reason.value
    return out


@dataclass(frozen=True, slots=True)
class Setup:
    """Everything that fixes a game: variant, piles, face-down count, seed.

    Attributes:
        variant: the rules.
        piles: each seat's pile after the deal, top card first.
        face_down: the face-down count in a tie.
        seed: the shuffle seed, or None when the deck or hands were given.

    :attr:`seating` says which lobby position plays each table seat.
    """

    variant: Variant
    piles: tuple[tuple[Card, ...], ...]
    face_down: int
    seed: str | None = None

    @classmethod
    def from_seed(
        cls, variant: Variant, players: int, seed: str, face_down: int | None = None
    ) -> Setup:
        """Shuffle by ``seed`` (section 9) and deal to ``players`` (section 3).

        Raises:
            OptionError: an option the variant does not allow.
        """
        return cls.from_deck(variant, players, shuffled_deck(seed), face_down, seed=seed)

    @classmethod
    def from_deck(
        cls,
        variant: Variant,
        players: int,
        deck: Sequence[Card],
        face_down: int | None = None,
        *,
        seed: str | None = None,
    ) -> Setup:
        """Deal ``deck`` (top card first) to ``players`` (section 3).

        Raises:
            OptionError: an option the variant does not allow.
            ValueError: fewer cards than players.
        """
        fd = variant.check(players, face_down)
        piles = tuple(tuple(p) for p in deal(deck, players))
        return cls(variant, piles, fd, seed)

    @classmethod
    def from_hands(
        cls, variant: Variant, hands: Sequence[Sequence[Card]], face_down: int | None = None
    ) -> Setup:
        """Use ``hands`` as the piles, top card first; players = ``len(hands)``.

        Raises:
            OptionError: an option the variant does not allow.
        """
        fd = variant.check(len(hands), face_down)
        return cls(variant, tuple(tuple(h) for h in hands), fd, None)

    @property
    def seating(self) -> list[int]:
        """Table seat -> lobby position (RULES.md 9, Seating).

        Drawn from :attr:`seed`; the identity without one (see
        :func:`~cardwar.engine.shuffle.seating`).
        """
        return seating(self.seed, len(self.piles))

    def new_game(self) -> Game:
        """Return a fresh :class:`Game` at battle 0."""
        return Game(self.variant, self.piles, self.face_down)


def game_json(setup: Setup, *, log: bool = False) -> dict[str, Any]:
    """Play ``setup`` to the end and return the ``cardwar play --json`` object.

    Keys: variant, players, seed, face_down, outcome, winner, reason, battles,
    final_counts, eliminated (seat as a string -> battle), seating (table
    seat -> lobby position, :attr:`Setup.seating`), and with ``log`` a list
    of :func:`battle_json` objects. Seats everywhere else are table seats.
    """
    battles: list[dict[str, Any]] = []
    if log:
        game = setup.new_game()
        while not game.over:
            battles.append(battle_json(game.play_battle()))
        summary: Summary = summarize(game)
    else:
        summary = play_fast(setup.variant, setup.piles, setup.face_down)
    out: dict[str, Any] = {
        "variant": setup.variant.name,
        "players": len(setup.piles),
        "seed": setup.seed,
        "face_down": setup.face_down,
        "outcome": summary.outcome.value,
        "winner": summary.winner,
        "reason": summary.reason.value,
        "battles": summary.battles,
        "final_counts": list(summary.final_counts),
        "eliminated": {str(s): b for s, b in sorted(summary.eliminated.items())},
        "seating": setup.seating,
    }
    if log:
        out["log"] = battles
    return out

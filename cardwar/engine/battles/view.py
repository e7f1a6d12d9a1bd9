"""Seat views: what one seat, or a spectator, may see of a game.

Every message to a browser is built from a view, so pile order and the seed
never leave the server before the game ends (RULES.md sections 3 and 9).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..cards import Card, card_text
from .game import Game


@dataclass(frozen=True, slots=True)
class SeatView:
    """A viewer's picture of a game.

    Attributes:
        viewer: the seat looking, or None for a spectator.
        battle: battles played so far.
        counts: cards in each seat's pile.
        in_play: per seat, True while the seat is still in the game.
        eliminated: seat -> the battle in which it went out.
        pot: cards left on the table (only after an undecidable battle).
        outcome, reason, winner: set once the game is over.
    """

    viewer: int | None
    battle: int
    counts: tuple[int, ...]
    in_play: tuple[bool, ...]
    eliminated: dict[int, int]
    pot: int
    outcome: str | None
    reason: str | None
    winner: int | None

    def to_json(self) -> dict[str, object]:
        """Return the view as a JSON-ready dict (no card order, no seed)."""
        return {
            "viewer": self.viewer,
            "battle": self.battle,
            "counts": list(self.counts),
            "in_play": list(self.in_play),
            "eliminated": {str(k): v for k, v in self.eliminated.items()},
            "pot": self.pot,
            "outcome": self.outcome,
            "reason": self.reason,
            "winner": self.winner,
        }


def seat_view(game: Game, viewer: int | None = None) -> SeatView:
    """Return what ``viewer`` (a seat, or None for a spectator) may see of ``game``.

    Raises:
        ValueError: ``viewer`` is not a seat of this game.
    """
    if viewer is not None and not 0 <= viewer < game.players:
        raise ValueError(f"no seat {viewer}")
    return SeatView(
        viewer=viewer,
        battle=game.battles,
        counts=game.counts(),
        in_play=tuple(s not in game.eliminated for s in range(game.players)),
        eliminated=dict(game.eliminated),
        pot=len(game.pot),
        outcome=None if game.outcome is None else game.outcome.value,
        reason=None if game.reason is None else game.reason.value,
        winner=game.winner,
    )


def face_up_text(cards: tuple[Card | None, ...]) -> list[str | None]:
    """Return face-up cards by seat as notation, None where a seat is out."""
    return [None if c is None else card_text(c) for c in cards]

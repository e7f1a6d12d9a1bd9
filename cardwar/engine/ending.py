"""How a game ends, shared by every family of games (RULES.md sections 5.7, 7, 10.8, 11.7)."""

from __future__ import annotations

from enum import StrEnum


class Outcome(StrEnum):
    """How a game ended (RULES.md section 7)."""

    WIN = "win"
    DRAW = "draw"


class Reason(StrEnum):
    """Why a game ended (RULES.md sections 5.7, 7, 10.8 and 11.7)."""

    ALL_CARDS = "all_cards"
    BATTLE_LIMIT = "battle_limit"
    UNRESOLVABLE = "unresolvable"
    CYCLE = "cycle"
    CARD_LIMIT = "card_limit"


class GameOverError(RuntimeError):
    """A battle was asked of a game that has already ended."""

"""The test-only stacked deck: a short deal that ends in two battles with a tie.

Only used when ``Settings.testing_stacked_deck`` is true (never in production).
"""

from __future__ import annotations

from cardwar.engine import Variant

# Seat 0 wins battle 1 outright; battle 2 ties (7s) and seat 0 wins the peace
# (the war), taking every card. Seats 2 and 3 go out in battle 1.
_PEACE = ["2H 7C 2C 3C 4C 5C 6C 8C", "KH 7D 2D 3D 4D 5D 6D 9D", "QH", "JH"]
_WAR = ["AH 7C 2C 3C 4C KC", "2H 7D 2D 3D 4D 9D", "3H", "4H"]
# In turns (Beggar-my-neighbour): seat 1 pays 3C for the jack (a trick), then
# pays 5C for it again and has no card left: seat 0 wins after 6 cards, 2 tricks.
_TURNS = ["JH 2C", "3C 4C 5C"]
# The slap games: card 2 (seat 1's 2D on seat 0's 2C) makes a double; without a
# valid slap, seat 0's jack then asks seat 1 for a card it pays with 4H.
_SLAPS = ["2C JC 9H 3S", "2D 4H 8S 6D", "5H", "7H"]


def stacked_hands(variant: Variant, players: int) -> str:
    """Return the stacked piles for ``players`` seats as ``"2H 7C ... / KH ..."``.

    Raises:
        ValueError: ``players`` is not 2, 3 or 4.
    """
    if players not in (2, 3, 4):
        raise ValueError(f"no stacked deck for {players} players")
    rows = (_TURNS if variant.play == "turns" else _SLAPS if variant.play == "slaps"
            else _PEACE if variant.low_wins else _WAR)
    return " / ".join(rows[:players])

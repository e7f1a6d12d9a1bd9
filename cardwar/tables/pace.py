"""The table service's side of a player's choices (:mod:`cardwar.tables.choices`):
a pace of automatic flips and fast-forwarding once out (leaving the table is
:meth:`TableService.leave`).

Each runs through :meth:`TableService.apply` like any change; what it
triggers (the coming battle's timers, whose waits follow the new pace, and
presence) is :mod:`cardwar.tables.triggers`'.
"""

from __future__ import annotations

from .events import Pace
from .service import TableService


def waiting_by_hand(service: TableService, game_id: str, by_hand: list[int]) -> list[int]:
    """The seats of ``by_hand`` (humans in play not on auto-flip) whose player is
    not away: the humans a fast-forward would hurry."""
    return [s for s in by_hand if not service.presence.is_gone(game_id, s)]


async def set_pace(service: TableService, game_id: str, seat: int, pace: Pace) -> None:
    """``seat`` chose ``pace`` (:meth:`Table.set_pace`); the coming battle's waits follow.

    Raises:
        TableError: ``no_game``, ``not_seated``, ``bad_message``.
    """
    await service.apply(game_id, lambda t: t.set_pace(seat, pace))  # re-arms (:mod:`.triggers`)


async def fast_forward(service: TableService, game_id: str, seat: int) -> None:
    """``seat`` plays the rest without waiting (:meth:`Table.fast_forward`): out
    of the game, or in play with no other human in play who is not away.

    Raises:
        TableError: ``no_game``, ``not_seated``, ``not_playing``, ``not_out``,
            ``not_alone``.
    """
    await service.apply(game_id, lambda t: t.fast_forward(
        seat, waiting_by_hand(service, game_id, t.by_hand()),
        waiting_by_hand(service, game_id, t.humans_in_play())))  # re-arms (:mod:`.triggers`)


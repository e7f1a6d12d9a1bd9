"""A finished game's record, rebuilt from its stored deal.

:func:`game_record` is exactly what ``cardwar play --log --json`` prints for
the same deal (:func:`cardwar.engine.game_json` with ``log=True``, or
:func:`cardwar.engine.beggar_json` for a game in turns): the
replay page steps through its ``log`` and "download the game" serves it.
Before the end it is refused: the record names every card in every pile.
"""

from __future__ import annotations

import json
from typing import Any

from .errors import ErrorCode, TableError
from .table import Table


def game_record(table: Table) -> dict[str, Any]:
    """Return the ``cardwar play --log --json`` object of ``table``'s finished game.

    Raises:
        TableError: ``not_over`` unless the game is over.
    """
    if table.status != "over":
        raise TableError(ErrorCode.NOT_OVER)
    return table.kind.record_json(table.record)


def game_record_text(table: Table) -> str:
    """:func:`game_record` serialised as the command line prints it (plus a newline).

    Raises:
        TableError: ``not_over`` unless the game is over.
    """
    return json.dumps(game_record(table)) + "\n"


def start_counts(table: Table) -> list[int]:
    """How many cards each seat held when the game began."""
    return table.kind.start_counts(table.record)

"""What a seated player may choose during a game besides flipping: a pace of
automatic flips, fast-forwarding once out, and leaving the table.

:class:`PlayerChoices` is a part of :class:`~cardwar.tables.Table` (its
events are in :mod:`cardwar.tables.events`: ``pace``, ``fast_forward``,
``left``); the timing they lead to is :mod:`cardwar.tables.clocks`'.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cardwar.engine import Game, SlapGame

from .errors import ErrorCode, TableError
from .events import PACES, FastForward, Left, Pace, PaceSet

if TYPE_CHECKING:
    from .events import Event
    from .kinds import EngineGame
    from .records import GameRecord


class PlayerChoices:
    """Pace, fast-forward and leaving, for :class:`~cardwar.tables.Table`."""

    if TYPE_CHECKING:
        record: GameRecord
        skipping: bool

        @property
        def game(self) -> EngineGame: ...

        @property
        def creator(self) -> int | None: ...

        @property
        def _next(self) -> int: ...

        def _emit(self, event: Event) -> None: ...

        def to_flip(self) -> list[int]: ...

    def _human(self, seat: int) -> None:
        if not 0 <= seat < len(self.record.seats) or self.record.seats[seat].kind != "human":
            raise TableError(ErrorCode.NOT_SEATED)

    def _in_play(self) -> list[int]:
        """Seats still in play (in turns, both players until the end; in a slap game,
        those not out, RULES.md 11.7)."""
        if isinstance(self.game, Game):
            return self.game.in_play()
        if isinstance(self.game, SlapGame):
            out = self.game.out
            return [] if self.game.over else [s for s in range(self.game.players)
                                               if s not in out]
        return [] if self.game.over else list(range(len(self.record.seats)))

    def by_hand(self) -> list[int]:
        """Seats in play whose human flips by hand (not on auto-flip); whether one
        of them is away is presence's to say (:mod:`cardwar.tables.presence`)."""
        if self.record.status != "playing":
            return []
        return [s for s in self._in_play() if self.record.seats[s].kind == "human"
                and not self.record.seats[s].auto_flip]

    def humans_in_play(self) -> list[int]:
        """Seats in play whose player is a human (on auto-flip or not); whether
        one of them is away is presence's to say."""
        if self.record.status != "playing":
            return []
        return [s for s in self._in_play() if self.record.seats[s].kind == "human"]

    def set_pace(self, seat: int, pace: Pace) -> None:
        """Set ``seat``'s pace of automatic flips (``slow``, ``normal``, ``fast``).

        Raises:
            TableError: ``not_seated`` if the seat is not a human's;
                ``bad_message`` for another pace.
        """
        self._human(seat)
        if pace not in PACES:
            raise TableError(ErrorCode.BAD_MESSAGE)
        if self.record.seats[seat].pace != pace:
            self._emit(PaceSet(type="pace", seq=self._next, seat=seat, pace=pace))

    def fast_forward(self, seat: int, waiting: list[int],
                     present: list[int] | None = None) -> None:
        """Play the rest of the game without waiting, for ``seat``: a player who
        is out ("Skip to the result"), or one still in play with no other human
        in play ("Finish the game": every other seat in play is a computer's or
        its player is away).

        Args:
            seat: the asker.
            waiting: seats in play whose human flips by hand and is not away
                (presence's part): there must be none, for a player who is out.
            present: seats in play whose human is not away (presence's part;
                None: every human's in play): for a player in play, none but
                the asker's.

        Raises:
            TableError: ``not_seated`` (not a human's seat), ``not_playing``,
                ``not_out`` (the asker is out and a human in play still flips
                by hand), ``not_alone`` (the asker is in play and so is
                another human who is not away).
        """
        self._human(seat)
        if self.record.status != "playing":
            raise TableError(ErrorCode.NOT_PLAYING)
        if seat in self._in_play():
            if any(s != seat for s in (self.humans_in_play() if present is None else present)):
                raise TableError(ErrorCode.NOT_ALONE)
        elif waiting:
            raise TableError(ErrorCode.NOT_OUT)
        if not self.skipping:
            self._emit(FastForward(type="fast_forward", seq=self._next, seat=seat))

    def leave(self, seat: int) -> None:
        """``seat``'s player leaves the table: during the game the computer plays the
        seat to the end (kind ``left``); in the lobby the seat is open again. Either
        way the creator's rights (start, hand over) pass to the next human.

        In the lobby the players after ``seat`` move up a seat (``seating``,
        :func:`lobby_after_leaving`), so the lobby's seats stay in the order the
        players came and the next human is the one who came next, never a
        newcomer taking the freed seat.

        Raises:
            TableError: ``not_seated`` if the seat is not a human's;
                ``not_playing`` once the game is over.
        """
        self._human(seat)
        if self.record.status == "over":
            raise TableError(ErrorCode.NOT_PLAYING)
        if self.record.status == "lobby":
            kinds = [s.kind for s in self.record.seats]
            order = lobby_after_leaving(kinds, seat)
            # who may start afterwards: the lowest seat still a human's
            creator = next((s for s, p in enumerate(order) if p != seat and kinds[p] == "human"),
                           None)
            event = Left(type="left", seq=self._next, seat=seat, creator=creator)
            if order != sorted(order):
                event["seating"] = order
            self._emit(event)
            return
        rec = self.record.seats[seat]
        kind, rec.kind = rec.kind, "left"  # who may start or hand over afterwards
        creator = self.creator
        rec.kind = kind
        self._emit(Left(type="left", seq=self._next, seat=seat, creator=creator))


def lobby_after_leaving(kinds: list[str], seat: int) -> list[int]:
    """The lobby's seats once the human of ``seat`` left it (``kinds``: each seat's kind).

    Item ``s`` is the seat whose player (or open seat) moves to seat ``s``: the
    humans after ``seat`` move up over the players' seats (open or a human's;
    computers and seats reserved for a rematch's players stay where they are),
    and the freed seat goes after them. Joining takes the first open seat, so
    the humans keep sitting in the order they came.
    """
    movable = [s for s, k in enumerate(kinds) if k in ("human", "open")]
    staying = [s for s in movable if s != seat and kinds[s] == "human"]
    freed = [s for s in movable if s not in staying]  # the leaver's, then the open ones
    order = list(range(len(kinds)))
    for slot, s in zip(movable, staying + freed, strict=True):
        order[slot] = s
    return order

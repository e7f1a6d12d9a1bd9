"""A :class:`Table`: one game room, pure and synchronous.

Lifecycle: ``lobby`` (seats fill) -> ``playing`` (battles) -> ``over``.
Every change appends numbered events to :attr:`Table.outbox`; the caller
(:class:`~cardwar.tables.TableService`) stores and publishes them.

Event shapes, and how each one changes a table: :mod:`cardwar.tables.events`
(the same function applies a table's own events and those another server
process published).
"""

from __future__ import annotations

import dataclasses
import shlex
from collections.abc import Mapping
from typing import Any, cast

from cardwar.engine import commitment, get_variant, seating

from .choices import PlayerChoices
from .errors import ErrorCode, TableError
from .events import (
    AutoFlip,
    Event,
    FlipBy,
    Flipped,
    Handed,
    Joined,
    OptionsSet,
    Over,
    OverData,
    Relinked,
    Rematch,
    SeatKind,
    Started,
    apply_event,
    play_step,
)
from .kinds import EngineGame, Kind, kind_of
from .nicknames import same_name
from .records import GameRecord, SeatRecord
from .secrets import same_hash

__all__ = ["Table", "TableError", "replay_command"]


def replay_command(record: GameRecord, extra: list[str] | None = None) -> str:
    """Return the ``cardwar play`` command that replays this game's deal, with
    ``extra`` arguments after it (a kind's :meth:`~.kinds.Kind.command_args`)."""
    variant = get_variant(record.variant)
    parts = ["cardwar", "play", "--variant", record.variant, "--players", str(record.players)]
    if record.seed is not None:
        parts += ["--seed", record.seed]
    elif record.hands is not None:
        parts += ["--hands", record.hands]
    if record.face_down != variant.face_down:
        parts += ["--face-down", str(record.face_down)]
    return shlex.join([*parts, *(extra or [])])



class Table(PlayerChoices):
    """One game room, rebuilt from its :class:`~cardwar.store.GameRecord`.

    The engine game (:class:`~cardwar.engine.Game`, or
    :class:`~cardwar.engine.BeggarGame` for a game in turns: its
    :class:`~cardwar.tables.kinds.Kind`) is rebuilt by replaying
    ``record.steps`` steps from the deal, so a table survives restarts.

    Args:
        record: the stored game (mutated in place by every change).

    Raises:
        ValueError, OptionError: the record's deal is invalid.
    """

    def __init__(self, record: GameRecord) -> None:
        self.record = record
        self.variant = get_variant(record.variant)
        #: the kind of play (:mod:`cardwar.tables.kinds`), bound to the engine game
        self.kind: Kind = kind_of(self.variant, record)
        #: the engine's result of the last step (a battle, or a card put down)
        self.last: object = None
        #: the last step's event, for a page's snapshot
        self.last_json: Event | None = None
        for n in range(record.steps):
            acted = self.kind.to_act()  # a replayed step: as if every seat acted
            self.last, self.last_json = self.kind.play(n + 1, acted)
        self.outbox: list[Event] = []
        #: the id of the rematch offered after this game, once known.
        self.rematch: str | None = None
        #: the seat that offered it, once known.
        self.rematch_by: int | None = None
        #: a player who is out fast-forwarded the game (``fast_forward``): no waiting.
        self.skipping = False

    # -- creation ---------------------------------------------------------
    @classmethod
    def new(
        cls,
        game_id: str,
        variant: str,
        players: int,
        *,
        face_down: int | None = None,
        computers: tuple[int, ...] = (),
        creator: str,
        creator_hash: str,
        seed: str | None = None,
        hands: str | None = None,
        creator_seat: int = 0,
        reserved: Mapping[int, str] | None = None,
        public: bool = False,
        locale: str = "en",
        options: Mapping[str, Any] | None = None,
    ) -> Table:
        """Create a table in the lobby: the creator in ``creator_seat`` (seat 0
        unless this is a rematch), ``computers`` seated, ``reserved`` seats
        (seat -> nickname, a rematch's former players) kept for their players.

        Exactly one of ``seed`` (shuffled, RULES.md 9) or ``hands`` (stacked,
        tests only) gives the deal. ``public``: listed on the open tables page;
        ``locale``: the creator's language; ``options``: a slap game's table
        options (:func:`~cardwar.tables.slap_kind.table_options`), the
        ``options`` event. The creation events are in the outbox: ``options``
        (a slap game), ``joined`` for the creator, then each computer, then
        each reserved seat.

        Raises:
            OptionError: players or face_down not allowed by the variant.
            ValueError: a computer or reserved seat out of range, the
                creator's, or both computer and reserved; no deal given.
        """
        v = get_variant(variant)
        fd = v.check(players, face_down)
        kept = dict(reserved or {})
        if not 0 <= creator_seat < players or any(
                not 0 <= s < players or s == creator_seat for s in (*computers, *kept)):
            raise ValueError("computer and reserved seats must be other seats of the table")
        if set(computers) & set(kept):
            raise ValueError("a seat cannot be both a computer's and reserved")
        if (seed is None) == (hands is None):
            raise ValueError("give exactly one of seed and hands")
        record = GameRecord(
            id=game_id, variant=v.name, players=players, face_down=fd, seed=seed, hands=hands,
            commitment=commitment(seed if seed is not None else hands or ""),
            seats=[SeatRecord(seat=s) for s in range(players)], public=public, locale=locale,
        )
        table = cls(record)
        if options is not None:
            if not hasattr(table.kind, "configure"):
                raise ValueError(f"{v.name} has no table options")
            table._emit(OptionsSet(type="options", seq=table._next, options=dict(options)))
        table._seat(creator_seat, "human", creator, creator_hash)
        for s in sorted(set(computers)):
            table._seat(s, "computer", None, None)
        for s in sorted(kept):
            table._seat(s, "reserved", kept[s], None)
        return table

    # -- queries ----------------------------------------------------------
    @property
    def id(self) -> str:
        """The game id."""
        return self.record.id

    @property
    def game(self) -> EngineGame:
        """The engine game (:attr:`Kind.game`)."""
        return self.kind.game

    def clone(self) -> Table:
        """An independent copy of this table (record, seats, engine state; empty outbox).

        Changing the clone leaves this table as it is: a change can be tried
        on a clone and the clone kept only once the change is saved.
        """
        other = Table.__new__(Table)
        other.__dict__.update(self.__dict__)
        other.record = dataclasses.replace(
            self.record, flipped=list(self.record.flipped),
            seats=[dataclasses.replace(s) for s in self.record.seats])
        other.kind = self.kind.copy()
        other.outbox = []
        return other

    @property
    def status(self) -> str:
        """``"lobby"``, ``"playing"`` or ``"over"``."""
        return self.record.status

    @property
    def seq(self) -> int:
        """The number of the last event."""
        return self.record.seq

    def seat_of(self, secret_hash: str | None) -> int | None:
        """Return the seat whose secret hashes to ``secret_hash``, or None."""
        for s in self.record.seats:
            if s.kind == "human" and same_hash(s.secret_hash, secret_hash):
                return s.seat
        return None

    @property
    def creator(self) -> int | None:
        """The seat that may start the game: the lowest seat held by a human.

        In a new game that is always seat 0 (the creator's); in a rematch it
        is the lowest seat whose player has come along. Once the seed has
        drawn the seating, it is still the same player: the human of the
        lowest lobby seat, wherever they sit now (RULES.md 9).
        """
        lobby = self.seating() if self.status != "lobby" else list(range(self.record.players))
        humans = [s.seat for s in self.record.seats if s.kind == "human"]
        return min(humans, key=lambda s: lobby[s]) if humans else None

    def seating(self) -> list[int]:
        """Who sits where (RULES.md 9, Seating): item ``s`` is the lobby seat of
        the player at table seat ``s``; the lobby's order for a stacked deal."""
        return seating(self.record.seed, self.record.players)

    def open_seats(self) -> list[int]:
        """Seats nobody has taken yet, that anyone may take (not the reserved ones)."""
        return [s.seat for s in self.record.seats if s.kind == "open"]

    def reserved_seats(self) -> list[int]:
        """Seats kept for a rematch's former player who has not taken them yet."""
        return [s.seat for s in self.record.seats if s.kind == "reserved"]

    @property
    def steps(self) -> int:
        """Steps played: battles, or cards put down in a game in turns."""
        return self.kind.steps()

    def to_flip(self) -> list[int]:
        """Seats that must flip for the coming step and have not yet (in turns: the
        seat to move)."""
        if self.status != "playing":
            return []
        flipped = set(self.record.flipped)
        return [s for s in self.kind.to_act() if s not in flipped]

    # -- changes ----------------------------------------------------------
    @property
    def _next(self) -> int:
        """The number of the next event."""
        return self.record.seq + 1

    def _emit(self, event: Event) -> None:
        """Apply ``event`` (:func:`~cardwar.tables.events.apply_event`) and queue it."""
        if not apply_event(self, event):
            raise RuntimeError(f"event {event['type']} does not fit table {self.id}")
        self.outbox.append(event)

    def take_outbox(self) -> list[Event]:
        """Return and clear the events emitted since the last call."""
        events, self.outbox = self.outbox, []
        return events

    def _seat(self, seat: int, kind: SeatKind, nickname: str | None,
              secret_hash: str | None) -> None:
        rec = self.record.seats[seat]
        rec.kind, rec.secret_hash = kind, secret_hash
        # who may start now: in a rematch, the lowest seat whose player came back
        self._emit(Joined(type="joined", seq=self._next, seat=seat, kind=kind,
                          nickname=nickname, creator=self.creator))

    def join(self, nickname: str, secret_hash: str, seat: int | None = None) -> int:
        """Seat a new player in ``seat`` (default: the first open seat); return it.

        ``nickname`` must already be clean (:func:`clean_nickname`). Without
        ``seat`` (anyone with the link) only open seats are taken, and the
        nickname of a reserved seat counts as taken; an explicit ``seat`` (a
        rematch's former player) may be open or reserved, and that seat's
        reserved nickname does not count.

        Raises:
            TableError: ``not_lobby`` after the start, ``no_seat`` when full
                (or only reserved seats are left, without ``seat``),
                ``seat_taken`` when ``seat`` is neither open nor reserved,
                ``already_seated`` when the secret already has a seat,
                ``name_taken`` when another seat already has (or keeps) this
                nickname (case-insensitive, after NFC).
        """
        if self.status != "lobby":
            raise TableError(ErrorCode.NOT_LOBBY)
        if self.seat_of(secret_hash) is not None:
            raise TableError(ErrorCode.ALREADY_SEATED)
        free = self.open_seats() if seat is None else sorted(
            [*self.open_seats(), *self.reserved_seats()])
        if not free:
            raise TableError(ErrorCode.NO_SEAT)
        if seat is not None and seat not in free:
            raise TableError(ErrorCode.SEAT_TAKEN)
        if any(same_name(nickname, rec.nickname) for rec in self.record.seats
               if rec.nickname and rec.seat != seat):
            raise TableError(ErrorCode.NAME_TAKEN)
        chosen = free[0] if seat is None else seat
        self._seat(chosen, "human", nickname, secret_hash)
        return chosen

    def start(self, seat: int | None) -> None:
        """Start the game; open and reserved seats are filled with computer players,
        then the seed draws who sits where (RULES.md 9, Seating: the ``started``
        event's ``seating``; a stacked deal keeps the lobby's order).

        Raises:
            TableError: ``not_creator`` unless ``seat`` is the creator's, ``not_lobby``.
        """
        if seat is None or seat != self.creator:
            raise TableError(ErrorCode.NOT_CREATOR)
        if self.status != "lobby":
            raise TableError(ErrorCode.NOT_LOBBY)
        for s in sorted([*self.open_seats(), *self.reserved_seats()]):
            self._seat(s, "computer", None, None)
        self._emit(Started(type="started", seq=self._next, counts=list(self.game.counts()),
                           seating=self.seating()))

    def flip(self, seat: int, by: FlipBy = "player", battle: int | None = None) -> bool:
        """Flip ``seat``'s top card for the coming step; play it once all flipped
        (a battle; in turns, the seat to move puts down its card).

        Args:
            seat: the seat flipping.
            by: who flipped: ``player``, ``auto``, ``timer``, ``computer`` or ``gone``.
            battle: if given, only flip when the coming battle is this number
                (a timer set for an earlier battle is ignored).

        Returns:
            True if the flip counted, False if it was stale (timer), repeated, or an
            auto flip of a seat whose auto-flip is off now.

        Raises:
            TableError: ``not_playing`` (lobby or over), ``out`` (seat out of
                play) or ``not_your_turn`` (in turns, another seat is to move).
        """
        if self.status != "playing":
            raise TableError(ErrorCode.NOT_PLAYING)
        coming = self.steps + 1
        if battle is not None and battle != coming:
            return False
        if seat not in self.kind.to_act():
            raise TableError(self.kind.refused)
        if seat in self.record.flipped:
            return False
        if by == "auto" and not self.record.seats[seat].auto_flip:
            return False  # switched off since the flip was armed (here or elsewhere)
        self._emit(Flipped(type="flipped", seq=self._next, seat=seat, battle=coming, by=by))
        if self.kind.ready(list(self.record.flipped)):
            event = play_step(self, self._next)  # the input in, the step's event out
            self.record.seq = event["seq"]
            self.outbox.append(event)
            if self.game.over:
                self._emit(Over(type="over", seq=self._next, **self.result()))
        return True

    def step_now(self) -> bool:
        """Play the step the kind has ready without a flip (a slap game's judge
        decided something: :mod:`cardwar.tables.slap_kind`), and the ``over``
        event if it ended the game; True (it was played).

        Raises:
            TableError: ``not_playing``.
        """
        if self.status != "playing":
            raise TableError(ErrorCode.NOT_PLAYING)
        event = play_step(self, self._next)
        self.record.seq = event["seq"]
        self.outbox.append(event)
        if self.game.over:
            self._emit(Over(type="over", seq=self._next, **self.result()))
        return True

    def result(self) -> OverData:
        """The end of the game (the ``over`` event's data); only once it is over.

        Raises:
            TableError: ``not_over`` while the game is still going.
        """
        g = self.game
        outcome, reason = g.outcome, g.reason
        if outcome is None or reason is None:
            raise TableError(ErrorCode.NOT_OVER)
        data: dict[str, Any] = {
            "outcome": outcome.value,
            "reason": reason.value,
            "winner": g.winner,
            **self.kind.over_data(),
            "final_counts": list(g.counts()),
            "seed": self.record.seed,
            "hands": self.record.hands,
            "command": replay_command(self.record, self.kind.command_args()),
        }
        return cast(OverData, data)

    def set_auto(self, seat: int, on: bool) -> None:
        """Switch auto-flip for ``seat`` (a human) on or off.

        Raises:
            TableError: ``not_seated`` if the seat is not a human's.
        """
        rec = self.record.seats[seat]
        if rec.kind != "human":
            raise TableError(ErrorCode.NOT_SEATED)
        if rec.auto_flip != on:
            self._emit(AutoFlip(type="auto_flip", seq=self._next, seat=seat, on=on))

    def hand_over(self, by: int | None, seat: int) -> None:
        """The creator lets the computer play ``seat`` for the rest of the game.

        Whether the seat's player is gone is the caller's check (presence is
        not part of the table).

        Raises:
            TableError: ``not_creator`` unless ``by`` is the creator,
                ``not_playing``, ``not_gone`` for one's own seat or a seat
                that is not a human's.
        """
        if by is None or by != self.creator:
            raise TableError(ErrorCode.NOT_CREATOR)
        if self.status != "playing":
            raise TableError(ErrorCode.NOT_PLAYING)
        if not 0 <= seat < len(self.record.seats) or seat == by:
            raise TableError(ErrorCode.NOT_GONE)
        rec = self.record.seats[seat]
        if rec.kind != "human":
            raise TableError(ErrorCode.NOT_GONE)
        self._emit(Handed(type="handed", seq=self._next, seat=seat))

    def relink(self, seat: int, secret_hash: str) -> None:
        """Replace the secret of ``seat`` (a human's): old links and cookies stop working.

        Raises:
            TableError: ``not_seated`` if the seat is not a human's.
        """
        if not 0 <= seat < len(self.record.seats) or self.record.seats[seat].kind != "human":
            raise TableError(ErrorCode.NOT_SEATED)
        self.record.seats[seat].secret_hash = secret_hash
        self._emit(Relinked(type="relinked", seq=self._next, seat=seat))

    def offer_rematch(self, seat: int | None, game_id: str) -> None:
        """Record that ``seat`` offered the rematch ``game_id`` (once the game is over).

        Raises:
            TableError: ``not_over`` while playing, ``not_seated`` for a
                spectator, ``rematch_offered`` if a rematch was offered already.
        """
        if self.status != "over":
            raise TableError(ErrorCode.NOT_OVER)
        if seat is None or self.record.seats[seat].kind != "human":
            raise TableError(ErrorCode.NOT_SEATED)
        if self.rematch is not None:
            raise TableError(ErrorCode.REMATCH_OFFERED)
        self._emit(Rematch(type="rematch", seq=self._next, game=game_id, by=seat))

"""The registry of error codes: every reason a request is refused.

An ``error`` frame (:class:`cardwar.tables.events.Error`) carries one of
these codes, and so does a :class:`TableError`; pages word them in the
reader's language (``errors`` in :mod:`cardwar.web.strings`).
"""

from __future__ import annotations

from enum import StrEnum


class ErrorCode(StrEnum):
    """Why a request was refused: the ``code`` of an ``error`` frame and of
    :class:`~cardwar.tables.TableError` (stable: pages translate it)."""

    NO_GAME = "no_game"
    NO_SEAT = "no_seat"
    NOT_SEATED = "not_seated"
    NOT_CREATOR = "not_creator"
    NOT_LOBBY = "not_lobby"
    NOT_PLAYING = "not_playing"
    OUT = "out"
    NOT_YOUR_TURN = "not_your_turn"
    ALREADY_SEATED = "already_seated"
    NOT_OVER = "not_over"
    NOT_GONE = "not_gone"
    NOT_OUT = "not_out"
    NOT_ALONE = "not_alone"
    SEAT_TAKEN = "seat_taken"
    NAME_TAKEN = "name_taken"
    REMATCH_OFFERED = "rematch_offered"
    BAD_MESSAGE = "bad_message"
    RATE_LIMITED = "rate_limited"
    TOO_MANY_REACTIONS = "too_many_reactions"
    UNAVAILABLE = "unavailable"


#: What each code means, for the protocol docs.
ERROR_DOCS: dict[ErrorCode, str] = {
    ErrorCode.NO_GAME: "the game does not exist",
    ErrorCode.NO_SEAT: "every seat is taken (reserved seats count, for a stranger)",
    ErrorCode.NOT_SEATED: "the sender has no seat here, or not a human's",
    ErrorCode.NOT_CREATOR: "only the creator (the lowest human seat) may do that",
    ErrorCode.NOT_LOBBY: "the game has started already",
    ErrorCode.NOT_PLAYING: "the game is not being played (lobby or over)",
    ErrorCode.OUT: "the seat is out of the game",
    ErrorCode.NOT_YOUR_TURN: "in a game played in turns, another seat puts down the next card",
    ErrorCode.ALREADY_SEATED: "the sender has a seat at this table already",
    ErrorCode.NOT_OVER: "the game is not over yet",
    ErrorCode.NOT_GONE: "that seat's player is not away",
    ErrorCode.NOT_OUT: "only a player who is out may fast-forward, and only while nobody in "
                       "play flips by hand",
    ErrorCode.NOT_ALONE: "only a player with no other human in play (every other seat in "
                         "play a computer's or away) may finish the game at once",
    ErrorCode.SEAT_TAKEN: "that seat is neither open nor kept for the sender",
    ErrorCode.NAME_TAKEN: "another seat has (or keeps) this nickname",
    ErrorCode.REMATCH_OFFERED: "a rematch was offered already (never sent to a page: "
                               "the asker joins it instead)",
    ErrorCode.BAD_MESSAGE: "the message is not valid (cardwar.web.protocol)",
    ErrorCode.RATE_LIMITED: "too many messages at once from one connection",
    ErrorCode.TOO_MANY_REACTIONS: "too many reactions in a short time from one seat "
                                  "(or one spectator's connection)",
    ErrorCode.UNAVAILABLE: "the server could not apply the message now (its database "
                           "did not answer); nothing changed, it may be sent again",
}

#: Codes that never reach a page (answered another way).
SERVER_ONLY_ERRORS = frozenset({ErrorCode.NAME_TAKEN, ErrorCode.REMATCH_OFFERED})


class TableError(Exception):
    """A request the table refuses; ``code`` (an :class:`ErrorCode`) names why."""

    def __init__(self, code: ErrorCode) -> None:
        super().__init__(code.value)
        self.code = code

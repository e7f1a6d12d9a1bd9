"""The WebSocket protocol, browser -> server: every message validated with pydantic.

A message is one JSON object of at most :data:`MAX_MESSAGE` bytes (UTF-8):

* ``{"type": "flip", "battle": 12}`` - flip for the coming battle (``battle``
  optional: a flip meant for an earlier battle is ignored, so a message
  delayed by a reconnection never flips twice). A flip takes the seat of a
  player marked away back, even one that does not count because the computer
  has already flipped for them.
* ``{"type": "put", "card": 12}`` - a slap game's seat to move puts down its
  card (``card`` optional: the number it will have, cards put down so far plus
  one; another card put down meanwhile, or a pile waiting to be taken: ignored).
* ``{"type": "slap", "pile": 7}`` - slap a slap game's pile (any seated
  player): ``pile`` is the number of the top card the page showed (0 before
  the first card), RULES.md 11.6.
* ``{"type": "auto", "on": true}`` - switch auto-flip.
* ``{"type": "start"}`` - start the game (the creator only).
* ``{"type": "hand_over", "seat": 2}`` - the creator lets the computer play
  for a player who is gone.
* ``{"type": "pace", "pace": "fast"}`` - one's pace of automatic flips
  (``slow``, ``normal``, ``fast``).
* ``{"type": "skip"}`` - fast-forward to the result: a player who is out
  ("Skip to the result"), or one in play with no other human in play who is
  not away ("Finish the game").
* ``{"type": "leave"}`` - leave the table: the computer plays the seat.
* ``{"type": "react", "key": "gg"}`` - show a preset reaction to the table
  (``key``: one of :data:`cardwar.tables.events.REACTIONS`; players and
  spectators alike).
* ``{"type": "ping"}`` - answered with ``pong``; ``{"type": "pong"}`` answers
  the server's heartbeat ``ping``, ``{"type": "pong", "id": 7}`` a numbered one
  (a seated player's: the round trip measures the latency, RULES.md 11.6).

Anything else (bad JSON, unknown type, extra or mistyped field, too long)
raises :class:`ProtocolError` and is answered with ``{"type": "error",
"code": "bad_message"}`` without any change to the game.
"""

from __future__ import annotations

from typing import Annotated, Literal

import orjson
from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from cardwar.tables.events import Pace, ReactionKey

#: Largest message a browser may send, in bytes.
MAX_MESSAGE = 1024
#: Largest battle number a flip may name.
_MAX_BATTLE = 1_000_000
#: Largest heartbeat number a pong may echo.
_MAX_PING = 2**53


class _Message(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class Flip(_Message):
    """Flip the top card of one's pile for the coming battle."""

    type: Literal["flip"]
    battle: int | None = Field(default=None, ge=1, le=_MAX_BATTLE)


class Put(_Message):
    """Put down one's card in a slap game (the seat to move), as card number ``card``."""

    type: Literal["put"]
    card: int | None = Field(default=None, ge=1, le=_MAX_BATTLE)


class SlapPile(_Message):
    """Slap a slap game's pile, naming the top card the page showed (0: none yet)."""

    type: Literal["slap"]
    pile: int = Field(ge=0, le=_MAX_BATTLE)


class Auto(_Message):
    """Switch auto-flip on or off."""

    type: Literal["auto"]
    on: bool


class Start(_Message):
    """Start the game (creator only)."""

    type: Literal["start"]


class HandOver(_Message):
    """Let the computer play for a seat whose player is gone (creator only)."""

    type: Literal["hand_over"]
    seat: int = Field(ge=0, le=3)


class React(_Message):
    """Show a preset reaction (a key, never text) to everyone at the table, briefly."""

    type: Literal["react"]
    key: ReactionKey


class SetPace(_Message):
    """Choose one's pace of automatic flips: slow, normal or fast."""

    type: Literal["pace"]
    pace: Pace


class Skip(_Message):
    """Fast-forward to the result: a player who is out, while nobody in play flips
    by hand; or a player in play whose every other seat in play is a computer's
    or away (``not_alone`` otherwise)."""

    type: Literal["skip"]


class Leave(_Message):
    """Leave the table: the computer plays one's seat to the end."""

    type: Literal["leave"]


class Ping(_Message):
    """Is the server there? Answered with ``pong``."""

    type: Literal["ping"]


class Pong(_Message):
    """The answer to the server's heartbeat, echoing its `id` when it has one (at once:
    the round trip measures the latency slaps are judged with)."""

    type: Literal["pong"]
    id: int | None = Field(default=None, ge=1, le=_MAX_PING)


Parsed = (Flip | Put | SlapPile | Auto | SetPace | Skip | Leave | Start | HandOver | React
          | Ping | Pong)
ClientMessage = Annotated[Parsed,
                          Field(discriminator="type")]
_ADAPTER: TypeAdapter[ClientMessage] = TypeAdapter(ClientMessage)


class ProtocolError(ValueError):
    """A message that is not valid; ``code`` is always ``"bad_message"``."""

    code = "bad_message"


def parse_message(raw: str | bytes | None) -> Parsed:
    """Validate one message from a browser.

    Args:
        raw: the frame's text (a binary frame or None is refused).

    Returns:
        The message model.

    Raises:
        ProtocolError: not text, longer than :data:`MAX_MESSAGE` bytes, not
            JSON, or not exactly one of the shapes in the module docstring.
    """
    if not isinstance(raw, str) or len(raw) > MAX_MESSAGE or len(raw.encode("utf-8")) > MAX_MESSAGE:
        raise ProtocolError("bad_message")
    try:
        data = orjson.loads(raw)
    except (orjson.JSONDecodeError, RecursionError):
        raise ProtocolError("bad_message") from None
    flip = _plain_flip(data)
    if flip is not None:
        return flip
    try:
        return _ADAPTER.validate_python(data)
    except (ValueError, ValidationError, RecursionError):
        raise ProtocolError("bad_message") from None


def _plain_flip(data: object) -> Flip | None:
    """The common flip, ``{"type": "flip", "battle": N}`` with a valid N, checked by hand.

    Exactly what :class:`Flip` accepts (a strict int in range, no other key),
    without pydantic's cost on the hottest message; anything else (None)
    goes through the full validation.
    """
    if type(data) is not dict or len(data) != 2 or data.get("type") != "flip":
        return None
    battle = data.get("battle")
    if type(battle) is not int or not 1 <= battle <= _MAX_BATTLE:
        return None
    return Flip.model_construct(type="flip", battle=battle)

"""Nicknames: what a player is called at a table."""

from __future__ import annotations

import unicodedata

MAX_NICKNAME = 24
_BANNED_CATEGORIES = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}


class NicknameError(ValueError):
    """A nickname that cannot be used; ``code`` is ``"empty"``, ``"long"`` or ``"bad_char"``."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


def clean_nickname(raw: str) -> str:
    """Return ``raw`` NFC-normalised and trimmed, 1-24 characters.

    Whitespace runs are kept as typed except at the ends; any control,
    format (invisible) or unassigned character is refused.

    Raises:
        NicknameError: empty after trimming, longer than 24 characters, or
            holding a control/format character.
    """
    text = unicodedata.normalize("NFC", raw).strip()
    if not text:
        raise NicknameError("empty")
    if len(text) > MAX_NICKNAME:
        raise NicknameError("long")
    if any(unicodedata.category(ch) in _BANNED_CATEGORIES for ch in text):
        raise NicknameError("bad_char")
    return text

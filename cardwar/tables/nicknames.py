"""Nicknames: what a player is called at a table."""

from __future__ import annotations

import unicodedata

MAX_NICKNAME = 24
_BANNED_CATEGORIES = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}
#: Characters outside those categories that still render as nothing (fillers, blanks).
_INVISIBLE = frozenset({
    0x034F,  # combining grapheme joiner
    0x115F, 0x1160, 0x3164, 0xFFA0,  # Hangul fillers
    0x17B4, 0x17B5,  # Khmer inherent vowels
    0x2800,  # braille blank
})
_VISIBLE_CATEGORIES = ("L", "N", "P", "S")


class NicknameError(ValueError):
    """A nickname that cannot be used; ``code`` is ``"empty"``, ``"long"`` or ``"bad_char"``."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


def clean_nickname(raw: str) -> str:
    """Return ``raw`` NFC-normalised and trimmed, 1-24 characters.

    Whitespace runs are kept as typed except at the ends; any control,
    format (invisible), line/paragraph separator or unassigned character is
    refused, as are characters that render as nothing (Hangul fillers, the
    braille blank) and names with no visible letter, digit or symbol.

    Raises:
        NicknameError: empty after trimming, longer than 24 characters, or
            holding a control/format character.
    """
    text = unicodedata.normalize("NFC", raw).strip()
    if not text:
        raise NicknameError("empty")
    if len(text) > MAX_NICKNAME:
        raise NicknameError("long")
    if any(unicodedata.category(ch) in _BANNED_CATEGORIES or ord(ch) in _INVISIBLE
           for ch in text):
        raise NicknameError("bad_char")
    if not any(unicodedata.category(ch).startswith(_VISIBLE_CATEGORIES) for ch in text):
        raise NicknameError("bad_char")  # only marks or spaces: nothing to see
    return text


def same_name(a: str, b: str) -> bool:
    """True when nicknames ``a`` and ``b`` would be mistaken for each other:
    equal after NFC, trimming and case folding."""
    def key(text: str) -> str:
        return unicodedata.normalize("NFC", unicodedata.normalize("NFC", text).strip().casefold())
    return key(a) == key(b)

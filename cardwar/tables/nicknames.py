"""Nicknames: what a player is called at a table."""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from functools import cache

from cardwar.catalogs import in_every_locale

#: Most visible characters (grapheme clusters: :func:`visible_length`) of a nickname.
MAX_NICKNAME = 24
#: Most code points of a nickname (the store's column holds 64): seven families
#: of four (seven code points each) fit, a flood of combining marks does not.
MAX_NICKNAME_CODE_POINTS = 64
_BANNED_CATEGORIES = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}
#: Characters outside those categories that still render as nothing (fillers, blanks).
_INVISIBLE = frozenset({
    0x034F,  # combining grapheme joiner
    0x115F, 0x1160, 0x3164, 0xFFA0,  # Hangul fillers
    0x17B4, 0x17B5,  # Khmer inherent vowels
    0x2800,  # braille blank
})
_VISIBLE_CATEGORIES = ("L", "N", "P", "S")
# Emoji: a ZWJ joins two pictographs, a variation selector follows one (or a keycap's base)
_ZWJ = "\u200d"
_EMOJI_VS = frozenset("\ufe0e\ufe0f")  # text and emoji presentation selectors
_SKIN_TONES = frozenset(map(chr, range(0x1F3FB, 0x1F400)))
_KEYCAP_BASES = frozenset("0123456789#*")
#: Emoji with a presentation selector that are not in category So (‼ ⁉ ℹ ↔ ◻ ◼ ◽ ◾ 〰 〽).
_EMOJI_NOT_SO = frozenset("\u203c\u2049\u2139\u2194\u25fb\u25fc\u25fd\u25fe\u3030\u303d")
#: The msgid (``play`` catalogs) of a computer seat's label, e.g. "Computer 2".
COMPUTER_LABEL = "Computer {n}"


class NicknameError(ValueError):
    """A nickname that cannot be used; ``code`` is ``"empty"``, ``"long"``,
    ``"bad_char"`` or ``"computer"`` (a computer seat's label)."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


def _pictograph(ch: str) -> bool:
    return unicodedata.category(ch) == "So" or ch in _EMOJI_NOT_SO


def _invisible(text: str, i: int) -> bool:
    """True when ``text[i]`` is refused as invisible: a control, format or
    unassigned character, a blank, or a variation selector, except a ZWJ
    between two emoji and U+FE0E/U+FE0F right after a pictograph or a keycap's base."""
    ch = text[i]
    if ch == _ZWJ:  # after a pictograph (and its selector or skin tone), before another
        k = i - 1
        if k > 0 and (text[k] in _EMOJI_VS or text[k] in _SKIN_TONES):
            k -= 1
        return not (k >= 0 and _pictograph(text[k])
                    and i + 1 < len(text) and _pictograph(text[i + 1]))
    if ch in _EMOJI_VS:
        return not (i > 0 and (_pictograph(text[i - 1]) or text[i - 1] in _KEYCAP_BASES))
    code = ord(ch)
    return (unicodedata.category(ch) in _BANNED_CATEGORIES or code in _INVISIBLE
            or 0xFE00 <= code <= 0xFE0F or 0xE0100 <= code <= 0xE01EF)  # other selectors


@cache
def computer_labels(
    translated: Callable[[str], set[str]] = in_every_locale,
) -> tuple[str, ...]:
    """The labels of computer seats 1-4 in every language of the site.

    Args:
        translated: gives a msgid in every language (the seam to the
            catalogs: :func:`cardwar.catalogs.in_every_locale`).

    Returns:
        e.g. ``("Computer 1", ..., "Komputer 4", ...)`` (a language without
        a catalog shows the English label).
    """
    patterns = translated(COMPUTER_LABEL) | {COMPUTER_LABEL}
    return tuple(p.format(n=n) for p in sorted(patterns) for n in range(1, 5))


def visible_length(text: str) -> int:
    """How many characters ``text`` shows (grapheme clusters, Unicode UAX #29, for
    the characters a nickname may hold): a combining mark (category M), a
    variation selector or a skin tone belongs to the character before it, a
    pictograph after U+200D ZERO WIDTH JOINER to the sequence it joins (the
    family 👨‍👩‍👧‍👦 is one), and two regional indicators make one flag.
    A browser's ``Intl.Segmenter`` counts the same (the page checks as it is typed)."""
    count, joined, flag = 0, False, False
    for ch in text:
        code = ord(ch)
        regional = 0x1F1E6 <= code <= 0x1F1FF
        if ch == _ZWJ:
            joined = True
            continue
        attached = (unicodedata.category(ch).startswith("M") or ch in _EMOJI_VS
                    or ch in _SKIN_TONES or 0xFE00 <= code <= 0xFE0F or (regional and flag))
        if not attached and not (joined and _pictograph(ch)):
            count += 1
        flag = regional and not flag
        joined = False
    return count


def clean_nickname(raw: str) -> str:
    """Return ``raw`` NFC-normalised and trimmed, 1-24 visible characters
    (:func:`visible_length`) and at most 64 code points.

    Every run of whitespace (also no-break and ideographic spaces) becomes one
    space, as a browser shows it; any control,
    format (invisible), line/paragraph separator or unassigned character is
    refused, as are characters that render as nothing (Hangul fillers, the
    braille blank, variation selectors) and names with no visible letter,
    digit or symbol. Emoji sequences are allowed: U+200D ZERO WIDTH JOINER
    between two pictographs (category So; the first may carry a variation
    selector or a skin tone: the family, the rainbow flag) and U+FE0E/U+FE0F
    right after a pictograph or a keycap's 0-9, # or * (keycap one). A
    computer seat's label in any language ("Computer 2", "Komputer 3") is
    refused, compared like :func:`same_name`.

    Raises:
        NicknameError: ``empty`` after trimming, ``long`` over 24 visible
            characters or 64 code points,
            ``bad_char`` for an invisible character, ``computer`` for a
            computer seat's label.
    """
    text = _one_space(unicodedata.normalize("NFC", raw)).strip()
    if not text:
        raise NicknameError("empty")
    if len(text) > MAX_NICKNAME_CODE_POINTS or visible_length(text) > MAX_NICKNAME:
        raise NicknameError("long")
    if any(_invisible(text, i) for i in range(len(text))):
        raise NicknameError("bad_char")
    if not any(unicodedata.category(ch).startswith(_VISIBLE_CATEGORIES) for ch in text):
        raise NicknameError("bad_char")  # only marks or spaces: nothing to see
    if any(same_name(text, label) for label in computer_labels()):
        raise NicknameError("computer")
    return text


def same_name(a: str, b: str) -> bool:
    """True when nicknames ``a`` and ``b`` would be mistaken for each other:
    equal after compatibility normalisation (NFKC: full-width "Ｃｏｍ２" reads
    "Com2"), case folding and collapsing whitespace runs into one space."""
    def key(text: str) -> str:
        folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", text).casefold())
        return _one_space(folded).strip()
    return key(a) == key(b)


def _one_space(text: str) -> str:
    """``text`` with every run of space separators (category Zs: no-break,
    ideographic, doubled spaces) as one ASCII space, as a browser shows it.
    Line breaks and tabs are left for the caller to refuse."""
    out: list[str] = []
    for ch in text:
        if unicodedata.category(ch) == "Zs":
            if not out or out[-1] != " ":
                out.append(" ")
        else:
            out.append(ch)
    return "".join(out)

"""Nickname rules: emoji sequences, invisible characters, the length, computer labels."""

from __future__ import annotations

import pytest

from cardwar.tables import MAX_NICKNAME, NicknameError, clean_nickname
from cardwar.tables.nicknames import (
    MAX_NICKNAME_CODE_POINTS,
    computer_labels,
    same_name,
    visible_length,
)

FAMILY = "\U0001f468\u200d\U0001f469\u200d\U0001f467\u200d\U0001f466"  # one visible emoji
RAINBOW_FLAG = "\U0001f3f3\ufe0f\u200d\U0001f308"


@pytest.mark.parametrize("name", [
    FAMILY, RAINBOW_FLAG, "Zo\u00eb \u2764\ufe0f",
    "\U0001f469\U0001f3fd\u200d\U0001f4bb",           # woman technologist, a skin tone
    "\u2764\ufe0f\u200d\U0001f525",                    # heart on fire
    "\U0001f3c3\u200d\u2640\ufe0f",                    # woman running
    "\U0001f441\ufe0f\u200d\U0001f5e8\ufe0f",          # eye in speech bubble
    "1\ufe0f\u20e3 #\ufe0f\u20e3 *\ufe0f\u20e3",       # keycaps
    "\u203c\ufe0f \u2139\ufe0f \u2194\ufe0e",          # emoji outside category So
    "\u263a\ufe0e Ann",                                # text presentation
])
def test_emoji_sequences_are_nicknames(name):
    assert clean_nickname(f"  {name}  ") == name


@pytest.mark.parametrize("raw", [
    "a\u200db",            # a joiner between letters
    "\u200d",              # a lone joiner
    "Ann\u200d",           # at the end
    "\u200d\U0001f600",    # at the start
    "\U0001f600\u200d",    # after an emoji, before nothing
    "\U0001f600\u200dB",   # before a letter
    "A\u200d\U0001f600",   # after a letter
    "\U0001f600\u200d\u200d\U0001f600",
    "\U0001f600\U0001f3fb\ufe0f\u200d\U0001f600",  # a selector after a skin tone
    "Ann\ufe0f", "\ufe0fAnn", "\U0001f600\ufe0f\ufe0f", "1\ufe0f\ufe0f\u20e3",
    "Ann\ufe00", "\u845b\U000e0100",  # other variation selectors
    "a\u200cb", "\u202eevil", "\u2066Ann\u2069", "\U000e0041nn",  # non-joiner, bidi, tag
])
def test_invisible_characters_outside_emoji_are_refused(raw):
    with pytest.raises(NicknameError) as err:
        clean_nickname(raw)
    assert err.value.code == "bad_char"


def test_the_limit_counts_visible_characters_and_bounds_code_points():
    assert len(FAMILY) == 7
    assert len(RAINBOW_FLAG) == 4
    assert visible_length(FAMILY) == visible_length(RAINBOW_FLAG) == 1
    assert clean_nickname(FAMILY * 7) == FAMILY * 7  # seven visible characters, 49 code points
    assert clean_nickname(FAMILY + " " + "x" * 22) == FAMILY + " " + "x" * 22  # 24 shown
    assert clean_nickname(RAINBOW_FLAG * 16) == RAINBOW_FLAG * 16  # 16 shown, 64 code points
    for long in (FAMILY + " " + "x" * 23,  # 25 shown
                 "x" * 25, RAINBOW_FLAG * 17):  # 17 shown but 68 code points: over 64
        with pytest.raises(NicknameError) as err:
            clean_nickname(long)
        assert err.value.code == "long"
    assert MAX_NICKNAME == 24
    assert MAX_NICKNAME_CODE_POINTS == 64


@pytest.mark.parametrize(("text", "shown"), [
    ("Zoë", 3), ("Zoe\u0308", 3),  # a combining diaeresis belongs to its letter
    ("\U0001F1EE\U0001F1F9\U0001F1F5\U0001F1F1", 2),  # two flags: four regional indicators
    ("\U0001F44D\U0001F3FD", 1),  # thumbs up with a skin tone
    ("1\ufe0f\u20e3", 1),  # keycap one
    ("\u2764\ufe0f x", 3),  # a heart with its emoji selector, a space, a letter
    ("\U0001F468\u200d\U0001F469\u200d\U0001F467\u200d\U0001F466 Ann", 5),
])
def test_visible_length_counts_what_a_browser_shows(text, shown):
    assert visible_length(text) == shown


def test_computer_labels_of_every_language_are_refused():
    labels = computer_labels()
    for label in ("Computer 1", "Computer 4", "Komputer 2", "Ordenador 3",
                  "Po\u010d\u00edta\u010d 4"):
        assert label in labels
    for raw in ("Computer 2", " computer 3 ", "KOMPUTER 1", "ordenador 4",
                "Poc\u030cI\u0301tac\u030c 2"):  # decomposed, upper case
        with pytest.raises(NicknameError) as err:
            clean_nickname(raw)
        assert err.value.code == "computer", raw
    for ok in ("Computer 5", "Computer", "Computer 22", "My Computer 2", "Player 2"):
        assert clean_nickname(ok) == ok
    assert all(not same_name(label, "Computer 0") for label in labels)


def test_look_alike_spaces_and_widths_are_the_same_name():
    assert clean_nickname("Bob\u00a0\u00a0Smith") == "Bob Smith"  # shown as one space anyway
    assert clean_nickname("Ann\u3000Lee ") == "Ann Lee"
    for a, b in (("Bob Smith", "Bob\u00a0Smith"), ("Bob Smith", "bob  smith"),
                 ("Bob", "\uff22\uff4f\uff42"), ("Ann 2", "ann \uff12")):
        assert same_name(a, b), (a, b)
    assert not same_name("Bob Smith", "BobSmith")
    for raw in ("Computer\u00a02", "Computer  2", "Computer \uff12", "\uff23omputer 2"):
        with pytest.raises(NicknameError) as refused:
            clean_nickname(raw)
        assert refused.value.code == "computer", raw
    for raw in ("a\nb", "a\tb", "a\u2028b"):  # line breaks and tabs stay refused
        with pytest.raises(NicknameError):
            clean_nickname(raw)

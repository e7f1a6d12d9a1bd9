"""Words players read while they play (issue 22, item 6): slips a native
speaker found in the ``play`` catalogs, guarded so they do not come back.

* On a card site a *seed* must not be translated by a card word: Italian
  *seme* is a suit.
* "Seed" is a developer's word: it stays out of what players read during the
  game, except beside the end's command line that names it (``--seed``).
* Polish "ready" is said while the card is still face down: it is *laid
  down*, not *turned up* ("odkryta").
* Ukrainian placings are told after the fact: not in the present tense
  ("вибуває"), and no half-translated "Зерно (seed)".
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from cardwar.web.i18n import LOCALES

LOCALE_DIR = Path(__file__).resolve().parents[2] / "cardwar" / "locales"
#: The only player-facing strings that may say "seed": the end screen's deal check.
SEED_ALLOWED = {"The seed of this deal:"}


def _play(locale: str) -> dict[str, str]:
    """msgid -> msgstr (the first form of a plural) of ``locale``'s ``play`` catalog."""
    with (LOCALE_DIR / locale.replace("-", "_") / "LC_MESSAGES" / "play.po").open("rb") as fh:
        catalog = read_po(fh)
    out = {}
    for m in catalog:
        if not m.id:
            continue
        mid = m.id[0] if isinstance(m.id, tuple) else m.id
        out[mid] = m.string[0] if isinstance(m.string, tuple) else m.string
    return out


def test_italian_never_calls_a_seed_a_suit():
    found = {k: v for k, v in _play("it").items() if re.search(r"\bsem[ei]\b", v, re.I)}
    assert found == {}


def test_seed_stays_out_of_what_players_read_during_the_game():
    said = {k for k in _play("en") if re.search(r"\bseed\b", k, re.I)}
    assert said <= SEED_ALLOWED, said - SEED_ALLOWED


@pytest.mark.parametrize("locale", [loc for loc in LOCALES if loc != "en"])
def test_the_seat_drawing_is_said_in_plain_words(locale):
    words = _play(locale)
    drawn = [v for k, v in words.items() if k.startswith(("Seats drawn", "When the game starts"))]
    assert len(drawn) == 2
    assert all(drawn)  # translated
    for text in drawn:
        assert "seed" not in text.lower()


def test_polish_ready_does_not_say_the_hidden_card_is_turned_up():
    assert "odkryt" not in _play("pl")["ready"]


def test_ukrainian_placings_are_told_in_the_past_and_seed_is_translated():
    words = _play("uk")
    assert "вибуває" not in words["{name} went out in battle {n}."]
    assert not [v for v in words.values() if "Зерно" in v or "зерно" in v]


@pytest.mark.parametrize("locale", [loc for loc in LOCALES if loc != "en"])
def test_the_deal_check_names_the_seed_in_plain_words(locale):
    said = _play(locale)["The seed of this deal:"]
    assert said
    assert "(seed)" not in said
    assert not re.search(r"\bseed\b", said, re.I)

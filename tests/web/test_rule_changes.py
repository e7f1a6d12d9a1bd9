"""The rule-changes table is built from variant data, not per variant."""

from __future__ import annotations

import dataclasses

from cardwar.engine import PEACE, STANDARD, WAR
from cardwar.web.i18n import current_locale
from cardwar.web.pages import rule_changes


def test_peace_against_standard_war_in_english():
    rows = rule_changes(PEACE, "en")
    assert [r.label for r in rows] == [
        "Who wins a battle", "A tie", "Face-down cards before the deciding card",
        "Very long games", "Other options",
    ]
    assert "lowest" in rows[0].variant
    assert "highest" in rows[0].standard
    assert rows[1].variant.startswith("Peace:")
    assert rows[1].standard.startswith("War:")
    assert "5 cards" in rows[2].variant
    assert "P-E-A-C-E" in rows[2].variant
    assert "3 cards" in rows[2].standard
    assert "1 face-down card" in rows[2].standard
    assert "1,000 battles" in rows[3].variant
    assert "No limit" in rows[3].standard
    assert "does not apply" in rows[4].variant


def test_a_new_variant_gets_its_table_for_free():
    quick = dataclasses.replace(WAR, name="quick", face_down=1, face_down_options=(1,),
                                battle_limit=200, players=(2,), cycle_draw=False)
    rows = rule_changes(quick, "en")
    assert "1 card from each player." in rows[2].variant
    assert "200 battles" in rows[3].variant
    assert rows[4].variant.startswith("For 2 players")


def test_the_table_speaks_the_locale():
    rows = rule_changes(PEACE, "pl")
    assert current_locale.get() == "en", "rule_changes must restore the locale"
    assert rows[0].label == "Kto wygrywa bitwę"
    assert "5 kart" in rows[2].variant
    assert "pokój" in rows[2].variant
    assert "1000 bitwach" in rows[3].variant
    assert STANDARD is WAR

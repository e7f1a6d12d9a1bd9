"""PROTOCOL.md is current, and every message and error a page receives is handled."""

from __future__ import annotations

import re

import pytest

from cardwar.tables.errors import SERVER_ONLY_ERRORS, ErrorCode
from cardwar.tables.events import EVENTS
from cardwar.web import events_js, protocol_doc
from cardwar.web.i18n import LOCALES
from cardwar.web.strings import client_strings
from cardwar.web.templating import STATIC_DIR


def test_protocol_md_is_generated_from_the_registries():
    assert protocol_doc.PROTOCOL_PATH.read_text(encoding="utf-8") == protocol_doc.render(), (
        "PROTOCOL.md is stale: run `python -m cardwar.web.protocol_doc`")


@pytest.mark.parametrize("locale", LOCALES)
def test_every_error_a_page_can_receive_is_worded(locale):
    errors = client_strings(locale)["errors"]
    sent = {c.value for c in ErrorCode if c not in SERVER_ONLY_ERRORS}
    assert sent <= set(errors), sent - set(errors)
    assert all(errors[c] for c in sent)


def test_every_message_type_is_handled_by_the_game_script():
    script = "\n".join(p.read_text(encoding="utf-8")
                       for p in sorted((STATIC_DIR / "play").glob("**/*.js")))
    quoted = set(re.findall(r"""["']([a-z_]+)["']""", script))
    missing = {kind for kind, spec in EVENTS.items() if spec.handled and kind not in quoted}
    assert not missing, f"message types the page scripts never mention: {missing}"


def test_the_pages_message_types_are_generated_from_the_registry():
    assert events_js.EVENTS_JS_PATH.read_text(encoding="utf-8") == events_js.render(), (
        "static/play/events.js is stale: run `python -m cardwar.web.events_js`")

"""The game page in French and Brazilian Portuguese, in real Chromium: the
browser's own CLDR numbers and plurals (0 is singular in both), the tie
word kept as P-E-A-C-E, the end screen."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from .helpers import battles, game_ended, next_battle_or_end, open_page, start_play_server

pytestmark = [pytest.mark.browser, pytest.mark.timeout(180)]

CASES = {
    "fr": {"browser": "fr-FR", "create": "Créer la partie", "start": "Lancer la partie",
           "battle": "Tour 1 sur 1\u202f000", "help": "60 secondes",
           "win": "Ann gagne la partie\u202f!", "none": "0 carte", "all": "16 cartes"},
    "pt-BR": {"browser": "pt-BR", "create": "Criar a partida", "start": "Começar a partida",
              "battle": "Rodada 1 de 1.000", "help": "60 segundos",
              "win": "Ann ganha a partida!", "none": "0 carta", "all": "16 cartas"},
}


@pytest.fixture(scope="module")
def stacked_server(server_factory, tmp_path_factory) -> str:
    return start_play_server(server_factory, tmp_path_factory, "languages")


@pytest.mark.parametrize("locale", sorted(CASES))
def test_a_game_of_peace_in_the_language(browser, stacked_server, locale):
    want = CASES[locale]
    ctx, a = open_page(browser, locale=want["browser"])
    try:
        a.goto(f"{stacked_server}/{locale}/peace")
        assert a.locator("html").get_attribute("lang") == locale
        form = a.locator("form.start-form")
        form.locator('select[name="seat1"]').select_option("computer")
        form.locator('input[name="nickname"]').fill("Ann")
        form.get_by_role("button", name=want["create"]).click()
        a.wait_for_url(re.compile(rf".*/{locale}/g/[A-Za-z0-9_-]{{16}}$"))
        expect(a.locator("#table")).to_be_visible()  # against the computer: no lobby
        expect(a.locator("#battle-number")).to_have_text(want["battle"])
        assert want["help"] in a.locator("#flip-help").inner_text()
        letters: list[str] = []
        for _ in range(10):
            if game_ended(a):
                break
            before = battles(a)
            a.locator("#my-pile").click()
            next_battle_or_end(a, before)
            letters = letters or a.locator(".tseat[data-seat='0'] .pcard__letter").all_inner_texts()
        expect(a.locator("#end")).to_be_visible()
        assert letters == list("PEACE")
        end = a.locator("#end").inner_text()
        assert want["win"] in end
        assert want["all"] in end
        # the winner's pile and the empty one: 0 takes the singular ("one")
        assert a.locator(".pile__count").all_inner_texts() == [want["all"], want["none"]]
    finally:
        ctx.close()

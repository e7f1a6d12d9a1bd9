"""The Peace page states every fact of the original seed pages, per locale.

Each fact is checked by a few words the page must contain in that
language (our own wording, not the seeds').
"""

from __future__ import annotations

import pytest

from cardwar.web.i18n import LOCALES

# fact -> words per locale (all must appear on /{locale}/peace)
FACTS: dict[str, dict[str, tuple[str, ...]]] = {
    "label": {"en": ("War variant",), "it": ("Variante della Guerra",),
              "de": ("Krieg-Variante",), "es": ("Variante de la Guerra",),
              "pl": ("Odmiana Wojny",), "cs": ("Varianta Války",),
              "fr": ("Variante de la Bataille",),
              "pt-BR": ("Variante da Guerra",),
              "nl": ("Variant van Oorlogje",), "uk": ("Варіант Війни",)},
    "lowest wins, 2 best, ace worst": {
        "en": ("lowest card", "2s are the best cards and aces the worst"),
        "it": ("carta più bassa", "i 2 sono le carte migliori e gli assi le peggiori"),
        "de": ("niedrigste Karte", "Zweien sind die besten Karten und Asse die schlechtesten"),
        "es": ("carta más baja", "los doses son las mejores cartas y los ases las peores"),
        "pl": ("najniższa karta", "dwójki są najlepsze, a asy najgorsze"),
        "cs": ("nejnižší karta", "dvojky jsou nejlepší karty a esa nejhorší"),
        "fr": ("carte la plus basse", "les 2 sont les meilleures cartes et les as les pires"),
        "pt-BR": ("carta mais baixa", "o 2 é a melhor carta e o ás, a pior"),
        "nl": ("laagste kaart", "tweeën zijn de beste kaarten en azen de slechtste"),
        "uk": ("найменша карта", "двійки — найкращі карти, а тузи — найгірші")},
    "suits do not count": {"en": ("Suits still make no difference",),
                           "it": ("I semi continuano a non contare",),
                           "de": ("Farben spielen weiterhin keine Rolle",),
                           "es": ("Los palos siguen sin importar",),
                           "pl": ("Kolory nadal nie mają znaczenia",),
                           "cs": ("Na barvách pořád nezáleží",),
                           "fr": ("Les couleurs ne comptent toujours pas",),
                           "pt-BR": ("Os naipes continuam não fazendo diferença",),
                           "nl": ("De kleur maakt nog steeds niets uit",),
                           "uk": ("Масті й далі нічого не важать",)},
    "five face-down cards, one per letter": {
        "en": ("P-E-A-C-E", "five cards face down"), "it": ("P-E-A-C-E", "cinque carte coperte"),
        "de": ("P-E-A-C-E", "fünf Karten verdeckt"), "es": ("P-E-A-C-E", "cinco cartas boca abajo"),
        "pl": ("P-O-K-Ó-J", "P-E-A-C-E", "pięć kart zakrytych", "pokój też ma pięć liter"),
        "cs": ("P-E-A-C-E", "pět karet lícem dolů"),
        "fr": ("P-E-A-C-E", "cinq cartes face cachée", "«\u00a0paix\u00a0» en anglais"),
        "pt-BR": ("P-E-A-C-E", "cinco cartas viradas para baixo", "“paz” em inglês"),
        "nl": ("P-E-A-C-E", "V-R-E-D-E", "vijf kaarten gesloten", "ook vrede heeft vijf letters"),
        "uk": ("P-E-A-C-E", "п’ять карт сорочкою догори", "«мир» має лише три літери")},
    "another tie, another peace": {"en": ("another peace begins",),
                                   "it": ("comincia un'altra pace",),
                                   "de": ("beginnt ein weiterer Frieden",),
                                   "es": ("empieza otra paz",),
                                   "pl": ("kolejny remis zaczyna kolejny pokój",),
                                   "cs": ("začíná další mír",),
                                   "fr": ("une autre paix commence",),
                                   "pt-BR": ("começa outra paz",),
                                   "nl": ("begint er nog een vrede",),
                                   "uk": ("починається ще один мир",)},
    "short of cards": {"en": ("puts down what they can and turns up their last card",),
                       "it": ("mette giù quelle che può e scopre la sua ultima carta",),
                       "de": ("legt ab, was er kann, und deckt seine letzte Karte auf",),
                       "es": ("pone las que puede y voltea la última",),
                       "pl": ("kładzie tyle, ile może, i odkrywa swoją ostatnią kartę",),
                       "cs": ("položí, co může, a otočí svou poslední kartu",),
                       "fr": ("pose ce qu'il peut et retourne sa dernière carte",),
                       "pt-BR": ("coloca as que puder e vira a última",),
                       "nl": ("legt neer wat hij kan en draait zijn laatste kaart om",),
                       "uk": ("кладе скільки може і відкриває свою останню карту",)},
    "draw after 1000 battles": {"en": ("1,000 battles",), "it": ("1.000 battaglie",),
                                "de": ("1.000 Schlachten",), "es": ("1000 batallas",),
                                "pl": ("1000 bitwach",), "cs": ("1\u00a0000 bitvách",),
                                "fr": ("1\u202f000 tours",),
                                "pt-BR": ("1.000 rodadas",),
                                "nl": ("1.000 slagen",), "uk": ("1\u00a0000 боїв",)},
    "2, 3 or 4 players; everyone joins": {
        "en": ("2, 3, or 4 players", "every player still in play"),
        "it": ("2, 3 o 4 giocatori", "tutti quelli ancora in gioco"),
        "de": ("2, 3 oder 4 Spieler", "alle noch beteiligten Spieler"),
        "es": ("2, 3 o 4 jugadores", "todos los que siguen en la partida"),
        "pl": ("2, 3 lub 4 graczy", "każdego, kto jest jeszcze w grze"),
        "cs": ("2, 3 nebo 4 hráče", "všechny, kdo jsou ještě ve hře"),
        "fr": ("2, 3 ou 4 joueurs", "tous les joueurs encore en jeu"),
        "pt-BR": ("2, 3 ou 4 jogadores", "todos os jogadores que ainda estão no jogo"),
        "nl": ("2, 3 of 4 spelers", "iedereen die nog meedoet"),
        "uk": ("2, 3 або 4 гравців", "усі, хто ще в грі")},
    "one-card option does not apply": {
        "en": ("option of 1 face-down card does not apply",),
        "it": ("con 1 carta coperta qui non vale",),
        "de": ("mit 1 verdeckten Karte gilt hier nicht",),
        "es": ("de 1 carta boca abajo no se aplica",),
        "pl": ("Opcja 1 zakrytej karty",),
        "cs": ("s 1 kartou lícem dolů zde neplatí",),
        "fr": ("à 1 carte face cachée ne s'applique pas ici",),
        "pt-BR": ("de 1 carta virada para baixo não vale aqui",),
        "nl": ("met 1 gesloten kaart geldt hier niet",), "uk": ("з 1 закритою картою тут не діє",)},
    "war: highest card, three face down, two players by default": {
        "en": ("aces are high", "3 cards from each player", "2 by default"),
        "it": ("l'asso è alto", "3 carte per giocatore", "2 se non si sceglie altro"),
        "de": ("Asse sind hoch", "3 Karten von jedem Spieler", "standardmäßig 2"),
        "es": ("el as es alto", "3 cartas de cada jugador", "2 por defecto"),
        "pl": ("asy są najwyższe", "3 karty od każdego gracza", "domyślnie 2"),
        "cs": ("esa jsou nejvyšší", "3 karty od každého hráče", "výchozí počet je 2"),
        "fr": ("l'as est la plus forte", "3 cartes de chaque joueur", "2 par défaut"),
        "pt-BR": ("o ás é a mais alta", "3 cartas de cada jogador", "2 por padrão"),
        "nl": ("azen zijn hoog", "3 kaarten van elke speler", "standaard 2"),
        "uk": ("тузи старші за все", "По 3 карти від кожного гравця", "типово 2")},
    "history: listed as a War variant": {
        "en": ("Collections of War variants",), "it": ("raccolte di varianti della Guerra",),
        "de": ("Sammlungen von Krieg-Varianten",), "es": ("variantes de la Guerra",),
        "pl": ("Zbiory odmian Wojny",), "cs": ("Sbírky variant Války",),
        "fr": ("recueils de variantes de la Bataille",),
        "pt-BR": ("coletâneas de variantes da Guerra",),
        "nl": ("Verzamelingen van Oorlogje-varianten",), "uk": ("Збірки варіантів Війни",)},
    "history: passed on by word of mouth, ties vary by source": {
        "en": ("word of mouth", "from one source to the next"),
        "it": ("di bocca in bocca", "da una fonte all'altra"),
        "de": ("mündlich weitergegeben", "von Quelle zu Quelle"),
        "es": ("de boca en boca", "de una fuente a otra"),
        "pl": ("z ust do ust", "w zależności od źródła"),
        "cs": ("předávaná ústně", "zdroj od zdroje"),
        "fr": ("de bouche à oreille", "d'une source à l'autre"),
        "pt-BR": ("de boca em boca", "de uma fonte para outra"),
        "nl": ("van mond tot mond", "van bron tot bron"),
        "uk": ("з вуст в уста", "від джерела до джерела")},
}


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("fact", sorted(FACTS))
def test_peace_page_states_the_seed_fact(client, locale, fact):
    html = client.get(f"/{locale}/peace").text.replace("&#39;", "'")
    for words in FACTS[fact][locale]:
        assert words in html, f"{locale}: {fact!r} needs {words!r}"

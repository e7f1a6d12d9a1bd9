"""``cardwar play`` and ``simulate`` for the slap games (RULES.md 11): Egyptian
Ratscrew (``--variant ers``) and Slapjack (``--variant slapjack``).

The table's options: ``--no-sandwich``, ``--marriage``, ``--top-bottom``,
``--burn 2`` (Egyptian Ratscrew only) and ``--no-slap-in``. The slaps:
``--slaps "STEP:SEAT,…"`` in the order decided (RULES.md 11.9; ``""``: none),
or, without it and with ``--seed``, the computers play every seat at
``--skill`` (one skill, or one per lobby position: ``sharp,normal``).
"""

from __future__ import annotations

import argparse
from typing import Any

from .engine import (
    ERS,
    CardError,
    OptionError,
    SlapRules,
    SlapSetup,
    get_variant,
    parse_cards,
    parse_hands,
    parse_skills,
    parse_slaps,
    simulate_slaps,
    slap_json,
)

#: The options only the slap games have (their ``dest``), for the other games' refusal.
SLAP_ONLY = ("slaps", "skill", "no_sandwich", "marriage", "top_bottom", "no_slap_in", "burn")


def add_table_options(parser: argparse.ArgumentParser) -> None:
    """The slap table's options (RULES.md 11.4-11.5, 11.7), for ``play`` and ``simulate``."""
    group = parser.add_argument_group("slap games (ers, slapjack)")
    group.add_argument("--no-sandwich", action="store_true", dest="no_sandwich",
                       help="ers: a sandwich (top = third card) is not slappable")
    group.add_argument("--marriage", action="store_true",
                       help="ers: a king and a queen on top are slappable")
    group.add_argument("--top-bottom", action="store_true", dest="top_bottom",
                       help="ers: the top card matching the first face-up card is slappable")
    group.add_argument("--burn", type=int, default=None,
                       help="ers: cards a wrong slap burns, 1 (default) or 2")
    group.add_argument("--no-slap-in", action="store_true", dest="no_slap_in",
                       help="a player with no cards may not slap: out at once")
    group.add_argument("--skill", default=None,
                       help="the computers' skill, relaxed, normal (default) or sharp; "
                            "or one per lobby position: sharp,normal")


def add_slaps_option(play: argparse.ArgumentParser) -> None:
    """``play --slaps``."""
    play.add_argument("--slaps", default=None,
                      help='slap games: the slaps in the order decided, "STEP:SEAT,..." '
                           "(STEP: cards put down when SEAT slapped; RULES.md 11.9); "
                           "without it the computers play every seat of a --seed game")


def refuse_slap_options(args: argparse.Namespace) -> None:
    """Refuse a slap game's option for another game.

    Raises:
        OptionError: one of :data:`SLAP_ONLY` was given.
    """
    for dest in SLAP_ONLY:
        value = getattr(args, dest, None)
        if value not in (None, False):
            flag = "--" + dest.replace("_", "-")
            raise OptionError(f"{flag} is an option of the slap games (ers, slapjack), "
                              f"not of {args.variant}")


def rules_of(args: argparse.Namespace) -> SlapRules:
    """The table's options given on the command line (RULES.md 11.4-11.5, 11.7).

    Raises:
        OptionError: ``--face-down``, or an option the game does not have.
    """
    if args.face_down is not None:
        raise OptionError(f"--face-down is not an option of {args.variant}: it has no ties, "
                          "only the battle games lay face-down cards")
    if args.variant != ERS.name and args.burn is not None:
        raise OptionError("--burn is Egyptian Ratscrew's option: "
                          "slapjack's wrong slap gives one card")
    return SlapRules.make(args.variant, sandwich=not args.no_sandwich, marriage=args.marriage,
                          top_bottom=args.top_bottom, burn=args.burn or 1,
                          slap_in=not args.no_slap_in)


def _setup(args: argparse.Namespace, rules: SlapRules) -> SlapSetup:
    variant = get_variant(args.variant)
    if args.hands is not None:
        hands = parse_hands(args.hands)
        if args.players is not None and args.players != len(hands):
            raise OptionError(f"--players {args.players} but --hands gives {len(hands)} piles")
        return SlapSetup.from_hands(rules, hands)
    players = variant.default_players if args.players is None else args.players
    variant.check(players)
    if args.deck is not None:
        deck = parse_cards(args.deck)
        if len(deck) < players:
            raise CardError(f"--deck has {len(deck)} card{'' if len(deck) == 1 else 's'}, "
                            f"fewer than {players} players")
        return SlapSetup.from_deck(rules, players, deck)
    if args.seed is None:
        raise OptionError("give one of --seed, --deck or --hands")
    return SlapSetup.from_seed(rules, players, args.seed)


def play_record(args: argparse.Namespace) -> dict[str, Any]:
    """The ``play --json`` record of a slap game (:func:`cardwar.engine.slap_json`).

    Raises:
        OptionError, CardError, ValueError: bad options, cards, slaps or skills.
    """
    setup = _setup(args, rules_of(args))
    slaps = None if args.slaps is None else parse_slaps(args.slaps, setup.players)
    skills = None
    if args.skill is not None:
        if slaps is not None:
            raise OptionError("--skill is for the computers; with --slaps the slaps are given")
        if setup.seed is None:
            raise OptionError("the computers draw from the seed: --skill needs --seed")
        skills = parse_skills(args.skill, setup.players)
    return slap_json(setup, slaps=slaps, skills=skills, log=args.log)


def simulate_record(args: argparse.Namespace, progress: Any) -> dict[str, Any]:
    """``simulate --variant ers|slapjack``: computers at ``--skill`` in every seat.

    Raises:
        OptionError, ValueError: bad options or skills.
    """
    get_variant(args.variant).check(args.players)
    rules = rules_of(args)
    skills = parse_skills(args.skill or "normal", args.players)
    return simulate_slaps(rules, args.players, args.games, args.seed, skills, progress,
                          args.processes)

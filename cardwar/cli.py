"""The ``cardwar`` command: ``play``, ``simulate``, ``shuffle``, ``serve``, and
for self-hosters ``migrate``, ``check`` and ``static`` (:mod:`cardwar.cli_ops`).

Bad input exits with status 2 and one line on stderr naming the problem;
``check`` exits with 1 when something is wrong, and ``simulate`` of a battle
game when the install lacks the compiled core (the ``sim`` extra).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, NoReturn

from .cli_ops import OPS_COMMANDS, add_ops_parsers, overrides
from .cli_slap import (
    add_slaps_option,
    add_table_options,
    play_record,
    refuse_slap_options,
    simulate_record,
)
from .cli_text import describe, log_lines
from .engine import (
    PEACE,
    VARIANTS,
    BeggarSetup,
    Card,
    CardError,
    OptionError,
    Play,
    Setup,
    beggar_json,
    cards_text,
    commitment,
    game_json,
    get_variant,
    parse_beggar_deck,
    parse_beggar_hands,
    parse_cards,
    parse_hands,
    shuffled_deck,
    simulate,
    simulate_beggar,
)


def variant_choices() -> list[str]:
    """Every ``--variant``: the engine's :data:`~cardwar.engine.VARIANTS`
    (registered ones too), battle games (RULES.md 2) and games in turns (10)."""
    return list(VARIANTS)


class UsageError(Exception):
    """Bad command-line input; printed as one line, exit status 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise UsageError(message)


def _port(text: str) -> int:
    """A TCP port number, 1 to 65535."""
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a port number: {text!r}") from None
    if not 1 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"port must be from 1 to 65535, not {port}")
    return port


def _host(text: str) -> str:
    """An IP address or a host name that resolves."""
    import ipaddress
    import socket

    try:
        ipaddress.ip_address(text)
        return text
    except ValueError:
        pass
    if not text or (text[0].isdigit() and text.replace(".", "").isdigit()):
        raise argparse.ArgumentTypeError(f"not a valid IP address: {text!r}")
    try:
        socket.getaddrinfo(text, None)
    except (OSError, UnicodeError):
        raise argparse.ArgumentTypeError(f"unknown host: {text!r}") from None
    return text


#: Most games one ``simulate`` run plays (under a minute on one core).
MAX_SIMULATED_GAMES = 1_000_000
#: Most worker processes one ``simulate`` run starts.
MAX_SIMULATE_PROCESSES = 64


def _check_bind(host: str, port: int) -> None:
    """Raise UsageError when ``host:port`` cannot be listened on (in use, not ours)."""
    import socket

    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError):
        raise UsageError(f"unknown host: {host!r}") from None
    family, kind, proto, _, address = infos[0]
    with socket.socket(family, kind, proto) as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind(address)
        except OSError as exc:
            reason = exc.strerror or str(exc)
            raise UsageError(f"cannot listen on {host}:{port}: {reason}") from None


def _parser() -> argparse.ArgumentParser:
    p = _Parser(prog="cardwar",
                description="Play Peace (War in reverse), War, Beggar-my-neighbour, "
                            "Egyptian Ratscrew and Slapjack.")
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser)

    play = sub.add_parser("play", help="play one game and print how it went")
    play.add_argument("--variant", choices=variant_choices(), default=PEACE.name)
    play.add_argument("--players", type=int, default=None)
    src = play.add_mutually_exclusive_group()
    src.add_argument("--seed", help="shuffle with this seed (RULES.md section 9)")
    src.add_argument("--deck", help='52 or fewer cards, top first, e.g. "2C 3D ..."; '
                     'beggar also takes a whole pack in notation, 52 of "-JQKA"')
    src.add_argument("--hands", help='each seat\'s pile, top first: "2C 5D / 9H 3S"; '
                     'beggar also takes the records\' notation, "-JQKA", any length: '
                     '"--J- / K-J-"')
    play.add_argument("--face-down", type=int, default=None, dest="face_down")
    play.add_argument("--log", action="store_true",
                      help="include every battle (beggar: every trick; ers, slapjack: "
                           "every card, slap and taking)")
    play.add_argument("--json", action="store_true", help="print one JSON object")
    add_slaps_option(play)
    add_table_options(play)
    p.set_defaults(play_options={o for a in play._actions for o in a.option_strings})

    sim = sub.add_parser("simulate", help="play many seeded games and print statistics")
    sim.add_argument("--variant", choices=variant_choices(), default=PEACE.name)
    sim.add_argument("--players", type=int, default=2)
    sim.add_argument("--games", type=int, required=True)
    sim.add_argument("--seed", default="sim")
    sim.add_argument("--face-down", type=int, default=None, dest="face_down")
    sim.add_argument("--processes", type=int, default=1,
                     help="spread the games over this many processes (same results)")
    add_table_options(sim)

    shuf = sub.add_parser("shuffle", help="print the commitment and the deck for a seed")
    shuf.add_argument("--seed", required=True)

    serve = sub.add_parser(
        "serve", help="start the web site",
        epilog="Every setting in cardwar/settings.py is also a CARDWAR_<NAME> environment "
               "variable or a line of --env-file (the environment wins), for example "
               "CARDWAR_REDIS_PREFIX when several sites share one Redis, or "
               "CARDWAR_TRUSTED_PROXIES behind a proxy that is not on this machine.")
    serve.add_argument("--host", default="127.0.0.1", type=_host)
    serve.add_argument("--port", type=_port, default=8000)
    serve.add_argument("--database", default=None, help="SQLAlchemy URL of the game store")
    serve.add_argument("--redis", default=None, help="Redis URL, for several processes")
    serve.add_argument("--allowed-hosts", default=None, dest="allowed_hosts",
                       help="host names the site answers to, comma-separated "
                            "(default: loopback names and the --host address)")

    add_ops_parsers(sub, serve)
    return p


def _deck(args: argparse.Namespace, players: int) -> list[Card]:
    """The cards of ``--deck``, at least one per player."""
    deck = parse_cards(args.deck)
    if len(deck) < players:
        raise UsageError(f"--deck has {len(deck)} card{'' if len(deck) == 1 else 's'}, "
                         f"fewer than {players} players")
    return deck


def _setup(args: argparse.Namespace) -> Setup:
    refuse_slap_options(args)
    variant = get_variant(args.variant)
    if args.hands is not None:
        hands = parse_hands(args.hands)
        if args.players is not None and args.players != len(hands):
            raise UsageError(f"--players {args.players} but --hands gives {len(hands)} piles")
        return Setup.from_hands(variant, hands, args.face_down)
    players = variant.default_players if args.players is None else args.players
    if args.deck is not None:
        return Setup.from_deck(variant, players, _deck(args, players), args.face_down)
    if args.seed is None:
        raise UsageError("give one of --seed, --deck or --hands")
    return Setup.from_seed(variant, players, args.seed, args.face_down)


def _no_face_down(args: argparse.Namespace) -> None:
    if args.face_down is not None:
        raise UsageError(f"--face-down is not an option of {args.variant}: it has no ties, "
                         "only the battle games lay face-down cards")


def _beggar_setup(args: argparse.Namespace) -> BeggarSetup:
    """The deal of ``play --variant beggar`` (two players only, RULES.md 10)."""
    _no_face_down(args)
    refuse_slap_options(args)
    if args.players is not None:
        get_variant(args.variant).check(args.players)
    if args.hands is not None:
        return BeggarSetup.from_hands(parse_beggar_hands(args.hands))
    if args.deck is not None:
        deck = parse_beggar_deck(args.deck)
        if len(deck) < 2:
            raise UsageError(f"--deck has {len(deck)} card{'' if len(deck) == 1 else 's'}, "
                             "fewer than 2 players")
        return BeggarSetup.from_deck(deck)
    if args.seed is None:
        raise UsageError("give one of --seed, --deck or --hands")
    return BeggarSetup.from_seed(args.seed)


#: The ``play`` record of each kind of play (:attr:`cardwar.engine.Variant.play`).
_RECORDS: dict[Play, Callable[[argparse.Namespace], dict[str, Any]]] = {
    "battles": lambda args: game_json(_setup(args), log=args.log),
    "turns": lambda args: beggar_json(_beggar_setup(args), log=args.log),
    "slaps": play_record,
}


def _play(args: argparse.Namespace) -> None:
    record = _RECORDS[get_variant(args.variant).play](args)
    if args.json:
        print(json.dumps(record))
        return
    for line in log_lines(record):
        print(line)
    print(describe(record))


#: How to get what ``simulate`` needs for the battle games (the ``sim`` extra).
SIM_EXTRA = ("pip install 'cardwar[sim]' (from a release: "
             "pip install --require-hashes -r requirements-sim.lock)")


def _simulator_missing() -> list[str]:
    """The compiled core's libraries this install lacks (the ``sim`` extra)."""
    return [name for name in ("numba", "numpy") if importlib.util.find_spec(name) is None]


@contextmanager
def _progress(total: int) -> Iterator[Callable[[int], None]]:
    """``step(games)`` of a progress bar on stderr when it is a terminal; a
    no-op without tqdm (the ``sim`` extra)."""
    try:
        from tqdm import tqdm
    except ImportError:
        yield lambda games: None
        return
    with tqdm(total=total, file=sys.stderr, disable=None, unit="game") as bar:

        def step(games: int) -> None:
            bar.update(games)

        yield step


def _simulate(args: argparse.Namespace) -> int:
    if not 1 <= args.games <= MAX_SIMULATED_GAMES:
        raise UsageError(f"--games must be from 1 to {MAX_SIMULATED_GAMES:,}")
    if not 1 <= args.processes <= MAX_SIMULATE_PROCESSES:
        raise UsageError(f"--processes must be from 1 to {MAX_SIMULATE_PROCESSES}")
    variant = get_variant(args.variant)
    if variant.play != "slaps":  # the slap games check their own options
        refuse_slap_options(args)
        if variant.play == "turns":
            _no_face_down(args)
        variant.check(args.players, args.face_down)
    if variant.play == "battles" and (missing := _simulator_missing()):
        print(f"cardwar: error: simulating {variant.name} needs the compiled core "
              f"({' and '.join(missing)}), which this install leaves out: {SIM_EXTRA}",
              file=sys.stderr)
        return 1
    start = time.perf_counter()
    with _progress(args.games) as step:
        if variant.play == "slaps":
            stats = simulate_record(args, step)
        elif variant.play == "turns":
            stats = simulate_beggar(args.games, args.seed, step)
        else:
            stats = simulate(variant, args.players, args.games, args.seed,
                             args.face_down, step, args.processes)
    elapsed = time.perf_counter() - start
    stats["seconds"] = round(elapsed, 3)
    stats["games_per_s"] = round(args.games / elapsed, 1) if elapsed > 0 else None
    print(json.dumps(stats))
    return 0


def _shuffle(args: argparse.Namespace) -> None:
    print(f"commitment {commitment(args.seed)}")
    print(f"deck {cards_text(shuffled_deck(args.seed))}")


# The largest WebSocket message uvicorn accepts (its default is 16 MB); the
# protocol caps a message at 1024 bytes (cardwar.web.socket), bigger frames close with 1009.
WS_MAX_SIZE = 4096
# Messages are a few hundred bytes of JSON: permessage-deflate saves little on
# them and costs about a third of the CPU of sending a frame, so it is off.
WS_DEFLATE = False
# The protocol's own heartbeat (cardwar.web.frames.Heartbeats) pings every page and
# closes silent sockets: uvicorn's second, per-socket ping timer is off.
WS_PING_INTERVAL = None


def _tune_runtime() -> None:
    """Interpreter settings for a long-running server process.

    * ``gc.freeze()`` after the imports: the ~110,000 objects of the libraries
      and the app are never traversed by a collection again.
    * Young collections every 50,000 allocations (default 700), the middle
      generation every 20 of them: the events and battle results of a flip
      die young instead of piling up in the oldest generation, whose full
      collection traverses every connection's objects (about 300 ms with
      2,000 players; under load it came every 30 s or so, now rarely).
    * A 0.5 ms thread switch interval (default 5 ms): the SQLite writer
      thread gets the GIL back quickly after each statement instead of
      queueing behind the busy event loop.
    """
    import gc

    gc.collect()
    gc.freeze()
    gc.set_threshold(50_000, 20, 10)
    sys.setswitchinterval(0.0005)


def _serve(args: argparse.Namespace) -> None:
    import uvicorn

    from . import ops
    from .obs.logs import configure_logging, logging_config

    _check_bind(args.host, args.port)
    # The stacked test deck is for tests only: `serve` never enables it.
    settings = ops.load_settings(**overrides(args), testing_stacked_deck=False,
                                  testing_seed=None)
    ops.check_services(settings.database, settings.redis)
    ops.check_catalogs()
    # the web app (FastAPI and every page's module) only once the settings,
    # the port and the services are known to be usable: a bad one is refused
    # in one line without that import (about a second of CPU)
    from .settings import names
    from .web.app import create_app

    debug = names(settings.debug_logs)
    configure_logging("INFO", debug=debug)
    _tune_runtime()
    # the app reads the trusted proxy's X-Forwarded-* itself (cardwar.web.guard)
    uvicorn.run(create_app(settings, bind=args.host), host=args.host, port=args.port,
                proxy_headers=False,
                log_config=logging_config("INFO", debug=debug), ws_max_size=WS_MAX_SIZE,
                ws_per_message_deflate=WS_DEFLATE, ws_ping_interval=WS_PING_INTERVAL)


def _glue_hands(argv: Sequence[str], options: set[str]) -> list[str]:
    """Join ``--hands`` or ``--deck`` and a value that starts with ``-`` (the records'
    notation).

    argparse reads ``--hands ---AJ--Q.../-----A...`` as two options; a value
    that is not (the start of) one of ``options`` becomes ``--hands=VALUE``.
    """
    out: list[str] = []
    args = iter(argv)
    for arg in args:
        value = next(args, None) if arg in ("--hands", "--deck") else None
        if value is None:
            out.append(arg)
        elif value.startswith("-") and not any(
                o.startswith(value.split("=", 1)[0]) for o in options):
            out.append(f"{arg}={value}")
        else:
            out += [arg, value]
    return out


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status: 0 ok, 2 bad input, 1 a problem
    found by `check`, a failed migration, output that cannot be written or
    `simulate` without the ``sim`` extra."""
    try:
        parser = _parser()
        argv = sys.argv[1:] if argv is None else argv
        args = parser.parse_args(_glue_hands(argv, parser.get_default("play_options")))
        for name in ("seed", "deck", "hands"):
            value = getattr(args, name, None)
            if isinstance(value, str):
                try:
                    value.encode("utf-8")
                except UnicodeEncodeError:
                    raise UsageError(f"--{name} is not valid UTF-8 text") from None
        status = {"play": _play, "simulate": _simulate, "shuffle": _shuffle, "serve": _serve,
                  **OPS_COMMANDS}[args.command](args)
        sys.stdout.flush()  # a closed pipe shows here, not as a warning at exit
        if status:
            return int(status)
    except (UsageError, CardError, OptionError, ValueError) as exc:
        print(f"cardwar: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # the reader went away (`cardwar play --log | head`): stop quietly
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1
    except OSError as exc:  # the output cannot be written (a full disk, ...)
        print(f"cardwar: error: cannot write the output: {exc.strerror or exc}",
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

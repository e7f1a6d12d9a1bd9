"""The self-hoster's commands of ``cardwar``: ``migrate``, ``check``, ``static``.

What they do is in :mod:`cardwar.ops`; here are their flags and output.
``serve``, ``migrate`` and ``check`` read the settings the same way
(``--database``, ``--redis``, ``--env-file``, ``CARDWAR_*``). Problems are one
line: :class:`cardwar.ops.ServiceError` is a ``ValueError``, which
:func:`cardwar.cli.main` prints as ``cardwar: error: ...`` with status 2.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any


def add_ops_parsers(sub: Any, serve: argparse.ArgumentParser) -> None:
    """Add ``migrate``, ``check`` and ``static`` to the subcommands ``sub``, and
    ``--env-file`` to them and to ``serve``."""
    migrate = sub.add_parser("migrate", help="bring the database schema up to date")
    migrate.add_argument("--database", default=None, help="SQLAlchemy URL of the game store")

    check = sub.add_parser("check", help="check settings, database, Redis, catalogs and "
                                         "directories (exit 1 on any problem)")
    check.add_argument("--database", default=None, help="SQLAlchemy URL of the game store")
    check.add_argument("--redis", default=None, help="Redis URL, for several processes")
    check.add_argument("--allowed-hosts", default=None, dest="allowed_hosts",
                       help="host names the site answers to, comma-separated (as serve)")
    for command in (serve, migrate, check):
        command.add_argument("--env-file", default=None, dest="env_file",
                             help="read CARDWAR_* settings from this file too "
                                  "(KEY=value lines; the environment wins)")

    static = sub.add_parser("static", help="copy the static files for nginx, kept per version")
    static.add_argument("directory", help="nginx's root for /static/, e.g. /srv/cardwar/static")


def overrides(args: argparse.Namespace) -> dict[str, str]:
    """The settings given as flags (``--database``, ``--redis``, ``--env-file``,
    ``--allowed-hosts``)."""
    names = ("database", "redis", "env_file", "allowed_hosts")
    return {k: v for k in names if (v := getattr(args, k, None))}


def _migrate(args: argparse.Namespace) -> int:
    from . import ops

    settings = ops.load_settings(**overrides(args))
    try:
        print(ops.migrate(settings.database))
    except RuntimeError as exc:  # a migration that failed: one line, status 1
        print(f"cardwar: error: {exc}", file=sys.stderr)
        return 1
    return 0


def _check(args: argparse.Namespace) -> int:
    from .ops import run_checks

    findings = run_checks(**overrides(args))
    for finding in findings:
        print(finding.line())
    return 0 if all(f.ok for f in findings) else 1


def _static(args: argparse.Namespace) -> int:
    from .ops import ServiceError, collect_static

    try:
        print(collect_static(Path(args.directory)))
    except OSError as exc:
        raise ServiceError(f"cannot write the static files in {args.directory}: "
                           f"{exc.strerror or exc}") from None
    return 0


#: Command name -> function of the parsed arguments returning the exit status.
OPS_COMMANDS: dict[str, Callable[[argparse.Namespace], int]] = {
    "migrate": _migrate, "check": _check, "static": _static}

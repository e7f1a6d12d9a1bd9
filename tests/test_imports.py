"""The import graph keeps its shape: the import-linter contracts in pyproject.toml.

* the engine imports nothing of ours;
* the engine's families (battles, beggar, slap) import none of each other;
* the tables import neither the web layer nor the store, SQLAlchemy,
  Alembic, Starlette or FastAPI (records and the store's interface live in
  ``cardwar.tables.records``; the metrics endpoint in ``cardwar.web.metrics``);
* layers, top to bottom: cli, web, store, tables, (bus, obs, settings,
  catalogs), engine;
* no import cycles between the modules of any package.
"""

from __future__ import annotations

import logging
from pathlib import Path

from importlinter.cli import lint_imports

ROOT = Path(__file__).resolve().parents[1]


def test_the_import_contracts_hold(capsys):
    # import-linter configures logging with dictConfig and no
    # disable_existing_loggers=False: every logger made before it (cardwar.bus...)
    # would stay disabled for the rest of this xdist worker's tests, which then
    # read no warning (tests/bus/test_redis_bus.py saw it: disabled=True)
    loggers = {name: logger.disabled for name, logger in logging.root.manager.loggerDict.items()
               if isinstance(logger, logging.Logger)}
    try:
        status = lint_imports(config_filename=str(ROOT / "pyproject.toml"), no_cache=True,
                              no_logo=True)
    finally:
        for name, disabled in loggers.items():
            logging.getLogger(name).disabled = disabled
    report = capsys.readouterr().out
    assert status == 0, report
    assert "5 kept, 0 broken" in report, report

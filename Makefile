# cardwar: `make run` starts the site, `make test` runs every check.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
SIM_STAMP := $(VENV)/.installed-sim
DEV_STAMP := $(VENV)/.installed-dev
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: install install-sim install-dev run test pytest lint pylint jslint typecheck jstypecheck \
	jstest catalogs language bench stats clean axe locks dist test-lowest \
	ci numba-cache pytest-main pytest-light pytest-heavy pytest-browser

PIP := $(BIN)/python -m pip install -q --require-hashes

# Python writes its bytecode caches (__pycache__) even where the environment says
# not to: the tests start hundreds of Python processes (xdist workers, `cardwar
# serve`, the CLI, the guide's installs), and each compiled every module it
# imports from source again (4.3 s of CPU to import the web app from source,
# 1.6 s from its caches; the non-browser tests took 443 s instead of 373 s).
unexport PYTHONDONTWRITEBYTECODE

# What the site needs (requirements.lock, every file checked against its hash),
# and cardwar itself, editable: its build compiles the catalogs in place (setup.py).
$(STAMP): requirements.lock pyproject.toml setup.py
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(PIP) -r requirements.lock
	$(BIN)/python -m pip install -q --no-deps -e .
	touch $(STAMP)

# Plus the simulator's compiled core and progress bar (requirements-sim.lock).
$(SIM_STAMP): $(STAMP) requirements-sim.lock
	$(PIP) -r requirements-sim.lock
	touch $(SIM_STAMP)

# Plus tests, linters, type checker, Playwright, build (requirements-dev.lock,
# which holds the other two), installed by the dev lock's uv (a tenth of pip's
# time: parallel downloads, a shared cache), itself installed by pip from its
# entry in that lock (hash-checked too). cardwar is built with the locked
# setuptools and Babel, as make dist does. That one pip install is told -qq
# (errors only): a machine's pip.conf may name indexes or --find-links folders
# that lack uv, and pip warns of each ("Location ... is ignored") although it
# finds uv elsewhere; a failure (a hash, no uv anywhere) is still an error.
UV_PIP := $(BIN)/uv pip install -q --python $(BIN)/python
$(DEV_STAMP): requirements-dev.lock pyproject.toml setup.py
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	awk '/^uv==/ { on = 1 } on { print } on && !/\\$$/ { exit }' requirements-dev.lock \
		> $(VENV)/uv.lock.txt
	$(PIP) -q -r $(VENV)/uv.lock.txt
	$(UV_PIP) --require-hashes -r requirements-dev.lock
	$(UV_PIP) --no-deps --no-build-isolation -e .
	touch $(STAMP) $(SIM_STAMP) $(DEV_STAMP)

install: $(STAMP) catalogs

install-sim: $(SIM_STAMP) catalogs

install-dev: $(DEV_STAMP) catalogs

# npm's tools, pinned by package-lock.json: axe-core for the accessibility
# browser tests, TypeScript (and node's types) to type-check the game's modules,
# ESLint to lint them.
node_modules/.package-lock.json: package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error

axe: node_modules/.package-lock.json

# Recompile the catalogs after editing a .po (installing compiles them too):
# each .mo older than its .po.
CATALOGS := $(patsubst %.po,%.mo,$(wildcard cardwar/locales/*/LC_MESSAGES/*.po))
catalogs: $(CATALOGS)

cardwar/locales/%.mo: cardwar/locales/%.po | $(STAMP)
	@$(BIN)/pybabel compile -i $< -o $@ >/dev/null 2>&1 || $(BIN)/pybabel compile -i $< -o $@

# Start a new language's catalogs from the English ones: make language CODE=pt_BR
# (Babel's code, with an underscore). The English Plural-Forms line is left out,
# so the new catalogs get the language's own plural rule from Babel's CLDR data.
language: $(STAMP)
	@test -n "$(CODE)" || { echo "usage: make language CODE=ll or ll_CC" >&2; exit 2; }
	@for domain in messages play; do \
		sed '/^"Plural-Forms/d' cardwar/locales/en/LC_MESSAGES/$$domain.po \
			> cardwar/locales/$$domain.pot.tmp && \
		$(BIN)/pybabel -q init -w 100 -D $$domain -l $(CODE) -d cardwar/locales \
			-i cardwar/locales/$$domain.pot.tmp; status=$$?; \
		rm -f cardwar/locales/$$domain.pot.tmp; test $$status = 0 || exit 1; \
	done

run: install
	$(BIN)/cardwar serve --host $(HOST) --port $(PORT)

lint: pylint jslint

pylint: $(DEV_STAMP)
	$(BIN)/ruff check cardwar tests bench tools setup.py

# The browser's ES modules, their node tests and the service worker (eslint.config.js).
jslint: axe
	node_modules/.bin/eslint --max-warnings 0 .

typecheck: $(DEV_STAMP)
	$(BIN)/mypy --strict cardwar

# The game page's ES modules (cardwar/web/static/play): tsc --checkJs, strict,
# on their JSDoc types (and on their tests), then node's tests of the reducer.
jstypecheck: axe
	node_modules/.bin/tsc -p tsconfig.json
	node_modules/.bin/tsc -p tests/js/tsconfig.json

jstest: axe
	node --test --test-reporter=spec tests/js/

# Every check, in two rounds of jobs run side by side (each one's output
# printed in one piece when it is over; make fails if any of them fails): the
# linters, type checkers and node tests beside the non-browser tests, then the
# browser tests. The heavy tests (marked by tests/conftest.py: the chaos soak,
# the faults, the guide's services, the benchmarks, the slap judge's latency)
# never share the machine with the browser tests: on two cores that made both
# flaky, and so did the plain tests beside the browser tests (measured on
# 6 December: 6 timing failures at load 13-21, 3 at load 14).
# make -j1 test runs everything one after another.
# (The installs are made once, before: INSTALLED= tells the checks not to redo them.)
TEST_JOBS ?= 4
INSTALLED ?= install-dev axe
CHECKS := $(MAKE) --no-print-directory -j$(TEST_JOBS) --output-sync=target INSTALLED=
test: install-dev axe
	$(CHECKS) lint typecheck jstypecheck jstest pytest-main
	$(CHECKS) pytest-browser

# What .ci/run runs: make test, with the web tests on the lowest versions
# beside the non-browser tests (those wait on their services much of the
# time; the browser tests keep both cores busy).
ci: install-dev axe
	$(CHECKS) PYTEST_OPTS=--durations=25 lint typecheck jstypecheck jstest pytest-main test-lowest
	$(CHECKS) PYTEST_OPTS=--durations=25 pytest-browser

# numba's core compiled into its cache once (else each worker and each
# `cardwar simulate` of the tests compiles it); the tests but the browser's on
# four xdist workers that steal work from each other (pytest-main; or
# pytest-light and pytest-heavy): they use about one core in all, most of
# their time is spent waiting on the services and processes they start, so
# four workers fill those waits (measured on a quiet machine, 7 December:
# 260 s against 373 s on two workers that did not steal); the browser tests
# in a run of their own (Playwright's event loop and asyncio tests do not mix
# in one process), on workers of their own: they are CPU-bound in Chromium.
# Debian's headless shell (chromium-headless-shell, which tests/browser/conftest.py
# prefers) takes half the browser's CPU: 371 CPU-s in 246 s on two workers
# against about 900 in 490 s; three workers 395 CPU-s in 212 s, four 224 s
# (7 December, a quiet machine).
# PYTEST_ARGS picks tests, e.g. make pytest PYTEST_ARGS="tests/web -x" (a run it
# leaves empty is no failure); PYTEST_OPTS adds options (make ci: the slowest
# tests' durations).
PYTEST_WORKERS ?= 4
HEAVY_WORKERS ?= 3
BROWSER_WORKERS ?= 3
PYTEST_OPTS ?=
pytest: pytest-main
	$(MAKE) --no-print-directory INSTALLED= pytest-browser

numba-cache: $(INSTALLED)
	$(BIN)/python -c "from cardwar.engine import PEACE; \
		from cardwar.engine.battles.simulate import play_games; play_games(PEACE, 2, 1)"

pytest-main: $(INSTALLED) numba-cache
	$(BIN)/python -m pytest -n $(PYTEST_WORKERS) --dist worksteal $(PYTEST_OPTS) -m "not browser" \
		$(PYTEST_ARGS) || test $$? = 5 -a -n "$(PYTEST_ARGS)"

# The same tests in two runs: those that neither start services nor judge by
# time, and the heavy ones.
pytest-light: $(INSTALLED) numba-cache
	$(BIN)/python -m pytest -n $(PYTEST_WORKERS) $(PYTEST_OPTS) -m "not browser and not heavy" \
		$(PYTEST_ARGS) || test $$? = 5 -a -n "$(PYTEST_ARGS)"

pytest-heavy: $(INSTALLED) numba-cache
	$(BIN)/python -m pytest -n $(HEAVY_WORKERS) $(PYTEST_OPTS) -m "heavy and not browser" \
		$(PYTEST_ARGS) || test $$? = 5 -a -n "$(PYTEST_ARGS)"

pytest-browser: $(INSTALLED)
	$(BIN)/python -m pytest -n $(BROWSER_WORKERS) --dist worksteal $(PYTEST_OPTS) -m browser \
		$(PYTEST_ARGS) || test $$? = 5 -a -n "$(PYTEST_ARGS)"

# The web tests on the lowest versions pyproject.toml allows for the site and
# the tests (requirements-lowest.lock), in a virtualenv of their own that uv
# fills from its cache (.ci/run runs it; the statistics test needs the sim extra).
LOWEST ?= .venv-lowest
LOWEST_WORKERS ?= 2
test-lowest: $(INSTALLED)
	rm -rf $(LOWEST)
	$(BIN)/uv venv -q --python $(BIN)/python $(LOWEST)
	$(BIN)/uv pip install -q --python $(LOWEST)/bin/python --require-hashes --no-build \
		-r requirements-lowest.lock
	PYTHONPATH=. $(LOWEST)/bin/python -m pytest -p no:cacheprovider -n $(LOWEST_WORKERS) $(PYTEST_OPTS) \
		tests/web --ignore=tests/web/test_stats.py

bench: install-sim
	$(BIN)/python bench/engine.py

# The rules pages' statistics: the battle games' (cardwar/web/stats.json,
# 100,000 games per variant and player count on every core; about a minute
# on two), Beggar-my-neighbour's (cardwar/web/beggar_stats.json) and the slap
# games' (cardwar/web/slap_stats.json: 10,000 computers' games per table).
stats: install-sim
	$(BIN)/python -m cardwar.web.stats
	$(BIN)/python -m cardwar.web.beggar_stats
	$(BIN)/python -m cardwar.web.slap_stats --processes 2

# The release: the sdist (dist/cardwar-<version>.tar.gz, the tarball that
# deploy/README.md installs) and the wheel, built with the locked setuptools and Babel.
dist: $(DEV_STAMP)
	rm -rf dist
	$(BIN)/python -m build --no-isolation --outdir dist .

# Re-resolve the locks after a change to the dependencies in pyproject.toml
# (pins already in the locks are kept unless they must move), with the uv of
# the dev lock. Each lock holds the one before it: runtime < sim < dev. The
# lowest lock is the runtime and test dependencies at the lowest versions
# pyproject.toml allows (make test-lowest runs the web tests on it).
UV := $(BIN)/uv pip compile -q pyproject.toml --generate-hashes --python-version 3.11
locks: $(DEV_STAMP)
	$(UV) -o requirements.lock
	$(UV) --extra sim -c requirements.lock -o requirements-sim.lock
	$(UV) --extra dev -c requirements-sim.lock -o requirements-dev.lock
	$(UV) --extra test --resolution lowest-direct --upgrade -o requirements-lowest.lock

clean:
	rm -rf $(VENV) $(LOWEST) .pytest_cache .mypy_cache .ruff_cache build dist

# cardwar: `make run` starts the site, `make test` runs every check.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
DEV_STAMP := $(VENV)/.installed-dev
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: install install-dev run test lint typecheck jstypecheck jstest catalogs language bench stats clean \
	axe locks dist

# What the site needs (requirements.lock), and cardwar itself, editable: its
# build compiles the catalogs in place (setup.py).
$(STAMP): requirements.lock pyproject.toml setup.py
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -r requirements.lock
	$(BIN)/python -m pip install -q --no-deps -e .
	touch $(STAMP)

# Plus tests, linters, type checker, Playwright, build (requirements-dev.lock).
$(DEV_STAMP): $(STAMP) requirements-dev.lock
	$(BIN)/python -m pip install -q -r requirements.lock -r requirements-dev.lock
	touch $(DEV_STAMP)

install: $(STAMP) catalogs

install-dev: $(DEV_STAMP) catalogs

# npm's tools, pinned by package-lock.json: axe-core for the accessibility
# browser tests, TypeScript (and node's types) to type-check the game's modules.
node_modules/.package-lock.json: package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error

axe: node_modules/.package-lock.json

# Recompile the catalogs after editing a .po (installing compiles them too).
catalogs: $(STAMP)
	@if ls cardwar/locales/*/LC_MESSAGES/*.po >/dev/null 2>&1; then \
		for po in cardwar/locales/*/LC_MESSAGES/*.po; do \
			$(BIN)/pybabel compile -i $$po -o $${po%.po}.mo >/dev/null 2>&1 \
				|| $(BIN)/pybabel compile -i $$po -o $${po%.po}.mo || exit 1; \
		done; \
	fi

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

lint: $(DEV_STAMP)
	$(BIN)/ruff check cardwar tests bench setup.py

typecheck: $(DEV_STAMP)
	$(BIN)/mypy --strict cardwar

# The game page's ES modules (cardwar/web/static/play): tsc --checkJs, strict,
# on their JSDoc types (and on their tests), then node's tests of the reducer.
jstypecheck: axe
	node_modules/.bin/tsc -p tsconfig.json
	node_modules/.bin/tsc -p tests/js/tsconfig.json

jstest: axe
	node --test --test-reporter=spec tests/js/

test: install-dev axe lint typecheck jstypecheck jstest
	$(BIN)/python -m pytest

bench: install
	$(BIN)/python bench/engine.py

# The rules pages' statistics: the battle games' (cardwar/web/stats.json,
# 100,000 games per variant and player count on every core; about a minute
# on two), Beggar-my-neighbour's (cardwar/web/beggar_stats.json) and the slap
# games' (cardwar/web/slap_stats.json: 10,000 computers' games per table).
stats: install
	$(BIN)/python -m cardwar.web.stats
	$(BIN)/python -m cardwar.web.beggar_stats
	$(BIN)/python -m cardwar.web.slap_stats --processes 2

# The release: the sdist (dist/cardwar-<version>.tar.gz, the tarball that
# deploy/README.md installs) and the wheel, built with the locked setuptools and Babel.
dist: $(DEV_STAMP)
	rm -rf dist
	$(BIN)/python -m build --no-isolation --outdir dist .

# Re-resolve both locks after a change to the dependencies in pyproject.toml
# (pins already in the locks are kept unless they must move).
locks: $(DEV_STAMP)
	$(BIN)/python -m pip install -q uv
	$(BIN)/uv pip compile -q pyproject.toml --python-version 3.11 -o requirements.lock
	$(BIN)/uv pip compile -q pyproject.toml --extra dev -c requirements.lock \
		--python-version 3.11 -o requirements-dev.lock

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache build dist

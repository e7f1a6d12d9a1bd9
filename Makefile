# cardwar: `make run` starts the site, `make test` runs every check.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: install run test lint typecheck jstypecheck jstest catalogs bench clean axe

$(STAMP): requirements.lock pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -r requirements.lock
	$(BIN)/python -m pip install -q --no-deps -e .
	touch $(STAMP)

install: $(STAMP) catalogs

# npm's tools, pinned by package-lock.json: axe-core for the accessibility
# browser tests, TypeScript (and node's types) to type-check the game's modules.
node_modules/.package-lock.json: package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error

axe: node_modules/.package-lock.json

catalogs: $(STAMP)
	@if ls cardwar/locales/*/LC_MESSAGES/*.po >/dev/null 2>&1; then \
		for po in cardwar/locales/*/LC_MESSAGES/*.po; do \
			$(BIN)/pybabel compile -i $$po -o $${po%.po}.mo >/dev/null 2>&1 \
				|| $(BIN)/pybabel compile -i $$po -o $${po%.po}.mo || exit 1; \
		done; \
	fi

run: install
	$(BIN)/cardwar serve --host $(HOST) --port $(PORT)

lint: $(STAMP)
	$(BIN)/ruff check cardwar tests bench

typecheck: $(STAMP)
	$(BIN)/mypy --strict cardwar

# The game page's ES modules (cardwar/web/static/play): tsc --checkJs, strict,
# on their JSDoc types (and on their tests), then node's tests of the reducer.
jstypecheck: axe
	node_modules/.bin/tsc -p tsconfig.json
	node_modules/.bin/tsc -p tests/js/tsconfig.json

jstest: axe
	node --test --test-reporter=spec tests/js/

test: install axe lint typecheck jstypecheck jstest
	$(BIN)/python -m pytest

bench: install
	$(BIN)/python bench/engine.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache

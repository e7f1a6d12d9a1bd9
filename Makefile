# cardwar: `make run` starts the site, `make test` runs every check.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: install run test lint typecheck catalogs bench clean axe

$(STAMP): requirements.lock pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -r requirements.lock
	$(BIN)/python -m pip install -q --no-deps -e .
	touch $(STAMP)

install: $(STAMP) catalogs

# axe-core for the accessibility browser tests (package-lock.json pins it).
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

test: install axe lint typecheck
	$(BIN)/python -m pytest

bench: install
	$(BIN)/python bench/engine.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache

# Everything runs from a local virtual environment created on first use.
VENV ?= .venv
PYTHON ?= python3
BIN := $(VENV)/bin

.PHONY: setup demo test lint bench clean browser

setup: $(VENV)/.installed

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $@

# A seeded bot game, stored in SQLite, reloaded from the store, final standings printed.
demo: setup
	$(BIN)/carc play --players 2 --seed 42 --db demo.sqlite

lint: setup
	$(BIN)/ruff check .
	$(BIN)/mypy

# The viewer's browser tests drive Debian's chromium through Playwright: no browser is downloaded.
browser:
	@test -x /usr/bin/chromium || apt-get install -y -qq chromium >/dev/null 2>&1 || \
		(apt-get update -qq && apt-get install -y -qq chromium)

test: lint browser
	$(BIN)/pytest

bench: setup
	$(BIN)/python bench/playout.py
	$(BIN)/python bench/replay.py
	$(BIN)/python bench/records.py
	$(BIN)/python bench/analytics.py
	$(BIN)/python bench/check.py
	$(BIN)/python bench/streams.py
	$(BIN)/python bench/batch.py

clean:
	rm -rf $(VENV) demo.sqlite .pytest_cache .mypy_cache .ruff_cache .hypothesis

# Everything runs from a local virtual environment created on first use.
VENV ?= .venv
PYTHON ?= python3
BIN := $(VENV)/bin

.PHONY: setup demo test lint bench clean

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

test: lint
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

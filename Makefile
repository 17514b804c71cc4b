# Everything runs from a local virtual environment created on first use.
VENV ?= .venv
PYTHON ?= python3
BIN := $(VENV)/bin

.PHONY: setup compile pure demo test lint bench clean browser

setup: compile

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $@

# The engine core compiled with mypyc into C extensions beside its sources (ignored by git): the
# same code, run about 1.4x faster; Python loads an extension before its .py. Rebuilt whenever one
# of these sources changes; `make pure` removes the extensions. The sets' own modules stay plain
# Python: they define msgspec structs, which mypyc does not build faithfully.
COMPILED := domain/agenda.py domain/aggregate.py domain/board.py domain/bots.py domain/decide.py \
	domain/features.py domain/geometry.py domain/moves.py domain/part.py domain/state.py \
	domain/turns.py replays/jcz.py replays/jcz_draws.py

compile: $(VENV)/.compiled

$(VENV)/.compiled: $(VENV)/.installed $(COMPILED)
	@echo "compiling the engine core with mypyc (about a minute)"
	@PYTHONPATH=. $(BIN)/python -c "$$COMPILE_CORE" > $(VENV)/mypyc.log 2>&1 || (tail -n 30 $(VENV)/mypyc.log; exit 1)
	@# setuptools copies an extension it did not need to rebuild with its old time: renew them all
	find domain replays -name '*.so' -exec touch {} +
	touch $@

# mypyc's runtime for the group goes into the domain package (domain/core__mypyc…), where the
# editable install finds it; PYTHONPATH=. lets mypy find the sources as the tree holds them.
define COMPILE_CORE
from setuptools import setup
from mypyc.build import mypycify
setup(
    name="carc-core",
    ext_modules=mypycify("$(COMPILED)".split(), group_name="domain.core"),
    script_args=["build_ext", "--inplace"],
)
endef
export COMPILE_CORE

pure:
	rm -rf build $(VENV)/.compiled
	find domain replays -name '*.so' -delete

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

test: compile lint browser
	$(BIN)/pytest

bench: compile
	$(BIN)/python bench/playout.py
	$(BIN)/python bench/replay.py
	$(BIN)/python bench/records.py
	$(BIN)/python bench/analytics.py
	$(BIN)/python bench/check.py
	$(BIN)/python bench/streams.py
	$(BIN)/python bench/batch.py

clean: pure
	rm -rf $(VENV) demo.sqlite .pytest_cache .mypy_cache .ruff_cache .hypothesis

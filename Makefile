# Two commands for a newcomer: `make run` (the main job) and `make test` (the whole suite).
# Each target sets itself up: it creates .venv and installs Pegboard with its dev extras.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test bench lint clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/pegboard demo

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/mypy --strict pegboard

test: lint
	$(BIN)/pytest

bench: $(STAMP)
	$(BIN)/python -m bench

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache

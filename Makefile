# Fresh machine: only python3 and make. Every target does its own set-up into .venv.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: setup generate check lint test bench scale clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

setup: $(STAMP)

generate: setup  ## tool_schemas/ -> generated/
	$(BIN)/python -m generator generate

check: setup  ## generated/ is in sync with tool_schemas/ (writes nothing)
	$(BIN)/python -m generator generate --check

lint: setup
	$(BIN)/ruff check .
	$(BIN)/mypy

test: lint check  ## lint, types, drift check, then every test
	$(BIN)/python -m pytest -n 2

scale: setup  ## 1,000 tools generated and cross-checked; 125 KB-2 MB arguments timed (~2 min, not in test)
	$(BIN)/python -m tests.scale.thousand_tools
	$(BIN)/python -m tests.scale.large_argument

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis

# Fresh machine: only python3 and make. Every target does its own set-up into .venv.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

BENCH_STAMP := $(VENV)/.installed-bench
COMPILE_STAMP := $(VENV)/.installed-compile

.PHONY: setup generate check lint test byte-gate dist-check spark-check bench coverage scale gencost gencost-scale compile-bound compile clean-compiled test-compiled clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

setup: $(STAMP)

$(BENCH_STAMP): $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[dev,bench]'
	touch $(BENCH_STAMP)

$(COMPILE_STAMP): $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[dev,compile]'
	touch $(COMPILE_STAMP)

generate: setup  ## tool_schemas/ -> generated/ (compiled modules, now stale, are removed)
	$(BIN)/python -m toolgen.cli.compile --clean generated
	$(BIN)/python -m toolgen generate

check: setup  ## generated/ is in sync with tool_schemas/ (writes nothing)
	$(BIN)/python -m toolgen generate --check

lint: setup
	$(BIN)/ruff check .
	$(BIN)/mypy

# Four slow suites have targets of their own, which CI (.ci/run) runs after this one: byte-gate,
# dist-check (a wheel in a fresh venv), spark-check (a local Spark session), test-compiled (mypyc).
test: lint check  ## lint, types, drift check, then the test suite (pyproject: addopts leaves out the last three above)
	$(BIN)/python -m pytest -n 2

# Every byte of the output on three declaration sets, each in both keyword modes, against the
# recorded sha256 of each file (tests/data/byte-gate.txt). Only two header lines of
# __init__.py are left out, as they change with the generator's code alone: `# Generator:`
# (its fingerprint) and `# Package sha256:`. After a reviewed change of the output, record it
# again with `.venv/bin/python -m tests.byte_gate --record`.
byte-gate: setup  ## tool_schemas/, tests/data/real-tools and BFCL, subset and extended: every file as recorded (~2 min)
	$(BIN)/python -m tests.byte_gate

dist-check: setup  ## the sdist and wheel as users get them: wheel in a fresh venv, CLI in a scratch project, pre-commit hook
	$(BIN)/python -m pytest -m dist -n 2 tests/test_distribution.py

spark-check: setup  ## the Spark recipe's tests (one local session; needs Java 17+): runtime/integrations/spark.py
	$(BIN)/python -m pytest -m spark tests/test_spark.py

scale: setup  ## 1,000 tools generated and cross-checked; 125 KB-2 MB arguments timed (~2 min, not in test)
	$(BIN)/python -m tests.scale.thousand_tools
	$(BIN)/python -m tests.scale.large_argument

bench: $(BENCH_STAMP)  ## every peer, interleaved: benchmarks/RESULTS.md + results.png (BENCH_ONLY=builtin|extended: one section)
	$(BIN)/python -m benchmarks.run

coverage: setup  ## real-tools declarations: share of properties enforced per mode -> benchmarks/COVERAGE.md
	$(BIN)/python -m benchmarks.coverage

gencost: setup  ## generation cost (25 tools, 1,000 BFCL tools, 300 real: cold vs black, no-op, --check, one change), import time
	$(BIN)/python -m benchmarks.gencost

compile-bound: setup  ## issue 37.7: extended-mode compile time per KB as declarations grow (hostile families) -> RESULTS.md
	$(BIN)/python -m benchmarks.compile_bound

gencost-scale: setup  ## issue 22 in one run: 300 vs 3,000 tools (SCALE_SIZES=300,3000,10000 adds 10,000): cold, per tool, peak RSS, one edit
	$(BIN)/python -m benchmarks.scale

compile: $(COMPILE_STAMP)  ## optional: mypyc-compile generated/ in place (needs a C compiler)
	$(BIN)/python -m toolgen.cli.compile generated

clean-compiled:
	$(BIN)/python -m toolgen.cli.compile --clean generated

# The whole suite against compiled modules: `make compile test clean-compiled` (imports
# prefer the extension modules that `make compile` leaves next to the .py files).
test-compiled: $(COMPILE_STAMP)  ## compile a copy of generated/, check the spec's messages through it
	$(BIN)/python -m pytest -m compiled -p no:cacheprovider tests/test_compiled.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis .toolgen-cache

# deid: the two entry points of the README and what they need.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: setup main test test-fast lint clean

# torch is installed first and pinned: its CPU wheel lies on the build machines' disk; an
# unpinned torch pulls a multi-GB CUDA build. uv then installs the rest quickly, compiled to
# bytecode: where PYTHONDONTWRITEBYTECODE is set (as on the build machines) nothing writes
# .pyc files later, and every process (flows, Dask workers, servers, CLI) would recompile
# mlflow, prefect and transformers from source: ~7 s more per process.
$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q -U pip uv
	$(BIN)/pip install -q torch==2.13.0
	$(BIN)/uv pip install -q --compile-bytecode --python $(BIN)/python -e '.[dev]'
	touch $(STAMP)

setup: $(STAMP)

## main: the end-to-end job on embedded defaults
main: setup
	$(BIN)/python -m pipelines.main

## test: the default test run (CI runs this through .ci/run)
test: setup
	$(BIN)/pytest -q

test-fast: setup
	$(BIN)/pytest -q -m "not integration and not slow"

lint: setup
	$(BIN)/ruff check deid pipelines flows tests

clean:
	rm -rf data/corpus data/work reports

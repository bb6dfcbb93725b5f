# All set-up happens here: `make run` and `make test` create .venv on a fresh machine.
PY ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test bench baselines check clean venv

$(STAMP): pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	@# setuptools' advice about editable installs (a UserWarning from the build backend) is noise to a newcomer
	PYTHONWARNINGS=ignore::UserWarning $(BIN)/pip install -q -e '.[test]'
	touch $(STAMP)

venv: $(STAMP)

## Run every default scenario and write reports under reports/
run: $(STAMP)
	$(BIN)/sim run-defaults

## Lint, type-check, check the layer contract, then run the test suite (each tool on its own line: a failure names it)
test: $(STAMP)
	$(BIN)/ruff check sim tests docs kernels
	$(BIN)/ruff format --check sim docs tests/sim tests/api tests/docs tests/newgame tests/stats kernels tests/kernels
	$(BIN)/mypy sim
	$(BIN)/lint-imports
	$(BIN)/python -m pytest

## Speed benchmark (games/s, decisions/s, compile and start-up times)
bench: $(STAMP)
	$(BIN)/sim bench

## Regenerate the committed regression baselines
baselines: $(STAMP)
	$(BIN)/sim baselines

## Statistical and exact regression checks against reports/baselines
check: $(STAMP)
	$(BIN)/sim check

clean:
	rm -rf .numba_cache build *.egg-info

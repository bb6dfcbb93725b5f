# All set-up happens here: `make run` and `make test` create .venv on a fresh machine.
PY ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

# pytest workers of `make test` (pytest-xdist; auto: one per CPU)
WORKERS ?= auto

.PHONY: run test test-fast lint warm bench baselines check clean venv lock serve

# the versions of requirements.lock, within pyproject.toml's ranges
$(STAMP): pyproject.toml requirements.lock
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	@# setuptools' advice about editable installs (a UserWarning from the build backend) is noise to a newcomer
	PYTHONWARNINGS=ignore::UserWarning $(BIN)/pip install -q -c requirements.lock -e '.[test]'
	touch $(STAMP)

venv: $(STAMP)

## Run every default scenario and write reports under reports/
run: $(STAMP)
	$(BIN)/sim run-defaults

## The designer's workbench in the browser: http://127.0.0.1:8765/ (Ctrl-C stops it; jobs kept in reports/web/)
serve: $(STAMP)
	$(BIN)/sim serve

## Lint, type-check, check the layer contract and the complexity ratchet (each tool on its own line: a failure names it)
lint: $(STAMP)
	$(BIN)/ruff check sim tests docs kernels
	$(BIN)/ruff format --check sim docs tests/sim tests/web tests/api tests/docs tests/newgame tests/stats tests/*.py kernels tests/kernels
	$(BIN)/mypy sim
	$(BIN)/lint-imports
	$(BIN)/python tests/complexity.py

## lint, then the whole test suite on parallel workers sharing one kernel cache, filled before they start (the 25
## slowest tests listed at the end: where the 8-minute bound goes); lint runs while the cache fills, the three jobs
## sharing the cores (make -j2: each job's output printed whole when it ends)
test: $(STAMP)
	@$(MAKE) --no-print-directory -j2 --output-sync=target lint warm
	$(BIN)/python -m pytest -n $(WORKERS) --dist loadgroup --no-warm --durations=25

## the kernel cache of every game's scenarios, filled in two processes (what make test's workers then load)
warm: $(STAMP)
	$(BIN)/python tests/warm_kernels.py --processes 2

## lint, then the tests that compile no kernel (after every edit; a test that compiles one fails)
test-fast: lint
	$(BIN)/python -m pytest --fast -n $(WORKERS)

## Speed benchmark (games/s, decisions/s, kernel/C, cold compiles; docs/dev/performance.md, "make bench")
bench: $(STAMP)
	@# the C yardstick into build/ when a compiler is here; without one, sim bench says in one line what it skipped
	@if command -v gcc >/dev/null 2>&1; then $(MAKE) --no-print-directory build/moor_ref || true; fi
	$(BIN)/sim bench

# the plain C yardstick (a measuring instrument outside the repository, never copied in), its README's build line
C_SRC ?= ../shared/bench/moor/moor_ref.c
build/moor_ref: $(wildcard $(C_SRC))
	@test -f $(C_SRC) || { echo "no C yardstick at $(C_SRC)"; exit 0; }
	@mkdir -p build
	gcc -O2 -march=native -o $@ $(C_SRC) -lm

## Regenerate the committed regression baselines
baselines: $(STAMP)
	$(BIN)/sim baselines

## Statistical and exact regression checks against reports/baselines
check: $(STAMP)
	$(BIN)/sim check

## Write requirements.lock again: a fresh environment from pyproject.toml's ranges, then its versions
lock:
	rm -rf .lock-venv
	$(PY) -m venv .lock-venv
	.lock-venv/bin/pip install -q --upgrade pip
	PYTHONWARNINGS=ignore::UserWarning .lock-venv/bin/pip install -q -e '.[test]'
	{ sed -n '/^#/p' requirements.lock; .lock-venv/bin/pip freeze --exclude-editable | grep -v '^ghost-sim'; } > requirements.lock.new
	mv requirements.lock.new requirements.lock
	rm -rf .lock-venv

clean:
	rm -rf .numba_cache build *.egg-info

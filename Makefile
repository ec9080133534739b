# The two commands a new user needs: `make run` and `make test`. Both create the virtual environment if needed.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-stamp
NUMBA_STAMP := $(VENV)/.numba-stamp
JS_STAMP := node_modules/.installed-stamp
GAME ?= knizia13
# Test workers: one more than the cores for the whole suite, whose browser and server tests wait on another process
# half the time (the tests on 2 cores: 14 min 1 s with 3 workers against 14 min 39 s with 2 in fresh clones, 13 min
# 8 s with 3 against 13 min 42 s with 4 in one tree); the quick tests only compute, one worker a core.
JOBS ?= $(shell $(PYTHON) -c "import os; print((os.cpu_count() or 1) + 1)")
QUICK_JOBS ?= auto

.PHONY: run demo test test-quick quick-tests test-long test-js check-js warm bytecode lint bench bench-compare bench-server clean

# The packages' bytecode is compiled on every core (compileall -j 0) rather than file by file by pip (88 s for the
# installation with pip's, 39 + 20 s so on 2 cores): where PYTHONDONTWRITEBYTECODE is set no import writes it later,
# and every process of the tests would compile torch, Ray and the server's packages again (8.5 s against 3.9 s to
# import them). As pip does, a file for another Python version (torch's py312 examples) is left uncompiled (-qq; the
# exit status then says 1, and the import would compile what is missing).
$(STAMP): pyproject.toml
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check --upgrade pip
	$(PY) -m pip install --quiet --disable-pip-version-check --no-compile -e '.[dev,research,server,learn]'
	@$(PY) -m compileall -qq -j 0 "$$($(PY) -c 'import sysconfig; print(sysconfig.get_path("purelib"))')" || true
	@touch $(STAMP)

## Start the game server with the browser app (its SQLite file in data/) and print its address; for local
## development, the operators' pages (/docs, /metrics) are open to anyone (DREIZEHN_OPS_PUBLIC).
run: $(STAMP)
	@echo "Open http://127.0.0.1:8000"
	DREIZEHN_DATA_DIR=data DREIZEHN_OPS_PUBLIC=1 $(VENV)/bin/dreizehn serve --host 127.0.0.1 --port 8000

## Play and print one demonstration game between bots (GAME=knizia13|three-thirteen|holzwurm).
demo: $(STAMP)
	$(VENV)/bin/dreizehn demo $(GAME)

## Lint, type-check and run every test (the CI profile of the property tests). The browser client's checks run beside
## the installation (which uses one core), then beside the lint and the kernels' warm-up (each mostly on one core);
## then the tests: a module's tests that share a fixture (a server, a finished analysis) on one worker
## (--dist loadgroup, tests/conftest.py).
test:
	@$(MAKE) --no-print-directory -j 3 lint warm test-js
	$(PY) -m pytest -n $(JOBS) --dist loadgroup -q

## Lint, type-check and the fast tests (not marked slow: no server, browser, terminal pilot, compiled kernel, Ray
## instance or Python process of its own):
## the quick profile (DREIZEHN_PROFILE=quick: a fifth of the random games), for every edit; `make test` before landing.
## The lint and the tests run side by side (mypy uses one core for about 90 s in a fresh clone, seconds once its cache
## is there); the tests start once Three Thirteen's meld solver is compiled (its rules call it: compiled once, not
## in each worker; self-contained, so its cache never goes stale).
test-quick: $(STAMP)
	@$(MAKE) --no-print-directory -j 2 lint quick-tests

quick-tests: $(STAMP) bytecode
	@$(PY) -c "from dreizehn.games.three_thirteen.melds import warm_up; warm_up()"
	DREIZEHN_PROFILE=quick $(PY) -m pytest -n $(QUICK_JOBS) --dist loadgroup -q -m "not slow"

## The browser client: its modules type-checked (TypeScript's checker on the JSDoc types, tsconfig.json), linted
## (ESLint, eslint.config.js) and its pure modules under node's test runner (tests/js). Said loudly where node or
## npm is missing.
test-js:
	@if command -v node >/dev/null && command -v npm >/dev/null; then $(MAKE) --no-print-directory check-js; \
	else echo "SKIPPED: the browser client's type check and unit tests (tests/js): node or npm is not installed"; fi

check-js: $(JS_STAMP)
	node_modules/.bin/tsc -p tsconfig.json
	node_modules/.bin/eslint src/dreizehn/web tests/js eslint.config.js
	node --test tests/js/

$(JS_STAMP): package.json package-lock.json
	npm ci --no-audit --no-fund --silent
	@touch $(JS_STAMP)

## The same with the large profile: many more random games per game and player count.
test-long: $(STAMP) lint warm
	DREIZEHN_PROFILE=long $(PY) -m pytest -n $(JOBS) --dist loadgroup -q

# The project's own bytecode, compiled on every core (read by every process of the tests, also where
# PYTHONDONTWRITEBYTECODE keeps imports from writing it; a file changed since is compiled again at its import).
bytecode: $(STAMP)
	@$(PY) -m compileall -q -j 0 src

# Compile the meld solver, the game kernels, every compiled variant of their searches and the hints' rating loops
# once (numba caches them), before parallel test workers would each compile them. numba checks only a function's own
# file, so when any source changed since the last warm-up every cached compilation is dropped first (a kernel that
# calls a changed function elsewhere would otherwise stay stale; the loops made by dreizehn.core.scaffold also key
# their cache by a digest of what they call). Two processes at once (compiling uses one core): the meld solver then
# Three Thirteen (which calls it), and the other games.
warm: $(STAMP) bytecode
	@if [ ! -f $(NUMBA_STAMP) ] || [ -n "$$(find src -name '*.py' -newer $(NUMBA_STAMP) | head -1)" ]; then \
	  find src -name '*.nbi' -delete; find src -name '*.nbc' -delete; fi
	@echo "warming the compiled kernels in two processes"
	@( $(PY) -c "from dreizehn.games.three_thirteen.melds import warm_up; warm_up()" && \
	   $(PY) -c "from dreizehn.core.kernel import warm_up; warm_up('three-thirteen')" ) & melds=$$!; \
	$(PY) -c "from dreizehn.core.kernel import warm_up; warm_up(skip=('three-thirteen',))"; others=$$?; \
	wait $$melds && [ $$others = 0 ]
	@touch $(NUMBA_STAMP)

lint: $(STAMP)
	$(VENV)/bin/ruff check src tests benchmarks examples
	$(VENV)/bin/mypy

## Print the speed tables (games/s, actions/s, meld-solver hands/s).
bench: $(STAMP)
	$(PY) benchmarks/run.py

## The kernels, batched environment, searches and hints of this tree against another tree's, in alternating
## fresh processes (BASE=a git worktree of the older code, e.g. `git worktree add ../base c8a5b04`; ARGS="--repeats 9").
bench-compare: warm
	@test -n "$(BASE)" || { echo "make bench-compare BASE=/path/to/other/worktree"; exit 2; }
	$(PY) benchmarks/compare_kernels.py --base $(BASE) $(ARGS)

## Load on the game server: 200 tables of 4 seats over websockets (ARGS="--flat-out", see --help).
bench-server: $(STAMP)
	$(PY) benchmarks/bench_server.py $(ARGS)

clean:
	rm -rf $(VENV) node_modules .mypy_cache .ruff_cache .pytest_cache .hypothesis build src/*.egg-info

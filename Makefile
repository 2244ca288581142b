# Two commands set everything up: `make run` and `make test`; `make check` is the quick
# loop while working. Each creates .venv (and node_modules for the JS lint) on first use.
#
#   make run          the server on http://127.0.0.1:8000
#   make test         everything CI runs: lint-python lint-js types test-all
#   make check        the inner loop (under 40 s): lint-python lint-js types test-fast
#   make lint-python  ruff on quaymoor/ and tests/
#   make lint-js      node --check on every web/*.js, then ESLint (eslint.config.js), then
#                     TypeScript's tsc on the JSDoc types of each module marked // @ts-check
#                     (tsconfig.json; nothing is emitted, there is still no build step)
#   make types        mypy --strict on quaymoor/ and tests/ (pyproject.toml)
#   make test-fast    the pure tests: tests/rules and tests/protocol (the rules' docstring
#                     examples too), but not those marked slow (pyproject.toml's markers)
#   make test-all     every test, slow and browser tests included (needs chromium)
#   make chromium     installs Debian's chromium for the browser tests when it is missing
#   make cluster      HAProxy, one table process per core and PostgreSQL on :8000
#                     (docs/deploy.md; installs Debian's haproxy when it is missing)
#   make haproxy      installs Debian's haproxy when it is missing (the cluster tests)
#   make bench        random games per second for 2-5 players, compiled and pure
#   make rebuild      compiles the rules and the bots' hot paths again (mypyc, setup.py);
#                     make run, test and bench do it when a compiled module's source changed
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-stamp
BUILD_STAMP := $(VENV)/.compiled-stamp
# The sources mypyc compiles (quaymoor/compiled.py lists them).
COMPILED_SOURCES := $(shell $(PYTHON) quaymoor/compiled.py)
NODE_STAMP := node_modules/.installed-stamp

.PHONY: run test check lint-python lint-js types test-fast test-all chromium haproxy cluster \
	bench rebuild clean

# The install compiles the modules of quaymoor/compiled.py with mypyc (setup.py; gcc and
# Python's headers, mypy in an isolated build environment). A stale build is one whose
# sources changed since: the package runs it pure, with a warning (make check does not
# wait for a compile); make run, test and bench compile again first.
$(STAMP): pyproject.toml setup.py
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -e '.[dev]'
	touch $(STAMP) $(BUILD_STAMP)

$(BUILD_STAMP): $(STAMP) $(COMPILED_SOURCES)
	rm -f quaymoor/*.so quaymoor/*/*.so quaymoor/compiled.json
	$(PY) -m pip install --quiet --disable-pip-version-check --no-deps -e .
	touch $(BUILD_STAMP)

rebuild: $(STAMP)
	rm -f $(BUILD_STAMP)
	$(MAKE) $(BUILD_STAMP)

# Exactly the versions in package-lock.json.
$(NODE_STAMP): package.json package-lock.json
	@command -v npm >/dev/null 2>&1 || { \
	  echo "The JS lint needs node >= 20.19 and npm: run 'sudo apt-get install nodejs npm'."; \
	  exit 1; }
	npm ci --no-audit --no-fund --loglevel=error
	touch $(NODE_STAMP)

run: $(BUILD_STAMP)
	$(PY) -m quaymoor serve

test: lint-python lint-js types test-all

check: lint-python lint-js types test-fast

lint-python: $(STAMP)
	$(VENV)/bin/ruff check quaymoor tests

lint-js: $(NODE_STAMP)
	@for f in web/*.js; do node --check "$$f" || exit 1; done
	node_modules/.bin/eslint --max-warnings 0 web eslint.config.js
	node_modules/.bin/tsc -p tsconfig.json

types: $(STAMP)
	$(VENV)/bin/mypy

test-fast: $(STAMP)
	$(VENV)/bin/pytest tests/rules tests/protocol -m "not slow"

# node_modules: axe-core, which the browser tests inject into Chromium (tests/web/axe.py);
# haproxy: the cluster tests route through it (tests/cluster).
# Every test with the compiled modules, then the rules' and the bots' tests, and the
# deltas' (the compiled patch.diff), again pure: those not marked slow (the slow ones are
# whole-game properties, run compiled above; the pure sources are the same code, and
# the quick tests cover each of them in Python's own semantics).
PURE_TESTS := tests/rules tests/bots \
	tests/protocol/test_deltas.py::test_spectators_get_one_text_and_a_missed_version_gets_a_snapshot \
	tests/protocol/test_deltas.py::test_the_applier_follows_the_doc
test-all: $(BUILD_STAMP) $(NODE_STAMP) chromium haproxy
	$(VENV)/bin/pytest
	QUAYMOOR_PURE=1 $(VENV)/bin/pytest -m "not slow" $(PURE_TESTS)

# Browser tests drive Debian's chromium (Playwright's own browser download cannot be used).
chromium:
	@if [ ! -x /usr/bin/chromium ]; then \
	  if command -v apt-get >/dev/null 2>&1 && [ "$$(id -u)" = 0 ]; then \
	    echo "Installing Debian's chromium for the browser tests..."; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; \
	  else \
	    echo "Browser tests need /usr/bin/chromium: run 'sudo apt-get install chromium'."; \
	  fi; \
	fi

# The cluster's router (issue 15): Debian's HAProxy, installed as chromium is.
haproxy:
	@if ! command -v haproxy >/dev/null 2>&1 && [ ! -x /usr/sbin/haproxy ]; then \
	  if command -v apt-get >/dev/null 2>&1 && [ "$$(id -u)" = 0 ]; then \
	    echo "Installing Debian's haproxy for the cluster..."; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq haproxy >/dev/null; \
	  else \
	    echo "The cluster needs haproxy: run 'sudo apt-get install haproxy'."; \
	  fi; \
	fi

cluster: $(BUILD_STAMP) haproxy
	$(PY) -m quaymoor cluster --workers 2

bench: $(BUILD_STAMP)
	$(PY) -m quaymoor bench rules

clean:
	rm -rf $(VENV) node_modules .mypy_cache .pytest_cache .ruff_cache .hypothesis build
	rm -f quaymoor/*.so quaymoor/*/*.so quaymoor/compiled.json

# Two commands set everything up: `make run` and `make test`.
# Both create .venv and install the package with its dependencies on first use.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-stamp

.PHONY: run test lint typecheck unit browser bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -e '.[dev]'
	touch $(STAMP)

run: $(STAMP)
	$(PY) -m quaymoor serve

test: lint typecheck browser unit

lint: $(STAMP)
	$(VENV)/bin/ruff check quaymoor tests

typecheck: $(STAMP)
	$(VENV)/bin/mypy

unit: $(STAMP)
	$(VENV)/bin/pytest

# Browser tests drive Debian's chromium (Playwright's own browser download cannot be used).
browser:
	@if [ ! -x /usr/bin/chromium ]; then \
	  if command -v apt-get >/dev/null 2>&1 && [ "$$(id -u)" = 0 ]; then \
	    echo "Installing Debian's chromium for the browser tests..."; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; \
	  else \
	    echo "Browser tests need /usr/bin/chromium: run 'sudo apt-get install chromium'."; \
	  fi; \
	fi

bench: $(STAMP)
	$(PY) -m quaymoor bench rules

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache .hypothesis

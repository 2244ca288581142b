# Two commands set everything up: `make run` and `make test`.
# Both create .venv and install the package with its dependencies on first use.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-stamp

.PHONY: run test lint typecheck unit bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -e '.[dev]'
	touch $(STAMP)

run: $(STAMP)
	$(PY) -m quaymoor serve

test: lint typecheck unit

lint: $(STAMP)
	$(VENV)/bin/ruff check quaymoor tests

typecheck: $(STAMP)
	$(VENV)/bin/mypy

unit: $(STAMP)
	$(VENV)/bin/pytest

bench: $(STAMP)
	$(PY) -m quaymoor bench rules

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache .hypothesis

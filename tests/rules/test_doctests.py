"""The examples in the docstrings of the rules' public API run and show what they say:
``Game`` with its ``legal_actions``, ``apply`` and ``view`` (``rules/game.py``) and the
engine's ``new_game``, ``legal_actions`` and ``apply`` (``rules/engine.py``), each a
reader's first look at how to create a game from a seed, list legal actions, apply one
and read a view. Part of ``make test-fast``."""

from __future__ import annotations

import doctest
import sys
from types import ModuleType

import pytest

from quaymoor.compiled import source_module
from quaymoor.rules import engine, game

#: Each module with the docstrings that must carry examples (``DocTest.name``).
EXAMPLES: dict[ModuleType, set[str]] = {
    game: {
        "quaymoor.rules.game.Game",
        "quaymoor.rules.game.Game.legal_actions",
        "quaymoor.rules.game.Game.apply",
        "quaymoor.rules.game.Game.view",
    },
    engine: {
        "quaymoor.rules.engine.new_game",
        "quaymoor.rules.engine.legal_actions",
        "quaymoor.rules.engine.apply",
    },
}


def docstring_tests(module: ModuleType) -> list[doctest.DocTest]:
    """The module's docstrings that have examples, found as ``python -m doctest`` finds them.
    A compiled module keeps no docstrings, so they are read from a copy of its source
    (``compiled.source_module``); the examples import the module as it runs: compiled."""
    name = module.__name__
    source = source_module(name)
    # The finder keeps what belongs to the module, as sys.modules names it: the copy.
    sys.modules[name] = source
    try:
        found = doctest.DocTestFinder().find(source, name)
    finally:
        sys.modules[name] = module
    return [test for test in found if test.examples]


@pytest.mark.parametrize("module", list(EXAMPLES), ids=lambda module: module.__name__)
def test_the_public_api_has_examples(module: ModuleType) -> None:
    names = {test.name for test in docstring_tests(module)}
    assert EXAMPLES[module] <= names, f"no examples in {sorted(EXAMPLES[module] - names)}"


@pytest.mark.parametrize(
    "test",
    [test for module in EXAMPLES for test in docstring_tests(module)],
    ids=lambda test: test.name.removeprefix("quaymoor.rules."),
)
def test_the_examples_run_as_written(test: doctest.DocTest) -> None:
    report: list[str] = []
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test, out=report.append)
    assert runner.failures == 0, "".join(report)

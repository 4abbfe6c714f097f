"""The examples in the Hearts docstrings run. (Purity: tests/test_architecture.py.)"""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import games.hearts

PACKAGE = [f"games.hearts.{m.name}" for m in pkgutil.iter_modules(games.hearts.__path__)]
MODULES = [*sorted(PACKAGE), "games.hearts", "render.hearts"]


@pytest.mark.parametrize("name", MODULES)
def test_doctests_pass(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0

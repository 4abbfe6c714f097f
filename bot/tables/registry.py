"""Every game the bot offers, by kind: one :class:`GameSpec` per game, registered here.

The five built-in games are registered when this module is imported; another game (a test's
toy game, say) joins them with :func:`register` before the service is built.
"""

from __future__ import annotations

from bot.tables.checkers import SPEC as CHECKERS
from bot.tables.controller import Controller
from bot.tables.hearts import SPEC as HEARTS
from bot.tables.kabu import SPEC as KABU
from bot.tables.quarters import SPEC as QUARTERS
from bot.tables.quatorze import SPEC as QUATORZE
from bot.tables.spec import GameSpec

_SPECS: dict[str, GameSpec] = {}


def register(spec: GameSpec) -> GameSpec:
    """Offer a game. Its kind must be new; the order of registration is the order of lists."""
    if spec.kind in _SPECS and _SPECS[spec.kind] is not spec:
        raise ValueError(f"a game of kind {spec.kind!r} is registered already")
    _SPECS[spec.kind] = spec
    return spec


def unregister(kind: str) -> None:
    """Withdraw a game (for tests that registered one of their own)."""
    _SPECS.pop(kind, None)


def specs() -> dict[str, GameSpec]:
    """The registered games, in the order the bot lists them."""
    return dict(_SPECS)


def spec(kind: str) -> GameSpec:
    """One registered game; KeyError for an unknown kind."""
    return _SPECS[kind]


def controllers() -> dict[str, Controller]:
    """A fresh controller per registered game kind, in the order the bot lists them."""
    return {kind: s.make() for kind, s in _SPECS.items()}


for _builtin in (QUARTERS, CHECKERS, KABU, QUATORZE, HEARTS):
    register(_builtin)

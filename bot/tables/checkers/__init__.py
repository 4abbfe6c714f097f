"""Checkers at a table: a select of legal moves, draw offers, the PDN record, rated games.

- :mod:`.moves`: the menus of legal moves, and the moves that fit what a member types;
- :mod:`.record`: the PDN record and the animated replay;
- :mod:`.controller`: the controller that ties them together, and the registration.
"""

from __future__ import annotations

from bot.tables.checkers.controller import SPEC, CheckersController
from bot.tables.checkers.moves import CheckersUi, matching_moves

__all__ = ["SPEC", "CheckersController", "CheckersUi", "matching_moves"]

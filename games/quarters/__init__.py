"""Quarters: misère Nim with coins in piles. Whoever is left to take the last coin loses.

>>> state = State.new((3, 4, 5))
>>> state.legal_actions(0)[:3]
['1-1', '1-2', '1-3']
>>> winning_moves((3, 4, 5))
['1-2']
>>> state.apply(0, "1-2")
>>> state.piles
(1, 4, 5)
"""

from games.base import Engine
from games.quarters.ai import LEVELS, choose
from games.quarters.state import (
    MAX_COINS,
    MAX_PILES,
    QuartersView,
    State,
    format_move,
    parse_move,
)
from games.quarters.strategy import is_winning, nim_sum, winning_moves

ENGINE: Engine[State] = Engine("quarters", State, choose, LEVELS, instant=True)

__all__ = [
    "ENGINE",
    "LEVELS",
    "MAX_COINS",
    "MAX_PILES",
    "QuartersView",
    "State",
    "choose",
    "format_move",
    "is_winning",
    "nim_sum",
    "parse_move",
    "winning_moves",
]

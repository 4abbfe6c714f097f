"""Quatorze: a solitaire. Take pairs adding up to 14 from one row or column of a 5x5 grid.

>>> s = State.new(seed=5)
>>> while not s.is_over():
...     s.apply(0, choose(s, 0, "casual", seed=len(s.moves)))
>>> s.outcome().termination in ("won", "no-moves")
True
"""

from games.base import Engine
from games.quatorze.ai import LEVELS, Suggestion, choose, hint, suggest
from games.quatorze.state import QuatorzeView, State, Status, format_move, parse_move

ENGINE: Engine[State] = Engine("quatorze", State, choose, LEVELS)

__all__ = [
    "ENGINE",
    "LEVELS",
    "QuatorzeView",
    "State",
    "Status",
    "Suggestion",
    "choose",
    "format_move",
    "hint",
    "parse_move",
    "suggest",
]

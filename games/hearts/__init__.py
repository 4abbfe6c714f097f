"""Hearts for four seats: passing, tricks, the queen of spades, shooting the moon.

The engine (``state``) keeps every card; players and the AI see only ``State.view(seat)``.

>>> s = State.new(seed=5)
>>> len(s.legal_actions(0)), s.to_act()
(286, (0, 1, 2, 3))
>>> choose(s, 0, "beginner", 0.1, seed=1).startswith("pass-")
True
"""

from games.base import Engine
from games.hearts.actions import format_pass, format_play, parse_pass, parse_play
from games.hearts.ai import LEVELS, choose, choose_from_view
from games.hearts.rules import PassDirection, Phase, Rules
from games.hearts.state import HeartsView, State

ENGINE: Engine[State] = Engine("hearts", State, choose, LEVELS)

__all__ = [
    "ENGINE",
    "LEVELS",
    "HeartsView",
    "PassDirection",
    "Phase",
    "Rules",
    "State",
    "choose",
    "choose_from_view",
    "format_pass",
    "format_play",
    "parse_pass",
    "parse_play",
]

"""Kabu: a Japanese baccarat-like card game, played against the computer dealer.

>>> s = State.new(players=1, seed=3)
>>> s.apply(0, choose(s, 0))
>>> s.apply(0, choose(s, 0))
>>> s.is_over()
True
"""

from games.base import Engine
from games.kabu.ai import LEVELS, choose, hint
from games.kabu.hands import dealer_beats, hand_name, total
from games.kabu.odds import dealer_draws
from games.kabu.state import KabuView, Phase, Rules, State, format_pick, parse_pick

ENGINE: Engine[State] = Engine("kabu", State, choose, LEVELS)

__all__ = [
    "ENGINE",
    "LEVELS",
    "KabuView",
    "Phase",
    "Rules",
    "State",
    "choose",
    "dealer_beats",
    "dealer_draws",
    "format_pick",
    "hand_name",
    "hint",
    "parse_pick",
    "total",
]

"""The player's hint and the computer's play for a seat ("auto" play).

>>> from games.kabu.state import State
>>> s = State.new(players=1, seed=3)
>>> s.apply(0, "pick-5")
>>> draw, stand = hint(s, 0)
>>> 0 <= draw <= 1 and 0 <= stand <= 1
True
"""

from __future__ import annotations

import random
from fractions import Fraction

from games.base import N_, IllegalAction
from games.kabu.hands import total
from games.kabu.odds import hint_odds
from games.kabu.state import POSITIONS, Phase, State, format_pick, ranks

LEVELS: tuple[str, ...] = ("casual", "best")


def hint(state: State, seat: int) -> tuple[Fraction, Fraction]:
    """The exact chance that ``seat`` wins if it draws and if it stands, as ``(draw, stand)``.

    Only for the seat now deciding. Counts over every card not face up; other players to the
    right who have not decided yet are assumed to stand.
    """
    if state.phase is not Phase.DECIDE or seat not in state.to_act():
        raise IllegalAction(N_("A hint is for the player now deciding to draw or stand."))
    mine = state.picks[seat]
    assert mine is not None
    fixed = [
        ranks(state.positions[p]) for p in state.picks if p is not None and p != mine and p < mine
    ]
    right = [
        (int(state.positions[p][0].rank), state.owner(p) is not None)
        for p in range(mine + 1, POSITIONS)
    ]
    return hint_odds(
        ranks(state.positions[mine]),
        int(state.dealer[0].rank),
        fixed,
        right,
        state.unseen_counts(),
        state.rules.arashi,
    )


def choose(state: State, seat: int, level: str = "best", budget: float = 1.0, seed: int = 0) -> str:
    """A legal action for ``seat``: ``best`` picks a Shippin chance and follows the hint;
    ``casual`` picks at random and draws on 4 or less. ``budget`` is not needed (exact, fast).
    """
    legal = state.legal_actions(seat)
    if not legal:
        raise IllegalAction(N_("It is not this seat's turn."))
    rng = random.Random(seed)
    if state.phase is Phase.PICK:
        if level == "best":
            # Positions are alike except that an ace or a 4 may become Shippin.
            for rank in (1, 4):
                for spot in range(POSITIONS):
                    action = format_pick(spot + 1)
                    if action in legal and int(state.positions[spot][0].rank) == rank:
                        return action
        return rng.choice(legal)
    position = state.picks[seat]
    assert position is not None
    if level == "best":
        draw, stand = hint(state, seat)
        return "draw" if draw > stand else "stand"
    return "draw" if total(ranks(state.positions[position])) <= 4 else "stand"

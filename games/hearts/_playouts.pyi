"""Types of the optional compiled roll-outs (``_playouts.c``)."""

from collections.abc import Sequence

from games.hearts.rules import Rules

def play_out(
    rules: Rules,
    hands: Sequence[int],
    trick: Sequence[int],
    leader: int,
    played: int,
    points: Sequence[int],
    broken: bool,
    first_trick: bool,
    card: int = -1,
    sharp: bool = False,
) -> list[int]: ...
def rollouts(
    rules: Rules,
    hands: Sequence[int],
    trick: Sequence[int],
    leader: int,
    played: int,
    points: Sequence[int],
    broken: bool,
    first_trick: bool,
    cards: Sequence[int],
    seat: int,
    others_weight: float,
    sharp: bool = False,
) -> list[float]: ...

"""The evaluation: named terms, weights from the tuner, symmetric between the colours."""

from __future__ import annotations

import random

from games.checkers import evaluation as ev
from games.checkers.board import Board
from games.checkers.egdb import flip


def positions(count: int, seed: int) -> list[tuple[int, int, int, bool]]:
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        board = Board()
        for _ in range(rng.randrange(0, 90)):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
        out.append(board._raw())
    return out


def test_every_term_has_a_weight_and_a_name() -> None:
    assert set(ev.WEIGHT_MAP) == set(ev.TERMS) == set(ev.HAND_WEIGHTS)
    assert ev.WEIGHT_MAP["men"] == 100 and ev.WEIGHT_MAP["kings"] > 100
    assert {"mobility", "runaway", "dog_hole", "back_rank", "tempo_mid"} <= set(ev.TERMS)


def test_the_score_is_the_weighted_sum_of_the_terms() -> None:
    for me, opp, kings, black in positions(60, 1):
        f = ev.features(me, opp, kings, black)
        assert len(f) == len(ev.TERMS)
        assert ev.evaluate(me, opp, kings, black) == sum(
            w * x for w, x in zip(ev.WEIGHTS, f, strict=True)
        )


def test_turning_the_board_and_swapping_colours_changes_nothing() -> None:
    for me, opp, kings, black in positions(60, 2):
        assert ev.evaluate(me, opp, kings, black) == ev.evaluate(
            flip(me), flip(opp), flip(kings), not black
        )


def test_a_man_in_the_dog_hole_counts_against_its_side() -> None:
    # Black man on 28 with Red's man on 32 behind it; Red to move sees the hole from outside.
    black, red = 1 << 27 | 1 << 0, 1 << 31 | 1 << 20
    assert ev.features(black, red, 0, True)[ev.TERMS.index("dog_hole")] == 1
    assert ev.features(red, black, 0, False)[ev.TERMS.index("dog_hole")] == -1


def test_a_runaway_man_is_worth_more_than_a_blocked_one() -> None:
    # Black man on 21 racing to 29-32 with Red's only piece, a king, behind it on 4 or on 25.
    runaway = ev.features(1 << 20, 1 << 3, 1 << 3, True)[ev.TERMS.index("runaway")]
    blocked = ev.features(1 << 20, 1 << 24, 1 << 24, True)[ev.TERMS.index("runaway")]
    assert runaway > blocked

"""The evaluation: named terms, weights from the tuner, symmetric between the colours."""

from __future__ import annotations

import json
import random
from importlib import resources

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
    assert ev.WEIGHT_MAP["men"] == 100


def test_a_king_is_worth_more_than_a_man_and_a_man_more_than_nothing() -> None:
    # Black a piece up in a quiet ending: the extra piece a king, a man, or not there at all.
    black, red = sq(1, 3, 14), sq(29, 31)
    for extra in (10, 15, 18, 23):
        king = ev.evaluate(black | sq(extra), red, sq(extra), True)
        man = ev.evaluate(black | sq(extra), red, 0, True)
        assert king > man > ev.evaluate(black, red, 0, True)
    assert {"mobility", "runaway", "dog_hole", "back_rank", "tempo_mid"} <= set(ev.TERMS)


def test_the_score_is_the_weighted_sum_of_the_terms() -> None:
    for me, opp, kings, black in positions(60, 1):
        f = ev.features(me, opp, kings, black)
        assert len(f) == len(ev.TERMS)
        patterns = ev.pattern_indices(me, opp, black)
        assert ev.evaluate(me, opp, kings, black) == sum(
            w * x for w, x in zip(ev.WEIGHTS, f, strict=True)
        ) + sum(ev.PATTERN_WEIGHTS[i] for i in patterns)


def test_turning_the_board_and_swapping_colours_changes_nothing() -> None:
    for me, opp, kings, black in positions(60, 2):
        assert ev.evaluate(me, opp, kings, black) == ev.evaluate(
            flip(me), flip(opp), flip(kings), not black
        )


def test_each_region_has_an_index_of_its_own_seen_from_the_movers_side() -> None:
    for me, opp, _, black in positions(60, 3):
        regions = ev.pattern_indices(me, opp, black)
        assert len(regions) == len(ev.REGIONS) == 16
        size = ev.REGION_SIZE
        assert all(g * size <= i < (g + 1) * size for g, i in enumerate(regions))
        assert regions == ev.pattern_indices(flip(me), flip(opp), not black)
    assert all(len(squares) == 8 for squares in ev.REGIONS)
    assert len(ev.PATTERN_WEIGHTS) == ev.PATTERNS == 16 * 3**8


def test_a_region_reads_its_squares_as_base_3_digits() -> None:
    # Black to move, men on 1 (row 1) and 6 (row 2); Red's man on 5 (row 2). A region's squares
    # are base-3 digits, lowest square first: 1 for the mover's piece, 2 for the other side's.
    regions = ev.pattern_indices(sq(1, 6), sq(5), True)
    size = ev.REGION_SIZE
    assert ev.REGIONS[0] == tuple(range(8))  # the band of rows 1-2: squares 1-8
    assert regions[0] == 1 * 3**0 + 2 * 3**4 + 1 * 3**5
    assert regions[1] == size + 2 * 3**0 + 1 * 3**1  # rows 2-3: squares 5-12
    assert regions[2:7] == [g * size for g in range(2, 7)]
    # The first box, rows and columns 1-4, holds squares 1, 2, 5, 6, 9, 10, 13, 14.
    assert ev.REGIONS[7] == (0, 1, 4, 5, 8, 9, 12, 13)
    assert regions[7] == 7 * size + 1 * 3**0 + 2 * 3**2 + 1 * 3**3
    # Red to move reads the same board from squares 32-29 (its back row) up.
    assert ev.pattern_indices(sq(32, 27), sq(28), False) == regions


def test_the_start_position_scores_the_same_for_either_colour_to_move() -> None:
    black, red = sq(*range(1, 13)), sq(*range(21, 33))
    assert ev.evaluate(black, red, 0, True) == ev.evaluate(red, black, 0, False)
    assert abs(ev.evaluate(black, red, 0, True)) < 30  # level, give or take having the move


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


def sq(*squares: int) -> int:
    """A bitboard of squares numbered 1-32."""
    return sum(1 << (s - 1) for s in squares)


def term(name: str, me: int, opp: int, kings: int, black: bool) -> int:
    return ev.features(me, opp, kings, black)[ev.TERMS.index(name)]


def test_the_squares_terms_see_each_man_from_its_owners_side() -> None:
    # Black's man on 9 and Red's man on 24 both stand on their owner's ninth square.
    assert term("man_late_9", sq(9), sq(24), 0, True) == 0
    assert term("man_late_9", sq(9), sq(23), 0, True) == 1
    assert term("man_late_9", sq(24), sq(10), 0, False) == 1
    # With more than 16 pieces the early table counts instead.
    crowd_black, crowd_red = sq(*range(1, 10)), sq(*range(24, 33))
    assert term("man_early_1", crowd_black, crowd_red, 0, True) == 0
    assert term("man_early_9", crowd_black, crowd_red, 0, True) == 0
    assert term("man_early_9", crowd_black, crowd_red & ~sq(24), 0, True) == 1


def test_a_king_counts_on_its_owners_square() -> None:
    # Black king on 1 is Black's square 1; Red's king on 32 is Red's square 1.
    assert term("king_1", sq(1), sq(32), sq(1, 32), True) == 0
    assert term("king_1", sq(1), sq(31), sq(1, 31), True) == 1


def test_the_back_row_counts_as_a_pattern_while_the_other_side_has_men() -> None:
    # Black holds 1 and 3 (the bridge: pattern bits 0 and 2), Red's men are far away.
    black, red = sq(1, 3), sq(21)
    assert term("home_5", black, red, 0, True) == 1
    # Red holding its own 30 and 32 (its squares 3 and 1) is the same pattern.
    assert term("home_5", sq(21, 30, 32), sq(10), 0, False) == 1
    # Once the other side has only kings, the back row guards nothing.
    assert term("home_5", black, red, red, True) == 0


def test_a_king_with_no_move_is_trapped() -> None:
    # Black king on 4 hemmed in by Red's men on 8 and a Red man on 11 guarding 8's jump.
    me, opp = sq(4), sq(8, 11)
    assert term("trapped_kings", me, opp, sq(4), True) == 1
    assert term("king_mobility", me, opp, sq(4), True) == 0
    free = sq(14)
    assert term("trapped_kings", free, opp, free, True) == 0
    assert term("king_mobility", free, opp, free, True) == 4


def test_men_lopsided_on_one_wing_count_against_their_side() -> None:
    left, right = sq(5, 9, 13), sq(8, 12, 16)  # Black: three on each wing in turn
    assert term("balance", left, sq(29, 32), 0, True) == 3
    assert term("balance", left | right, sq(29, 32), 0, True) == 0


def test_kings_against_none_count_for_their_side() -> None:
    assert term("sole_kings", sq(14), sq(29), sq(14), True) == 1
    assert term("sole_kings", sq(14), sq(29), sq(14, 29), True) == 0
    assert term("sole_kings", sq(14), sq(29), sq(29), True) == -1


def test_the_move_is_odd_pieces_on_the_movers_system_with_level_material() -> None:
    # Black's system is the rows of its squares 1-4, 9-12, 17-20, 25-28. Kings on 1 and 32:
    # one piece there, so Black to move has the move; Red to move (its system the other rows)
    # counts one too and has it as well.
    kings = sq(1, 32)
    assert term("the_move", sq(1), sq(32), kings, True) == 1
    assert term("the_move", sq(32), sq(1), kings, False) == 1
    # Black king on 5 instead: no piece on Black's system, so Black to move lacks it.
    assert term("the_move", sq(5), sq(32), sq(5, 32), True) == -1
    # Not counted with unequal material or many pieces.
    assert term("the_move", sq(1, 2), sq(32), sq(1, 2, 32), True) == 0


def test_a_weights_file_read_again_gives_the_weights_the_search_is_given() -> None:
    saved = json.loads(resources.files("games.checkers").joinpath("weights.json").read_text())
    assert ev.all_weights(saved) == ev.ALL_WEIGHTS == ev.all_weights()
    # A trial file names only some terms and has no patterns: the rest are the hand-set
    # weights, and the search is given the terms alone.
    trial = ev.all_weights({"weights": {"men": 100, "kings": 50}})
    assert len(trial) == len(ev.TERMS)
    assert trial[ev.TERMS.index("kings")] == 50
    assert trial[ev.TERMS.index("trade")] == ev.HAND_WEIGHTS["trade"]

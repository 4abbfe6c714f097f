"""Replays: one frame a position plus the held final frame, each frame the board renderer's own
picture of that position, timing of about a second a move, and alt text with the same facts."""

from __future__ import annotations

import io
import random

import pytest
from example_counts import examples
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image, ImageChops, ImageStat

from games.checkers.pdn import read_pdn
from games.hearts import State as HeartsState
from games.quarters import State as QuartersState
from render.animation import DESCRIPTION_LIMIT, fit_description
from render.checkers import render_checkers
from render.hearts_replay import hand_record, hands_played, replay_hearts_hand
from render.replay import (
    FIRST_MS,
    HOLD_MS,
    MOVE_MS,
    checkers_views,
    replay_checkers,
    replay_checkers_pdn,
    replay_quarters,
)

OPENING = """[Event "Club night"]
[Black "Ann"]
[White "Bob"]
[Result "*"]

1. 11-15 23-19 2. 8-11 22-17 3. 9-13 17-14 4. 10x17 21x14 *
"""
DOUBLE_JUMP_WIN = """[Black "Ann"]
[White "Bob"]
[SetUp "1"]
[FEN "B:W14,23:B9"]
[Result "1-0"]

1. 9x18x27 1-0
"""


def _frames(data: bytes) -> tuple[list[Image.Image], list[int]]:
    """Every frame of an animation as RGB, and each frame's duration in milliseconds."""
    frames, durations = [], []
    with Image.open(io.BytesIO(data)) as image:
        for index in range(image.n_frames):
            image.seek(index)
            frames.append(image.convert("RGB"))
            durations.append(image.info["duration"])
    return frames, durations


def _difference(a: Image.Image, b: Image.Image) -> float:
    """Mean absolute difference per channel (0 identical, 255 opposite)."""
    return sum(ImageStat.Stat(ImageChops.difference(a, b)).mean) / 3


def _share_off(a: Image.Image, b: Image.Image, tolerance: int = 48) -> float:
    """The share of pixels that differ by more than ``tolerance`` grey levels: a GIF palette
    moves colours a little, a different position moves whole squares a lot."""
    off = ImageChops.difference(a, b).convert("L").point(lambda v: 255 if v > tolerance else 0)
    return off.histogram()[255] / (a.width * a.height)


def _board(view: dict) -> Image.Image:
    return Image.open(io.BytesIO(render_checkers(view).png)).convert("RGB")


def test_a_checkers_replay_has_one_frame_per_position_plus_the_held_final_frame() -> None:
    animation = replay_checkers_pdn(OPENING)
    frames, durations = _frames(animation.data)
    plies = len(read_pdn(OPENING).moves)
    assert len(frames) == animation.frames == plies + 2
    assert durations == [FIRST_MS] + [MOVE_MS] * plies + [HOLD_MS]
    assert animation.filename.endswith(".gif") and animation.data[:6] == b"GIF89a"


def test_each_replay_frame_is_the_board_renderers_picture_of_its_position() -> None:
    views = checkers_views(read_pdn(OPENING).moves)
    boards = [_board(view) for view in views]
    frames, _ = _frames(replay_checkers_pdn(OPENING).data)
    width, height = boards[0].size
    tops = [frame.crop((0, 0, width, height)) for frame in frames]
    for ply, top in enumerate(tops[:-1]):
        shares = [_share_off(top, board) for board in boards]
        # the same picture up to the GIF palette, and unlike any other position's picture
        assert shares[ply] < 0.001, (ply, shares[ply])
        assert all(share > 0.01 for i, share in enumerate(shares) if i != ply), (ply, shares)
        assert _difference(top, boards[ply]) < 2.0
    assert _share_off(tops[-1], boards[-1]) < 0.001  # the held frame shows the final position
    strip = (0, height, width, frames[-1].height)
    assert _difference(frames[-1].crop(strip), frames[-2].crop(strip)) > 1.0  # result caption


def test_a_replay_ending_in_a_win_names_the_winner_and_the_final_position() -> None:
    animation = replay_checkers_pdn(DOUBLE_JUMP_WIN)
    assert animation.frames == 3
    text = animation.description
    assert text.startswith("Replay of a checkers game, Ann (Black) v Bob (Red), 1 move.")
    assert "Ann (Black) wins: Red cannot move." in text
    assert "Moves: 1. 9x18x27" in text
    assert text.endswith("Final position: b: 27.")


def test_a_final_position_that_ends_the_game_tells_its_own_result() -> None:
    game = read_pdn(DOUBLE_JUMP_WIN)
    resigned = {"winners": [1], "termination": "resign"}
    animation = replay_checkers(game.moves, game.tags["FEN"], outcome=resigned)
    assert "Black wins: Red cannot move." in animation.description


def test_a_resigned_game_shows_the_stored_outcome() -> None:
    animation = replay_checkers(
        ["11-15"], names=("Ann", "Bob"), outcome={"winners": [0], "termination": "resign"}
    )
    assert "Ann (Black) wins: Red resigned." in animation.description


def test_a_long_replay_stays_small_and_its_alt_text_within_discords_limit() -> None:
    rng = random.Random(111)  # a random game of 150 plies, from a fixed seed
    views = checkers_views([])
    moves: list[str] = []
    while len(moves) < 150 and views[-1]["legal_moves"]:
        moves.append(rng.choice(views[-1]["legal_moves"]))
        views = checkers_views(moves)[-1:]
    assert len(moves) == 150
    animation = replay_checkers(moves)
    assert animation.frames == 152
    assert len(animation.data) < 3 * 1024 * 1024  # Discord takes 10 MB; stay well inside
    assert len(animation.description) <= DESCRIPTION_LIMIT
    assert "…" in animation.description and "Final position:" in animation.description


def test_a_game_from_a_position_with_red_to_move_numbers_reds_move_first() -> None:
    animation = replay_checkers(["30-26", "9x18x27"], "W:W14,23,30:B9,5", names=("Ann", "Bob"))
    assert animation.frames == 4
    assert "Moves: 1. ... 30-26 2. 9x18x27" in animation.description


@settings(max_examples=examples(5), deadline=None)
@given(st.randoms(use_true_random=False), st.integers(0, 12))
def test_every_quarters_game_replays_one_frame_a_position_plus_the_result(
    rng: random.Random, length: int
) -> None:
    state = QuartersState.new([3, 4, 5])
    while len(state.moves) < length and not state.is_over():
        state.apply(state.turn, rng.choice(state.legal_actions(state.turn)))
    animation = replay_quarters([3, 4, 5], state.moves, names=("Ann", "Bob"))
    frames, _ = _frames(animation.data)
    assert len(frames) == animation.frames == len(state.moves) + 2
    assert animation.description.endswith("Final piles: " + ", ".join(map(str, state.piles)) + ".")


def test_a_quarters_replay_lifts_the_coins_each_move_takes_and_holds_the_result() -> None:
    animation = replay_quarters([3, 4, 5], ["3-2", "1-3", "2-4", "3-2"], names=("Ann", "Bob"))
    frames, durations = _frames(animation.data)
    # four positions before a move, the final position, the held result
    assert len(frames) == 6
    assert durations == [FIRST_MS, MOVE_MS, MOVE_MS, MOVE_MS, MOVE_MS, HOLD_MS]
    assert "Bob wins: Ann is left with the last coin." in animation.description
    assert "2. Bob takes 3 from pile 1." in animation.description
    assert animation.description.endswith("Final piles: 0, 0, 1.")


def _finished_hearts(seed: int) -> HeartsState:
    rng = random.Random(seed)
    state = HeartsState.new(seed=seed)
    while not state.is_over():
        seat = state.to_act()[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    return state


def test_a_hearts_hand_is_replayed_face_up_only_once_the_game_is_over() -> None:
    state = HeartsState.new(seed=3)
    with pytest.raises(ValueError, match="once the game is over"):
        replay_hearts_hand(state.to_dict(), 1)
    finished = _finished_hearts(5).to_dict()
    with pytest.raises(ValueError, match="hands 1 to"):
        replay_hearts_hand(finished, hands_played(finished) + 1)


def test_a_hearts_hand_record_replays_the_stored_hand_through_the_engine() -> None:
    data = _finished_hearts(5).to_dict()
    for number in range(1, hands_played(data) + 1):
        stored = data["history"][number - 1]
        record = hand_record(data, number)
        assert len(record.tricks) == 13
        assert all(sorted(s for s, _ in t.plays) == [0, 1, 2, 3] for t in record.tricks)
        played = [str(c) for t in record.tricks for _, c in t.plays]
        assert " ".join(played) == stored["plays"]
        assert list(record.tricks[-1].points) == stored["taken"]
        assert list(record.scores) == stored["scores"]
        assert sorted(c for hand in record.hands for c in hand) == sorted(
            c for t in record.tricks for _, c in t.plays
        )


def test_a_hearts_replay_has_the_pass_each_trick_and_the_held_scores() -> None:
    data = _finished_hearts(5).to_dict()
    animation = replay_hearts_hand(data, 2, ["Ann", "Bob", "Cy", "Di"])
    frames, durations = _frames(animation.data)
    assert len(frames) == 1 + 13 + 1
    assert durations[0] > durations[1] and durations[-1] > durations[1]
    scores = data["history"][1]["scores"]
    assert animation.description.startswith(
        f"Replay of Hearts round 2, face up, passed to the right, 13 tricks. Round scores: "
        f"Ann {scores[0]}, Bob {scores[1]}, Cy {scores[2]}, Di {scores[3]}."
    )
    assert len(animation.description) <= DESCRIPTION_LIMIT


def test_alt_text_keeps_its_head_and_tail_and_cuts_the_middle() -> None:
    text = fit_description("Head.", "Tail.", [f"item {i}" for i in range(500)])
    assert text.startswith("Head. item 0 item 1") and text.endswith("… Tail.")
    assert len(text) <= DESCRIPTION_LIMIT
    assert fit_description("Head.", "Tail.", ["a", "b"]) == "Head. a b Tail."

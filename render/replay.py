"""Replays: a finished game as an animated GIF that plays itself, one frame a position.

Pure functions from a game record to an :class:`~render.animation.Animation` (bytes, file name,
alt text, timing). Each board frame is the game's own renderer's picture of that position
(``render_checkers``, ``render_quarters``) with a caption strip under it: the move number and
notation, the players, a progress bar. The last frame holds the final position with the result.

>>> anim = replay_checkers(["11-15", "23-19"], names=("Ann", "Bob"))
>>> anim.frames, anim.data[:6]
(4, b'GIF89a')
"""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from PIL import Image

from games.checkers import CheckersView, read_pdn
from games.checkers import State as CheckersState
from games.quarters import State as QuartersState
from games.quarters import parse_move
from games.quarters.state import QuartersView
from render.animation import (
    Animation,
    Caption,
    Reel,
    caption_sizes,
    caption_strip,
    fit_description,
    strip_height,
    with_caption,
    with_strip,
)
from render.base import fit_text
from render.checkers import WIDTH as CHECKERS_WIDTH
from render.checkers import describe as describe_checkers
from render.checkers import render_checkers
from render.quarters import board_width, render_quarters

MOVE_MS = 1000  # about one second a move
FIRST_MS = 1500  # the start position stays a little longer
HOLD_MS = 4000  # the final position is held
SIDES = ("Black", "Red")
_SWATCH_FEN, _SWATCH_MOVE = "B:W14,23,K30,20:B9,K1,5,6", "9x18x27"
_PDN_RESULTS = {"1-0": (0,), "2-0": (0,), "0-1": (1,), "0-2": (1,)}


def _decoded(png: bytes) -> Image.Image:
    with Image.open(io.BytesIO(png)) as image:
        return image.convert("RGB")


def _plural(count: int, word: str, many: str = "") -> str:
    return f"{count} {word if count == 1 else many or word + 's'}"


# -- checkers --------------------------------------------------------------------------------


def checkers_views(moves: Sequence[str], start_fen: str | None = None) -> list[CheckersView]:
    """The view of every position of a game: the start, then one after each move."""
    state = CheckersState.new(start_fen)
    views = [state.view(None)]
    for move in moves:
        state.apply(state.to_act()[0], move)
        views.append(state.view(None))
    return views


def _checkers_player(side: int, names: Sequence[str]) -> str:
    name = names[side] if side < len(names) else ""
    return f"{name} ({SIDES[side]})" if name else SIDES[side]


def checkers_result_text(outcome: Mapping[str, Any] | None, names: Sequence[str] = ()) -> str:
    """The result in words: ``"Ann (Black) wins: Red cannot move"``, ``"Draw agreed"``."""
    if not outcome:
        return "Game not finished"
    winners = list(outcome.get("winners") or [])
    why = outcome.get("termination", "")
    if winners:
        loser = SIDES[1 - winners[0]]
        reason = {
            "no-moves": f"{loser} cannot move",
            "resign": f"{loser} resigned",
            "timeout": f"{loser} stopped moving",
        }.get(why, "")
        text = f"{_checkers_player(winners[0], names)} wins"
        return f"{text}: {reason}" if reason else text
    return {
        "repetition": "Draw: the same position three times",
        "forty-moves": "Draw: 40 moves each without a capture or a man moved",
        "agreement": "Draw agreed",
    }.get(why, "Draw")


def _move_title(views: Sequence[CheckersView], ply: int, red_first: bool) -> str:
    """``"Move 12 · Red 22x15"`` for the move that led to ``views[ply]`` (ply from 1)."""
    mover = views[ply - 1]["turn"]
    number = (ply - 1 + (1 if red_first else 0)) // 2 + 1
    last = views[ply]["last_move"]
    assert last is not None  # every position after the start has the move that led to it
    title = f"Move {number} · {SIDES[mover]} {last['notation']}"
    if last["captured"]:
        title += f", takes {','.join(map(str, last['captured']))}"
    return title


def replay_checkers(
    moves: Sequence[str],
    start_fen: str | None = None,
    *,
    names: Sequence[str] = ("", ""),
    outcome: Mapping[str, Any] | None = None,
    flip: bool = False,
) -> Animation:
    """Every position of a checkers game as a looping GIF: see :func:`checkers_reel`."""
    return checkers_reel(moves, start_fen, names=names, outcome=outcome, flip=flip).encode()


def checkers_reel(
    moves: Sequence[str],
    start_fen: str | None = None,
    *,
    names: Sequence[str] = ("", ""),
    outcome: Mapping[str, Any] | None = None,
    flip: bool = False,
) -> Reel:
    """Every position of a checkers game, a second each, the last move marked, then the final
    position held with the result.

    ``moves`` and ``start_fen`` are what the game state stores (``State.to_dict()``);
    ``names`` are Black's and Red's; ``outcome`` (an ``Outcome.to_dict()``) tells how a game
    ended that the final position does not show (resignation, a claim, agreement); when the
    final position is itself the end (no moves, a draw by rule), the position's own is used.
    """
    views = checkers_views(moves, start_fen)
    final = views[-1]
    outcome = final["outcome"] or outcome
    red_first = bool(start_fen) and str(start_fen).upper().startswith("W")
    plies = len(views) - 1
    players = f"{_checkers_player(0, names)} v {_checkers_player(1, names)}"
    result = checkers_result_text(outcome, names)
    short = _players(CHECKERS_WIDTH, [_checkers_player(side, names) for side in (0, 1)])
    cut = [_short(CHECKERS_WIDTH, name) for name in names]
    captions = [Caption("Start", short, 0.0 if plies else 1.0)]
    for ply in range(1, plies + 1):
        detail = f"move {ply}/{plies} · {short}"
        captions.append(Caption(_move_title(views, ply, red_first), detail, ply / plies))
    counted = f"final position · {_plural(plies, 'move')}"
    captions.append(Caption(checkers_result_text(outcome, cut), counted, 1.0, final=True))
    height = strip_height(CHECKERS_WIDTH, captions)

    def draw(index: int) -> Image.Image:
        board = _decoded(render_checkers(views[min(index, plies)], flip=flip).png)
        return with_caption(board, captions[index], height)

    durations = (FIRST_MS, *[MOVE_MS] * plies, HOLD_MS)
    head = f"Replay of a checkers game, {players}, {_plural(plies, 'move')}. {result}."
    tail = f"Final position: {describe_checkers({**final, 'outcome': None, 'last_move': None})}"
    tail = tail.replace(f"{final['turn_name']} to move. ", "")
    description = fit_description(head, tail, _numbered(list(moves), red_first))
    swatch = _swatch(flip, height)
    return Reel(draw, durations, description, "checkers-replay.gif", (swatch,))


def _players(width: int, who: Sequence[str]) -> str:
    """``"Ann (Black) v Bob (Red)"`` with long names cut so that it fits a caption's line."""
    _, size = caption_sizes(width)
    room = (width - 40) / 2 - 20
    return " v ".join(fit_text(name, size, room) for name in who)


@lru_cache(maxsize=8)
def _swatch(flip: bool, height: int) -> Image.Image:
    """A board with men and kings of both colours and a marked double capture, so the shared
    palette holds every colour a replay can show."""
    state = CheckersState.new(_SWATCH_FEN)
    state.apply(0, _SWATCH_MOVE)
    board = _decoded(render_checkers(state.view(None), flip=flip).png)
    strip = caption_strip(board.width, "Swatch", "palette", 0.5, final=True, height=height)
    return with_strip(board, strip)


def _numbered(moves: list[str], red_first: bool) -> list[str]:
    """``["Moves: 1. 11-15 23-19", "2. 8-11 22-17", ...]`` (the record in pairs)."""
    plies = (["..."] if red_first else []) + moves
    pairs = [f"{n // 2 + 1}. {' '.join(plies[n : n + 2])}" for n in range(0, len(plies), 2)]
    return [f"Moves: {pairs[0]}", *pairs[1:]] if pairs else []


def replay_checkers_pdn(text: str, *, flip: bool = False) -> Animation:
    """A replay of a PDN record: names from the Black and White (Red) tags, the result from
    the final position, else from the Result tag."""
    game = read_pdn(text)
    names = tuple(
        "" if game.tags.get(tag, "?") == "?" else game.tags[tag] for tag in ("Black", "White")
    )
    outcome = None
    result = game.tags.get("Result", "*")
    if result in _PDN_RESULTS:
        outcome = {"winners": list(_PDN_RESULTS[result]), "termination": "result"}
    elif result in ("1/2-1/2", "1-1"):
        outcome = {"winners": [], "termination": "result"}
    return replay_checkers(
        game.moves, game.tags.get("FEN"), names=names, outcome=outcome, flip=flip
    )


# -- quarters --------------------------------------------------------------------------------


def _quarters_names(names: Sequence[str]) -> tuple[str, str]:
    padded = [*names, "", ""]
    return padded[0] or "Player 1", padded[1] or "Player 2"


def quarters_result_text(outcome: Mapping[str, Any] | None, names: Sequence[str] = ()) -> str:
    """``"Ann wins: Bob is left with the last coin"``."""
    if not outcome or not outcome.get("winners"):
        return "Game not finished" if not outcome else "No winner"
    who = _quarters_names(names)
    winner = outcome["winners"][0]
    loser = who[1 - winner]
    reason = {
        "last-coin": f"{loser} is left with the last coin",
        "took-last-coin": f"{loser} took the last coin",
        "resign": f"{loser} resigned",
        "timeout": f"{loser} stopped playing",
    }.get(outcome.get("termination", ""), "")
    return f"{who[winner]} wins" + (f": {reason}" if reason else "")


def replay_quarters(
    start: Sequence[int],
    moves: Sequence[str],
    first: int = 0,
    *,
    names: Sequence[str] = ("", ""),
    outcome: Mapping[str, Any] | None = None,
) -> Animation:
    """Every position of a Quarters game as a looping GIF: see :func:`quarters_reel`."""
    return quarters_reel(start, moves, first, names=names, outcome=outcome).encode()


def quarters_reel(
    start: Sequence[int],
    moves: Sequence[str],
    first: int = 0,
    *,
    names: Sequence[str] = ("", ""),
    outcome: Mapping[str, Any] | None = None,
) -> Reel:
    """Every position of a Quarters game: the coins the next move takes are lifted in gold and
    the caption names the move; the final position is held with the result.

    ``start``, ``moves`` and ``first`` are what the state stores (``State.to_dict()``).
    """
    state = QuartersState.new(start, first)
    who = _quarters_names(names)
    width = board_width(start)
    players = _players(width, who)
    views: list[QuartersView] = []
    taken: list[list[tuple[int, int]]] = []
    captions: list[Caption] = []
    lines: list[str] = []
    total = len(moves)
    for index, move in enumerate(moves):
        pile, count = parse_move(move)
        size = state.piles[pile - 1]
        taken.append([(pile, coin) for coin in range(size - count + 1, size + 1)])
        views.append(state.view(None))
        mover = who[state.turn]
        title = f"Move {index + 1} · {_short(width, mover)} takes {count} from pile {pile}"
        captions.append(Caption(title, players, index / total))
        lines.append(f"{index + 1}. {mover} takes {count} from pile {pile}.")
        state.apply(state.turn, move)
    view = state.view(None)
    views += [view, view]
    taken += [[], []]
    outcome = view["outcome"] or outcome
    result = quarters_result_text(outcome, who)
    captions.append(Caption(f"After move {total}" if total else "Start", players, 1.0))
    moved = f"final position · {_plural(total, 'move')}"
    cut = [_short(width, name) for name in who]
    captions.append(Caption(quarters_result_text(outcome, cut), moved, 1.0, final=True))
    height = strip_height(width, captions)

    def draw(index: int) -> Image.Image:
        shown = views[index]
        status = f"{_plural(sum(shown['piles']), 'coin')} left"
        picture = render_quarters(shown, selected=taken[index], names=who, status=status)
        return with_caption(_decoded(picture.png), captions[index], height)

    durations = (*[FIRST_MS if i == 0 else MOVE_MS for i in range(total)], MOVE_MS, HOLD_MS)
    piles = ", ".join(str(p) for p in start)
    head = (
        f"Replay of a Quarters game, {who[0]} v {who[1]}, piles {piles}, "
        f"{_plural(total, 'move')}. {result}."
    )
    tail = "Final piles: " + ", ".join(str(p) for p in state.piles) + "."
    description = fit_description(head, tail, lines)
    return Reel(draw, durations, description, "quarters-replay.gif")


def _short(width: int, name: str) -> str:
    """A name cut to half a caption's title line."""
    title_size, _ = caption_sizes(width)
    return fit_text(name, title_size, (width - 32) / 2)

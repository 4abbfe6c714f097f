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
from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache
from typing import Any, cast

from PIL import Image

from games.base import OutcomeDict
from games.checkers import CheckersView, read_pdn
from games.checkers import State as CheckersState
from games.quarters import State as QuartersState
from games.quarters import parse_move
from games.quarters.state import QuartersView
from i18n import Message, _np, _p, render, sentences
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
SIDES = (_p("checkers side", "Black"), _p("checkers side", "Red"))
_SWATCH_FEN, _SWATCH_MOVE = "B:W14,23,K30,20:B9,K1,5,6", "9x18x27"
_PDN_RESULTS = {"1-0": (0,), "2-0": (0,), "0-1": (1,), "0-2": (1,)}
_START = _p("replay", "Start")
_NOT_FINISHED = _p("replay", "Game not finished")
_CHECKERS_WINS: dict[str, Callable[[str, Message], Message]] = {  # how the loser lost
    "no-moves": lambda winner, loser: _p(
        "checkers replay", "{winner} wins: {loser} cannot move", winner=winner, loser=loser
    ),
    "resign": lambda winner, loser: _p(
        "checkers replay", "{winner} wins: {loser} resigned", winner=winner, loser=loser
    ),
    "timeout": lambda winner, loser: _p(
        "checkers replay", "{winner} wins: {loser} stopped moving", winner=winner, loser=loser
    ),
}
_CHECKERS_DRAWS = {
    "repetition": _p("checkers replay", "Draw: the same position three times"),
    "forty-moves": _p("checkers replay", "Draw: 40 moves each without a capture or a man moved"),
    "agreement": _p("checkers replay", "Draw agreed"),
}
_QUARTERS_WINS: dict[str, Callable[[str, str], Message]] = {  # how the loser lost
    "last-coin": lambda winner, loser: _p(
        "quarters replay",
        "{winner} wins: {loser} is left with the last coin",
        winner=winner,
        loser=loser,
    ),
    "took-last-coin": lambda winner, loser: _p(
        "quarters replay", "{winner} wins: {loser} took the last coin", winner=winner, loser=loser
    ),
    "resign": lambda winner, loser: _p(
        "quarters replay", "{winner} wins: {loser} resigned", winner=winner, loser=loser
    ),
    "timeout": lambda winner, loser: _p(
        "quarters replay", "{winner} wins: {loser} stopped moving", winner=winner, loser=loser
    ),
}


def _decoded(png: bytes) -> Image.Image:
    with Image.open(io.BytesIO(png)) as image:
        return image.convert("RGB")


def _won(winner: str, how: Message | None) -> Message:
    """``"Ann wins: Bob resigned"`` (``how``), or ``"Ann wins"`` when the end needs no reason."""
    return how if how is not None else _p("replay", "{winner} wins", winner=winner)


def _counted(plies: int) -> Message:
    return _np("replay", "final position · {n} move", "final position · {n} moves", plies)


def _versus(first: str, second: str) -> Message:
    return _p("replay", "{first} v {second}", first=first, second=second)


# -- checkers --------------------------------------------------------------------------------


def checkers_views(moves: Sequence[str], start_fen: str | None = None) -> list[CheckersView]:
    """The view of every position of a game: the start, then one after each move."""
    state = CheckersState.new(start_fen)
    views = [state.view(None)]
    for move in moves:
        state.apply(state.to_act()[0], move)
        views.append(state.view(None))
    return views


def _checkers_player(side: int, names: Sequence[str], lang: str) -> str:
    name = names[side] if side < len(names) else ""
    colour = render(SIDES[side], lang)
    return render(_p("replay", "{name} ({side})", name=name, side=colour), lang) if name else colour


def checkers_result_text(
    outcome: Mapping[str, Any] | None, names: Sequence[str] = (), lang: str = "en"
) -> str:
    """The result in words: ``"Ann (Black) wins: Red cannot move"``, ``"Draw agreed"``."""
    if not outcome:
        return render(_NOT_FINISHED, lang)
    winners = list(outcome.get("winners") or [])
    why = outcome.get("termination", "")
    if winners:
        winner, loser = _checkers_player(winners[0], names, lang), SIDES[1 - winners[0]]
        how = _CHECKERS_WINS.get(why)
        return render(_won(winner, how(winner, loser) if how else None), lang)
    return render(_CHECKERS_DRAWS.get(why, _p("checkers replay", "Draw")), lang)


def _move_title(views: Sequence[CheckersView], ply: int, red_first: bool) -> Message:
    """``"Move 12 · Red 22x15"`` for the move that led to ``views[ply]`` (ply from 1)."""
    mover = SIDES[views[ply - 1]["turn"]]
    number = (ply - 1 + (1 if red_first else 0)) // 2 + 1
    last = views[ply]["last_move"]
    assert last is not None  # every position after the start has the move that led to it
    move = last["notation"]
    if last["captured"]:
        took = ",".join(map(str, last["captured"]))
        return _p(
            "checkers replay", "Move {number} · {side} {move}, takes {squares}",
            number=number, side=mover, move=move, squares=took,
        )  # fmt: skip
    return _p(
        "checkers replay", "Move {number} · {side} {move}", number=number, side=mover, move=move
    )


def replay_checkers(
    moves: Sequence[str],
    start_fen: str | None = None,
    *,
    names: Sequence[str] = ("", ""),
    outcome: Mapping[str, Any] | None = None,
    flip: bool = False,
    lang: str = "en",
) -> Animation:
    """Every position of a checkers game as a looping GIF: see :func:`checkers_reel`."""
    reel = checkers_reel(moves, start_fen, names=names, outcome=outcome, flip=flip, lang=lang)
    return reel.encode()


def checkers_reel(
    moves: Sequence[str],
    start_fen: str | None = None,
    *,
    names: Sequence[str] = ("", ""),
    outcome: Mapping[str, Any] | None = None,
    flip: bool = False,
    lang: str = "en",
) -> Reel:
    """Every position of a checkers game, a second each, the last move marked, then the final
    position held with the result; its words (captions, alt text) in the language ``lang``.

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
    both = [_checkers_player(side, names, lang) for side in (0, 1)]
    result = checkers_result_text(outcome, names, lang)
    short = _players(CHECKERS_WIDTH, both, lang)
    cut = [_short(CHECKERS_WIDTH, name) for name in names]
    captions = [Caption(render(_START, lang), short, 0.0 if plies else 1.0)]
    for ply in range(1, plies + 1):
        detail = _p("replay", "move {ply}/{plies} · {players}", ply=ply, plies=plies, players=short)
        title = render(_move_title(views, ply, red_first), lang)
        captions.append(Caption(title, render(detail, lang), ply / plies))
    result_caption = checkers_result_text(outcome, cut, lang)
    captions.append(Caption(result_caption, render(_counted(plies), lang), 1.0, final=True))
    height = strip_height(CHECKERS_WIDTH, captions)

    # the held frame's board says the result too (a resignation is not in the position)
    held = final.copy()
    if outcome:
        held["outcome"] = cast(OutcomeDict, dict(outcome))

    def draw(index: int) -> Image.Image:
        view = views[index] if index <= plies else held
        board = _decoded(render_checkers(view, flip=flip, lang=lang).png)
        return with_caption(board, captions[index], height)

    durations = (FIRST_MS, *[MOVE_MS] * plies, HOLD_MS)
    head = _np(
        "replay",
        "Replay of a checkers game, {players}, {n} move.",
        "Replay of a checkers game, {players}, {n} moves.",
        plies,
        players=_versus(*both),
    )
    pieces = describe_checkers({**final, "outcome": None, "last_move": None}, lang, turn=False)
    tail = _p("replay", "Final position: {position}", position=pieces)
    description = fit_description(
        render(sentences(head, _p("replay", "{result}.", result=result)), lang),
        render(tail, lang),
        _numbered(list(moves), red_first, lang),
    )
    swatch = _swatch(flip, height)
    return Reel(draw, durations, description, "checkers-replay.gif", (swatch,))


def _players(width: int, who: Sequence[str], lang: str) -> str:
    """``"Ann (Black) v Bob (Red)"`` with long names cut so that it fits a caption's line."""
    size = caption_sizes(width)[1]
    room = (width - 40) / 2 - 20
    return render(_versus(*(fit_text(name, size, room) for name in who)), lang)


@lru_cache(maxsize=8)
def _swatch(flip: bool, height: int) -> Image.Image:
    """A board with men and kings of both colours and a marked double capture, so the shared
    palette holds every colour a replay can show (never shown: its words are placeholders)."""
    state = CheckersState.new(_SWATCH_FEN)
    state.apply(0, _SWATCH_MOVE)
    board = _decoded(render_checkers(state.view(None), flip=flip).png)
    strip = caption_strip(board.width, "Swatch", "palette", 0.5, final=True, height=height)
    return with_strip(board, strip)


def _numbered(moves: list[str], red_first: bool, lang: str) -> list[str]:
    """``["Moves: 1. 11-15 23-19", "2. 8-11 22-17", ...]`` (the record in pairs)."""
    plies = (["..."] if red_first else []) + moves
    pairs = [f"{n // 2 + 1}. {' '.join(plies[n : n + 2])}" for n in range(0, len(plies), 2)]
    if not pairs:
        return []
    return [render(_p("replay", "Moves: {moves}", moves=pairs[0]), lang), *pairs[1:]]


def replay_checkers_pdn(text: str, *, flip: bool = False, lang: str = "en") -> Animation:
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
        game.moves, game.tags.get("FEN"), names=names, outcome=outcome, flip=flip, lang=lang
    )


# -- quarters --------------------------------------------------------------------------------


def _quarters_names(names: Sequence[str], lang: str = "en") -> tuple[str, str]:
    padded = [*names, "", ""]
    seat = [render(_p("replay", "Seat {n}", n=n), lang) for n in (1, 2)]
    return padded[0] or seat[0], padded[1] or seat[1]


def quarters_result_text(
    outcome: Mapping[str, Any] | None, names: Sequence[str] = (), lang: str = "en"
) -> str:
    """``"Ann wins: Bob is left with the last coin"``."""
    if not outcome or not outcome.get("winners"):
        return render(_NOT_FINISHED if not outcome else _p("replay", "No winner"), lang)
    who = _quarters_names(names, lang)
    winner = outcome["winners"][0]
    how = _QUARTERS_WINS.get(outcome.get("termination", ""))
    said = how(who[winner], who[1 - winner]) if how else None
    return render(_won(who[winner], said), lang)


def replay_quarters(
    start: Sequence[int],
    moves: Sequence[str],
    first: int = 0,
    *,
    names: Sequence[str] = ("", ""),
    outcome: Mapping[str, Any] | None = None,
    lang: str = "en",
) -> Animation:
    """Every position of a Quarters game as a looping GIF: see :func:`quarters_reel`."""
    return quarters_reel(start, moves, first, names=names, outcome=outcome, lang=lang).encode()


def quarters_reel(
    start: Sequence[int],
    moves: Sequence[str],
    first: int = 0,
    *,
    names: Sequence[str] = ("", ""),
    outcome: Mapping[str, Any] | None = None,
    lang: str = "en",
) -> Reel:
    """Every position of a Quarters game: the coins the next move takes are lifted in gold and
    the caption names the move; the final position is held with the result. Its words
    (captions, alt text) are in the language ``lang``.

    ``start``, ``moves`` and ``first`` are what the state stores (``State.to_dict()``).
    """
    state = QuartersState.new(start, first)
    who = _quarters_names(names, lang)
    width = board_width(start)
    players = _players(width, who, lang)
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
        title = _p(
            "quarters replay", "Move {number} · {name} takes {count} from pile {pile}",
            number=index + 1, name=_short(width, mover), count=count, pile=pile,
        )  # fmt: skip
        captions.append(Caption(render(title, lang), players, index / total))
        line = _p(
            "quarters replay", "{number}. {name} takes {count} from pile {pile}.",
            number=index + 1, name=mover, count=count, pile=pile,
        )  # fmt: skip
        lines.append(render(line, lang))
        state.apply(state.turn, move)
    view = state.view(None)
    views += [view, view]
    taken += [[], []]
    outcome = view["outcome"] or outcome
    result = quarters_result_text(outcome, who, lang)
    after = _p("replay", "After move {n}", n=total) if total else _START
    captions.append(Caption(render(after, lang), players, 1.0))
    cut = [_short(width, name) for name in who]
    said = quarters_result_text(outcome, cut, lang)
    captions.append(Caption(said, render(_counted(total), lang), 1.0, final=True))
    height = strip_height(width, captions)

    def draw(index: int) -> Image.Image:
        shown = views[index]
        picture = render_quarters(shown, selected=taken[index], names=who, lang=lang)
        return with_caption(_decoded(picture.png), captions[index], height)

    durations = (*[FIRST_MS if i == 0 else MOVE_MS for i in range(total)], MOVE_MS, HOLD_MS)
    head = _np(
        "replay",
        "Replay of a Quarters game, {players}, piles {piles}, {n} move.",
        "Replay of a Quarters game, {players}, piles {piles}, {n} moves.",
        total,
        players=_versus(*who),
        piles=", ".join(str(p) for p in start),  # notation, as typed
    )
    piles = ", ".join(str(p) for p in state.piles)
    said_head = render(sentences(head, _p("replay", "{result}.", result=result)), lang)
    tail = render(_p("replay", "Final piles: {piles}.", piles=piles), lang)
    description = fit_description(said_head, tail, lines)
    return Reel(draw, durations, description, "quarters-replay.gif")


def _short(width: int, name: str) -> str:
    """A name cut to half a caption's title line."""
    title_size, _size = caption_sizes(width)
    return fit_text(name, title_size, (width - 32) / 2)

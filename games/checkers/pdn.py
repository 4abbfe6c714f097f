"""PDN (Portable Draughts Notation): write a game record and read one back.

>>> from games.checkers.state import State
>>> state = State.new()
>>> for move in ("11-15", "23-19", "8-11"):
...     state.apply(int(state.to_act()[0]), move)
>>> text = write_pdn(state, black="Ann", white="Bob", date="2024.01.02")
>>> "1. 11-15 23-19 2. 8-11 *" in text
True
>>> read_pdn(text).board().fen() == state.board.fen()
True
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from games.base import IllegalAction
from games.checkers.board import Board
from games.checkers.state import State

GAME_TYPE = "21"  # English draughts


def result_code(state: State) -> str:
    """``1-0`` (Black, the first player, won), ``0-1`` (Red won), ``1/2-1/2`` or ``*``."""
    outcome = state.outcome()
    if outcome is None:
        return "*"
    if outcome.is_draw:
        return "1/2-1/2"
    return "1-0" if outcome.winners == (0,) else "0-1"


@dataclass(frozen=True, slots=True)
class PdnGame:
    """A game record: its tags and its moves (as written)."""

    tags: dict[str, str] = field(default_factory=dict)
    moves: tuple[str, ...] = ()

    def board(self) -> Board:
        """The final position, replaying every move from the FEN tag (or the start)."""
        board = Board.from_fen(self.tags["FEN"]) if "FEN" in self.tags else Board()
        for text in self.moves:
            board.push_text(text)
        return board


def write_pdn(
    state: State,
    *,
    black: str = "?",
    white: str = "?",
    event: str = "Parlour checkers",
    date: str = "????.??.??",
    result: str | None = None,
) -> str:
    """The PDN text of ``state``'s game. ``white`` names the Red player (PDN calls Red White).

    ``result`` overrides the state's own (e.g. ``"0-1"`` after Black resigned).
    """
    tags = {
        "Event": event,
        "Date": date,
        "Black": black,
        "White": white,
        "Result": result or result_code(state),
        "GameType": GAME_TYPE,
    }
    if state.start_fen is not None:
        tags["SetUp"] = "1"
        tags["FEN"] = state.start_fen
    moves = state.to_dict()["moves"]
    red_first = state.start_fen is not None and state.start_fen.upper().startswith("W")
    tokens: list[str] = []
    ply = 1 if red_first else 0
    for text in moves:
        if ply % 2 == 0:
            tokens.append(f"{ply // 2 + 1}.")
        elif not tokens:
            tokens.append(f"{ply // 2 + 1}...")
        tokens.append(text)
        ply += 1
    tokens.append(tags["Result"])
    lines = [f'[{name} "{_escape(value)}"]' for name, value in tags.items()]
    return "\n".join(lines) + "\n\n" + _wrap(tokens) + "\n"


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def _wrap(tokens: list[str], width: int = 79) -> str:
    lines, line = [], ""
    for token in tokens:
        if line and len(line) + 1 + len(token) > width:
            lines.append(line)
            line = token
        else:
            line = f"{line} {token}" if line else token
    lines.append(line)
    return "\n".join(lines)


_TAG = re.compile(r'^\s*\[(\w+)\s+"((?:[^"\\]|\\.)*)"\s*\]\s*$')
_COMMENT = re.compile(r"\{[^}]*\}|\([^)]*\)|;[^\n]*")
_RESULTS = ("1-0", "0-1", "1/2-1/2", "2-0", "0-2", "1-1", "0-0", "*")
_MOVE = re.compile(r"^[0-9]+([-x][0-9]+)+$")  # ASCII digits only


def read_pdn(text: str) -> PdnGame:
    """Parse one game of PDN text (tags, then numbered moves; comments are skipped)."""
    tags: dict[str, str] = {}
    body: list[str] = []
    for line in text.splitlines():
        match = _TAG.match(line)
        if match:
            tags[match[1]] = re.sub(r"\\(.)", r"\1", match[2])
        else:
            body.append(line)
    moves: list[str] = []
    for token in _COMMENT.sub(" ", "\n".join(body)).split():
        token = re.sub(r"^[0-9]+\.+", "", token).rstrip("!?*")
        if not token or token in _RESULTS:
            continue
        if not _MOVE.match(token):
            raise IllegalAction(f"`{token[:20]}` in the PDN is not a move.")
        moves.append(token)
    return PdnGame(tags, tuple(moves))


def state_from_pdn(text: str) -> State:
    """A game state replaying a PDN record (moves are checked as they are played)."""
    game = read_pdn(text)
    state = State.new(game.tags.get("FEN"))
    for move in game.moves:
        state.apply(state.to_act()[0], move)
    return state

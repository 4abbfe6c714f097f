"""A daily attempt's private board: the picture, what happened, and the controls; and the
squares of its share line (nothing in them gives the solution away)."""

from __future__ import annotations

from bot.drawing import draw
from bot.tables.daily.play import GIVE_UP, HINT, checkers_game, quarters_game, quatorze_game
from bot.tables.screens import Button, Embed, Option, Row, Screen, Select, Style
from games.daily import CHECKERS, QUARTERS, QUATORZE, Puzzles
from i18n import Message, _, render
from render.checkers import render_checkers
from render.quarters import render_quarters
from render.quatorze import render_quatorze
from storage.daily import Attempt, AttemptStatus

MAX_OPTIONS = 25  # Discord's limit on a select's options
MAX_SELECTS = 4  # rows of moves (the fifth row holds the buttons)
SHARE = "share"


def _selects(moves: list[str], placeholder: str) -> list[Row]:
    """The moves as select menus of at most 25 options each (``m=<move>``)."""
    rows: list[Row] = []
    for start in range(0, min(len(moves), MAX_OPTIONS * MAX_SELECTS), MAX_OPTIONS):
        chunk = moves[start : start + MAX_OPTIONS]
        options = tuple(Option(move, move) for move in chunk)
        rows.append(Select(f"m{start // MAX_OPTIONS}", options, placeholder))
    return rows


def _status(attempt: Attempt) -> Message:
    if attempt.status is AttemptStatus.SOLVED:
        return _("Solved! Share your result with the button below.")
    if attempt.status is AttemptStatus.FAILED:
        return _("Not solved this time. A new puzzle comes at midnight UTC.")
    goals = {
        QUARTERS: _("Find the only winning move, then beat the perfect computer."),
        CHECKERS: _("Black to move and win: find the only winning move and play it out."),
        QUATORZE: _("Clear the grid by pairs adding up to 14 in one row or column."),
    }
    return goals[attempt.puzzle]


def board(puzzles: Puzzles, attempt: Attempt, locale: str, note: Message | None = None) -> Screen:
    """The attempt's board for its player."""
    placeholder = render(_("Choose your move"), locale)
    rows: list[Row] = []
    if attempt.puzzle == QUARTERS:
        quarters = quarters_game(puzzles, attempt)
        picture = draw(render_quarters, quarters.view(), lang=locale)
        if not attempt.over:
            rows = _selects(quarters.legal_actions(quarters.turn), placeholder)
    elif attempt.puzzle == CHECKERS:
        checkers = checkers_game(puzzles, attempt)
        picture = draw(render_checkers, checkers.view(None), lang=locale)
        if not attempt.over:
            rows = _selects(checkers.view(None)["legal_moves"], placeholder)
    else:
        quatorze = quatorze_game(puzzles, attempt)
        picture = draw(render_quatorze, quatorze.view(0), lang=locale)
        if not attempt.over:
            moves = [m for m in quatorze.legal_actions(0) if m != GIVE_UP]
            rows = _selects(moves, placeholder)
            rows.append(
                (
                    Button(render(_("Hint"), locale), HINT),
                    Button(render(_("Give up"), locale), GIVE_UP, Style.DANGER),
                )
            )
    if attempt.over:
        rows = [(Button(render(_("Share"), locale), SHARE, Style.SUCCESS),)]
    text = [render(_status(attempt), locale)]
    if note is not None:
        text.insert(0, render(note, locale))
    return Screen(
        embed=Embed(
            title=render(
                _("Daily {game}, {day}", game=attempt.puzzle.title(), day=attempt.day.isoformat()),
                locale,
            ),
            description="\n".join(text),
            image=picture.filename,
        ),
        pictures=(picture,),
        rows=tuple(rows),
    )


def share_squares(attempt: Attempt) -> str:
    """Quatorze: ten squares, green for each tenth of the cards cleared; Quarters and Checkers:
    a green square for each move that kept the win, red for the one that lost it."""
    if attempt.puzzle == QUATORZE:
        cleared = round(attempt.score * 2 / 52 * 10)
        return "🟩" * cleared + "⬛" * (10 - cleared)
    greens = attempt.moves - (1 if attempt.status is AttemptStatus.FAILED else 0)
    return "🟩" * greens + ("🟥" if attempt.status is AttemptStatus.FAILED else "")

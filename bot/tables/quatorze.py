"""Quatorze at a table: a solitaire. The grid as an image, a menu of the pairs that may be
taken, a private Hint (with a button to play it), and Give up."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from bot.drawing import draw
from bot.tables.cards import card_label
from bot.tables.chances import chance_words
from bot.tables.confirm import RESIGN, Confirmation, asking
from bot.tables.controller import (
    Context,
    Controller,
    Intent,
    TableView,
    UiState,
    channel_language,
    table_seed,
)
from bot.tables.screens import Button, Option, Row, Screen, Select, Style
from bot.tables.seats import seat_name, seat_names
from bot.tables.spec import GameSpec
from games import quatorze
from games.base import N_, IllegalAction, Outcome
from games.digits import is_number
from games.quatorze import State
from i18n import Message, _, _n, _p, lines, render, sentences
from i18n.formats import Number
from i18n.messages import Text
from render.quatorze import render_quatorze
from storage.models import Result, Standing, Table

# /rules, a paragraph a rule, in the reader's language.
RULES = lines(
    _("**Quatorze** — a solitaire: clear a grid of cards by pairs that add up to 14."),
    _(
        "• Cards count: ace 1, 2-10 their number, J 11, Q 12, K 13. So a pair is K+A, Q+2, "
        "J+3, 10+4, 9+5, 8+6 or 7+7."
    ),
    _("• 25 cards are dealt row by row into a 5x5 grid; the other 27 are the stock, face down."),
    _(
        "• Take two cards that add up to 14 and lie in the **same row or the same column** "
        "(they need not touch). Each pair scores 2 points; clearing all 52 cards (52 points) "
        "wins."
    ),
    _(
        "• While the stock lasts, the emptied cells are refilled from it at once, the cell of "
        "the first card you named first. Once the stock is empty, the remaining cards close up "
        "in reading order after each pair, so the gaps collect at the end."
    ),
    _("• The game ends when no row or column holds a pair, or when you **Give up**."),
    _(
        "• Choose a pair in the menu (cells are numbered 1-25 on the picture). **Hint** "
        "suggests the pair the computer would take, and how often it clears the grid from "
        "there; like you, it sees the grid and which cards are gone, never the stock's order."
    ),
    _("• `/quatorze start winnable:True` deals only games that can be cleared."),
    _("• Your best score and your wins in this server are on `/scoreboard`."),
)

MAX_OPTIONS = 25


def _cell(state: State, cell: int) -> str:
    """``"Q♠ (3)"``: the card in a cell (0-based in, 1-based out)."""
    card = state.grid[cell]
    assert card is not None
    return f"{card_label(card)} ({cell + 1})"


def _line(a: int, b: int, *, label: bool = False) -> Message:
    """Where a pair lies: ``row 2`` or ``column 3`` in a sentence, capitalised as a ``label``."""
    row, column = a // 5 + 1, a % 5 + 1
    if a // 5 == b // 5:
        return _("Row {number}", number=row) if label else _("row {number}", number=row)
    return _("Column {number}", number=column) if label else _("column {number}", number=column)


def suggested_pair(
    state: dict[str, Any], budget: float, seed: int
) -> tuple[str, float | None, int]:
    """The hint's move, its chance of clearing the grid and the sampled orders behind it (0:
    exact); top-level so the process pool can run it."""
    found = quatorze.suggest(State.from_dict(state), budget, seed)
    return quatorze.format_move(*found.move), found.chance, found.orders


@dataclass(slots=True)
class QuatorzeUi(UiState):
    """The cell (0-based) chosen in the first of two menus, and after how many pairs."""

    cell: int | None = None
    moves: int | None = None


GIVE_UP = Confirmation(
    _("Really give up? The game ends with the score you have now."), _p("button", "Yes, give up")
)


class QuatorzeController(Controller[State, QuatorzeUi]):
    engine = quatorze.ENGINE
    ui_type = QuatorzeUi
    title = "Quatorze"
    solo = True
    rules_text = RULES
    confirmations = MappingProxyType({"resign": RESIGN, "give-up": GIVE_UP})
    private_actions = frozenset({"hint", "ask"})
    hint_budget = 0.5  # seconds the hint may think

    # -- setting up -------------------------------------------------------------------------
    def parse_options(self, raw: dict[str, Any]) -> dict[str, Any]:
        return {"winnable": bool(raw.get("winnable") or False)}

    def new_state(self, table: Table, seed: int) -> State:
        return State.new(seed=seed, winnable=table.options.get("winnable", False))

    # -- the board --------------------------------------------------------------------------
    def first_card(self, ui: QuatorzeUi, state: State) -> int | None:
        """The cell (0-based) chosen in the first of two menus, if it still has a partner."""
        cell = ui.cell
        if cell is None or ui.moves != len(state.moves):
            return None
        return cell if any(cell in pair for pair in state.pairs()) else None

    def board(self, table: Table, state: State, seen: TableView[QuatorzeUi]) -> Screen:
        outcome = seen.outcome  # the engine's, or a give-up by `/game resign`
        if outcome is not None and not state.is_over():  # draw the grid as given up
            state = State.from_dict(state.to_dict())
            state.apply(0, "give-up")
        lang = channel_language(table)
        player = seat_names(table.seats, lang)[0]
        first = None if outcome else self.first_card(seen.ui, state)
        chosen = () if first is None else (first + 1,)
        picture = draw(render_quatorze, state.view(0), chosen, lang=lang)
        head = (
            _("**Quatorze** — {name}'s solitaire (a winnable deal)", name=player)
            if state.winnable
            else _("**Quatorze** — {name}'s solitaire", name=player)
        )
        score, stock = state.score, len(state.stock)
        rows: tuple[Row, ...]
        if outcome is not None:
            said = lines(
                head,
                _("Score **{score}**/52 · stock {stock}", score=score, stock=stock),
                self.ending(table, outcome, lang),
            )
            rows = ((self.again_button(lang),),)
        else:
            pairs = len(state.pairs())
            said = lines(
                head,
                _n(
                    "Score **{score}**/52 · stock {stock} · {n} pair to take",
                    "Score **{score}**/52 · stock {stock} · {n} pairs to take",
                    pairs,
                    score=score,
                    stock=stock,
                ),
                _("Choose a pair adding up to 14 in one row or column."),
            )
            rows = (*self._pair_menus(state, first, lang), self._buttons(lang))
        return Screen(content=render(said, lang), pictures=(picture,), rows=rows)

    def _pair_menus(self, state: State, first: int | None, lang: str = "en") -> tuple[Row, ...]:
        """One menu of every pair; when there are more than 25, a menu of first cards and
        then a menu of the chosen card's partners."""

        def say(text: Text) -> str:
            return render(text, lang)

        pairs = state.pairs()
        if len(pairs) <= MAX_OPTIONS:
            return (
                Select(
                    "m",
                    tuple(
                        Option(
                            f"{_cell(state, a)} + {_cell(state, b)}",
                            quatorze.format_move(a, b),
                            description=say(_line(a, b, label=True)),
                        )
                        for a, b in pairs
                    ),
                    placeholder=say(_("Take a pair…")),
                ),
            )
        cells = sorted({cell for pair in pairs for cell in pair})
        menus: list[Row] = [
            Select(
                "first",
                tuple(Option(_cell(state, c), str(c + 1), default=c == first) for c in cells),
                placeholder=say(
                    _n(
                        "{n} pair: choose a first card…",
                        "{n} pairs: choose a first card…",
                        len(pairs),
                    )
                ),
            )
        ]
        if first is not None:
            partners = [b if a == first else a for a, b in pairs if first in (a, b)]
            menus.append(
                Select(
                    "m",
                    tuple(
                        Option(
                            _cell(state, p),
                            quatorze.format_move(first, p),
                            description=say(_line(first, p, label=True)),
                        )
                        for p in partners
                    ),
                    placeholder=say(_("…and its partner for {card}", card=_cell(state, first))),
                )
            )
        return tuple(menus)

    def _buttons(self, lang: str = "en") -> tuple[Button, ...]:
        return (
            Button(render(_p("button", "Hint"), lang), "hint", Style.PRIMARY, emoji="💡"),
            Button(render(_p("button", "Give up"), lang), asking("give-up"), Style.DANGER),
        )

    def ending(self, table: Table, outcome: Outcome, lang: str = "en") -> str:
        player = seat_name(table.seats[0])
        score = outcome.scores[0] if outcome.scores else 0
        if outcome.termination == "won":
            said = _("🏆 **Cleared!** {name} took all 52 cards.", name=player)
        elif outcome.termination == "give-up":
            said = _n(
                "🏳️ {name} gave up with **{n}** point.",
                "🏳️ {name} gave up with **{n}** points.",
                score,
                name=player,
            )
        else:
            said = _(
                "No row or column holds a pair any more: {name} scored **{score}**/52.",
                name=player,
                score=score,
            )
        return render(said, lang)

    # -- actions ----------------------------------------------------------------------------
    def handle(self, ctx: Context[State, QuatorzeUi]) -> Intent:
        state = ctx.require_state()
        if ctx.action == "first":
            ctx.require_turn()
            cell = int(ctx.arg) - 1 if is_number(ctx.arg, 2) else -1
            if not any(cell in pair for pair in state.pairs()):
                said = N_("The card in cell {cell} has no partner to take.", cell=ctx.arg[:3])
                raise IllegalAction(said)
            ctx.ui = QuatorzeUi(cell=cell, moves=len(state.moves))
            return Intent(changed=True)
        if ctx.action == "hint":
            ctx.require_turn()
            return Intent(private=self.hint(ctx.table, state, ctx.compute, ctx.locale))
        if ctx.action == "play":  # the hint's "Take this pair", on the private message
            ctx.require_turn()
            a, b = quatorze.parse_move(ctx.arg)
            took = _(
                "✅ You took {first} and {second}.", first=_cell(state, a), second=_cell(state, b)
            )
            screen = Screen(content=render(took, ctx.locale))
            return Intent(move=ctx.arg, private=screen, update_private=True)
        if ctx.action == "give-up":
            ctx.require_turn()
            gave_up = _n("You gave up with {n} point.", "You gave up with {n} points.", state.score)
            return Intent(
                move="give-up",
                private=Screen(content=f"🏳️ {render(gave_up, ctx.locale)}"),
                update_private=True,
            )
        return super().handle(ctx)

    def confirmation(self, ctx: Context[State, QuatorzeUi], action: str) -> Confirmation | None:
        """Give up names the score it keeps."""
        if action == "give-up":
            score = ctx.require_state().score
            return Confirmation(
                _n(
                    "Really give up with **{n}** point?",
                    "Really give up with **{n}** points?",
                    score,
                ),
                GIVE_UP.button,
            )
        return super().confirmation(ctx, action)

    def hint(
        self,
        table: Table,
        state: State,
        compute: Callable[..., Any] = lambda fn, *args: fn(*args),
        locale: str = "en",
    ) -> Screen:
        """The pair the computer would take, from what the player sees, shown privately in the
        member's ``locale`` (the picture too)."""
        seed = table_seed(table, len(state.moves))
        move, chance, orders = compute(suggested_pair, state.to_dict(), self.hint_budget, seed)
        a, b = quatorze.parse_move(move)
        picture = draw(render_quatorze, state.view(0), (a + 1, b + 1), lang=locale)
        said = sentences(
            _(
                "💡 Take **{first}** and **{second}** ({line}).",
                first=_cell(state, a),
                second=_cell(state, b),
                line=_line(a, b),
            ),
            chance_words(chance, orders, len(state.stock)),
            _("The hint sees what you see: the grid and the cards gone, not the stock's order."),
        )
        take = render(_p("button", "Take this pair"), locale)
        return Screen(
            content=render(said, locale),
            pictures=(picture,),
            rows=((Button(take, f"play={move}", Style.SUCCESS),),),
        )

    def outcome_on_resign(self, state: State, seat: int) -> Outcome:
        ended = State.from_dict(state.to_dict())
        ended.apply(0, "give-up")
        outcome = ended.outcome()
        assert outcome is not None
        return outcome

    # -- results ----------------------------------------------------------------------------
    def results(self, table: Table, state: State | None, outcome: Outcome) -> list[Result]:
        seat = table.seats[0]
        if seat.user_id is None:
            return []
        won = outcome.termination == "won"
        score = outcome.scores[0] if outcome.scores else 0
        return [
            Result(
                seat.user_id,
                "win" if won else "loss",
                score,
                False,
                extra={"won": int(won)},
                name=seat.name,
            )
        ]

    def result_text(self, table: Table, outcome: Outcome) -> Text:
        said = {
            "score": outcome.scores[0] if outcome.scores else 0,
            "name": seat_name(table.seats[0]),
        }
        match outcome.termination:
            case "won":
                return _("{name} cleared the grid — final score **{score}**/52.", **said)
            case "give-up":
                return _("{name} gave up — final score **{score}**/52.", **said)
            case "no-moves":
                return _("{name} ran out of pairs — final score **{score}**/52.", **said)
        return _("{name} finished — final score **{score}**/52.", **said)

    def standing_columns(self) -> tuple[Text, ...]:
        return (_p("scoreboard", "Best"), _p("scoreboard", "Wins"))

    def standing_values(self, standing: Standing) -> tuple[Text, ...]:
        return (Number(standing.best), Number(standing.wins))

    def rank_key(self, standing: Standing) -> tuple:
        return (-standing.wins, -standing.best, standing.games)


SPEC = GameSpec(QuatorzeController, commands="bot.client.quatorze_commands:quatorze_group")

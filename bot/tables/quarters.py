"""Quarters at a table: coin buttons, Remove Coins, Computer Start and the Secret."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.drawing import draw
from bot.tables.confirm import asking
from bot.tables.controller import (
    Context,
    Controller,
    Intent,
    TableView,
    UiState,
    channel_language,
)
from bot.tables.pictures import Replay
from bot.tables.screens import Button, Option, Row, Screen, Select, Style
from bot.tables.spec import GameSpec
from games import quarters
from games.base import IllegalAction, Outcome
from games.digits import is_number, numbers
from games.quarters import State
from render.animation import Animation
from render.quarters import render_quarters
from render.replay import replay_quarters
from storage.models import Seat, Table

RULES = """\
**Quarters** — a game of coins for two.
• The coins lie in piles (3, 4 and 5 to start, unless the table chose others).
• On your turn take one or more coins from **one** pile — the whole pile if you like.
• Whoever is left with the last coin loses: when a single coin remains, the player who must take \
it has lost, and taking every remaining coin at once takes the last coin too.
• Click coins of one pile to select them, then **Remove Coins**. Against the computer you move \
first unless you press **Computer Start**.
• The computer knows the Secret. Press **Secret** to learn it."""

SECRET = """\
**The Secret** (perfect play in misère Nim)
Write each pile's size in binary and add them without carrying (XOR): that is the *nim-sum*.
• While some pile has two or more coins, move so that the nim-sum becomes 0…
• …except when your move would leave only piles of one coin: then leave an **odd** number of \
single coins, so your opponent takes the last one.
A position with nim-sum 0 (and some pile bigger than one) is lost for the player to move, \
whatever they do. From 3-4-5 the first player wins: take 2 from the pile of 3."""


def _parse_piles(text: str) -> tuple[int, ...]:
    """``3,4,5`` (commas, spaces or dashes between the piles; ASCII digits only)."""
    return quarters.state.check_piles(numbers(text, "A pile"))


# How a game ended, in words, by the outcome's termination: what the loser did, after their
# name. The board and the announcement say it the same way.
ENDINGS = {
    "last-coin": "is left with the last coin.",
    "took-last-coin": "took the last coin.",
    "resign": "resigned.",
    "timeout": "stopped moving.",
}


def ending_words(outcome: Outcome) -> str:
    """The words for how ``outcome`` came about (after the loser's name)."""
    return ENDINGS.get(outcome.termination, ENDINGS["last-coin"])


def fits_coin_buttons(start: list[int] | tuple[int, ...]) -> bool:
    """One action row per pile (at most 5 coins) plus a row of controls."""
    return len(start) <= 4 and max(start) <= 5


@dataclass(slots=True)
class QuartersUi(UiState):
    """The coins selected (``[pile, coin]``, 1-based), or the pile chosen in the menu."""

    selected: list[list[int]] = field(default_factory=list)
    pile: int | None = None


class QuartersController(Controller[State, QuartersUi]):
    engine = quarters.ENGINE
    ui_type = QuartersUi
    title = "Quarters"
    ai_budget = 0.5
    rules_text = RULES
    public_actions = frozenset({"secret"})
    private_actions = frozenset({"secret"})
    light = True  # a coin picked, a move applied: no picture, no search

    def parse_options(self, raw: dict[str, Any]) -> dict[str, Any]:
        options: dict[str, Any] = {}
        piles = raw.get("piles")
        options["piles"] = list(_parse_piles(piles) if piles else quarters.state.DEFAULT_PILES)
        options["level"] = self.parse_level(raw)
        return options

    def new_state(self, table: Table, seed: int) -> State:
        return State.new(table.options["piles"])

    # -- the board --------------------------------------------------------------------------
    def board(self, table: Table, state: State, seen: TableView[QuartersUi]) -> Screen:
        view = state.view()
        outcome = seen.outcome
        selected = set() if outcome else {(pile, coin) for pile, coin in seen.ui.selected}
        names = [seat.name for seat in table.seats]
        lines = [f"**Quarters** — {names[0]} vs {names[1]}"]
        if view["last_move"]:
            lines.append(self._last_moves_text(table, state, names))
        thinking = seen.thinking
        if outcome:
            lines.append(f"🏆 {self.result_text(table, outcome)}")
        else:
            seat = table.seats[state.turn]
            if thinking:
                lines.append("🤔 The computer is thinking…")
            else:
                lines.append(
                    f"<@{seat.user_id}> to move — select coins of one pile, then **Remove Coins**."
                )
        picture = draw(render_quarters, view, selected, names, lang=channel_language(table))
        if outcome:
            rows: tuple[Row, ...] = (self.finished_row(),)
        else:
            rows = self._controls(table, state, seen.ui, selected, disabled=thinking)
        return Screen(content="\n".join(lines), pictures=(picture,), rows=rows)

    @staticmethod
    def _last_moves_text(table: Table, state: State, names: list[str]) -> str:
        """The last move in words; after the computer's reply, the member's move before it
        too: "Alice took 2 from pile 1. Computer (perfect) took 1 from pile 3." """
        mover = (state.first + len(state.moves) - 1) % 2
        pile, count = quarters.parse_move(state.moves[-1])
        if len(state.moves) >= 2 and table.seats[mover].is_ai and not table.seats[1 - mover].is_ai:
            mine, taken = quarters.parse_move(state.moves[-2])
            return (
                f"{names[1 - mover]} took {taken} from pile {mine}. {names[mover]} took "
                f"{count} from pile {pile}."
            )
        return f"{names[mover]} took {count} from pile {pile}."

    def _controls(
        self,
        table: Table,
        state: State,
        ui: QuartersUi,
        selected: set[tuple[int, int]],
        disabled: bool,
    ) -> tuple[Row, ...]:
        coins = fits_coin_buttons(state.start)
        if coins:
            rows = _coin_rows(state, selected, disabled)
        else:
            rows = _pile_selects(state, ui.pile, disabled)
        controls = []
        if coins:
            controls.append(
                Button("Remove Coins", "remove", Style.PRIMARY, disabled=disabled or not selected)
            )
            controls.append(Button("Clear", "clear", disabled=disabled or not selected))
        if not state.moves and any(s.is_ai for s in table.seats) and not disabled:
            controls.append(Button("Computer Start", "computer-start", Style.SUCCESS))
        controls.append(Button("Secret", "secret", emoji="🤫", any_version=True))
        controls.append(Button("Resign", asking("resign"), Style.DANGER, disabled=disabled))
        rows.append(tuple(controls))
        return tuple(rows)

    # -- actions ----------------------------------------------------------------------------
    def handle(self, ctx: Context[State, QuartersUi]) -> Intent:
        state = ctx.require_state()
        table = ctx.table
        if ctx.action == "secret":
            return Intent(private=self.secret(state))
        if ctx.action == "computer-start":
            ctx.require_turn()
            ai_seats = [i for i, s in enumerate(table.seats) if s.is_ai]
            if not ai_seats or state.moves:
                raise IllegalAction("The computer can only start before the first move.")
            ctx.ui = QuartersUi()
            return Intent(changed=True, state=State.new(state.start, first=ai_seats[0]))
        ctx.require_turn()
        selected = [list(c) for c in ctx.ui.selected]
        if ctx.action == "c":
            pile, coin = _pair(ctx.arg)
            if not 1 <= pile <= len(state.piles) or not 1 <= coin <= state.piles[pile - 1]:
                raise IllegalAction("That coin is not on the board any more.")
            if selected and selected[0][0] != pile:
                raise IllegalAction(
                    f"Coins must come from one pile: you have coins of pile {selected[0][0]} "
                    "selected. Press **Clear** to start again."
                )
            if [pile, coin] in selected:
                selected.remove([pile, coin])
            else:
                selected.append([pile, coin])
            ctx.ui.selected = sorted(selected)
            return Intent(changed=True)
        if ctx.action == "clear":
            ctx.ui.selected = []
            return Intent(changed=True)
        if ctx.action == "remove":
            if not selected:
                raise IllegalAction("Select one or more coins of a pile first.")
            ctx.ui = QuartersUi()
            return Intent(changed=True, move=quarters.format_move(selected[0][0], len(selected)))
        if ctx.action == "pile":
            pile = int(ctx.arg) if is_number(ctx.arg, 2) else 0
            if not 1 <= pile <= len(state.piles) or not state.piles[pile - 1]:
                raise IllegalAction("Choose a pile that still has coins.")
            ctx.ui.pile = pile
            return Intent(changed=True)
        if ctx.action == "take":
            pile = ctx.ui.pile
            if not pile:
                raise IllegalAction("Choose a pile first.")
            if not is_number(ctx.arg, 2):
                raise IllegalAction("Choose how many coins to take.")
            ctx.ui = QuartersUi()
            return Intent(changed=True, move=quarters.format_move(pile, int(ctx.arg)))
        return super().handle(ctx)

    def detached(self, action: str) -> Screen:
        """``/quarters secret`` where no game of Quarters is running: the Secret alone."""
        if action == "secret":
            return Screen(content=SECRET)
        return super().detached(action)

    def secret(self, state: State) -> Screen:
        piles = state.piles
        text = SECRET + "\n\n"
        text += f"Now: piles {'-'.join(map(str, piles))}, nim-sum **{quarters.nim_sum(piles)}**. "
        if state.is_over():
            text += "The game is over."
        else:
            wins = quarters.winning_moves(piles)
            if wins:
                pile, count = quarters.parse_move(wins[0])
                text += f"The player to move wins by taking **{count} from pile {pile}**."
            else:
                text += "The player to move has no winning move: play on and hope for a slip."
        return Screen(content=text)

    def result_text(self, table: Table, outcome: Outcome) -> str:
        """``"**Alice wins!** Bob is left with the last coin."``: the board's last line and the
        one announcement both (the issue's complaint was two wordings of one ending)."""
        names = [seat.name for seat in table.seats]
        winner, loser = names[outcome.winners[0]], names[1 - outcome.winners[0]]
        return f"**{winner} wins!** {loser} {ending_words(outcome)}"

    def seat_order(
        self, options: dict[str, Any], starter: Seat, other: Seat, seed: int
    ) -> list[Seat]:
        return [starter, other]


def _pair(text: str) -> tuple[int, int]:
    a, _, b = text.partition(".")
    if not is_number(a, 2) or not is_number(b, 2):
        raise IllegalAction("That coin is not on the board.")
    return int(a), int(b)


def _coin_rows(state: State, selected: set[tuple[int, int]], disabled: bool) -> list[Row]:
    """A row of coin buttons a pile (the selected ones green), or a pile's empty place."""
    rows: list[Row] = []
    for p, size in enumerate(state.piles, start=1):
        if size == 0:
            rows.append((Button(f"Pile {p} is empty", f"empty={p}", disabled=True),))
            continue
        rows.append(
            tuple(
                Button(
                    f"{p}·{c}",
                    f"c={p}.{c}",
                    Style.SUCCESS if (p, c) in selected else Style.SECONDARY,
                    disabled=disabled,
                    emoji="🪙",
                )
                for c in range(1, size + 1)
            )
        )
    return rows


def _pile_selects(state: State, pile: int | None, disabled: bool) -> list[Row]:
    """Piles too big for coin buttons: a menu of piles, then how many coins to take."""
    rows: list[Row] = [
        Select(
            "pile",
            tuple(
                Option(f"Pile {p} ({n} coin{'s' if n != 1 else ''})", str(p), default=p == pile)
                for p, n in enumerate(state.piles, start=1)
                if n
            ),
            placeholder="Choose a pile",
            disabled=disabled,
        )
    ]
    if pile and state.piles[pile - 1]:
        rows.append(
            Select(
                "take",
                tuple(
                    Option(f"Take {n} from pile {pile}", str(n))
                    for n in range(1, state.piles[pile - 1] + 1)
                ),
                placeholder=f"How many coins from pile {pile}?",
                disabled=disabled,
            )
        )
    return rows


def replay(
    state: Mapping[str, Any],
    names: Sequence[str],
    outcome: Mapping[str, Any] | None,
    lang: str = "en",
) -> Animation:
    """The replay hook: every position of a finished game, from its stored state, its words
    in the language ``lang``."""
    start, moves, first = state["start"], state["moves"], state.get("first", 0)
    return replay_quarters(start, moves, first, names=names, outcome=outcome, lang=lang)


SPEC = GameSpec(
    QuartersController,
    commands="bot.client.quarters_commands:quarters_group",
    replay=Replay(replay),
)

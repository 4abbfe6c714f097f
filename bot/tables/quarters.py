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
from bot.tables.seats import mention, seat_name, seat_names
from bot.tables.spec import GameSpec
from bot.tables.wording import game_name
from games import quarters
from games.base import N_, IllegalAction, Outcome
from games.digits import is_number, numbers
from games.quarters import State
from i18n import Message, _, _n, _p, lines, paragraphs, render, sentences
from i18n.messages import Text
from render.animation import Animation
from render.quarters import render_quarters
from render.replay import replay_quarters
from storage.models import Seat, Table

# /rules, a paragraph a rule, in the reader's language.
RULES = lines(
    _("**Quarters** — a game of coins for two."),
    _("• The coins lie in piles (3, 4 and 5 to start, unless the table chose others)."),
    _("• On your turn, take one or more coins from **one** pile — the whole pile if you like."),
    _(
        "• Whoever is left with the last coin loses: when a single coin remains, the player "
        "who must take it has lost, and taking every remaining coin at once takes the last "
        "coin too."
    ),
    _(
        "• Click coins of one pile to select them, then **Remove Coins**. Against the computer "
        "you move first unless you press **Computer Start**."
    ),
    _("• The computer knows the Secret. Press **Secret** to learn it."),
)

SECRET = _(
    "**The Secret** (perfect play in misère Nim)\n"
    "Write each pile's size in binary and add them without carrying (XOR): that is the "
    "*nim-sum*.\n"
    "• While some pile has two or more coins, move so that the nim-sum becomes 0…\n"
    "• …except when your move would leave only piles of one coin: then leave an **odd** number "
    "of single coins, so your opponent takes the last one.\n"
    "A position with nim-sum 0 (and some pile bigger than one) is lost for the player to move, "
    "whatever they do. From 3-4-5 the first player wins: take 2 from the pile of 3."
)


def _parse_piles(text: str) -> tuple[int, ...]:
    """``3,4,5`` (commas, spaces or dashes between the piles; ASCII digits only)."""
    return quarters.state.check_piles(numbers(text, "A pile"))


def ending(outcome: Outcome, winner: Text, loser: Text) -> Message:
    """How ``outcome`` came about, naming the winner and what the loser did (by the
    termination). The board and the announcement say it the same way."""
    match outcome.termination:
        case "took-last-coin":
            return _("**{winner} wins!** {loser} took the last coin.", winner=winner, loser=loser)
        case "resign":
            return _("**{winner} wins!** {loser} resigned.", winner=winner, loser=loser)
        case "timeout":
            return _("**{winner} wins!** {loser} stopped moving.", winner=winner, loser=loser)
    return _("**{winner} wins!** {loser} is left with the last coin.", winner=winner, loser=loser)


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
        lang = channel_language(table)
        names = seat_names(table.seats, lang)
        said: list[Text] = [
            _(
                "**{game}** — {first} vs {second}",
                game=game_name(self.title),
                first=names[0],
                second=names[1],
            )
        ]
        if view["last_move"]:
            said.append(self._last_moves_text(table, state, names))
        thinking = seen.thinking
        if outcome:
            said.append(f"🏆 {render(self.result_text(table, outcome), lang)}")
        elif thinking:
            said.append(_("🤔 The computer is thinking…"))
        else:
            said.append(
                _(
                    "{mention} to move — select coins of one pile, then **Remove Coins**.",
                    mention=mention(table.seats[state.turn]),
                )
            )
        picture = draw(render_quarters, view, selected, names, lang=lang)
        if outcome:
            rows: tuple[Row, ...] = (self.finished_row(lang),)
        else:
            rows = self._controls(table, state, seen.ui, selected, disabled=thinking, lang=lang)
        return Screen(content=render(lines(*said), lang), pictures=(picture,), rows=rows)

    @staticmethod
    def _last_moves_text(table: Table, state: State, names: list[str]) -> Text:
        """The last move in words; after the computer's reply, the member's move before it
        too: "Alice took 2 from pile 1. Computer (perfect) took 1 from pile 3." """
        mover = (state.first + len(state.moves) - 1) % 2
        pile, count = quarters.parse_move(state.moves[-1])
        if len(state.moves) >= 2 and table.seats[mover].is_ai and not table.seats[1 - mover].is_ai:
            mine, taken = quarters.parse_move(state.moves[-2])
            return sentences(
                _(
                    "{name} took {count} from pile {pile}.",
                    name=names[1 - mover],
                    count=taken,
                    pile=mine,
                ),
                _(
                    "{name} took {count} from pile {pile}.",
                    name=names[mover],
                    count=count,
                    pile=pile,
                ),
            )
        return _("{name} took {count} from pile {pile}.", name=names[mover], count=count, pile=pile)

    def _controls(
        self,
        table: Table,
        state: State,
        ui: QuartersUi,
        selected: set[tuple[int, int]],
        disabled: bool,
        lang: str = "en",
    ) -> tuple[Row, ...]:
        def say(text: Text) -> str:
            return render(text, lang)

        coins = fits_coin_buttons(state.start)
        if coins:
            rows = _coin_rows(state, selected, disabled, lang)
        else:
            rows = _pile_selects(state, ui.pile, disabled, lang)
        controls = []
        none = disabled or not selected
        if coins:
            remove = say(_p("button", "Remove Coins"))
            controls.append(Button(remove, "remove", Style.PRIMARY, disabled=none))
            controls.append(Button(say(_p("button", "Clear")), "clear", disabled=none))
        if not state.moves and any(s.is_ai for s in table.seats) and not disabled:
            start = say(_p("button", "Computer Start"))
            controls.append(Button(start, "computer-start", Style.SUCCESS))
        secret = say(_p("button", "Secret"))
        controls.append(Button(secret, "secret", emoji="🤫", any_version=True))
        resign = say(_p("button", "Resign"))
        controls.append(Button(resign, asking("resign"), Style.DANGER, disabled=disabled))
        rows.append(tuple(controls))
        return tuple(rows)

    # -- actions ----------------------------------------------------------------------------
    def handle(self, ctx: Context[State, QuartersUi]) -> Intent:
        state = ctx.require_state()
        table = ctx.table
        if ctx.action == "secret":
            return Intent(private=self.secret(state, ctx.locale))
        if ctx.action == "computer-start":
            ctx.require_turn()
            ai_seats = [i for i, s in enumerate(table.seats) if s.is_ai]
            if not ai_seats or state.moves:
                raise IllegalAction(N_("The computer can only start before the first move."))
            ctx.ui = QuartersUi()
            return Intent(changed=True, state=State.new(state.start, first=ai_seats[0]))
        ctx.require_turn()
        selected = [list(c) for c in ctx.ui.selected]
        if ctx.action == "c":
            pile, coin = _pair(ctx.arg)
            if not 1 <= pile <= len(state.piles) or not 1 <= coin <= state.piles[pile - 1]:
                raise IllegalAction(N_("That coin is not on the board any more."))
            if selected and selected[0][0] != pile:
                raise IllegalAction(
                    N_(
                        "Coins must come from one pile: you have coins of pile {pile} selected. "
                        "Press **{clear}** to start again.",
                        pile=selected[0][0],
                        clear=_p("button", "Clear"),
                    )
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
                raise IllegalAction(N_("Select one or more coins of a pile first."))
            ctx.ui = QuartersUi()
            return Intent(changed=True, move=quarters.format_move(selected[0][0], len(selected)))
        if ctx.action == "pile":
            pile = int(ctx.arg) if is_number(ctx.arg, 2) else 0
            if not 1 <= pile <= len(state.piles) or not state.piles[pile - 1]:
                raise IllegalAction(N_("Choose a pile that still has coins."))
            ctx.ui.pile = pile
            return Intent(changed=True)
        if ctx.action == "take":
            pile = ctx.ui.pile
            if not pile:
                raise IllegalAction(N_("Choose a pile first."))
            if not is_number(ctx.arg, 2):
                raise IllegalAction(N_("Choose how many coins to take."))
            ctx.ui = QuartersUi()
            return Intent(changed=True, move=quarters.format_move(pile, int(ctx.arg)))
        return super().handle(ctx)

    def detached(self, action: str, locale: str = "en") -> Screen:
        """``/quarters secret`` where no game of Quarters is running: the Secret alone."""
        if action == "secret":
            return Screen(content=render(SECRET, locale))
        return super().detached(action, locale)

    def secret(self, state: State, locale: str = "en") -> Screen:
        """The Secret, and what it says of the piles now, in the member's ``locale``."""
        piles = state.piles
        now = _(
            "Now: piles {piles}, nim-sum **{sum}**.",
            piles="-".join(map(str, piles)),
            sum=quarters.nim_sum(piles),
        )
        wins = quarters.winning_moves(piles)
        if state.is_over():
            then = _("The game is over.")
        elif wins:
            pile, count = quarters.parse_move(wins[0])
            then = _(
                "The player to move wins by taking **{count} from pile {pile}**.",
                count=count,
                pile=pile,
            )
        else:
            then = _("The player to move has no winning move: play on and hope for a slip.")
        return Screen(content=render(paragraphs(SECRET, sentences(now, then)), locale))

    def result_text(self, table: Table, outcome: Outcome) -> Text:
        """``"**Alice wins!** Bob is left with the last coin."``: the board's last line and the
        one announcement both (the issue's complaint was two wordings of one ending)."""
        winner = outcome.winners[0]
        return ending(outcome, seat_name(table.seats[winner]), seat_name(table.seats[1 - winner]))

    def seat_order(
        self, options: dict[str, Any], starter: Seat, other: Seat, seed: int
    ) -> list[Seat]:
        return [starter, other]


def _pair(text: str) -> tuple[int, int]:
    a, _, b = text.partition(".")
    if not is_number(a, 2) or not is_number(b, 2):
        raise IllegalAction(N_("That coin is not on the board."))
    return int(a), int(b)


def _coin_rows(
    state: State, selected: set[tuple[int, int]], disabled: bool, lang: str = "en"
) -> list[Row]:
    """A row of coin buttons a pile (the selected ones green), or a pile's empty place."""
    rows: list[Row] = []
    for p, size in enumerate(state.piles, start=1):
        if size == 0:
            empty = render(_p("button", "Pile {pile} is empty", pile=p), lang)
            rows.append((Button(empty, f"empty={p}", disabled=True),))
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


def _pile_selects(state: State, pile: int | None, disabled: bool, lang: str = "en") -> list[Row]:
    """Piles too big for coin buttons: a menu of piles, then how many coins to take."""
    rows: list[Row] = [
        Select(
            "pile",
            tuple(
                Option(
                    render(
                        _n("Pile {pile} ({n} coin)", "Pile {pile} ({n} coins)", n, pile=p), lang
                    ),
                    str(p),
                    default=p == pile,
                )
                for p, n in enumerate(state.piles, start=1)
                if n
            ),
            placeholder=render(_("Choose a pile"), lang),
            disabled=disabled,
        )
    ]
    if pile and state.piles[pile - 1]:
        rows.append(
            Select(
                "take",
                tuple(
                    Option(render(_("Take {n} from pile {pile}", n=n, pile=pile), lang), str(n))
                    for n in range(1, state.piles[pile - 1] + 1)
                ),
                placeholder=render(_("How many coins from pile {pile}?", pile=pile), lang),
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

"""The checkers controller: the board with its menus and draw offers, rated games between
members, and the game's registration."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from bot.drawing import draw
from bot.tables.checkers.moves import CheckersUi, move_selects
from bot.tables.checkers.record import COLOR_WORDS, record_file, record_screen, replay
from bot.tables.checkers.words import DRAWS, move_words, offer_line, take_back, won
from bot.tables.confirm import asking
from bot.tables.controller import Context, Controller, Intent, TableView, channel_language
from bot.tables.pictures import Replay
from bot.tables.screens import Button, Option, Row, Screen, Select, Style
from bot.tables.seats import mention, seat_name, seat_names
from bot.tables.spec import GameSpec
from bot.tables.wording import game_name
from games import checkers
from games.base import N_, IllegalAction, Outcome
from games.checkers import State
from games.checkers.state import ACCEPT_DRAW, DECLINE_DRAW, OFFER_DRAW
from games.digits import is_number
from i18n import Message, _, _p, lines, render, sentences
from i18n.formats import Listing, Number
from i18n.messages import Text
from render.checkers import render_checkers
from storage.models import Seat, Standing, Table

# /rules, a paragraph a rule, in the reader's language.
RULES = lines(
    _("**Checkers** (English draughts) — for two, on the dark squares of an 8x8 board."),
    _(
        "• Black moves first, down the board; Red moves up. Squares are numbered 1-32 (the "
        "small board beside the game shows the numbers)."
    ),
    _("• A man moves one square diagonally forward; a king one square diagonally any way."),
    _(
        "• Capturing is compulsory: jump an enemy piece next to you onto the empty square "
        "behind it, and keep jumping with the same piece while you can. Men jump forward only; "
        "kings any way. When several captures exist, choose any of them."
    ),
    _("• A man reaching the far row is crowned king; that ends its move."),
    _("• You lose when you cannot move on your turn (no pieces left, or all blocked)."),
    _(
        "• Draws: by agreement (**Offer draw**; your opponent may accept on their turn, and "
        "moving on declines), when the same position comes up a third time with the same "
        "player to move, or after 40 moves each with no capture and no man moved. You may "
        "**Resign** at any time."
    ),
    _(
        "• Choose your move in the menu, or type it: `/checkers move 11-15` (also `11 15`, "
        "`22x15`, `9x18x27` or the short `9x27`)."
    ),
    _(
        "• `/checkers start` options: `opponent` (else you play the computer), `color`, "
        "`level`, and `position`, a PDN FEN to start from, like `B:W18,24,27,K10:B12,16,K22` "
        "(side to move, then Red's and Black's squares; K marks a king)."
    ),
    _(
        "• `/checkers record` gives the game record as a PDN file. Games between members are "
        "rated (Elo)."
    ),
)

COLORS = ("black", "red", "random")
MARKS = ("⚫", "🔴")
# A starting position where the side to move cannot: refused, by that side's colour.
STUCK = {
    "black": N_("In that position Black cannot move: the game would be over before it starts."),
    "red": N_("In that position Red cannot move: the game would be over before it starts."),
}


class CheckersController(Controller[State, CheckersUi]):
    engine = checkers.ENGINE
    ui_type = CheckersUi
    title = "Checkers"
    # The strongest level searches this long on average (up to twice as long when a depth it
    # began runs on: see games.checkers.ai.HARD_SHARE).
    ai_budget = 1.5
    rated = True
    rules_text = RULES
    public_actions = frozenset({"record"})
    private_actions = frozenset({"record"})

    # -- setting up -------------------------------------------------------------------------
    def parse_options(self, raw: dict[str, Any]) -> dict[str, Any]:
        options: dict[str, Any] = {}
        color = (raw.get("color") or "random").lower()
        if color not in COLORS:
            raise IllegalAction(N_("Choose black, red or random for `color`."))
        options["color"] = color
        options["level"] = self.parse_level(raw)
        position = (raw.get("position") or "").strip()
        if position:
            state = State.new(position)  # raises IllegalAction with the FEN's fault
            if state.is_over():
                raise IllegalAction(STUCK[state.board.turn.name.lower()])
            options["position"] = state.start_fen
        return options

    def seat_order(
        self, options: dict[str, Any], starter: Seat, other: Seat, seed: int
    ) -> list[Seat]:
        """The starter takes the colour they asked for (Black is seat 0)."""
        color = options.get("color", "random")
        if color == "random":
            color = random.Random(seed).choice(("black", "red"))
        return [starter, other] if color == "black" else [other, starter]

    def new_state(self, table: Table, seed: int) -> State:
        return State.new(table.options.get("position"))

    # -- the board --------------------------------------------------------------------------
    def lobby(self, table: Table, view: TableView[CheckersUi]) -> Screen:
        screen = super().lobby(table, view)
        starter = next(s for s in table.seats if s.user_id == table.created_by)
        color = table.options.get("color", "random")
        colours = (
            _("Colours are drawn by lot.")
            if color == "random"
            else _("{name} plays {colour}.", name=starter.name, colour=COLOR_WORDS[color == "red"])
        )
        start = _("From the position given.") if table.options.get("position") else None
        said = sentences(colours, start, _("Black moves first."))
        content = f"{screen.content}\n{render(said, channel_language(table))}"
        return Screen(content=content, rows=screen.rows)

    def flip(self, table: Table) -> bool:
        """Turn the board round so a lone member playing Black has their pieces at the bottom.

        The picture's normal orientation (the seed's) has Black at the top and Red at the
        bottom. Between two members it stays that way, so the board does not spin every move.
        """
        members = [i for i, seat in enumerate(table.seats) if not seat.is_ai]
        return members == [0]

    def board(self, table: Table, state: State, seen: TableView[CheckersUi]) -> Screen:
        outcome = seen.outcome
        view = state.view(None)
        if outcome is not None:
            view["outcome"] = outcome.to_dict()
        lang = channel_language(table)
        names = seat_names(table.seats, lang)
        said: list[Text | None] = [
            _(
                "**{game}** — {black_mark} {black} (Black) vs {red_mark} {red} (Red)",
                game=game_name(self.title),
                black_mark=MARKS[0],
                black=names[0],
                red_mark=MARKS[1],
                red=names[1],
            ),
            self._last_moves_text(table, state, names),
        ]
        if state.declined is not None:
            offerer = state.declined
            said.append(
                _(
                    "🤝 {name} declined {offerer}'s draw offer.",
                    name=names[1 - offerer],
                    offerer=names[offerer],
                )
            )
        thinking = False
        if outcome is not None:
            said.append(self._outcome_line(names, outcome, lang))
            rows: tuple[Row, ...] = (self.finished_row(lang),)
        else:
            seat = state.to_act()[0]
            thinking = seen.thinking
            said.append(offer_line(names, state.draw_offer, seat))
            colour = COLOR_WORDS[seat]
            if thinking:
                said.append(_("🤔 The computer is thinking… ({colour} to move)", colour=colour))
            else:
                said.append(
                    _(
                        "{mention} to move ({colour}) — choose a move below or type "
                        "`/checkers move`.",
                        mention=mention(table.seats[seat]),
                        colour=colour,
                    )
                )
            rows = self._controls(seen.ui, state, seat, thinking, lang)
        picture = draw(render_checkers, view, flip=self.flip(table), lang=lang)
        return Screen(content=render(lines(*said), lang), pictures=(picture,), rows=rows)

    def _last_moves_text(self, table: Table, state: State, names: list[str]) -> Text | None:
        """The last move in words; after the computer's reply, the member's move before it
        too: "Alice played **11-15**; Computer (expert) replied **23-19**." """
        board = state.board
        if not board.move_stack:
            return None
        board = board.copy()  # taken back move by move below
        move, crowned = take_back(board)
        replier = int(board.turn)
        single = move_words(names[replier], move, crowned, replied=False)
        if not table.seats[replier].is_ai or not board.move_stack:
            return single
        mover = 1 - replier  # moves alternate: a multi-jump is one move
        if table.seats[mover].is_ai:
            return single
        mine, mine_crowned = take_back(board)
        return sentences(
            move_words(names[mover], mine, mine_crowned, replied=False),
            move_words(names[replier], move, crowned, replied=True),
        )

    def _outcome_line(self, names: list[str], outcome: Outcome, lang: str) -> str:
        """The board's last line: the result's words (:meth:`result_text`) with a mark."""
        mark = "🤝" if outcome.is_draw else "🏆"
        return f"{mark} {render(self._result_words(names, outcome), lang)}"

    @staticmethod
    def _result_words(names: Sequence[Text], outcome: Outcome) -> Message:
        if outcome.is_draw:
            return DRAWS.get(outcome.termination, _("**The game is drawn**."))
        winner = outcome.winners[0]
        return won(outcome, names[winner], names[1 - winner])

    def _controls(
        self, ui: CheckersUi, state: State, seat: int, thinking: bool, lang: str = "en"
    ) -> tuple[Row, ...]:
        def say(text: Text) -> str:
            return render(text, lang)

        rows: list[Row] = []
        if thinking:
            rows.append(
                Select(
                    "m",
                    (Option("…", "-"),),
                    placeholder=say(_("🤔 The computer is thinking…")),
                    disabled=True,
                )
            )
        else:
            rows.extend(move_selects(ui, state, COLOR_WORDS[seat], lang))
        legal = state.legal_actions(seat)
        buttons: list[Button] = []
        if ACCEPT_DRAW in legal:
            accept, decline = say(_p("button", "Accept draw")), say(_p("button", "Decline draw"))
            buttons.append(Button(accept, f"m={ACCEPT_DRAW}", Style.SUCCESS, thinking))
            buttons.append(Button(decline, f"m={DECLINE_DRAW}", disabled=thinking))
        elif OFFER_DRAW in legal:
            offer = say(_p("button", "Offer draw"))
            buttons.append(Button(offer, f"m={OFFER_DRAW}", disabled=thinking))
        resign = say(_p("button", "Resign"))
        buttons.append(Button(resign, asking("resign"), Style.DANGER, disabled=thinking))
        record = say(_p("button", "Game record"))
        buttons.append(Button(record, "record", emoji="📜", any_version=True))
        rows.append(tuple(buttons))
        return tuple(rows)

    # -- actions ----------------------------------------------------------------------------
    def handle(self, ctx: Context[State, CheckersUi]) -> Intent:
        state = ctx.require_state()
        if ctx.action == "record":
            return Intent(private=record_screen(ctx.table, state, ctx.locale))
        if ctx.action == "from":
            ctx.require_turn()
            starts = sorted({m.start for m in state.board.legal_moves})
            square = int(ctx.arg) if is_number(ctx.arg, 2) else 0
            if square not in starts:
                can = Listing(tuple(map(str, starts)))
                said = N_(
                    "No piece on {square} can move. Pieces that can: {can}.",
                    square=ctx.arg[:3],
                    can=can,
                )
                raise IllegalAction(said)
            ctx.ui = CheckersUi(piece=square, ply=len(state.board.move_stack))
            return Intent(changed=True)
        return super().handle(ctx)

    # -- the record -------------------------------------------------------------------------
    def record(self, table: Table, state: State, locale: str = "en") -> Screen:
        """The game record so far (or of the finished game) as a PDN file, in ``locale``."""
        return record_screen(table, state, locale)

    # -- the end ----------------------------------------------------------------------------
    def result_text(self, table: Table, outcome: Outcome) -> Text:
        return self._result_words([seat_name(s) for s in table.seats], outcome)

    def result_extras(self, table: Table, state: State | None, outcome: Outcome) -> Screen:
        """The game record (PDN) goes with the announcement."""
        if state is None:
            return Screen()
        return Screen(files=(record_file(table, state, outcome),))

    # -- scoreboard -------------------------------------------------------------------------
    def standing_columns(self) -> tuple[Text, ...]:
        return (
            _p("scoreboard", "Rating"),
            _p("scoreboard", "W"),
            _p("scoreboard", "D"),
            _p("scoreboard", "L"),
        )

    def standing_values(self, standing: Standing) -> tuple[Text, ...]:
        # an Elo rating is written without a thousands separator in every language
        rating = "—" if standing.rating is None else f"{standing.rating:.0f}"
        wins, draws, losses = standing.wins, standing.draws, standing.losses
        return (rating, Number(wins), Number(draws), Number(losses))

    def rank_key(self, standing: Standing) -> tuple:
        rated = standing.rating is not None
        return (not rated, -(standing.rating or 0.0), -standing.wins, standing.losses)


SPEC = GameSpec(
    CheckersController,
    commands="bot.client.checkers_commands:checkers_group",
    replay=Replay(replay),
)

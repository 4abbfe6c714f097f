"""The Hearts controller: a seat lobby for four, then the table, the private hands and the
scores; and the game's registration."""

from __future__ import annotations

import random
from types import MappingProxyType
from typing import Any

from bot.tables.cards import card_label, cards_label
from bot.tables.confirm import question
from bot.tables.controller import Context, Intent, TableView, channel_language
from bot.tables.hearts import hand, leaving, scores
from bot.tables.hearts.board import board_screen
from bot.tables.hearts.lobby import lobby_screen
from bot.tables.hearts.options import (
    DEFAULT_DELAY,
    RULES,
    RULESETS,
    HeartsUi,
    parse_table_options,
)
from bot.tables.lobby import SeatLobby
from bot.tables.screens import Screen
from bot.tables.seats import seat_name
from bot.tables.spec import GameSpec
from games import hearts
from games.base import N_, IllegalAction, Outcome
from games.hearts import Phase, State
from games.hearts.rules import pass_target
from i18n import _, _p
from i18n.messages import Text
from storage.models import Result, Standing, Table, TableStatus

OPTIONS = frozenset({"level", "rules", "delay"})  # the host's selects in the lobby


class HeartsController(SeatLobby[State, HeartsUi]):
    engine = hearts.ENGINE
    ui_type = HeartsUi
    title = "Hearts"
    max_players = 4
    ai_budget = 0.5  # the expert's search per card
    rules_text = RULES
    turn_timeout = 120.0
    lobby_seconds = 15 * 60
    public_actions = frozenset({"join", "scores"})
    confirmations = MappingProxyType({"resign": leaving.LEAVE})
    private_actions = frozenset({"scores", "hand", "leave", "ask"})
    host_leaving_closes = True
    computers_fill = True

    # -- setting up -------------------------------------------------------------------------
    def parse_options(self, raw: dict[str, Any]) -> dict[str, Any]:
        return parse_table_options(raw, self.parse_level(raw))

    def new_state(self, table: Table, seed: int) -> State:
        rules = RULESETS[table.options.get("rules", "classic")]
        return State.new(seed=seed, rules=rules, dealer=random.Random(seed).randrange(4))

    def ai_delay(self, table: Table) -> float:
        """The table's pause between computer cards (none while the computers choose passes)."""
        if table.state is not None and table.state.get("phase") == Phase.PASS.value:
            return 0.0
        return float(table.options.get("delay", DEFAULT_DELAY))

    # -- showing ----------------------------------------------------------------------------
    def lobby(self, table: Table, view: TableView[HeartsUi]) -> Screen:
        return lobby_screen(self, table, view)

    def on_close(self, ctx: Context[State, HeartsUi]) -> None:
        ctx.ui.closed_by = ctx.user_name

    def board(self, table: Table, state: State | None, seen: TableView[HeartsUi]) -> Screen:
        return board_screen(table, state, seen, self.again_button(channel_language(table)))

    def private_key(self, table: Table, state: State, seat: int) -> str:
        return hand.hand_key(state, seat)

    def private_screen(self, table: Table, state: State, seat: int, locale: str = "en") -> Screen:
        return hand.hand_screen(table, state, seat, lang=locale)

    # -- acting -----------------------------------------------------------------------------
    def handle(self, ctx: Context[State, HeartsUi]) -> Intent:
        in_lobby = self.lobby_action(ctx) or self.lobby_options(ctx, OPTIONS)
        if in_lobby is not None:
            return in_lobby
        if ctx.table.status is TableStatus.CHALLENGE:
            if ctx.action in ("scores", "hand"):
                raise IllegalAction(N_("The game has not started yet."))
            return super().handle(ctx)
        state = ctx.require_state()
        if ctx.action == "scores":
            return Intent(private=scores.scores_screen(ctx.table, state, ctx.locale))
        seat = ctx.require_seat()
        if ctx.action == "leave":
            return Intent(private=question("resign", leaving.LEAVE, ctx.locale))
        if ctx.action == "hand":
            back = seat in ctx.autoplay
            note = _("Welcome back: the computer no longer plays for you.") if back else None
            return Intent(
                changed=back,
                private=hand.hand_screen(ctx.table, state, seat, note, lang=ctx.locale),
                update_private=ctx.arg == "here",
                hand=True,
            )
        if ctx.action in ("pick", "pass"):
            return self._pass(ctx, state)
        if ctx.action == "play":
            return self._play(ctx, state)
        return super().handle(ctx)

    def _pass(self, ctx: Context[State, HeartsUi], state: State) -> Intent:
        """A card picked to pass (the pick travels in the button: nothing is stored), or the
        three passed."""
        if state.phase is not Phase.PASS:
            button = _p("button", "Your hand")
            raise IllegalAction(
                N_("The passing is over: press **{hand}** to play a card.", hand=button)
            )
        seat = ctx.require_turn()
        table = ctx.table
        if ctx.action == "pick":
            picked = hand.parse_pick(ctx.arg, state.hand(seat))
            screen = hand.hand_screen(table, state, seat, picked=picked, lang=ctx.locale)
            return Intent(private=screen, update_private=True, hand=True)
        cards = hearts.parse_pass(ctx.arg)
        target = seat_name(table.seats[pass_target(seat, state.pass_direction)])
        passed = _("You passed {cards} to {name}.", cards=cards_label(cards), name=target)
        lang = ctx.locale
        return Intent(
            move=hearts.format_pass(cards),
            after_move=lambda after: hand.hand_screen(table, after, seat, passed, lang=lang),
            update_private=True,
            hand=True,
        )

    def _play(self, ctx: Context[State, HeartsUi], state: State) -> Intent:
        if state.phase is not Phase.PLAY:
            raise IllegalAction(N_("Choose three cards to pass first."))
        seat = ctx.require_turn()
        table = ctx.table
        card = hearts.parse_play(ctx.arg)
        played = _("You played {card}.", card=card_label(card))
        lang = ctx.locale
        return Intent(
            move=hearts.format_play(card),
            after_move=lambda after: hand.hand_screen(table, after, seat, played, lang=lang),
            update_private=True,
            hand=True,
        )

    # -- leaving and the end ------------------------------------------------------------------
    def resign(self, ctx: Context[State, HeartsUi]) -> Intent | None:
        """Leaving: the computer takes the seat for good and the others play on. The last
        member to leave ends the game (the service records it)."""
        return leaving.leave(ctx, self.table_level(ctx.table))

    def outcome_on_resign(self, state: State, seat: int) -> Outcome:
        return leaving.outcome_when_all_left(state, seat)

    def results(self, table: Table, state: State | None, outcome: Outcome) -> list[Result]:
        return leaving.results(table, state, outcome, self.ui(table).left)

    def result_text(self, table: Table, outcome: Outcome) -> Text:
        return leaving.result_text(table, outcome)

    def result_extras(self, table: Table, state: State | None, outcome: Outcome) -> Screen:
        return leaving.result_extras(table, state)

    # -- scoreboard -------------------------------------------------------------------------
    def standing_columns(self) -> tuple[Text, ...]:
        return scores.COLUMNS

    def standing_values(self, standing: Standing) -> tuple[Text, ...]:
        return scores.standing_values(standing)

    def rank_key(self, standing: Standing) -> tuple:
        return scores.rank_key(standing)


SPEC = GameSpec(HeartsController, commands="bot.client.hearts_commands:hearts_group")

"""Kabu at a table: a lobby of up to five players against the computer dealer, position
buttons, Draw / Stand, a private exact Hint, the reveal, and Deal again."""

from __future__ import annotations

import json
from collections import OrderedDict
from collections.abc import Callable
from fractions import Fraction
from typing import Any

from bot.drawing import draw
from bot.tables.cards import cards_label
from bot.tables.controller import Context, Intent, TableView, UiState, channel_language
from bot.tables.lobby import SeatLobby
from bot.tables.screens import Button, Row, Screen, Style
from bot.tables.spec import GameSpec
from games import kabu
from games.base import IllegalAction, Outcome
from games.kabu import Phase, Rules, State
from games.kabu.state import POSITIONS
from i18n import _, _p, lines
from i18n.formats import Number, Percent
from i18n.messages import Text
from render.kabu import render_kabu
from storage.models import Result, Seat, Standing, Table

# /rules, a paragraph a rule, in the reader's language.
RULES = lines(
    _("**Kabu** — a Japanese card game against the computer dealer, for 1 to 5 players."),
    _(
        "• Cards count: ace 1, 2-9 their number, 10 nothing, J 1, Q 2, K 3. A hand is worth the "
        "last digit of its sum: K, 3, 8 make 4; 4 and 5 make 9, the best."
    ),
    _(
        "• Five cards lie face up in a row and the dealer shows one. Each player takes one of "
        "the five positions (buttons 1-5; each player a different one)."
    ),
    _(
        "• Left to right, each chosen position gets a second card and its player chooses: "
        "**Draw** a third card or **Stand**. A hand never has more than three cards."
    ),
    _(
        "• Then the other positions and the dealer get their second cards. The dealer always "
        "draws at 3 or less, never at 7 or more, and at 4-6 only when drawing beats more of the "
        "seated hands, counted exactly over the cards still unseen."
    ),
    _("• Beat the dealer's total to win. **Ties go to the dealer.**"),
    _(
        "• Two-card specials: **Shippin**, your ace and 4, beats every dealer hand but "
        "**Kuppin**, the dealer's ace and 9, which beats everything."
    ),
    _(
        "• **Arashi** (a table option, on unless `/kabu start arashi:False`): three cards of "
        "one rank beat any plain hand; a higher Arashi beats a lower one."
    ),
    _(
        "• **Hint** tells you, privately, your exact chance of winning if you draw and if you "
        "stand (players to your right are taken to stand)."
    ),
    _(
        "• `/kabu start` opens a table: others press **Join** (up to five), the host presses "
        "**Deal**. **Deal again** plays the next round with the same players. Rounds won and "
        "lost go to `/scoreboard`."
    ),
)

MAX_NAME = 20


def _short(name: str) -> str:
    return name if len(name) <= MAX_NAME else name[: MAX_NAME - 1] + "…"


def _percent(chance: Fraction) -> str:
    return f"**{float(chance):.1%}** ({chance.numerator}/{chance.denominator})"


def exact_chances(state_json: str, seat: int) -> tuple[Fraction, Fraction]:
    """The hint for one position; top-level so the process pool can run it."""
    return kabu.hint(State.from_dict(json.loads(state_json)), seat)


_HINTS: OrderedDict[tuple[str, int], tuple[Fraction, Fraction]] = OrderedDict()


def _hint(state_json: str, seat: int, compute: Callable[..., Any]) -> tuple[Fraction, Fraction]:
    """The exact hint, computed in the pool once per position and kept for the next press."""
    key = (state_json, seat)
    if key not in _HINTS:
        _HINTS[key] = compute(exact_chances, state_json, seat)
        while len(_HINTS) > 64:
            _HINTS.popitem(last=False)
    return _HINTS[key]


class KabuController(SeatLobby[State, UiState]):
    engine = kabu.ENGINE
    title = "Kabu"
    max_players = 5
    rules_text = RULES
    turn_timeout = 180.0  # a player away this long has the computer play their hand
    private_actions = frozenset({"hint"})
    lobby_seconds = 10 * 60
    start_label, start_action = "Deal", "deal"

    # -- setting up -------------------------------------------------------------------------
    def parse_options(self, raw: dict[str, Any]) -> dict[str, Any]:
        arashi = raw.get("arashi")
        return {"arashi": True if arashi is None else bool(arashi)}

    def new_state(self, table: Table, seed: int) -> State:
        rules = Rules(arashi=table.options.get("arashi", True))
        return State.new(players=len(table.seats), seed=seed, rules=rules)

    def rematch_seats(self, finished: Table) -> list[Seat]:
        """Deal again: the same players in the same order."""
        return [Seat(s.name, s.user_id, s.ai_level) for s in finished.seats]

    def again_button(self) -> Button:
        return Button("Deal again", "again", Style.SUCCESS, any_version=True)

    # -- the lobby --------------------------------------------------------------------------
    def lobby(self, table: Table, view: TableView[UiState]) -> Screen:
        names = ", ".join(s.name for s in table.seats)
        arashi = "on" if table.options.get("arashi", True) else "off"
        full = len(table.seats) >= self.max_players
        content = (
            f"**Kabu** — a table against the computer dealer (Arashi {arashi}).\n"
            f"Seated ({len(table.seats)}/{self.max_players}): {names}.\n"
            + ("The table is full. " if full else "Press **Join** to take a seat. ")
            + f"{self.host_name(table)} presses **Deal** to start."
        )
        return Screen(content=content, rows=(self.lobby_buttons(table),))

    # -- the board --------------------------------------------------------------------------
    def board(self, table: Table, state: State, seen: TableView[UiState]) -> Screen:
        view = state.view(None)
        names = {i: seat.name for i, seat in enumerate(table.seats)}
        arashi = "on" if state.rules.arashi else "off"
        players = ", ".join(_short(seat.name) for seat in table.seats)
        lines = [f"**Kabu** — {players} vs the dealer · Arashi {arashi}"]
        thinking = seen.thinking
        rows: tuple[Row, ...]
        if state.is_over():
            lines.extend(self._reveal_lines(table, state))
            rows = ((self.again_button(),),)
        elif seen.outcome is not None:  # ended early (a claim against an idle player)
            lines.append(self.result_text(table, seen.outcome))
            rows = ((self.again_button(),),)
        else:
            (seat,) = state.to_act()
            who = f"<@{table.seats[seat].user_id}>"
            if thinking:
                lines.append(f"🤔 The computer plays for {table.seats[seat].name}, who is away…")
            elif state.phase is Phase.PICK:
                lines.append(f"{who} — pick your position: press 1-5.")
            else:
                position = state.picks[seat]
                assert position is not None
                hand = state.positions[position]
                name = kabu.hand_name(
                    [int(c.rank) for c in hand], dealer=False, arashi=state.rules.arashi
                )
                lines.append(
                    f"{who} — position {position + 1} holds {cards_label(hand)}: "
                    f"{kabu.total([int(c.rank) for c in hand])} ({name}). "
                    "**Draw** a third card or **Stand**?"
                )
            rows = self._controls(table, state, thinking)
        picture = draw(render_kabu, view, names, channel_language(table))
        return Screen(content="\n".join(lines), pictures=(picture,), rows=rows)

    def _controls(self, table: Table, state: State, thinking: bool) -> tuple[Row, ...]:
        if state.phase is Phase.PICK:
            buttons = []
            for position in range(POSITIONS):
                owner = state.owner(position)
                card = cards_label(state.positions[position])
                if owner is None:
                    label, style = f"{position + 1} · {card}", Style.PRIMARY
                else:
                    label, style = (
                        f"{position + 1} · {_short(table.seats[owner].name)}",
                        Style.SECONDARY,
                    )
                buttons.append(
                    Button(
                        label,
                        f"m={kabu.format_pick(position + 1)}",
                        style,
                        disabled=thinking or owner is not None,
                    )
                )
            return (tuple(buttons),)
        return (
            (
                Button("Draw", "m=draw", Style.PRIMARY, disabled=thinking),
                Button("Stand", "m=stand", Style.SUCCESS, disabled=thinking),
                Button("Hint", "hint", emoji="💡", disabled=thinking),
            ),
        )

    def _reveal_lines(self, table: Table, state: State) -> list[str]:
        outcome = state.outcome()
        assert outcome is not None
        details = outcome.details
        drew = "drew a third card" if state.dealer_drew else "stood"
        lines = [
            f"Dealer: {cards_label(state.dealer)} — {details['dealer_total']} "
            f"({details['dealer_hand']}); the dealer {drew}."
        ]
        for seat, result in enumerate(details["results"]):
            position = state.picks[seat]
            assert position is not None
            won = result == "win"
            lines.append(
                f"{'🏆' if won else '❌'} **{_short(table.seats[seat].name)}** (position "
                f"{position + 1}): {cards_label(state.positions[position])} — "
                f"{details['totals'][seat]} ({details['hands'][seat]}) — "
                + ("**WIN**" if won else "LOSE")
            )
        return lines

    # -- actions ----------------------------------------------------------------------------
    def handle(self, ctx: Context[State, UiState]) -> Intent:
        in_lobby = self.lobby_action(ctx)
        if in_lobby is not None:
            return in_lobby
        if ctx.action == "hint":
            seat = ctx.require_seat()
            if ctx.state is None:
                raise IllegalAction("The round has not been dealt yet.")
            return Intent(private=self.hint(ctx.table, ctx.state, seat, ctx.compute))
        return super().handle(ctx)

    def hint(
        self,
        table: Table,
        state: State,
        asker: int,
        compute: Callable[..., Any] = lambda fn, *args: fn(*args),
    ) -> Screen:
        """The deciding player's exact chances, for any seated player who asks."""
        if state.phase is not Phase.DECIDE:
            raise IllegalAction("Hints come once every player has picked a position.")
        (seat,) = state.to_act()
        draw, stand = _hint(json.dumps(state.to_dict(), sort_keys=True), seat, compute)
        position = state.picks[seat]
        assert position is not None
        hand = state.positions[position]
        unseen = sum(state.unseen_counts())
        better = (
            "Drawing is better."
            if draw > stand
            else "Standing is better."
            if stand > draw
            else "It makes no difference."
        )
        if seat == asker:
            head = f"💡 **Your chances** with {cards_label(hand)} at position {position + 1}:"
        else:
            head = (
                f"💡 **{_short(table.seats[seat].name)}** is deciding, with {cards_label(hand)} "
                f"at position {position + 1}. Their chances:"
            )
        lines = [
            head,
            f"• Draw: {_percent(draw)}",
            f"• Stand: {_percent(stand)}",
            better,
            f"-# Exact, over every order of the {unseen} unseen cards, with the dealer's rule; "
            "players to the right are taken to stand.",
        ]
        if seat != asker and state.decisions[asker] is None:
            lines.append("-# Your own hint comes on your turn.")
        return Screen(content="\n".join(lines))

    def outcome_on_resign(self, state: State, seat: int) -> Outcome:
        raise IllegalAction("Kabu has no resigning: **Stand** ends your part of the round.")

    # -- results ----------------------------------------------------------------------------
    def results(self, table: Table, state: State | None, outcome: Outcome) -> list[Result]:
        """One round won or lost per player (against the dealer)."""
        found = []
        for index, seat in enumerate(table.seats):
            if seat.user_id is None:
                continue
            won = index in outcome.winners
            found.append(
                Result(seat.user_id, "win" if won else "loss", int(won), True, name=seat.name)
            )
        return found

    def result_text(self, table: Table, outcome: Outcome) -> str:
        names = [table.seats[i].name for i in outcome.winners]
        text = f"{' and '.join(names)} won it." if names else "The dealer won it."
        if outcome.termination == "timeout":  # a claim against a player who went away
            return f"The round ended early: {text}"
        return text

    def standing_columns(self) -> tuple[Text, ...]:
        return (_p("scoreboard", "Won"), _p("scoreboard", "Lost"), _p("scoreboard", "Win%"))

    def standing_values(self, standing: Standing) -> tuple[Text, ...]:
        return (Number(standing.wins), Number(standing.losses), Percent(standing.win_rate))

    def rank_key(self, standing: Standing) -> tuple:
        return (-standing.wins, -standing.win_rate, standing.losses)


SPEC = GameSpec(KabuController, commands="bot.client.kabu_commands:kabu_group")

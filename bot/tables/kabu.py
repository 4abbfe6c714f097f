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
from bot.tables.seats import seat_name, seat_names
from bot.tables.spec import GameSpec
from games import kabu
from games.base import N_, IllegalAction, Outcome
from games.kabu import Phase, Rules, State
from games.kabu.state import POSITIONS
from i18n import Message, _, _n, _p, lines, render, sentences
from i18n.formats import Listing, Number, Percent
from i18n.messages import Param, Text
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


def hand_words(name: str) -> Message:
    """A hand's name (the engine's "Shippin", "Oicho") as players of each language say it: the
    entries the Kabu picture's words (``render.kabu``) hold under the context "kabu hand"."""
    return Message(name, context="kabu hand")


def _chance(chance: Fraction) -> dict[str, Param]:
    """A chance as the hint's lines show it: a percentage, and the exact fraction (notation,
    the same in every language)."""
    return {
        "percent": Percent(float(chance), 1),
        "fraction": f"{chance.numerator}/{chance.denominator}",
    }


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
    start_label, start_action = _p("button", "Deal"), "deal"

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

    def again_button(self, lang: str = "en") -> Button:
        label = render(_p("button", "Deal again"), lang)
        return Button(label, "again", Style.SUCCESS, any_version=True)

    # -- the lobby --------------------------------------------------------------------------
    def lobby(self, table: Table, view: TableView[UiState]) -> Screen:
        lang = channel_language(table)
        names = Listing(tuple(seat_names(table.seats, lang)))
        full = len(table.seats) >= self.max_players
        said = lines(
            _("**Kabu** — a table against the computer dealer (Arashi on).")
            if table.options.get("arashi", True)
            else _("**Kabu** — a table against the computer dealer (Arashi off)."),
            _(
                "Seated ({count}/{most}): {names}.",
                count=len(table.seats),
                most=self.max_players,
                names=names,
            ),
            sentences(
                _("The table is full.") if full else _("Press **Join** to take a seat."),
                _("{name} presses **Deal** to start.", name=self.host_name(table)),
            ),
        )
        return Screen(content=render(said, lang), rows=(self.lobby_buttons(table, lang),))

    # -- the board --------------------------------------------------------------------------
    def board(self, table: Table, state: State, seen: TableView[UiState]) -> Screen:
        view = state.view(None)
        lang = channel_language(table)
        full_names = seat_names(table.seats, lang)
        names = dict(enumerate(full_names))
        players = Listing(tuple(_short(name) for name in full_names))
        said: list[Text] = [
            _("**Kabu** — {players} vs the dealer · Arashi on", players=players)
            if state.rules.arashi
            else _("**Kabu** — {players} vs the dealer · Arashi off", players=players)
        ]
        thinking = seen.thinking
        rows: tuple[Row, ...]
        if state.is_over():
            said.extend(self._reveal_lines(state, full_names))
            rows = ((self.again_button(lang),),)
        elif seen.outcome is not None:  # ended early (a claim against an idle player)
            said.append(self.result_text(table, seen.outcome))
            rows = ((self.again_button(lang),),)
        else:
            said.append(self._turn_line(table, state, thinking, full_names))
            rows = self._controls(table, state, thinking, lang)
        picture = draw(render_kabu, view, names, lang)
        return Screen(content=render(lines(*said), lang), pictures=(picture,), rows=rows)

    @staticmethod
    def _turn_line(table: Table, state: State, thinking: bool, names: list[str]) -> Message:
        """Whose turn it is, and what they choose."""
        (seat,) = state.to_act()
        who = f"<@{table.seats[seat].user_id}>"
        if thinking:
            return _("🤔 The computer plays for {name}, who is away…", name=names[seat])
        if state.phase is Phase.PICK:
            return _("{mention} — pick your position: press 1-5.", mention=who)
        position = state.picks[seat]
        assert position is not None
        hand = state.positions[position]
        ranks = [int(c.rank) for c in hand]
        return _(
            "{mention} — position {position} holds {cards}: {total} ({hand}). **Draw** a third "
            "card or **Stand**?",
            mention=who,
            position=position + 1,
            cards=cards_label(hand),
            total=kabu.total(ranks),
            hand=hand_words(kabu.hand_name(ranks, dealer=False, arashi=state.rules.arashi)),
        )

    def _controls(
        self, table: Table, state: State, thinking: bool, lang: str = "en"
    ) -> tuple[Row, ...]:
        if state.phase is Phase.PICK:
            buttons = []
            for position in range(POSITIONS):
                owner = state.owner(position)
                card = cards_label(state.positions[position])
                if owner is None:
                    label, style = f"{position + 1} · {card}", Style.PRIMARY
                else:
                    label, style = (
                        f"{position + 1} · {_short(seat_names([table.seats[owner]], lang)[0])}",
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
                Button(render(_p("kabu", "Draw"), lang), "m=draw", Style.PRIMARY, thinking),
                Button(render(_p("kabu", "Stand"), lang), "m=stand", Style.SUCCESS, thinking),
                Button(render(_p("button", "Hint"), lang), "hint", emoji="💡", disabled=thinking),
            ),
        )

    def _reveal_lines(self, state: State, names: list[str]) -> list[Message]:
        outcome = state.outcome()
        assert outcome is not None
        details = outcome.details
        said = {"cards": cards_label(state.dealer), "total": details["dealer_total"]}
        hand = hand_words(details["dealer_hand"])
        found = [
            _(
                "Dealer: {cards} — {total} ({hand}); the dealer drew a third card.",
                hand=hand,
                **said,
            )
            if state.dealer_drew
            else _("Dealer: {cards} — {total} ({hand}); the dealer stood.", hand=hand, **said)
        ]
        for seat, result in enumerate(details["results"]):
            position = state.picks[seat]
            assert position is not None
            words = {
                "name": _short(names[seat]),
                "position": position + 1,
                "cards": cards_label(state.positions[position]),
                "total": details["totals"][seat],
                "hand": hand_words(details["hands"][seat]),
            }
            if result == "win":
                found.append(
                    _(
                        "🏆 **{name}** (position {position}): {cards} — {total} ({hand}) — **WIN**",
                        **words,
                    )
                )
            else:
                found.append(
                    _(
                        "❌ **{name}** (position {position}): {cards} — {total} ({hand}) — LOSE",
                        **words,
                    )
                )
        return found

    # -- actions ----------------------------------------------------------------------------
    def handle(self, ctx: Context[State, UiState]) -> Intent:
        in_lobby = self.lobby_action(ctx)
        if in_lobby is not None:
            return in_lobby
        if ctx.action == "hint":
            seat = ctx.require_seat()
            if ctx.state is None:
                raise IllegalAction(N_("The round has not been dealt yet."))
            hint = self.hint(ctx.table, ctx.state, seat, ctx.compute, ctx.locale)
            return Intent(private=hint)
        return super().handle(ctx)

    def hint(
        self,
        table: Table,
        state: State,
        asker: int,
        compute: Callable[..., Any] = lambda fn, *args: fn(*args),
        locale: str = "en",
    ) -> Screen:
        """The deciding player's exact chances, for any seated player who asks."""
        if state.phase is not Phase.DECIDE:
            raise IllegalAction(N_("Hints come once every player has picked a position."))
        (seat,) = state.to_act()
        draw, stand = _hint(json.dumps(state.to_dict(), sort_keys=True), seat, compute)
        position = state.picks[seat]
        assert position is not None
        hand = state.positions[position]
        unseen = sum(state.unseen_counts())
        better = (
            _("Drawing is better.")
            if draw > stand
            else _("Standing is better.")
            if stand > draw
            else _("It makes no difference.")
        )
        cards, at = cards_label(hand), position + 1
        if seat == asker:
            head = _(
                "💡 **Your chances** with {cards} at position {position}:", cards=cards, position=at
            )
        else:
            name = _short(render(seat_name(table.seats[seat]), locale))
            head = _(
                "💡 **{name}** is deciding, with {cards} at position {position}. Their chances:",
                name=name,
                cards=cards,
                position=at,
            )
        said = lines(
            head,
            _("• Draw: **{percent}** ({fraction})", **_chance(draw)),
            _("• Stand: **{percent}** ({fraction})", **_chance(stand)),
            better,
            _n(
                "-# Exact, over every order of the {n} unseen card, with the dealer's rule; "
                "players to the right are taken to stand.",
                "-# Exact, over every order of the {n} unseen cards, with the dealer's rule; "
                "players to the right are taken to stand.",
                unseen,
            ),
            _("-# Your own hint comes on your turn.")
            if seat != asker and state.decisions[asker] is None
            else None,
        )
        return Screen(content=render(said, locale))

    def outcome_on_resign(self, state: State, seat: int) -> Outcome:
        stand = _p("kabu", "Stand")
        raise IllegalAction(
            N_("Kabu has no resigning: **{stand}** ends your part of the round.", stand=stand)
        )

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

    def result_text(self, table: Table, outcome: Outcome) -> Text:
        names = Listing(tuple(seat_name(table.seats[i]) for i in outcome.winners))
        early = outcome.termination == "timeout"  # a claim against a player who went away
        if not names.items:
            if early:
                return _("The round ended early: the dealer won it.")
            return _("The dealer won it.")
        if early:
            return _("The round ended early: {names} won it.", names=names)
        return _("{names} won it.", names=names)

    def standing_columns(self) -> tuple[Text, ...]:
        return (_p("scoreboard", "Won"), _p("scoreboard", "Lost"), _p("scoreboard", "Win%"))

    def standing_values(self, standing: Standing) -> tuple[Text, ...]:
        return (Number(standing.wins), Number(standing.losses), Percent(standing.win_rate))

    def rank_key(self, standing: Standing) -> tuple:
        return (-standing.wins, -standing.win_rate, standing.losses)


SPEC = GameSpec(KabuController, commands="bot.client.kabu_commands:kabu_group")

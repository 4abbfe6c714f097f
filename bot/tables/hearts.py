"""Hearts at a table: a lobby for four, the public table, private hands, and the scores.

The board shows the table from above (``State.view(None)``: no hand is ever in it). Each
player's cards reach them only in an ephemeral answer to **Your hand**: a button a card, to pick
three to pass or to play a legal one with one tap. The Discord layer keeps that message up to
date (see ``bot.client.hands``) using :meth:`HeartsController.private_key`.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.tables.cards import card_label
from bot.tables.controller import Context, Controller, Intent, TableView, UiState, table_seed
from bot.tables.screens import Attachment, Button, Embed, Field, Option, Row, Screen, Select, Style
from bot.tables.spec import GameSpec
from games import hearts
from games.base import IllegalAction, Outcome
from games.cards import Card
from games.digits import decimal
from games.hearts import HeartsView, Phase, Rules, State
from games.hearts.rules import pass_target
from render.charts import hearts_totals_chart
from render.hearts import render_hearts_hand, render_hearts_table
from storage.models import Result, Seat, Standing, Table, TableStatus

RULES = """\
**Hearts** — four players, 13 cards each; the computer fills empty seats.
• Before each hand pass three cards: to the left, then right, then across; every fourth hand \
is kept. Everyone chooses before any card changes hands.
• The player to the dealer's right leads the first trick; each trick's winner leads the next. \
Play goes to the left. Follow suit if you can, otherwise play anything. The highest card of the \
suit led takes the trick.
• You may not lead a heart on the first trick, nor until a heart has been played (hearts are \
*broken*), unless you hold nothing but hearts.
• Every heart you take costs 1 point, the queen of spades 13. Take all 26 and you *shoot the \
moon*: you score 0 and everyone else 26.
• When someone reaches 100 at the end of a hand, the lowest total wins (ties share).
• **Modern** rules (a table option): the two of clubs leads the first trick, and no points may \
be played to it unless a hand has nothing else.
• Press **Your hand** to see your cards privately, as buttons: tap three and **Pass**, then \
tap a card to play it. That message offers your cards by itself whenever it is your turn. \
**Scores** shows every hand's points. If you stop playing, the computer plays for you after a \
while, until you come back."""

RULESETS: dict[str, Rules] = {
    "classic": Rules(),
    "modern": Rules(two_of_clubs_leads=True, no_points_on_first_trick=True),
}
RULESET_WORDS = {
    "classic": "Classic rules",
    "modern": "Modern rules (two of clubs leads; no points on the first trick)",
}
DEFAULT_DELAY = 1.0
MAX_DELAY = 5.0
DELAY_CHOICES = (0.0, 0.5, 1.0, 2.0, 3.0, 5.0)
LEAVE_CONFIRMATION = Screen(
    content=(
        "Leave this game? The computer plays your seat to the end, and the game counts as a "
        "loss for you."
    ),
    rows=((Button("Leave for good", "resign", Style.DANGER, any_version=True),),),
)
CARDS_A_ROW = 4  # four card buttons fit a phone's width; 13 cards take rows of 4, 3, 3, 3
PASS_SIZE = 3
PASS_WORDS = {"left": "to the left", "right": "to the right", "across": "across"}


def labels(codes: Sequence[str]) -> str:
    """``"Q♠ 10♦"`` from card codes ``["QS", "TD"]``."""
    return " ".join(card_label(Card.parse(c)) for c in codes)


def short_names(names: Sequence[str], width: int = 7) -> list[str]:
    """Column headings for the score table: the names cut to ``width``, or seat numbers when
    two would look alike.

    >>> short_names(["Alice", "Computer 1", "Computer 2", "Bob"])
    ['Alice', 'CPU 1', 'CPU 2', 'Bob']
    >>> short_names(["Alexander", "Alexandra", "Computer", "Bob"])
    ['#1', '#2', '#3', '#4']
    """
    short = [name.replace("Computer", "CPU")[:width].strip() for name in names]
    if len(set(short)) < len(short):
        return [f"#{i + 1}" for i in range(len(names))]
    return short


def card_rows(buttons: Sequence[Button]) -> list[Row]:
    """Card buttons in as few rows of at most :data:`CARDS_A_ROW` as fit, evened out.

    >>> [len(row) for row in card_rows([Button(str(n), str(n)) for n in range(13)])]
    [4, 3, 3, 3]
    """
    count = -(-len(buttons) // CARDS_A_ROW)
    rows: list[Row] = []
    start = 0
    for index in range(count):
        size = len(buttons) // count + (index < len(buttons) % count)
        rows.append(tuple(buttons[start : start + size]))
        start += size
    return rows


def _seconds(value: float) -> str:
    return f"{value:g} s"


@dataclass(slots=True)
class HeartsUi(UiState):
    """Members who left (the computer plays their seats: their seat, user id, name, points,
    hands and moons when they left), and who closed the lobby."""

    left: list[dict[str, Any]] = field(default_factory=list)
    closed_by: str | None = None


class HeartsController(Controller[State, HeartsUi]):
    engine = hearts.ENGINE
    ui_type = HeartsUi
    title = "Hearts"
    min_players = 1
    max_players = 4
    ai_budget = 0.5  # the expert's search per card
    rules_text = RULES
    turn_timeout = 120.0
    lobby_seconds = 15 * 60
    public_actions = frozenset({"join", "scores"})

    # -- setting up -------------------------------------------------------------------------
    def parse_options(self, raw: dict[str, Any]) -> dict[str, Any]:
        level = raw.get("level") or self.levels[-1]
        if level not in self.levels:
            raise IllegalAction(f"Levels are {', '.join(self.levels)}.")
        ruleset = raw.get("ruleset") or raw.get("rules") or "classic"
        if ruleset not in RULESETS:
            raise IllegalAction(f"Rulesets are {', '.join(RULESETS)}.")
        delay = raw.get("delay")
        delay = DEFAULT_DELAY if delay is None else decimal(delay, "The delay")
        if not 0 <= delay <= MAX_DELAY:
            raise IllegalAction(f"The delay between computer cards is 0 to {MAX_DELAY:g} seconds.")
        return {"level": level, "rules": ruleset, "delay": delay}

    def new_state(self, table: Table, seed: int) -> State:
        rules = RULESETS[table.options.get("rules", "classic")]
        return State.new(seed=seed, rules=rules, dealer=random.Random(seed).randrange(4))

    def ai_delay(self, table: Table) -> float:
        """The table's pause between computer cards (none while the computers choose passes)."""
        if table.state is not None and table.state.get("phase") == Phase.PASS.value:
            return 0.0
        return float(table.options.get("delay", DEFAULT_DELAY))

    # -- the lobby --------------------------------------------------------------------------
    def lobby(self, table: Table, view: TableView[HeartsUi]) -> Screen:
        host = next((s.name for s in table.seats if s.user_id == table.created_by), "the host")
        options = table.options
        lines = [f"**Hearts** — a table for four, opened by {host}."]
        for index in range(self.max_players):
            if index < len(table.seats):
                seat = table.seats[index]
                mark = " (host)" if seat.user_id == table.created_by else ""
                lines.append(f"{index + 1}. {seat.name}{mark}")
            else:
                lines.append(f"{index + 1}. — empty: the computer, unless someone joins —")
        lines.append(
            f"Computer: **{options.get('level', self.levels[-1])}** · "
            f"{RULESET_WORDS[options.get('rules', 'classic')]} · "
            f"{_seconds(options.get('delay', DEFAULT_DELAY))} between computer cards"
        )
        expires = view.expires
        closes = f" The table closes <t:{int(expires)}:R>." if expires else ""
        lines.append(
            f"Press **Join** to take a seat. {host} presses **Start** when everyone is in; "
            f"the computer takes the empty seats.{closes}"
        )
        full = len(table.seats) >= self.max_players
        level = options.get("level", self.levels[-1])
        ruleset = options.get("rules", "classic")
        delay = float(options.get("delay", DEFAULT_DELAY))
        delays = sorted({*DELAY_CHOICES, delay})
        rows: tuple[Row, ...] = (
            (
                Button("Join", "join", Style.SUCCESS, disabled=full),
                Button("Leave", "leave"),
                Button("Start", "start", Style.PRIMARY),
            ),
            Select(
                "level",
                tuple(
                    Option(f"Computer: {name}", name, default=name == level) for name in self.levels
                ),
                placeholder="The computer's level",
            ),
            Select(
                "rules",
                tuple(
                    Option(
                        name.title(),
                        name,
                        RULESET_WORDS[name].partition("(")[2].rstrip(")") or "The seed's rules",
                        default=name == ruleset,
                    )
                    for name in RULESETS
                ),
                placeholder="Rules",
            ),
            Select(
                "delay",
                tuple(
                    Option(f"{_seconds(d)} between computer cards", f"{d:g}", default=d == delay)
                    for d in delays
                ),
                placeholder="Delay between computer cards",
            ),
        )
        return Screen(content="\n".join(lines), rows=rows)

    def _lobby_action(self, ctx: Context[State, HeartsUi], expires: float | None) -> Intent:
        table = ctx.table
        if expires is not None and ctx.now > expires:
            raise IllegalAction("This table waited too long and closed. Start a new one.")
        host = ctx.user_id == table.created_by
        if ctx.action == "join":
            return self.join(ctx)
        if ctx.action == "leave":
            seat = ctx.require_seat()
            if host:
                table.status = TableStatus.STOPPED
                ctx.ui.closed_by = ctx.user_name
            else:
                del table.seats[seat]
            return Intent(changed=True)
        if not host:
            raise IllegalAction("Only the player who opened the table can do that.")
        if ctx.action in ("level", "rules", "delay"):
            options = dict(table.options)
            options[ctx.action] = ctx.arg
            table.options = self.parse_options(options)
            return Intent(changed=True)
        if ctx.action == "start":
            level = table.options.get("level", self.levels[-1])
            computers = self.max_players - len(table.seats)
            for number in range(1, computers + 1):
                name = "Computer" if computers == 1 else f"Computer {number}"
                table.seats.append(Seat(name, None, level))
            table.status = TableStatus.ACTIVE
            ctx.ui = HeartsUi()
            return Intent(changed=True, state=self.new_state(table, table_seed(table)))
        return super().handle(ctx)

    # -- the board --------------------------------------------------------------------------
    def names(self, table: Table) -> dict[int, str]:
        return {index: seat.name for index, seat in enumerate(table.seats)}

    def board(self, table: Table, state: State | None, seen: TableView[HeartsUi]) -> Screen:
        if state is None:  # a lobby closed by its host
            who = seen.ui.closed_by or "The host"
            return Screen(content=f"{who} closed the Hearts table.")
        view = state.view(None)
        names = self.names(table)
        outcome = seen.outcome
        autoplay = set(seen.autoplay)
        rules = table.options.get("rules", "classic")
        header = f"**Hearts** — hand {view['hand_number'] + 1}"
        if view["pass_direction"] != "hold":
            header += f" · pass {PASS_WORDS[view['pass_direction']]}"
        else:
            header += " · no passing"
        header += f" · {'modern' if rules == 'modern' else 'classic'} rules"
        lines = [header]
        last = self._last_play(view, names)
        if last and outcome is None:
            lines.append(last)
        if outcome is not None:
            lines.append(f"🏆 {self.result_text(table, outcome)}")
        else:
            lines.append(self._turn_line(table, state, autoplay))
            for seat in sorted(autoplay):
                if not table.seats[seat].is_ai:
                    lines.append(
                        f"🤖 The computer is playing for {table.seats[seat].name} until they "
                        "come back (press **Your hand**)."
                    )
            for left in seen.ui.left:
                lines.append(f"{left['name']} left the game; the computer plays their seat.")
        picture = render_hearts_table(view, names, bottom=self._bottom(table))
        if outcome is not None:
            rows: tuple[Row, ...] = ((self.again_button(),),)
        else:
            rows = (
                (
                    Button("Your hand", "hand", Style.PRIMARY, emoji="🃏", any_version=True),
                    Button("Scores", "scores", emoji="📋", any_version=True),
                    Button("Leave game", "leave", Style.DANGER),
                ),
            )
        return Screen(content="\n".join(lines), pictures=(picture,), rows=rows)

    @staticmethod
    def _bottom(table: Table) -> int:
        """The seat drawn at the bottom: the first member's."""
        return next((i for i, seat in enumerate(table.seats) if not seat.is_ai), 0)

    @staticmethod
    def _last_play(view: HeartsView, names: Mapping[int, str]) -> str:
        if view["trick"]:
            play = view["trick"][-1]
            return f"{names[play['seat']]} played {labels([play['card']])}."
        last = view.get("last_trick")
        if last:
            cards = last["cards"]
            points = last["points"]
            taken = f" ({points} point{'s' if points != 1 else ''})" if points else ""
            return f"{names[last['winner']]} took the trick {labels(cards)}{taken}."
        return ""

    def _turn_line(self, table: Table, state: State, autoplay: set[int]) -> str:
        if state.phase is Phase.PASS:
            waiting = [s for s in state.to_act() if not table.seats[s].is_ai and s not in autoplay]
            direction = PASS_WORDS[state.pass_direction.value]
            if not waiting:
                return f"The computer is choosing cards to pass {direction}…"
            who = ", ".join(f"<@{table.seats[s].user_id}>" for s in waiting)
            return (
                f"Choosing three cards to pass {direction}: {who} — press **Your hand** to choose."
            )
        turn = state.turn
        assert turn is not None
        seat = table.seats[turn]
        if seat.is_ai:
            return f"🤔 {seat.name} is playing…"
        if turn in autoplay:
            return f"🤔 {seat.name}'s turn: the computer plays for them…"
        return f"<@{seat.user_id}> to play — tap a card in your hand (**Your hand** opens it)."

    @staticmethod
    def _winners(table: Table, outcome: Outcome) -> tuple[str, str, int]:
        """Who won, the verb, and their total: the words of both the board and the result."""
        names = [table.seats[s].name for s in outcome.winners]
        points = outcome.scores[outcome.winners[0]] if outcome.scores and outcome.winners else 0
        return " and ".join(names), "wins" if len(names) == 1 else "share the win", points

    # -- the private hand -------------------------------------------------------------------
    def hand_screen(
        self,
        table: Table,
        state: State,
        seat: int,
        note: str = "",
        picked: Sequence[Card] = (),
    ) -> Screen:
        """What ``seat`` sees privately: their cards as buttons — to play one with one tap, or
        to pick three to pass (``picked`` so far) and then **Pass** them."""
        view = state.view(seat)
        names = self.names(table)
        hand = [Card.parse(c) for c in view["hand"]]
        lines = [note] if note else []
        lines.append(f"**Your hand** — hand {view['hand_number'] + 1}.")
        rows: list[Row] = []
        legal: list[Card] | None = None
        selected: list[Card] = []
        actions: list[Button] = []
        if state.phase is Phase.PASS:
            to = view["pass_to"]
            assert to is not None  # a passing hand: each seat passes to another
            target = names[to]
            mine = view["my_pass"]
            if mine is None:
                selected = [c for c in hand if c in set(picked)]
                left = PASS_SIZE - len(selected)
                lines.append(
                    f"Tap three cards to pass to **{target}**, then **Pass**."
                    + (f" {left} more to pick." if left else " Ready to pass.")
                )
                rows.extend(self._pick_rows(hand, selected))
                actions.append(
                    Button(
                        f"Pass {len(selected)}/{PASS_SIZE}",
                        "pass=" + ",".join(map(str, selected)),
                        Style.SUCCESS,
                        disabled=left != 0,
                        any_version=True,
                    )
                )
            else:
                selected = [Card.parse(c) for c in mine]
                waiting = [names[s] for s in state.to_act()]
                lines.append(
                    f"You pass {labels(mine)} to {target}. "
                    f"Waiting for {', '.join(waiting)} to choose."
                )
        elif state.phase is Phase.PLAY:
            if view["received"] and view["first_trick"] and view["pass_from"] is not None:
                lines.append(
                    f"You received {labels(view['received'])} from {names[view['pass_from']]}."
                )
            if view["trick"]:
                plays = ", ".join(
                    f"{names[p['seat']]} {labels([p['card']])}" for p in view["trick"]
                )
                lines.append(f"On the table: {plays}.")
            turn = view["turn"]
            assert turn is not None  # during the play, someone is always to play
            my_turn = turn == seat
            legal = [Card.parse(c) for c in view["legal"]] if my_turn else []
            if my_turn:
                lines.append(
                    "**Your turn** — tap a card to play it."
                    if view["trick"]
                    else "**Your lead** — tap a card to play it."
                )
            else:
                lines.append(
                    f"{names[turn]} is to play. This message offers your cards as soon "
                    "as it is your turn."
                )
            rows.extend(self._card_rows(hand, legal))
            if not my_turn:
                legal = None  # the picture shows the whole hand, none picked out
        else:
            lines.append("The game is over.")
        if not view["over"]:
            actions.append(Button("Refresh", "hand=here", emoji="🔄", any_version=True))
        if actions:
            rows.append(tuple(actions))
        picture = render_hearts_hand(hand, legal, selected)
        return Screen(content="\n".join(lines), pictures=(picture,), rows=tuple(rows))

    @staticmethod
    def _card_rows(hand: Sequence[Card], legal: Sequence[Card]) -> list[Row]:
        """One button a card (13 cards: four rows): one tap plays a legal card;
        the others are there, disabled, so the hand keeps its shape."""
        playable = set(legal)
        buttons = [
            Button(
                card_label(card),
                f"play={card}",
                Style.PRIMARY if card in playable else Style.SECONDARY,
                disabled=card not in playable,
                any_version=True,
            )
            for card in hand
        ]
        return card_rows(buttons)

    @staticmethod
    def _pick_rows(hand: Sequence[Card], picked: Sequence[Card]) -> list[Row]:
        """The cards to pass, as toggles: a tap picks a card (green) or puts it back. Each
        button carries the whole pick it leads to, so picking stores nothing."""
        chosen = set(picked)
        buttons = []
        for card in hand:
            after = [c for c in picked if c != card] if card in chosen else [*picked, card]
            buttons.append(
                Button(
                    card_label(card),
                    "pick=" + ",".join(map(str, after)),
                    Style.SUCCESS if card in chosen else Style.SECONDARY,
                    disabled=card not in chosen and len(chosen) >= PASS_SIZE,
                    any_version=True,
                )
            )
        return card_rows(buttons)

    def private_key(self, table: Table, state: State, seat: int) -> str:
        """What the private hand shows, in short: it is re-sent only when this changes (a new
        hand, the pass done, the member's turn coming or going, a card gone)."""
        view = state.view(seat)
        turn = seat in state.to_act()
        return (
            f"{view['hand_number']}:{state.phase.value}:{turn}:{len(view['hand'])}:"
            f"{view.get('my_pass') is None}"
        )

    def private_screen(self, table: Table, state: State, seat: int) -> Screen:
        return self.hand_screen(table, state, seat)

    # -- scores -----------------------------------------------------------------------------
    def scores_screen(self, table: Table, state: State, title: str = "Hearts — scores") -> Screen:
        view = state.view(None)
        return Screen(embed=self.scores_embed(table, view, title))

    def scores_embed(self, table: Table, view: HeartsView, title: str) -> Embed:
        """Every hand's points and the totals, as a fixed-width table."""
        names = short_names([seat.name for seat in table.seats])
        width = max(5, *(len(n) for n in names))
        head = "Hand  " + " ".join(n.rjust(width) for n in names)
        lines = [head]
        for h in view["history"]:
            marks = "*" if h["moon"] is not None else " "
            cells = " ".join(str(p).rjust(width) for p in h["scores"])
            lines.append(f"{h['hand'] + 1:>4}{marks} {cells}")
        if not view["over"] and any(view["cards_left"]) and view["phase"] == "play":
            cells = " ".join(str(p).rjust(width) for p in view["points_this_hand"])
            lines.append(f"{'now':>4}  {cells}")
        lines.append("-" * len(head))
        cells = " ".join(str(p).rjust(width) for p in view["totals"])
        lines.append(f"{'Total':<5} {cells}")
        moons = [f"{table.seats[s].name} ×{n}" for s, n in enumerate(view["moons"]) if n]
        footer = "The lowest total wins once someone reaches 100."
        if moons:
            footer = "* shot the moon — moons: " + ", ".join(moons) + ". " + footer
        fields: tuple[Field, ...] = ()
        if names[0].startswith("#"):
            seats = ", ".join(
                f"{n} {seat.name}" for n, seat in zip(names, table.seats, strict=True)
            )
            fields = (Field("Seats", seats),)
        return Embed(
            title=title,
            description="```\n" + "\n".join(lines) + "\n```",
            fields=fields,
            footer=footer,
        )

    # -- acting -----------------------------------------------------------------------------
    def handle(self, ctx: Context[State, HeartsUi]) -> Intent:
        table = ctx.table
        if table.status is TableStatus.CHALLENGE:
            if ctx.action == "scores" or ctx.action == "hand":
                raise IllegalAction("The game has not started yet.")
            return self._lobby_action(ctx, ctx.expires)
        state = ctx.require_state()
        if ctx.action == "join":
            raise IllegalAction("This game has started; join the next one.")
        if ctx.action == "scores":
            return Intent(private=self.scores_screen(table, state))
        seat = ctx.require_seat()
        here = ctx.arg == "here"
        if ctx.action == "leave":
            return Intent(private=LEAVE_CONFIRMATION)
        if ctx.action == "hand":
            back = seat in ctx.autoplay
            note = "Welcome back: the computer no longer plays for you." if back else ""
            return Intent(
                changed=back,
                private=self.hand_screen(table, state, seat, note),
                update_private=here,
                hand=True,
            )
        if ctx.action == "pick":
            if state.phase is not Phase.PASS:
                raise IllegalAction("The passing is over: press **Your hand** to play a card.")
            seat = ctx.require_turn()
            picked = self._parse_pick(ctx.arg, state.hand(seat))
            return Intent(
                private=self.hand_screen(table, state, seat, picked=picked),
                update_private=True,
                hand=True,
            )
        if ctx.action == "pass":
            if state.phase is not Phase.PASS:
                raise IllegalAction("The passing is over: press **Your hand** to play a card.")
            seat = ctx.require_turn()
            cards = hearts.parse_pass(ctx.arg)
            target = table.seats[pass_target(seat, state.pass_direction)].name
            note = f"You passed {' '.join(card_label(c) for c in cards)} to {target}."
            return Intent(
                move=hearts.format_pass(cards),
                after_move=lambda after: self.hand_screen(table, after, seat, note),
                update_private=True,
                hand=True,
            )
        if ctx.action == "play":
            if state.phase is not Phase.PLAY:
                raise IllegalAction("Choose three cards to pass first.")
            seat = ctx.require_turn()
            card = hearts.parse_play(ctx.arg)
            note = f"You played {card_label(card)}."
            return Intent(
                move=hearts.format_play(card),
                after_move=lambda after: self.hand_screen(table, after, seat, note),
                update_private=True,
                hand=True,
            )
        return super().handle(ctx)

    @staticmethod
    def _parse_pick(text: str, hand: Sequence[Card]) -> list[Card]:
        """The cards picked so far (``QS,AH``): at most three different cards of the hand."""
        try:
            picked = [Card.parse(part) for part in text.split(",") if part]
        except ValueError as exc:
            raise IllegalAction("That is not a card.") from exc
        if len(picked) > PASS_SIZE or len(set(picked)) != len(picked):
            raise IllegalAction("Pick three different cards.")
        if not set(picked) <= set(hand):
            raise IllegalAction("You do not hold that card.")
        return picked

    def resign(self, ctx: Context) -> Intent | None:
        """Leaving: the computer takes the seat for good and the others play on. The last
        member to leave ends the game (the service records it)."""
        table = ctx.table
        seat = ctx.require_seat()
        if ctx.state is None:
            raise IllegalAction("The game has not started yet: press **Leave** in the lobby.")
        others = [i for i, s in enumerate(table.seats) if not s.is_ai and i != seat]
        if not others:
            return None
        state = ctx.require_state()
        member = table.seats[seat]
        ctx.ui.left.append(
            {
                "seat": seat,
                "user_id": member.user_id,
                "name": member.name,
                "points": state.totals[seat],
                "hands": len(state.history),
                "moons": state.moons[seat],
            }
        )
        level = table.options.get("level", self.levels[-1])
        table.seats[seat] = Seat(f"{member.name} (computer)", None, level)
        return Intent(
            changed=True,
            private=Screen(content="You left the game; the computer plays your cards from now."),
            update_private=True,  # replaces the confirmation (a slash command gets a new one)
        )

    def outcome_on_resign(self, state: State, seat: int) -> Outcome:
        """The last member left: the game ends, the computers share the lowest total."""
        others = [s for s in range(4) if s != seat]
        best = min(state.totals[s] for s in others)
        return Outcome(
            winners=tuple(s for s in others if state.totals[s] == best),
            termination="resign",
            scores=tuple(state.totals),
        )

    # -- results ----------------------------------------------------------------------------
    def results(self, table: Table, state: State | None, outcome: Outcome) -> list[Result]:
        """Win or loss per member, their total, and hands played and moons shot."""
        totals = list(state.totals) if state is not None else [0] * 4
        moons = list(state.moons) if state is not None else [0] * 4
        hands = len(state.history) if state is not None else 0
        gone = self.ui(table).left
        vs_computer = any(s.is_ai for s in table.seats) or bool(gone)
        found = []
        for index, seat in enumerate(table.seats):
            if seat.user_id is None:
                continue
            verdict = "win" if index in outcome.winners else "loss"
            found.append(
                Result(
                    seat.user_id,
                    verdict,
                    totals[index],
                    vs_computer,
                    extra={"hands": hands, "moons": moons[index]},
                    name=seat.name,
                )
            )
        for left in gone:
            found.append(
                Result(
                    left["user_id"],
                    "loss",
                    left["points"],
                    True,
                    extra={"hands": left["hands"], "moons": left["moons"]},
                    name=left["name"],
                )
            )
        return found

    def result_text(self, table: Table, outcome: Outcome) -> str:
        if outcome.termination == "resign":
            return "Everyone left the table, so the game ended."
        winners, verb, points = self._winners(table, outcome)
        return f"**{winners} {verb}** with {points} points."

    def result_extras(self, table: Table, state: State | None, outcome: Outcome) -> Screen:
        """The final scores, and the running totals hand by hand as a chart."""
        if state is None:
            return Screen()
        view = state.view(None)
        chart: tuple[Attachment, ...] = ()
        if view["history"]:
            per_hand = [h["scores"] for h in view["history"]]
            names = [seat.name for seat in table.seats]
            chart = (Attachment.of(hearts_totals_chart(per_hand, names)),)
        return Screen(embed=self.scores_embed(table, view, "Final scores"), attachments=chart)

    # -- scoreboard -------------------------------------------------------------------------
    def standing_columns(self) -> tuple[str, ...]:
        return ("Won", "Pts/hand", "Moons")

    @staticmethod
    def average(standing: Standing) -> float | None:
        hands = standing.extra.get("hands", 0)
        return standing.points / hands if hands else None

    def standing_values(self, standing: Standing) -> tuple[str, ...]:
        average = self.average(standing)
        return (
            str(standing.wins),
            "—" if average is None else f"{average:.1f}",
            str(int(standing.extra.get("moons", 0))),
        )

    def rank_key(self, standing: Standing) -> tuple:
        average = self.average(standing)
        return (-standing.wins, float("inf") if average is None else average, -standing.games)


SPEC = GameSpec(
    HeartsController,
    commands="bot.client.hearts_commands:hearts_group",
    renderer=render_hearts_table,
)

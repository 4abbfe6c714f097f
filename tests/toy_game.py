"""Take-away: a toy game defined only here, to prove that a game's public registration is the
whole contract (see docs/adding-a-game.md and tests/test_toy_game.py).

One pile of counters; two players take one, two or three in turn; whoever takes the last
counter wins. The engine, the replay, the controller, the command group and the registration
follow the order of docs/adding-a-game.md.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Self, TypedDict

import discord
from discord import app_commands
from PIL import Image, ImageDraw

from bot.client.common import Interaction, start_game
from bot.tables.controller import (
    Context,
    Controller,
    Intent,
    TableView,
    UiState,
    channel_language,
)
from bot.tables.pictures import Replay
from bot.tables.screens import Button, Screen, Style
from bot.tables.service import TableService
from bot.tables.spec import GameSpec
from games.base import Engine, IllegalAction, Outcome
from i18n import render
from render.animation import Animation, Reel

# -- 1. the engine (pure: what would live in games/takeaway/) -----------------------------------
LEVELS = ("random", "perfect")
SCHEMA = 1


def parse_take(action: str) -> int:
    """The counters an action takes: ``"take-2"`` -> 2."""
    prefix, _, count = action.partition("-")
    if prefix != "take" or count not in ("1", "2", "3"):
        raise IllegalAction(f"`{action[:20]}` is not a move: take 1, 2 or 3.")
    return int(count)


class TakeawayView(TypedDict):
    """:meth:`State.view`: everything is public."""

    pile: int
    turn: int
    over: bool


@dataclass(slots=True)
class State:
    """A pile of counters and whose turn it is."""

    pile: int
    turn: int = 0
    moves: list[str] = field(default_factory=list)
    seats: int = 2

    @classmethod
    def new(cls, pile: int = 7) -> Self:
        if not 1 <= pile <= 30:
            raise IllegalAction("A pile holds 1 to 30 counters.")
        return cls(pile)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Self:
        return cls(data["pile"], data["turn"], list(data["moves"]))

    def to_dict(self) -> dict[str, Any]:
        return {"schema": SCHEMA, "pile": self.pile, "turn": self.turn, "moves": self.moves}

    def to_act(self) -> tuple[int, ...]:
        return () if self.is_over() else (self.turn,)

    def legal_actions(self, seat: int) -> list[str]:
        if seat not in self.to_act():
            return []
        return [f"take-{n}" for n in range(1, min(3, self.pile) + 1)]

    def apply(self, seat: int, action: str) -> None:
        if seat not in self.to_act():
            raise IllegalAction("It is not your turn.")
        count = parse_take(action)
        if count > self.pile:
            raise IllegalAction(f"Only {self.pile} counters are left.")
        self.pile -= count
        self.moves.append(action)
        self.turn = 1 - self.turn

    def is_over(self) -> bool:
        return self.pile == 0

    def outcome(self) -> Outcome | None:
        if not self.is_over():
            return None
        return Outcome(winners=(1 - self.turn,), termination="took-last")

    def view(self, seat: int | None = None) -> TakeawayView:
        return {"pile": self.pile, "turn": self.turn, "over": self.is_over()}


def choose(state: State, seat: int, level: str, budget: float, seed: int) -> str:
    """Perfect play leaves a multiple of four; ``random`` takes anything."""
    legal = state.legal_actions(seat)
    if level == "perfect" and state.pile % 4:
        return f"take-{state.pile % 4}"
    return random.Random(seed).choice(legal)


ENGINE: Engine[State] = Engine("takeaway", State, choose, LEVELS)


# -- 2. the picture (what would live in render/takeaway.py): here only a replay ----------------
def replay_takeaway(
    state: Mapping[str, Any],
    names: Sequence[str],
    outcome: Mapping[str, Any] | None,
    lang: str = "en",
) -> Animation:
    """A finished game, a frame a position: the pile as a row of counters, then held (no
    words are drawn, so ``lang`` changes nothing)."""
    taken = [parse_take(move) for move in state["moves"]]
    piles = [state["pile"] + sum(taken[index:]) for index in range(len(taken) + 1)]

    def draw(index: int) -> Image.Image:
        pile = piles[min(index, len(piles) - 1)]
        image = Image.new("RGB", (40 + 24 * piles[0], 48), (49, 51, 56))
        pen = ImageDraw.Draw(image)
        for counter in range(pile):
            pen.ellipse((20 + 24 * counter, 14, 40 + 24 * counter, 34), fill=(230, 190, 70))
        if index == len(piles):  # the held last frame: a bar under the empty table
            pen.rectangle((20, 40, image.width - 20, 44), fill=(88, 101, 242))
        return image

    winner = names[outcome["winners"][0]] if outcome and outcome["winners"] else "Nobody"
    words = f"Take-away from {piles[0]} counters, {len(taken)} moves; {winner} took the last."
    return Reel(draw, (1000,) * len(piles) + (2000,), words, "takeaway.gif").encode()


# -- 3. the controller (what would live in bot/tables/takeaway.py) ------------------------------
@dataclass(slots=True)
class TakeawayUi(UiState):
    """How many counters the member has marked with the buttons before pressing Take."""

    marked: int = 0


class TakeawayController(Controller[State, TakeawayUi]):
    engine = ENGINE
    ui_type = TakeawayUi
    title = "Take-away"
    rules_text = "**Take-away** — take 1 to 3 counters; whoever takes the last one wins."

    def new_state(self, table: Any, seed: int) -> State:
        return State.new(table.options.get("pile", 7))

    def parse_options(self, raw: dict[str, Any]) -> dict[str, Any]:
        pile = raw.get("pile") or 7
        State.new(pile)  # refuses a bad pile with a message
        return {"pile": pile, "level": self.parse_level(raw)}

    def board(self, table: Any, state: State, view: TableView[TakeawayUi]) -> Screen:
        names = [seat.name for seat in table.seats]
        lines = [f"**Take-away** — {names[0]} vs {names[1]} · {state.pile} counters left"]
        if view.outcome is not None:
            lines.append(render(self.result_text(table, view.outcome), channel_language(table)))
            return Screen(content="\n".join(lines), rows=(self.finished_row(),))
        if view.thinking:
            lines.append("🤔 The computer is thinking…")
        else:
            lines.append(f"<@{table.seats[state.turn].user_id}> to take 1, 2 or 3.")
        takes = tuple(
            Button(f"Take {n}", f"m=take-{n}", Style.PRIMARY, disabled=view.thinking)
            for n in range(1, min(3, state.pile) + 1)
        )
        marked = view.ui.marked
        controls = (
            Button(f"Mark ({marked})", "mark", disabled=view.thinking or marked >= state.pile),
            Button("Take marked", "take", Style.SUCCESS, disabled=view.thinking or not marked),
            Button("Resign", "resign", Style.DANGER, disabled=view.thinking),
        )
        return Screen(content="\n".join(lines), rows=(takes, controls))

    def handle(self, ctx: Context[State, TakeawayUi]) -> Intent:
        state = ctx.require_state()
        ctx.require_turn()
        if ctx.action == "mark":
            if ctx.ui.marked >= min(3, state.pile):
                raise IllegalAction("You may take three counters at most.")
            ctx.ui.marked += 1
            return Intent(changed=True)
        if ctx.action == "take":
            if not ctx.ui.marked:
                raise IllegalAction("Mark some counters first.")
            move, ctx.ui = f"take-{ctx.ui.marked}", TakeawayUi()
            return Intent(changed=True, move=move)
        return super().handle(ctx)


# -- 4. the command group (what would live in bot/client/takeaway_commands.py) ------------------
def takeaway_group(service: TableService) -> app_commands.Group:
    group = app_commands.Group(name="takeaway", description="Take-away, a toy game.")

    @group.command(name="start", description="Start a game of Take-away here.")
    async def start(interaction: Interaction, opponent: discord.Member | None = None) -> None:
        await start_game(interaction, "takeaway", {}, opponent)

    return group


# -- 5. the registration ------------------------------------------------------------------------
SPEC = GameSpec(
    TakeawayController, commands="toy_game:takeaway_group", replay=Replay(replay_takeaway)
)

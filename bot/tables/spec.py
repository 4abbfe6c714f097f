"""A game's one registration: everything the bot needs to offer it, in one frozen record."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.tables.controller import Controller
from bot.tables.pictures import Replay
from games.base import Engine, GameState
from i18n.messages import Text


@dataclass(frozen=True, slots=True)
class GameSpec:
    """One game as the bot offers it: its controller, and a hook per feature a game may offer
    beyond the common shape (an absent hook: the game has no such feature).

    - ``controller``: the game's :class:`Controller` class; it names the engine (kind, state
      type, AI and levels), the title and the rules text (``/rules``), and says whether games
      between members are rated (``/stats`` charts the ratings of rated games).
    - ``commands``: where the Discord layer finds the game's slash command group, as
      ``"module:function"`` (the function takes the service and returns the group); None when
      the game has no command of its own beyond the shared ones. A string, so that this layer
      imports no discord.
    - ``replay``: the animated replay of a finished game (a Replay button under the finished
      board, and ``/<game> replay`` where its commands offer it).

    Register it with :func:`bot.tables.registry.register`; the service, the AI workers, the
    command tree, ``/rules``, ``/scoreboard``, ``/stats``, the replays and the playground all
    read the registry.
    """

    controller: type[Controller]
    commands: str | None = None
    replay: Replay | None = None

    def __post_init__(self) -> None:
        if not hasattr(self.controller, "engine"):
            raise TypeError(f"{self.controller.__name__} names no engine")
        if self.commands is not None and ":" not in self.commands:
            raise ValueError("commands is written 'module:function'")

    @property
    def engine(self) -> Engine[Any]:
        return self.controller.engine

    @property
    def kind(self) -> str:
        return self.engine.kind

    @property
    def title(self) -> str:
        return self.controller.title

    @property
    def rules(self) -> Text:
        return self.controller.rules_text

    @property
    def levels(self) -> tuple[str, ...]:
        return self.engine.levels

    @property
    def state(self) -> type[GameState]:
        return self.engine.state

    def load(self, data: dict[str, Any]) -> GameState:
        return self.engine.load(data)

    def make(self) -> Controller:
        """A fresh controller for a service, given the hooks its boards offer (Replay)."""
        return self.controller(replay=self.replay)

"""A game's one registration: everything the bot needs to offer it, in one frozen record."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bot.tables.controller import Controller
from games.base import Engine, GameState
from render.base import Picture


@dataclass(frozen=True, slots=True)
class GameSpec:
    """One game as the bot offers it.

    - ``controller``: the game's :class:`Controller` class; it names the engine (kind, state
      type, AI, levels), the title and the rules text.
    - ``commands``: where the Discord layer finds the game's slash command group, as
      ``"module:function"`` (the function takes the service and returns the group); None when
      the game has no command of its own beyond the shared ones. A string, so that this layer
      imports no discord.
    - ``renderer``: the function that draws the game's board picture from a view
      (``State.view(...)``) alone; any other arguments it takes have defaults.

    Register it with :func:`bot.tables.registry.register`; the service, the AI workers, the
    command tree, ``/rules``, ``/scoreboard`` and the playground all read the registry.
    """

    controller: type[Controller]
    commands: str | None = None
    renderer: Callable[..., Picture] | None = None  # called with the game's own view type

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
    def rules(self) -> str:
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
        """A fresh controller for a service."""
        return self.controller()

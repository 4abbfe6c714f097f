"""The one way every game asks before an action that ends a game or forfeits it (resign, give
up, leave a game, stop): the board's button sends ``ask=<action>``, the member gets a private
question naming what happens with the action's button and **Cancel**, and only that button
acts. No discord import.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.tables.screens import Button, Screen, Style

ASK = "ask"  # the action of a board button that asks first: ``ask=resign``
CANCEL = "cancel"


@dataclass(frozen=True, slots=True)
class Confirmation:
    """What is asked before ``action``: the question, and the label of the button doing it."""

    question: str
    button: str


RESIGN = Confirmation("Really resign? The game counts as a loss for you.", "Resign")
STOP = Confirmation("Really stop this game? It ends without a result for anyone.", "Stop the game")
CANCELLED = Screen(content="Cancelled: nothing changed, the game goes on.")


def asking(action: str) -> str:
    """The action of a board button that asks before ``action``."""
    return f"{ASK}={action}"


def question(action: str, confirmation: Confirmation) -> Screen:
    """The private question before ``action``: its button, then Cancel."""
    return Screen(
        content=f"⚠️ {confirmation.question}",
        rows=(
            (
                Button(confirmation.button, action, Style.DANGER, any_version=True),
                Button("Cancel", CANCEL, any_version=True),
            ),
        ),
    )


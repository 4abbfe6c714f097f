"""The one way every game asks before an action that ends a game or forfeits it (resign, give
up, leave a game, stop): the board's button sends ``ask=<action>``, the member gets a private
question naming what happens with the action's button and **Cancel**, and only that button
acts. The question and its buttons are in the member's language. No discord import.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.tables.screens import Button, Screen, Style
from i18n import _, _p, render
from i18n.messages import Text

ASK = "ask"  # the action of a board button that asks first: ``ask=resign``
CANCEL = "cancel"


@dataclass(frozen=True, slots=True)
class Confirmation:
    """What is asked before ``action``: the question, and the label of the button doing it."""

    question: Text
    button: Text


RESIGN = Confirmation(
    _("Really resign? The game counts as a loss for you."), _p("button", "Resign")
)
STOP = Confirmation(
    _("Really stop this game? It ends without a result for anyone."),
    _p("button", "Stop the game"),
)
CANCELLED = _("Cancelled: nothing changed, the game goes on.")


def cancelled(locale: str = "en") -> Screen:
    """What the question's message says once Cancel is pressed, in the member's ``locale``."""
    return Screen(content=render(CANCELLED, locale))


def asking(action: str) -> str:
    """The action of a board button that asks before ``action``."""
    return f"{ASK}={action}"


def question(action: str, confirmation: Confirmation, locale: str = "en") -> Screen:
    """The private question before ``action`` in the member's ``locale``: its button, then
    Cancel (the actions are the same in every language)."""
    return Screen(
        content=f"⚠️ {render(confirmation.question, locale)}",
        rows=(
            (
                Button(render(confirmation.button, locale), action, Style.DANGER, any_version=True),
                Button(render(_p("button", "Cancel"), locale), CANCEL, any_version=True),
            ),
        ),
    )

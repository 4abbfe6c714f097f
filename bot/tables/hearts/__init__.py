"""Hearts at a table: a lobby for four, the public table, private hands, and the scores.

The board shows the table from above (``State.view(None)``: no hand is ever in it). Each
player's cards reach them only in an ephemeral answer to **Your hand**: a button a card, to pick
three to pass or to play a legal one with one tap. The Discord layer keeps that message up to
date (see ``bot.client.hands``) using :meth:`HeartsController.private_key`.

- :mod:`.options`: the rules text and a table's options (rulesets, the computer's pace);
- :mod:`.lobby`: the lobby's message, over the shared seat lobby;
- :mod:`.board`: the public table;
- :mod:`.hand`: a player's private hand;
- :mod:`.scores`: the score table and the scoreboard's columns;
- :mod:`.leaving`: a member leaving for good, and the results;
- :mod:`.replay`: a finished game's hands, replayed face up;
- :mod:`.controller`: the controller that ties them together, and the registration.
"""

from __future__ import annotations

from bot.tables.hearts.controller import SPEC, HeartsController, HeartsUi

__all__ = ["SPEC", "HeartsController", "HeartsUi"]

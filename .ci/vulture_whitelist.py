"""Names vulture reports as unused that are used, or that another branch owns (CI runs
``vulture``, configured in pyproject.toml). Each line says why; keep this list short."""

import discord

from bot.client.components import ControlsView
from bot.client.translator import CatalogueTranslator
from bot.tables.controller import Controller
from bot.tables.pictures import draw_hearts_totals
from bot.tables.spec import GameSpec
from fakediscord import FakeDiscord
from games.base import Chooser, Ending, Engine
from games.checkers import CheckersView
from games.hearts import HeartsView
from games.kabu.state import DealerView
from games.quarters import QuartersView
from playground import checks
from render.charts import games_chart

Ending.RESIGN, Ending.TIMEOUT  # reached by value: Outcome.ending is Ending(termination)
Chooser.__call__  # a Protocol's signature, for the type checker
# Views' keys read only as view["key"], which vulture does not see as a use.
CheckersView.turn_name, CheckersView.last_move, QuartersView.last_move
HeartsView.points_this_hand, HeartsView.my_pass, HeartsView.pass_to, HeartsView.pass_from
DealerView.drew
checks.ROLE  # Discord's option types, listed in full
discord.InteractionResponse._response_type  # read by is_done(); set by bot.client.retry
CatalogueTranslator.translate  # discord.py's hook, called for each command string at sync
ControlsView.is_dispatchable  # discord.py's hook: False keeps a view out of its view store
# Set by tests, read by the fake Discord (which vulture does not read, as mypy does not).
FakeDiscord.response_deadline, FakeDiscord.recommended_shards

# Dead, and left to the branches that own them: GameSpec.renderer and Engine.default_level
# (issue 41, removed by another engineer), bot/tables (rewritten on the core branch) and the
# drawing in render/ (the pictures branch).
GameSpec.renderer
Engine.default_level
Controller.min_players, Controller.seated_actions
draw_hearts_totals
games_chart

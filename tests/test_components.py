"""A screen's controls as Discord is sent them (bot.client.components)."""

from __future__ import annotations

import discord
import pytest

from bot.client.components import build_view, table_button, table_select
from bot.tables.screens import Button, Option, Screen, Select, Style


def items_view(screen: Screen, table_id: int, version: int | None) -> discord.ui.View:
    """The same controls as discord.py's own items laid out row by row."""
    view = discord.ui.View(timeout=None)
    for index, row in enumerate(screen.rows):
        if isinstance(row, Select):  # a select takes the first row still empty
            view.add_item(table_select(table_id, version, row))
            continue
        for button in row:
            item = table_button(table_id, version, button)
            item.row = index
            view.add_item(item)
    return view


async def test_the_controls_are_what_discord_py_would_send_for_its_items() -> None:
    screen = Screen(
        content="board",
        rows=(
            (
                Button("1·1", "take:1:1"),
                Button("Remove", "remove", style=Style.SUCCESS, emoji="🪙"),
                Button("Resign", "resign", style=Style.DANGER, disabled=True),
            ),
            (),
            (Button("Rules", "rules", style=Style.PRIMARY, any_version=True),),
            Select(
                "play",
                (Option("7♥", "7H", "a heart", default=True), Option("Q♠", "QS")),
                placeholder="Your card",
                min_values=1,
                max_values=2,
            ),
            Select("pick", (Option("a", "a"),), disabled=True, any_version=True),
        ),
    )
    for version in (0, 41, None):
        built = build_view(screen, 12, version)
        assert built is not None
        assert built.to_components() == items_view(screen, 12, version).to_components()
        assert not built.is_dispatchable() and built.timeout is None
    again = build_view(screen, 12, 42)  # parts are cached, the custom_ids are not
    assert again is not None and again.to_components()[0]["components"][0]["custom_id"] == (
        "t:12:42:take:1:1"
    )


async def test_a_layout_discord_refuses_is_refused_here_too() -> None:
    too_wide = Screen(content="x", rows=(tuple(Button(str(i), f"a{i}") for i in range(6)),))
    with pytest.raises(ValueError):
        build_view(too_wide, 1, 1)
    too_tall = Screen(content="x", rows=tuple((Button(str(i), f"a{i}"),) for i in range(6)))
    with pytest.raises(ValueError):
        build_view(too_tall, 1, 1)
    assert build_view(Screen(content="no controls"), 1, 1) is None

"""The playground's API with the tiny test bot: autocomplete, selects, modals, embeds, defers.

Parlour's own commands do not (yet) use every kind of interaction the page supports; the tiny
bot of the fake Discord's tests does, so the playground is checked against it here.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from fake_discord_tinybot import TinyBot

from playground import Playground


@pytest.fixture
async def page(tmp_path: Path) -> AsyncIterator[tuple[Playground, aiohttp.ClientSession]]:
    async with Playground(
        database=tmp_path / "playground.db", port=0, client_factory=lambda _: TinyBot(), keep=False
    ) as pg:
        await pg.wait_ready(20)
        async with aiohttp.ClientSession(pg.url) as http:
            yield pg, http
    assert pg.fake.problems() == []
    assert not (tmp_path / "playground.discord.json").exists()


async def post(http: aiohttp.ClientSession, path: str, **body: Any) -> dict[str, Any]:
    async with http.post(path, json={"member": "alice", **body}) as resp:
        data = await resp.json()
        assert data["ok"], data
        return data


async def seen(http: aiohttp.ClientSession, member: str = "alice") -> list[dict[str, Any]]:
    async with http.get("/api/messages", params={"member": member, "channel": "games"}) as r:
        return (await r.json())["messages"]


async def test_autocomplete_lists_the_bots_choices(page) -> None:
    _, http = page
    menu = {c["path"]: c for c in (await (await http.get("/api/state")).json())["commands"]}
    assert menu["game move"]["options"][0]["autocomplete"] is True
    answer = await post(
        http, "/api/autocomplete", command="game move", options={"move": "11"}, focused="move"
    )
    assert [c["value"] for c in answer["choices"]] == ["11-15", "11-16"]
    await post(http, "/api/command", command="game move", options={"move": "11-15"})
    assert (await seen(http))[-1]["content"] == "moved 11-15"


async def test_embed_image_and_a_multi_select(page) -> None:
    _, http = page
    answer = await post(http, "/api/command", command="board")
    board = (await seen(http))[-1]
    assert board["id"] == answer["message_id"]
    embed = board["embeds"][0]
    assert embed["image"]["url"] == board["attachments"][0]["url"]  # attachment:// resolved
    assert board["attachments"][0]["shown_elsewhere"]
    select = board["components"][1]["components"][0]
    assert select["placeholder"] == "Pick a colour"
    chosen = await post(
        http,
        "/api/select",
        message_id=board["id"],
        custom_id=select["custom_id"],
        values=["red", "blue"],
    )
    assert chosen["ephemeral"]
    assert (await seen(http))[-1]["content"] == "you picked red,blue"
    assert [m["id"] for m in await seen(http, "bob")] == [board["id"]]


async def test_modal_opens_and_submits(page) -> None:
    _, http = page
    opened = await post(http, "/api/command", command="form")
    assert opened["modal"]["title"] == "Your name"
    done = await post(
        http, "/api/modal", modal_id=opened["modal_id"], values={"tiny:name": "Alice"}
    )
    assert done["ephemeral"]
    assert (await seen(http))[-1]["content"] == "hello Alice"


async def test_a_private_deferred_answer_and_a_public_follow_up(page) -> None:
    pg, http = page
    await post(http, "/api/command", command="think", options={"private": True})
    await pg.fake.wait_for(lambda: len(pg.fake.channel_messages("games")) == 1, 5)
    messages = await seen(http)
    assert [m["content"] for m in messages] == ["thought hard", "and one more thing"]
    assert [m["ephemeral"] for m in messages] == [True, False]
    assert messages[0]["command"]["name"] == "think" and not messages[0]["loading"]
    assert [m["content"] for m in await seen(http, "bob")] == ["and one more thing"]

"""Replays and charts through the table service: which game, the refusals, the cache, and
pictures that decode as what they claim to be, with alt text that carries the facts."""

from __future__ import annotations

import asyncio
import io

import pytest
from PIL import Image
from support import member

from bot.tables.hearts.replay import hand_replay
from bot.tables.pictures import PictureCache
from bot.tables.screens import Attachment
from bot.tables.service import Member
from games.base import IllegalAction
from storage import Place, PlaceKind, Seat, TableStatus

ALICE, BOB = member(1, "Alice"), member(2, "Bob")


async def take(service, who, reply, pile, count):
    for coin in range(1, count + 1):
        reply = await service.act(who, reply.table_id, reply.version, f"c={pile}.{coin}")
        assert reply.error is None, reply.error
    return await service.act(who, reply.table_id, reply.version, "remove")


def frames(attachment: Attachment) -> int:
    with Image.open(io.BytesIO(attachment.data)) as image:
        assert image.format == "GIF" and image.is_animated
        return image.n_frames


async def test_a_finished_games_replay_is_drawn_once_and_has_a_frame_a_position(service):
    reply = await service.start(ALICE, "quarters", {"piles": "2,1"}, opponent=BOB)
    reply = await service.act(BOB, reply.table_id, reply.version, "accept")
    early = await service.act(ALICE, reply.table_id, None, "replay")
    assert "finished" in early.error  # no replay of a game in play
    reply = await take(service, ALICE, reply, 1, 1)  # 1,1 left: Bob takes one, Alice the last
    reply = await take(service, BOB, reply, 2, 1)
    assert "🏆 **Bob wins!** Alice is left with the last coin." in reply.board.content
    assert [b.label for b in reply.board.rows[0]] == ["Play again", "Replay"]

    first, again = await asyncio.gather(
        service.act(member(3, "Carol"), reply.table_id, None, "replay"),
        service.act(ALICE, reply.table_id, None, "replay"),
    )
    assert service.pictures.cache.drawn == 1  # two requests at once, one drawing
    [reel] = first.private.attachments
    assert again.private.attachments == (reel,)
    assert frames(reel) == 2 + 2  # the start, after the first move, the end, the end held
    assert "Bob wins: Alice is left with the last coin" in reel.description
    assert "**Bob wins!** Alice is left with the last coin." in first.private.content

    table = await service.pictures.finished_game(ALICE.guild_id, ALICE.channel_id, "quarters", None)
    assert table.id == reply.table_id
    # the Replay button answers privately, in the member's language; /quarters replay posts in
    # the channel, in the table's (here English: the cached picture)
    private = await service.act(member(4, "Dai", locale="ja"), reply.table_id, None, "replay")
    [japanese] = private.private.attachments
    assert japanese.description.startswith("クォーターズの対局のリプレイ、Alice 対 Bob、")
    assert (await service.pictures.replay(table)).attachments == (reel,)
    assert service.pictures.cache.drawn == 2
    for game, words in ((table.id + 50, "no game"), (None, "No game of Checkers")):
        with pytest.raises(IllegalAction, match=f"(?i){words}"):
            await service.pictures.finished_game(ALICE.guild_id, 1, "checkers", game)


async def test_outside_servers_a_replay_and_its_autocomplete_keep_to_their_own_chat(service):
    """Every DM and group DM is stored under guild 0: one must not find another's games."""
    db = service.db
    ids = {}
    for channel in (700, 800):
        table = await db.create_table(
            guild_id=0,
            channel_id=channel,
            kind="quarters",
            status=TableStatus.ACTIVE,
            seats=[Seat("Alice", 1)],
            options={},
            state={},
            created_by=1,
        )
        table.state = {"over": True}
        assert await db.finish_table(table, [])
        ids[channel] = table.id
    assert [t.id for t in await service.pictures.recent_games(0, "quarters", 800)] == [ids[800]]
    with pytest.raises(IllegalAction, match="no game"):
        await service.pictures.finished_game(0, 800, "quarters", ids[700])
    found = await service.pictures.finished_game(0, 800, "quarters", ids[800])
    assert found.id == ids[800]


async def test_hearts_hands_replay_only_once_the_game_is_over(service):
    with pytest.raises(IllegalAction, match="No game of Hearts has been played"):
        await hand_replay(service.pictures, ALICE.guild_id, ALICE.channel_id, 1)
    reply = await service.start(ALICE, "hearts", {"delay": 0})
    reply = await service.act(ALICE, reply.table_id, reply.version, "start")
    with pytest.raises(IllegalAction, match="not finished"):
        await hand_replay(service.pictures, ALICE.guild_id, ALICE.channel_id, 1)


async def test_the_stats_and_scoreboard_charts_carry_their_numbers_in_words(service):
    reply = await service.start(ALICE, "checkers", {"color": "black", "position": "B:W6:B2"}, BOB)
    reply = await service.act(BOB, reply.table_id, reply.version, "accept")
    reply = await service.act(ALICE, reply.table_id, reply.version, "m=2x9")
    assert reply.error is None and reply.posts[0].content.startswith("🏁 **Checkers**")

    stats = await service.pictures.stats(ALICE.guild_id, ALICE.user_id, "Alice", {1000: "HQ"})
    assert stats.filename == "stats.png" and stats.data.startswith(b"\x89PNG")
    assert "HQ: 1 rated game" in stats.description and "Checkers" in stats.description
    bars = await service.pictures.scoreboard(ALICE.guild_id, "checkers")
    assert "top 2 by rating" in bars.description
    assert bars.description.index("Alice") < bars.description.index("Bob")
    again = await service.pictures.scoreboard(ALICE.guild_id, "checkers")
    assert again is bars  # the same numbers: drawn once


async def test_the_cache_keeps_the_latest_and_forgets_failures():
    cache = PictureCache(size=2)
    drawn: list[str] = []

    def draw(name: str):
        async def go() -> Attachment:
            drawn.append(name)
            if name == "bad":
                raise ValueError(name)
            return Attachment(name.encode(), f"{name}.png", name)

        return go

    for name in ("a", "b", "a", "c", "b"):
        await cache.get(name, draw(name))
    assert drawn == ["a", "b", "c", "b"]  # "b" fell out when "c" came after "a" was used
    for _ in range(2):
        with pytest.raises(ValueError):
            await cache.get("bad", draw("bad"))
    assert drawn[-2:] == ["bad", "bad"]


async def test_stats_name_a_group_chat_as_a_group_chat_never_a_server(service):
    """A rated game in a group DM shows on the member's /stats chart elsewhere as a group
    chat, and in that chat as "This chat"; never as "Other server"."""
    chat = Place.chat(500)
    alice, bob = (Member(i, n, 0, 500, place=PlaceKind.CHAT) for i, n in ((1, "Alice"), (2, "Bob")))
    reply = await service.start(alice, "checkers", {"color": "black", "position": "B:W6:B2"}, bob)
    reply = await service.act(bob, reply.table_id, reply.version, "accept")
    reply = await service.act(alice, reply.table_id, reply.version, "m=2x9")
    assert reply.error is None
    elsewhere = await service.pictures.stats(ALICE.guild_id, 1, "Alice", {ALICE.guild_id: "HQ"})
    assert "Group chat 1: 1 rated game" in elsewhere.description
    here = await service.pictures.stats(chat, 1, "Alice", {chat.id: "This chat"})
    assert "This chat: 1 rated game" in here.description
    assert "server" not in elsewhere.description + here.description

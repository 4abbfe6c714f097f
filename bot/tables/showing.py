"""Replays and charts as use cases: which game or numbers a member asked for, the refusals,
and the message that carries the picture. No discord import; the drawing runs in the pool.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from bot.tables import pictures
from bot.tables.controller import Controller
from bot.tables.pictures import PictureCache
from bot.tables.screens import Attachment, Screen
from games.base import IllegalAction, Outcome
from render.charts import rating_series
from render.hearts_replay import hands_played
from storage import Database, Table, TableStatus

Run = Callable[..., Awaitable[Any]]
TOP = 10


def _names(table: Table) -> list[str]:
    return [seat.name for seat in table.seats]


def game_label(table: Table) -> str:
    """``"#12 Alice v Bob, 1 Dec"``: how a finished game is named in choices and captions."""
    day = dt.datetime.fromtimestamp(table.updated_at, dt.UTC).strftime("%-d %b")
    return f"#{table.id} {' v '.join(_names(table))}, {day}"[:100]


class Pictures:
    """Replays of finished games and charts of results, cached by what they show."""

    def __init__(self, db: Database, controllers: Mapping[str, Controller], run: Run) -> None:
        self.db = db
        self.controllers = controllers
        self.run = run  # runs a top-level function in the process pool
        self.cache = PictureCache()

    async def _draw(
        self, key: tuple[Any, ...], fn: Callable[..., Attachment], *args: Any
    ) -> Attachment:
        return await self.cache.get(key, lambda: self.run(fn, *args))

    # -- replays ----------------------------------------------------------------------------
    async def finished_game(
        self, guild_id: int, channel_id: int, kind: str, game: int | None
    ) -> Table:
        """The finished game ``game`` of this server, or the channel's latest finished one."""
        title = self.controllers[kind].title
        if game is not None:
            table = await self.db.get_table(game)
            if table is None or table.guild_id != guild_id or table.kind != kind:
                raise IllegalAction(f"There is no game of {title} #{game} on this server.")
            if table.status is not TableStatus.FINISHED:
                raise IllegalAction(f"Game #{game} is not finished: replays come at the end.")
            return table
        found = await self.db.finished_tables(guild_id, kind, channel_id=channel_id, limit=1)
        if not found:
            raise IllegalAction(f"No game of {title} has finished in this channel yet.")
        return found[0]

    async def recent_games(self, guild_id: int, kind: str) -> list[Table]:
        """The server's latest finished games of ``kind`` (for autocomplete)."""
        return await self.db.finished_tables(guild_id, kind)

    async def replay(self, table: Table) -> Screen:
        """The animated replay of a finished checkers or Quarters game."""
        if table.kind not in pictures.REPLAYABLE:
            raise IllegalAction("Replays are for checkers and Quarters games.")
        if table.state is None or table.status is not TableStatus.FINISHED:
            raise IllegalAction("Replays come once the game is finished.")
        names = _names(table)
        outcome = table.outcome
        picture = await self._draw(
            ("replay", table.id, table.version),
            pictures.draw_replay,
            table.kind,
            table.state,
            names,
            outcome,
        )
        controller = self.controllers[table.kind]
        words = (
            controller.result_text(table, Outcome.from_dict(outcome)) if outcome else "Game over."
        )
        moves = len(table.state.get("moves", ()))
        return Screen(
            content=(
                f"🎞️ **{controller.title}** replay of game #{table.id}: {' v '.join(names)}, "
                f"{moves} move{'s' if moves != 1 else ''}. {words}"
            ),
            attachments=(picture,),
        )

    async def hearts_hand(self, guild_id: int, channel_id: int, hand: int) -> Screen:
        """Hand ``hand`` (from 1) of the channel's latest game of Hearts, face up: for a
        finished game only, so no card still in play is shown."""
        table = await self.db.last_table_in_channel(channel_id, "hearts")
        if table is None or table.guild_id != guild_id or table.state is None:
            raise IllegalAction("No game of Hearts has been played in this channel yet.")
        if table.status is not TableStatus.FINISHED:
            raise IllegalAction(
                "The latest game of Hearts here is not finished: its hands are replayed face "
                "up only once it is over."
            )
        played = hands_played(table.state)
        if not 1 <= hand <= played:
            raise IllegalAction(f"That game had hands 1 to {played}.")
        names = _names(table)
        bottom = next((i for i, seat in enumerate(table.seats) if not seat.is_ai), 0)
        picture = await self._draw(
            ("hearts-hand", table.id, table.version, hand),
            pictures.draw_hearts_hand,
            table.state,
            hand,
            names,
            bottom,
        )
        return Screen(
            content=f"🎞️ **Hearts** game #{table.id}, hand {hand} of {played}, trick by trick.",
            attachments=(picture,),
        )

    # -- charts -----------------------------------------------------------------------------
    async def stats(
        self, guild_id: int, user_id: int, name: str, server_names: Mapping[int, str]
    ) -> Attachment:
        """A member's checkers rating per server over time, and games played and won here."""
        points = await self.db.rating_history(user_id, "checkers")
        series = rating_series(points, server_names)
        found = await self.db.player_standings(guild_id, user_id)
        rows = [
            (controller.title, found[kind].games, found[kind].wins)
            for kind, controller in self.controllers.items()
            if kind in found
        ]
        key = ("stats", name, repr(sorted(series.items())), tuple(rows))
        return await self._draw(key, pictures.draw_stats, name, series, rows)

    async def scoreboard(self, guild_id: int, kind: str) -> Attachment:
        """The top ten of a game's scoreboard as bars: by rating where the game is rated."""
        controller = self.controllers[kind]
        standings = sorted(await self.db.standings(guild_id, kind), key=controller.rank_key)
        rated = controller.rated and any(s.rating is not None for s in standings)
        rows = [
            (
                s.name or f"user {s.user_id}",
                float(s.rating) if rated and s.rating is not None else float(s.wins),
            )
            for s in standings[:TOP]
            if not rated or s.rating is not None
        ]
        measure = "rating" if rated else "wins"
        title = f"{controller.title} scoreboard"
        key = ("scoreboard", title, tuple(rows), measure)
        return await self._draw(key, pictures.draw_scoreboard, title, rows, measure)

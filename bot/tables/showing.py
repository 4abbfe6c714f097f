"""Replays and charts as use cases: which game or numbers a member asked for, the refusals,
and the message that carries the picture. No discord import; the drawing runs in the pool.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from bot.tables import pictures
from bot.tables.controller import Controller, channel_language
from bot.tables.pictures import PictureCache
from bot.tables.screens import Attachment, Screen
from bot.tables.seats import seat_names
from bot.tables.wording import GAME_NAMES
from games.base import N_, IllegalAction, Outcome
from i18n import _, _n, _p, render, resolve
from i18n.messages import Text
from render.charts import has_games, has_ratings, rating_series
from storage import Database, Place, Table, TableStatus

Run = Callable[..., Awaitable[Any]]
NO_GAMES = _("No finished games yet.")
NO_RATINGS = _("No rated games yet.")
TOP = 10


def game_name(title: str) -> Text:
    """A game's name as each language says it (a game without one keeps its title)."""
    return GAME_NAMES.get(title, title)


def names(table: Table) -> list[str]:
    """The players' names, seat by seat."""
    return [seat.name for seat in table.seats]


def game_label(table: Table) -> str:
    """``"#12 Alice v Bob, 1 Dec"``: how a finished game is named in choices and captions."""
    day = dt.datetime.fromtimestamp(table.updated_at, dt.UTC).strftime("%-d %b")
    return f"#{table.id} {' v '.join(names(table))}, {day}"[:100]


class Pictures:
    """Replays of finished games and charts of results, cached by what they show."""

    def __init__(self, db: Database, controllers: Mapping[str, Controller], run: Run) -> None:
        self.db = db
        self.controllers = controllers
        self.run = run  # runs a top-level function in the process pool
        self.cache = PictureCache()

    async def draw(
        self, key: tuple[Any, ...], fn: Callable[..., Attachment], *args: Any
    ) -> Attachment:
        """``fn(*args)`` drawn in the process pool, or the picture cached under ``key``."""
        return await self.cache.get(key, lambda: self.run(fn, *args))

    # -- replays ----------------------------------------------------------------------------
    async def finished_game(
        self, guild_id: int, channel_id: int, kind: str, game: int | None
    ) -> Table:
        """The finished game ``game`` of this server, or the channel's latest finished one."""
        title = game_name(self.controllers[kind].title)
        if game is not None:
            table = await self.db.get_table(game)
            elsewhere = guild_id == 0 and table is not None and table.channel_id != channel_id
            if table is None or table.guild_id != guild_id or table.kind != kind or elsewhere:
                said = N_(
                    "There is no game of {game} #{number} on this server.",
                    game=title,
                    number=str(game),
                )
                raise IllegalAction(said)
            if table.status is not TableStatus.FINISHED:
                said = N_(
                    "Game #{number} is not finished: replays come at the end.", number=str(game)
                )
                raise IllegalAction(said)
            return table
        found = await self.db.finished_tables(guild_id, kind, channel_id=channel_id, limit=1)
        if not found:
            said = N_("No game of {game} has finished in this channel yet.", game=title)
            raise IllegalAction(said)
        return found[0]

    async def recent_games(self, guild_id: int, kind: str, channel_id: int = 0) -> list[Table]:
        """The server's latest finished games of ``kind`` (for autocomplete); outside servers
        (guild 0) only this chat's or DM's own, never another's."""
        only = channel_id if guild_id == 0 else None
        return await self.db.finished_tables(guild_id, kind, channel_id=only)

    async def last_finished(self, guild_id: int, channel_id: int, kind: str) -> Table:
        """The latest game of ``kind`` played in this channel, once it is finished: so no card
        still in play is shown."""
        title = game_name(self.controllers[kind].title)
        table = await self.db.last_table_in_channel(channel_id, kind)
        if table is None or table.guild_id != guild_id or table.state is None:
            said = N_("No game of {game} has been played in this channel yet.", game=title)
            raise IllegalAction(said)
        if table.status is not TableStatus.FINISHED:
            raise IllegalAction(
                N_(
                    "The latest game of {game} here is not finished: its replay comes once it "
                    "is over.",
                    game=title,
                )
            )
        return table

    async def replay(self, table: Table, lang: str | None = None) -> Screen:
        """The animated replay of a finished game, by its game's replay hook, its words in
        ``lang`` (default: the table's channel's language)."""
        controller = self.controllers[table.kind]
        hook = controller.replay
        if hook is None:
            raise IllegalAction(N_("{game} has no replays.", game=game_name(controller.title)))
        if table.state is None or table.status is not TableStatus.FINISHED:
            raise IllegalAction(N_("Replays come once the game is finished."))
        lang = resolve(lang).language.code if lang else channel_language(table)
        players = seat_names(table.seats, lang)
        outcome = table.outcome
        picture = await self.draw(
            ("replay", table.id, table.version, lang),
            pictures.draw,
            hook.draw,
            table.state,
            players,
            outcome,
            lang,
        )
        result = controller.result_text(table, Outcome.from_dict(outcome)) if outcome else None
        said = _n(
            "**{game}** replay of game #{number}: {players}, {n} move. {result}",
            "**{game}** replay of game #{number}: {players}, {n} moves. {result}",
            hook.moves(table.state),
            game=game_name(controller.title),
            number=str(table.id),
            players=" v ".join(players),
            result=result or _("Game over."),
        )
        return Screen(content=f"🎞️ {render(said, lang)}", attachments=(picture,))

    # -- charts -----------------------------------------------------------------------------
    async def stats(
        self,
        guild_id: Place | int,
        user_id: int,
        name: str,
        server_names: Mapping[int, str],
        lang: str = "en",
    ) -> Attachment:
        """A member's rating per server over time in the rated games, and games played and won
        here, in the language ``lang``. With several rated games, each series is named by game
        and server."""
        series, rows, title = await self._stats_data(guild_id, user_id, server_names, lang)
        key = ("stats", name, repr(sorted(series.items())), tuple(rows), lang)
        return await self.draw(key, pictures.draw_stats, name, series, rows, title, lang)

    async def stats_screen(
        self,
        screen: Screen,
        guild_id: Place | int,
        user_id: int,
        name: str,
        server_names: Mapping[int, str],
        lang: str = "en",
    ) -> Screen:
        """``/stats``: the member's record (``screen``, from the table service) with the chart
        when there is something to chart, and a sentence for what there is not ("No finished
        games yet.", "No rated games yet.", in ``lang``), never an empty chart."""
        series, rows, _title = await self._stats_data(guild_id, user_id, server_names, lang)
        notes = []
        if not has_games(rows):
            notes.append(render(NO_GAMES, lang))
        if any(c.rated for c in self.controllers.values()) and not has_ratings(series):
            notes.append(render(NO_RATINGS, lang))
        embed = screen.embed
        if embed is not None:
            text = " ".join(note for note in notes if note not in embed.description)
            description = "\n".join(t for t in (embed.description, text) if t)
            embed = dataclasses.replace(embed, description=description)
        if not has_games(rows) and not has_ratings(series):
            return dataclasses.replace(screen, embed=embed)
        picture = await self.stats(guild_id, user_id, name, server_names, lang)
        return dataclasses.replace(screen, embed=embed, attachments=(picture,))

    async def _stats_data(
        self, guild_id: Place | int, user_id: int, server_names: Mapping[int, str], lang: str = "en"
    ) -> tuple[dict[str, list[tuple[float, float]]], list[tuple[Text, int, int]], Text]:
        """The rating series (named in ``lang``), the games played and won here, and the
        rating chart's title."""
        rated = {kind: game_name(c.title) for kind, c in self.controllers.items() if c.rated}
        series: dict[str, list[tuple[float, float]]] = {}
        for kind, game in rated.items():
            points = await self.db.rating_history(user_id, kind)
            for server, values in rating_series(points, server_names, lang).items():
                both = _p("rating chart", "{game}, {server}", game=game, server=server)
                series[server if len(rated) == 1 else render(both, lang)] = values
        rating_title: Text = _p("rating chart", "Ratings")
        if len(rated) == 1:
            rating_title = _p("rating chart", "{game} rating", game=next(iter(rated.values())))
        found = await self.db.player_standings(guild_id, user_id)
        rows: list[tuple[Text, int, int]] = [
            (game_name(controller.title), found[kind].games, found[kind].wins)
            for kind, controller in self.controllers.items()
            if kind in found
        ]
        return series, rows, rating_title

    async def scoreboard(self, guild_id: Place | int, kind: str, lang: str = "en") -> Attachment:
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
        named = _p("scoreboard chart", "{game} scoreboard", game=game_name(controller.title))
        title = render(named, lang)
        key = ("scoreboard", title, tuple(rows), measure, lang)
        return await self.draw(key, pictures.draw_scoreboard, title, rows, measure, lang)

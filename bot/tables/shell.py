"""The async shell around the table core: load, lock, commit with the version check, draw.

Everything it decides it asks :mod:`bot.tables.core`; what it does itself is I/O: the
database, the worker threads that draw and compute, and the per-table locks.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import time
from collections.abc import AsyncIterator, Callable, Mapping
from contextlib import asynccontextmanager
from typing import Any

from bot.tables import played
from bot.tables.ai import AiRunner
from bot.tables.controller import Controller, Intent, TableView, channel_language, table_seed
from bot.tables.core import clock as timing
from bot.tables.core import rules
from bot.tables.core.events import (
    Answer,
    BoardChanged,
    ComputerTurnDue,
    Event,
    Posted,
    ResultRecorded,
)
from bot.tables.deadlines import deadline_line
from bot.tables.locks import TableLocks
from bot.tables.registry import controllers as registered_controllers
from bot.tables.screens import Screen
from bot.tables.showing import Pictures
from games.base import N_, GameState, IllegalAction, Outcome, Phrase
from i18n import LANGUAGES, Said, lines, render
from i18n.messages import Text
from storage import Database, StoreUnavailable, Table, TableStatus

RACED = N_("Someone else acted at the same moment; look at the board again.")


class Shell:
    """``controllers``: one per game kind; by default those of every registered game."""

    def __init__(
        self,
        db: Database,
        controllers: Mapping[str, Controller[Any, Any]] | None = None,
        ai: AiRunner | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.db = db
        self.controllers = dict(registered_controllers() if controllers is None else controllers)
        ai = AiRunner() if ai is None else ai
        self.ai = ai
        self.clock = clock
        self.locks = TableLocks()
        self.pictures = Pictures(db, self.controllers, ai.run)

    @asynccontextmanager
    async def holding(self, table_id: int) -> AsyncIterator[Table | None]:
        """Open, lock, re-read: the table as stored once its lock is held (None: gone)."""
        async with self.locks.hold(table_id):
            yield await self.db.get_table(table_id)

    def state_of(self, table: Table) -> GameState | None:
        return None if table.state is None else self.controllers[table.kind].load(table.state)

    async def board_posted(self, table_id: int, message_id: int) -> None:
        """The Discord layer posted the board; remember where it is."""
        await self.db.set_board_message(table_id, message_id)

    # -- saving -----------------------------------------------------------------------------
    async def commit(self, table: Table, state: GameState | None, intent: Intent) -> Answer:
        """Save a changed table (finishing it when the game ended) and draw its board."""
        now = self.clock()
        if state is not None:
            table.state = state.to_dict()
        outcome = state.outcome() if state is not None else None
        result: tuple[Event, ...] = ()
        if outcome is not None:
            ok = await self.finish(table, state, outcome, now)
            result = (
                ResultRecorded(outcome),
                Posted(await self.result_post(table, state, outcome)),
            )
        else:
            ok = await self.db.save_table(table, moved=intent.moved, now=now)
        if not ok:
            return Answer.refuse(Said(RACED))
        answer = await self.board_answer(table, state)
        return answer.plus(*rules.intent_events(intent), *result)

    async def finish(
        self, table: Table, state: GameState | None, outcome: Outcome, now: float
    ) -> bool:
        """Store the outcome, the results and (between two members) the ratings."""
        controller = self.controllers[table.kind]
        results = played.counted(table, controller.results(table, state, outcome))
        pair = rules.rated_pair(controller, table, results)
        if pair:
            ratings = await self.db.table_ratings(table, pair)
            results = rules.with_ratings(results, ratings)
        table.outcome = outcome.to_dict()
        return await self.db.finish_table(table, results, status=TableStatus.FINISHED, now=now)

    async def ended(
        self, table: Table, state: GameState, outcome: Outcome, raced: Phrase = RACED
    ) -> Answer:
        """Finish the game with ``outcome`` (a resignation, a claim): the result, then the
        board; ``raced``: the refusal when the table changed meanwhile."""
        if not await self.finish(table, state, outcome, self.clock()):
            raise IllegalAction(raced)
        post = await self.result_post(table, state, outcome)
        answer = await self.board_answer(table, state)
        return answer.first(ResultRecorded(outcome), Posted(post))

    async def result_post(self, table: Table, state: GameState | None, outcome: Outcome) -> Screen:
        controller = self.controllers[table.kind]
        screen = await asyncio.to_thread(controller.result_screen, table, state, outcome)
        notes = played.notes(table)
        if notes:
            said = render(lines(*notes), channel_language(table))
            screen = dataclasses.replace(screen, content="\n".join([screen.content, said]))
        return screen

    def ended_answer(self, table: Table, text: Text, *events: Event) -> Answer:
        """A table that closed without a game to show: its board says why (in the channel's
        language)."""
        screen = Screen(content=render(text, channel_language(table)))
        board = BoardChanged(screen, table.board_message_id)
        return Answer((*events, board), table.id, table.version)

    # -- boards -----------------------------------------------------------------------------
    async def board_answer(self, table: Table, state: GameState | None = None) -> Answer:
        """The table's board as it is now, and the computer's turn when one is due."""
        controller = self.controllers[table.kind]
        if state is None:
            state = self.state_of(table)
        view = self.table_view(table, state)
        if table.status is TableStatus.CHALLENGE:
            board = controller.lobby(table, view)
        else:
            board = await asyncio.to_thread(controller.board, table, state, view)
        board = await self._with_deadline(table, state, view, board)
        events: list[Event] = [BoardChanged(board, table.board_message_id)]
        if view.thinking:
            events.append(ComputerTurnDue(controller.ai_delay(table)))
        return Answer(tuple(events), table.id, table.version)

    def table_view(self, table: Table, state: GameState | None) -> TableView[Any]:
        """What a controller may know of ``table`` (see :func:`core.clock.table_view`)."""
        return timing.table_view(self.controllers[table.kind], table, state)

    async def _with_deadline(
        self, table: Table, state: GameState | None, view: TableView[Any], board: Screen
    ) -> Screen:
        """The board with its next deadline as a Discord timestamp (unless it shows one)."""
        if "<t:" in board.content:
            return board
        claim = None
        if timing.claimable(table):  # two queries, only where a claim is possible
            claim = (await self.settings(table.guild_id))["idle_claim_minutes"] * 60
        line = deadline_line(table, state, view, claim_seconds=claim)
        if line is None:
            return board
        content = f"{board.content}\n{line}" if board.content else line
        return dataclasses.replace(board, content=content[:2000])

    # -- settings ---------------------------------------------------------------------------
    async def _deal(self, controller: Controller[Any, Any], table: Table, now: float) -> None:
        """The first deal of a table that begins. A deal that cannot be made stops the table;
        one the store cannot take (a full disk) leaves no open table behind: the member was
        told the store is away, and the channel must stay free for the next start."""
        try:
            state = await asyncio.to_thread(controller.new_state, table, table_seed(table))
        except IllegalAction:
            table.status = TableStatus.STOPPED
            await self.db.save_table(table, now=now)
            raise
        table.state = state.to_dict()
        try:
            saved = await self.db.save_table(table, moved=True, now=now)
        except StoreUnavailable:
            table.state, table.status = None, TableStatus.STOPPED  # no larger than it was
            with contextlib.suppress(StoreUnavailable):
                await self.db.save_table(table, now=now)
            raise
        if not saved:
            raise IllegalAction(N_("Something changed at the same time; try again."))

    async def settings(self, guild_id: int) -> dict[str, float]:
        values = dict(timing.SETTING_DEFAULTS)
        for name in values:
            raw = await self.db.guild_setting(guild_id, name)
            if raw is not None:
                values[name] = float(raw)
        return values

    async def channel_language(self, guild_id: int, fallback: str) -> str:
        """The language this server's channels read: chosen with ``/settings language``, else
        ``fallback`` (the server's language in Discord)."""
        chosen = await self.db.guild_setting(guild_id, rules.LANGUAGE_SETTING) if guild_id else None
        return chosen or fallback

    async def set_language(self, guild_id: int, code: str) -> None:
        """Boards and results of this server in the language ``code`` ("" for the server's
        language in Discord)."""
        if code and code not in {language.code for language in LANGUAGES}:
            raise IllegalAction(N_("Parlour does not speak {code}.", code=code))
        await self.db.set_guild_setting(guild_id, rules.LANGUAGE_SETTING, code)

    async def set_setting(self, guild_id: int, name: str, value: float) -> None:
        timing.check_setting(name, value)
        await self.db.set_guild_setting(guild_id, name, repr(float(value)))

    check_setting = staticmethod(timing.check_setting)

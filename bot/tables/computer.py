"""The shell's timers: the computer's turns, and the sweep of idle tables."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from contextlib import AbstractAsyncContextManager

from bot.tables import played
from bot.tables.controller import Intent, table_seed
from bot.tables.core import clock as timing
from bot.tables.core.events import Answer
from bot.tables.shell import Shell
from games.base import GameState
from i18n.messages import Text
from storage import Table, TableStatus


class ComputerTurns(Shell):
    """The computer's moves and the sweep, on top of the shell's load, lock and commit."""

    async def computer_turn(self, table_id: int) -> Answer | None:
        """Let the computer make one move if it is its turn. None when there is nothing to do.

        An instant engine decides under the table's lock: one read, one version-checked save.
        Any other thinks without the lock, and the table is read again once it has chosen."""
        async with self.holding(table_id) as table:
            turn = self._computer_seat(table)
            if turn is None or table is None:
                return None
            seat, level, state = turn
            engine = self.controllers[table.kind].engine
            if engine.instant:
                action = await self._choice(table, seat, level)
                return await self._computer_move(table, state, seat, action)
        action = await self._choice(table, seat, level)
        async with self.holding(table_id) as fresh:
            if fresh is None or fresh.version != table.version:
                return None  # the table changed meanwhile (resigned, stopped); nothing to do
            return await self._computer_move(fresh, state, seat, action)

    def _computer_seat(self, table: Table | None) -> tuple[int, str, GameState] | None:
        """The seat the computer plays now at ``table``, its level and the state (None: none)."""
        if table is None or table.state is None:
            return None
        controller = self.controllers[table.kind]
        state = controller.load(table.state)
        seat = timing.computer_seat(table, state)
        if seat is None:
            return None
        # A member's seat played by the computer uses the table's level, if it has one.
        return seat, table.seats[seat].ai_level or controller.table_level(table), state

    async def _choice(self, table: Table, seat: int, level: str) -> str:
        controller = self.controllers[table.kind]
        assert table.state is not None
        seed = table_seed(table, table.version)
        return await self.ai.choose(
            controller.engine, table.state, seat, level, controller.ai_budget, seed
        )

    async def _computer_move(
        self, table: Table, state: GameState, seat: int, action: str
    ) -> Answer | None:
        """Apply and save the computer's ``action``; None when the table changed meanwhile."""
        state.apply(seat, action)
        if not table.seats[seat].is_ai:  # a member's seat the computer plays for them
            played.record(table, seat, by_member=False)
        answer = await self.commit(table, state, Intent(move=action))
        return None if answer.error else answer

    async def play_computer(
        self,
        table_id: int,
        show: Callable[[Answer], Awaitable[None]] | None = None,
        delay: float = 0.0,
        guard: Callable[[], AbstractAsyncContextManager[object]] | None = None,
    ) -> Answer | None:
        """Play every computer turn due at a table, one after another, ``delay`` seconds before
        the first and the table's own delay between the others; ``show`` gets each answer as it
        comes (the client edits the board with it). Each turn and its showing run inside
        ``guard()`` when given (the client's drain, which refuses to start one while the bot
        stops). Returns the last answer, None when the computer had nothing to do. The client,
        the playground and the tests all use this."""
        last = None
        if delay:
            await asyncio.sleep(delay)
        while True:
            async with guard() if guard is not None else contextlib.nullcontext():
                answer = await self.computer_turn(table_id)
                if answer is None or answer.error:
                    return last
                last = answer
                if show is not None:
                    await show(answer)
            if not answer.ai_next:
                return last
            if answer.delay:
                await asyncio.sleep(answer.delay)

    async def sweep(self) -> list[tuple[Table, Answer]]:
        """End games idle past their server's limit, lapse old challenges, and let the computer
        play for members who let their turn time out."""
        ended = []
        now = self.clock()
        by_guild: dict[int, dict[str, float]] = {}  # two queries a guild, not a table
        for table in await self.db.open_tables():
            limits = by_guild.get(table.guild_id)
            if limits is None:
                limits = by_guild[table.guild_id] = await self.settings(table.guild_id)
            text = timing.when_idle(self.controllers[table.kind], table, limits, now)
            if text is None:
                continue
            if text == timing.TIME_OUT:
                answer = await self._time_out_turns(table)
            else:
                answer = await self._end_idle(table, text, now)
            if answer is not None:
                ended.append((table, answer))
        return ended

    async def _end_idle(self, table: Table, text: Text, now: float) -> Answer | None:
        async with self.locks.hold(table.id):
            table.status = TableStatus.STOPPED
            if not await self.db.save_table(table, now=now):
                return None
            return self.ended_answer(table, text)

    async def _time_out_turns(self, table: Table) -> Answer | None:
        """Hand the seats that let their turn time out to the computer."""
        async with self.holding(table.id) as fresh:
            if fresh is None or fresh.version != table.version or fresh.state is None:
                return None
            state = self.controllers[fresh.kind].load(fresh.state)
            if not timing.hand_to_computer(fresh, state):
                return None
            if not await self.db.save_table(fresh, now=self.clock()):
                return None
            return await self.board_answer(fresh, state)

"""The table service: every use case of the bot, with no discord import.

The Discord layer turns interactions into calls here and :class:`Reply` objects back into
messages. Tests drive whole games through this class with a real database and real images.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import math
import random
import time
from collections.abc import Awaitable, Callable, Mapping
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from typing import Any

from bot.tables import confirm, played, trust
from bot.tables.ai import AiRunner
from bot.tables.controller import (
    SERVICE_KEYS,
    Context,
    Controller,
    Intent,
    TableView,
    UiState,
    channel_language,
    table_seed,
)
from bot.tables.deadlines import deadline_line
from bot.tables.ratings import elo_change
from bot.tables.registry import controllers as registered_controllers
from bot.tables.screens import Embed, Field, Reply, Screen
from bot.tables.showing import Pictures
from bot.tables.trust import Origin
from bot.tables.wording import amount, busy_text
from games.base import N_, GameState, IllegalAction, Outcome
from i18n import LANGUAGES, Said
from storage import Database, Result, Seat, Table, TableStatus

log = logging.getLogger(__name__)

SETTING_DEFAULTS = {"idle_claim_minutes": 10.0, "idle_end_hours": 24.0}
# The values /settings accepts (the same ranges as the command's options), and their units.
SETTING_RANGES = {
    "idle_claim_minutes": (1.0, 10080.0, "minutes"),
    "idle_end_hours": (1.0, 720.0, "hours"),
}


@dataclass(frozen=True, slots=True)
class Member:
    """Who did something, and where."""

    user_id: int
    name: str
    guild_id: int
    channel_id: int
    manage_messages: bool = False
    channel_lang: str = "en"  # what the channel reads: the server's language, in a DM the member's


LANGUAGE_SETTING = "language"  # a guild setting: a language code, "" for Discord's


def _language(code: str) -> dict[str, Any]:
    """A new table's ``ui`` entry for its channel's language (none for English, the default)."""
    return {} if code == "en" else {"lang": code}


class TableService:
    """``controllers``: one per game kind; by default those of every registered game."""

    def __init__(
        self,
        db: Database,
        controllers: Mapping[str, Controller] | None = None,
        ai: AiRunner | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.db = db
        self.controllers = dict(registered_controllers() if controllers is None else controllers)
        ai = AiRunner() if ai is None else ai
        self.ai = ai
        self.clock = clock
        self._locks: dict[int, asyncio.Lock] = {}
        self.pictures = Pictures(db, self.controllers, ai.run)

    def _lock(self, table_id: int) -> asyncio.Lock:
        return self._locks.setdefault(table_id, asyncio.Lock())

    # -- starting ---------------------------------------------------------------------------
    async def start(
        self,
        who: Member,
        kind: str,
        options: dict[str, Any] | None = None,
        opponent: Member | None = None,
    ) -> Reply:
        """Open a table in ``who``'s channel: a challenge when ``opponent`` is a member,
        a game against the computer otherwise."""
        controller = self.controllers[kind]
        running = await self.db.open_table_in_channel(who.channel_id)
        if running:
            return Reply.refuse(self.busy(running), running.board_message_id)
        try:
            opts = controller.parse_options(options or {})
        except IllegalAction as exc:
            return Reply.refuse(Said(exc.phrase))
        starter = Seat(who.name, who.user_id)
        now = self.clock()
        if controller.solo or controller.max_players > 2:
            seats = [starter]
            status = TableStatus.ACTIVE if controller.solo else TableStatus.CHALLENGE
        elif opponent is not None:
            if opponent.user_id == who.user_id:
                return Reply.refuse(
                    "You cannot challenge yourself. Leave `opponent` empty to play the computer."
                )
            seats = [starter, Seat(opponent.name, opponent.user_id)]
            status = TableStatus.CHALLENGE
        else:
            level = opts.get("level") or controller.engine.default_level
            computer = Seat(f"Computer ({level})", None, level)
            seed = random.Random(f"{who.channel_id}:{now}").getrandbits(32)
            seats = controller.seat_order(opts, starter, computer, seed)
            status = TableStatus.ACTIVE
        table = await self.db.create_table(
            guild_id=who.guild_id,
            channel_id=who.channel_id,
            kind=kind,
            status=status,
            seats=seats,
            options=opts,
            state=None,
            ui=_language(who.channel_lang)
            | (
                {"expires": now + controller.lobby_seconds}
                if status is TableStatus.CHALLENGE
                else {}
            ),
            created_by=who.user_id,
            now=now,
        )
        if table is None:
            return Reply.refuse("Another game just started in this channel.")
        if status is TableStatus.ACTIVE:
            try:
                state = await asyncio.to_thread(controller.new_state, table, table_seed(table))
            except IllegalAction as exc:
                table.status = TableStatus.STOPPED
                await self.db.save_table(table, now=now)
                return Reply.refuse(Said(exc.phrase))
            table.state = state.to_dict()
            if not await self.db.save_table(table, moved=True, now=now):
                return Reply.refuse("Something changed at the same time; try again.")
        return await self._board_reply(table)

    def busy(self, running: Table) -> str:
        """The one answer when the channel already has a game (see :mod:`bot.tables.wording`)."""
        return busy_text(self.controllers[running.kind].title, [s.name for s in running.seats])

    async def board_posted(self, table_id: int, message_id: int) -> None:
        """The Discord layer posted the board; remember where it is."""
        await self.db.set_board_message(table_id, message_id)

    # -- acting -----------------------------------------------------------------------------
    async def act(
        self,
        who: Member,
        table_id: int,
        version: int | None,
        action: str,
        origin: Origin | None = None,
    ) -> Reply:
        """A click or a choice on a table's control. ``version`` None skips the stale check.
        ``origin``: the message clicked (None for a slash command); see :mod:`bot.tables.trust`."""
        if action == "replay":  # a finished game's Replay: drawn without holding its lock
            return await self._replay(who, table_id)
        if action == "stop":  # the confirmed Stop of /game stop
            return await self.stop(who, table_id)
        if not 0 < table_id < 2**63:  # ids are signed 64-bit in both databases
            return Reply.refuse("This game no longer exists.")
        async with self._lock(table_id):
            table = await self.db.get_table(table_id)
            if table is None or table.guild_id != who.guild_id:
                return Reply.refuse("This game no longer exists.")
            try:
                trust.check_place(table, who.channel_id, origin)
            except IllegalAction as exc:
                return Reply.refuse(Said(exc.phrase), table.board_message_id)
            if not table.status.is_open:
                if action == "again" and table.status is TableStatus.FINISHED:
                    try:
                        return await self._again(table, who)
                    except IllegalAction as exc:
                        return Reply.refuse(Said(exc.phrase))
                return Reply.refuse("This game is over. Start a new one with its `start` command.")
            if version is not None and version != table.version:
                return Reply.refuse(
                    "This board is out of date: the game has moved on. The current board is "
                    "the latest message of this game.",
                    table.board_message_id,
                )
            name, _, arg = action.partition("=")
            try:
                if table.status is TableStatus.CHALLENGE and name in ("accept", "decline"):
                    return await self._answer_challenge(table, who, name == "accept")
                return await self._act(table, who, name, arg, origin, version)
            except IllegalAction as exc:
                return Reply.refuse(Said(exc.phrase))

    async def _act(
        self,
        table: Table,
        who: Member,
        name: str,
        arg: str,
        origin: Origin | None = None,
        version: int | None = None,
    ) -> Reply:
        controller = self.controllers[table.kind]
        state = controller.load(table.state) if table.state is not None else None
        seat = self._acting_seat(table, state, who.user_id)
        if (
            seat is None
            and name not in controller.public_actions
            and not (name == "stop" and who.manage_messages)
        ):
            raise IllegalAction(N_("You are not seated at this table — you can watch, though."))
        ctx: Context[Any, Any] = Context(
            table,
            state,
            who.user_id,
            who.name,
            seat,
            name,
            arg,
            self.clock(),
            who.manage_messages,
            compute=self.ai.run_blocking,
            ui=controller.ui(table),
            autoplay=frozenset(table.ui.get("autoplay", ())),
            expires=table.ui.get("expires"),
        )
        if name == "resign":
            resigning = ctx.require_seat()
            handled = controller.resign(ctx)  # a game may go on without them
            if handled is None:
                return await self._resign(table, state, resigning)
            intent = handled
        elif name in (confirm.ASK, confirm.CANCEL):  # the one question before ending a game
            intent = controller.confirming(ctx)
        elif name == "m":  # a move typed or chosen as it is: nothing for the controller to do
            intent = Intent(move=arg)
            self._carry_out(ctx, intent)
        else:
            # In a worker thread: a hint or a deal may need real computation.
            intent = await asyncio.to_thread(self._handle, controller, ctx)
        trust.check_intent(origin, version, intent)  # nothing is saved or shown before this
        if not intent.saves:
            reply = Reply(
                private=intent.private,
                posts=intent.posts,
                update_private=intent.update_private,
                table_id=table.id,
                version=table.version,
                board_message_id=table.board_message_id,
            )
        else:
            self._store_ui(table, ctx.ui, new_deal=intent.state is not None)
            # a member's decision (not a lobby's start), where the game counts them
            if (
                intent.moved
                and seat is not None
                and state is not None
                and played.counts_here(controller)
            ):
                played.record(table, seat, by_member=True)
            self._take_back(table, who.user_id)
            reply = await self._commit(table, ctx.state, intent)
        if intent.hand and reply.error is None and ctx.state is not None and seat is not None:
            reply.hand_key = controller.private_key(table, ctx.state, seat)
        return reply

    async def _replay(self, who: Member, table_id: int) -> Reply:
        table = await self.db.get_table(table_id)
        if table is None or table.guild_id != who.guild_id:
            return Reply.refuse("This game no longer exists.")
        try:
            screen = await self.pictures.replay(table)
        except IllegalAction as exc:
            return Reply.refuse(Said(exc.phrase))
        return Reply(private=screen, table_id=table.id)

    @staticmethod
    def _store_ui(table: Table, ui: UiState, *, new_deal: bool) -> None:
        """Write the game's UI state back beside the service's own keys. A new deal ends the
        lobby's wait; a seat the computer took for good is no longer played for a member."""
        kept = {k: v for k, v in table.ui.items() if k in SERVICE_KEYS}
        if new_deal:
            kept.pop("expires", None)
        if "autoplay" in kept:
            kept["autoplay"] = [s for s in kept["autoplay"] if not table.seats[s].is_ai]
        table.ui = {**kept, **ui.to_dict()}

    def _handle(self, controller: Controller, ctx: Context) -> Intent:
        """Ask the controller what the member wants, then carry it out (in a worker thread)."""
        intent = controller.handle(ctx)
        self._carry_out(ctx, intent)
        return intent

    @staticmethod
    def _carry_out(ctx: Context, intent: Intent) -> None:
        """Apply what a controller asked for to ``ctx.state``: a new deal, then the member's
        move for their seat (only on their turn). An illegal move raises IllegalAction, and
        nothing is saved. A table that begins or closes changes its status here."""
        if intent.lifecycle is not None:
            ctx.table.status = intent.lifecycle.status
        if intent.state is not None:
            ctx.state = intent.state
        if intent.move is not None:
            seat = ctx.require_turn()
            assert ctx.state is not None  # require_turn checked it
            ctx.state.apply(seat, intent.move)
        if intent.after_move is not None:
            intent.private = intent.after_move(ctx.state)

    @staticmethod
    def _take_back(table: Table, user_id: int) -> None:
        """A member who acts again takes their seats back from the computer."""
        autoplay = table.ui.get("autoplay")
        mine = set(table.seats_of(user_id))
        if autoplay and mine & set(autoplay):
            table.ui["autoplay"] = [s for s in autoplay if s not in mine]

    def _acting_seat(self, table: Table, state: GameState | None, user_id: int) -> int | None:
        seats = table.seats_of(user_id)
        if not seats:
            return None
        if state is not None:
            for seat in seats:
                if seat in state.to_act():
                    return seat
        return seats[0]

    async def _commit(self, table: Table, state: GameState | None, intent: Intent) -> Reply:
        """Save a changed table (finishing it when the game ended) and build the reply."""
        now = self.clock()
        if state is not None:
            table.state = state.to_dict()
        posts = list(intent.posts)
        outcome = state.outcome() if state is not None else None
        if outcome is not None:
            ok = await self._finish(table, state, outcome, now)
            posts.append(await self._result_post(table, state, outcome))
        else:
            ok = await self.db.save_table(table, moved=intent.moved, now=now)
        if not ok:
            return Reply.refuse("Someone else acted at the same moment; look at the board again.")
        reply = await self._board_reply(table, state)
        reply.private = intent.private
        reply.update_private = intent.update_private
        reply.posts = posts + reply.posts
        return reply

    async def _finish(
        self,
        table: Table,
        state: GameState | None,
        outcome: Outcome,
        now: float,
        status: TableStatus = TableStatus.FINISHED,
    ) -> bool:
        controller = self.controllers[table.kind]
        results = played.counted(table, controller.results(table, state, outcome))
        members = [r for r in results if not r.vs_computer]
        if controller.rated and len(members) == 2 and len(table.seats) == 2:
            ratings = await self.db.ratings(
                table.guild_id, table.kind, [r.user_id for r in members]
            )
            a, b = members
            score = {"win": 1.0, "draw": 0.5, "loss": 0.0}
            change_a = elo_change(ratings[a.user_id], ratings[b.user_id], score[a.outcome])
            change_b = elo_change(ratings[b.user_id], ratings[a.user_id], score[b.outcome])
            results = [
                Result(a.user_id, a.outcome, a.points, False, change_a or 1e-9, a.extra, a.name),
                Result(b.user_id, b.outcome, b.points, False, change_b or 1e-9, b.extra, b.name),
            ]
        table.outcome = outcome.to_dict()
        return await self.db.finish_table(table, results, status=status, now=now)

    async def _result_post(self, table: Table, state: GameState | None, outcome: Outcome) -> Screen:
        controller = self.controllers[table.kind]
        screen = await asyncio.to_thread(controller.result_screen, table, state, outcome)
        notes = played.notes(table)
        if notes:
            screen = dataclasses.replace(screen, content="\n".join([screen.content, *notes]))
        return screen

    async def _answer_challenge(self, table: Table, who: Member, accept: bool) -> Reply:
        controller = self.controllers[table.kind]
        challenged = [s for s in table.seats if s.user_id not in (None, table.created_by)]
        if who.user_id not in [s.user_id for s in challenged] and not (
            not accept and who.user_id == table.created_by
        ):
            raise IllegalAction("Only the challenged member can answer this challenge.")
        now = self.clock()
        if now > table.ui.get("expires", now + 1):
            table.status = TableStatus.STOPPED
            await self.db.save_table(table, now=now)
            return Reply(
                error="This challenge has lapsed. Start a new game to try again.",
                board=Screen(content=f"The {controller.title} challenge lapsed."),
                table_id=table.id,
                version=table.version,
                board_message_id=table.board_message_id,
            )
        if not accept:
            table.status = TableStatus.STOPPED
            if not await self.db.save_table(table, now=now):
                raise IllegalAction("The challenge changed at the same moment.")
            verb = "withdrew" if who.user_id == table.created_by else "declined"
            return Reply(
                board=Screen(content=f"{who.name} {verb} the {controller.title} challenge."),
                table_id=table.id,
                version=table.version,
                board_message_id=table.board_message_id,
            )
        seed = table_seed(table, 1)
        starter = next(s for s in table.seats if s.user_id == table.created_by)
        table.seats = controller.seat_order(table.options, starter, challenged[0], seed)
        state = await asyncio.to_thread(controller.new_state, table, table_seed(table))
        table.state = state.to_dict()
        table.status = TableStatus.ACTIVE
        table.ui = {}
        if not await self.db.save_table(table, moved=True, now=now):
            raise IllegalAction("The challenge changed at the same moment.")
        return await self._board_reply(table)

    async def _again(self, finished: Table, who: Member) -> Reply:
        """Start the next game at a finished table: same seats, same options, new message."""
        controller = self.controllers[finished.kind]
        if finished.seat_of(who.user_id) is None:
            raise IllegalAction("Only the players of this game can start the next one.")
        running = await self.db.open_table_in_channel(finished.channel_id)
        if running is not None:
            raise IllegalAction(self.busy(running))
        seats = controller.rematch_seats(finished)
        now = self.clock()
        table = await self.db.create_table(
            guild_id=finished.guild_id,
            channel_id=finished.channel_id,
            kind=finished.kind,
            status=TableStatus.ACTIVE,
            seats=seats,
            options=finished.options,
            state=None,
            ui=_language(channel_language(finished)),
            created_by=who.user_id,
            now=now,
        )
        if table is None:
            raise IllegalAction("Another game just started in this channel.")
        state = await asyncio.to_thread(controller.new_state, table, table_seed(table))
        table.state = state.to_dict()
        if not await self.db.save_table(table, moved=True, now=now):
            raise IllegalAction("Something changed at the same time; try again.")
        reply = await self._board_reply(table)
        reply.repost = True
        reply.same_game = False  # the finished game's board keeps its result
        reply.board_message_id = finished.board_message_id  # its button is retired
        return reply

    async def _resign(self, table: Table, state: GameState | None, seat: int) -> Reply:
        controller = self.controllers[table.kind]
        if state is None:
            raise IllegalAction("The game has not started yet.")
        outcome = controller.outcome_on_resign(state, seat)
        now = self.clock()
        if not await self._finish(table, state, outcome, now):
            raise IllegalAction("Someone acted at the same moment; try again.")
        reply = await self._board_reply(table, state)
        reply.posts.insert(0, await self._result_post(table, state, outcome))
        return reply

    # -- the computer -----------------------------------------------------------------------
    async def computer_turn(self, table_id: int) -> Reply | None:
        """Let the computer make one move if it is its turn. None when there is nothing to do."""
        table = await self.db.get_table(table_id)
        if table is None or table.status is not TableStatus.ACTIVE or table.state is None:
            return None
        controller = self.controllers[table.kind]
        state = controller.load(table.state)
        autoplay = set(table.ui.get("autoplay", ()))
        seat = next((s for s in state.to_act() if table.seats[s].is_ai or s in autoplay), None)
        if seat is None:
            return None
        # A member's seat played by the computer uses the table's level, if it has one.
        level = table.seats[seat].ai_level or controller.table_level(table)
        seed = table_seed(table, table.version)
        action = await self.ai.choose(
            controller.engine, table.state, seat, level, controller.ai_budget, seed
        )
        async with self._lock(table_id):
            fresh = await self.db.get_table(table_id)
            if fresh is None or fresh.version != table.version:
                return None  # the table changed meanwhile (resigned, stopped); nothing to do
            state.apply(seat, action)
            if not fresh.seats[seat].is_ai:  # a member's seat the computer plays for them
                played.record(fresh, seat, by_member=False)
            return await self._commit(fresh, state, Intent(move=action))

    async def play_computer(
        self,
        table_id: int,
        show: Callable[[Reply], Awaitable[None]] | None = None,
        delay: float = 0.0,
        guard: Callable[[], AbstractAsyncContextManager[object]] | None = None,
    ) -> Reply | None:
        """Play every computer turn due at a table, one after another, ``delay`` seconds before
        the first and the table's own delay between the others; ``show`` gets each reply as it
        comes (the client edits the board with it). Each turn and its showing run inside
        ``guard()`` when given (the client's drain, which refuses to start one while the bot
        stops). Returns the last reply, None when the computer had nothing to do. The client,
        the playground and the tests all use this."""
        last = None
        if delay:
            await asyncio.sleep(delay)
        while True:
            async with guard() if guard is not None else contextlib.nullcontext():
                reply = await self.computer_turn(table_id)
                if reply is None or reply.error:
                    return last
                last = reply
                if show is not None:
                    await show(reply)
            if not reply.ai_next:
                return last
            if reply.delay:
                await asyncio.sleep(reply.delay)

    def computer_to_move(self, table: Table, state: GameState | None) -> bool:
        if table.status is not TableStatus.ACTIVE or state is None:
            return False
        autoplay = set(table.ui.get("autoplay", ()))
        return any(table.seats[s].is_ai or s in autoplay for s in state.to_act())

    # -- boards -----------------------------------------------------------------------------
    async def _board_reply(self, table: Table, state: GameState | None = None) -> Reply:
        controller = self.controllers[table.kind]
        if state is None and table.state is not None:
            state = controller.load(table.state)
        view = self.table_view(table, state)
        if table.status is TableStatus.CHALLENGE:
            board = controller.lobby(table, view)
        else:
            board = await asyncio.to_thread(controller.board, table, state, view)
        board = await self._with_deadline(table, state, view, board)
        return Reply(
            board=board,
            table_id=table.id,
            version=table.version,
            board_message_id=table.board_message_id,
            ai_next=view.thinking,
            delay=controller.ai_delay(table),
        )

    def table_view(self, table: Table, state: GameState | None) -> TableView[Any]:
        """What a controller may know of ``table`` beyond its own UI state: how the game ended
        (stored by the service, else the engine's), whether the computer is to move, the seats
        it plays for members away, and when a lobby lapses."""
        outcome = Outcome.from_dict(table.outcome) if table.outcome is not None else None
        if outcome is None and state is not None:
            outcome = state.outcome()
        controller = self.controllers[table.kind]
        expires = table.ui.get("expires")
        autoplay = frozenset(table.ui.get("autoplay", ()))
        thinking = self.computer_to_move(table, state)
        deadline = None
        if (
            controller.turn_timeout is not None
            and table.status is TableStatus.ACTIVE
            and state is not None
            and any(not table.seats[s].is_ai and s not in autoplay for s in state.to_act())
        ):
            deadline = table.last_move_at + controller.turn_timeout
        return TableView(
            ui=controller.ui(table),
            outcome=outcome,
            thinking=thinking,
            autoplay=autoplay,
            expires=None if expires is None else float(expires),
            turn_deadline=deadline,
        )

    async def _with_deadline(
        self, table: Table, state: GameState | None, view: TableView[Any], board: Screen
    ) -> Screen:
        """The board with its next deadline as a Discord timestamp (unless it shows one)."""
        if "<t:" in board.content:
            return board
        claim = None
        members = [s for s in table.seats if not s.is_ai]
        if table.status is TableStatus.ACTIVE and len(table.seats) == 2 and len(members) == 2:
            claim = (await self.settings(table.guild_id))["idle_claim_minutes"] * 60
        line = deadline_line(table, state, view, claim_seconds=claim)
        if line is None:
            return board
        content = f"{board.content}\n{line}" if board.content else line
        return dataclasses.replace(board, content=content[:2000])

    async def private_hand(
        self, table_id: int, user_id: int, shown: str | None
    ) -> tuple[str, Screen] | None:
        """A member's private hand if it changed since the one summarised by ``shown``
        (its :meth:`Controller.private_key`); None when it did not, or the game has none."""
        table = await self.db.get_table(table_id)
        if table is None or table.state is None:
            return None
        controller = self.controllers[table.kind]
        state = controller.load(table.state)
        seat = self._acting_seat(table, state, user_id)
        if seat is None:
            if shown == "gone":
                return None
            return "gone", Screen(content="You are no longer seated at this game.")
        key = controller.private_key(table, state, seat)
        if key is None or key == shown:
            return None
        screen = await asyncio.to_thread(controller.private_screen, table, state, seat)
        return key, screen

    async def show(self, who: Member) -> Reply:
        """Re-post the channel's board; the old message's controls stop acting."""
        table = await self.db.open_table_in_channel(who.channel_id)
        if table is None:
            return Reply.refuse("No game is running in this channel.")
        async with self._lock(table.id):
            table = await self.db.get_table(table.id)
            if table is None:
                return Reply.refuse("This game no longer exists.")
            if not await self.db.save_table(table):  # bump the version: old controls go stale
                return Reply.refuse("The board changed at the same moment; try again.")
            reply = await self._board_reply(table)
        reply.repost = True
        return reply

    async def channel_table(self, channel_id: int) -> Table | None:
        return await self.db.open_table_in_channel(channel_id)

    async def channel_action(self, who: Member, action: str) -> Reply:
        """A slash command that acts on the channel's table (resign, a typed move...)."""
        table = await self.db.open_table_in_channel(who.channel_id)
        if table is None:
            return Reply.refuse("No game is running in this channel.")
        return await self.act(who, table.id, None, action)

    async def ask(self, who: Member, kind: str, action: str) -> Reply:
        """A game's public action asked by a command (``/quarters secret``): on the channel's
        running table of that game, or on its own where none is running."""
        table = await self.db.open_table_in_channel(who.channel_id)
        if table is not None and table.kind == kind and table.state is not None:
            return await self.act(who, table.id, None, action)
        try:
            return Reply(private=self.controllers[kind].detached(action))
        except IllegalAction as exc:
            return Reply.refuse(Said(exc.phrase))

    # -- ending idle games ------------------------------------------------------------------
    async def settings(self, guild_id: int) -> dict[str, float]:
        values = dict(SETTING_DEFAULTS)
        for name in values:
            raw = await self.db.guild_setting(guild_id, name)
            if raw is not None:
                values[name] = float(raw)
        return values

    async def channel_language(self, guild_id: int, fallback: str) -> str:
        """The language this server's channels read: chosen with ``/settings language``, else
        ``fallback`` (the server's language in Discord)."""
        chosen = await self.db.guild_setting(guild_id, LANGUAGE_SETTING) if guild_id else None
        return chosen or fallback

    async def set_language(self, guild_id: int, code: str) -> None:
        """Boards and results of this server in the language ``code`` ("" for the server's
        language in Discord)."""
        if code and code not in {language.code for language in LANGUAGES}:
            raise IllegalAction(f"Parlour does not speak {code}.")
        await self.db.set_guild_setting(guild_id, LANGUAGE_SETTING, code)

    async def set_setting(self, guild_id: int, name: str, value: float) -> None:
        self.check_setting(name, value)
        await self.db.set_guild_setting(guild_id, name, repr(float(value)))

    @staticmethod
    def check_setting(name: str, value: float) -> None:
        """A finite value within the setting's range, else IllegalAction saying which."""
        if name not in SETTING_DEFAULTS:
            raise IllegalAction(f"Unknown setting {name}.")
        low, high, unit = SETTING_RANGES[name]
        if not isinstance(value, int | float) or not math.isfinite(value):
            raise IllegalAction(f"Use a number of {unit} from {low:g} to {high:g}.")
        if not low <= value <= high:
            raise IllegalAction(f"Use a number of {unit} from {low:g} to {high:g}, not {value:g}.")

    async def claim(self, who: Member) -> Reply:
        """The waiting player of an idle two-player game claims the win."""
        table = await self.db.open_table_in_channel(who.channel_id)
        if table is None or table.status is not TableStatus.ACTIVE:
            return Reply.refuse("No game is running in this channel.")
        async with self._lock(table.id):
            table = await self.db.get_table(table.id)
            if table is None:
                return Reply.refuse("This game no longer exists.")
            controller = self.controllers[table.kind]
            if table.state is None:
                return Reply.refuse("No game is running in this channel.")
            state = controller.load(table.state)
            seat = table.seat_of(who.user_id)
            humans = [s for s in table.seats if not s.is_ai]
            if seat is None:
                return Reply.refuse("You are not seated at this table.")
            if len(humans) < 2 or len(table.seats) != 2:
                return Reply.refuse("Only a game between two members can be claimed.")
            if seat in state.to_act():
                return Reply.refuse("It is your turn: you cannot claim a game you are holding up.")
            limits = await self.settings(table.guild_id)
            idle = self.clock() - table.last_move_at
            if idle < limits["idle_claim_minutes"] * 60:
                left = limits["idle_claim_minutes"] * 60 - idle
                return Reply.refuse(
                    f"Your opponent still has {int(left // 60) + 1} minute(s) "
                    "to move before you can claim the game."
                )
            outcome = Outcome(winners=(seat,), termination="timeout")
            if not await self._finish(table, state, outcome, self.clock()):
                return Reply.refuse("The game changed at the same moment; try again.")
            reply = await self._board_reply(table, state)
            reply.posts.insert(0, await self._result_post(table, state, outcome))
            return reply

    async def stop_question(self, who: Member) -> Reply:
        """``/game stop`` asks first, as every action that ends a game does; its button (the
        action ``stop``) stops the game."""
        table = await self.db.open_table_in_channel(who.channel_id)
        if table is None:
            return Reply.refuse("No game is running in this channel.")
        refusal = await self._stop_refusal(table, who)
        if refusal is not None:
            return Reply.refuse(refusal)
        question = confirm.question("stop", confirm.STOP)
        return Reply(private=question, table_id=table.id, version=table.version)

    async def _stop_refusal(self, table: Table, who: Member) -> str | None:
        """Why ``who`` may not stop ``table`` (None: they may): the host, a member with Manage
        Messages, or anyone seated once the game has been idle for the claim time."""
        limits = await self.settings(table.guild_id)
        idle = self.clock() - table.last_move_at >= limits["idle_claim_minutes"] * 60
        seated = table.seat_of(who.user_id) is not None
        if who.user_id == table.created_by or who.manage_messages or (seated and idle):
            return None
        return (
            "Only the host or a member with Manage Messages can stop this game (anyone seated "
            f"can, once nobody has moved for {amount(limits['idle_claim_minutes'], 'minute')})."
        )

    async def stop(self, who: Member, table_id: int | None = None) -> Reply:
        """End the channel's game without a result: the starter, a moderator, or anyone seated
        once the game has been idle for the claim time. ``table_id``: only that game (the
        question's button), not one started since."""
        table = await self.db.open_table_in_channel(who.channel_id)
        if table_id is not None and (table is None or table.id != table_id):
            return Reply.refuse("That game is over already: nothing was stopped.")
        if table is None:
            return Reply.refuse("No game is running in this channel.")
        async with self._lock(table.id):
            table = await self.db.get_table(table.id)
            if table is None:
                return Reply.refuse("This game no longer exists.")
            refusal = await self._stop_refusal(table, who)
            if refusal is not None:
                return Reply.refuse(refusal)
            table.status = TableStatus.STOPPED
            if not await self.db.save_table(table, now=self.clock()):
                return Reply.refuse("The game changed at the same moment; try again.")
            title = self.controllers[table.kind].title
            return Reply(
                board=Screen(content=f"This game of {title} was stopped by {who.name}."),
                posts=[Screen(content=f"🛑 {who.name} stopped the game of {title}.")],
                table_id=table.id,
                version=table.version,
                board_message_id=table.board_message_id,
            )

    async def sweep(self) -> list[tuple[Table, Reply]]:
        """End games idle past their server's limit, lapse old challenges, and let the computer
        play for members who let their turn time out."""
        ended = []
        now = self.clock()
        by_guild: dict[int, dict[str, float]] = {}  # two queries a guild, not a table
        for table in await self.db.open_tables():
            limits = by_guild.get(table.guild_id)
            if limits is None:
                limits = by_guild[table.guild_id] = await self.settings(table.guild_id)
            controller = self.controllers[table.kind]
            title = controller.title
            idle = now - table.last_move_at
            if (
                table.status is TableStatus.ACTIVE
                and controller.turn_timeout is not None
                and idle > controller.turn_timeout
                and idle <= limits["idle_end_hours"] * 3600
            ):
                reply = await self._time_out_turns(table)
                if reply is not None:
                    ended.append((table, reply))
                continue
            if table.status is TableStatus.CHALLENGE and now > table.ui.get("expires", now + 1):
                text = f"The {title} challenge lapsed."
            elif now - table.last_move_at > limits["idle_end_hours"] * 3600:
                text = (
                    f"This game of {title} ended after {limits['idle_end_hours']:g} hours "
                    "without a move."
                )
            else:
                continue
            async with self._lock(table.id):
                table.status = TableStatus.STOPPED
                if await self.db.save_table(table, now=now):
                    ended.append(
                        (
                            table,
                            Reply(
                                board=Screen(content=text),
                                table_id=table.id,
                                version=table.version,
                                board_message_id=table.board_message_id,
                            ),
                        )
                    )
        return ended

    async def _time_out_turns(self, table: Table) -> Reply | None:
        """Hand the seats that let their turn time out to the computer."""
        async with self._lock(table.id):
            fresh = await self.db.get_table(table.id)
            if fresh is None or fresh.version != table.version or fresh.state is None:
                return None
            state = self.controllers[fresh.kind].load(fresh.state)
            autoplay = set(fresh.ui.get("autoplay", ()))
            late = [s for s in state.to_act() if not fresh.seats[s].is_ai and s not in autoplay]
            if not late:
                return None
            fresh.ui["autoplay"] = sorted(autoplay | set(late))
            if not await self.db.save_table(fresh, now=self.clock()):
                return None
            return await self._board_reply(fresh, state)

    # -- scores -----------------------------------------------------------------------------
    async def scoreboard(self, guild_id: int, kind: str) -> Screen:
        """The server's standings for one game, as an embed."""
        controller = self.controllers[kind]
        standings = sorted(await self.db.standings(guild_id, kind), key=controller.rank_key)
        if not standings:
            return Screen(
                embed=Embed(
                    title=f"{controller.title} — scoreboard",
                    description="No games finished yet. Be the first!",
                )
            )
        columns = ("#", "Player", "Games", *controller.standing_columns())
        rows = []
        for place, standing in enumerate(standings[:20], start=1):
            name = standing.name or f"user {standing.user_id}"
            rows.append(
                (str(place), name[:16], str(standing.games), *controller.standing_values(standing))
            )
        widths = [max(len(str(r[i])) for r in [columns, *rows]) for i in range(len(columns))]
        lines = [
            "  ".join(str(c).ljust(w) for c, w in zip(row, widths, strict=True))
            for row in [columns, *rows]
        ]
        description = "```\n" + "\n".join(lines) + "\n```"
        return Screen(
            embed=Embed(
                title=f"{controller.title} — scoreboard",
                description=description,
                fields=(
                    Field("Players", str(len(standings)), inline=True),
                    Field("Games", str(sum(s.games for s in standings)), inline=True),
                ),
            )
        )

    async def stats(self, guild_id: int, user_id: int, name: str) -> Screen:
        """One member's record in every game of this server."""
        found = await self.db.player_standings(guild_id, user_id)
        fields = []
        for kind, controller in self.controllers.items():
            standing = found.get(kind)
            if standing is None:
                continue
            values = dict(
                zip(
                    controller.standing_columns(), controller.standing_values(standing), strict=True
                )
            )
            text = " · ".join(f"{column} **{value}**" for column, value in values.items())
            fields.append(Field(controller.title, f"{standing.games} played · {text}"))
        return Screen(
            embed=Embed(
                title=f"{name} — Parlour record",
                description="" if fields else "No finished games yet.",
                fields=tuple(fields),
            )
        )

"""The table service: every use case of the bot, with no discord import.

A thin async shell (:mod:`bot.tables.shell`) around the pure table core
(:mod:`bot.tables.core`): the Discord layer turns interactions into calls here and the
:class:`~bot.tables.core.events.Answer` it gets back into messages, one event at a time.
Tests drive whole games through this class with a real database and real images.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Callable
from typing import Any

from bot.tables import confirm, trust
from bot.tables.computer import ComputerTurns
from bot.tables.controller import Context, Controller, Intent, channel_language, table_seed
from bot.tables.core import rules, standings
from bot.tables.core.clock import SETTING_DEFAULTS, SETTING_RANGES
from bot.tables.core.events import Answer, Event, Posted, PrivateScreen, Refused
from bot.tables.core.rules import Member, Route
from bot.tables.core.rules import language_ui as _language
from bot.tables.screens import HandUpdate, Screen
from bot.tables.seats import seat_name
from bot.tables.trust import Origin
from bot.tables.wording import busy_text, game_name
from games.base import N_, IllegalAction
from i18n import Said, _, render
from storage import Place, Table, TableStatus

log = logging.getLogger(__name__)

Accepted = Callable[[bool], None]  # told, once an action passed its checks, if it answers privately

__all__ = ["SETTING_DEFAULTS", "SETTING_RANGES", "Accepted", "Member", "TableService"]


class TableService(ComputerTurns):
    """Starting, acting, showing, claiming, stopping; the computer's turns and the sweep
    come from :class:`ComputerTurns`, loading, locking and saving from the shell."""

    # -- starting ---------------------------------------------------------------------------
    async def start(
        self,
        who: Member,
        kind: str,
        options: dict[str, Any] | None = None,
        opponent: Member | None = None,
    ) -> Answer:
        """Open a table in ``who``'s channel: a challenge when ``opponent`` is a member,
        a game against the computer otherwise."""
        controller = self.controllers[kind]
        running = await self.db.open_table_in_channel(who.channel_id)
        if running:
            return Answer.refuse(self.busy(running), running.board_message_id)
        now = self.clock()
        try:
            opts = controller.parse_options(options or {})
            seed = random.Random(f"{who.channel_id}:{now}").getrandbits(32)
            seats, status = rules.start_seats(controller, who, opponent, opts, seed)
        except IllegalAction as exc:
            return Answer.refuse(Said(exc.phrase))
        challenge = status is TableStatus.CHALLENGE
        table = await self.db.create_table(
            guild_id=who.guild_id,
            channel_id=who.channel_id,
            kind=kind,
            status=status,
            seats=seats,
            options=opts,
            state=None,
            ui=_language(who.channel_lang)
            | ({"expires": now + controller.lobby_seconds} if challenge else {}),
            created_by=who.user_id,
            now=now,
            place=who.place,
        )
        if table is None:
            return Answer.refuse(Said(rules.JUST_STARTED))
        if not challenge:
            try:
                await self._deal(controller, table, now)
            except IllegalAction as exc:
                return Answer.refuse(Said(exc.phrase))
        return await self.board_answer(table)

    def busy(self, running: Table) -> Said:
        """The one answer when the channel already has a game (see :mod:`bot.tables.wording`)."""
        return busy_text(self.controllers[running.kind].title, list(map(seat_name, running.seats)))

    # -- acting -----------------------------------------------------------------------------
    async def act(
        self,
        who: Member,
        table_id: int,
        version: int | None,
        action: str,
        origin: Origin | None = None,
        accepted: Accepted | None = None,
    ) -> Answer:
        """A click or a choice on a table's control. ``version`` None skips the stale check.
        ``origin``: the message clicked (None for a slash command); see :mod:`bot.tables.trust`.
        ``accepted``: called once the action passed its checks, with whether its answer is
        private (the client defers a slow one that way; a refusal comes before it)."""
        if action == "stop":  # the confirmed Stop of /game stop: that game only
            return await self.stop(who, table_id)
        if action == "replay":  # a finished game's Replay: drawn without holding its lock
            if accepted is not None:
                accepted(True)
            return await self._replay(who, table_id)
        if not 0 < table_id < 2**63:  # ids are signed 64-bit in both databases
            return Answer.refuse(rules.GONE)
        name, _sep, arg = action.partition("=")
        async with self.holding(table_id) as table:
            where = rules.route(table, who, version, name, origin)
            if isinstance(where, Refused):
                return Answer((where,))
            assert table is not None  # route() refuses a table that is gone
            controller = self.controllers[table.kind]
            if accepted is not None:  # a click on a private message updates that message
                on_board = origin is None or not origin.private
                accepted(where is Route.ACT and on_board and name in controller.private_actions)
            try:
                if where is Route.AGAIN:
                    return await self._again(table, who)
                if where is Route.ANSWER:
                    return await self._answer_challenge(table, who, name == "accept")
                return await self._act(controller, table, who, (name, arg), origin, version)
            except IllegalAction as exc:
                return Answer.refuse(Said(exc.phrase))

    async def _act(
        self,
        controller: Controller[Any, Any],
        table: Table,
        who: Member,
        action: tuple[str, str],
        origin: Origin | None,
        version: int | None,
    ) -> Answer:
        state = self.state_of(table)
        ctx = rules.context(controller, table, state, who, action, self.clock())
        ctx.compute = self.ai.run_blocking
        name, arg = action
        if name == "resign":
            resigning = ctx.require_seat()
            handled = controller.resign(ctx)  # a game may go on without them
            if handled is None:
                if state is None:
                    raise IllegalAction(N_("The game has not started yet."))
                outcome = controller.outcome_on_resign(state, resigning)
                return await self.ended(table, state, outcome, rules.RESIGN_RACED)
            intent = handled
        elif name in (confirm.ASK, confirm.CANCEL):  # the one question before ending a game
            intent = rules.confirming(controller, ctx)
        elif name == "m":  # a move typed or chosen as it is: nothing for the controller to do
            intent = Intent(move=arg)
            rules.carry_out(ctx, intent)
        elif controller.light:  # microseconds: not worth a worker thread's round trip
            intent = _handle(controller, ctx)
        else:
            # In a worker thread: a hint or a deal may need real computation.
            intent = await asyncio.to_thread(_handle, controller, ctx)
        trust.check_intent(origin, version, intent)  # nothing is saved or shown before this
        if intent.saves:
            rules.settle(controller, ctx, intent, state)
        hand_key = None
        if intent.hand and ctx.state is not None and ctx.seat is not None:
            hand_key = controller.private_key(table, ctx.state, ctx.seat)
        if not intent.saves:
            return Answer(rules.intent_events(intent, hand_key), table.id, table.version)
        answer = await self.commit(table, ctx.state, intent)
        if hand_key is None or answer.error is not None:
            return answer
        events = tuple(_with_key(e, hand_key) for e in answer.events)
        return Answer(events, answer.table_id, answer.version)

    async def _replay(self, who: Member, table_id: int) -> Answer:
        table = await self.db.get_table(table_id)
        if table is None or table.guild_id != who.guild_id:
            return Answer.refuse(rules.GONE)
        try:
            screen = await self.pictures.replay(table, who.locale)  # a private answer
        except IllegalAction as exc:
            return Answer.refuse(Said(exc.phrase))
        return Answer((PrivateScreen(screen),), table.id)

    async def _answer_challenge(self, table: Table, who: Member, accept: bool) -> Answer:
        controller = self.controllers[table.kind]
        now = self.clock()
        lapsed = now > table.ui.get("expires", now + 1)
        text = rules.answer_challenge(controller, table, who, accept, now)
        if text is not None:
            saved = await self.db.save_table(table, now=now)
            if lapsed:
                refusal = Refused(Said(rules.LAPSED))
                return self.ended_answer(table, text, refusal)
            if not saved:
                raise IllegalAction(rules.CHALLENGE_CHANGED)
            return self.ended_answer(table, text)
        state = await asyncio.to_thread(controller.new_state, table, table_seed(table))
        table.state = state.to_dict()
        if not await self.db.save_table(table, moved=True, now=now):
            raise IllegalAction(rules.CHALLENGE_CHANGED)
        return await self.board_answer(table)

    async def _again(self, finished: Table, who: Member) -> Answer:
        """Start the next game at a finished table: same seats, same options, new message."""
        controller = self.controllers[finished.kind]
        if finished.seat_of(who.user_id) is None:
            raise IllegalAction(N_("Only the players of this game can start the next one."))
        running = await self.db.open_table_in_channel(finished.channel_id)
        if running is not None:
            return Answer.refuse(self.busy(running))
        now = self.clock()
        table = await self.db.create_table(
            guild_id=finished.guild_id,
            channel_id=finished.channel_id,
            kind=finished.kind,
            status=TableStatus.ACTIVE,
            seats=controller.rematch_seats(finished),
            options=finished.options,
            state=None,
            ui=_language(channel_language(finished)),
            created_by=who.user_id,
            now=now,
            place=finished.place,
        )
        if table is None:
            raise IllegalAction(rules.JUST_STARTED)
        await self._deal(controller, table, now)
        answer = await self.board_answer(table)
        # its button is retired; it keeps its result (no "moved on")
        return answer.reposted(finished.board_message_id, same_game=False)

    # -- the channel's table ----------------------------------------------------------------
    async def private_hand(
        self, table_id: int, user_id: int, shown: str | None, locale: str = "en"
    ) -> HandUpdate:
        """A member's private hand, in their ``locale``, drawn only if it changed since the one
        summarised by ``shown`` (its :meth:`Controller.private_key`)."""
        table = await self.db.get_table(table_id)
        if table is None or table.state is None:
            return HandUpdate(shown, None, final=True)
        final = not table.status.is_open
        controller = self.controllers[table.kind]
        state = controller.load(table.state)
        seat = rules.acting_seat(table, state, user_id)
        if seat is None:
            if shown == "gone":
                return HandUpdate(shown, None, final=True)
            gone = render(_("You are no longer seated at this game."), locale)
            return HandUpdate("gone", Screen(content=gone), final=True)
        key = controller.private_key(table, state, seat)
        if key is None or key == shown:
            return HandUpdate(shown, None, final)
        screen = await asyncio.to_thread(controller.private_screen, table, state, seat, locale)
        return HandUpdate(key, screen, final)

    async def show(self, who: Member) -> Answer:
        """Re-post the channel's board; the old message's controls stop acting."""
        table = await self.db.open_table_in_channel(who.channel_id)
        if table is None:
            return Answer.refuse(rules.NO_GAME)
        async with self.holding(table.id) as table:
            if table is None:
                return Answer.refuse(rules.GONE)
            if not await self.db.save_table(table):  # bump the version: old controls go stale
                return Answer.refuse(Said(_("The board changed at the same moment; try again.")))
            answer = await self.board_answer(table)
        return answer.reposted()

    async def current_board(self, channel_id: int) -> Answer | None:
        """The board of the channel's running table as it stands (its controls stay valid)."""
        table = await self.db.open_table_in_channel(channel_id)
        return None if table is None else await self.board_answer(table)

    async def channel_table(self, channel_id: int) -> Table | None:
        return await self.db.open_table_in_channel(channel_id)

    async def channel_action(self, who: Member, action: str) -> Answer:
        """A slash command that acts on the channel's table (resign, a typed move...)."""
        table = await self.db.open_table_in_channel(who.channel_id)
        if table is None:
            return Answer.refuse(rules.NO_GAME)
        return await self.act(who, table.id, None, action)

    async def ask(self, who: Member, kind: str, action: str) -> Answer:
        """A game's public action asked by a command (``/quarters secret``): on the channel's
        running table of that game, or on its own where none is running."""
        table = await self.db.open_table_in_channel(who.channel_id)
        if table is not None and table.kind == kind and table.state is not None:
            return await self.act(who, table.id, None, action)
        try:
            screen = self.controllers[kind].detached(action, who.locale)
            return Answer((PrivateScreen(screen),))
        except IllegalAction as exc:
            return Answer.refuse(Said(exc.phrase))

    # -- ending games -----------------------------------------------------------------------
    async def claim(self, who: Member) -> Answer:
        """The waiting player of an idle two-player game claims the win."""
        table = await self.db.open_table_in_channel(who.channel_id)
        if table is None or table.status is not TableStatus.ACTIVE:
            return Answer.refuse(rules.NO_GAME)
        async with self.holding(table.id) as table:
            if table is None:
                return Answer.refuse(rules.GONE)
            state = self.state_of(table)
            if state is None:
                return Answer.refuse(rules.NO_GAME)
            limits = await self.settings(table.guild_id)
            try:
                claim = limits["idle_claim_minutes"] * 60
                outcome = rules.claim(table, state, who.user_id, claim, self.clock())
                return await self.ended(table, state, outcome, rules.GAME_CHANGED)
            except IllegalAction as exc:
                return Answer.refuse(Said(exc.phrase))

    async def stop_question(self, who: Member) -> Answer:
        """``/game stop`` asks first, as every action that ends a game does; its button (the
        action ``stop``) stops that game. A member who may not stop it is told so at once."""
        table = await self.db.open_table_in_channel(who.channel_id)
        if table is None:
            return Answer.refuse(rules.NO_GAME)
        limits = await self.settings(table.guild_id)
        try:
            rules.may_stop(table, who, limits["idle_claim_minutes"], self.clock())
        except IllegalAction as exc:
            return Answer.refuse(Said(exc.phrase))
        question = confirm.question("stop", confirm.STOP, who.locale)
        return Answer((PrivateScreen(question),), table.id, table.version)

    async def stop(self, who: Member, table_id: int | None = None) -> Answer:
        """End the channel's game without a result: the starter, a moderator, or anyone seated
        once the game has been idle for the claim time. ``table_id``: only that game (the
        question's button), not one started since."""
        table = await self.db.open_table_in_channel(who.channel_id)
        if table_id is not None and (table is None or table.id != table_id):
            return Answer.refuse(Said(_("That game is over already: nothing was stopped.")))
        if table is None:
            return Answer.refuse(rules.NO_GAME)
        async with self.holding(table.id) as table:
            if table is None:
                return Answer.refuse(rules.GONE)
            limits = await self.settings(table.guild_id)
            try:
                rules.stop(table, who, limits["idle_claim_minutes"], self.clock())
            except IllegalAction as exc:
                return Answer.refuse(Said(exc.phrase))
            if not await self.db.save_table(table, now=self.clock()):
                return Answer.refuse(Said(rules.GAME_CHANGED))
            game = game_name(self.controllers[table.kind].title)
            text = _("This game of {game} was stopped by {name}.", game=game, name=who.name)
            said = _("{name} stopped the game of {game}.", name=who.name, game=game)
            stopped = Posted(Screen(content=f"🛑 {render(said, channel_language(table))}"))
            return self.ended_answer(table, text).plus(stopped)

    # -- scores -----------------------------------------------------------------------------
    async def scoreboard(self, where: Place | int, kind: str, lang: str = "en") -> Screen:
        """A place's (a guild id: the server's) standings for one game, as an embed in
        ``lang``."""
        found = await self.db.standings(where, kind)
        return standings.scoreboard(self.controllers[kind], found, lang)

    async def stats(self, where: Place | int, user_id: int, name: str, lang: str = "en") -> Screen:
        """One member's record in every game of a place (a guild id: the server), in ``lang``."""
        found = await self.db.player_standings(where, user_id)
        return standings.record(self.controllers, found, name, lang)


def _handle(controller: Controller[Any, Any], ctx: Context[Any, Any]) -> Intent:
    """Ask the controller what the member wants, then carry it out (in a worker thread)."""
    intent = controller.handle(ctx)
    rules.carry_out(ctx, intent)
    return intent


def _with_key(event: Event, hand_key: str) -> Event:
    """The member's private screen marked as their hand."""
    if isinstance(event, PrivateScreen):
        return PrivateScreen(event.screen, event.in_place, hand_key)
    return event

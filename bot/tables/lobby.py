"""The seat lobby of table games (Hearts, Kabu, any later one): a table that waits while members
press **Join** and **Leave**, until the member who opened it starts the game.

A game's controller subclasses :class:`SeatLobby` instead of :class:`Controller`, writes its
own lobby message (using :meth:`SeatLobby.lobby_buttons`), and sends its actions through
:meth:`SeatLobby.lobby_action` first. What differs between games is a class setting: the start
button's words, whether the host leaving closes the table, whether the computer fills the empty
seats when the game starts.
"""

from __future__ import annotations

from typing import Any, ClassVar

from bot.tables.controller import Context, Controller, Intent, Lifecycle, S, U, table_seed
from bot.tables.screens import Button, Style
from games.base import N_, IllegalAction
from i18n import Message, _, _p, render
from i18n.messages import Text
from storage.models import Seat, Table, TableStatus

JOIN, LEAVE = "join", "leave"
HOST = _("The host")  # who opened a table, once they left it


class SeatLobby(Controller[S, U]):
    """A controller whose tables open as a lobby of up to :attr:`max_players` members."""

    max_players: ClassVar[int] = 4
    public_actions: ClassVar[frozenset[str]] = frozenset({JOIN})
    # The host's button that starts the game: its words and its action.
    start_label: ClassVar[Message] = _p("button", "Start")
    start_action: ClassVar[str] = "start"
    # The host's Leave closes the table (True), or is refused: the host starts or stops it.
    host_leaving_closes: ClassVar[bool] = False
    # The computer takes the seats left empty when the game starts (at the table's level).
    computers_fill: ClassVar[bool] = False

    @staticmethod
    def host_name(table: Table, default: Text = HOST) -> Text:
        """The name of the member who opened ``table`` (``default`` once they left it)."""
        return next((s.name for s in table.seats if s.user_id == table.created_by), default)

    def lobby_buttons(self, table: Table, lang: str = "en") -> tuple[Button, ...]:
        """Join (while a seat is free), Leave, and the host's start button, in ``lang``."""
        full = len(table.seats) >= self.max_players
        return (
            Button(render(_p("button", "Join"), lang), JOIN, Style.SUCCESS, disabled=full),
            Button(render(_p("button", "Leave"), lang), LEAVE),
            Button(render(self.start_label, lang), self.start_action, Style.PRIMARY),
        )

    def require_host(self, ctx: Context[S, U]) -> None:
        """Refuse anyone but the member who opened the table."""
        if ctx.user_id != ctx.table.created_by:
            host = self.host_name(ctx.table)
            raise IllegalAction(
                N_("Only the host can do that: {host} opened this table.", host=host)
            )

    @staticmethod
    def require_open(ctx: Context[S, U]) -> None:
        """Refuse an action at a lobby that waited too long (before the sweep closes it)."""
        if ctx.expires is not None and ctx.now > ctx.expires:
            raise IllegalAction(N_("This table waited too long and closed. Start a new one."))

    def lobby_action(self, ctx: Context[S, U]) -> Intent | None:
        """Join, Leave and the host's start at a waiting table; a Join once the game has
        started is refused. None for any other action (the game's own)."""
        waiting = ctx.table.status is TableStatus.CHALLENGE
        if not waiting:
            if ctx.action == JOIN:
                raise IllegalAction(N_("This game has started; join the next one."))
            return None
        if ctx.action not in (JOIN, LEAVE, self.start_action):
            return None
        self.require_open(ctx)
        if ctx.action == JOIN:
            return self._join(ctx)
        if ctx.action == LEAVE:
            return self._leave(ctx)
        self.require_host(ctx)
        return self._start(ctx)

    def _join(self, ctx: Context[S, U]) -> Intent:
        table = ctx.table
        if table.seat_of(ctx.user_id) is not None:
            raise IllegalAction(N_("You already have a seat at this table."))
        if len(table.seats) >= self.max_players:
            said = N_("The table is full: {most} players at most.", most=self.max_players)
            raise IllegalAction(said)
        table.seats.append(Seat(ctx.user_name, ctx.user_id))
        return Intent(changed=True)

    def _leave(self, ctx: Context[S, U]) -> Intent:
        ctx.require_seat()
        table = ctx.table
        if ctx.user_id != table.created_by:
            table.seats = [s for s in table.seats if s.user_id != ctx.user_id]
            return Intent(changed=True)
        if not self.host_leaving_closes:
            raise IllegalAction(
                N_(
                    "You opened this table: press **{start}** to play, or `/game stop` to "
                    "close it.",
                    start=self.start_label,
                )
            )
        self.on_close(ctx)
        return Intent(changed=True, lifecycle=Lifecycle.CLOSE)

    def on_close(self, ctx: Context[S, U]) -> None:
        """The host closes the lobby: a game may note it in its UI state (for the board)."""

    def _start(self, ctx: Context[S, U]) -> Intent:
        table = ctx.table
        if self.computers_fill:
            table.seats.extend(self.computers(self.max_players - len(table.seats), table))
        ctx.ui = self.ui_type()
        deal = self.new_state(table, table_seed(table))
        return Intent(changed=True, state=deal, lifecycle=Lifecycle.BEGIN)

    def computers(self, count: int, table: Table) -> list[Seat]:
        """``count`` computer seats at the table's level: "Computer", or "Computer 1"..."""
        level = self.table_level(table)
        if count == 1:
            return [Seat("Computer", None, level)]
        return [Seat(f"Computer {n}", None, level) for n in range(1, count + 1)]

    def lobby_options(self, ctx: Context[S, U], names: frozenset[str]) -> Intent | None:
        """The host changes one of the table's options ``names`` from the lobby (a select):
        checked again by :meth:`parse_options`. None for any other action."""
        if ctx.action not in names or ctx.table.status is not TableStatus.CHALLENGE:
            return None
        self.require_open(ctx)
        self.require_host(ctx)
        options: dict[str, Any] = dict(ctx.table.options)
        options[ctx.action] = ctx.arg
        ctx.table.options = self.parse_options(options)
        return Intent(changed=True)

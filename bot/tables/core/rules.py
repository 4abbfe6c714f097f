"""Who may do what at a table, and what it does: plain functions, no I/O.

Each function takes the stored table (and the game state, the member, the time) and either
raises :class:`IllegalAction` with the reason shown to the member, or says what to do. Those
that change the table change the :class:`Table` they are given (the shell's own copy, saved
with the version check afterwards).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any

from bot.tables import played, trust
from bot.tables.confirm import CANCEL, cancelled, question
from bot.tables.controller import SERVICE_KEYS, Context, Controller, Intent, UiState, table_seed
from bot.tables.core.events import Event, Posted, PrivateScreen, Refused
from bot.tables.ratings import elo_change
from bot.tables.trust import Origin
from bot.tables.wording import duration, game_name
from games.base import N_, GameState, IllegalAction, Nn_, Outcome
from i18n import Said, _
from i18n.messages import Text
from storage.models import PlaceKind, Result, Seat, Table, TableStatus

GONE = Said(_("This game no longer exists."))
OVER = Said(_("This game is over. Start a new one with its `start` command."))
LANGUAGE_SETTING = "language"  # a guild setting: a language code, "" for Discord's
NOT_SEATED = N_("You are not seated at this table — you can watch, though.")
# The service's refusals when a table changed under an action, or is not there.
NO_GAME = Said(_("No game is running in this channel."))
RESIGN_RACED = N_("Someone acted at the same moment; try again.")
JUST_STARTED = N_("Another game just started in this channel.")
CHALLENGE_CHANGED = N_("The challenge changed at the same moment.")
GAME_CHANGED = N_("The game changed at the same moment; try again.")
LAPSED = N_("This challenge has lapsed. Start a new game to try again.")


@dataclass(frozen=True, slots=True)
class Member:
    """Who did something, and where."""

    user_id: int
    name: str
    guild_id: int
    channel_id: int
    manage_messages: bool = False
    channel_lang: str = "en"  # what the channel reads: the server's language, in a DM the member's
    locale: str = "en"  # what the member reads: their own Discord language
    place: PlaceKind | None = None  # where results count (None: the server, or with guild 0 a DM)


def language_ui(code: str) -> dict[str, Any]:
    """A new table's ``ui`` entry for its channel's language (none for English, the default)."""
    return {} if code == "en" else {"lang": code}


class Route(enum.Enum):
    """Where an action on a table goes once it passed the checks of :func:`route`."""

    AGAIN = "again"  # the next game at a finished table
    ANSWER = "answer"  # accept or decline a challenge
    ACT = "act"  # the game's own action (its controller decides)


def route(
    table: Table | None, who: Member, version: int | None, name: str, origin: Origin | None
) -> Route | Refused:
    """The checks before a member's action at ``table`` (None: not found): the place, the
    table's life and the board's version. A click on the public board always carries the
    version it was drawn for: ``*`` (``version`` None) moves nothing there (see
    :func:`bot.tables.trust.check_intent`)."""
    if table is None or table.guild_id != who.guild_id:
        return Refused(GONE)
    try:
        trust.check_place(table, who.channel_id, origin)
    except IllegalAction as exc:
        return Refused(Said(exc.phrase), table.board_message_id)
    if not table.status.is_open:
        if name == "again" and table.status is TableStatus.FINISHED:
            return Route.AGAIN
        return Refused(OVER)
    if version is not None and version != table.version:
        return Refused(Said(trust.OUT_OF_DATE), table.board_message_id)
    if table.status is TableStatus.CHALLENGE and name in ("accept", "decline"):
        return Route.ANSWER
    return Route.ACT


def acting_seat(table: Table, state: GameState | None, user_id: int) -> int | None:
    """The member's seat that may act now, else their first seat, else None."""
    seats = table.seats_of(user_id)
    if not seats:
        return None
    if state is not None:
        for seat in seats:
            if seat in state.to_act():
                return seat
    return seats[0]


def context(
    controller: Controller[Any, Any],
    table: Table,
    state: GameState | None,
    who: Member,
    action: tuple[str, str],
    now: float,
) -> Context[Any, Any]:
    """The controller's view of one member's action, after checking they may take it."""
    name, arg = action
    seat = acting_seat(table, state, who.user_id)
    if (
        seat is None
        and name not in controller.public_actions
        and not (name == "stop" and who.manage_messages)
    ):
        raise IllegalAction(NOT_SEATED)
    return Context(
        table,
        state,
        who.user_id,
        who.name,
        seat,
        name,
        arg,
        now,
        who.manage_messages,
        ui=controller.ui(table),
        autoplay=frozenset(table.ui.get("autoplay", ())),
        expires=table.ui.get("expires"),
        locale=who.locale,
    )


def carry_out(ctx: Context[Any, Any], intent: Intent) -> None:
    """Apply what a controller asked for to ``ctx.state``: a change in the table's life, a new
    deal, then the member's move for their seat (only on their turn). An illegal move raises
    IllegalAction, and nothing is saved."""
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


def settle(
    controller: Controller[Any, Any],
    ctx: Context[Any, Any],
    intent: Intent,
    before: GameState | None,
) -> None:
    """After a saving intent: the game's UI state stored beside the service's keys, the
    member's decision counted, and their seats taken back from the computer."""
    table = ctx.table
    store_ui(table, ctx.ui, new_deal=intent.state is not None)
    # a member's decision (not a lobby's start), where the game counts them
    if (
        intent.moved
        and ctx.seat is not None
        and before is not None
        and played.counts_here(controller)
    ):
        played.record(table, ctx.seat, by_member=True)
    take_back(table, ctx.user_id)


def store_ui(table: Table, ui: UiState, *, new_deal: bool) -> None:
    """Write the game's UI state back beside the service's own keys. A new deal ends the
    lobby's wait; a seat the computer took for good is no longer played for a member."""
    kept = {k: v for k, v in table.ui.items() if k in SERVICE_KEYS}
    if new_deal:
        kept.pop("expires", None)
    if "autoplay" in kept:
        kept["autoplay"] = [s for s in kept["autoplay"] if not table.seats[s].is_ai]
    table.ui = {**kept, **ui.to_dict()}


def take_back(table: Table, user_id: int) -> None:
    """A member who acts again takes their seats back from the computer."""
    autoplay = table.ui.get("autoplay")
    mine = set(table.seats_of(user_id))
    if autoplay and mine & set(autoplay):
        table.ui["autoplay"] = [s for s in autoplay if s not in mine]


def intent_events(intent: Intent, hand_key: str | None = None) -> tuple[Event, ...]:
    """The member's private screen and the channel's new messages an intent asks for."""
    events: list[Event] = []
    if intent.private is not None:
        events.append(PrivateScreen(intent.private, intent.update_private, hand_key))
    events.extend(Posted(post) for post in intent.posts)
    return tuple(events)


def rated_pair(controller: Controller[Any, Any], table: Table, results: list[Result]) -> list[int]:
    """The two members whose ratings change with these results (none unless the game is rated
    and two members played each other)."""
    members = [r for r in results if not r.vs_computer]
    if controller.rated and len(members) == 2 and len(table.seats) == 2:
        return [r.user_id for r in members]
    return []


def with_ratings(results: list[Result], ratings: dict[int, float]) -> list[Result]:
    """The results of a rated game between two members with their Elo changes."""
    a, b = [r for r in results if not r.vs_computer]
    score = {"win": 1.0, "draw": 0.5, "loss": 0.0}
    change_a = elo_change(ratings[a.user_id], ratings[b.user_id], score[a.outcome])
    change_b = elo_change(ratings[b.user_id], ratings[a.user_id], score[b.outcome])
    return [
        Result(a.user_id, a.outcome, a.points, False, change_a or 1e-9, a.extra, a.name),
        Result(b.user_id, b.outcome, b.points, False, change_b or 1e-9, b.extra, b.name),
    ]


def claim(
    table: Table, state: GameState, user_id: int, claim_seconds: float, now: float
) -> Outcome:
    """The waiting player of an idle two-player game claims the win: the outcome, or why not."""
    seat = table.seat_of(user_id)
    humans = [s for s in table.seats if not s.is_ai]
    if seat is None:
        raise IllegalAction(N_("You are not seated at this table."))
    if len(humans) < 2 or len(table.seats) != 2:
        raise IllegalAction(N_("Only a game between two members can be claimed."))
    if seat in state.to_act():
        raise IllegalAction(N_("It is your turn: you cannot claim a game you are holding up."))
    idle = now - table.last_move_at
    if idle < claim_seconds:
        left = claim_seconds - idle
        raise IllegalAction(
            Nn_(
                "Your opponent still has {n} minute to move before you can claim the game.",
                "Your opponent still has {n} minutes to move before you can claim the game.",
                int(left // 60) + 1,
            )
        )
    return Outcome(winners=(seat,), termination="timeout")


def may_stop(table: Table, who: Member, claim_minutes: float, now: float) -> None:
    """Who may stop a game without a result: the host, a member with Manage Messages, or
    anyone seated once the game has been idle for the claim time; else IllegalAction."""
    idle = now - table.last_move_at >= claim_minutes * 60
    seated = table.seat_of(who.user_id) is not None
    if not (who.user_id == table.created_by or who.manage_messages or (seated and idle)):
        raise IllegalAction(
            N_(
                "Only the host or a member with Manage Messages can stop this game (anyone "
                "seated can, once nobody has moved for {time}).",
                time=duration(claim_minutes, "minute"),
            )
        )


def stop(table: Table, who: Member, claim_minutes: float, now: float) -> None:
    """End the table without a result, when ``who`` may (:func:`may_stop`)."""
    may_stop(table, who, claim_minutes, now)
    table.status = TableStatus.STOPPED


def start_seats(
    controller: Controller[Any, Any],
    who: Member,
    opponent: Member | None,
    options: dict[str, Any],
    seed: int,
) -> tuple[list[Seat], TableStatus]:
    """The seats and status of a new table: a lobby, a challenge, or a game against the
    computer."""
    starter = Seat(who.name, who.user_id)
    if controller.solo or controller.max_players > 2:
        return [starter], TableStatus.ACTIVE if controller.solo else TableStatus.CHALLENGE
    if opponent is not None:
        if opponent.user_id == who.user_id:
            raise IllegalAction(
                N_("You cannot challenge yourself. Leave `opponent` empty to play the computer.")
            )
        return [starter, Seat(opponent.name, opponent.user_id)], TableStatus.CHALLENGE
    level = options.get("level") or controller.engine.default_level
    computer = Seat(f"Computer ({level})", None, level)
    return controller.seat_order(options, starter, computer, seed), TableStatus.ACTIVE


def answer_challenge(
    controller: Controller[Any, Any], table: Table, who: Member, accept: bool, now: float
) -> Text | None:
    """A challenged member accepts or declines (the challenger may withdraw). Returns the
    board's text when the challenge ends (lapsed, declined, withdrawn: the table is stopped),
    None when it was accepted (the table's seats are in play order; the shell deals)."""
    challenged = [s for s in table.seats if s.user_id not in (None, table.created_by)]
    if who.user_id not in [s.user_id for s in challenged] and not (
        not accept and who.user_id == table.created_by
    ):
        raise IllegalAction(N_("Only the challenged member can answer this challenge."))
    game = game_name(controller.title)
    if now > table.ui.get("expires", now + 1):
        table.status = TableStatus.STOPPED
        return _("The {game} challenge lapsed.", game=game)
    if not accept:
        table.status = TableStatus.STOPPED
        if who.user_id == table.created_by:
            return _("{name} withdrew the {game} challenge.", name=who.name, game=game)
        return _("{name} declined the {game} challenge.", name=who.name, game=game)
    starter = next(s for s in table.seats if s.user_id == table.created_by)
    table.seats = controller.seat_order(table.options, starter, challenged[0], table_seed(table, 1))
    table.status = TableStatus.ACTIVE
    table.ui = {}
    return None


def confirming(controller: Controller[Any, Any], ctx: Context[Any, Any]) -> Intent:
    """``ask=<action>``: the private question before an action that ends the game;
    ``cancel``: the question's message says nothing changed."""
    if ctx.action == CANCEL:
        return Intent(private=cancelled(ctx.locale), update_private=True)
    found = controller.confirmation(ctx, ctx.arg)
    if found is None:
        raise IllegalAction(N_("That button does nothing here."))
    ctx.require_seat()
    return Intent(private=question(ctx.arg, found, ctx.locale))

"""A member leaving a Hearts game for good (the computer plays their seat; the game goes on),
the end when the last member leaves, and the results: one a member, those who left included."""

from __future__ import annotations

from bot.tables.confirm import Confirmation
from bot.tables.controller import Context, Intent, channel_language
from bot.tables.hearts.options import HeartsUi
from bot.tables.hearts.scores import scores_embed
from bot.tables.screens import Attachment, Screen
from bot.tables.seats import seat_name, seat_names
from games.base import N_, IllegalAction, Outcome
from games.hearts import State
from i18n import _, _n, _p, render
from i18n.formats import Listing
from i18n.messages import Text
from render.charts import hearts_totals_chart
from storage.models import Result, Seat, Table

LEAVE = Confirmation(
    _(
        "Really leave this game? The computer plays your seat to the end, and the game counts "
        "as a loss for you."
    ),
    _p("button", "Leave for good"),
)


def leave(ctx: Context[State, HeartsUi], level: str) -> Intent | None:
    """The computer (at ``level``) takes the member's seat for good and the others play on.
    None when they were the last member: the game ends (the service records it)."""
    table = ctx.table
    seat = ctx.require_seat()
    if ctx.state is None:
        leave = _p("button", "Leave")
        raise IllegalAction(
            N_("The game has not started yet: press **{leave}** in the lobby.", leave=leave)
        )
    others = [i for i, s in enumerate(table.seats) if not s.is_ai and i != seat]
    if not others:
        return None
    state = ctx.state
    member = table.seats[seat]
    ctx.ui.left.append(
        {
            "seat": seat,
            "user_id": member.user_id,
            "name": member.name,
            "points": state.totals[seat],
            "hands": len(state.history),
            "moons": state.moons[seat],
        }
    )
    table.seats[seat] = Seat(f"{member.name} (computer)", None, level)
    return Intent(
        changed=True,
        private=Screen(
            content=render(
                _("You left the game; the computer plays your cards from now."), ctx.locale
            )
        ),
        update_private=True,  # replaces the confirmation (a slash command gets a new one)
    )


def outcome_when_all_left(state: State, seat: int) -> Outcome:
    """The last member left: the game ends, the computers share the lowest total."""
    others = [s for s in range(4) if s != seat]
    best = min(state.totals[s] for s in others)
    return Outcome(
        winners=tuple(s for s in others if state.totals[s] == best),
        termination="resign",
        scores=tuple(state.totals),
    )


def results(table: Table, state: State | None, outcome: Outcome, gone: list[dict]) -> list[Result]:
    """Win or loss per member, their total, and hands played and moons shot; a loss for each
    member who left (``gone``, from the table's UI state)."""
    totals = list(state.totals) if state is not None else [0] * 4
    moons = list(state.moons) if state is not None else [0] * 4
    hands = len(state.history) if state is not None else 0
    vs_computer = any(s.is_ai for s in table.seats) or bool(gone)
    found = []
    for index, seat in enumerate(table.seats):
        if seat.user_id is None:
            continue
        verdict = "win" if index in outcome.winners else "loss"
        extra = {"hands": hands, "moons": moons[index]}
        found.append(
            Result(seat.user_id, verdict, totals[index], vs_computer, extra=extra, name=seat.name)
        )
    for left in gone:
        extra = {"hands": left["hands"], "moons": left["moons"]}
        found.append(
            Result(left["user_id"], "loss", left["points"], True, extra=extra, name=left["name"])
        )
    return found


def result_text(table: Table, outcome: Outcome) -> Text:
    """The result in one sentence (the board's last line and the announcement)."""
    if outcome.termination == "resign":
        return _("Everyone left the table, so the game ended.")
    names = [seat_name(table.seats[s]) for s in outcome.winners]
    points = outcome.scores[outcome.winners[0]] if outcome.scores and outcome.winners else 0
    if len(names) == 1:
        return _n(
            "**{name} wins** with {n} point.",
            "**{name} wins** with {n} points.",
            points,
            name=names[0],
        )
    return _n(
        "**{names} share the win** with {n} point.",
        "**{names} share the win** with {n} points.",
        points,
        names=Listing(tuple(names)),
    )


def result_extras(table: Table, state: State | None) -> Screen:
    """The final scores, and the running totals hand by hand as a chart."""
    if state is None:
        return Screen()
    view = state.view(None)
    chart: tuple[Attachment, ...] = ()
    lang = channel_language(table)
    if view["history"]:
        per_hand = [h["scores"] for h in view["history"]]
        drawn = hearts_totals_chart(per_hand, seat_names(table.seats, lang), lang=lang)
        chart = (Attachment.of(drawn),)
    embed = scores_embed(table, view, _("Final scores"), lang)
    return Screen(embed=embed, attachments=chart)

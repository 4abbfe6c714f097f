"""The daily puzzles for the bot: today's overview, private boards, moves, shares, the server's
board, streaks and the daily post. No Discord here: it answers with :class:`Screen`s whose
controls carry the actions of a daily board (the Discord layer gives them ``d:`` custom_ids).

Every text is rendered in the reader's ``locale``.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta

from bot.tables import registry
from bot.tables.core.rules import LANGUAGE_SETTING
from bot.tables.daily import boards
from bot.tables.daily.play import Refused, initial_state, play
from bot.tables.screens import Button, Embed, Field, Screen, Style
from games.daily import KINDS, QUATORZE, Puzzles, puzzles_for
from i18n import Message, _, _n, render
from storage import Database, Place, PlaceKind
from storage.daily import Attempt, AttemptStatus, Streak, day_of

CHANNEL_SETTING = "daily_channel"
POSTED_SETTING = "daily_posted"  # the last day posted in the server's daily channel
SHARE = "share"
TITLES = {kind: registry.specs()[kind].title for kind in KINDS}


def next_midnight(now: float) -> int:
    """The Unix time of the next midnight UTC."""
    day = day_of(now) + timedelta(1)
    return int(datetime(day.year, day.month, day.day, tzinfo=UTC).timestamp())


@dataclass(frozen=True, slots=True)
class Answer:
    """A board to show (``screen``), or a refusal (``error``); ``post`` is a line for the
    channel (a share)."""

    screen: Screen | None = None
    error: str | None = None
    post: str | None = None
    attempt: int = 0  # the attempt the board shows, and its version (for the controls)
    version: int | None = None


class DailyService:
    """The daily puzzles of one bot; ``clock`` is the time source (tests move it)."""

    def __init__(self, db: Database, clock: Callable[[], float] = time.time) -> None:
        self.db = db
        self.clock = clock
        self.posting = asyncio.Lock()  # the post loop and /settings may post at once

    def today(self) -> date:
        return day_of(self.clock())

    async def puzzles(self, day: date) -> Puzzles:
        """The day's puzzles, generated off the event loop the first time."""
        return await asyncio.to_thread(puzzles_for, day)

    # -- /daily ------------------------------------------------------------------------------
    async def overview(self, user_id: int, locale: str) -> Screen:
        """Today's three puzzles with the member's progress, a button for each, and when the
        next ones come."""
        today = self.today()
        mine = await self.db.daily.attempts_of(user_id, today)
        lines = []
        buttons = []
        for kind in KINDS:
            attempt = mine.get(kind)
            lines.append(render(_line(kind, attempt), locale))
            label = render(_("Play {game}", game=TITLES[kind]), locale)
            done = attempt is not None and attempt.over  # opens the result, to share it
            buttons.append(
                Button(label, f"open={kind}", Style.SECONDARY if done else Style.PRIMARY)
            )
        stamp = f"<t:{next_midnight(self.clock())}:R>"  # Discord shows it in the reader's time
        text = render(
            _(
                "The daily puzzles of {day}: the same for everyone, one try each. "
                "Only you see your boards.",
                day=today.isoformat(),
            ),
            locale,
        )
        more = render(_("The next puzzles come {when}.", when=stamp), locale)
        return Screen(
            embed=Embed(
                title=render(_("Daily puzzles"), locale),
                description="\n".join([text, "", *lines, "", more]),
            ),
            rows=(tuple(buttons),),
        )

    async def open(
        self, kind: str, user_id: int, name: str, where: Place | int, locale: str
    ) -> Answer:
        """Start (or resume) the member's attempt at today's ``kind`` and show its board; it
        counts in ``where`` (a place, or a guild id: 0 for the member's own record)."""
        if isinstance(where, Place):
            place = where
        else:
            place = Place.server(where) if where else Place.dm(user_id)
        guild = place.id if place.kind is PlaceKind.SERVER else 0
        if kind not in KINDS:
            return Answer(error=render(_("There is no such daily puzzle."), locale))
        attempt, _made = await self.db.daily.start(
            puzzle=kind,
            user_id=user_id,
            user_name=name,
            guild_id=guild,
            state=initial_state(),
            now=self.clock(),
            place=place,
        )
        puzzles = await self.puzzles(attempt.day)
        screen = await asyncio.to_thread(boards.board, puzzles, attempt, locale)
        return Answer(screen=screen, attempt=attempt.id, version=attempt.version)

    async def act(
        self,
        attempt_id: int,
        version: int | None,
        user_id: int,
        action: str,
        locale: str,
        channel_locale: str | None = None,
    ) -> Answer:
        """A click on a daily board: a move, a hint, giving up, or sharing (once per attempt;
        the shared line is in ``channel_locale``, the channel's language, when given)."""
        attempt = await self.db.daily.get(attempt_id)
        if attempt is None or attempt.user_id != user_id:
            return Answer(error=render(_("This is not your puzzle."), locale))
        puzzles = await self.puzzles(attempt.day)
        if action == SHARE:
            if not attempt.over:
                return Answer(error=render(_("Finish the puzzle before you share it."), locale))
            if not await self.db.daily.mark_shared(attempt):  # once per attempt
                return Answer(error=render(_("You already shared this puzzle."), locale))
            return Answer(post=render(share_line(attempt), channel_locale or locale))
        if "=" in action:  # a choice in a select of moves: ``m<n>=<move>``
            action = action.partition("=")[2]
        if version is not None and version != attempt.version:
            return Answer(error=render(_("That board is out of date."), locale))
        try:
            played = await asyncio.to_thread(play, puzzles, attempt, action)
        except Refused as exc:
            return Answer(error=render(exc.message, locale))
        if not await self.db.daily.save(attempt, now=self.clock()):
            return Answer(error=render(_("That move was already played."), locale))
        screen = await asyncio.to_thread(boards.board, puzzles, attempt, locale, played.note)
        return Answer(screen=screen, attempt=attempt.id, version=attempt.version)

    # -- boards and streaks ------------------------------------------------------------------
    async def board(self, where: Place | int, locale: str, day: date | None = None) -> Screen:
        """The place's (a guild id: the server's) solvers of ``day`` (today by default) in
        finishing order, and the longest running streaks."""
        day = day or self.today()
        fields = []
        for kind in KINDS:
            solved = [a for a in await self.db.daily.solvers(where, day) if a.puzzle == kind]
            rows = [render(_solver_line(n, attempt), locale) for n, attempt in enumerate(solved, 1)]
            nobody = render(_("Nobody yet."), locale)
            fields.append(Field(TITLES[kind], "\n".join(rows) or nobody))
        streaks = await self.db.daily.longest_streaks(where, self.today())
        names = await self.db.daily.names(uid for uid, _s in streaks)
        rows = [
            render(
                _n("{name}: {n} day", "{name}: {n} days", s.current, name=names.get(uid, "?")),
                locale,
            )
            for uid, s in streaks
        ]
        fields.append(
            Field(
                render(_("Longest streaks (all three)"), locale),
                "\n".join(rows) or render(_("Nobody yet."), locale),
            )
        )
        title = render(_("Daily puzzles of {day}: solvers", day=day.isoformat()), locale)
        return Screen(embed=Embed(title=title, fields=tuple(fields)))

    async def streak_field(self, user_id: int, locale: str) -> Field | None:
        """The member's streaks as one field for ``/stats`` (None before any daily solve)."""
        streaks = await self.db.daily.streaks(user_id, self.today())
        if not any(s.best for s in streaks.values()):
            return None
        parts = [render(_streak_text(k, s), locale) for k, s in streaks.items()]
        return Field(render(_("Daily puzzle streaks"), locale), "\n".join(parts))

    # -- the daily post ----------------------------------------------------------------------
    async def posts_due(self, languages: Mapping[int, str]) -> list[tuple[int, int, Screen]]:
        """(server, channel, post) for each server whose daily channel has not had today's post
        yet, in the server's language (``languages`` maps each server to its language in
        Discord; ``/settings language`` comes first). Nothing is marked: the caller marks each
        post with :meth:`mark_posted` once it went, so a post that failed is tried again and a
        bot that was down at midnight posts once when it is back."""
        today = self.today()
        due = []
        for guild_id, fallback in languages.items():
            channel = await self.db.guild_setting(guild_id, CHANNEL_SETTING)
            if not channel:
                continue
            if await self.db.guild_setting(guild_id, POSTED_SETTING) == today.isoformat():
                continue
            locale = await self.db.guild_setting(guild_id, LANGUAGE_SETTING) or fallback
            due.append((guild_id, int(channel), await self.daily_post(guild_id, locale)))
        return due

    async def mark_posted(self, guild_id: int, day: date) -> None:
        """Note that the server's daily post of ``day`` went out."""
        await self.db.set_guild_setting(guild_id, POSTED_SETTING, day.isoformat())

    async def daily_post(self, guild_id: int, locale: str) -> Screen:
        """Today's puzzles with a button to play, and yesterday's solvers in this server."""
        today = self.today()
        yesterday = await self.db.daily.solvers(guild_id, today - timedelta(1))
        names = sorted({a.user_name for a in yesterday})
        text = render(
            _(
                "The daily puzzles of {day} are here: Quarters, Checkers and Quatorze, the same "
                "for everyone. One try each; only you see your board.",
                day=today.isoformat(),
            ),
            locale,
        )
        solvers = render(
            _("Yesterday's solvers: {names}.", names=", ".join(names))
            if names
            else _("Nobody here solved yesterday's puzzles."),
            locale,
        )
        button = Button(render(_("Play today's puzzles"), locale), "overview", Style.PRIMARY)
        return Screen(
            embed=Embed(title=render(_("Daily puzzles"), locale), description=f"{text}\n{solvers}"),
            rows=((button,),),
        )


def _line(kind: str, attempt: Attempt | None) -> Message:
    if attempt is None:
        return _("**{game}**: not played yet.", game=TITLES[kind])
    if attempt.status is AttemptStatus.SOLVED:
        return _("**{game}**: solved.", game=TITLES[kind])
    if attempt.status is AttemptStatus.FAILED:
        return _("**{game}**: not solved this time.", game=TITLES[kind])
    return _("**{game}**: in progress.", game=TITLES[kind])


def _solver_line(n: int, attempt: Attempt) -> Message:
    if attempt.puzzle == QUATORZE:
        return _n(
            "{place}. {name}: {n} hint",
            "{place}. {name}: {n} hints",
            attempt.hints,
            place=n,
            name=attempt.user_name,
        )
    return _n(
        "{place}. {name}: {n} move",
        "{place}. {name}: {n} moves",
        attempt.moves,
        place=n,
        name=attempt.user_name,
    )


def _streak_text(kind: str, streak: Streak) -> Message:
    name: Message | str = _("All three") if kind == "all" else TITLES[kind]
    return _(
        "{name}: {current} now, best {best}", name=name, current=streak.current, best=streak.best
    )


def share_line(attempt: Attempt) -> Message:
    """One spoiler-free line: the puzzle, the day, a row of squares and the count."""
    squares = boards.share_squares(attempt)
    title = TITLES[attempt.puzzle]
    day = attempt.day.isoformat()
    if attempt.puzzle == QUATORZE:
        return _n(
            "Parlour daily {day}, {game}: {squares} {pairs} of 26 pairs, {n} hint",
            "Parlour daily {day}, {game}: {squares} {pairs} of 26 pairs, {n} hints",
            attempt.hints,
            day=day,
            game=title,
            squares=squares,
            pairs=attempt.score,
        )
    return _n(
        "Parlour daily {day}, {game}: {squares} in {n} move",
        "Parlour daily {day}, {game}: {squares} in {n} moves",
        attempt.moves,
        day=day,
        game=title,
        squares=squares,
    )

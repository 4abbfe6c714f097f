"""Sentences several screens share, so a thing is said one way everywhere: the server's
settings (in words with their units, never as the stored names) and the answer when a channel
already has a game. No discord import.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from i18n import Locale, Message, Said, _, _n, _p, lines, render
from i18n.messages import Text

# The games' names as each language says them (the same entries as /game's choices).
GAME_NAMES: Mapping[str, Message] = {
    "Checkers": _p("command choice", "Checkers"),
    "Hearts": _p("command choice", "Hearts"),
    "Kabu": _p("command choice", "Kabu"),
    "Quarters": _p("command choice", "Quarters"),
    "Quatorze": _p("command choice", "Quatorze"),
}


def game_name(title: str) -> Message | str:
    """A game's name (its controller's ``title``) as each language says it."""
    return GAME_NAMES.get(title, title)


# The settings /settings shows, in order, each with its unit.
SETTING_UNITS = {"idle_claim_minutes": "minute", "idle_end_hours": "hour"}


@dataclass(frozen=True, slots=True)
class Versus:
    """The players of a game, seat by seat, "Alice v Computer (expert)": each name in the
    reader's words (a computer seat translated, see :mod:`bot.tables.seats`)."""

    names: tuple[Text, ...]

    def localize(self, locale: Locale) -> str:
        return " v ".join(render(name, locale) for name in self.names)


@dataclass(frozen=True, slots=True)
class Bullet:
    """A whole text as an item of a Markdown list ("- ..."), in any language."""

    text: Text

    def localize(self, locale: Locale) -> str:
        return "- " + render(self.text, locale)


def duration(value: float, unit: str) -> Message:
    """A setting's length of time in its unit, in words: "15 minutes", "1 Stunde", "1,5 horas".

    >>> render(duration(1.5, "hour"), "de"), str(duration(1.0, "hour"))
    ('1,5 Stunden', '1 hour')
    """
    if not value.is_integer():  # a fraction reads as a plural in every language here
        if unit == "minute":
            return _("{value} minutes", value=value)
        return _("{value} hours", value=value)
    if unit == "minute":
        return _n("{n} minute", "{n} minutes", int(value))
    return _n("{n} hour", "{n} hours", int(value))


def setting_sentence(name: str, value: float) -> Message:
    """One server setting as a sentence with its unit.

    >>> str(setting_sentence("idle_claim_minutes", 15.0))
    'The waiting player may claim the win after 15 minutes without a move.'
    """
    time = duration(value, SETTING_UNITS[name])
    if name == "idle_claim_minutes":
        return _("The waiting player may claim the win after {time} without a move.", time=time)
    return _("A game ends by itself after {time} without a move.", time=time)


def stored_setting_sentence(name: str, raw: str) -> Message | None:
    """A server setting as stored, in a sentence for ``/privacy show``; None for the bot's own
    bookkeeping (when a member left, the day of the last daily post).

    >>> str(stored_setting_sentence("daily_channel", "42"))
    'The daily puzzles are posted in <#42>.'
    >>> stored_setting_sentence("daily_posted", "") is None
    True
    """
    if name in SETTING_UNITS:
        return setting_sentence(name, float(raw))
    if name == "daily_channel":
        channel = f"<#{raw}>"  # a channel mention
        return _("The daily puzzles are posted in {channel}.", channel=channel)
    return None


def settings_text(values: Mapping[str, float], changed: Sequence[str] = (), *more: Text) -> Said:
    """What ``/settings`` answers: "Saved" with what changed, then every setting (and the
    ``more`` lines the client adds); English as ``str``, in any language through ``render``.

    >>> print(settings_text({"idle_claim_minutes": 15.0, "idle_end_hours": 24.0},
    ...                     ["idle_claim_minutes"]))
    ✅ Saved: the waiting player may claim the win after 15 minutes without a move.
    Idle games on this server:
    - The waiting player may claim the win after 15 minutes without a move.
    - A game ends by itself after 24 hours without a move.
    """
    said = [_("✅ Saved: {setting:lower}", setting=setting_sentence(n, values[n])) for n in changed]
    shown = [Bullet(setting_sentence(n, values[n])) for n in SETTING_UNITS]
    return Said(lines(*said, _("Idle games on this server:"), *shown, *more))


def busy_text(title: str, players: Sequence[Text]) -> Said:
    """The one answer when a channel already has a game: which game, who plays it, and the
    commands to see or stop it; English as a ``str``, in any language through ``render``.
    ``players``: the seats' names (:func:`bot.tables.seats.seat_name`), said in the reader's
    words.

    >>> print(busy_text("Checkers", ["Alice", "Computer (expert)"]))
    A game of Checkers is already running here (Alice v Computer (expert)). See it with \
`/game show`, or stop it with `/game stop`.
    """
    game = GAME_NAMES.get(title, title)
    if not players:
        return Said(
            _(
                "A game of {game} is already running here. See it with `/game show`, or stop "
                "it with `/game stop`.",
                game=game,
            )
        )
    return Said(
        _(
            "A game of {game} is already running here ({players}). See it with `/game show`, "
            "or stop it with `/game stop`.",
            game=game,
            players=Versus(tuple(players)),
        )
    )


def moved_on(newest: str, lang: str = "en") -> str:
    """What a retired board says once a newer board of its game replaced it, linking to it
    (a masked link: Discord shows the words, not the address), in the channel's ``lang``.

    >>> moved_on("https://discord.com/channels/1/2/3", "de")
    '⏭️ Weitergezogen – hier ist das [neueste Brett](https://discord.com/channels/1/2/3).'
    """
    said = _("Moved on — see the [newest board]({link}).", link=newest)
    return f"⏭️ {render(said, lang)}"

"""Sentences several screens share, so a thing is said one way everywhere: the server's
settings (in words with their units, never as the stored names) and the answer when a channel
already has a game. No discord import.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from i18n import Message, Said, _, _p, render

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


# One sentence a setting, with ``{value}`` in the setting's unit.
SETTING_SENTENCES = {
    "idle_claim_minutes": (
        "The waiting player may claim the win after {value} without a move",
        "minute",
    ),
    "idle_end_hours": ("A game ends by itself after {value} without a move", "hour"),
}


def amount(value: float, unit: str) -> str:
    """``"15 minutes"``, ``"1 hour"``, ``"1.5 hours"``.

    >>> amount(15.0, "minute"), amount(1.0, "hour"), amount(1.5, "hour")
    ('15 minutes', '1 hour', '1.5 hours')
    """
    return f"{value:g} {unit}{'' if value == 1 else 's'}"


def setting_sentence(name: str, value: float) -> str:
    """One server setting as a sentence with its unit (an unknown one: None is never shown).

    >>> setting_sentence("idle_claim_minutes", 15.0)
    'The waiting player may claim the win after 15 minutes without a move.'
    """
    sentence, unit = SETTING_SENTENCES[name]
    return sentence.format(value=amount(value, unit)) + "."


def stored_setting_sentence(name: str, raw: str) -> str | None:
    """A server setting as stored, in a sentence for ``/privacy show``; None for the bot's own
    bookkeeping (when a member left, the day of the last daily post).

    >>> stored_setting_sentence("daily_channel", "42"), stored_setting_sentence("daily_posted", "")
    ('The daily puzzles are posted in <#42>.', None)
    """
    if name in SETTING_SENTENCES:
        return setting_sentence(name, float(raw))
    if name == "daily_channel":
        return f"The daily puzzles are posted in <#{raw}>."
    return None


def settings_text(values: Mapping[str, float], changed: Sequence[str] = ()) -> str:
    """What ``/settings`` answers: "Saved" with what changed, then every setting.

    >>> print(settings_text({"idle_claim_minutes": 15.0, "idle_end_hours": 24.0},
    ...                     ["idle_claim_minutes"]))
    ✅ Saved: the waiting player may claim the win after 15 minutes without a move.
    Idle games on this server:
    - The waiting player may claim the win after 15 minutes without a move.
    - A game ends by itself after 24 hours without a move.
    """
    lines = []
    if changed:
        saved = "; ".join(setting_sentence(name, values[name])[:-1] for name in changed)
        lines.append(f"✅ Saved: {saved[0].lower()}{saved[1:]}.")
    lines.append("Idle games on this server:")
    lines += [f"- {setting_sentence(name, values[name])}" for name in SETTING_SENTENCES]
    return "\n".join(lines)


def busy_text(title: str, players: Sequence[str]) -> Said:
    """The one answer when a channel already has a game: which game, who plays it, and the
    commands to see or stop it; English as a ``str``, in any language through ``render``.

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
            players=" v ".join(players),
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

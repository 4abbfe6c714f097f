"""What a member is told about their data: the words of ``/privacy``, from
:func:`storage.privacy.member_data`'s export (no Discord types here)."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from bot.tables.wording import stored_setting_sentence
from i18n import _, render

LIMIT = 2000
IN_CHAT = _("What Parlour stores about you in this chat:")
OUTSIDE = _(
    "What Parlour stores about you outside servers (your DMs with Parlour and your group chats):"
)


def _heading(data: dict[str, Any], locale: str) -> str:
    """The summary's first line: the export's place (a server, a chat, everything outside)."""
    place = data.get("place", "server")
    if place == "server":
        return "What Parlour stores about you on this server:"
    return render(IN_CHAT if place == "chat" else OUTSIDE, locale)


def export_heading(data: dict[str, Any], locale: str = "en") -> str:
    """The line above the downloaded JSON file."""
    if data.get("place", "server") == "server":
        return "Everything Parlour stores about you on this server:"
    return _heading(data, locale)


def summary(data: dict[str, Any], locale: str = "en") -> str:
    """A short private summary of a member's export.

    >>> summary({"games": [], "results": [], "ratings": [], "server_settings": {}})[:47]
    'What Parlour stores about you on this server:\\n-'
    """
    games = data["games"]
    lines = [_heading(data, locale)]
    if games:
        by_status = Counter(g["status"] for g in games)
        kinds = Counter(g["game"] for g in games)
        lines.append(
            f"- **Games**: {len(games)} table(s) with your seat or started by you ("
            + ", ".join(f"{n} {kind}" for kind, n in sorted(kinds.items()))
            + "; "
            + ", ".join(f"{n} {status}" for status, n in sorted(by_status.items()))
            + "). Each keeps its seats' names and the game's moves."
        )
    else:
        lines.append("- **Games**: none.")
    results = data["results"]
    if results:
        by_game = Counter(r["game"] for r in results)
        lines.append(
            f"- **Results**: {len(results)} ("
            + ", ".join(f"{n} {kind}" for kind, n in sorted(by_game.items()))
            + "), with your name at the time, outcome, points and rating change."
        )
    else:
        lines.append("- **Results**: none.")
    if data["ratings"]:
        lines.append(
            "- **Ratings**: "
            + ", ".join(
                f"{r['game']} {r['rating']:.0f} ({r['rated_games']} rated game(s))"
                for r in data["ratings"]
            )
            + "."
        )
    else:
        lines.append("- **Ratings**: none.")
    lines.append("- **Your settings**: Parlour keeps none for members.")
    settings = data["server_settings"]
    said = [stored_setting_sentence(k, str(v)) for k, v in sorted(settings.items())]
    if any(said):
        lines.append(
            "- **This server's settings** (not yours, but used for your games): "
            + " ".join(sentence for sentence in said if sentence)
        )
    lines.append(
        "**Download JSON** gives you all of it as a file. `/privacy forget` erases your "
        'results and ratings here; your seats in past games then read "a former member".'
    )
    return "\n".join(lines)[:LIMIT]


def export_file(data: dict[str, Any]) -> bytes:
    """The export as the JSON file a member downloads."""
    return json.dumps(data, indent=2, ensure_ascii=False).encode()


def forget_question(data: dict[str, Any], locale: str = "en") -> str:
    """The confirmation asked before ``/privacy forget``."""
    results, ratings = len(data["results"]), len(data["ratings"])
    if data.get("place") == "chat":
        question = _(
            "This erases your **{results} result(s)** and **{ratings} rating(s)** in this chat, "
            "for good. Other members' scores do not change; your seats in past games will read "
            '"a former member". Go ahead?',
            results=results,
            ratings=ratings,
        )
        return render(question, locale)
    if data.get("place") == "dm":
        question = _(
            "This erases your **{results} result(s)** and **{ratings} rating(s)** outside "
            "servers (your DMs with Parlour and your group chats), for good. Other members' "
            'scores do not change; your seats in past games will read "a former member". '
            "Go ahead?",
            results=results,
            ratings=ratings,
        )
        return render(question, locale)
    return (
        f"This erases your **{len(data['results'])} result(s)** and **{len(data['ratings'])} "
        "rating(s)** on this server, for good. Other members' scores do not change; your "
        'seats in past games will read "a former member". Go ahead?'
    )


def forgotten(
    results: int, ratings: int, tables: int, place: str = "server", locale: str = "en"
) -> str:
    """What ``/privacy forget`` erased (outside servers: in the chat, or from the DM)."""
    if place != "server":
        done = _(
            "Done: {results} result(s) and {ratings} rating(s) erased; your name was taken off "
            "{tables} past game(s).",
            results=results,
            ratings=ratings,
            tables=tables,
        )
        return render(done, locale)
    return (
        f"Done: {results} result(s) and {ratings} rating(s) erased; your name was taken off "
        f"{tables} past game(s) on this server."
    )


ERASE_QUESTION = (
    "This erases **all of Parlour's data on this server**: every game (open ones stop at "
    "once), every result, rating and setting, for every member. It cannot be undone. Go ahead?"
)


def erased(tables: int, results: int, ratings: int) -> str:
    return (
        f"Done: this server's {tables} game(s), {results} result(s) and {ratings} rating(s) "
        "were erased."
    )

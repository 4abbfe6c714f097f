"""What a member is told about their data: the words of ``/privacy``, from
:func:`storage.privacy.member_data`'s export (no Discord types here). Each text is a lazy
message (English as ``str``), rendered in the member's language by the client."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable
from typing import Any

from bot.tables.registry import specs
from bot.tables.wording import GAME_NAMES, stored_setting_sentence
from i18n import Message, Said, _, _n, lines, sentences
from i18n.formats import Listing
from i18n.messages import Text


def _statuses(counter: Counter[str]) -> Listing:
    """``2 being played, 1 finished``: the member's tables by what became of them."""
    said = {
        "challenge": lambda n: _n("{n} waiting", "{n} waiting", n),
        "active": lambda n: _n("{n} being played", "{n} being played", n),
        "finished": lambda n: _n("{n} finished", "{n} finished", n),
        "stopped": lambda n: _n("{n} stopped", "{n} stopped", n),
    }
    return Listing(tuple(said[key](n) for key, n in sorted(counter.items()) if key in said))


def game_name(kind: str) -> Message | str:
    """A game's name in each language, by its kind as stored."""
    spec = specs().get(kind)
    title = spec.title if spec is not None else kind
    return GAME_NAMES.get(title, title)


def _by_game(counter: Counter[str], say: Callable[[int, Text], Message]) -> Listing:
    """``Quarters: 2 tables, Checkers: 1 table``: how many of each game."""
    return Listing(tuple(say(n, game_name(kind)) for kind, n in sorted(counter.items())))


def _tables(n: int, game: Text) -> Message:
    return _n("{game}: {n} table", "{game}: {n} tables", n, game=game)


def _results(n: int, game: Text) -> Message:
    return _n("{game}: {n} result", "{game}: {n} results", n, game=game)


def _games_line(games: list[dict[str, Any]]) -> Message:
    if not games:
        return _("- **Games**: none.")
    return _n(
        "- **Games**: {n} table with your seat or started by you ({games}; {statuses}). It "
        "keeps its seats' names and the game's moves.",
        "- **Games**: {n} tables with your seat or started by you ({games}; {statuses}). "
        "Each keeps its seats' names and the game's moves.",
        len(games),
        games=_by_game(Counter(g["game"] for g in games), _tables),
        statuses=_statuses(Counter(g["status"] for g in games)),
    )


def _results_line(results: list[dict[str, Any]]) -> Message:
    if not results:
        return _("- **Results**: none.")
    return _(
        "- **Results**: {n} ({games}), with your name at the time, outcome, points and rating "
        "change.",
        n=len(results),
        games=_by_game(Counter(r["game"] for r in results), _results),
    )


def _ratings_line(ratings: list[dict[str, Any]]) -> Message:
    if not ratings:
        return _("- **Ratings**: none.")
    each = tuple(_rating(r["game"], float(r["rating"]), int(r["rated_games"])) for r in ratings)
    return _("- **Ratings**: {ratings}.", ratings=Listing(each))


def _rating(kind: str, rating: float, games: int) -> Message:
    elo = str(round(rating))  # an Elo rating has no thousands separator in any language
    return _n(
        "{game} {rating} ({n} rated game)",
        "{game} {rating} ({n} rated games)",
        games,
        game=game_name(kind),
        rating=elo,
    )


def heading(data: dict[str, Any]) -> Message:
    """The summary's (and the file's) first line: the export's place: a server, a chat, or
    from the DM everything outside servers."""
    place = data.get("place", "server")
    if place == "chat":
        return _("What Parlour stores about you in this chat:")
    if place == "dm":
        return _(
            "What Parlour stores about you outside servers (your DMs with Parlour and your "
            "group chats):"
        )
    return _("What Parlour stores about you on this server:")


def summary(data: dict[str, Any]) -> Said:
    """A short private summary of a member's export (English as ``str``).

    >>> summary({"games": [], "results": [], "ratings": [], "server_settings": {}})[:47]
    'What Parlour stores about you on this server:\\n-'
    """
    settings = data["server_settings"]
    said = [stored_setting_sentence(k, str(v)) for k, v in sorted(settings.items())]
    server = None
    if any(said):
        server = _(
            "- **This server's settings** (not yours, but used for your games): {settings}",
            settings=sentences(*said),
        )
    return Said(
        lines(
            heading(data),
            _games_line(data["games"]),
            _results_line(data["results"]),
            _ratings_line(data["ratings"]),
            _("- **Your settings**: Parlour keeps none for members."),
            server,
            _(
                "**Download JSON** gives you all of it as a file. `/privacy forget` erases your "
                'results and ratings here; your seats in past games then read "a former member".'
            ),
        )
    )


def export_file(data: dict[str, Any]) -> bytes:
    """The export as the JSON file a member downloads."""
    return json.dumps(data, indent=2, ensure_ascii=False).encode()


def forget_question(data: dict[str, Any]) -> Message:
    """The confirmation asked before ``/privacy forget`` (in a chat: its rows; from the DM:
    every row of the member outside servers)."""
    results = results_count(len(data["results"]))
    ratings = ratings_count(len(data["ratings"]))
    if data.get("place") == "chat":
        return _(
            "This erases your **{results}** and **{ratings}** in this chat, for good. Other "
            "members' scores do not change; your seats in past games will read \"a former "
            'member". Go ahead?',
            results=results,
            ratings=ratings,
        )
    if data.get("place") == "dm":
        return _(
            "This erases your **{results}** and **{ratings}** outside servers (your DMs with "
            "Parlour and your group chats), for good. Other members' scores do not change; your "
            'seats in past games will read "a former member". Go ahead?',
            results=results,
            ratings=ratings,
        )
    return _(
        "This erases your **{results}** and **{ratings}** on this server, for good. Other "
        'members\' scores do not change; your seats in past games will read "a former member". '
        "Go ahead?",
        results=results_count(len(data["results"])),
        ratings=ratings_count(len(data["ratings"])),
    )


def results_count(n: int) -> Message:
    return _n("{n} result", "{n} results", n)


def ratings_count(n: int) -> Message:
    return _n("{n} rating", "{n} ratings", n)


def forgotten(results: int, ratings: int, tables: int, place: str = "server") -> Message:
    """What ``/privacy forget`` did (``place``: where it was asked, as the export names it)."""
    if place != "server":
        return _n(
            "Done: {results} and {ratings} erased; your name was taken off {n} past game.",
            "Done: {results} and {ratings} erased; your name was taken off {n} past games.",
            tables,
            results=results_count(results),
            ratings=ratings_count(ratings),
        )
    return _n(
        "Done: {results} and {ratings} erased; your name was taken off {n} past game on this "
        "server.",
        "Done: {results} and {ratings} erased; your name was taken off {n} past games on this "
        "server.",
        tables,
        results=results_count(results),
        ratings=ratings_count(ratings),
    )


ERASE_QUESTION = _(
    "This erases **all of Parlour's data on this server**: every game (open ones stop at "
    "once), every result, rating and setting, for every member. It cannot be undone. Go ahead?"
)


def erased(tables: int, results: int, ratings: int) -> Message:
    """What ``/privacy erase-server`` did."""
    return _n(
        "Done: this server's {n} game, {results} and {ratings} were erased.",
        "Done: this server's {n} games, {results} and {ratings} were erased.",
        tables,
        results=results_count(results),
        ratings=ratings_count(ratings),
    )


def still_playing(channels: list[int]) -> Message:
    """Why a member who is in an open game cannot be forgotten yet."""
    return _(
        "Finish, resign or leave your open game first: {channels}.",
        channels=Listing(tuple(f"<#{channel}>" for channel in channels)),
    )

"""Every game's table texts in the table's language (issue 46): move and result lines, boards,
lobbies, hints, scores, buttons and menus, played through the table service with a Japanese
and a German table, and no English source text of the tables left in what members read.

"English left" is a word of the tables' English sources (``bot/tables``) that no translation
in that language holds (names, notation and words spelt the same, "Computer" in German, drop
out by themselves)."""

from __future__ import annotations

import re
import string
from functools import cache

import pytest
from babel.messages.pofile import read_po
from support import CHANNEL, GUILD

from bot.tables.core.events import Answer
from bot.tables.screens import Screen, Select
from bot.tables.seats import seat_name
from bot.tables.service import Member
from games.base import IllegalAction
from games.checkers.state import OFFER_DRAW
from i18n import render
from i18n.limits import LABEL_MAX, OPTIONS_MAX, TEXT_MAX
from i18n.translations import catalogue_path

LANGS = ("ja", "de")


@pytest.fixture
async def db_path(tmp_path):
    """SQLite only: what the tables say does not depend on the back-end."""
    yield tmp_path / "parlour.db"


def words(text: str) -> set[str]:
    """The words of a text a member reads: no `code`, no {placeholders}, no mentions."""
    kept = "".join(part for i, part in enumerate(text.split("`")) if i % 2 == 0)
    kept = "".join(literal for literal, *_rest in string.Formatter().parse(kept.replace("}}", "")))
    return {w.lower() for w in re.findall(r"[A-Za-z]{3,}", kept)}


@cache
def english_only(code: str) -> frozenset[str]:
    """Words of the tables' English texts that no translation in ``code`` holds."""
    with open(catalogue_path(code), "rb") as fh:
        catalogue = read_po(fh, locale=code)
    source: set[str] = set()
    translated: set[str] = set()
    for message in catalogue:
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        forms = message.string if isinstance(message.string, tuple) else (message.string,)
        if any(path.startswith("bot/tables/") for path, _line in message.locations):
            source |= {w for text in ids for w in words(text)}
        translated |= {w for text in forms for w in words(text)}
    return frozenset(source - translated - {"alice"})


def screen_texts(screen: Screen | None) -> list[tuple[str, str]]:
    """(kind, text) of everything a member reads on a screen but its pictures (their words
    are the pictures' own, tested with them)."""
    if screen is None:
        return []
    found = [("content", screen.content)]
    if screen.embed is not None:
        embed = screen.embed
        found += [("embed", t) for t in (embed.title, embed.description, embed.footer)]
        found += [("embed", t) for f in embed.fields for t in (f.name, f.value)]
    for row in screen.rows:
        if isinstance(row, Select):
            assert len(row.options) <= OPTIONS_MAX
            found.append(("placeholder", row.placeholder))
            found += [("option", o.label) for o in row.options]
            found += [("option", o.description or "") for o in row.options]
        else:
            found += [("button", b.label) for b in row]
    return [(kind, text) for kind, text in found if text]


class Seen:
    """Everything the tables said, by language."""

    def __init__(self, service, lang: str, channel: int) -> None:
        self.service, self.lang = service, lang
        self.who = Member(1, "Alice", GUILD, channel, channel_lang=lang, locale=lang)
        self.texts: list[tuple[str, str]] = []

    def saw(self, reply: Answer) -> Answer:
        assert reply.error is None, reply.error
        for screen in (reply.board, reply.private, *reply.posts):
            self.texts += screen_texts(screen)
        return reply

    async def start(self, kind: str, options: dict) -> Answer:
        return self.saw(await self.service.start(self.who, kind, options))

    async def act(self, reply: Answer, action: str, *, any_version: bool = False) -> Answer:
        version = None if any_version else reply.version
        answer = self.saw(await self.service.act(self.who, reply.table_id, version, action))
        if answer.ai_next:
            answer = self.saw(await self.service.play_computer(answer.table_id) or answer)
        return answer


async def play_every_game(service, lang: str) -> Seen:
    seen = Seen(service, lang, CHANNEL + 1)
    quarters = await seen.start("quarters", {"level": "beginner"})
    quarters = await seen.act(quarters, "c=1.1")
    quarters = await seen.act(quarters, "remove")  # and the computer's reply
    await seen.act(quarters, "secret", any_version=True)
    await seen.act(quarters, "resign", any_version=True)

    seen.who = Member(1, "Alice", GUILD, CHANNEL + 2, channel_lang=lang, locale=lang)
    piles = await seen.start("quarters", {"level": "beginner", "piles": "9,2"})
    await seen.act(piles, "pile=1")  # the menus of big piles

    seen.who = Member(1, "Alice", GUILD, CHANNEL + 3, channel_lang=lang, locale=lang)
    checkers = await seen.start("checkers", {"color": "black", "level": "beginner"})
    checkers = await seen.act(checkers, "m=11-15")
    checkers = await seen.act(checkers, f"m={OFFER_DRAW}")
    await seen.act(checkers, "record", any_version=True)
    await seen.act(checkers, "resign", any_version=True)

    seen.who = Member(1, "Alice", GUILD, CHANNEL + 4, channel_lang=lang, locale=lang)
    kabu = await seen.start("kabu", {})
    kabu = await seen.act(kabu, "deal")
    kabu = await seen.act(kabu, "m=pick-3")
    await seen.act(kabu, "hint")
    await seen.act(kabu, "m=stand")

    seen.who = Member(1, "Alice", GUILD, CHANNEL + 5, channel_lang=lang, locale=lang)
    quatorze = await seen.start("quatorze", {})
    await seen.act(quatorze, "hint")
    await seen.act(quatorze, "give-up")

    seen.who = Member(1, "Alice", GUILD, CHANNEL + 6, channel_lang=lang, locale=lang)
    hearts = await seen.start("hearts", {"level": "beginner", "delay": 0})
    hearts = await seen.act(hearts, "start")
    await seen.act(hearts, "scores", any_version=True)
    await seen.act(hearts, "hand", any_version=True)
    await seen.act(hearts, "resign", any_version=True)  # the last member: the game ends
    return seen


@pytest.mark.parametrize("lang", LANGS)
async def test_every_games_table_texts_are_in_the_tables_language(service, lang):
    seen = await play_every_game(service, lang)
    kinds = {kind for kind, _text in seen.texts}
    assert kinds >= {"content", "embed", "placeholder", "option", "button"}
    left = [
        (kind, text, sorted(words(text) & english_only(lang)))
        for kind, text in seen.texts
        if words(text) & english_only(lang)
    ]
    assert left == [], "\n".join(map(repr, left))
    for kind, text in seen.texts:  # Discord's limits hold in every language
        if kind == "button":
            assert len(text) <= LABEL_MAX, text
        elif kind in ("placeholder", "option"):
            assert len(text) <= TEXT_MAX, text
        else:
            assert len(text) <= 2000, text


@pytest.mark.parametrize("lang", LANGS)
async def test_refusals_are_in_the_members_language(service, lang):
    """The tables' refusals read in the member's own language (the channel reads English here),
    with no English left: a quarters coin, not your turn, not seated, a lobby's, a replay's,
    and the busy channel's answer naming the computer seat in the member's words."""
    place = CHANNEL + 7
    alice = Member(1, "Alice", GUILD, place, channel_lang="en", locale=lang)
    bob = Member(2, "Bob", GUILD, place, channel_lang="en", locale=lang)
    refused = []
    quarters = await service.start(alice, "quarters", {"level": "beginner"})
    game, version = quarters.table_id, quarters.version
    refused.append((await service.act(alice, game, version, "remove")).error)  # no coin picked
    refused.append((await service.act(alice, game, version, "take")).error)  # no pile chosen
    picked = await service.act(alice, game, version, "c=1.1")
    moved = await service.act(alice, game, picked.version, "remove")
    assert moved.ai_next  # the computer's turn: not Alice's
    refused.append((await service.act(alice, game, moved.version, "c=1.1")).error)
    refused.append((await service.claim(bob)).error)  # Bob is not seated
    busy = (await service.start(bob, "checkers", {})).error

    lobby = Member(1, "Alice", GUILD, place + 1, channel_lang="en", locale=lang)
    guest = Member(2, "Bob", GUILD, place + 1, channel_lang="en", locale=lang)
    hearts = await service.start(lobby, "hearts", {"level": "beginner", "delay": 0})
    refused.append((await service.act(lobby, hearts.table_id, hearts.version, "join")).error)
    joined = await service.act(guest, hearts.table_id, hearts.version, "join")
    refused.append((await service.act(guest, hearts.table_id, joined.version, "start")).error)
    with pytest.raises(IllegalAction) as replay:
        await service.pictures.last_finished(GUILD, place + 2, "hearts")

    english = [
        "Select one or more coins of a pile first.",
        "Choose a pile first.",
        "It is not your turn.",
        "You are not seated at this table.",
        "You already have a seat at this table.",
        "Only the host can do that: Alice opened this table.",
        "No game of Hearts has been played in this channel yet.",
    ]
    assert [*refused, str(replay.value)] == english
    for refusal in [*refused, replay.value.phrase, busy]:
        assert refusal is not None
        said = render(refusal, lang)
        assert said != str(refusal) and not words(said) & english_only(lang), said
    running = await service.channel_table(place)
    assert running is not None
    computer = render(seat_name(next(s for s in running.seats if s.is_ai)), lang)
    assert computer in render(busy, lang) and "Computer (beginner)" in str(busy)

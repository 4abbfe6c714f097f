"""The answers of the non-game commands in every language (issue 46): /rules, /settings,
/privacy, /scoreboard and /stats, as the commands build them, with no English sentence left and
within Discord's limits."""

from __future__ import annotations

import pytest
from i18n_support import english_left

from bot.client.commands import THREADS
from bot.client.privacy_commands import LABELS
from bot.ops import privacy as words
from bot.tables.core import standings
from bot.tables.registry import specs
from bot.tables.service import TableService
from bot.tables.wording import GAME_NAMES, Bullet, settings_text
from i18n import LANGUAGES, Text, render
from storage.models import Standing

CONTENT = 2000  # Discord's limits: a message's content, an embed's parts and its whole
TITLE, DESCRIPTION, FIELD_NAME, FIELD_VALUE, EMBED = 256, 4096, 256, 1024, 6000
ALL = [language.code for language in LANGUAGES]
OTHERS = ["ja", "de"]

EXPORT = {  # what storage.privacy.member_data gives for a member with a little of everything
    "games": [
        {"game": "quarters", "status": "finished"},
        {"game": "checkers", "status": "active"},
        {"game": "hearts", "status": "stopped"},
        {"game": "kabu", "status": "challenge"},
    ],
    "results": [{"game": "quarters"}, {"game": "quarters"}, {"game": "checkers"}],
    "ratings": [{"game": "checkers", "rating": 1216.4, "rated_games": 1}],
    "server_settings": {
        "idle_claim_minutes": "15.0",
        "idle_end_hours": "1.5",
        "daily_channel": "42",
        "daily_posted": "2026-12-07",
    },
}


def said_in(text: Text, code: str) -> str:
    said = render(text, code)
    assert len(said) <= CONTENT, (code, len(said))
    if code != "en":
        assert english_left(render(text, "en"), said) == [], (code, said)
    return said


@pytest.mark.parametrize("code", ALL)
def test_the_rules_of_every_game_in_every_language_fit_one_message(code):
    for kind, spec in specs().items():
        said = said_in(spec.rules, code)
        assert said.count("\n") == render(spec.rules, "en").count("\n"), kind  # every rule
        assert said.startswith("**"), kind  # the game's name first, in bold


@pytest.mark.parametrize("code", OTHERS)
def test_privacy_answers_and_buttons_are_in_the_members_language(code):
    answers = [
        words.summary(EXPORT),
        words.summary({"games": [], "results": [], "ratings": [], "server_settings": {}}),
        words.forget_question(EXPORT),
        words.forgotten(3, 1, 4),
        words.forgotten(1, 0, 1),
        words.summary({**EXPORT, "place": "chat", "server_settings": {}}),
        words.summary({**EXPORT, "place": "dm", "server_settings": {}}),
        words.forget_question({**EXPORT, "place": "chat"}),
        words.forget_question({**EXPORT, "place": "dm"}),
        words.forgotten(3, 1, 4, "dm"),
        words.ERASE_QUESTION,
        words.erased(12, 30, 5),
        words.still_playing([101, 102]),
    ]
    for answer in answers:
        said_in(answer, code)
    summary = render(words.summary(EXPORT), code)
    assert "<#42>" in summary and "1216" in summary  # the channel and the Elo as they are
    assert {"ja": "15 分", "de": "15 Minuten"}[code] in summary
    for label in LABELS.values():
        assert 1 <= len(render(label, code)) <= 80 and render(label, code) != str(label)


@pytest.mark.parametrize("code", OTHERS)
def test_the_settings_answer_is_in_the_members_language(code):
    values = {"idle_claim_minutes": 90.0, "idle_end_hours": 1.0}
    answer = settings_text(values, ["idle_claim_minutes"], Bullet(THREADS[True]))
    said = said_in(answer, code)
    assert said.startswith("✅") and said.count("\n- ") == 3
    assert {"ja": "90 分", "de": "90 Minuten"}[code] in said
    assert {"ja": "1 時間", "de": "1 Stunde"}[code] in said


def standing(user_id: int, name: str, games: int, wins: int) -> Standing:
    extra = {"hands": 4 * games, "moons": 1}
    rating = 1200.0 + 10 * wins
    return Standing(user_id, name, games, wins, games - wins, 0, 30, 40, rating, extra)


def assert_fits(embed) -> None:
    assert len(embed.title) <= TITLE and len(embed.description) <= DESCRIPTION
    assert all(len(f.name) <= FIELD_NAME and len(f.value) <= FIELD_VALUE for f in embed.fields)
    parts = [embed.title, embed.description, embed.footer]
    parts += [text for f in embed.fields for text in (f.name, f.value)]
    assert sum(len(p) for p in parts) <= EMBED


@pytest.mark.parametrize("code", OTHERS)
async def test_scoreboard_and_record_are_in_the_channels_language(code, service: TableService):
    rows = [standing(i, f"Kim{i}", 20 + i, i) for i in range(1, 25)]  # more than it shows
    for kind, controller in service.controllers.items():
        for found in (rows, []):
            ours = standings.scoreboard(controller, found, code).embed
            english = standings.scoreboard(controller, found, "en").embed
            assert_fits(ours)
            assert english_left(english.title, ours.title) == [], kind
            assert english_left(english.description, ours.description) == [], kind
            assert [f.name for f in ours.fields] != [f.name for f in english.fields] or not found
        ours = standings.record(service.controllers, {kind: rows[0]}, "Alice", code).embed
        english = standings.record(service.controllers, {kind: rows[0]}, "Alice", "en").embed
        assert_fits(ours)
        assert english_left(english.fields[0].value, ours.fields[0].value) == [], kind
        assert ours.fields[0].name == render(GAME_NAMES[controller.title], code)
    ours = standings.record(service.controllers, {}, "Alice", code).embed
    english = standings.record(service.controllers, {}, "Alice", "en").embed
    assert english_left(english.description, ours.description) == []
    board = standings.scoreboard(service.controllers["checkers"], rows, code).embed.description
    assert "1440" in board  # an Elo rating with no thousands separator, in every language

"""The slash commands in every language: the translator over the catalogues, fed the real
command tree, gives Discord only localizations it accepts."""

from __future__ import annotations

import functools
import logging
from collections.abc import Iterator
from typing import Any

import discord
from babel.messages.catalog import Catalog
from discord.app_commands import TranslationContextLocation as Where

from bot.client.translator import (
    CatalogueTranslator,
    command_strings,
    command_tree,
    localization,
)
from i18n import ENGLISH, LANGUAGES, limits
from i18n.translations import compiled, read_catalogue

OTHERS = [language for language in LANGUAGES if language is not ENGLISH]
# Every Discord locale that reads one of our languages other than English.
LOCALIZED = {code for language in OTHERS for code in language.discord}


@functools.cache
def tree() -> discord.app_commands.CommandTree[Any]:
    return command_tree()


def pseudo(code: str, context: str, text: str) -> str:
    """A stand-in translation that looks unlike English and is as long as real ones get."""
    if context == limits.NAME:
        return f"{text}-{code.lower()}"[: limits.NAME_MAX]
    return f"[{code}] {text} ·····"[: limits.TEXT_MAX]


def pseudo_lookups(broken: dict[str, str]) -> dict[str, Any]:
    lookups = {}
    for language in OTHERS:
        made = Catalog(locale=language.code, domain="parlour", fuzzy=False)
        for item in command_strings(tree()):
            text = broken.get(item.text) or pseudo(language.code, item.context, item.text)
            made.add(item.text, text, context=item.context)
        lookups[language.code] = compiled(made)
    return lookups


def localizations(payload: dict[str, Any], path: str = "") -> Iterator[tuple[str, str, dict]]:
    """(where, kind, localizations) for every name, description and choice in a payload."""
    where = f"{path} {payload['name']}".strip()
    yield where, "name", payload.get("name_localizations") or {}
    if "description" in payload:
        yield where, "description", payload.get("description_localizations") or {}
    for choice in payload.get("choices", ()):
        yield f"{where} {choice['name']}", "choice", choice.get("name_localizations") or {}
    for option in payload.get("options", ()):
        yield from localizations(option, where)


async def test_the_real_tree_synced_in_every_language(caplog):
    broken = {  # translations Discord would refuse: each is dropped, the English stays
        "start": "Neues Spiel",
        "How to play one of the games.": "x" * 101,
    }
    lookups = pseudo_lookups(broken)
    translator = CatalogueTranslator(lookup=lambda code: lookups[code])
    with caplog.at_level(logging.WARNING, "parlour.i18n"):
        payloads = [
            await command.get_translated_payload(tree(), translator)
            for command in tree().get_commands()
        ]
    assert {p["name"] for p in payloads} >= {"quarters", "checkers", "kabu", "hearts", "rules"}
    seen = 0
    for payload in payloads:
        for where, kind, found in localizations(payload):
            rule = limits.name_problem if kind == "name" else limits.text_problem
            assert all(rule(text) is None for text in found.values()), (where, found)
            english = where.split()[-1]
            if (kind, english) == ("name", "start") or (where, kind) == ("rules", "description"):
                assert found == {}, where  # the broken ones: English everywhere
                continue
            assert set(found) == LOCALIZED, (where, kind)
            assert found["ja"] != found["fr"]
            seen += 1
    assert seen > 100
    assert "dropped the ja translation of 'start': 'Neues Spiel' has a space" in caplog.text
    assert "'xxxx" in caplog.text and "101 characters long" in caplog.text


def test_an_english_or_unknown_locale_or_a_missing_translation_keeps_the_english():
    assert localization("start", "en-US", Where.command_name) is None
    assert localization("start", "ko", Where.command_name) is None
    # a name kept in a language (French players say Kabu too): no localization for it
    assert localization("kabu", "fr", Where.group_name) is None
    assert localization("quarters", "ja", Where.group_name) == "クォーターズ"
    assert localization("start", "es-419", Where.command_name) == "empezar"


def test_every_command_string_is_in_every_catalogue():
    strings = {(item.context, item.text) for item in command_strings(tree())}
    assert len(strings) > 80
    for language in OTHERS:
        catalogue = read_catalogue(language.code)
        missing = {key for key in strings if catalogue.get(key[1], key[0]) is None}
        assert missing == set(), language.code


def test_the_english_command_strings_keep_discords_rules():
    for item in command_strings(tree()):
        assert limits.problem(item.context, item.text) is None, item

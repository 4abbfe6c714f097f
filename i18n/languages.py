"""The languages Parlour speaks, and how a Discord locale code finds one.

Discord sends a member's ``locale`` and a server's ``guild_locale`` as codes such as ``en-US``,
``es-419`` or ``pt-BR`` (``str(discord.Locale.japanese) == "ja"``). :func:`resolve` turns any
such code into a :class:`Locale`: the :class:`Language` whose catalogue the texts come from,
and the Babel locale that formats numbers, dates and lists (so ``en-GB`` reads English texts
with British dates, ``es-419`` Spanish texts with Latin American numbers). A code Parlour does
not speak resolves to English, texts and formats alike.

>>> resolve("es-419").language.code, str(resolve("es-419").formats)
('es', 'es_419')
>>> resolve("ko").language is ENGLISH, str(resolve("ko").formats)
(True, 'en')
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import babel


@dataclass(frozen=True, slots=True)
class Language:
    """One language Parlour speaks.

    ``code`` names its catalogue (``i18n/locales/<code>/``) and is a Babel locale; ``discord``
    lists the Discord locale codes that read it; ``sentence_gap`` goes between two sentences
    (a space, or nothing in Japanese, whose sentences end with 。).
    """

    code: str
    name: str  # in the language itself, for menus that offer it
    discord: tuple[str, ...]
    sentence_gap: str = " "


ENGLISH = Language("en", "English", ("en-US", "en-GB"))

# Adding a language: one line here, a catalogue and a glossary (docs/translating.md).
LANGUAGES: tuple[Language, ...] = (
    ENGLISH,
    Language("ja", "日本語", ("ja",), sentence_gap=""),
    Language("fr", "Français", ("fr",)),
    Language("de", "Deutsch", ("de",)),
    Language("es", "Español", ("es-ES", "es-419")),
    Language("pt_BR", "Português do Brasil", ("pt-BR",)),
)


@dataclass(frozen=True, slots=True)
class Locale:
    """What a text is rendered for: the language of its words and the Babel locale of its
    numbers, dates and lists."""

    language: Language
    formats: babel.Locale

    def __str__(self) -> str:
        return str(self.formats)


def _key(code: str) -> str:
    return code.strip().replace("_", "-").lower()


_BY_CODE: dict[str, Language] = {
    _key(code): language
    for language in LANGUAGES
    for code in (language.code, language.code.split("_")[0], *language.discord)
}


@functools.cache
def resolve(code: str) -> Locale:
    """The :class:`Locale` for a Discord locale code (``ja``, ``es-419``), one of ours
    (``pt_BR``) or a Babel one; English for anything Parlour does not speak.

    >>> resolve("pt-BR").language.code, resolve("en-GB").formats.territory
    ('pt_BR', 'GB')
    """
    key = _key(code)
    language = _BY_CODE.get(key) or _BY_CODE.get(key.split("-")[0]) or ENGLISH
    try:
        formats = babel.Locale.parse(key.replace("-", "_"))
    except (ValueError, babel.UnknownLocaleError):
        formats = babel.Locale.parse(language.code)
    if formats.language != babel.Locale.parse(language.code).language:
        formats = babel.Locale.parse(language.code)  # an unknown language reads English
    return Locale(language, formats)


def language_of(code: str) -> Language:
    """The :class:`Language` of a locale code (see :func:`resolve`).

    >>> language_of("es-ES").name, language_of("sv-SE").name
    ('Español', 'English')
    """
    return resolve(code).language

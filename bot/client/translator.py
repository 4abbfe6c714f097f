"""The slash commands in every language Parlour speaks: an ``app_commands.Translator`` over
the catalogues, and the command strings for them.

discord.py hands every command, group and option name, description and choice name to the
tree's translator for each Discord locale when it builds the sync payload. The catalogues
hold them under the contexts of :mod:`i18n.limits` (a name, a description, a choice), so
"start" the command and "Start" the button are separate entries. A translation that breaks
Discord's rules would make Discord refuse the whole sync: it is dropped (the English is kept)
and logged; ``python -m i18n.catalogues check`` fails on it long before.

The command strings need no marking in the code: :func:`extract`, the extraction method
``i18n/babel.cfg`` names for ``bot/client``, reads them from the tree the bot installs
(:func:`command_tree`), besides the texts marked with ``_()`` in those files.
"""

from __future__ import annotations

import functools
import gettext
import inspect
import logging
from collections.abc import Callable, Collection, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, cast

import discord
from babel.messages.extract import extract_python
from discord import app_commands
from discord.app_commands import TranslationContextLocation as Where

from i18n import limits
from i18n.languages import ENGLISH, resolve
from i18n.translations import translations

log = logging.getLogger("parlour.i18n")

CONTEXTS: Mapping[Where, str] = {
    Where.command_name: limits.NAME,
    Where.group_name: limits.NAME,
    Where.parameter_name: limits.NAME,
    Where.command_description: limits.DESCRIPTION,
    Where.group_description: limits.DESCRIPTION,
    Where.parameter_description: limits.DESCRIPTION,
    Where.choice_name: limits.CHOICE,
}

Lookup = Callable[[str], gettext.NullTranslations]


def localization(text: str, locale: str, where: Where, lookup: Lookup = translations) -> str | None:
    """``text`` (a command string found at ``where``) in the language of the Discord locale
    ``locale``; None where Discord should show the English: an English locale, a language
    Parlour does not speak, no translation yet, or one Discord would refuse.

    >>> localization("start", "en-GB", Where.command_name) is None
    True
    """
    language = resolve(locale).language
    if language is ENGLISH:
        return None
    context = CONTEXTS.get(where)
    found = lookup(language.code)
    translated = found.pgettext(context, text) if context else found.gettext(text)
    if translated == text:
        return None
    problem = limits.problem(context, translated)
    if problem:
        log.warning("dropped the %s translation of %r: %r %s", locale, text, translated, problem)
        return None
    return translated


class CatalogueTranslator(app_commands.Translator):
    """Localizes the command tree from the catalogues (``tree.set_translator(...)``)."""

    def __init__(self, lookup: Lookup = translations) -> None:
        self._lookup = lookup

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        return localization(string.message, locale.value, context.location, self._lookup)


# -- the command strings ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CommandString:
    """One text of the command tree, where a translator will want to know it is."""

    context: str  # one of i18n.limits.CONTEXTS
    text: str
    where: str  # "/quarters start, option piles"
    source: Callable[..., Any]  # the callback of the command it belongs to


def command_tree() -> app_commands.CommandTree[discord.Client]:
    """Parlour's command tree as the bot installs it, built without a database or a
    connection (nothing runs its commands)."""
    from bot.client import commands, daily_commands, privacy_commands
    from bot.tables.ai import AiRunner
    from bot.tables.service import TableService
    from storage.database import Database

    tree: app_commands.CommandTree[discord.Client] = app_commands.CommandTree(
        discord.Client(intents=discord.Intents.none())
    )
    ai = AiRunner(1, threads=True)  # its pool starts no thread until asked
    commands.install(tree, TableService(cast(Database, None), ai=ai))
    privacy_commands.install(tree)
    daily_commands.install(tree)
    ai.close()
    return tree


def command_strings(tree: app_commands.CommandTree[Any]) -> Iterator[CommandString]:
    """Every name, description and choice name of ``tree`` that Discord shows members."""
    for command in tree.get_commands():
        if isinstance(command, app_commands.Command | app_commands.Group):
            yield from _strings(command, "")


def _strings(
    command: app_commands.Command[Any, ..., Any] | app_commands.Group, parent: str
) -> Iterator[CommandString]:
    path = f"{parent} {command.name}".strip()
    if isinstance(command, app_commands.Group):
        children = [c for c in command.walk_commands() if isinstance(c, app_commands.Command)]
        if not children:
            return
        source = children[0].callback
        yield CommandString(limits.NAME, command.name, f"/{path} (a group)", source)
        yield CommandString(limits.DESCRIPTION, command.description, f"/{path}", source)
        for child in command.commands:
            yield from _strings(child, path)
        return
    source = command.callback
    yield CommandString(limits.NAME, command.name, f"/{path}", source)
    yield CommandString(limits.DESCRIPTION, command.description, f"/{path}", source)
    for parameter in command.parameters:
        where = f"/{path}, option {parameter.display_name}"
        yield CommandString(limits.NAME, parameter.display_name, where, source)
        if parameter.description != "…":  # discord.py's stand-in for a missing one
            yield CommandString(limits.DESCRIPTION, parameter.description, where, source)
        for choice in parameter.choices:
            yield CommandString(limits.CHOICE, choice.name, f"{where}, a choice", source)


Extracted = tuple[int, str | None, str | tuple[str, ...], list[str]]  # Babel's method's yield
_RULES = {
    limits.NAME: "Discord: lowercase, no spaces, 1-32 characters",
    limits.DESCRIPTION: "Discord: 1-100 characters",
    limits.CHOICE: "Discord: 1-100 characters",
}


@functools.cache
def _all_command_strings() -> tuple[CommandString, ...]:
    return tuple(command_strings(command_tree()))


def extract(
    fileobj: IO[bytes],
    keywords: Mapping[str, Any],
    comment_tags: Collection[str],
    options: Any,  # Babel's options for the file (encoding...)
) -> Iterator[Extracted]:
    """Babel's extraction method for ``bot/client``: the file's marked texts, and the strings
    of the commands whose callbacks it holds (as ``_p(context, text)``, with where the
    command is and Discord's limit as comments for the translator)."""
    yield from cast(Iterator[Extracted], extract_python(fileobj, keywords, comment_tags, options))
    name = Path(getattr(fileobj, "name", "")).resolve()
    for item in _all_command_strings():
        if Path(inspect.getsourcefile(item.source) or "").resolve() == name:
            line = item.source.__code__.co_firstlineno
            yield line, "_p", (item.context, item.text), [_RULES[item.context], item.where]

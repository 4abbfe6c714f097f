"""The catalogues, loaded straight from their ``.po`` files.

Each language's catalogue is ``i18n/locales/<code>/LC_MESSAGES/parlour.po``, read with Babel the
first time a text is rendered in that language (so a process, or a worker drawing pictures,
pays only for the languages it uses), and kept for the life of the process. Babel compiles
it in memory into a standard :class:`gettext.GNUTranslations`, which looks messages up, picks
plural forms by the catalogue's ``Plural-Forms`` and falls back to the English source for
whatever is missing. Entries that are untranslated, fuzzy, or have an empty plural form are
left out, so they read English too.

Why no compiled ``.mo`` files: nothing to build or forget to rebuild at install, in Docker or
in the playground after editing a catalogue, and no binary file for translators' branches to
conflict on; the ``.po`` is the one file under version control and the one the bot reads.
The price is paid once per language and process: Babel reads a catalogue of 1,000 entries in
roughly 100 ms (``python -m i18n.catalogues check`` prints today's times), where a ``.mo``
would take a few. A worker process pays it only for the languages it draws in; the bot's own
process calls :func:`preload` at start-up, off the event loop, so no click waits for it.
"""

from __future__ import annotations

import functools
import gettext
import io
import logging
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import Translations

from i18n.languages import ENGLISH, LANGUAGES

log = logging.getLogger("parlour.i18n")

DOMAIN = "parlour"
LOCALES = Path(__file__).resolve().parent / "locales"


def catalogue_path(code: str) -> Path:
    """Where the catalogue of the language ``code`` lives (``pt_BR`` ->
    ``i18n/locales/pt_BR/LC_MESSAGES/parlour.po``)."""
    return LOCALES / code / "LC_MESSAGES" / f"{DOMAIN}.po"


def read_catalogue(code: str) -> Catalog:
    """The catalogue of the language ``code``, as Babel reads it."""
    with catalogue_path(code).open("rb") as file:
        return read_po(file, locale=code, domain=DOMAIN)


def is_translated(message: object) -> bool:
    """True when a catalogue entry has every form translated and is not marked fuzzy."""
    string = getattr(message, "string", "")
    forms = string if isinstance(string, tuple | list) else (string,)
    return bool(forms) and all(forms) and not getattr(message, "fuzzy", False)


@functools.cache
def translations(code: str) -> gettext.NullTranslations:
    """The lookups for the language ``code``: gettext's ``gettext``, ``ngettext``,
    ``pgettext`` and ``npgettext``. English, the source, has no catalogue."""
    if code == ENGLISH.code:
        return gettext.NullTranslations()
    try:
        return compiled(read_catalogue(code))
    except (OSError, ValueError):
        # a catalogue missing or unreadable (CI's check refuses both): English, not a failure
        log.exception("cannot read the %s catalogue; texts in %s read English", code, code)
        return gettext.NullTranslations()


def preload() -> None:
    """Read every language's catalogue now (the bot's start-up, in a thread or before the
    event loop runs), rather than on the first text rendered in each language."""
    for language in LANGUAGES:
        translations(language.code)


def compiled(catalogue: Catalog) -> Translations:
    """The lookups of a catalogue read by Babel, compiled in memory; only its translated
    entries count (see :func:`is_translated`)."""
    for message in list(catalogue):
        if message.id and not is_translated(message):
            catalogue.delete(message.id, message.context)
    out = io.BytesIO()
    write_mo(out, catalogue)
    out.seek(0)
    return Translations(out, domain=DOMAIN)

"""Parlour in every member's language: gettext catalogues read with Babel.

The design, for the code that says things (``bot``, ``render``, ``playground``; ``games``
never imports this package):

**Lazy messages.** A text is marked where it is written and stays a value until someone reads
it. ``_("{name} took {count} from pile {pile}.", name=..., count=3, pile=2)`` returns a frozen
:class:`Message` (the English source as its key, named parameters, an optional plural and
context); ``render(message, locale)`` says it in a language, later, as often as needed. The
table core decides *what* to say without knowing *to whom*: one action's private answer is
rendered in the member's ``locale``, its board in the channel's language. ``str(message)`` is
English, so code that still wants a ``str`` keeps working.

- Parameters are named and whole sentences are templates: never glue pieces of a sentence
  (word order differs between languages). A parameter is a plain string (a name, notation:
  never translated), a number (formatted by Babel for the locale: "1,200", "1.200",
  "1 200"), another message (rendered in the same language), or a format from
  :mod:`i18n.formats` (dates, durations, percentages, lists).
- Plurals: ``_n("{n} coin", "{n} coins", n)``; each language has its own forms (one in
  Japanese, three in French). Contexts for one English text with two meanings:
  ``_p("button", "Pass")``, ``_np(...)``.
- Whole texts go together with :func:`lines`, :func:`paragraphs` and :func:`sentences`
  (which knows Japanese puts no space between sentences).
- The engines' refusals (``games.base.IllegalAction``) carry a ``games.base.Phrase`` built
  with the no-op markers ``N_`` / ``Nn_``; :func:`render` takes one directly and
  :func:`message_of` turns it into a :class:`Message`.

**Locales.** :func:`resolve` maps any Discord locale code (``en-GB``, ``es-419``, ``pt-BR``...)
to a :class:`Locale`: one of :data:`LANGUAGES` for the words (English for any Parlour does not
speak, silently and completely) and Babel's locale for numbers and dates. Adding a language is
one line in :data:`LANGUAGES`, a catalogue and a glossary (``docs/translating.md``).

**Catalogues.** ``i18n/locales/<code>/LC_MESSAGES/parlour.po``, one per language, under version
control, read directly with Babel on first use in each process (:mod:`i18n.translations` says
why no ``.mo`` files). A missing or untranslated entry reads English.

**Extraction.** ``python -m i18n.catalogues update`` extracts the marked texts (keywords ``_``,
``_n``, ``_p``, ``_np``, and ``N_``, ``Nn_`` in ``games``; the mapping is
``i18n/babel.cfg``) and the slash commands' names, descriptions and choices from the command
tree, and merges them into every catalogue; ``... check`` (run by CI) fails when a catalogue
is out of step with the source, when a translation's placeholders differ from its source's,
or when a command string breaks Discord's rules (:mod:`i18n.limits`).

>>> render(_("Pile {pile} is empty.", pile=2), "fr-FR")
'Le tas 2 est vide.'
>>> render(_("Pile {pile} is empty.", pile=2), "ko")  # no Korean: English
'Pile 2 is empty.'
>>> str(_n("{n} coin", "{n} coins", 1))
'1 coin'
"""

from i18n.languages import ENGLISH, LANGUAGES, Language, Locale, language_of, resolve
from i18n.messages import (
    Joined,
    Localizable,
    Message,
    Said,
    Text,
    _,
    _n,
    _np,
    _p,
    lines,
    message_of,
    paragraphs,
    render,
    sentences,
)

__all__ = [
    "ENGLISH",
    "LANGUAGES",
    "Joined",
    "Language",
    "Locale",
    "Localizable",
    "Message",
    "Said",
    "Text",
    "_",
    "_n",
    "_np",
    "_p",
    "language_of",
    "lines",
    "message_of",
    "paragraphs",
    "render",
    "resolve",
    "sentences",
]

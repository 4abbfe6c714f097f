"""Lazy messages: what to say, decided before knowing to whom, rendered per language later.

``_("Pile {pile} is empty.", pile=2)`` is a :class:`Message`, a small frozen value; nothing is
translated until ``render(message, locale)`` (or ``str(message)``, which is English).
"""

from __future__ import annotations

import functools
import logging
import string
import threading
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from decimal import Decimal
from gettext import NullTranslations
from typing import Literal, Protocol, TypeAlias, runtime_checkable

import babel
from babel.lists import format_list
from babel.numbers import format_decimal

from games.base import OneOf, Phrase
from i18n.languages import Locale, resolve
from i18n.translations import translations

log = logging.getLogger("parlour.i18n")


@runtime_checkable
class Localizable(Protocol):
    """Anything that renders itself for a :class:`Locale`: a :class:`Message`, lines of them
    (:func:`lines`), a list (:class:`Listing`), a number or date format (``i18n.formats``)."""

    def localize(self, locale: Locale) -> str: ...


Param: TypeAlias = "str | int | float | Decimal | Localizable | Phrase | OneOf"
Text: TypeAlias = "str | Localizable | Phrase"


def render(text: Text, locale: str | Locale) -> str:
    """``text`` in the language of ``locale`` (a Discord locale code such as ``ja`` or
    ``es-419``, one of ours, or a resolved :class:`Locale`). A plain string (a name, notation)
    is returned as it is.

    >>> render(_("{n} coin", n=1), "en"), render(_n("{n} coin", "{n} coins", 1200), "de")
    ('1 coin', '1.200 coins')
    """
    if isinstance(text, Said):
        text = text.said
    if isinstance(text, str):
        return text
    resolved = locale if isinstance(locale, Locale) else resolve(str(locale))
    return _localized(text, resolved)


class Said(str):
    """A text as an English ``str`` that still knows what it says (``.said``), so that code
    and tests handling strings keep working while :func:`render` says it in any language.
    Slicing or joining it gives a plain, English ``str``.

    >>> refusal = Said(_("Pile {pile} is empty.", pile=2))
    >>> refusal == "Pile 2 is empty.", render(refusal, "de")
    (True, 'Haufen 2 ist leer.')
    """

    __slots__ = ("said",)
    said: Text

    def __new__(cls, said: Text) -> Said:
        made = super().__new__(cls, str(said))
        made.said = said
        return made


def _localized(text: Text, locale: Locale) -> str:
    if isinstance(text, str):
        return text
    if isinstance(text, Phrase):
        return message_of(text).localize(locale)
    return text.localize(locale)


@dataclass(frozen=True, slots=True)
class Message:
    """A marked text and its named parameters, rendered later in any language.

    ``msgid`` is the English source (the catalogues' key), ``plural`` its plural form and ``n``
    the count that chooses between them (``{n}`` in both), ``context`` tells two meanings of one
    English text apart (gettext's ``msgctxt``). Build one with :func:`_`, :func:`_n`, :func:`_p`
    or :func:`_np`. Messages are values: equal when their texts and parameters are.
    """

    msgid: str
    params: tuple[tuple[str, Param], ...] = ()
    plural: str | None = None
    n: int | None = None
    context: str | None = None

    def localize(self, locale: Locale) -> str:
        lookup = translations(locale.language.code)
        key = (self, locale, lookup)
        try:
            return _said[key]
        except KeyError:
            said = self._localize(locale, lookup)
        except TypeError:  # a parameter that cannot be a key: say it each time
            return self._localize(locale, lookup)
        with _keeping:  # the table service's threads say texts too
            if len(_said) >= SAID_KEPT:
                del _said[next(iter(_said))]
            _said[key] = said
        return said

    def _localize(self, locale: Locale, lookup: NullTranslations) -> str:
        template = self._template(lookup)
        if not self.params:
            return template
        values = {name: _value(value, locale) for name, value in self.params}
        try:
            if placeholders(template) <= values.keys():
                return template.format_map(values)
        except (KeyError, IndexError, ValueError):
            pass
        # A translation whose placeholders differ from the source's (the CI check refuses
        # one): say it in English rather than fail the member's click.
        log.warning("bad translation of %r in %s", self.msgid, locale.language.code)
        return self._source().format_map(values)

    def _template(self, lookup: NullTranslations) -> str:
        if self.plural is None:
            if self.context is None:
                return lookup.gettext(self.msgid)
            return lookup.pgettext(self.context, self.msgid)
        n = self.n if self.n is not None else 1
        if self.context is None:
            return lookup.ngettext(self.msgid, self.plural, n)
        return lookup.npgettext(self.context, self.msgid, self.plural, n)

    def _source(self) -> str:
        return self.msgid if self.plural is None or self.n == 1 else self.plural

    def __str__(self) -> str:
        return render(self, "en")


SAID_KEPT = 4096
"""Messages kept as said in a language (first in, first out). A board's alt text and its
controls say the same cells, cards and names again and again; a message is a value, so what it
says with one catalogue never changes. Keyed by the catalogue too, so a test that swaps one in
reads its own."""
_said: dict[tuple[Message, Locale, NullTranslations], str] = {}
_keeping = threading.Lock()


class _Rendered(str):
    """A parameter already rendered; the format spec ``lower`` lowers its first letter
    (English "a pile" inside a sentence, "A pile" at its start)."""

    __slots__ = ()

    def __format__(self, spec: str) -> str:
        if spec == "lower":
            return self[:1].lower() + self[1:]
        return super().__format__(spec)


def _value(value: Param, locale: Locale) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, int | float | Decimal):
        return _decimal(value, locale.formats)
    if isinstance(value, OneOf):
        return format_list(list(value.items), style="or", locale=locale.formats)
    return _Rendered(_localized(value, locale))


@functools.lru_cache(maxsize=4096, typed=True)
def _decimal(value: int | float | Decimal, formats: babel.Locale) -> str:
    # Babel takes some 25 us a number; a message's numbers are mostly the same few
    return format_decimal(value, locale=formats)


def _checked(params: Mapping[str, object]) -> tuple[tuple[str, Param], ...]:
    for name, value in params.items():
        if type(value) in _PARAM_TYPES_SEEN:
            continue
        if isinstance(value, bool) or not isinstance(value, _PARAM_TYPES):
            raise TypeError(
                f"parameter {name}={value!r}: give a string, a number or a message "
                "(wrap dates and lists with i18n.formats)"
            )
        _PARAM_TYPES_SEEN.add(type(value))
    return tuple(sorted(params.items()))  # type: ignore[arg-type]  # checked just above


def _(msgid: str, /, **params: Param) -> Message:
    """Mark a text for translation: a :class:`Message` with named parameters.

    >>> str(_("{name} took {count} from pile {pile}.", name="Alice", count=3, pile=2))
    'Alice took 3 from pile 2.'
    """
    return Message(msgid, _checked(params))


def _n(singular: str, plural: str, n: int, /, **params: Param) -> Message:
    """A text with a plural (gettext's ``ngettext``): ``n`` chooses the form in each language
    and is the template's ``{n}``.

    >>> str(_n("{n} coin", "{n} coins", 3))
    '3 coins'
    """
    return Message(singular, _checked({**params, "n": n}), plural, n)


def _p(context: str, msgid: str, /, **params: Param) -> Message:
    """A text with a context (gettext's ``pgettext``), for one English word that needs two
    translations: ``_p("button", "Pass")`` and ``_p("hearts", "Pass")``."""
    return Message(msgid, _checked(params), context=context)


def _np(context: str, singular: str, plural: str, n: int, /, **params: Param) -> Message:
    """:func:`_n` with a context (gettext's ``npgettext``)."""
    return Message(singular, _checked({**params, "n": n}), plural, n, context)


def message_of(phrase: Phrase) -> Message:
    """The :class:`Message` of a phrase from ``games`` (a refusal's ``exc.phrase``, a noun
    passed to ``games.digits``), its nested phrases converted too.

    >>> from games.base import N_
    >>> message_of(N_("Pile {pile} is empty.", pile=2)) == _("Pile {pile} is empty.", pile=2)
    True
    """
    params = {
        name: message_of(value) if isinstance(value, Phrase) else value
        for name, value in phrase.params
    }
    return Message(phrase.template, _checked(params), phrase.plural, phrase.n)


# Localizable last: a check against a protocol is slow, and most parameters are plain
_PARAM_TYPES = (str, int, float, Decimal, Phrase, OneOf, Message, Localizable)
_PARAM_TYPES_SEEN: set[type] = set()  # the types found good: checked once, not each message

Joint = Literal["lines", "paragraphs", "sentences"]


@dataclass(frozen=True, slots=True)
class Joined:
    """Whole texts put together: one a line, one a paragraph, or sentences one after another
    (a space apart, or nothing apart in Japanese). Never for pieces of one sentence: those
    belong in one template with named placeholders."""

    parts: tuple[Text, ...]
    joint: Joint = "lines"

    def localize(self, locale: Locale) -> str:
        gap = {"lines": "\n", "paragraphs": "\n\n", "sentences": locale.language.sentence_gap}
        return gap[self.joint].join(_localized(part, locale) for part in self.parts)

    def __str__(self) -> str:
        return render(self, "en")


def _joined(parts: Iterable[Text | None], joint: Joint) -> Joined:
    return Joined(tuple(part for part in parts if part is not None and part != ""), joint)


def lines(*parts: Text | None) -> Joined:
    """Texts one a line (``None`` and empty parts left out).

    >>> print(lines(_("It is not your turn."), None, "`11-15`"))
    It is not your turn.
    `11-15`
    """
    return _joined(parts, "lines")


def paragraphs(*parts: Text | None) -> Joined:
    """Texts one a paragraph, a blank line apart."""
    return _joined(parts, "paragraphs")


def sentences(*parts: Text | None) -> Joined:
    """Whole sentences one after another, as the language writes them.

    >>> msg = sentences(_("The game is over."), _("Alice wins!"))
    >>> render(msg, "en")
    'The game is over. Alice wins!'
    """
    return _joined(parts, "sentences")


@functools.cache
def placeholders(template: str) -> frozenset[str]:
    """The names of the placeholders in a template: ``{pile}`` and ``{what:lower}`` -> pile,
    what. A ValueError for a template Python cannot format.

    >>> sorted(placeholders("Write {what:lower} with {n} digits."))
    ['n', 'what']
    """
    return frozenset(
        name for _text, name, _spec, _conversion in string.Formatter().parse(template) if name
    )

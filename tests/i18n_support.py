"""Catalogues made in a test, in place of the real ones: a test says what it renders; and
what of an English text a translation still holds."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from contextlib import contextmanager

import pytest
from babel.messages.catalog import Catalog

from i18n import messages
from i18n.translations import compiled, translations

Entry = tuple[str | None, str | tuple[str, ...]]  # (context, msgid or (singular, plural))


def catalogue(code: str, entries: Mapping[Entry, str | tuple[str, ...]]) -> Catalog:
    """A catalogue for ``code`` holding ``entries``: (context, msgid) -> translation."""
    made = Catalog(locale=code, domain="parlour", fuzzy=False)
    for (context, msgid), string in entries.items():
        made.add(msgid, string, context=context)
    return made


@contextmanager
def catalogues(monkeypatch: pytest.MonkeyPatch, **by_code: Catalog) -> Iterator[None]:
    """Render with these catalogues (by language code); the other languages keep theirs."""
    lookups = {code: compiled(made) for code, made in by_code.items()}

    def lookup(code: str):  # type: ignore[no-untyped-def]
        return lookups[code] if code in lookups else translations(code)

    with monkeypatch.context() as patch:
        patch.setattr(messages, "translations", lookup)
        yield


# Words of English sentences that no translation holds (outside `code`): the same list as the
# catalogues' test.
ENGLISH_WORDS = {"the", "is", "your", "you", "with", "this", "game", "move", "player", "must"}


def english_left(english: str, said: str) -> list[str]:
    """What of the English text ``english`` is still in ``said`` (its translation): English
    sentences (three words or more) and English words outside `code` spans."""

    left = []
    for line in english.splitlines():
        for sentence in re.split(r"(?<=[.!?:;])\s+", line):
            words = re.findall(r"[A-Za-z']+", sentence)
            if len(words) >= 3 and sentence.strip("-•* ") in said:
                left.append(sentence)
    prose = "".join(part for i, part in enumerate(said.split("`")) if i % 2 == 0)
    left += sorted(set(re.findall(r"[a-z]+", prose.lower())) & ENGLISH_WORDS)
    return left

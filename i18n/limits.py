"""Discord's rules for the localized names and descriptions of slash commands, and for the
labels of buttons.

Command strings sit in the catalogues under three contexts (``msgctxt``): :data:`NAME` for the
names of commands, groups and options, :data:`DESCRIPTION` for their descriptions and
:data:`CHOICE` for the names of an option's choices; a button's label is under :data:`BUTTON`
(at most :data:`LABEL_MAX` characters in every language). A name that breaks Discord's rules makes
Discord refuse the whole command sync, so the translator drops such a translation (English is
used) and ``python -m i18n.catalogues check`` fails on it.

>>> name_problem("partie"), name_problem("Partie"), name_problem("nouvelle partie")
(None, 'has capital letters', 'has a space or a character Discord refuses')
>>> name_problem("開始"), name_problem("शुरू")
(None, None)
"""

from __future__ import annotations

import unicodedata

NAME = "command name"
DESCRIPTION = "command description"
CHOICE = "command choice"
CONTEXTS = (NAME, DESCRIPTION, CHOICE)
BUTTON = "button"  # a button's label (and the context that tells it from the same word elsewhere)

NAME_MAX = 32
TEXT_MAX = 100  # descriptions and choice names; menu options and placeholders too
LABEL_MAX = 80  # a button's label
OPTIONS_MAX = 25  # a select menu's options

# Scripts Discord's name pattern admits beyond letters and numbers
# (``^[-_\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$``): their vowel signs are marks.
_DEVANAGARI = ((0x0900, 0x097F), (0xA8E0, 0xA8FF), (0x11B00, 0x11B09))
_THAI = ((0x0E01, 0x0E3A), (0x0E40, 0x0E5B))


def _allowed(char: str) -> bool:
    if char in "-_" or unicodedata.category(char)[0] in "LN":
        return True
    point = ord(char)
    return any(lo <= point <= hi for lo, hi in (*_DEVANAGARI, *_THAI))


def name_problem(name: str) -> str | None:
    """Why Discord would refuse ``name`` as a command, group or option name, or None."""
    if not 1 <= len(name) <= NAME_MAX:
        return f"is {len(name)} characters long (1-{NAME_MAX})"
    if not all(_allowed(c) for c in name):
        return "has a space or a character Discord refuses"
    if name != name.lower():
        return "has capital letters"
    return None


def text_problem(text: str) -> str | None:
    """Why Discord would refuse ``text`` as a description or a choice's name, or None."""
    if not 1 <= len(text) <= TEXT_MAX:
        return f"is {len(text)} characters long (1-{TEXT_MAX})"
    return None


def label_problem(text: str) -> str | None:
    """Why Discord would refuse ``text`` as a button's label, or None.

    >>> label_problem("Aufgeben"), label_problem("x" * 81)
    (None, 'is 81 characters long (1-80)')
    """
    if not 1 <= len(text) <= LABEL_MAX:
        return f"is {len(text)} characters long (1-{LABEL_MAX})"
    return None


def problem(context: str | None, text: str) -> str | None:
    """Why Discord would refuse ``text`` in a catalogue entry of ``context``, or None (also for
    entries that are not command strings or labels)."""
    if context == NAME:
        return name_problem(text)
    if context in (DESCRIPTION, CHOICE):
        return text_problem(text)
    if context == BUTTON:
        return label_problem(text)
    return None

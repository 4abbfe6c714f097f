"""The shape every game engine shares.

Each game package (``games.quarters``, ``games.checkers``, ...) exposes:

- ``State``: a position, with ``new(...)``, ``to_dict()`` / ``from_dict()`` (plain JSON with a
  ``schema`` number), ``seats`` (how many), ``to_act()`` (the seats that may act now: one seat,
  several during a simultaneous phase such as the Hearts pass, none once over),
  ``legal_actions(seat)`` (canonical action strings in a stable order), ``apply(seat, action)``
  (raises :class:`IllegalAction`, leaving the state unchanged), ``is_over()``, ``outcome()`` and
  ``view(seat)`` (what that seat may see, hidden cards removed: a plain dict, typed by a
  ``TypedDict`` beside the state, such as ``games.checkers.CheckersView``).
- ``choose(state, seat, level, budget, seed) -> str``: the computer's action, a pure function
  that always returns a legal action within about ``budget`` seconds (on average: a search may
  finish a depth it began a little past it).
- ``LEVELS``: the level names, weakest first; the last one is the default.
- ``ENGINE``: an :class:`Engine` tying the three together under the game's kind; the bot
  registers a game by its engine, and a type checker holds ``State`` to :class:`GameState` and
  ``choose`` to :class:`Chooser` there.

Actions are short strings (``"1-2"`` for Quarters, ``"11-15"`` for Checkers, ``"QS"`` for
Hearts): one canonical form per game, used in custom_ids, move logs and tests.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import (
    Any,
    Generic,
    Protocol,
    Self,
    TypeAlias,
    TypedDict,
    TypeVar,
    runtime_checkable,
)


@dataclass(frozen=True, slots=True)
class OneOf:
    """Alternatives offered to a player (``11-15`` or ``11-16``), inside a :class:`Phrase`.

    The items are notation, never translated; the bot joins them with its reader's word for
    "or" (Babel's list patterns), and ``str()`` joins them in English.

    >>> str(OneOf(("`9x18`", "`9x27`")))
    '`9x18` or `9x27`'
    """

    items: tuple[str, ...]

    def __str__(self) -> str:
        return " or ".join(self.items)


@runtime_checkable
class Spoken(Protocol):
    """A text from outside ``games`` that says itself in a reader's language (an ``i18n``
    message: a game's name, a computer seat), as a parameter of a bot's :class:`Phrase`;
    ``str()`` is its English."""

    def localize(self, locale: Any) -> str: ...


PhraseParam: TypeAlias = "str | int | float | OneOf | Phrase | Spoken"


@dataclass(frozen=True, slots=True)
class Phrase:
    """A sentence for a player, kept as its English template and named parameters, so that the
    bot can say it later in its reader's language (``i18n`` renders it; ``games`` never
    translates anything). Build one with :func:`N_` or :func:`Nn_`, which also mark the
    template for ``pybabel extract``.

    Parameters are plain strings (names, notation: never translated), numbers (formatted per
    language), :class:`OneOf`, other phrases, or (in the bot's refusals) a :class:`Spoken`
    text such as a game's name. ``str()`` is the English sentence. A template
    is formatted only when it has parameters, so a phrase without any may hold braces. The
    format spec ``lower`` puts a nested phrase in with a lowercase first letter (English "a
    pile" inside a sentence, "A pile" at its start).

    >>> str(N_("There is no pile {pile}.", pile=4))
    'There is no pile 4.'
    >>> str(Nn_("Take {n} coin.", "Take {n} coins.", 3))
    'Take 3 coins.'
    >>> str(N_("Write {what:lower} with digits.", what=N_("A pile")))
    'Write a pile with digits.'
    """

    template: str
    params: tuple[tuple[str, PhraseParam], ...] = ()
    plural: str | None = None  # the plural template; ``n`` chooses between the two
    n: int | None = None

    def __str__(self) -> str:
        template = self.template if self.n is None or self.n == 1 else (self.plural or "")
        if not self.params:
            return template
        return template.format_map(dict(self.params))

    def __format__(self, spec: str) -> str:
        text = str(self)
        if spec == "lower":
            return text[:1].lower() + text[1:]
        return format(text, spec)


def N_(template: str, /, **params: PhraseParam) -> Phrase:
    """A :class:`Phrase` to show a player: gettext's no-op marker (the template is found by
    ``pybabel extract`` and translated only when the bot renders it)."""
    return Phrase(template, tuple(sorted(params.items())))


def Nn_(singular: str, plural: str, n: int, /, **params: PhraseParam) -> Phrase:
    """:func:`N_` with a singular and a plural template (gettext's ``ngettext``): ``n`` picks
    the form in each language and is the template's ``{n}``."""
    return Phrase(singular, tuple(sorted({**params, "n": n}.items())), plural, n)


class IllegalAction(ValueError):
    """An action that the rules refuse. ``str(exc)`` is a short message fit to show a player.

    It carries its sentence as a :class:`Phrase` (``exc.phrase``), so the bot can say it in the
    player's language: ``raise IllegalAction(N_("Pile {pile} is empty.", pile=2))``. A plain
    string is taken as it is (a phrase without parameters).
    """

    def __init__(self, phrase: Phrase | str) -> None:
        self.phrase = phrase if isinstance(phrase, Phrase) else Phrase(phrase)
        super().__init__(str(self.phrase))

    def __reduce__(self) -> tuple[type[IllegalAction], tuple[Phrase]]:
        # crosses the AI's process pool whole, parameters included
        return type(self), (self.phrase,)


class Ending(StrEnum):
    """How a game ended, in the bot's terms: by its rules, or by a member's act."""

    RULES = "rules"  # the engine ended it (a last coin, no moves, a draw by the rules...)
    RESIGN = "resign"  # a player resigned (or, in Hearts, the last member left)
    TIMEOUT = "timeout"  # the waiting player claimed an idle game


class OutcomeDict(TypedDict):
    """:meth:`Outcome.to_dict`: an outcome as plain JSON (in views, and stored with a table)."""

    winners: list[int]
    termination: str
    scores: list[int]
    details: dict[str, Any]


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a finished game ended.

    ``winners`` are seat numbers (empty for a draw or a game nobody won, several for a shared
    win). ``scores`` are per-seat points where the game keeps them (Hearts, Quatorze).
    ``termination`` says why it ended, in a word (``"last-coin"``, ``"no-moves"``, ``"resign"``).
    """

    winners: tuple[int, ...]
    termination: str
    scores: tuple[int, ...] = ()
    details: dict[str, Any] = field(default_factory=dict, compare=False)

    @property
    def is_draw(self) -> bool:
        return not self.winners

    @property
    def ending(self) -> Ending:
        """Whether the rules ended the game, or a resignation or a claim.

        >>> Outcome((1,), "resign").ending
        <Ending.RESIGN: 'resign'>
        >>> Outcome((0,), "no-moves").ending
        <Ending.RULES: 'rules'>
        """
        try:
            return Ending(self.termination)
        except ValueError:
            return Ending.RULES

    def to_dict(self) -> OutcomeDict:
        return {
            "winners": list(self.winners),
            "termination": self.termination,
            "scores": list(self.scores),
            "details": self.details,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Outcome:
        return cls(
            winners=tuple(data["winners"]),
            termination=data["termination"],
            scores=tuple(data.get("scores", ())),
            details=dict(data.get("details", {})),
        )


@runtime_checkable
class GameState(Protocol):
    """The protocol every game's ``State`` follows (see the module docstring).

    ``new`` takes each game's own options (piles, a FEN, a seed, rules), so its parameters are
    left open; the bot's controller is the one caller that knows them.
    """

    @property
    def seats(self) -> int: ...

    @classmethod
    def new(cls, *args: Any, **kwargs: Any) -> Self: ...
    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Self: ...
    def to_dict(self) -> dict[str, Any]: ...
    def to_act(self) -> tuple[int, ...]: ...
    def legal_actions(self, seat: int) -> list[str]: ...
    def apply(self, seat: int, action: str) -> None: ...
    def is_over(self) -> bool: ...
    def outcome(self) -> Outcome | None: ...
    def view(self, seat: int | None) -> Mapping[str, object]: ...


S = TypeVar("S", bound=GameState)
S_contra = TypeVar("S_contra", bound=GameState, contravariant=True)


class Chooser(Protocol[S_contra]):
    """The computer's choice: ``choose(state, seat, level, budget, seed) -> action``."""

    def __call__(
        self, state: S_contra, seat: int, level: str, budget: float, seed: int, /
    ) -> str: ...


@dataclass(frozen=True, slots=True)
class Engine(Generic[S]):
    """A game's engine as the rest of Parlour sees it: its kind, state type, AI and levels.

    Each game package exports one as ``ENGINE``. It is plain data made of top-level names, so a
    process pool can pickle it and run :meth:`choose` in a worker.
    """

    kind: str
    state: type[S]
    choose: Chooser[S]
    levels: tuple[str, ...]
    # A choice that is a formula (microseconds, whatever the position): made where it is
    # asked, without the round trip to a worker process, which costs ten times as much.
    instant: bool = False

    def __post_init__(self) -> None:
        if not self.levels:
            raise ValueError(f"the {self.kind} engine names no level for its AI")

    def load(self, data: dict[str, Any]) -> S:
        """The state stored as ``data`` (see ``State.to_dict``)."""
        return self.state.from_dict(data)

    @property
    def default_level(self) -> str:
        """The strongest level (the last), the one a table gets unless it asks for another."""
        return self.levels[-1]

    def decide(self, data: dict[str, Any], seat: int, level: str, budget: float, seed: int) -> str:
        """Rebuild the stored state and ask the AI for ``seat``'s action."""
        return self.choose(self.load(data), seat, level, budget, seed)

"""The per-game part of the table service: options, seats, the board, and UI actions.

Every game has a :class:`Controller`. The service does the rest the same way for all games:
loading and version-checked saving, applying every engine move and every change of a table's
life (a controller only says what a member asked for, in :class:`Intent`), turn checks, the
computer's turns, challenges, resigning, results and the scoreboard.
"""

from __future__ import annotations

import dataclasses
import enum
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, ClassVar, Generic, Self, TypeVar

from bot.tables.challenge import challenge_screen
from bot.tables.confirm import RESIGN, Confirmation
from bot.tables.pictures import Replay
from bot.tables.screens import Button, Screen, Style
from bot.tables.seats import level_choice, seat_name
from bot.tables.wording import game_name
from games.base import N_, Engine, GameState, IllegalAction, Outcome
from i18n import Text, _, _p, render
from i18n.formats import Listing, Number, Percent
from storage.models import Result, Seat, Standing, Table, TableStatus

# Keys of a table's ui JSON that belong to the service (a controller's UI state has the rest).
# decisions: bot.tables.played; lang: the channel's language (channel_language)
SERVICE_KEYS = frozenset({"expires", "autoplay", "decisions", "lang"})


def channel_language(table: Table) -> str:
    """The language a table's channel reads (its boards, results), kept from its start."""
    return str(table.ui.get("lang", "en"))


@dataclass(slots=True)
class UiState:
    """A game's own board state between clicks (a selection, a chosen piece), kept in the
    table's ui JSON. Each game subclasses it as a dataclass; fields left at their default are
    not stored, and keys it does not know (the service's own) are ignored when loading.

    >>> @dataclass(slots=True)
    ... class Picked(UiState):
    ...     cell: int | None = None
    >>> Picked.from_dict({"cell": 3, "autoplay": [1]}), Picked().to_dict()
    (Picked(cell=3), {})
    """

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Self:
        names = {f.name for f in dataclasses.fields(cls)}
        return cls(**{key: value for key, value in data.items() if key in names})

    def to_dict(self) -> dict[str, Any]:
        found = {}
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if f.default_factory is not dataclasses.MISSING:
                default = f.default_factory()
            else:
                default = f.default
            if value != default:
                found[f.name] = value
        return found


S = TypeVar("S", bound=GameState)
U = TypeVar("U", bound=UiState)


@dataclass(frozen=True, slots=True)
class TableView(Generic[U]):
    """What the service knows of a table, as a controller shows it (read only).

    - ``ui``: the game's own UI state.
    - ``outcome``: how the game ended (the engine's, or a resignation or claim), else None.
    - ``thinking``: the computer is to move (for a computer seat or a member away).
    - ``autoplay``: the member seats the computer plays for while their members are away.
    - ``expires``: when a waiting challenge or lobby lapses (a Unix time), else None.
    - ``turn_deadline``: when the computer takes over a member's turn (games with a
      ``turn_timeout``, while a member is to move), else None.
    """

    ui: U
    outcome: Outcome | None = None
    thinking: bool = False
    autoplay: frozenset[int] = frozenset()
    expires: float | None = None
    turn_deadline: float | None = None


@dataclass(slots=True)
class Context(Generic[S, U]):
    """One member's action on a table, as a controller sees it. ``ui`` is the game's UI state:
    change it (or replace it) and return ``Intent(changed=True)`` to have it saved."""

    table: Table
    state: S | None
    user_id: int
    user_name: str
    seat: int | None  # the member's seat that may act now, else their first seat, else None
    action: str
    arg: str
    now: float
    manage_messages: bool = False
    # Runs ``fn(*args)`` in the AI's process pool and waits (``handle`` runs in a worker
    # thread, so waiting blocks neither the event loop nor, being another process, its GIL).
    # ``fn`` must be a picklable top-level function; by default it simply runs here.
    compute: Callable[..., Any] = field(default=lambda fn, *args: fn(*args), repr=False)
    ui: Any = field(default_factory=UiState)
    autoplay: frozenset[int] = frozenset()  # member seats the computer plays for now
    expires: float | None = None  # when a waiting challenge or lobby lapses
    locale: str = "en"  # the member's language: what only they see is rendered in it

    def require_state(self) -> S:
        if self.state is None:
            raise IllegalAction(N_("The game has not started yet."))
        return self.state

    def require_seat(self) -> int:
        if self.seat is None:
            raise IllegalAction(N_("You are not seated at this table."))
        return self.seat

    def require_turn(self) -> int:
        seat = self.require_seat()
        if self.state is None or seat not in self.state.to_act():
            raise IllegalAction(N_("It is not your turn."))
        return seat


class Lifecycle(enum.Enum):
    """A change in a table's life that a controller asks for; the service makes it."""

    BEGIN = "begin"  # a waiting table's game begins (its first deal is the intent's state)
    CLOSE = "close"  # a waiting table closes without a game (its host left the lobby)

    @property
    def status(self) -> TableStatus:
        """The table's status once the change is made."""
        return TableStatus.ACTIVE if self is Lifecycle.BEGIN else TableStatus.STOPPED


@dataclass(slots=True)
class Intent:
    """What a controller decided; the service carries it out.

    - ``changed``: the table (seats, ui, options) was modified in place and must be saved.
    - ``move``: the engine action the member asked for. The service applies it for their seat
      (it must be their turn), saves, and runs the computer's turns after it.
    - ``state``: a fresh deal that replaces the state (Deal, Start, Computer Start).
    - ``lifecycle``: the table begins its game or closes; a controller never sets a table's
      status itself.
    - ``private`` / ``update_private``: a message only the member sees (replacing the one they
      clicked on); ``after_move`` draws it from the state once the move is applied.
    - ``posts``: new messages for the channel.
    """

    changed: bool = False
    move: str | None = None
    state: GameState | None = None
    private: Screen | None = None
    update_private: bool = False
    posts: list[Screen] = field(default_factory=list)
    after_move: Callable[[Any], Screen] | None = field(default=None, repr=False)
    # The private screen is the member's hand: one message a member, kept up to date.
    hand: bool = False
    lifecycle: Lifecycle | None = None

    @property
    def moved(self) -> bool:
        """The game itself changed: a move, or a new deal."""
        return self.move is not None or self.state is not None

    @property
    def saves(self) -> bool:
        return self.changed or self.moved or self.lifecycle is not None


class Controller(Generic[S, U]):
    """Base class; one subclass per game, generic over its state type and UI state type. Set
    :attr:`engine`, :attr:`title`, :attr:`rules_text` (and :attr:`ui_type` when the game keeps
    UI state), and write :meth:`new_state` and :meth:`board`; the rest has defaults that suit
    two-player games. ``kind`` and ``levels`` come from the engine.

    ``replay``: the game's replay hook, given by its spec when it makes the controller
    (:meth:`bot.tables.spec.GameSpec.make`); None: a finished game offers no Replay."""

    engine: ClassVar[Engine[Any]]
    ui_type: ClassVar[type[UiState]] = UiState
    kind: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int] = 1
    max_players: ClassVar[int] = 2
    levels: ClassVar[tuple[str, ...]] = ()
    ai_budget: ClassVar[float] = 1.0
    rated: ClassVar[bool] = False  # Elo between members; /stats charts the rating
    solo: ClassVar[bool] = False  # one seat, no opponent
    rules_text: ClassVar[Text] = ""
    # Seconds a member may take on their turn before the computer plays for them (None: never).
    turn_timeout: ClassVar[float | None] = None
    lobby_seconds: ClassVar[float] = 5 * 60  # how long a challenge or lobby waits
    # handle() takes microseconds and neither draws nor computes (no ctx.compute): the shell
    # calls it on the event loop, without a worker thread's round trip.
    light: ClassVar[bool] = False
    # Actions anyone in the channel may use, and actions any seated player may use at any time.
    public_actions: ClassVar[frozenset[str]] = frozenset()
    seated_actions: ClassVar[frozenset[str]] = frozenset({"resign"})
    # The actions that end the game or forfeit it, each asked once first (``ask=<action>``).
    confirmations: ClassVar[Mapping[str, Confirmation]] = MappingProxyType({"resign": RESIGN})
    # Board actions answered with a new private message (a hint, the scores): a slow one is
    # deferred privately, so the member sees "thinking" only they can see.
    private_actions: ClassVar[frozenset[str]] = frozenset()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        engine = cls.__dict__.get("engine")
        if engine is not None:  # the game's kind and levels are its engine's
            cls.kind = engine.kind
            cls.levels = engine.levels

    def __init__(self, *, replay: Replay | None = None) -> None:
        self.replay = replay

    # -- setting up -------------------------------------------------------------------------
    def parse_options(self, raw: dict[str, Any]) -> dict[str, Any]:
        """Check the slash command's options; raise IllegalAction with a clear message. The
        default suits a game whose only option is the computer's ``level``."""
        return {"level": self.parse_level(raw)}

    def parse_level(self, raw: Mapping[str, Any]) -> str:
        """The computer's level the options name, else the engine's default (the strongest).

        >>> from games import quarters
        >>> class Demo(Controller):
        ...     engine = quarters.ENGINE
        >>> Demo().parse_level({}), Demo().parse_level({"level": "sharp"})
        ('perfect', 'sharp')
        """
        level = raw.get("level") or self.engine.default_level
        if level not in self.levels:
            raise IllegalAction(N_("Choose a level: {levels}.", levels=level_choice(self.levels)))
        return str(level)

    def table_level(self, table: Table) -> str:
        """The level of the computer at ``table``: its options', else the engine's default."""
        return str(table.options.get("level") or self.engine.default_level)

    def seat_order(
        self, options: dict[str, Any], starter: Seat, other: Seat, seed: int
    ) -> list[Seat]:
        """The seats in engine order. The starter sits first unless the options say otherwise."""
        return [starter, other]

    def rematch_seats(self, finished: Table) -> list[Seat]:
        """The seats of the next game at a finished table: two players swap, others stay."""
        seats = [Seat(s.name, s.user_id, s.ai_level) for s in finished.seats]
        return seats[::-1] if len(seats) == 2 else seats

    def new_state(self, table: Table, seed: int) -> S:
        raise NotImplementedError

    def load(self, data: dict[str, Any]) -> S:
        """The stored state, through the engine."""
        state: S = self.engine.load(data)
        return state

    def ui(self, table: Table) -> U:
        """The game's UI state stored on ``table``."""
        ui: U = self.ui_type.from_dict(table.ui)  # type: ignore[assignment]  # ui_type is U's
        return ui

    # -- showing ----------------------------------------------------------------------------
    def board(self, table: Table, state: S, view: TableView[U]) -> Screen:
        """The public board message (runs in a worker thread: it may render images)."""
        raise NotImplementedError

    def lobby(self, table: Table, view: TableView[U]) -> Screen:
        """The message of a table waiting to start (a challenge, by default)."""
        return challenge_screen(table, self.title, channel_language(table))

    def ai_delay(self, table: Table) -> float:
        """Seconds to wait between two computer moves (a table setting in Hearts)."""
        return 0.0

    def again_button(self, lang: str = "en") -> Button:
        """The button under a finished game's board that starts the next one (in ``lang``)."""
        label = render(_p("button", "Play again"), lang)
        return Button(label, "again", Style.SUCCESS, any_version=True)

    def finished_row(self, lang: str = "en") -> tuple[Button, ...]:
        """The buttons under a finished game's board: Play again, and Replay where offered."""
        if self.replay is not None:
            replay = render(_p("button", "Replay"), lang)
            return (self.again_button(lang), Button(replay, "replay", emoji="🎞️", any_version=True))
        return (self.again_button(lang),)

    # -- a private hand kept up to date -------------------------------------------------------
    def private_key(self, table: Table, state: S, seat: int) -> str | None:
        """A short summary of what ``seat``'s private hand shows; the Discord layer re-sends the
        hand when it changes. None (the default): the game has no private hand."""
        return None

    def private_screen(self, table: Table, state: S, seat: int, locale: str = "en") -> Screen:
        """``seat``'s private hand in its member's ``locale`` (runs in a worker thread)."""
        raise NotImplementedError

    # -- acting -----------------------------------------------------------------------------
    def handle(self, ctx: Context[S, U]) -> Intent:
        """A UI action other than an engine move (``m=<move>``), accept, decline and resign.

        It never applies a move itself: it returns ``Intent(move=...)`` and the service does."""
        raise IllegalAction(N_("That button does nothing here."))

    def confirmation(self, ctx: Context[S, U], action: str) -> Confirmation | None:
        """What is asked before ``action`` (None: it is not asked). A game may say more than
        :attr:`confirmations` from the state (Quatorze names the score)."""
        return self.confirmations.get(action)

    def detached(self, action: str, locale: str = "en") -> Screen:
        """A public action used where no game of this kind is running (``/quarters secret``)."""
        game = game_name(self.title)
        raise IllegalAction(N_("No game of {game} is running in this channel.", game=game))

    def resign(self, ctx: Context[S, U]) -> Intent | None:
        """A seated member resigns. None (the default): the game ends with
        :meth:`outcome_on_resign`. A game that goes on without them (the computer takes the
        seat) changes the table here and returns what to save."""
        return None

    def outcome_on_resign(self, state: S, seat: int) -> Outcome:
        others = tuple(s for s in range(state.seats) if s != seat)
        return Outcome(winners=others, termination="resign")

    def results(self, table: Table, state: S | None, outcome: Outcome) -> list[Result]:
        """One result per member seat: win, loss or draw."""
        vs_computer = any(seat.is_ai for seat in table.seats)
        results = []
        for index, seat in enumerate(table.seats):
            if seat.user_id is None:
                continue
            if outcome.is_draw:
                verdict = "draw"
            else:
                verdict = "win" if index in outcome.winners else "loss"
            points = outcome.scores[index] if index < len(outcome.scores) else 0
            results.append(Result(seat.user_id, verdict, points, vs_computer, name=seat.name))
        return results

    def result_text(self, table: Table, outcome: Outcome) -> Text:
        """The result in one sentence. The board's outcome line and the announcement both use
        it, so a game's end is worded one way everywhere."""
        names = [seat_name(table.seats[i]) for i in outcome.winners]
        if not names:
            return _("The game is drawn.")
        if len(names) == 1:
            return _("{name} wins!", name=names[0])
        return _("{names} win!", names=Listing(tuple(names)))

    def result_extras(self, table: Table, state: S | None, outcome: Outcome) -> Screen:
        """What the announcement carries besides its sentence (a record, final scores, a
        chart); runs in a worker thread."""
        return Screen()

    def result_screen(self, table: Table, state: S | None, outcome: Outcome) -> Screen:
        """The one announcement posted in the channel when a game ends: ``🏁 **Game**:`` and
        :meth:`result_text`, with :meth:`result_extras` (runs in a worker thread)."""
        extras = self.result_extras(table, state, outcome)
        lang = channel_language(table)
        game, said = (
            render(game_name(self.title), lang),
            render(self.result_text(table, outcome), lang),
        )
        return Screen(
            content=f"🏁 **{game}**: {said}",
            embed=extras.embed,
            pictures=extras.pictures,
            files=extras.files,
            attachments=extras.attachments,
            rows=extras.rows,
        )

    def standing_columns(self) -> tuple[Text, ...]:  # short: they head the scoreboard's table
        return (_p("scoreboard", "W"), _p("scoreboard", "L"), _p("scoreboard", "Win%"))

    def standing_values(self, standing: Standing) -> tuple[Text, ...]:
        return (Number(standing.wins), Number(standing.losses), Percent(standing.win_rate))

    def rank_key(self, standing: Standing) -> tuple:
        return (-standing.wins, -standing.win_rate, standing.losses)


def table_seed(table: Table, salt: int = 0) -> int:
    """A seed for a table's random choices, derived from stored facts so it replays."""
    return random.Random(f"{table.id}:{table.created_at}:{salt}").getrandbits(63)

"""A round of Kabu at a table against the computer dealer.

>>> s = State.new(players=1, seed=3)
>>> s.to_act(), s.legal_actions(0)
((0,), ['pick-1', 'pick-2', 'pick-3', 'pick-4', 'pick-5'])
>>> s.apply(0, "pick-2")
>>> s.legal_actions(0)
['draw', 'stand']
>>> s.apply(0, "stand")
>>> s.is_over()
True
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any, TypedDict

from games.base import IllegalAction, Outcome
from games.cards import Card, cards_from_text, cards_to_text, full_deck, shuffled_deck
from games.digits import is_number
from games.kabu.hands import dealer_beats, hand_name, total
from games.kabu.odds import dealer_draws

SCHEMA = 1
POSITIONS = 5
MAX_PLAYERS = 5


@dataclass(frozen=True, slots=True)
class Rules:
    """House rules: ``arashi`` (three of a rank beats plain hands) is on by default."""

    arashi: bool = True


class Phase(Enum):
    PICK = "pick"
    DECIDE = "decide"
    DONE = "done"


class KabuRulesView(TypedDict):
    arashi: bool  # three of a kind beats every total (the house rule)


class PositionView(TypedDict):
    """One of the five face-up positions."""

    number: int  # 1-5
    cards: list[str]
    total: int  # the last digit of the sum
    name: str  # the hand's name in words ("Kabu", "Shippin", "5"...)
    seat: int | None  # the seat that picked it


class DealerView(TypedDict):
    cards: list[str]
    total: int
    name: str
    drew: bool | None  # None until the dealer decided


class KabuView(TypedDict):
    """:meth:`State.view`: everything in Kabu is face up, so every seat sees the same."""

    game: str  # "kabu"
    phase: str  # a Phase's value
    players: int
    rules: KabuRulesView
    positions: list[PositionView]
    dealer: DealerView
    picks: list[int | None]  # each seat's position (1-5), None before it picked
    decisions: list[str | None]  # each seat's draw or stand, None before it chose
    to_act: list[int]
    seat: int | None  # whose view (None: the channel's)
    legal: list[str]  # the seat's legal actions (none for the channel)
    results: list[str] | None  # "win" or "lose" for each seat, once over
    winners: list[int] | None  # once over


def format_pick(position: int) -> str:
    """``format_pick(3) == "pick-3"`` (positions are numbered 1..5)."""
    return f"pick-{position}"


def parse_pick(action: str) -> int:
    """The position (1..5) named by ``pick-N``."""
    head, _, number = action.partition("-")
    if head != "pick" or not is_number(number, 1) or not 1 <= int(number) <= POSITIONS:
        raise IllegalAction(f"`{action}` is not a position to pick (pick-1 .. pick-5).")
    return int(number)


def ranks(cards: list[Card]) -> tuple[int, ...]:
    return tuple(int(c.rank) for c in cards)


class State:
    """One round: five positions, the dealer, up to five seated players.

    Phases: ``PICK`` (seats pick a position in seat order), ``DECIDE`` (the chosen positions, left
    to right, draw or stand), ``DONE`` (the dealer has played and results are known). The
    dealer's play happens inside :meth:`apply` when the last player has decided.
    """

    __slots__ = (
        "dealer",
        "dealer_drew",
        "decisions",
        "deck",
        "next_card",
        "phase",
        "picks",
        "players",
        "positions",
        "rules",
        "seed",
    )

    def __init__(
        self,
        *,
        rules: Rules,
        players: int,
        seed: int,
        deck: list[Card],
        next_card: int,
        positions: list[list[Card]],
        dealer: list[Card],
        picks: list[int | None],
        decisions: list[str | None],
        phase: Phase,
        dealer_drew: bool | None,
    ) -> None:
        self.rules = rules
        self.players = players
        self.seed = seed
        self.deck = deck
        self.next_card = next_card
        self.positions = positions
        self.dealer = dealer
        self.picks = picks
        self.decisions = decisions
        self.phase = phase
        self.dealer_drew = dealer_drew

    # -- construction and JSON -------------------------------------------------------------

    @classmethod
    def new(cls, players: int = 1, seed: int = 0, rules: Rules | None = None) -> State:
        """Shuffle from ``seed`` and deal five position cards and the dealer's card face up."""
        if not 1 <= players <= MAX_PLAYERS:
            raise ValueError("Kabu seats 1 to 5 players.")
        return cls.from_deck(shuffled_deck(seed), players=players, seed=seed, rules=rules)

    @classmethod
    def from_deck(
        cls, deck: list[Card], players: int = 1, seed: int = 0, rules: Rules | None = None
    ) -> State:
        """A round dealt from a given order (tests and replays): positions, then the dealer."""
        if not 1 <= players <= MAX_PLAYERS:
            raise ValueError("Kabu seats 1 to 5 players.")
        if len(deck) != 52 or set(deck) != set(full_deck()):
            raise ValueError("a Kabu deck has the 52 cards once each")
        deck = list(deck)
        return cls(
            rules=rules or Rules(),
            players=players,
            seed=seed,
            deck=deck,
            next_card=POSITIONS + 1,
            positions=[[deck[i]] for i in range(POSITIONS)],
            dealer=[deck[POSITIONS]],
            picks=[None] * players,
            decisions=[None] * players,
            phase=Phase.PICK,
            dealer_drew=None,
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "schema": SCHEMA,
            "rules": {"arashi": self.rules.arashi},
            "players": self.players,
            "seed": self.seed,
            "deck": cards_to_text(self.deck),
            "next_card": self.next_card,
            "positions": [cards_to_text(p) for p in self.positions],
            "dealer": cards_to_text(self.dealer),
            "picks": list(self.picks),
            "decisions": list(self.decisions),
            "phase": self.phase.value,
            "dealer_drew": self.dealer_drew,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> State:
        if data.get("schema") != SCHEMA:
            raise ValueError(f"unknown Kabu schema {data.get('schema')!r}")
        return cls(
            rules=Rules(**data["rules"]),
            players=data["players"],
            seed=data["seed"],
            deck=cards_from_text(data["deck"]),
            next_card=data["next_card"],
            positions=[cards_from_text(p) for p in data["positions"]],
            dealer=cards_from_text(data["dealer"]),
            picks=list(data["picks"]),
            decisions=list(data["decisions"]),
            phase=Phase(data["phase"]),
            dealer_drew=data["dealer_drew"],
        )

    def copy(self) -> State:
        return State.from_dict(self.to_dict())

    # -- turn structure --------------------------------------------------------------------

    @property
    def seats(self) -> int:
        return self.players

    def owner(self, position: int) -> int | None:
        """The seat that picked ``position`` (0-based), or None."""
        for seat, pick in enumerate(self.picks):
            if pick == position:
                return seat
        return None

    def _deciding_seat(self) -> int | None:
        """The seat whose chosen position is the leftmost one still undecided."""
        waiting = [
            (pick, seat)
            for seat, pick in enumerate(self.picks)
            if pick is not None and self.decisions[seat] is None
        ]
        return min(waiting)[1] if waiting else None

    def to_act(self) -> tuple[int, ...]:
        if self.phase is Phase.PICK:
            return (self.picks.index(None),)
        if self.phase is Phase.DECIDE:
            seat = self._deciding_seat()
            return () if seat is None else (seat,)
        return ()

    def legal_actions(self, seat: int) -> list[str]:
        if seat not in self.to_act():
            return []
        if self.phase is Phase.PICK:
            taken = set(self.picks)
            return [format_pick(p + 1) for p in range(POSITIONS) if p not in taken]
        return ["draw", "stand"]

    def is_over(self) -> bool:
        return self.phase is Phase.DONE

    # -- playing ---------------------------------------------------------------------------

    def apply(self, seat: int, action: str) -> None:
        """Pick a position (``pick-N``), or ``draw`` / ``stand`` on the chosen one."""
        if self.phase is Phase.DONE:
            raise IllegalAction("This round is over.")
        if not 0 <= seat < self.players:
            raise IllegalAction("You are not seated at this table.")
        if seat not in self.to_act():
            raise IllegalAction("It is not your turn.")
        if self.phase is Phase.PICK:
            wanted = parse_pick(action) - 1
            if wanted in self.picks:
                raise IllegalAction(f"Position {wanted + 1} is already taken.")
            self.picks[seat] = wanted
            if None not in self.picks:
                self.phase = Phase.DECIDE
                self._advance()
            return
        if action not in ("draw", "stand"):
            raise IllegalAction(f"`{action}` is not a choice now: draw or stand.")
        position = self.picks[seat]
        assert position is not None
        if action == "draw":
            self.positions[position].append(self._deal())
        self.decisions[seat] = action
        self._advance()

    def _deal(self) -> Card:
        card = self.deck[self.next_card]
        self.next_card += 1
        return card

    def _deal_seconds(self, upto: int) -> None:
        for hand in self.positions[: upto + 1]:
            if len(hand) == 1:
                hand.append(self._deal())

    def _advance(self) -> None:
        seat = self._deciding_seat()
        if seat is not None:
            position = self.picks[seat]
            assert position is not None
            self._deal_seconds(position)
            return
        self._deal_seconds(POSITIONS - 1)
        self.dealer.append(self._deal())
        self.dealer_drew = dealer_draws(
            ranks(self.dealer), self.seated_hands(), self.unseen_counts(), self.rules.arashi
        )
        if self.dealer_drew:
            self.dealer.append(self._deal())
        self.phase = Phase.DONE

    # -- what is known ---------------------------------------------------------------------

    def face_up(self) -> list[Card]:
        """Every card on the table (all of Kabu's dealt cards are face up)."""
        return [c for hand in self.positions for c in hand] + list(self.dealer)

    def unseen_counts(self) -> list[int]:
        """How many cards of each rank (index 1..13) are not face up."""
        counts = [0] + [4] * 13
        for card in self.face_up():
            counts[card.rank] -= 1
        return counts

    def seated_hands(self) -> list[tuple[int, ...]]:
        return [ranks(self.positions[p]) for p in self.picks if p is not None]

    def seat_beats_dealer(self, seat: int) -> bool:
        position = self.picks[seat]
        assert position is not None
        return not dealer_beats(
            ranks(self.dealer), ranks(self.positions[position]), self.rules.arashi
        )

    def outcome(self) -> Outcome | None:
        if self.phase is not Phase.DONE:
            return None
        wins = [self.seat_beats_dealer(s) for s in range(self.players)]
        hands = [self.positions[p] for p in self.picks if p is not None]
        return Outcome(
            winners=tuple(s for s in range(self.players) if wins[s]),
            termination="showdown",
            scores=tuple(int(w) for w in wins),
            details={
                "results": ["win" if w else "lose" for w in wins],
                "totals": [total(ranks(h)) for h in hands],
                "hands": [self._name(h, dealer=False) for h in hands],
                "dealer_total": total(ranks(self.dealer)),
                "dealer_hand": self._name(self.dealer, dealer=True),
            },
        )

    def _name(self, cards: list[Card], *, dealer: bool) -> str:
        return hand_name(ranks(cards), dealer=dealer, arashi=self.rules.arashi)

    def view(self, seat: int | None = None) -> KabuView:
        """Everything face up (all of it, in Kabu), whose turn it is and, at the end, results."""
        outcome = self.outcome()
        to_act = self.to_act()
        return {
            "game": "kabu",
            "phase": self.phase.value,
            "players": self.players,
            "rules": {"arashi": self.rules.arashi},
            "positions": [
                {
                    "number": p + 1,
                    "cards": [str(c) for c in hand],
                    "total": total(ranks(hand)),
                    "name": self._name(hand, dealer=False),
                    "seat": self.owner(p),
                }
                for p, hand in enumerate(self.positions)
            ],
            "dealer": {
                "cards": [str(c) for c in self.dealer],
                "total": total(ranks(self.dealer)),
                "name": self._name(self.dealer, dealer=True),
                "drew": self.dealer_drew,
            },
            "picks": [None if p is None else p + 1 for p in self.picks],
            "decisions": list(self.decisions),
            "to_act": list(to_act),
            "seat": seat,
            "legal": [] if seat is None else self.legal_actions(seat),
            "results": None if outcome is None else outcome.details["results"],
            "winners": None if outcome is None else list(outcome.winners),
        }

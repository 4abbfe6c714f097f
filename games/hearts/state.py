"""A game of Hearts: four seats, hands dealt from a stored seed, passing, tricks and scores.

>>> s = State.new(seed=1)
>>> s.phase, s.pass_direction.value, s.to_act()
(<Phase.PASS: 'pass'>, 'left', (0, 1, 2, 3))
>>> for seat in range(4):
...     s.apply(seat, s.legal_actions(seat)[0])
>>> s.phase, s.to_act() == (s.turn,)
(<Phase.PLAY: 'play'>, True)
>>> State.from_dict(s.to_dict()).to_dict() == s.to_dict()
True
"""

from __future__ import annotations

import random
from itertools import combinations
from typing import Any, NotRequired, TypedDict

from games.base import IllegalAction, Outcome, OutcomeDict
from games.cards import Card, cards_from_text, cards_to_text, shuffled_deck
from games.hearts.actions import format_pass, format_play, parse_pass, parse_play
from games.hearts.cardbits import (
    HEARTS,
    SUIT_MASK,
    cards_of,
    from_card,
    mask_of,
    points_in,
    sort_key,
    to_card,
)
from games.hearts.rules import (
    GAME_TARGET,
    SEATS,
    PassDirection,
    Phase,
    Rules,
    first_leader,
    hand_scores,
    legal_mask,
    next_seat,
    pass_target,
    trick_winner,
)

SCHEMA = 1
_SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")


def hand_seed(seed: int, hand_number: int) -> int:
    """The shuffle seed of one hand, derived from the game's seed."""
    return random.Random(f"hearts:{seed}:{hand_number}").getrandbits(48)


def _text(mask: int) -> str:
    return cards_to_text(sorted((to_card(c) for c in cards_of(mask)), key=sort_key))


def _mask(text: str) -> int:
    return mask_of(cards_from_text(text))


class LastTrickView(TypedDict):
    """The last full trick of the hand."""

    hand: int  # the hand it was played in
    leader: int
    cards: list[str]  # in the order played, from the leader
    winner: int
    points: int  # the points its winner took


class TrickPlayView(TypedDict):
    seat: int
    card: str


class HandRecordView(TypedDict):
    """A finished hand, as the scores show it."""

    hand: int
    dealer: int
    direction: str  # a PassDirection's value
    taken: list[int]  # each seat's points taken in the hand
    scores: list[int]  # each seat's score for the hand (the moon rule applied)
    moon: int | None  # the seat that shot the moon


class HeartsView(TypedDict):
    """:meth:`State.view`: the table as ``seat`` sees it; the keys marked NotRequired are a
    seat's own (its hand, its pass) and are absent from the channel's view (seat None)."""

    schema: int
    game: str  # "hearts"
    seat: int | None
    rules: dict[str, bool]  # Rules.to_dict()
    phase: str  # a Phase's value
    hand_number: int  # from 0
    dealer: int
    pass_direction: str  # a PassDirection's value
    passed: list[bool]  # which seats have chosen their cards to pass
    to_act: list[int]
    turn: int | None
    trick_leader: int | None  # None outside the play
    trick: list[TrickPlayView]  # the trick on the table
    last_trick: LastTrickView | None  # the last full trick of this hand
    played: list[tuple[int, str]]  # every card played this hand: (seat, card)
    hearts_broken: bool
    first_trick: bool
    cards_left: list[int]
    tricks_taken: list[int]
    points_this_hand: list[int]
    totals: list[int]
    moons: list[int]  # moons shot by each seat
    history: list[HandRecordView]
    over: bool
    outcome: OutcomeDict | None
    hand: NotRequired[list[str]]
    legal: NotRequired[list[str]]  # the seat's legal plays (none while passing)
    my_pass: NotRequired[list[str] | None]  # the cards it chose to pass
    pass_to: NotRequired[int | None]  # None on a hold hand
    pass_from: NotRequired[int | None]
    received: NotRequired[list[str] | None]  # the cards passed to it, once exchanged


class State:
    """The whole game (every hand, hidden cards included). Show players only ``view(seat)``."""

    seats = SEATS

    def __init__(self) -> None:
        self.rules = Rules()
        self.seed = 0
        self.first_dealer = 0
        self.hand_number = 0
        self.phase = Phase.PASS
        self.deal_seed: int | None = None
        self.deal: list[Card] = []
        self.hands = [0] * SEATS
        self.passes: list[int | None] = [None] * SEATS
        self.received = [0] * SEATS
        self.trick: list[int] = []
        self.trick_leader = 0
        self.turn: int | None = None
        self.played: list[tuple[int, int]] = []
        self.hearts_broken = False
        self.tricks_taken = [0] * SEATS
        self.points = [0] * SEATS
        self.last_trick: dict[str, Any] | None = None
        self.totals = [0] * SEATS
        self.moons = [0] * SEATS
        self.history: list[dict[str, Any]] = []

    # -- creation -------------------------------------------------------------------------
    @classmethod
    def new(
        cls,
        seed: int = 0,
        rules: Rules | None = None,
        dealer: int = 0,
        deal: list[Card] | None = None,
    ) -> State:
        """A new game. ``deal`` (52 cards, dealt one at a time from the dealer's left) fixes the
        first hand; later hands are shuffled from ``seed``."""
        s = cls()
        s.rules = rules or Rules()
        s.seed = seed
        s.first_dealer = dealer % SEATS
        s._deal(deal)
        return s

    @property
    def dealer(self) -> int:
        return (self.first_dealer + self.hand_number) % SEATS

    @property
    def pass_direction(self) -> PassDirection:
        return PassDirection.for_hand(self.hand_number)

    def _deal(self, deal: list[Card] | None = None) -> None:
        if deal is None:
            self.deal_seed = hand_seed(self.seed, self.hand_number)
            deal = shuffled_deck(self.deal_seed)
        else:
            self.deal_seed = None
            if len(deal) != 52 or len(set(deal)) != 52:
                raise ValueError("A deal is the 52 different cards.")
        self.deal = list(deal)
        self.hands = [0] * SEATS
        for i, card in enumerate(deal):
            self.hands[(self.dealer + 1 + i) % SEATS] |= 1 << from_card(card)
        self.passes = [None] * SEATS
        self.received = [0] * SEATS
        self.played = []
        self.trick = []
        self.hearts_broken = False
        self.tricks_taken = [0] * SEATS
        self.points = [0] * SEATS
        if self.pass_direction is PassDirection.HOLD:
            self._start_play()
        else:
            self.phase = Phase.PASS
            self.turn = None

    def _start_play(self) -> None:
        self.phase = Phase.PLAY
        leader = first_leader(self.dealer)
        if self.rules.two_of_clubs_leads:
            leader = next(s for s in range(SEATS) if self.hands[s] & 1)
        self.trick_leader = self.turn = leader

    # -- queries --------------------------------------------------------------------------
    def hand(self, seat: int) -> list[Card]:
        """The cards ``seat`` holds, in display order."""
        return sorted((to_card(c) for c in cards_of(self.hands[seat])), key=sort_key)

    def to_act(self) -> tuple[int, ...]:
        if self.phase is Phase.PASS:
            return tuple(s for s in range(SEATS) if self.passes[s] is None)
        if self.phase is Phase.PLAY and self.turn is not None:
            return (self.turn,)
        return ()

    def is_over(self) -> bool:
        return self.phase is Phase.GAME_OVER

    @property
    def first_trick(self) -> bool:
        return len(self.played) < SEATS

    def legal_mask(self, seat: int) -> int:
        if self.phase is not Phase.PLAY or seat != self.turn:
            return 0
        lead = self.trick[0] // 13 if self.trick else None
        return legal_mask(self.hands[seat], lead, self.first_trick, self.hearts_broken, self.rules)

    def legal_actions(self, seat: int) -> list[str]:
        """Every action ``seat`` may take now, in a stable order (passes: 286 of them)."""
        if self.phase is Phase.PASS and seat in self.to_act():
            return [format_pass(combo) for combo in combinations(self.hand(seat), 3)]
        mask = self.legal_mask(seat)
        return [format_play(c) for c in sorted(map(to_card, cards_of(mask)), key=sort_key)]

    # -- actions --------------------------------------------------------------------------
    def apply(self, seat: int, action: str) -> None:
        """Play a card (``QS``) or choose a pass (``pass-2C-QS-AH``); refuse illegal ones."""
        if not isinstance(seat, int) or not 0 <= seat < SEATS:
            raise IllegalAction("That is not a seat at this table.")
        if self.phase is Phase.GAME_OVER:
            raise IllegalAction("The game is over.")
        if not isinstance(action, str) or not action.strip():
            raise IllegalAction("Name a card, like QS.")
        if self.phase is Phase.PASS:
            self._choose_pass(seat, action)
        else:
            self._play(seat, action)

    def _choose_pass(self, seat: int, action: str) -> None:
        if self.passes[seat] is not None:
            raise IllegalAction("You have already chosen your three cards.")
        cards = parse_pass(action)
        mask = mask_of(cards)
        if mask & ~self.hands[seat]:
            raise IllegalAction("You can only pass cards from your own hand.")
        self.passes[seat] = mask
        if all(p is not None for p in self.passes):
            self._exchange()

    def _exchange(self) -> None:
        passes = [p or 0 for p in self.passes]
        for seat in range(SEATS):
            self.hands[seat] &= ~passes[seat]
        for seat in range(SEATS):
            target = pass_target(seat, self.pass_direction)
            self.hands[target] |= passes[seat]
            self.received[target] = passes[seat]
        self._start_play()

    def _play(self, seat: int, action: str) -> None:
        if seat != self.turn:
            raise IllegalAction("It is not your turn.")
        if action.strip().lower().startswith("pass"):
            raise IllegalAction("The passing is over; play a card.")
        c = from_card(parse_play(action))
        hand = self.hands[seat]
        if not hand >> c & 1:
            raise IllegalAction(f"You do not hold {to_card(c)}.")
        if not self.legal_mask(seat) >> c & 1:
            raise IllegalAction(self._why_illegal(hand, c))
        self.hands[seat] = hand & ~(1 << c)
        self.trick.append(c)
        self.played.append((seat, c))
        if c // 13 == HEARTS:
            self.hearts_broken = True
        if len(self.trick) < SEATS:
            self.turn = next_seat(seat)
            return
        winner = trick_winner(self.trick_leader, self.trick)
        self.tricks_taken[winner] += 1
        self.points[winner] += points_in(sum(1 << x for x in self.trick))
        self.last_trick = {
            "hand": self.hand_number,
            "leader": self.trick_leader,
            "cards": [str(to_card(x)) for x in self.trick],
            "winner": winner,
        }
        self.trick = []
        self.trick_leader = self.turn = winner
        if not any(self.hands):
            self._finish_hand()

    def _why_illegal(self, hand: int, c: int) -> str:
        if self.trick:
            lead = self.trick[0] // 13
            if hand & SUIT_MASK[lead]:
                return f"You must follow suit: play one of your {_SUIT_NAMES[lead]}."
            return "No hearts or queen of spades on the first trick while you have other cards."
        if self.first_trick and self.rules.two_of_clubs_leads and hand & 1:
            return "The first trick must be led with the two of clubs."
        if self.first_trick and c // 13 != HEARTS:
            return "No points may be led to the first trick while you have other cards."
        if self.first_trick:
            return "The first lead may not be a heart."
        return "Hearts are not broken yet: lead another suit."

    def _finish_hand(self) -> None:
        scores, moon = hand_scores(self.points)
        for seat in range(SEATS):
            self.totals[seat] += scores[seat]
        if moon is not None:
            self.moons[moon] += 1
        self.history.append(
            {
                "hand": self.hand_number,
                "dealer": self.dealer,
                "direction": self.pass_direction.value,
                "seed": self.deal_seed,
                "deal": cards_to_text(self.deal),
                "passes": [_text(p) if p else "" for p in self.passes],
                "plays": cards_to_text(to_card(c) for _, c in self.played),
                "taken": list(self.points),
                "scores": scores,
                "moon": moon,
            }
        )
        if max(self.totals) >= GAME_TARGET:
            self.phase = Phase.GAME_OVER
            self.turn = None
            return
        self.hand_number += 1
        self._deal()

    # -- results --------------------------------------------------------------------------
    def outcome(self) -> Outcome | None:
        """Lowest total wins (ties share), once someone has reached 100."""
        if not self.is_over():
            return None
        best = min(self.totals)
        return Outcome(
            winners=tuple(s for s in range(SEATS) if self.totals[s] == best),
            termination="score-limit",
            scores=tuple(self.totals),
            details={
                "moons": list(self.moons),
                "hands_played": len(self.history),
                "points_per_hand": [list(h["scores"]) for h in self.history],
            },
        )

    # -- views ----------------------------------------------------------------------------
    def view(self, seat: int | None) -> HeartsView:
        """What ``seat`` may see (None: the public channel). Never another seat's hand or pass.

        >>> v = State.new(seed=3).view(None)
        >>> "hand" in v, v["cards_left"]
        (False, [13, 13, 13, 13])
        """
        cards_left = [m.bit_count() for m in self.hands]
        v: HeartsView = {
            "schema": SCHEMA,
            "game": "hearts",
            "seat": seat,
            "rules": self.rules.to_dict(),
            "phase": self.phase.value,
            "hand_number": self.hand_number,
            "dealer": self.dealer,
            "pass_direction": self.pass_direction.value,
            "passed": [p is not None for p in self.passes],
            "to_act": list(self.to_act()),
            "turn": self.turn,
            "trick_leader": self.trick_leader if self.phase is Phase.PLAY else None,
            "trick": [
                {"seat": (self.trick_leader + i) % SEATS, "card": str(to_card(c))}
                for i, c in enumerate(self.trick)
            ],
            "last_trick": self._last_trick_this_hand(),
            "played": [(s, str(to_card(c))) for s, c in self.played],
            "hearts_broken": self.hearts_broken,
            "first_trick": self.phase is Phase.PLAY and self.first_trick,
            "cards_left": cards_left,
            "tricks_taken": list(self.tricks_taken),
            "points_this_hand": list(self.points),
            "totals": list(self.totals),
            "moons": list(self.moons),
            "history": [
                {
                    "hand": h["hand"],
                    "dealer": h["dealer"],
                    "direction": h["direction"],
                    "taken": h["taken"],
                    "scores": h["scores"],
                    "moon": h["moon"],
                }
                for h in self.history
            ],
            "over": self.is_over(),
            "outcome": None if (ended := self.outcome()) is None else ended.to_dict(),
        }
        if seat is not None:
            mine = self.passes[seat]
            exchanged = self.phase is not Phase.PASS
            direction = self.pass_direction
            v["hand"] = [str(c) for c in self.hand(seat)]
            v["legal"] = [] if self.phase is Phase.PASS else self.legal_actions(seat)
            v["my_pass"] = _text(mine).split() if mine else None
            v["pass_to"] = pass_target(seat, direction) if direction.offset else None
            v["pass_from"] = (seat - direction.offset) % SEATS if direction.offset else None
            v["received"] = _text(self.received[seat]).split() if exchanged else None
        return v

    def _last_trick_this_hand(self) -> LastTrickView | None:
        """The last full trick of this hand (None before the first one is complete), with the
        points its winner took."""
        lt = self.last_trick
        if not lt or lt["hand"] != self.hand_number:
            return None
        cards = sum(1 << from_card(Card.parse(code)) for code in lt["cards"])
        return {
            "hand": lt["hand"],
            "leader": lt["leader"],
            "cards": lt["cards"],
            "winner": lt["winner"],
            "points": points_in(cards),
        }

    # -- JSON -----------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        return {
            "schema": SCHEMA,
            "game": "hearts",
            "rules": self.rules.to_dict(),
            "seed": self.seed,
            "first_dealer": self.first_dealer,
            "hand_number": self.hand_number,
            "phase": self.phase.value,
            "deal_seed": self.deal_seed,
            "deal": cards_to_text(self.deal),
            "hands": [_text(m) for m in self.hands],
            "passes": [None if p is None else _text(p) for p in self.passes],
            "received": [_text(m) for m in self.received],
            "trick": cards_to_text(to_card(c) for c in self.trick),
            "trick_leader": self.trick_leader,
            "turn": self.turn,
            "played": [[s, str(to_card(c))] for s, c in self.played],
            "hearts_broken": self.hearts_broken,
            "tricks_taken": list(self.tricks_taken),
            "points": list(self.points),
            "last_trick": self.last_trick,
            "totals": list(self.totals),
            "moons": list(self.moons),
            "history": self.history,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> State:
        if data.get("schema") != SCHEMA:
            raise ValueError(f"Unknown hearts schema {data.get('schema')!r}.")
        s = cls()
        s.rules = Rules.from_dict(data["rules"])
        s.seed = data["seed"]
        s.first_dealer = data["first_dealer"]
        s.hand_number = data["hand_number"]
        s.phase = Phase(data["phase"])
        s.deal_seed = data["deal_seed"]
        s.deal = cards_from_text(data["deal"])
        s.hands = [_mask(t) for t in data["hands"]]
        s.passes = [None if p is None else _mask(p) for p in data["passes"]]
        s.received = [_mask(t) for t in data["received"]]
        s.trick = [from_card(c) for c in cards_from_text(data["trick"])]
        s.trick_leader = data["trick_leader"]
        s.turn = data["turn"]
        s.played = [(seat, from_card(Card.parse(c))) for seat, c in data["played"]]
        s.hearts_broken = data["hearts_broken"]
        s.tricks_taken = list(data["tricks_taken"])
        s.points = list(data["points"])
        s.last_trick = data["last_trick"]
        s.totals = list(data["totals"])
        s.moons = list(data["moons"])
        s.history = list(data["history"])
        return s

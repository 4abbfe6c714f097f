"""What one seat knows, read from its view, and deals of the hidden cards consistent with it.

The AI is built on this, so it cannot see what the seat cannot: a test gives it the same view
over different hidden deals and expects the same card.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from games.cards import Card
from games.hearts.cardbits import ALL_CARDS, HEARTS, SUIT_MASK, cards_of, from_card
from games.hearts.rules import SEATS, Rules, legal_mask
from games.hearts.state import HeartsView


def parse_mask(texts: list[str] | None) -> int:
    """The mask of cards written as ``["QS", "2H"]``."""
    m = 0
    for t in texts or ():
        m |= 1 << from_card(Card.parse(t))
    return m


@dataclass(frozen=True, slots=True)
class Knowledge:
    """One seat's information set during play (all cards as ints, hands as masks)."""

    seat: int
    rules: Rules
    hand: int
    played: int  # every card played this hand, the current trick included
    trick: tuple[int, ...]
    leader: int
    hearts_broken: bool
    first_trick: bool
    points: tuple[int, ...]
    cards_left: tuple[int, ...]
    voids: tuple[int, ...]  # per seat, a 4-bit mask of suits it cannot hold
    known: tuple[int, ...]  # per seat, cards it surely holds (my pass, not yet played)
    plays: tuple[tuple[int, int], ...] = ()  # (seat, card) of every card played this hand

    @classmethod
    def from_view(cls, view: HeartsView) -> Knowledge:
        seat, leader = view["seat"], view["trick_leader"]
        if seat is None or leader is None:
            raise ValueError("Knowledge is a seat's, during the play: this view is not.")
        played = 0
        voids = [0] * SEATS
        broken = False
        plays = [(s, from_card(Card.parse(c))) for s, c in view["played"]]
        for i in range(0, len(plays), SEATS):
            trick = plays[i : i + SEATS]
            s0, c0 = trick[0]
            lead = c0 // 13
            if lead == HEARTS and not broken:
                voids[s0] |= 0b1011  # led a heart before they were broken: only hearts left
            for s, c in trick[1:]:
                if c // 13 != lead:
                    voids[s] |= 1 << lead
            for _, c in trick:
                played |= 1 << c
                broken = broken or c // 13 == HEARTS
        known = [0] * SEATS
        target = view.get("pass_to")
        if target is not None and view.get("received") is not None:
            known[target] = parse_mask(view["my_pass"]) & ~played
        trick_cards = tuple(from_card(Card.parse(t["card"])) for t in view["trick"])
        return cls(
            seat=seat,
            rules=Rules.from_dict(view["rules"]),
            hand=parse_mask(view["hand"]),
            played=played,
            trick=trick_cards,
            leader=leader,
            hearts_broken=view["hearts_broken"],
            first_trick=view["first_trick"],
            points=tuple(view["points_this_hand"]),
            cards_left=tuple(view["cards_left"]),
            voids=tuple(voids),
            known=tuple(known),
            plays=tuple(plays),
        )

    def legal(self) -> int:
        lead = self.trick[0] // 13 if self.trick else None
        return legal_mask(self.hand, lead, self.first_trick, self.hearts_broken, self.rules)

    def sample(self, rng: random.Random) -> list[int]:
        """Four hands (masks): mine, and the others' cards dealt at random within what is known
        (voids shown, the cards I passed). The last of many tries ignores the voids."""
        me = self.seat
        unknown = ALL_CARDS & ~self.hand & ~self.played
        for k in self.known:
            unknown &= ~k
        others = [s for s in range(SEATS) if s != me]
        need0 = {s: self.cards_left[s] - self.known[s].bit_count() for s in others}
        # Cards of the most constrained suits go first.
        by_suit = []
        for suit in range(4):
            seats = [s for s in others if not self.voids[s] >> suit & 1]
            by_suit.append((len(seats), suit, seats))
        by_suit.sort()
        for attempt in range(30):
            hands = list(self.known)
            hands[me] = self.hand
            need = dict(need0)
            ok = True
            for _, suit, seats in by_suit:
                if attempt == 29:
                    seats = others
                cards = cards_of(unknown & SUIT_MASK[suit])
                rng.shuffle(cards)
                for c in cards:
                    open_seats = [s for s in seats if need[s] > 0]
                    if not open_seats:
                        if any(need.values()) and attempt < 29:
                            ok = False
                            break
                        continue  # more cards than places: only in hand-made positions
                    weights = [need[s] for s in open_seats]
                    s = (
                        rng.choices(open_seats, weights)[0]
                        if len(open_seats) > 1
                        else open_seats[0]
                    )
                    hands[s] |= 1 << c
                    need[s] -= 1
                if not ok:
                    break
            if ok:
                break
        return hands

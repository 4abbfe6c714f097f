"""The hint's exact odds against a plain brute force over every order of the unseen cards."""

from __future__ import annotations

from fractions import Fraction

import pytest
from test_kabu_helpers import player_wins, referee_dealer_draws, table

from games.base import IllegalAction
from games.kabu import choose, hint
from games.kabu.state import ranks


def brute_force(state, seat, draw: bool) -> Fraction:
    """Deal the unseen cards in every order (weighted by rank counts), in the real deal order:
    the player's third card, the second cards of positions to the right (other players there
    stand), the dealer's second card, then the dealer's rule and its third card."""
    mine = state.picks[seat]
    unseen = state.unseen_counts()
    hands = [list(ranks(p)) for p in state.positions]
    dealer = [int(state.dealer[0].rank)]
    seated = [p for p in state.picks if p is not None]
    steps = (["me"] if draw else []) + [p for p in range(mine + 1, 5)] + ["d2"]

    def go(i: int) -> Fraction:
        if i == len(steps):
            seated_hands = [tuple(hands[p]) for p in seated]
            if referee_dealer_draws(tuple(dealer), seated_hands, unseen):
                n = sum(unseen)
                won = sum(
                    unseen[r] * player_wins(tuple(hands[mine]), (*dealer, r)) for r in range(1, 14)
                )
                return Fraction(won, n)
            return Fraction(int(player_wins(tuple(hands[mine]), tuple(dealer))))
        target = (
            hands[mine] if steps[i] == "me" else dealer if steps[i] == "d2" else hands[steps[i]]
        )
        n = sum(unseen)
        acc = Fraction(0)
        for r in range(1, 14):
            if unseen[r]:
                k = unseen[r]
                unseen[r] -= 1
                target.append(r)
                acc += k * go(i + 1)
                target.pop()
                unseen[r] += 1
        return acc / n

    return go(0)


@pytest.mark.parametrize(
    "first",
    [
        "2C 3C 4C 5C 6C 7C",
        "AC 9C 4D AH 4C 2S",  # Shippin chances for the player, Kuppin for the dealer
        "KC KD 3C TC 5C KH",  # Arashi chances on both sides
    ],
)
def test_hint_matches_brute_force_one_player_rightmost(first):
    s = table(first)
    s.apply(0, "pick-5")
    draw, stand = hint(s, 0)
    assert draw == brute_force(s, 0, draw=True)
    assert stand == brute_force(s, 0, draw=False)


def test_hint_matches_brute_force_with_an_unpicked_position_to_the_right():
    s = table("2C 3C 7C 5C 6C 4D")
    s.apply(0, "pick-4")
    draw, stand = hint(s, 0)
    assert stand == brute_force(s, 0, draw=False)
    assert draw == brute_force(s, 0, draw=True)


def test_hint_matches_brute_force_with_another_player_to_the_right():
    s = table("2C 3C 8C 9C 6C 5D", players=2)
    s.apply(0, "pick-4")
    s.apply(1, "pick-5")
    assert s.to_act() == (0,)
    draw, stand = hint(s, 0)
    assert stand == brute_force(s, 0, draw=False)
    assert draw == brute_force(s, 0, draw=True)


def test_hint_matches_brute_force_with_players_and_gaps():
    # seat 1 at position 2 already decided (drew); seat 0 at 3 decides; 4 unpicked, 5 seated.
    s = table("2C 3C 8C 9C 6C 5D", "7H 8H 9H KS", players=3)
    s.apply(0, "pick-3")
    s.apply(1, "pick-2")
    s.apply(2, "pick-5")
    s.apply(1, "draw")
    assert s.to_act() == (0,)
    stand = hint(s, 0)[1]
    assert stand == brute_force(s, 0, draw=False)


def test_hint_is_only_for_the_deciding_player():
    s = table("2C 3C 4C 5C 6C 7C", players=2)
    with pytest.raises(IllegalAction):
        hint(s, 0)  # still picking
    s.apply(0, "pick-1")
    s.apply(1, "pick-2")
    with pytest.raises(IllegalAction):
        hint(s, 1)


def test_best_play_follows_the_hint():
    s = table("2C 3C 4C 5C 6C 7C")
    s.apply(0, "pick-5")
    draw, stand = hint(s, 0)
    assert choose(s, 0, "best") == ("draw" if draw > stand else "stand")


def test_best_pick_prefers_a_shippin_chance():
    s = table("2C 3C AC 5C 6C 7C")
    assert choose(s, 0, "best") == "pick-3"


def test_hint_matches_brute_force_with_two_unpicked_positions_to_the_right():
    s = table("4C 9C 2C 6C KC 5D")
    s.apply(0, "pick-3")
    stand = hint(s, 0)[1]  # the unpicked positions' cards go as a handful
    assert stand == brute_force(s, 0, draw=False)


def test_hint_matches_brute_force_with_two_players_to_the_right():
    s = table("2C 3C 3D 9C AC 5D", players=3)
    s.apply(0, "pick-3")
    s.apply(1, "pick-4")
    s.apply(2, "pick-5")
    assert s.to_act() == (0,)
    stand = hint(s, 0)[1]
    assert stand == brute_force(s, 0, draw=False)

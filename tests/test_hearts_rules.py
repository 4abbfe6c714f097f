"""Every Hearts rule of RULES.md, one test each, named after the rule."""

from __future__ import annotations

import pytest

from games.base import IllegalAction
from games.cards import Card, cards_from_text, full_deck
from games.hearts import PassDirection, Phase, Rules, State
from games.hearts.cardbits import hearts_rank

ALL = full_deck()


def deal_of(hands: list[str], dealer: int = 0) -> list[Card]:
    """The 52-card deal order that gives seat s the cards ``hands[s]``."""
    cards = [cards_from_text(h) for h in hands]
    assert all(len(c) == 13 for c in cards)
    return [cards[(dealer + 1 + j) % 4][i] for i in range(13) for j in range(4)]


def playing(hands: list[str], leader: int, rules: Rules | None = None, **extra) -> State:
    """A state in the play phase with the given hands (any sizes) and leader."""
    full = [" ".join(str(c) for c in ALL[13 * s : 13 * s + 13]) for s in range(4)]
    d = State.new(seed=0, rules=rules, deal=deal_of(full)).to_dict()
    d.update(phase="play", turn=leader, trick_leader=leader, passes=[None] * 4, hands=hands)
    d.update(extra)
    return State.from_dict(d)


def play(s: State, *cards: str) -> None:
    for c in cards:
        s.apply(s.turn, c)


def pass_first(s: State) -> None:
    for seat in range(4):
        s.apply(seat, s.legal_actions(seat)[0])


# A deal where every seat holds one whole suit: 0 clubs, 1 diamonds, 2 hearts, 3 spades.
SUITS = [" ".join(f"{r}{s}" for r in "23456789TJQKA") for s in "CDHS"]


def test_four_seats_thirteen_cards_each() -> None:
    s = State.new(seed=9)
    hands = [s.hand(seat) for seat in range(4)]
    assert s.seats == 4
    assert [len(h) for h in hands] == [13] * 4
    assert sorted({c for h in hands for c in h}) == sorted(ALL)


def test_passing_goes_left_right_across_then_hold() -> None:
    expected = ["left", "right", "across", "hold", "left", "right", "across", "hold"]
    assert [PassDirection.for_hand(n).value for n in range(8)] == expected
    assert [PassDirection.for_hand(n).offset for n in range(4)] == [1, 3, 2, 0]


def test_three_cards_go_to_the_left_on_the_first_hand() -> None:
    s = State.new(seed=0, deal=deal_of(SUITS))
    s.apply(0, "pass-2C-3C-4C")
    s.apply(1, "pass-2D-3D-4D")
    s.apply(2, "pass-2H-3H-4H")
    s.apply(3, "pass-2S-3S-4S")
    assert {"2C", "3C", "4C"} <= {str(c) for c in s.hand(1)}
    assert {"2S", "3S", "4S"} <= {str(c) for c in s.hand(0)}
    assert s.view(1)["received"] == ["2C", "3C", "4C"]


def test_hold_hand_has_no_passing() -> None:
    s = State.new(seed=4)
    for _ in range(3):
        s = _finish_hand_quickly(s)
    assert s.hand_number == 3 and s.pass_direction is PassDirection.HOLD
    assert s.phase is Phase.PLAY and all(len(s.hand(seat)) == 13 for seat in range(4))


def _finish_hand_quickly(s: State) -> State:
    while s.phase is Phase.PASS:
        pass_first(s)
    n = s.hand_number
    while s.hand_number == n:
        s.apply(s.turn, s.legal_actions(s.turn)[0])
    return s


def test_everyone_chooses_before_any_cards_are_handed_over() -> None:
    s = State.new(seed=1)
    before = [s.hand(seat) for seat in range(4)]
    assert s.to_act() == (0, 1, 2, 3)
    s.apply(2, s.legal_actions(2)[5])
    assert s.to_act() == (0, 1, 3)
    s.apply(0, s.legal_actions(0)[0])
    s.apply(3, s.legal_actions(3)[0])
    assert [s.hand(seat) for seat in range(4)] == before
    assert s.phase is Phase.PASS
    s.apply(1, s.legal_actions(1)[0])
    assert s.phase is Phase.PLAY
    assert [s.hand(seat) for seat in range(4)] != before


def test_a_pass_is_three_different_cards_of_ones_own_hand() -> None:
    s = State.new(seed=0, deal=deal_of(SUITS))
    for bad in ("pass-2C-3C", "pass-2C-2C-3C", "pass-2C-3C-2D", "2C"):
        with pytest.raises(IllegalAction):
            s.apply(0, bad)
    s.apply(0, "pass-2C-3C-4C")
    with pytest.raises(IllegalAction):
        s.apply(0, "pass-5C-6C-7C")


def test_play_goes_clockwise_to_the_left() -> None:
    s = State.new(seed=3)
    pass_first(s)
    leader = s.turn
    s.apply(leader, s.legal_actions(leader)[0])
    assert s.turn == (leader + 1) % 4


def test_first_trick_is_led_by_the_player_to_the_right_of_the_dealer() -> None:
    for dealer in range(4):
        s = State.new(seed=5, dealer=dealer)
        pass_first(s)
        assert s.dealer == dealer
        assert s.turn == (dealer - 1) % 4


def test_the_deal_moves_one_seat_to_the_left_each_hand() -> None:
    s = State.new(seed=6, dealer=2)
    dealers = [s.dealer]
    for _ in range(3):
        s = _finish_hand_quickly(s)
        dealers.append(s.dealer)
    assert dealers == [2, 3, 0, 1]


def test_each_later_trick_is_led_by_the_winner_of_the_previous_one() -> None:
    s = playing(["2C 3D", "AC 4D", "5C 5D", "6C 6D"], leader=0)
    play(s, "2C", "AC", "5C", "6C")
    assert s.turn == 1 and s.trick_leader == 1


def test_first_lead_may_not_be_a_heart() -> None:
    s = State.new(seed=0, deal=deal_of(SUITS))
    pass_first(s)
    d = s.to_dict()
    d.update(hands=["2H 3C", "4D 5D", "6S 7S", "8C 9C"], turn=0, trick_leader=0)
    s = State.from_dict(d)
    with pytest.raises(IllegalAction, match="first lead"):
        s.apply(0, "2H")
    assert s.legal_actions(0) == ["3C"]


def test_hearts_may_not_be_led_until_broken() -> None:
    s = playing(["2H 3C", "4C 5D", "6C 7S", "8C 9C"], leader=0, played=[[0, "2S"]] * 4)
    assert not s.first_trick and not s.hearts_broken
    with pytest.raises(IllegalAction, match="not broken"):
        s.apply(0, "2H")
    assert s.legal_actions(0) == ["3C"]


def test_hearts_may_be_led_by_a_leader_holding_only_hearts() -> None:
    s = playing(["2H 3H", "4C 5D", "6C 7S", "8C 9C"], leader=0, played=[[0, "2S"]] * 4)
    assert s.legal_actions(0) == ["2H", "3H"]
    s.apply(0, "2H")
    assert s.hearts_broken


def test_hearts_are_broken_by_a_heart_played_to_a_trick() -> None:
    s = playing(["2C 3H", "4C 5D", "2H 7S", "8C 9C"], leader=0, played=[[0, "2S"]] * 4)
    play(s, "2C", "4C")
    assert not s.hearts_broken
    play(s, "2H")
    assert s.hearts_broken
    play(s, "8C")
    assert s.turn == 3  # 8C wins; next time anyone may lead a heart
    assert s.view(None)["hearts_broken"]


def test_follow_suit_when_able() -> None:
    s = playing(["2C 3D", "4C 5D", "6C 7D", "8C 9D"], leader=0, played=[[0, "2S"]] * 4)
    play(s, "2C")
    assert s.legal_actions(1) == ["4C"]
    before = s.to_dict()
    with pytest.raises(IllegalAction, match="follow suit"):
        s.apply(1, "5D")
    assert s.to_dict() == before


def test_a_void_player_may_play_any_card_also_hearts_and_the_queen_on_the_first_trick() -> None:
    s = playing(["2C 3D", "QS 2H 5D", "6C 7D", "8C 9D"], leader=0)
    assert s.first_trick
    play(s, "2C")
    assert set(s.legal_actions(1)) == {"QS", "2H", "5D"}
    play(s, "QS", "6C", "8C")
    assert s.points[3] == 13


def test_the_highest_card_of_the_suit_led_wins_with_aces_high() -> None:
    s = playing(["KC 3D", "AD 5D", "AC 7D", "2C 9D"], leader=0)
    play(s, "KC", "AD", "AC", "2C")
    assert s.last_trick["winner"] == 2
    assert hearts_rank(Card.parse("AC")) > hearts_rank(Card.parse("KC"))


def test_one_point_per_heart_and_thirteen_for_the_queen_of_spades() -> None:
    s = playing(["2D", "3H", "QS", "4H"], leader=0, hearts_broken=True)
    play(s, "2D", "3H", "QS", "4H")
    assert s.history[-1]["taken"] == [15, 0, 0, 0]


def _last_trick_state(taken: list[int], hands: list[str]) -> State:
    return playing(hands, leader=0, points=taken, hearts_broken=True, played=[[0, "2S"]] * 48)


def test_points_are_added_to_the_totals_after_each_hand() -> None:
    s = _last_trick_state([5, 5, 5, 7], ["AC", "2H", "3C", "4C"])
    play(s, "AC", "2H", "3C", "4C")
    assert s.totals == [6, 5, 5, 7] and s.history[-1]["scores"] == [6, 5, 5, 7]


def test_shooting_the_moon_scores_zero_and_twenty_six_to_every_other_player() -> None:
    s = _last_trick_state([25, 0, 0, 0], ["AC", "2H", "3C", "4C"])
    play(s, "AC", "2H", "3C", "4C")
    assert s.history[-1]["taken"] == [26, 0, 0, 0]
    assert s.totals == [0, 26, 26, 26]
    assert s.history[-1]["moon"] == 0 and s.moons == [1, 0, 0, 0]


def test_the_game_ends_after_the_hand_in_which_someone_reaches_100() -> None:
    s = _last_trick_state([5, 5, 5, 7], ["AC", "2H", "3C", "4C"])
    s.totals = [80, 94, 60, 70]
    play(s, "AC", "2H", "3C", "4C")
    assert not s.is_over() and s.totals == [86, 99, 65, 77]
    s = _last_trick_state([5, 2, 5, 13], ["AC", "2H", "3C", "4C"])
    s.totals = [80, 98, 60, 70]
    play(s, "AC", "2H", "3C", "4C")
    assert s.is_over() and s.phase is Phase.GAME_OVER
    assert s.to_act() == () and s.legal_actions(0) == []
    out = s.outcome()
    assert out.winners == (2,) and out.scores == (86, 100, 65, 83)
    with pytest.raises(IllegalAction, match="over"):
        s.apply(0, "2C")


def test_the_lowest_total_wins_and_ties_share_the_win() -> None:
    s = _last_trick_state([5, 2, 5, 13], ["AC", "2H", "3C", "4C"])
    s.totals = [59, 98, 60, 70]
    play(s, "AC", "2H", "3C", "4C")
    out = s.outcome()
    assert out.winners == (0, 2)
    assert out.termination == "score-limit"
    assert out.details["hands_played"] == 1 and out.details["moons"] == [0, 0, 0, 0]


def test_modern_first_trick_rules_are_off_by_default() -> None:
    assert Rules() == Rules(two_of_clubs_leads=False, no_points_on_first_trick=False)
    assert State.new(seed=0).rules == Rules()


def test_two_of_clubs_leads_the_first_trick_when_the_option_is_on() -> None:
    for seed in range(6):
        s = State.new(seed=seed, rules=Rules(two_of_clubs_leads=True))
        pass_first(s)
        holder = next(seat for seat in range(4) if Card.parse("2C") in s.hand(seat))
        assert s.turn == holder and s.legal_actions(holder) == ["2C"]


def test_no_points_on_the_first_trick_when_the_option_is_on() -> None:
    rules = Rules(no_points_on_first_trick=True)
    s = playing(["2C 3D", "QS 2H 5D", "6C 7D", "8C 9D"], leader=0, rules=rules)
    play(s, "2C")
    assert s.legal_actions(1) == ["5D"]
    with pytest.raises(IllegalAction, match="first trick"):
        s.apply(1, "QS")
    s = playing(["2C 3D", "QS 2H", "6C 7D", "8C 9D"], leader=0, rules=rules)
    play(s, "2C")
    assert set(s.legal_actions(1)) == {"QS", "2H"}


def test_only_the_player_whose_turn_it_is_may_play() -> None:
    s = playing(["2C 3D", "4C 5D", "6C 7D", "8C 9D"], leader=0)
    with pytest.raises(IllegalAction, match="not your turn"):
        s.apply(1, "4C")
    with pytest.raises(IllegalAction, match="do not hold"):
        s.apply(0, "4C")
    with pytest.raises(IllegalAction):
        s.apply(7, "2C")


def test_every_deal_is_stored_and_replays() -> None:
    s = State.new(seed=12)
    s = _finish_hand_quickly(s)
    h = s.history[0]
    replay = State.new(seed=0, deal=cards_from_text(h["deal"]))
    assert [replay.hand(seat) for seat in range(4)] == [
        State.new(seed=12).hand(seat) for seat in range(4)
    ]
    for seat, p in enumerate(h["passes"]):
        replay.apply(seat, "pass-" + p.replace(" ", "-"))
    for card in h["plays"].split():
        replay.apply(replay.turn, card)
    assert replay.totals == s.totals and replay.history[0]["plays"] == h["plays"]

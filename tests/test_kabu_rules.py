"""Kabu, one test per rule of RULES.md (Kabu) and every example of the seed."""

from __future__ import annotations

import pytest
from test_kabu_helpers import referee_dealer_draws, table

from games.base import IllegalAction
from games.kabu import Phase, State, dealer_beats, dealer_draws, hand_name, total
from games.kabu.hands import VALUE

A, J, K = 1, 11, 13


def test_card_values():
    assert [VALUE[r] for r in range(1, 14)] == [1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 1, 2, 3]


@pytest.mark.parametrize(
    ("hand", "expected"), [((K, 3, 8), 4), ((5, 9, 9), 3), ((4, 5), 9), ((10, J), 1)]
)
def test_total_is_the_last_digit_of_the_sum(hand, expected):
    assert total(hand) == expected


def test_deal_five_face_up_positions_and_one_dealer_card():
    s = table("2C 3C 4C 5C 6C 7C")
    v = s.view(None)
    assert [p["cards"] for p in v["positions"]] == [["2C"], ["3C"], ["4C"], ["5C"], ["6C"]]
    assert v["dealer"]["cards"] == ["7C"]
    assert s.phase is Phase.PICK and s.to_act() == (0,)


def test_second_cards_dealt_left_to_right_up_to_the_chosen_position():
    s = table("2C 3C 4C 5C 6C 7C", "8C 9C TC")
    s.apply(0, "pick-3")
    hands = [p["cards"] for p in s.view(0)["positions"]]
    assert hands == [["2C", "8C"], ["3C", "9C"], ["4C", "TC"], ["5C"], ["6C"]]
    assert s.legal_actions(0) == ["draw", "stand"]


def test_drawing_gives_the_chosen_position_a_third_card_before_the_rest():
    s = table("2C 3C 4C 5C 6C 7C", "8C 9C TC JC QC KC AD 2D")
    s.apply(0, "pick-2")
    s.apply(0, "draw")
    v = s.view(0)
    assert v["positions"][1]["cards"] == ["3C", "9C", "TC"]
    # then the remaining positions left to right, then the dealer
    assert [p["cards"][1] for p in v["positions"][2:]] == ["JC", "QC", "KC"]
    assert v["dealer"]["cards"][:2] == ["7C", "AD"]


def test_a_hand_has_at_most_three_cards():
    s = table("2C 3C 4C 5C 6C 7C")
    s.apply(0, "pick-1")
    s.apply(0, "draw")
    assert s.is_over()
    with pytest.raises(IllegalAction):
        s.apply(0, "draw")
    assert all(len(p) <= 3 for p in s.positions) and len(s.dealer) <= 3


def test_higher_total_wins():
    # player 4+5 = 9 stands; dealer 7C + 8D = 5 ... dealer draws? give it 7+K = 0 then 8: 8 < 9
    s = table("4C 2C 3C 5C 6C 7D", "5D 2D 3D 4D 5H KD 8H")
    s.apply(0, "pick-1")
    s.apply(0, "stand")
    assert total((4, 5)) == 9
    assert s.outcome().winners == (0,)
    assert s.outcome().details["results"] == ["win"]


def test_ties_go_to_the_dealer():
    assert dealer_beats((5, 3), (4, 4), arashi=True)  # 8 against 8
    assert dealer_beats((10, 10), (10, K, 7), arashi=True) is True  # 0 against 0
    assert not dealer_beats((5, 2), (4, 4), arashi=True)


def test_seed_equal_or_less_than_computer_total_loses():
    assert dealer_beats((9,), (8,), arashi=True)
    assert dealer_beats((9,), (9,), arashi=True)


def test_shippin_beats_a_dealer_nine():
    assert not dealer_beats((4, 5), (A, 4), arashi=True)
    assert not dealer_beats((4, 5), (4, A), arashi=True)
    assert hand_name((4, A), dealer=False, arashi=True) == "Shippin"


def test_shippin_beats_dealer_arashi():
    assert not dealer_beats((3, 3, 3), (A, 4), arashi=True)


def test_shippin_is_two_cards_only():
    assert dealer_beats((2, 3), (A, 4, 10), arashi=True)  # 5 against 5, a plain tie
    assert hand_name((A, 4, 10), dealer=False, arashi=True) != "Shippin"


def test_shippin_needs_an_ace_not_a_jack():
    assert dealer_beats((2, 3), (J, 4), arashi=True)


def test_kuppin_beats_every_player_hand():
    for player in [(A, 4), (4, 5), (7, 7, 7), (9,)]:
        assert dealer_beats((A, 9), player, arashi=True)
        assert dealer_beats((9, A), player, arashi=True)
    assert hand_name((A, 9), dealer=True, arashi=True) == "Kuppin"


def test_kuppin_is_the_dealers_only():
    assert dealer_beats((4, 4), (A, 9), arashi=True)  # the player's A+9 is a plain 0


def test_kuppin_is_two_cards_only():
    assert not dealer_beats((A, 9, 10), (4, 5), arashi=True)


def test_arashi_beats_plain_hands():
    assert not dealer_beats((4, 5), (2, 2, 2), arashi=True)  # Arashi total 6 beats 9
    assert dealer_beats((2, 2, 2), (4, 5), arashi=True)


def test_higher_arashi_beats_lower_and_ties_go_to_the_dealer():
    assert not dealer_beats((2, 2, 2), (3, 3, 3), arashi=True)  # 9 beats 6
    assert dealer_beats((3, 3, 3), (2, 2, 2), arashi=True)
    assert dealer_beats((K, K, K), (3, 3, 3), arashi=True)  # 9 and 9: the dealer's


def test_arashi_is_a_table_option():
    assert dealer_beats((4, 5), (2, 2, 2), arashi=False)
    assert hand_name((2, 2, 2), dealer=False, arashi=False) == "Roppo"
    s = table("2C 3C 4C 5C 6C 7C", arashi=False)
    assert s.to_dict()["rules"] == {"arashi": False}


def test_dealer_always_draws_at_three_or_less():
    unseen = [0] + [4] * 13
    for dealer in [(10, K), (A, J), (2, 10), (5, 8)]:
        assert dealer_draws(dealer, [(4, 5)], unseen, arashi=True)
        assert dealer_draws(dealer, [(10, 10)], unseen, arashi=True)  # even when winning


def test_dealer_never_draws_at_seven_or_more():
    unseen = [0] + [4] * 13
    for dealer in [(3, 4), (4, 4), (4, 5), (K, 6)]:
        assert not dealer_draws(dealer, [(4, 5)], unseen, arashi=True)


def test_dealer_stands_on_kuppin():
    assert not dealer_draws((A, 9), [(4, 5)], [0] + [4] * 13, arashi=True)


def test_dealer_at_four_to_six_draws_only_when_drawing_wins_more():
    unseen = [0] + [4] * 13
    assert dealer_draws((2, 3), [(4, 5)], unseen, arashi=True)  # 5 loses to 9: draw
    assert not dealer_draws((2, 3), [(2, 2)], unseen, arashi=True)  # 5 beats 4: stand
    # two hands: one beaten, one not; drawing rarely keeps both
    assert dealer_draws((2, 3), [(2, 2), (4, 5)], unseen, arashi=True) == referee_dealer_draws(
        (2, 3), [(2, 2), (4, 5)], unseen
    )


def test_dealer_decision_counts_only_unseen_cards():
    # The dealer holds 5 against a 9: only a 4 (or K+1 ...) saves it; none left means no gain.
    unseen = [0] * 14
    unseen[2] = 3  # 5 + 2 = 7 still loses to 9
    assert not dealer_draws((2, 3), [(4, 5)], unseen, arashi=True)
    unseen[4] = 1  # 5 + 4 = 9: a tie, won by the dealer
    assert dealer_draws((2, 3), [(4, 5)], unseen, arashi=True)


def test_dealer_decision_matches_a_referee_on_many_tables():
    import random

    rng = random.Random(4)
    for _ in range(300):
        unseen = [0] + [rng.randint(0, 4) for _ in range(13)]
        dealer = (rng.randint(1, 13), rng.randint(1, 13))
        seated = [
            tuple(rng.randint(1, 13) for _ in range(rng.choice((2, 3))))
            for _ in range(rng.randint(1, 5))
        ]
        assert dealer_draws(dealer, seated, unseen, arashi=True) == referee_dealer_draws(
            dealer, seated, unseen
        )


def test_dealer_plays_inside_apply_from_the_dealt_order():
    # dealer 10 + K = 3: must draw the next card in the deck
    s = table("4C 2C 3C 5C 6C TD", "5D 2D 3D 4D 5H KD 8H")
    s.apply(0, "pick-1")
    s.apply(0, "stand")
    assert s.view(0)["dealer"]["cards"] == ["TD", "KD", "8H"]
    assert s.dealer_drew is True


def test_several_players_pick_different_positions():
    s = table("2C 3C 4C 5C 6C 7C", players=2)
    s.apply(0, "pick-2")
    assert s.to_act() == (1,)
    assert "pick-2" not in s.legal_actions(1)
    with pytest.raises(IllegalAction):
        s.apply(1, "pick-2")


def test_each_player_decides_in_turn_left_to_right():
    s = table("2C 3C 4C 5C 6C 7C", "8C 9C TC JC QC KC AD 2D 3D", players=2)
    s.apply(0, "pick-4")
    s.apply(1, "pick-2")
    assert s.to_act() == (1,)  # position 2 is left of position 4
    assert [len(p) for p in s.positions] == [2, 2, 1, 1, 1]
    s.apply(1, "draw")
    assert s.to_act() == (0,)
    assert [len(p) for p in s.positions] == [2, 3, 2, 2, 1]
    s.apply(0, "stand")
    assert s.is_over()


def test_unpicked_positions_are_dealt_but_do_not_play():
    s = table("2C 3C 4C 5C 6C 7C")
    s.apply(0, "pick-1")
    s.apply(0, "stand")
    assert all(len(p) >= 2 for p in s.positions)
    assert len(s.outcome().details["results"]) == 1
    assert [p["seat"] for p in s.view(None)["positions"]] == [0, None, None, None, None]


def test_fubuki_is_not_a_hand():
    assert "Fubuki" not in {
        hand_name((a, b, c), dealer=d, arashi=True)
        for a in range(1, 14)
        for b in range(1, 14)
        for c in (1, 5, 13)
        for d in (True, False)
    }


def test_outcome_reports_results_totals_and_hand_names():
    s = table("AC 4C 3C 5C 6C 7D", "4D 2D 3D 4H 5H KD 8H", players=2)
    s.apply(0, "pick-1")
    s.apply(1, "pick-5")
    assert s.to_act() == (0,)
    s.apply(0, "stand")  # A+4: Shippin
    s.apply(1, "stand")
    o = s.outcome()
    assert o.details["hands"][0] == "Shippin"
    assert o.details["results"][0] == "win"
    assert 0 in o.winners
    assert set(o.details) >= {"results", "totals", "hands", "dealer_total", "dealer_hand"}


def test_illegal_actions_are_refused_and_change_nothing():
    s = table("2C 3C 4C 5C 6C 7C", players=2)
    before = s.to_dict()
    for seat, action in [(1, "pick-1"), (0, "pick-6"), (0, "draw"), (0, "pick"), (5, "pick-1")]:
        with pytest.raises(IllegalAction):
            s.apply(seat, action)
        assert s.to_dict() == before


def test_state_new_takes_one_to_five_players():
    with pytest.raises(ValueError):
        State.new(players=0)
    with pytest.raises(ValueError):
        State.new(players=6)
    assert State.new(players=5, seed=1).seats == 5

"""Quatorze, one test per rule of RULES.md (Quatorze)."""

from __future__ import annotations

import pytest

from games.base import IllegalAction
from games.cards import Card, cards_from_text, full_deck
from games.quatorze import State, Status, hint, parse_move
from games.quatorze.board import play
from games.quatorze.solver import solve


def position(grid: str, stock: str = "") -> State:
    """A game in progress: ``grid`` is 25 cards or ``--`` in reading order, ``stock`` top first;
    every other card counts as removed."""
    cells = [None if t == "--" else Card.parse(t) for t in grid.split()]
    assert len(cells) == 25
    stock_cards = cards_from_text(stock)
    seen = {c for c in cells if c} | set(stock_cards)
    s = State(
        seed=0,
        winnable=False,
        deck=full_deck(),
        grid=cells,
        stock=stock_cards,
        removed=[c for c in full_deck() if c not in seen],
        moves=[],
        status=Status.PLAYING,
    )
    s._settle()
    return s


def grid_text(s: State) -> str:
    return " ".join("--" if c is None else str(c) for c in s.grid)


# A grid with exactly known pairs: row 1 holds AC..5C, and so on.
ROWS = [
    "AC 2C 3C 4C 5C",
    "6C 7C 8C 9C TC",
    "JC QC KC AD 2D",
    "3D 4D 5D 6D 7D",
    "8D 9D TD JD QD",
]
GRID = " ".join(ROWS)


def test_deal_25_cards_row_by_row_and_27_in_the_stock():
    s = State.new(seed=9)
    from games.cards import shuffled_deck

    deck = shuffled_deck(9)
    assert s.grid == deck[:25] and s.stock == deck[25:] and len(s.stock) == 27
    assert s.view(0)["stock_count"] == 27


def test_values_are_ace_1_to_king_13():
    s = position("AC KC " + "-- " * 23)
    assert s.pairs() == [(0, 1)]  # 1 + 13
    s = position("JC 3C QC 2C -- 7C 7D " + "-- " * 18)
    assert s.pairs() == [(0, 1), (2, 3), (5, 6)]  # 11 + 3, 12 + 2, 7 + 7


def test_a_pair_adds_up_to_fourteen():
    s = position("AC 2C 3C 4C 5C " + "-- " * 20)
    assert s.pairs() == []
    assert s.status is Status.LOST


def test_a_pair_lies_in_one_row_or_one_column_not_necessarily_adjacent():
    s = position(GRID, "")
    found = set(s.pairs())
    assert (0, 14) not in found  # AC (r1c1) and KC... KC is r3c3: different row and column
    # row 2: 6C..TC; 6 + 8 = 14 (cells 6 and 8, not adjacent)
    assert (5, 7) in found
    # column 1: AC 6C JC 3D 8D: 6 + 8 = 14 (cells 6 and 21), 11 + 3 = 14 (cells 11 and 16)
    assert {(5, 20), (10, 15)} <= found
    for a, b in found:
        assert a // 5 == b // 5 or a % 5 == b % 5


def test_a_diagonal_pair_is_not_a_move():
    s = position("AC -- -- -- -- -- KC " + "-- " * 18)
    assert s.pairs() == []
    with pytest.raises(IllegalAction):
        s.apply(0, "1-7")


def test_each_pair_scores_two_points():
    s = State.new(seed=2)
    assert s.score == 0
    s.apply(0, s.legal_actions(0)[0])
    assert s.score == 2 and s.view(0)["score"] == 2


def test_the_first_chosen_cell_is_refilled_first():
    a = position(GRID, "AH 2H 3H")
    b = position(GRID, "AH 2H 3H")
    a.apply(0, "6-8")
    b.apply(0, "8-6")
    assert (a.grid[5], a.grid[7]) == (Card.parse("AH"), Card.parse("2H"))
    assert (b.grid[7], b.grid[5]) == (Card.parse("AH"), Card.parse("2H"))
    assert a.stock == b.stock == [Card.parse("3H")]


def test_both_orders_are_moves_while_the_stock_lasts():
    s = position(GRID, "AH")
    actions = s.legal_actions(0)
    assert "6-8" in actions and "8-6" in actions


def test_one_order_is_listed_once_the_stock_is_empty_and_either_is_accepted():
    s = position(GRID, "")
    actions = s.legal_actions(0)
    assert "6-8" in actions and "8-6" not in actions
    t = position(GRID, "")
    s.apply(0, "6-8")
    t.apply(0, "8-6")
    assert s.to_dict()["grid"] == t.to_dict()["grid"]
    assert s.moves == t.moves == ["6-8"]


def test_stock_running_out_between_the_two_cards_leaves_the_second_to_close_up():
    s = position(GRID, "AH")
    s.apply(0, "8-6")  # 8C at cell 8 gets AH; cell 6 (6C) stays empty, then close up
    assert grid_text(s) == (
        "AC 2C 3C 4C 5C 7C AH 9C TC JC QC KC AD 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD --"
    )
    assert s.stock == []


def test_stock_of_two_refills_both_then_nothing_moves():
    s = position(GRID, "AH 2H")
    s.apply(0, "6-8")
    assert grid_text(s).split()[5:8] == ["AH", "7C", "2H"]
    assert None not in s.grid


def test_cards_close_up_in_reading_order_once_the_stock_is_empty():
    s = position(GRID, "")
    s.apply(0, "6-8")  # 6C and 8C leave row 2
    assert grid_text(s) == (
        "AC 2C 3C 4C 5C 7C 9C TC JC QC KC AD 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD -- --"
    )


def test_closing_up_across_rows():
    s = position(GRID, "")
    s.apply(0, "11-16")  # JC (r3c1) and 3D (r4c1)
    cards = grid_text(s).split()
    assert cards[:10] == ROWS[0].split() + ROWS[1].split()
    assert cards[10:14] == ["QC", "KC", "AD", "2D"]
    assert cards[14:18] == ["4D", "5D", "6D", "7D"]  # row 4 moves up into row 3's last cell
    assert cards[18:] == ["8D", "9D", "TD", "JD", "QD", "--", "--"]


def test_closing_up_on_a_sparse_grid():
    s = position("-- " * 0 + "AC 5C -- -- -- 9C 2C -- -- -- KC " + "-- " * 14)
    # AC (cell 1) and KC (cell 11) share column 1; 5C (2) and 9C (6) do not share a line.
    s.apply(0, "1-11")
    assert grid_text(s).split()[:4] == ["5C", "9C", "2C", "--"]


def test_the_game_is_lost_when_no_pair_is_left():
    s = position("AC 2C " + "-- " * 23)
    assert s.is_over() and s.status is Status.LOST
    assert s.outcome().termination == "no-moves" and s.outcome().winners == ()
    assert s.legal_actions(0) == []


def test_the_player_may_give_up():
    s = State.new(seed=3)
    assert "give-up" in s.legal_actions(0)
    s.apply(0, "give-up")
    assert s.is_over() and s.outcome().termination == "give-up"
    with pytest.raises(IllegalAction):
        s.apply(0, s.legal_actions(0)[0] if s.legal_actions(0) else "1-2")


def test_fifty_two_points_is_a_win():
    s = position("AC KC " + "-- " * 23)
    s.apply(0, "1-2")
    assert s.score == 52 and s.status is Status.WON
    o = s.outcome()
    assert o.winners == (0,) and o.scores == (52,) and o.termination == "won"


def test_view_shows_the_stock_count_never_its_order():
    s = State.new(seed=4)
    v = s.view(0)
    assert v["stock_count"] == 27
    text = repr(v)
    assert not any(str(c) in text for c in s.stock)
    assert repr(s.view(None)).count("legal") == 1


def test_the_hint_never_sees_the_stock_order():
    a = State.new(seed=21)
    b = State.from_dict(a.to_dict())
    b.stock.reverse()
    assert a.stock != b.stock
    assert hint(a, seed=1, limit=8) == hint(b, seed=1, limit=8)


def test_winnable_deals_can_be_won_and_depend_only_on_the_seed():
    s = State.new(seed=12, winnable=True)
    values = [int(c.rank) for c in s.deck]
    assert solve(tuple(values[:25]), values[25:]).won
    assert State.new(seed=12, winnable=True).deck == s.deck


def test_illegal_moves_are_refused_and_change_nothing():
    s = position(GRID, "AH 2H")
    before = s.to_dict()
    for action in ["1-2", "6-6", "0-3", "26-1", "x", "6_8", "6-8-9"]:
        with pytest.raises(IllegalAction):
            s.apply(0, action)
        assert s.to_dict() == before
    with pytest.raises(IllegalAction):
        s.apply(1, "6-8")


def test_move_notation_round_trips():
    assert parse_move("3-18") == (2, 17)
    s = State.new(seed=5)
    for action in s.legal_actions(0)[:-1]:
        a, b = parse_move(action)
        assert f"{a + 1}-{b + 1}" == action


def test_state_follows_the_value_rules_of_the_search():
    grid = tuple(int(c.rank) for c in cards_from_text(GRID))
    stock = (1, 2)
    s = position(GRID, "AH 2H")
    s.apply(0, "8-6")
    assert s.values() == play(grid, stock, 0, 7, 5)[0]

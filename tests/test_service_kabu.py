"""Whole Kabu rounds through the table service, with a real SQLite file and real images."""

from __future__ import annotations

from support import member
from test_kabu_helpers import deck

from bot.tables.screens import Button
from games import kabu
from games.kabu import Rules, State
from storage import TableStatus

ALICE = member(1, "Alice")
BOB = member(2, "Bob")
CAROL = member(3, "Carol")
PNG = b"\x89PNG"


def buttons(screen) -> list[Button]:
    return [b for row in screen.rows if isinstance(row, tuple) for b in row]


def labels(screen) -> list[str]:
    return [b.label for b in buttons(screen)]


def action(screen, label: str) -> str:
    return next(b.action for b in buttons(screen) if b.label == label)


async def state_of(service, table_id: int) -> State:
    table = await service.db.get_table(table_id)
    return State.from_dict(table.state)


async def deal(service, host, *others):
    """Open a table, seat ``others``, and deal; returns the first board's reply."""
    reply = await service.start(host, "kabu")
    assert reply.error is None and reply.board.rows
    for who in others:
        reply = await service.act(who, reply.table_id, reply.version, "join")
        assert reply.error is None, reply.error
    reply = await service.act(host, reply.table_id, reply.version, "deal")
    assert reply.error is None, reply.error
    return reply


async def test_a_lone_player_plays_rounds_to_the_scoreboard(service):
    reply = await service.start(ALICE, "kabu")
    assert "Seated (1/5): Alice" in reply.board.content and "Arashi on" in reply.board.content
    assert labels(reply.board) == ["Join", "Leave", "Deal"]
    reply = await service.act(ALICE, reply.table_id, reply.version, "deal")
    assert reply.board.pictures[0].png.startswith(PNG)
    assert "pick your position" in reply.board.content
    picks = buttons(reply.board)
    assert [b.action for b in picks] == [f"m=pick-{p}" for p in range(1, 6)]
    assert all(b.label.startswith(f"{i} · ") for i, b in enumerate(picks, 1))

    outcomes = []
    for _round in range(2):
        table_id = reply.table_id
        reply = await service.act(ALICE, table_id, reply.version, "m=pick-3")
        assert labels(reply.board) == ["Draw", "Stand", "Hint"]
        state = await state_of(service, table_id)
        hint = await service.act(ALICE, table_id, reply.version, "hint")
        assert hint.board is None and hint.private is not None
        draw, stand = kabu.hint(state, 0)
        text = hint.private.content
        assert "Your chances" in text
        assert f"{draw.numerator}/{draw.denominator}" in text
        assert f"{stand.numerator}/{stand.denominator}" in text
        choice = "m=draw" if draw > stand else "m=stand"
        reply = await service.act(ALICE, table_id, reply.version, choice)
        assert reply.error is None
        table = await service.db.get_table(table_id)
        assert table.status is TableStatus.FINISHED
        state = await state_of(service, table_id)
        won = state.outcome().winners == (0,)
        outcomes.append(won)
        # The reveal: every position and the dealer, totals and names, WIN or LOSE.
        assert ("**WIN**" if won else "LOSE") in reply.board.content
        assert f"({state.outcome().details['dealer_hand']})" in reply.board.content
        assert "Dealer:" in reply.board.content
        # One announcement, in the words the board uses; the reveal is on the board only.
        [post] = reply.posts
        assert post.content == f"🏁 **Kabu**: {'Alice won it.' if won else 'The dealer won it.'}"
        assert "**Alice** (position 3)" in reply.board.content
        description = reply.board.pictures[0].description
        assert "Position 3 (Alice)" in description
        assert ("It wins." if won else "It loses.") in description
        assert labels(reply.board) == ["Deal again"]
        reply = await service.act(ALICE, table_id, None, "again")
        assert reply.repost and reply.table_id != table_id
        assert "pick your position" in reply.board.content

    standings = await service.db.standings(ALICE.guild_id, "kabu")
    [alice] = standings
    assert (alice.games, alice.wins, alice.losses) == (2, sum(outcomes), 2 - sum(outcomes))
    board = await service.scoreboard(ALICE.guild_id, "kabu")
    header, line = board.embed.description.strip("`\n").splitlines()
    assert header.split() == ["#", "Player", "Games", "Won", "Lost", "Win%"]
    assert line.split()[:5] == ["1", "Alice", "2", str(sum(outcomes)), str(2 - sum(outcomes))]


async def test_two_people_play_a_round_in_turn_with_refusals(service):
    reply = await service.start(ALICE, "kabu")
    table_id = reply.table_id
    reply = await service.act(BOB, table_id, reply.version, "join")
    reply = await service.act(CAROL, table_id, reply.version, "join")
    assert "Seated (3/5): Alice, Bob, and Carol." in reply.board.content
    twice = await service.act(BOB, table_id, reply.version, "join")
    assert "already have a seat" in twice.error
    not_host = await service.act(BOB, table_id, reply.version, "deal")
    assert "Alice opened this table" in not_host.error
    host_leaves = await service.act(ALICE, table_id, reply.version, "leave")
    assert "press **Deal**" in host_leaves.error
    reply = await service.act(CAROL, table_id, reply.version, "leave")
    assert "Seated (2/5): Alice and Bob." in reply.board.content
    reply = await service.act(ALICE, table_id, reply.version, "deal")
    state = await state_of(service, table_id)
    assert state.players == 2

    # Picking: seat order, a position only once, only seated players.
    refused = await service.act(BOB, table_id, reply.version, "m=pick-1")
    assert "not your turn" in refused.error
    refused = await service.act(CAROL, table_id, reply.version, "m=pick-1")
    assert "not seated" in refused.error
    reply = await service.act(ALICE, table_id, reply.version, "m=pick-3")
    [third] = [b for b in buttons(reply.board) if b.action == "m=pick-3"]
    assert third.disabled and "Alice" in third.label
    refused = await service.act(BOB, table_id, reply.version, "m=pick-3")
    assert "already taken" in refused.error
    reply = await service.act(BOB, table_id, reply.version, "m=pick-1")

    # Deciding, left to right: Bob (position 1) first, then Alice (position 3).
    assert f"<@{BOB.user_id}> — position 1" in reply.board.content
    refused = await service.act(ALICE, table_id, reply.version, "m=draw")
    assert "not your turn" in refused.error
    refused = await service.act(CAROL, table_id, reply.version, "hint")
    assert "not seated" in refused.error
    theirs = await service.act(ALICE, table_id, reply.version, "hint")
    assert "**Bob** is deciding" in theirs.private.content
    assert "Your own hint comes on your turn" in theirs.private.content
    mine = await service.act(BOB, table_id, reply.version, "hint")
    assert "Your chances" in mine.private.content
    assert mine.version == reply.version  # a hint changes nothing
    resign = await service.act(BOB, table_id, reply.version, "resign")
    assert "no resigning" in resign.error
    reply = await service.act(BOB, table_id, reply.version, "m=stand")
    stale = await service.act(ALICE, table_id, reply.version - 1, "m=draw")
    assert "out of date" in stale.error
    assert f"<@{ALICE.user_id}> — position 3" in reply.board.content
    reply = await service.act(ALICE, table_id, reply.version, "m=draw")

    state = await state_of(service, table_id)
    outcome = state.outcome()
    assert outcome is not None and len(state.positions[2]) == 3
    post = reply.board.content  # the reveal is on the board; the announcement says who won
    for seat, name, position in ((0, "Alice", 3), (1, "Bob", 1)):
        verdict = "**WIN**" if seat in outcome.winners else "LOSE"
        assert f"**{name}** (position {position})" in post
        assert f"({outcome.details['hands'][seat]}) — {verdict}" in post
    standings = {s.name: s for s in await service.db.standings(ALICE.guild_id, "kabu")}
    assert set(standings) == {"Alice", "Bob"}
    for seat, name in ((0, "Alice"), (1, "Bob")):
        assert standings[name].wins == int(seat in outcome.winners)

    # Deal again: the same players in the same order; a bystander cannot deal.
    refused = await service.act(CAROL, table_id, None, "again")
    assert "Only the players" in refused.error
    again = await service.act(BOB, table_id, None, "again")
    table = await service.db.get_table(again.table_id)
    assert [s.name for s in table.seats] == ["Alice", "Bob"]
    assert f"<@{ALICE.user_id}> — pick" in again.board.content


async def test_the_lobby_holds_five_players_at_most(service):
    reply = await service.start(ALICE, "kabu")
    for user_id in range(2, 6):
        reply = await service.act(member(user_id), reply.table_id, reply.version, "join")
    assert "The table is full" in reply.board.content
    assert [b.disabled for b in buttons(reply.board)] == [True, False, False]
    full = await service.act(member(6), reply.table_id, reply.version, "join")
    assert "5 players at most" in full.error
    reply = await service.act(ALICE, reply.table_id, reply.version, "deal")
    assert (await state_of(service, reply.table_id)).players == 5
    late = await service.act(member(6), reply.table_id, None, "join")
    assert late.error == "This game has started; join the next one."


async def test_a_lapsed_lobby_seats_no_one_and_deals_nothing(service, clock):
    """The seat lobby Kabu shares with Hearts: ten minutes, then the table waits no more."""
    reply = await service.start(ALICE, "kabu")
    clock.advance(10 * 60 + 1)
    for who, press in ((BOB, "join"), (ALICE, "deal")):
        lapsed = await service.act(who, reply.table_id, reply.version, press)
        assert lapsed.error == "This table waited too long and closed. Start a new one."
    [(_, swept)] = await service.sweep()
    assert swept.board.content == "The Kabu challenge lapsed."


async def test_the_hint_is_private_and_only_after_picking(service):
    reply = await deal(service, ALICE)
    early = await service.act(ALICE, reply.table_id, reply.version, "hint")
    assert "once every player has picked" in early.error
    reply = await service.act(ALICE, reply.table_id, reply.version, "m=pick-5")
    hint = await service.act(ALICE, reply.table_id, reply.version, "hint")
    assert hint.error is None and hint.board is None and hint.posts == []
    assert "%" in hint.private.content
    table = await service.db.get_table(reply.table_id)
    assert table.version == reply.version


async def force_deal(service, reply, first: str, rest: str, arashi: bool):
    """Replace the dealt round with one from a known deck order."""
    table = await service.db.get_table(reply.table_id)
    table.state = State.from_deck(deck(first, rest), players=1, rules=Rules(arashi)).to_dict()
    assert await service.db.save_table(table)
    return table.version


async def test_arashi_is_a_table_option(service):
    # Position 1 gets 5, 5, 5 (total 5); the dealer shows K, then 4: 7, and stands.
    first, rest = "5C 2C 3C 4C 6C KD", "5D 5H TD TH TS JD 4D"
    for arashi, verdict in ((True, "**WIN**"), (False, "LOSE")):
        reply = await service.start(ALICE, "kabu", {"arashi": arashi})
        assert f"Arashi {'on' if arashi else 'off'}" in reply.board.content
        reply = await service.act(ALICE, reply.table_id, reply.version, "deal")
        assert (await state_of(service, reply.table_id)).rules.arashi is arashi
        version = await force_deal(service, reply, first, rest, arashi)
        reply = await service.act(ALICE, reply.table_id, version, "m=pick-1")
        reply = await service.act(ALICE, reply.table_id, reply.version, "m=draw")
        hand = "Arashi" if arashi else "Goke"
        assert f"5♣ 5♦ 5♥ — 5 ({hand}) — {verdict}" in reply.board.content
        assert "Dealer: K♦ 4♦ — 7 (Shichiken); the dealer stood." in reply.board.content


async def test_an_idle_player_has_the_computer_play_their_hand(service, clock):
    reply = await deal(service, ALICE, BOB)
    reply = await service.act(ALICE, reply.table_id, reply.version, "m=pick-2")
    clock.advance(200)
    [(_table, swept)] = await service.sweep()
    assert swept.ai_next and "The computer plays for Bob" in swept.board.content
    assert all(b.disabled for b in buttons(swept.board))
    swept = await service.play_computer(reply.table_id) or swept
    state = await state_of(service, reply.table_id)
    assert state.picks[1] is not None and state.to_act() == (0,)  # Bob picked (and decided)
    assert f"<@{ALICE.user_id}> — position 2" in swept.board.content


async def test_a_round_claimed_from_an_idle_player_ends_early(service, clock):
    reply = await deal(service, ALICE, BOB)
    clock.advance(11 * 60)
    claimed = await service.claim(BOB)
    assert claimed.error is None
    assert "The round ended early: Bob won it." in claimed.board.content
    assert [b.label for b in buttons(claimed.board)] == ["Deal again"]
    assert claimed.posts[0].content == "🏁 **Kabu**: The round ended early: Bob won it."
    standings = {s.name: (s.wins, s.losses) for s in await service.db.standings(1000, "kabu")}
    assert standings == {"Alice": (0, 1), "Bob": (1, 0)}
    assert reply.table_id == claimed.table_id

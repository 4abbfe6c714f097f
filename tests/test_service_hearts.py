"""Hearts through the table service: the lobby, whole games to the scoreboard with a real SQLite
file and real images, private hands, refusals, time-outs, leaving — and no card of a hand ever
shown to anyone but its holder before it is played."""

from __future__ import annotations

import pytest
from hearts_leaks import leaked
from support import member

import bot.tables.hearts.board as hearts_board
from bot.tables.core.events import Answer
from bot.tables.screens import Button, Select, Style
from games.hearts import State
from render.hearts import render_hearts_table
from storage import TableStatus

ALICE = member(1, "Alice")
BOB = member(2, "Bob")
CAROL = member(3, "Carol")
DAVE = member(4, "Dave")
ERIN = member(5, "Erin")
MEMBERS = {m.user_id: m for m in (ALICE, BOB, CAROL, DAVE, ERIN)}


@pytest.fixture
def board_views(monkeypatch) -> list[dict]:
    """Every view the controller hands to the table renderer."""
    seen: list[dict] = []

    def spy(view, names=None, bottom=0, lang="en"):
        seen.append(view)
        return render_hearts_table(view, names, bottom, lang)

    monkeypatch.setattr(hearts_board, "render_hearts_table", spy)
    return seen


class Game:
    """One Hearts table driven through the service. Every screen the service hands out is
    checked, against the stored state right after it, for cards its readers may not see."""

    def __init__(self, service) -> None:
        self.service = service
        self.table_id = 0
        self.screens = 0
        self.posts: list = []
        self.before: dict | None = None  # the stored state before the last action

    async def table(self):
        return await self.service.db.get_table(self.table_id)

    async def check(self, reply: Answer, seat: int | None = None) -> Answer:
        assert reply.error is None, reply.error
        self.table_id = reply.table_id
        table = await self.table()
        if table.state is not None:
            # A card counts as hidden when it was held out of sight both before and after the
            # action (a card played to the last trick is in a new hand right after it).
            states = [s for s in (self.before, table.state) if s is not None]
            public = [reply.board, *reply.posts]
            assert not leaked(public, states, None), "a hand's card in the channel"
            assert not leaked([reply.private], states, seat), "another seat's card"
            self.screens += len(public) + (reply.private is not None)
            self.before = table.state
        self.posts += reply.posts
        return reply

    async def open(self, host=ALICE, *joiners, **options) -> Answer:
        options = {"level": "beginner", "delay": 0, **options}
        reply = await self.check(await self.service.start(host, "hearts", options))
        for joiner in joiners:
            reply = await self.check(
                await self.service.act(joiner, reply.table_id, reply.version, "join")
            )
        reply = await self.service.act(host, reply.table_id, reply.version, "start")
        return await self.check(reply)

    async def computers(self, reply: Answer) -> Answer:
        if not reply.ai_next:
            return reply
        last = await self.service.play_computer(self.table_id, self._checked)
        return reply if last is None else last

    async def _checked(self, reply: Answer) -> None:
        await self.check(reply)

    async def waiting_member(self):
        """The first member the game waits for (not played by the computer), and their seat."""
        table = await self.table()
        state = State.from_dict(table.state)
        autoplay = set(table.ui.get("autoplay", ()))
        for seat in state.to_act():
            if not table.seats[seat].is_ai and seat not in autoplay:
                return MEMBERS[table.seats[seat].user_id], seat
        return None, None

    async def hand(self, who, seat: int) -> Answer:
        """Press **Your hand** (any board version), as ``who`` at ``seat``."""
        return await self.check(await self.service.act(who, self.table_id, None, "hand"), seat)

    async def choose(self, who, seat: int, values: list[str], select: Select) -> Answer:
        action = f"{select.action}={','.join(values)}"
        return await self.check(await self.service.act(who, self.table_id, None, action), seat)

    async def play_to_the_end(self, reply: Answer, greedy: set[int] = frozenset()) -> Answer:
        """Members play through their private hands: they pass their three first cards and play
        their first legal card (members in ``greedy`` their last: they take tricks)."""
        while True:
            reply = await self.computers(reply)
            if (await self.table()).status is not TableStatus.ACTIVE:
                return reply
            who, seat = await self.waiting_member()
            assert who is not None, "the game waits for nobody"
            private = (await self.hand(who, seat)).private
            if "Tap three cards to pass" in private.content:
                for _ in range(3):  # one tap a card picks it; then Pass
                    card = next(
                        c
                        for c in rows_of(private)
                        if c.action.startswith("pick=") and c.style is not Style.SUCCESS
                    )
                    picked = await self.service.act(who, self.table_id, None, card.action)
                    assert picked.update_private and picked.error is None
                    private = picked.private
                [done] = [c for c in rows_of(private) if c.action.startswith("pass=")]
                assert not done.disabled and done.any_version
                reply = await self.check(
                    await self.service.act(who, self.table_id, None, done.action), seat
                )
            else:  # one tap a card: the legal cards are the enabled buttons
                cards = playable(private)
                assert cards and all(c.any_version for c in cards)
                card = cards[-1] if who.user_id in greedy else cards[0]
                reply = await self.check(
                    await self.service.act(who, self.table_id, None, card.action), seat
                )
            assert reply.update_private and reply.private is not None


def playable(screen) -> list[Button]:
    """The card buttons of a private hand that may be tapped now."""
    return [
        c
        for c in rows_of(screen)
        if isinstance(c, Button) and c.action.startswith("play=") and not c.disabled
    ]


def rows_of(screen):
    return [c for row in screen.rows for c in (row if isinstance(row, tuple) else [row])]


def labels(screen) -> list[str]:
    return [getattr(c, "label", getattr(c, "placeholder", "")) for c in rows_of(screen)]


# -- whole games ----------------------------------------------------------------------------


async def test_one_person_and_three_computers_play_a_whole_game_to_the_scoreboard(
    service, board_views
):
    game = Game(service)
    reply = await game.open(ALICE)
    assert reply.ai_next  # the computers choose their passes without waiting for Alice
    assert "<@1>" in reply.board.content and "Your hand" in labels(reply.board)
    reply = await game.play_to_the_end(reply, greedy={ALICE.user_id})

    table = await game.table()
    assert table.status is TableStatus.FINISHED
    state = State.from_dict(table.state)
    assert max(state.totals) >= 100
    assert reply.board.pictures[0].png.startswith(b"\x89PNG")
    assert labels(reply.board) == ["Play again"]
    [result] = game.posts
    assert result.content.startswith("🏁 **Hearts**:") and "Total" in result.embed.description
    assert game.screens > 100

    # The public board was only ever drawn from the public view.
    assert board_views and all(v["seat"] is None and "hand" not in v for v in board_views)

    standings = await service.db.standings(ALICE.guild_id, "hearts")
    [alice] = standings
    assert alice.extra == {"hands": len(state.history), "moons": state.moons[0]}
    assert alice.points == state.totals[0]
    assert (alice.wins == 1) == (0 in state.outcome().winners)
    board = await service.scoreboard(ALICE.guild_id, "hearts")
    line = next(ln for ln in board.embed.description.splitlines() if "Alice" in ln)
    average = f"{state.totals[0] / len(state.history):.1f}"
    assert line.split() == ["1", "Alice", "1", str(alice.wins), average, str(state.moons[0])]
    stats = await service.stats(ALICE.guild_id, ALICE.user_id, "Alice")
    assert f"Pts/round **{average}**" in stats.embed.fields[0].value

    # Play again: the same seats at a new table, on a new board message.
    again = await service.act(ALICE, game.table_id, None, "again")
    assert again.error is None and again.repost and again.ai_next
    assert "Choosing three cards to pass" in again.board.content


async def test_two_people_and_two_computers_play_a_whole_game(service, board_views):
    game = Game(service)
    reply = await game.open(ALICE, BOB)
    table = await game.table()
    assert [s.name for s in table.seats] == ["Alice", "Bob", "Computer 1", "Computer 2"]
    reply = await game.computers(reply)
    # Both members still choose; the board names them.
    assert "<@1>" in reply.board.content and "<@2>" in reply.board.content
    reply = await game.play_to_the_end(reply, greedy={ALICE.user_id, BOB.user_id})

    table = await game.table()
    state = State.from_dict(table.state)
    assert table.status is TableStatus.FINISHED and state.is_over()
    assert all(v["seat"] is None for v in board_views)
    winners = state.outcome().winners
    results = {s.name: s for s in await service.db.standings(ALICE.guild_id, "hearts")}
    assert set(results) == {"Alice", "Bob"}
    for seat, name in enumerate(("Alice", "Bob")):
        assert results[name].wins == (seat in winners)
        assert results[name].points == state.totals[seat]
    winner_names = " and ".join(table.seats[s].name for s in winners)
    assert winner_names in game.posts[-1].content


# -- the lobby ------------------------------------------------------------------------------


async def test_the_lobby_seats_four_and_only_the_host_starts(service):
    reply = await service.start(ALICE, "hearts", {"level": "standard", "ruleset": "modern"})
    assert reply.error is None and "Alice (host)" in reply.board.content
    assert labels(reply.board)[:3] == ["Join", "Leave", "Start"]
    assert "Modern rules" in reply.board.content and "**standard**" in reply.board.content
    tid = reply.table_id
    for who in (BOB, CAROL):
        reply = await service.act(who, tid, reply.version, "join")
        assert reply.error is None
    again = await service.act(BOB, tid, reply.version, "join")
    assert "already have a seat" in again.error
    refused = await service.act(BOB, tid, reply.version, "start")
    assert refused.error == "Only the host can do that: Alice opened this table."
    refused = await service.act(BOB, tid, reply.version, "delay=3")
    assert refused.error == "Only the host can do that: Alice opened this table."
    stranger = await service.act(ERIN, tid, reply.version, "start")
    assert "not seated" in stranger.error
    reply = await service.act(CAROL, tid, reply.version, "leave")
    assert "Carol" not in reply.board.content
    reply = await service.act(DAVE, tid, reply.version, "join")
    reply = await service.act(CAROL, tid, reply.version, "join")
    assert "2. Bob" in reply.board.content and "4. Carol" in reply.board.content
    [join] = [b for b in rows_of(reply.board) if getattr(b, "label", "") == "Join"]
    assert join.disabled
    full = await service.act(ERIN, tid, reply.version, "join")
    assert "full" in full.error
    reply = await service.act(ALICE, tid, reply.version, "delay=0.5")
    assert "0.5 sec between computer cards" in reply.board.content
    reply = await service.act(ALICE, tid, reply.version, "start")
    assert reply.error is None and not reply.ai_next  # four members: no computer
    table = await service.db.get_table(tid)
    assert table.status is TableStatus.ACTIVE and not any(s.is_ai for s in table.seats)
    assert table.state["rules"] == {"two_of_clubs_leads": True, "no_points_on_first_trick": True}
    assert service.controllers["hearts"].ai_delay(table) == 0.0  # passing: no pause
    late = await service.act(ERIN, tid, None, "join")
    assert "started" in late.error


async def test_the_host_leaving_the_lobby_closes_it_and_a_lobby_lapses(service, clock):
    reply = await service.start(ALICE, "hearts")
    reply = await service.act(ALICE, reply.table_id, reply.version, "leave")
    assert "closed the Hearts table" in reply.board.content and not reply.board.rows
    assert await service.db.open_table_in_channel(ALICE.channel_id) is None

    reply = await service.start(BOB, "hearts")
    clock.advance(16 * 60)
    lapsed = await service.act(CAROL, reply.table_id, reply.version, "join")
    assert "closed" in lapsed.error
    [(_, swept)] = await service.sweep()
    assert "lapsed" in swept.board.content


async def test_bad_options_are_refused(service):
    level = (await service.start(ALICE, "hearts", {"level": "genius"})).error
    assert level == "Choose a level: beginner, standard, or expert."
    ruleset = (await service.start(ALICE, "hearts", {"ruleset": "house"})).error
    assert ruleset == "Choose the rules: `classic` or `modern`."
    assert "0 to 5" in (await service.start(ALICE, "hearts", {"delay": 9})).error


# -- hands, scores and refusals -------------------------------------------------------------


async def test_your_hand_is_private_and_a_bystander_is_told_they_are_not_seated(service):
    game = Game(service)
    reply = await game.computers(await game.open(ALICE, BOB))
    stranger = await service.act(CAROL, reply.table_id, None, "hand")
    assert "not seated" in stranger.error and stranger.private is None
    scores = await service.act(CAROL, reply.table_id, None, "scores")  # anyone may look
    assert scores.error is None and "Total" in scores.private.embed.description

    mine = await game.hand(ALICE, 0)
    assert mine.private is not None and mine.board is None and not mine.update_private
    *cards, (done, refresh) = mine.private.rows
    assert [len(row) for row in cards] == [4, 3, 3, 3]  # a button a card, at most four a row
    assert "pass to **Bob**" in mine.private.content
    assert mine.private.pictures[0].png.startswith(b"\x89PNG")
    hand = State.from_dict((await game.table()).state).hand(0)
    assert [b.action for row in cards for b in row] == [f"pick={c}" for c in hand]
    assert (done.label, done.disabled) == ("Pass 0/3", True)
    assert refresh.action == "hand=here" and refresh.any_version

    # Picking is private and stores nothing: each tap answers with the pick so far.
    version = (await game.table()).version
    action = f"pick={hand[0]},{hand[5]}"
    two = await service.act(ALICE, reply.table_id, None, action)
    assert two.update_private and "1 more to pick" in two.private.content
    buttons = {b.label: b for b in rows_of(two.private)}
    assert buttons["Pass 2/3"].disabled
    again = f"pick={hand[5]}"  # tapping a picked card puts it back
    assert next(b.action for b in rows_of(two.private)) == again
    three = await service.act(ALICE, reply.table_id, None, f"{action},{hand[7]}")
    done = next(b for b in rows_of(three.private) if b.label == "Pass 3/3")
    assert not done.disabled and done.action == f"pass={hand[0]},{hand[5]},{hand[7]}"
    others = [b for b in rows_of(three.private) if b.action.startswith("pick=")]
    assert sum(not b.disabled for b in others) == 3  # only the picked ones: to put back
    assert (await game.table()).version == version
    for bad, words in (("pick=QS,QS", "different"), ("pick=ZZ", "not a card")):
        assert words in (await service.act(ALICE, reply.table_id, None, bad)).error
    stranger = next(str(c) for c in State.from_dict((await game.table()).state).hand(1))
    held = await service.act(ALICE, reply.table_id, None, f"pick={stranger}")
    assert "do not hold" in held.error

    again = await service.act(ALICE, reply.table_id, None, "hand=here")
    assert again.update_private  # Refresh replaces the private message in place


async def test_refusals_leave_the_game_unchanged(service):
    game = Game(service)
    reply = await game.computers(await game.open(ALICE, BOB))
    tid = reply.table_id
    table = await game.table()
    state = State.from_dict(table.state)
    alice = state.hand(0)
    bob = state.hand(1)
    cases = [
        (ALICE, "play=" + str(alice[0]), "pass first"),
        (ALICE, f"pass={alice[0]},{alice[1]}", "three"),
        (ALICE, f"pass={alice[0]},{alice[1]},{bob[0]}", "your own hand"),
        (ALICE, "pass=XX,YY,ZZ", "rank"),
        (CAROL, f"pass={alice[0]},{alice[1]},{alice[2]}", "not seated"),
        (ALICE, "level=beginner", "does nothing"),
    ]
    for who, action, words in cases:
        refused = await service.act(who, tid, None, action)
        assert refused.error and words in refused.error, (action, refused.error)
    assert (await game.table()).version == table.version

    # Once Alice passed, she waits for Bob.
    passed = await service.act(ALICE, tid, None, f"pass={alice[0]},{alice[1]},{alice[2]}")
    assert "Waiting for Bob" in passed.private.content
    twice = await service.act(ALICE, tid, None, f"pass={alice[3]},{alice[4]},{alice[5]}")
    assert "not your turn" in twice.error
    reply = await service.act(BOB, tid, None, f"pass={bob[0]},{bob[1]},{bob[2]}")
    reply = await game.computers(reply)

    table = await game.table()
    state = State.from_dict(table.state)
    turn = state.turn
    assert turn in (0, 1)  # the computers played up to a member's turn
    player, other = (ALICE, BOB) if turn == 0 else (BOB, ALICE)
    early = await service.act(other, tid, None, f"play={state.hand(1 - turn)[0]}")
    assert "not your turn" in early.error
    pass_now = await service.act(player, tid, None, "pass=2C,3C,4C")
    assert "passing is over" in pass_now.error
    mine = await service.act(player, tid, None, "hand")
    options = [c.action.removeprefix("play=") for c in playable(mine.private)]
    assert len(rows_of(mine.private)) == 13 + 1  # every card as a button, and Refresh
    illegal = [str(c) for c in state.hand(turn) if str(c) not in options]
    for card in illegal[:3]:
        refused = await service.act(player, tid, None, f"play={card}")
        assert refused.error and ("must" in refused.error or "not broken" in refused.error)
    assert (await game.table()).version == table.version


async def test_scores_show_every_hand_and_the_totals(service):
    game = Game(service)
    reply = await game.open(ALICE)
    table = await game.table()
    state = State.from_dict(table.state)
    state.totals = [10, 30, 40, 50]
    state.history = [
        {
            "hand": 0,
            "dealer": 0,
            "direction": "left",
            "taken": [26, 0, 0, 0],
            "scores": [0, 26, 26, 26],
            "moon": 0,
            "deal": "",
            "passes": [],
            "plays": "",
            "seed": 1,
        },
    ]
    state.moons = [1, 0, 0, 0]
    table.state = state.to_dict()
    await service.db.save_table(table)
    scores = await service.act(DAVE, reply.table_id, None, "scores")
    text = scores.private.embed.description
    assert "Alice" in text and "Computer 1" in text and "CPU" not in text
    assert "   1* " in text and "Total" in text
    assert text.splitlines()[-2].split() == ["Total", "10", "30", "40", "50"]
    assert "Alice ×1" in scores.private.embed.footer
    assert not scores.private.embed.fields  # the column headings are the names


# -- idle members and leaving ---------------------------------------------------------------


async def test_a_member_who_times_out_is_played_by_the_computer_until_they_come_back(
    service, clock
):
    game = Game(service)
    reply = await game.computers(await game.open(ALICE, BOB))
    tid = reply.table_id
    hand = State.from_dict((await game.table()).state).hand(0)
    reply = await game.check(
        await service.act(ALICE, tid, None, f"pass={hand[0]},{hand[1]},{hand[2]}"), 0
    )
    clock.advance(60)
    assert await service.sweep() == []
    clock.advance(61)  # Bob has not passed for 121 s
    [(_, swept)] = await service.sweep()
    assert "The computer is playing for Bob until they come back" in swept.board.content
    assert swept.ai_next
    table = await game.table()
    assert table.ui["autoplay"] == [1]
    reply = await game.computers(swept)
    state = State.from_dict((await game.table()).state)
    assert state.passes[1] is not None  # the computer passed for Bob

    # Bob comes back: pressing Your hand takes his seat back.
    back = await service.act(BOB, tid, None, "hand")
    assert back.error is None and "Welcome back" in back.private.content
    assert "playing for Bob" not in back.board.content
    assert (await game.table()).ui["autoplay"] == []


async def test_leaving_hands_the_seat_to_the_computer_and_the_last_member_ends_the_game(service):
    game = Game(service)
    reply = await game.computers(await game.open(ALICE, BOB))
    tid = reply.table_id
    refused = await service.act(CAROL, tid, reply.version, "resign")
    assert "not seated" in refused.error
    asked = await service.act(BOB, tid, reply.version, "leave")  # the board's Leave game
    [[confirm, cancel]] = asked.private.rows
    assert asked.board is None and confirm.action == "resign" and confirm.any_version
    assert (confirm.label, cancel.label) == ("Leave for good", "Cancel")
    reply = await service.act(BOB, tid, None, "resign")  # Leave for good (or /game resign)
    assert reply.error is None and "computer plays your cards" in reply.private.content
    assert "Bob left the game" in reply.board.content
    table = await game.table()
    assert table.status is TableStatus.ACTIVE
    assert table.seats[1].is_ai and table.seats[1].name == "Bob (computer)"
    assert reply.ai_next  # the computer passes for Bob's old seat
    reply = await game.computers(reply)
    gone = await service.act(BOB, tid, None, "hand")
    assert "not seated" in gone.error

    reply = await service.act(ALICE, tid, reply.version, "resign")  # the last member leaves
    assert reply.error is None
    table = await game.table()
    assert table.status is TableStatus.FINISHED
    assert "Everyone left" in reply.posts[0].content
    results = {s.name: (s.wins, s.losses) for s in await service.db.standings(1000, "hearts")}
    assert results == {"Alice": (0, 1), "Bob": (0, 1)}

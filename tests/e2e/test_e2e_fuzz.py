"""Fuzzing the bot through the fake Discord (issue 11): random custom_ids, select values, slash
option strings and typed moves, from members who may or may not be seated, in the game's channel
or another, on the board, a private hand or a message the control is not on. One bot process
serves every example. Whatever comes in:

- every interaction is answered (within Discord's 3 s: the fake records a late answer), never
  with "Something went wrong", and the bot logs no error or traceback (the fixtures check);
- the Hearts game's state changes only when Alice, who is seated, acts in the game's channel;
- no card still in a hand is ever named in a public message (content, embeds, alt texts), and
  no public message carries a hand's picture.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from e2e_helpers import TableRows, open_hand, pass_three, playable
from example_counts import examples
from forge import STRING_SELECT, forge
from hearts_leaks import cards_named
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fakediscord import Driver, Message
from fakediscord.state import BUTTON
from games.base import IllegalAction
from games.checkers import State as CheckersState

ODD = ("²", "３", "٣", "-1", "99999999999999999999", "*", "", "x", "QS", "2C", "1.1", "here")
NAMES = ("hand", "play", "pass", "scores", "leave", "resign", "join", "start", "again", "m")
ARG = st.sampled_from(ODD) | st.text(alphabet=st.characters(codec="utf-8"), max_size=6)
ACTION = st.builds("{}={}".format, st.sampled_from(NAMES), ARG) | st.sampled_from(NAMES)
NUMBER = st.sampled_from(("{id}", "{version}", "*", "0", "-1", str(2**63), "０", "²", "1" * 30))
CUSTOM_ID = st.one_of(
    st.builds(
        lambda kind, table, version, action: f"{kind}:{table}:{version}:{action}",
        st.sampled_from("ts"),
        NUMBER,
        NUMBER,
        ACTION,
    ),
    st.text(max_size=110),
)
CLICK = st.tuples(
    st.sampled_from(("alice", "alice", "carol")),
    st.sampled_from(("games", "games", "lobby")),
    st.sampled_from(("board", "hand", "other")),
    st.booleans(),  # a control of that message (else a forged custom_id)
    st.integers(0, 1000),
    CUSTOM_ID,
    st.sampled_from((BUTTON, STRING_SELECT)),
    st.lists(st.sampled_from(ODD) | st.text(max_size=4), max_size=4),
    st.booleans(),  # claim the message carries the control
)


@pytest.fixture
def rows(tmp_path: Path) -> TableRows:
    return TableRows(tmp_path / "parlour.db")


class Hearts:
    """One Hearts table: Alice and three computers, in #games, set up once for all examples."""

    def __init__(self, driver: Driver, rows: TableRows) -> None:
        self.driver, self.rows = driver, rows
        self.board: Message | None = None
        self.hand: Message | None = None

    async def open(self) -> None:
        lobby = (
            await self.driver.slash("alice", "hearts start", level="beginner", delay=0)
        ).message
        self.board = (await self.driver.click("alice", lobby, label="Start")).message
        await self.settled()

    async def settled(self) -> dict:
        """Wait until the game waits for Alice (or is over); its state."""

        def waiting():
            table = self.rows.last()
            state = table.state
            if table.status != "active" or state is None:
                return table
            alice_to_act = (
                state["passes"][0] is None
                if state["phase"] == "pass" and None not in state["passes"][1:]
                else state["phase"] == "play" and state["turn"] == 0
            )
            return table if alice_to_act else None

        return (await self.driver.wait_for(waiting, timeout=20)).state

    async def play(self) -> None:
        """Alice opens her hand from the board and passes or plays its first legal cards."""
        self.hand = await open_hand(self.driver, "alice", self.board)
        if any(":pass=" in b["custom_id"] for b in self.hand.buttons()):
            done = await pass_three(self.driver, "alice", self.hand)
        else:
            done = await self.driver.click("alice", self.hand, label=playable(self.hand)[0])
        assert done.type == 7 and "You p" in done.text(), done.text()
        await self.settled()

    async def again(self) -> None:
        """Alice starts the next game from the finished board, once it offers to: the end is
        stored before the board is redrawn (a paced edit)."""
        board = self.board
        assert board is not None
        await self.driver.wait_for(
            lambda: "Play again" in board.button_labels(), timeout=20, what="'Play again'"
        )
        self.board = (await self.driver.click("alice", board, label="Play again")).message

    def looks(self) -> dict[int, int]:
        """How many looks each public message of #games has had so far."""
        public = [m for m in self.driver.channel_messages("games") if not m.ephemeral]
        return {m.id: len(m.history) + 1 for m in public}

    def public_names(self, seen: dict[int, int], before: dict, after: dict) -> set[str]:
        """Cards held by some seat both ``before`` and ``after`` (in one hand) that a public
        message named in a look it took since ``seen`` (:meth:`looks`); or a hand's picture."""
        if not before or not after or before["hand_number"] != after["hand_number"]:
            return set()  # a hand ended meanwhile: its cards are dealt again (end-to-end test)
        hidden = set.intersection(
            *({c for h in s["hands"] for c in h.split()} for s in (before, after))
        )
        found = set()
        for message in self.driver.channel_messages("games"):
            if message.ephemeral:
                continue
            for look in [*message.history, message][seen.get(message.id, 0) :]:
                texts = [look.content, *(a.description or "" for a in look.attachments)]
                for embed in look.embeds:
                    texts += [embed.get("title", ""), embed.get("description", "")]
                    texts += [
                        f.get("name", "") + f.get("value", "") for f in embed.get("fields", [])
                    ]
                found |= {c for t in texts for c in cards_named(t)} & hidden
                if any("hand" in a.filename for a in look.attachments):
                    found.add("a hand's picture")
        return found


@pytest.fixture
async def hearts(driver: Driver, start_bot, rows: TableRows) -> Hearts:
    await start_bot()
    game = Hearts(driver, rows)
    await game.open()
    game.hand = await open_hand(driver, "alice", game.board)
    return game


@settings(
    max_examples=examples(15),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(clicks=st.lists(st.just("play") | CLICK, min_size=1, max_size=6))
async def test_random_interactions_are_answered_and_never_leak_or_cheat(
    hearts: Hearts, driver: Driver, rows: TableRows, clicks
) -> None:
    for click in clicks:
        before = await hearts.settled()
        table = rows.last()
        if table.status == "finished":  # the next game, on a new board
            await hearts.again()
            before = await hearts.settled()
            table = rows.last()
        if table.status != "active":
            return
        seen = hearts.looks()
        if click == "play":  # Alice plays on: the game moves, so later clicks meet new states
            await hearts.play()
            assert not hearts.public_names(seen, before, await hearts.settled())
            continue
        who, channel, target, real, index, custom_id, ctype, values, claim = click
        message = {"board": hearts.board, "hand": hearts.hand}.get(target)
        if message is None or message.deleted:  # a message the control is not on
            message = driver.channel_messages("games")[0]
        if who != "alice" and message is hearts.hand:
            message = hearts.board  # carol cannot see Alice's private messages
        controls = message.buttons() + message.selects()
        if real and controls:
            control = controls[index % len(controls)]
            custom_id, ctype = control["custom_id"], control["type"]
            options = [o["value"] for o in control.get("options", [])]
            if options:
                values = [options[index % len(options)]]
                if control.get("min_values", 1) > 1:
                    values = options[: control["min_values"]]
        custom_id = custom_id.replace("{id}", str(table.id))
        custom_id = custom_id.replace("{version}", str(table.version))[:100] or "x"
        response = await forge(
            driver, who, message, custom_id, ctype=ctype, values=values, channel=channel,
            claim=claim,
        )  # fmt: skip
        assert "went wrong" not in response.text(), response.text()
        mine = who == "alice" and channel == "games" and response.ephemeral
        if mine and response.message is not None and "Your hand" in response.text():
            hearts.hand = response.message
        after = await hearts.settled()
        if who != "alice" or channel != "games":
            assert after == before, f"{who} in #{channel} changed the game with {custom_id!r}"
        assert not hearts.public_names(seen, before, after), custom_id


TYPED = st.text(min_size=1, max_size=30) | st.sampled_from(
    ("3,4,5", "3-4-5", "²,3", "３,４,５", "-1", "1e3", "9,9,9,9,9", "0", " ", "11-15", "９-13")
)


class Checkers:
    """The checkers game in #games that typed moves are thrown at (restarted when it ends)."""

    def __init__(self, driver: Driver, rows: TableRows) -> None:
        self.driver, self.rows, self.id = driver, rows, 0

    def current(self):
        return next((t for t in self.rows.all() if t.id == self.id), None)

    async def table(self):
        """The game, once it waits for Alice (Black, seat 0)."""
        found = self.current()
        if found is None or found.status != "active":
            await self.driver.slash("alice", "checkers start", level="beginner", color="black")
            self.id = self.rows.last().id

        def alices_turn():
            table = self.current()
            to_act = CheckersState.from_dict(table.state).to_act() if table.state else ()
            return table if table.status != "active" or 0 in to_act else None

        return await self.driver.wait_for(alices_turn, timeout=20)


@pytest.fixture
async def checkers(driver: Driver, start_bot, rows: TableRows) -> Checkers:
    await start_bot()
    return Checkers(driver, rows)


@settings(
    max_examples=examples(20),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(piles=TYPED, move=TYPED, fen=st.text(min_size=3, max_size=40) | st.just("B:W٢١:B1"))
async def test_random_option_strings_and_typed_moves_are_answered(
    checkers: Checkers, driver: Driver, rows: TableRows, piles: str, move: str, fen: str
) -> None:
    started = await driver.slash("alice", "quarters start", channel="lobby", piles=piles)
    assert "went wrong" not in started.text()
    if not started.ephemeral:  # a board: the piles were good
        asked = await driver.slash("alice", "game stop", channel="lobby")
        await driver.click("alice", asked.message, label="Stop the game")
    started = await driver.slash("bob", "checkers start", channel="lobby", position=fen)
    assert "went wrong" not in started.text()
    if not started.ephemeral:
        asked = await driver.slash("bob", "game stop", channel="lobby")
        await driver.click("bob", asked.message, label="Stop the game")

    before = await checkers.table()
    choices = await driver.autocomplete("alice", "checkers move", focused="move", move=move)
    assert len(choices) <= 25
    typed = await driver.slash("alice", "checkers move", move=move)
    assert "went wrong" not in typed.text()
    after = checkers.current()
    try:
        CheckersState.from_dict(before.state).apply(0, move.strip())
    except IllegalAction:  # not a legal move for Alice: nothing may change
        assert after.state == before.state, move
    else:
        assert after.state != before.state, move

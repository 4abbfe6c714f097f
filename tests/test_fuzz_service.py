"""Fuzzing the table service (issue 11): random actions, versions, members, channels and the
message a control was clicked on, thrown at every game. Whatever comes in:

- nothing raises out of the service, and every reply fits Discord's limits;
- a refusal changes nothing stored;
- the game's state changes only on an action by a seated member whose turn it is, from the
  table's channel, on the right message;
- no Hearts card still in a hand appears in a public screen, and a private screen shows only
  its reader's cards.

Examples are few and fast (``max_examples``, no deadline): the suite stays cheap in CI.
``PARLOUR_EXAMPLES_SCALE=10`` tries ten times as many (``example_counts``).
"""

from __future__ import annotations

import itertools

import pytest
from example_counts import examples
from hearts_leaks import leaked
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from limits import assert_fits_discord

from bot.client import customid
from bot.tables.ai import AiRunner
from bot.tables.core.events import Answer
from bot.tables.registry import controllers
from bot.tables.screens import Screen, Select
from bot.tables.service import Member, TableService
from bot.tables.trust import Origin
from storage import Database

GUILD = 1000
ALICE = 1
KINDS = ("quarters", "checkers", "kabu", "quatorze", "hearts")
NAMES = (
    "m", "c", "pile", "take", "remove", "clear", "from", "first", "play", "pass", "hand",
    "scores", "leave", "join", "start", "deal", "again", "accept", "decline", "resign", "hint",
    "record", "secret", "give-up", "give-up?", "computer-start", "level", "rules", "delay",
    "draw", "stand", "pick-1", "offer-draw", "accept-draw", "stop",
)  # fmt: skip
ODD = (
    "²", "３", "٣", "-1", "1.²", "99999999999999999999", "", " ", "1e3", "x", "QS", "0",
    "1.1", "2.3", "11-15", "9x18x27", "*", "=", ",", "here", "QS,2C,3C", "1-1", "３-1",
    "²-3", "3-²", "².1", "1.٣", "pick-²", "²x18", "1" * 25, "-", ".", "1-", "-1-2",
)  # fmt: skip
ACTIONS = st.one_of(
    st.builds("{}={}".format, st.sampled_from(NAMES), st.sampled_from(ODD) | st.text(max_size=8)),
    st.sampled_from(NAMES),
    st.text(max_size=24),
)
# A step is honest (Alice uses a control on the screen that carries it) or anything at all.
HOSTILE = st.tuples(
    ACTIONS,
    st.sampled_from(("seated", "stranger", "elsewhere", "moderator")),
    st.sampled_from(("current", "stale", "any", "huge")),
    st.sampled_from(("board", "private", "none", "other")),
)
# A mutant: an offered control with its argument replaced, sent by Alice where it belongs.
MUTANT = st.sampled_from(ODD) | st.text(max_size=8)
STEP = st.tuples(
    st.integers(0, 10_000),
    st.none() | st.none() | st.tuples(st.just("mutant"), MUTANT) | HOSTILE,
)
_channels = itertools.count(5000)


@pytest.fixture
async def service(tmp_path):
    db = await Database.open(tmp_path / "parlour.db")
    ai = AiRunner(1, threads=True)
    yield TableService(db, controllers(), ai)
    ai.close()
    await db.close()


def controls(screen: Screen | None, where: str) -> list[tuple[str, bool, str]]:
    """Every (action, any_version, where) a screen's controls can send (a select: each option
    alone, and the first ``max_values`` together)."""
    found: list[tuple[str, bool, str]] = []
    for row in screen.rows if screen is not None else ():
        if isinstance(row, Select):
            values = [o.value for o in row.options]
            chosen = [*values, ",".join(values[: row.max_values])]
            found += [(f"{row.action}={v}", row.any_version, where) for v in chosen]
        else:
            found += [(b.action, b.any_version, where) for b in row]
    return found


def check_screens(reply: Answer, before: dict | None, after: dict | None, kind: str) -> None:
    for screen in (reply.board, reply.private, *reply.posts):
        if screen is not None:
            assert_fits_discord(screen)
    if kind == "hearts" and before is not None and after is not None and "hands" in after:
        states = [before, after] if "hands" in before else [after]
        assert not leaked([reply.board, *reply.posts], states, None), "a hand in public"
        assert not leaked([reply.private], states, 0), "another seat's card in Alice's screen"


async def open_table(service: TableService, kind: str, channel: int) -> tuple[Answer, int]:
    alice = Member(ALICE, "Alice", GUILD, channel)
    options = {"level": "beginner", "delay": 0} if kind == "hearts" else {}
    reply = await service.start(alice, kind, options)
    assert reply.error is None, reply.error
    board = channel * 10
    await service.board_posted(reply.table_id, board)
    return reply, board


async def computers(service: TableService, table_id: int, kind: str) -> Screen | None:
    """Let the computer play its turns; the last board it drew, if any."""
    board = None
    for _ in range(80):
        before = (await service.db.get_table(table_id)).state
        reply = await service.computer_turn(table_id)
        if reply is None:
            break
        check_screens(reply, before, (await service.db.get_table(table_id)).state, kind)
        board = reply.board or board
        if not reply.ai_next:
            break
    return board


@settings(
    max_examples=examples(20),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(kind=st.sampled_from(KINDS), steps=st.lists(STEP, min_size=1, max_size=12))
async def test_random_clicks_never_break_the_rules(service, kind, steps) -> None:
    channel = next(_channels)
    reply, board = await open_table(service, kind, channel)
    table_id = reply.table_id
    controller = service.controllers[kind]
    screens: tuple[Screen | None, Screen | None] = (reply.board, None)
    for index, hostile in steps:
        before = await service.db.get_table(table_id)
        if before.board_message_id != board:  # "Play again" opened a new table: stop here
            return
        offered = controls(screens[0], "board") + controls(screens[1], "private")
        if not offered and (hostile is None or hostile[0] == "mutant"):
            continue
        if hostile is None or hostile[0] == "mutant":
            action, any_version, where = offered[index % len(offered)]
            who, version_kind = "seated", "any" if any_version else "current"
            if hostile is not None:
                action = f"{action.partition('=')[0]}={hostile[1]}"
        else:
            action, who, version_kind, where = hostile
        member = {
            "seated": Member(ALICE, "Alice", GUILD, channel),
            "stranger": Member(9, "Mallory", GUILD, channel),
            "elsewhere": Member(ALICE, "Alice", GUILD, channel + 1),
            "moderator": Member(8, "Mod", GUILD, channel, manage_messages=True),
        }[who]
        version = {
            "current": before.version,
            "stale": before.version - 1,
            "any": None,
            "huge": 2**62,
        }[version_kind]
        origin = {
            "board": Origin(board),
            "private": Origin(None, private=True),
            "none": None,
            "other": Origin(board + 1),
        }[where]

        reply = await service.act(member, table_id, version, action, origin)

        after = await service.db.get_table(table_id)
        check_screens(reply, before.state, after.state, kind)
        if reply.error:
            assert (after.version, after.state, after.status) == (
                before.version,
                before.state,
                before.status,
            ), f"refused {action!r} but the table changed"
        if after.state != before.state and before.state is not None:
            assert who == "seated" and where in ("board", "private", "none"), action
            assert version in (before.version, None), action
            seats = set(before.seats_of(ALICE))
            assert seats & set(controller.load(before.state).to_act()), "moved out of turn"
        board_screen = await computers(service, table_id, kind)
        screens = (board_screen or reply.board or screens[0], reply.private)


@given(st.text(max_size=120) | st.from_regex(r"[ts]:[0-9]{1,21}:([0-9]{1,21}|\*):\S{0,99}"))
def test_any_custom_id_parses_to_a_control_or_none(text: str) -> None:
    parsed = customid.parse(text)
    if parsed is not None:
        assert 0 < parsed.table_id < 2**63 and parsed.kind in "ts"
        version = "*" if parsed.version is None else parsed.version
        assert f"{parsed.kind}:{parsed.table_id}:{version}:{parsed.action}" == text
        assert parsed.action.isascii() and len(text) <= 100


@given(st.lists(st.text(max_size=5), max_size=30) | st.none() | st.integers())
def test_any_select_values_are_checked(values) -> None:
    checked = customid.select_values(values)
    if checked is not None:
        assert 1 <= len(checked) <= 25 and all(v.isascii() and "," not in v for v in checked)

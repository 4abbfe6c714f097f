"""The table core (bot/tables/core): pure functions over plain data, tested without an event
loop; its imports stay free of I/O; and the sizes issue 41 sets for the tree."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from support import CHANNEL, GUILD, member

from bot.tables.controller import Intent
from bot.tables.core import clock, rules
from bot.tables.core.events import Answer, BoardChanged, ComputerTurnDue, Posted, Refused
from bot.tables.registry import controllers
from bot.tables.screens import Screen
from bot.tables.trust import OUT_OF_DATE, Origin, check_intent
from games.base import IllegalAction
from i18n import Said, render
from storage.models import Seat, Table, TableStatus

ROOT = Path(__file__).resolve().parent.parent
CORE = sorted((ROOT / "bot/tables/core").rglob("*.py"))
ALICE = member(1, "Alice")
BOB = member(2, "Bob")


def imported(path: Path) -> set[str]:
    """Every module ``path`` imports, by its full name."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


@pytest.mark.parametrize("path", CORE, ids=lambda p: p.name)
def test_the_core_imports_no_asyncio_discord_database_or_pil(path):
    forbidden = ("asyncio", "discord", "PIL", "sqlite3", "aiosqlite", "asyncpg", "aiohttp")
    for name in imported(path):
        assert name.split(".")[0] not in forbidden, (path.name, name)
        # plain data from storage (its models), never the database
        assert name.split(".")[0] != "storage" or name == "storage.models", (path.name, name)


def table(status=TableStatus.ACTIVE, version=3, seats=None, **kw) -> Table:
    return Table(
        id=7,
        guild_id=GUILD,
        channel_id=CHANNEL,
        kind="quarters",
        status=status,
        seats=seats or [Seat("Alice", 1), Seat("Bob", 2)],
        options=kw.pop("options", {}),
        state=None,
        ui=kw.pop("ui", {}),
        version=version,
        board_message_id=777,
        created_by=1,
        created_at=0.0,
        updated_at=0.0,
        last_move_at=kw.pop("last_move_at", 0.0),
        **kw,
    )


def test_route_refuses_an_old_board_and_a_foreign_channel_with_a_link_to_the_board():
    assert rules.route(table(), ALICE, 2, "c", Origin(777)) == Refused(Said(OUT_OF_DATE), 777)
    elsewhere = rules.route(table(), member(1, channel=CHANNEL + 1), 3, "c", None)
    assert isinstance(elsewhere, Refused) and elsewhere.board_message_id == 777
    assert rules.route(None, ALICE, 3, "c", None) == Refused(rules.GONE)
    assert rules.route(table(), ALICE, 3, "c", Origin(777)) is rules.Route.ACT


def test_route_sends_again_and_challenge_answers_to_their_own_steps():
    finished = table(TableStatus.FINISHED)
    assert rules.route(finished, ALICE, None, "again", None) is rules.Route.AGAIN
    assert rules.route(finished, ALICE, None, "c", None) == Refused(rules.OVER)
    challenge = table(TableStatus.CHALLENGE)
    assert rules.route(challenge, BOB, 3, "accept", None) is rules.Route.ANSWER


def test_a_star_version_on_the_public_board_may_show_but_not_change_the_table():
    board = Origin(777)
    with pytest.raises(IllegalAction, match="out of date"):
        check_intent(board, None, Intent(changed=True))  # t:<table>:*:c=1.1
    with pytest.raises(IllegalAction, match="out of date"):
        check_intent(board, None, Intent(move="1-1"))
    check_intent(board, None, Intent(private=Screen("the scores")))  # shows only: fine
    check_intent(board, 3, Intent(changed=True))  # the board's own version: fine


def test_a_declined_challenge_stops_the_table_and_says_who_declined():
    quarters = controllers()["quarters"]
    challenge = table(TableStatus.CHALLENGE, ui={"expires": 100.0})
    text = rules.answer_challenge(quarters, challenge, BOB, False, now=50.0)
    assert (
        challenge.status is TableStatus.STOPPED
        and str(text) == "Bob declined the Quarters challenge."
    )
    with pytest.raises(IllegalAction, match="challenged member"):
        rules.answer_challenge(quarters, table(TableStatus.CHALLENGE), ALICE, True, now=50.0)


def test_a_claim_waits_for_the_claim_time_and_never_on_your_own_turn():
    quarters = controllers()["quarters"]
    t = table(last_move_at=1000.0, options=quarters.parse_options({}))
    state = quarters.new_state(t, 1)
    waiting = 1 if 0 in state.to_act() else 0
    idle = member(waiting + 1)
    with pytest.raises(IllegalAction, match="minute"):
        rules.claim(t, state, idle.user_id, claim_seconds=600, now=1100.0)
    assert rules.claim(t, state, idle.user_id, claim_seconds=600, now=1700.0).winners == (waiting,)
    with pytest.raises(IllegalAction, match="your turn"):
        rules.claim(t, state, member(2 - waiting).user_id, claim_seconds=600, now=1700.0)


def test_the_sweep_lapses_a_challenge_and_ends_a_game_idle_too_long():
    quarters = controllers()["quarters"]
    limits = dict(clock.SETTING_DEFAULTS)
    lapsed = table(TableStatus.CHALLENGE, ui={"expires": 10.0})
    assert (
        str(clock.when_idle(quarters, lapsed, limits, now=20.0)) == "The Quarters challenge lapsed."
    )
    assert clock.when_idle(quarters, table(), limits, now=3600.0) is None
    ended = clock.when_idle(quarters, table(), limits, now=25 * 3600.0)
    assert ended is not None and "24 Stunden" in render(ended, "de")


def test_an_answer_reads_its_events_and_reposts_its_board():
    answer = Answer(
        (BoardChanged(Screen("board"), 5), ComputerTurnDue(0.5), Posted(Screen("result"))), 7, 3
    )
    assert answer.board == Screen("board") and answer.ai_next and answer.delay == 0.5
    assert answer.posts == [Screen("result")] and answer.error is None and not answer.repost
    moved = answer.reposted(4)
    assert moved.repost and moved.board_message_id == 4 and moved.version == 3
    assert Answer.refuse("no", 5).error == "no" and Answer.refuse("no", 5).board_message_id == 5


# -- sizes -------------------------------------------------------------------------------------


def long_functions(path: Path, limit: int) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            length = (node.end_lineno or node.lineno) - node.lineno + 1
            if length > limit:
                found.append(f"{node.name}: {length} lines")
    return found


def lines(path: Path) -> int:
    return len(path.read_text(encoding="utf-8").splitlines())


@pytest.mark.parametrize(
    "path", sorted((ROOT / "bot/tables").rglob("*.py")), ids=lambda p: str(p.relative_to(ROOT))
)
def test_table_modules_stay_under_400_lines_and_their_functions_under_60(path):
    assert lines(path) <= 400
    assert long_functions(path, 60) == []


def test_no_module_of_the_bot_is_over_500_lines():
    assert {
        str(p.relative_to(ROOT)): lines(p) for p in (ROOT / "bot").rglob("*.py") if lines(p) > 500
    } == {}

"""Helpers for end-to-end tests of the real bot process against the fake Discord.

- :func:`click_as_seen`: a click on a control a member's client still shows although the bot
  has since taken it off the message (a board retired by ``/game show``).
- :func:`descendants` / :func:`wait_gone`: the processes a bot started (its computer players),
  to check none outlive it.
- :class:`TableRows`: read the bot's database (``DATABASE_URL`` of ``start_bot``, SQLite or
  PostgreSQL) to check what was stored, and to age a challenge without waiting for it.
"""

from __future__ import annotations

import asyncio
import copy
import json
import sqlite3
import threading
import time
from collections.abc import Coroutine, Iterable
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import asyncpg

from fakediscord import Driver, FakeDiscord, Message, Response
from fakediscord.server import MESSAGE_COMPONENT
from fakediscord.state import BUTTON, walk_components
from storage.backends import postgres_sql
from storage.database import is_postgres, parse_database_url

# -- members' clicks ------------------------------------------------------------------------


async def click_as_seen(
    driver: Driver, member: str, message: Message, seen: list[dict[str, Any]], label: str
) -> Response:
    """Click the button labelled ``label`` among ``seen``, the components ``message`` had when
    the member's client last drew it, although the bot has since changed the message.

    Discord can deliver such a click when the member clicks an instant before the edit that
    removed the control reaches their client; the bot must refuse it politely.
    """
    fake: FakeDiscord = driver.fake
    button = next(
        (b for b in walk_components(seen) if b.get("type") == BUTTON and b.get("label") == label),
        None,
    )
    assert button is not None, f"no button {label!r} in the components the member saw"
    interaction = fake.new_interaction(
        itype=MESSAGE_COMPONENT,
        user=driver.user(member),
        channel=fake.world.channel(message.channel_id),
        data={"custom_id": button["custom_id"], "component_type": BUTTON},
        message=message,
    )
    interaction.payload["message"]["components"] = copy.deepcopy(seen)
    await fake.send_interaction(interaction)
    await fake.wait_for(
        lambda: interaction.responded or interaction.rejected, 10, f"an answer to {label!r}"
    )
    assert not interaction.rejected, interaction.rejected
    return Response(interaction, fake)


# -- processes ------------------------------------------------------------------------------


def _parents() -> dict[int, int]:
    found = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        if fields[0] != "Z":  # zombies are dead already
            found[int(entry.name)] = int(fields[1])
    return found


def descendants(pid: int) -> set[int]:
    """Every living process below ``pid`` (children, grandchildren...)."""
    parents = _parents()
    found: set[int] = set()
    frontier = {pid}
    while frontier:
        frontier = {p for p, parent in parents.items() if parent in frontier} - found
        found |= frontier
    return found


def alive(pids: Iterable[int]) -> set[int]:
    """Those of ``pids`` that still run (not zombies)."""
    living = _parents()
    return {p for p in pids if p in living}


async def wait_gone(driver: Driver, pids: Iterable[int], timeout: float = 15.0) -> None:
    """Wait until none of ``pids`` runs; fail naming the survivors. Each notices its parent's
    death on its own, which a loaded machine may delay by seconds."""
    pids = set(pids)
    deadline = time.monotonic() + timeout
    while alive(pids):
        if time.monotonic() > deadline:
            raise AssertionError(f"processes outlived the bot: {sorted(alive(pids))}")
        await asyncio.sleep(0.02)


# -- the database ---------------------------------------------------------------------------


@dataclass(slots=True)
class TableRow:
    id: int
    status: str
    version: int
    board_message_id: int | None
    state: dict[str, Any] | None
    ui: dict[str, Any]
    seats: list[dict[str, Any]]


class _SqliteRows:
    """Short-lived sqlite3 connections to the bot's file."""

    dialect = "sqlite"

    def __init__(self, path: Path) -> None:
        self.path = path

    def run(self, sql: str, *args: Any) -> list[tuple[Any, ...]]:
        """Run one statement in its own transaction (committed when it returns)."""
        with closing(sqlite3.connect(self.path, timeout=5)) as conn, conn:
            return conn.execute(sql, args).fetchall()

    def close(self) -> None:
        pass


class _PostgresRows:
    """One asyncpg connection, driven from a thread of its own so that the test's event loop
    (which serves the fake Discord) can ask synchronously, as it does of SQLite."""

    dialect = "postgresql"

    def __init__(self, url: str) -> None:
        self.url = url
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)
        self._thread.start()
        self._conn: asyncpg.Connection | None = None

    def _call(self, coro: Coroutine[Any, Any, Any]) -> Any:
        return asyncio.run_coroutine_threadsafe(coro, self._loop).result(timeout=10)

    async def _run(self, sql: str, args: tuple[Any, ...]) -> list[tuple[Any, ...]]:
        if self._conn is None:
            self._conn = await asyncpg.connect(self.url)
        return [tuple(r) for r in await self._conn.fetch(postgres_sql(sql), *args)]

    def run(self, sql: str, *args: Any) -> list[tuple[Any, ...]]:
        """Run one statement (autocommit)."""
        return self._call(self._run(sql, args))

    def close(self) -> None:
        if self._conn is not None:
            self._call(self._conn.close())
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(5)
        self._loop.close()


class TableRows:
    """Read (and, to age a challenge, touch) the bot's ``game_tables`` on either back-end.

    ``target`` is the bot's ``DATABASE_URL`` (``sqlite:///...`` or ``postgresql://...``) or a
    SQLite file. Close it when done (the ``rows`` fixture does).
    """

    def __init__(self, target: str | Path) -> None:
        if isinstance(target, str) and is_postgres(target):
            self.db: _SqliteRows | _PostgresRows = _PostgresRows(target)
        else:
            path = parse_database_url(target) if isinstance(target, str) else target
            self.db = _SqliteRows(Path(path))

    @property
    def dialect(self) -> str:
        """``sqlite`` or ``postgresql``."""
        return self.db.dialect

    def run(self, sql: str, *args: Any) -> list[tuple[Any, ...]]:
        """Any statement, with ``?`` placeholders on both back-ends."""
        return self.db.run(sql, *args)

    def close(self) -> None:
        self.db.close()

    def all(self) -> list[TableRow]:
        rows = self.run(
            "SELECT id, status, version, board_message_id, state, ui, seats "
            "FROM game_tables ORDER BY id"
        )
        return [
            TableRow(
                id=r[0],
                status=r[1],
                version=r[2],
                board_message_id=r[3],
                state=json.loads(r[4]) if r[4] else None,
                ui=json.loads(r[5]),
                seats=json.loads(r[6]),
            )
            for r in rows
        ]

    def last(self) -> TableRow:
        rows = self.all()
        assert rows, "no table in the database"
        return rows[-1]

    def results(self) -> list[tuple[str, str, int]]:
        """(user name, outcome, vs computer) per stored result."""
        rows = self.run("SELECT user_name, outcome, vs_computer FROM results ORDER BY id")
        return [(r[0], r[1], r[2]) for r in rows]

    def set_state(self, table_id: int, state: dict[str, Any]) -> None:
        """Store an engine state, as the bot would have before it crashed."""
        self.run("UPDATE game_tables SET state = ? WHERE id = ?", json.dumps(state), table_id)

    def expire_challenge(self, table_id: int) -> None:
        """Make a waiting challenge older than its lapse time (as if minutes went by)."""
        aged = {
            "sqlite": "json_set(ui, '$.expires', 0)",
            "postgresql": "jsonb_set(ui::jsonb, '{expires}', '0')::text",
        }[self.dialect]
        self.run(f"UPDATE game_tables SET ui = {aged} WHERE id = ?", table_id)


SUCCESS_STYLE = 3  # a picked card's button is green


async def pass_three(
    driver: Driver, member: str, hand: Message, label: str = "Pass 3/3"
) -> Response:
    """Pass three cards from a Hearts hand as a member would: tap three cards, then **Pass**
    (``label``: the button as the member's language says it)."""
    for _ in range(3):
        card = next(
            b
            for b in hand.buttons()
            if b["custom_id"].split(":", 3)[3].startswith("pick=")
            and b.get("style") != SUCCESS_STYLE
            and not b.get("disabled")
        )
        picked = await driver.click(member, hand, custom_id=card["custom_id"])
        assert picked.type == 7 and picked.message is hand
    return await driver.click(member, hand, label=label)


def playable(hand: Message) -> list[str]:
    """The labels of the card buttons of a Hearts hand that may be played now."""
    return [
        b["label"]
        for b in hand.buttons()
        if b["custom_id"].split(":", 3)[3].startswith("play=") and not b.get("disabled")
    ]


async def open_hand(
    driver: Driver,
    member: str,
    board: Message,
    heading: str = "**Your hand**",
    button: str = "Your hand",
) -> Message:
    """Press **Your hand** on the board and return the private hand it opens (also when the bot
    deferred the click, so the hand came as a follow-up rather than the answer); ``heading``:
    the hand's first words in the member's language; ``button``: the board's button as the
    channel's language says it."""
    before = {m.id for m in driver.ephemerals(member)}
    await driver.click(member, board, label=button)

    def opened() -> Message | None:
        fresh = [m for m in driver.ephemerals(member) if m.id not in before]
        return next((m for m in fresh if heading in m.content), None)

    return await driver.wait_for(opened)

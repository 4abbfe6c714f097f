"""Members' and servers' data: export it, erase it, and purge a departed server's.

Every function takes the repository (:class:`storage.Database`) and runs in one session of its
back-end (``db.backend.session``), so it works alike on SQLite and PostgreSQL; the changes are
one transaction each. The SQL is portable (no JSON functions); JSON columns are read and
written as text and filtered in Python. What each function changes:

- :func:`member_data`: nothing; a member's games, results, ratings and the server's settings.
- :func:`forget_member`: deletes the member's results and ratings in the place, and renames
  their seats in finished games "a former member" (id 0). Refused while the member is in an
  open game. Other members' results and ratings are not touched, so their totals stay.
- :func:`erase_guild`: deletes every row of a server (tables, results, ratings, settings); never
  a row of a chat outside servers or of a DM.

Both member functions take a place (:class:`storage.models.Place`, or a guild id for a
server): a server or a chat means its own rows; the DM with Parlour means every row of the
member outside servers (their own record and every chat they played in, which they may have
left since).
- :func:`mark_guild_departed` / :func:`mark_guild_returned` / :func:`purge_departed`: when
  the bot leaves a server its open tables stop at once; after the retention period its data
  is erased, unless the bot came back meanwhile.
- :func:`purge_direct_daily`: the daily attempts made in direct messages, which belong to no
  server, are erased once their member has started none for the retention period.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from storage.models import Place, PlaceKind

if TYPE_CHECKING:
    from storage.backends import Session
    from storage.database import Database

FORMER_MEMBER = "a former member"
FORMER_MEMBER_ID = 0  # no Discord id is 0; the seat stays a member's seat, not the computer's
DEPARTED = "departed_at"  # the guild setting that records when the bot left the server
OPEN = ("challenge", "active")


async def _deleted(s: Session, sql: str, *args: Any) -> int:
    """Run a ``DELETE`` and count its rows (both back-ends return them with RETURNING)."""
    return len(await s.fetch(sql + " RETURNING 1", *args))


class StillPlaying(Exception):
    """The member is in an open game: they finish, resign or leave it before being forgotten."""

    def __init__(self, tables: list[tuple[int, int]]) -> None:
        self.tables = tables  # (table id, channel id)
        super().__init__(
            "Finish, resign or leave your open game first: "
            + ", ".join(f"<#{channel}>" for _, channel in tables)
            + "."
        )


@dataclass(frozen=True, slots=True)
class Forgotten:
    results: int
    ratings: int
    tables: int  # finished or stopped tables where their seats were renamed


@dataclass(frozen=True, slots=True)
class Erased:
    tables: int
    results: int
    ratings: int
    settings: int
    open_tables: list[int]  # tables that were still open: the bot stops their computer turns


def _json(value: Any) -> Any:
    return json.loads(value) if isinstance(value, str | bytes) else value


def _dump(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), sort_keys=True)


def _when(epoch: float | None) -> str | None:
    if epoch is None:
        return None
    return dt.datetime.fromtimestamp(epoch, dt.UTC).isoformat(timespec="seconds")


_TABLES = (
    "SELECT id, kind, channel_id, status, seats, ui, created_by, created_at, last_move_at "
    "FROM game_tables WHERE {where} ORDER BY id"
)
_SERVER = PlaceKind.SERVER.value


def _place(where: Place | int) -> Place:
    return where if isinstance(where, Place) else Place.server(where)


def _rows_in(place: Place) -> tuple[str, list[Any]]:
    """The ``WHERE`` clause of a place's results, ratings and daily attempts (with the member's
    own ``user_id`` filter added by the caller), and its arguments."""
    if place.kind is PlaceKind.DM:  # from the DM: everything of the member outside servers
        return "place <> ?", [_SERVER]
    return "place = ? AND place_id = ?", [place.kind.value, place.id]


def _tables_in(place: Place) -> tuple[str, list[Any]]:
    """The ``WHERE`` clause of a place's tables (those naming the member are kept later)."""
    if place.kind is PlaceKind.SERVER:
        return "guild_id = ? AND place = ?", [place.id, _SERVER]
    if place.kind is PlaceKind.CHAT:
        return "channel_id = ? AND place = ?", [place.id, PlaceKind.CHAT.value]
    return "place <> ?", [_SERVER]


async def _tables(s: Session, place: Place) -> list[Sequence[Any]]:
    where, args = _tables_in(place)
    return await s.fetch(_TABLES.format(where=where), *args)


def _involves(row: Sequence[Any], user_id: int) -> bool:
    """Whether a table row names the member: a seat, the creator, or a seat they left."""
    seats, ui = _json(row[4]), _json(row[5])
    return (
        any(seat.get("user_id") == user_id for seat in seats)
        or row[6] == user_id
        or any(left.get("user_id") == user_id for left in ui.get("left", ()))
    )


async def member_data(db: Database, where: Place | int, user_id: int) -> dict[str, Any]:
    """Everything Parlour stores about a member in a place (a guild id: that server), as
    JSON-ready data (ids as text)."""
    async with db.backend.session() as s:
        return await _member_data(s, _place(where), user_id)


async def _member_data(conn: Session, place: Place, user_id: int) -> dict[str, Any]:
    games = []
    for row in await _tables(conn, place):
        if not _involves(row, user_id):
            continue
        seats = _json(row[4])
        games.append(
            {
                "table": row[0],
                "game": row[1],
                "channel": str(row[2]),
                "status": row[3],
                "your_seats": [i for i, s in enumerate(seats) if s.get("user_id") == user_id],
                "players": [s.get("name", "") for s in seats],
                "started_by_you": row[6] == user_id,
                "created": _when(row[7]),
                "last_move": _when(row[8]),
            }
        )
    where, args = _rows_in(place)
    results = [
        {
            "place": r[9],
            "table": r[0],
            "game": r[1],
            "name": r[2],
            "outcome": r[3],
            "points": r[4],
            "rating_change": r[5],
            "vs_computer": bool(r[6]),
            "figures": _json(r[7]),
            "finished": _when(r[8]),
        }
        for r in await conn.fetch(
            "SELECT table_id, kind, user_name, outcome, points, rating_change, vs_computer, "
            f"extra, finished_at, place FROM results WHERE {where} AND user_id = ? ORDER BY id",
            *args,
            user_id,
        )
    ]
    ratings = [
        {"place": r[3], "game": r[0], "rating": r[1], "rated_games": r[2]}
        for r in await conn.fetch(
            f"SELECT kind, rating, games, place FROM ratings WHERE {where} AND user_id = ? "
            "ORDER BY place, kind",
            *args,
            user_id,
        )
    ]
    settings = {}
    if place.kind is PlaceKind.SERVER:  # chats and DMs have no settings
        settings = {
            r[0]: r[1]
            for r in await conn.fetch(
                "SELECT name, value FROM guild_settings WHERE guild_id = ? ORDER BY name", place.id
            )
        }
    daily = [
        {"day": r[0], "puzzle": r[1], "status": r[2], "moves": r[3], "hints": r[4]}
        for r in await conn.fetch(
            "SELECT day, puzzle, status, moves, hints FROM daily_attempts "
            f"WHERE {where} AND user_id = ? ORDER BY id",
            *args,
            user_id,
        )
    ]
    return {
        "place": place.kind.value,  # server | chat | dm (the DM: everything outside servers)
        place.kind.value: str(place.id),
        "member": str(user_id),
        "games": games,
        "results": results,
        "ratings": ratings,
        "daily_puzzles": daily,  # the daily puzzle attempts started in this place
        "member_settings": {},  # Parlour keeps no per-member settings
        "server_settings": settings,
    }


def _anonymised(seats: list[dict[str, Any]], ui: dict[str, Any], user_id: int) -> None:
    """Rename the member's seats (and a seat the computer took over from them) in place."""
    names = {s.get("name") for s in seats if s.get("user_id") == user_id}
    for seat in seats:
        if seat.get("user_id") == user_id:
            seat["user_id"], seat["name"] = FORMER_MEMBER_ID, FORMER_MEMBER
    for left in ui.get("left", ()):
        if left.get("user_id") == user_id:
            names.add(left.get("name"))
            left["user_id"], left["name"] = FORMER_MEMBER_ID, FORMER_MEMBER
            index = left.get("seat")
            if isinstance(index, int) and 0 <= index < len(seats) and seats[index].get("ai_level"):
                seats[index]["name"] = f"{FORMER_MEMBER} (computer)"
    if ui.get("closed_by") in names - {None}:
        ui["closed_by"] = FORMER_MEMBER


async def forget_member(db: Database, where: Place | int, user_id: int) -> Forgotten:
    """Erase a member's results and ratings in a place (a guild id: that server); their past
    seats there become anonymous.

    Raises :class:`StillPlaying` (and changes nothing) while an open table names them.
    """
    place = _place(where)
    rows_in, args = _rows_in(place)
    async with db.backend.session(transaction=True) as s:
        rows = [r for r in await _tables(s, place) if _involves(r, user_id)]
        playing = [(r[0], r[2]) for r in rows if r[3] in OPEN]
        if playing:
            raise StillPlaying(playing)
        results = ratings = 0
        # daily puzzle attempts started in this place count as results
        for table in ("results", "daily_attempts", "ratings"):
            sql = f"DELETE FROM {table} WHERE {rows_in} AND user_id = ?"
            count = await _deleted(s, sql, *args, user_id)
            if table == "ratings":
                ratings = count
            else:
                results += count
        for row in rows:
            seats, ui = _json(row[4]), _json(row[5])
            _anonymised(seats, ui, user_id)
            creator = FORMER_MEMBER_ID if row[6] == user_id else row[6]
            await s.execute(
                "UPDATE game_tables SET seats = ?, ui = ?, created_by = ?, version = version + 1 "
                "WHERE id = ?",
                _dump(seats),
                _dump(ui),
                creator,
                row[0],
            )
    return Forgotten(results=results, ratings=ratings, tables=len(rows))


_OPEN_IDS = (
    "SELECT id FROM game_tables WHERE guild_id = ? AND place = 'server' AND status IN (?, ?) "
    "ORDER BY id"
)


async def erase_guild(db: Database, guild_id: int) -> Erased:
    """Delete every row Parlour keeps for a server, open tables included, in one transaction."""
    async with db.backend.session(transaction=True) as s:
        return await _erase_guild(s, guild_id)


async def _erase_guild(s: Session, guild_id: int) -> Erased:
    """Only the server's own place: the chats and DMs (guild 0) are no server's rows."""
    open_tables = [r[0] for r in await s.fetch(_OPEN_IDS, guild_id, *OPEN)]
    server = "place = 'server' AND place_id = ?"
    results = await _deleted(s, f"DELETE FROM results WHERE {server}", guild_id)
    results += await _deleted(s, f"DELETE FROM daily_attempts WHERE {server}", guild_id)
    ratings = await _deleted(s, f"DELETE FROM ratings WHERE {server}", guild_id)
    settings = await _deleted(s, "DELETE FROM guild_settings WHERE guild_id = ?", guild_id)
    tables = await _deleted(
        s, "DELETE FROM game_tables WHERE guild_id = ? AND place = 'server'", guild_id
    )
    return Erased(tables, results, ratings, settings, open_tables)


async def mark_guild_departed(db: Database, guild_id: int, now: float) -> list[int]:
    """The bot left a server: stop its open tables now and note when, for the purge.

    Returns the ids of the tables stopped (the bot cancels their computer turns). A server
    already marked keeps its first date.
    """
    async with db.backend.session(transaction=True) as s:
        stopped = [r[0] for r in await s.fetch(_OPEN_IDS, guild_id, *OPEN)]
        await s.execute(
            "UPDATE game_tables SET status = 'stopped', version = version + 1, updated_at = ? "
            "WHERE guild_id = ? AND place = 'server' AND status IN (?, ?)",
            now,
            guild_id,
            *OPEN,
        )
        await s.execute(
            "INSERT INTO guild_settings (guild_id, name, value) VALUES (?, ?, ?) "
            "ON CONFLICT (guild_id, name) DO NOTHING",
            guild_id,
            DEPARTED,
            repr(float(now)),
        )
    return stopped


async def mark_guild_returned(db: Database, guild_id: int) -> bool:
    """The bot is in the server again: cancel a pending purge. True when one was pending."""
    async with db.backend.session() as s:
        changed = await _deleted(
            s, "DELETE FROM guild_settings WHERE guild_id = ? AND name = ?", guild_id, DEPARTED
        )
    return changed > 0


async def departed_guilds(db: Database) -> dict[int, float]:
    """Servers the bot left whose data is waiting for the purge: guild id -> when it left."""
    async with db.backend.session() as s:
        rows = await s.fetch("SELECT guild_id, value FROM guild_settings WHERE name = ?", DEPARTED)
    return {r[0]: float(r[1]) for r in rows}


async def purge_departed(db: Database, retention: float, now: float) -> dict[int, Erased]:
    """Erase the data of every server the bot left ``retention`` seconds ago or more (each
    server in its own transaction, which checks again that it is still due)."""
    due = [g for g, left in (await departed_guilds(db)).items() if left + retention <= now]
    purged = {}
    for guild in sorted(due):
        async with db.backend.session(transaction=True) as s:
            row = await s.fetchrow(
                "SELECT value FROM guild_settings WHERE guild_id = ? AND name = ?",
                guild,
                DEPARTED,
            )
            if row is not None and float(row[0]) + retention <= now:  # not invited back
                purged[guild] = await _erase_guild(s, guild)
    return purged


async def purge_direct_daily(db: Database, retention: float, now: float) -> int:
    """Erase the daily puzzle attempts started in direct messages (guild 0, which no server's
    departure purges) of every member whose latest such attempt began ``retention`` seconds ago
    or more; members still playing keep theirs, and their streaks. The number erased."""
    async with db.backend.session(transaction=True) as s:
        return await _deleted(
            s,
            "DELETE FROM daily_attempts WHERE guild_id = 0 AND user_id IN ("
            "SELECT user_id FROM daily_attempts WHERE guild_id = 0 GROUP BY user_id "
            "HAVING MAX(started_at) + ? <= ?)",
            retention,
            now,
        )


async def guilds_with_data(db: Database) -> set[int]:
    """Every server with a row anywhere: at start-up, those the bot is no longer in can be
    marked departed (the bot may have been removed while it was down). Never a chat outside
    servers or a DM: their rows are no server's."""
    found: set[int] = set()
    async with db.backend.session() as s:
        for table, column in (
            ("game_tables", "guild_id"),
            ("results", "place_id"),
            ("ratings", "place_id"),
        ):
            sql = f"SELECT DISTINCT {column} FROM {table} WHERE place = 'server'"
            found.update(r[0] for r in await s.fetch(sql))
        found.update(r[0] for r in await s.fetch("SELECT DISTINCT guild_id FROM guild_settings"))
    found.discard(0)
    return found


async def _command(args: Any) -> int:
    import sys
    import time

    from storage.database import Database

    db = await Database.open(args.database)
    try:
        if args.action == "export":
            print(json.dumps(await member_data(db, args.guild, args.user), indent=2))
        elif args.action == "forget":
            print(await forget_member(db, args.guild, args.user))
        elif args.action == "erase":
            print(await erase_guild(db, args.guild))
        else:
            purged = await purge_departed(db, args.days * 86400, time.time())
            print(f"purged {len(purged)} server(s): {', '.join(map(str, purged)) or 'none'}")
            direct = await purge_direct_daily(db, args.days * 86400, time.time())
            print(f"purged {direct} daily puzzle attempt(s) made in direct messages")
    except StillPlaying as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    finally:
        await db.close()
    return 0


def main(argv: list[str] | None = None) -> int:
    """``python -m storage.privacy``: the operator's export, forget, erase and purge."""
    import argparse
    import asyncio
    import os

    parser = argparse.ArgumentParser(
        prog="python -m storage.privacy",
        description="Members' and servers' data in the database (the bot may be running).",
    )
    parser.add_argument(
        "--database",
        default=os.environ.get("DATABASE_URL") or "sqlite:///data/parlour.db",
        help="the database URL (default: $DATABASE_URL)",
    )
    sub = parser.add_subparsers(dest="action", required=True)
    for name, text in (
        ("export", "print what is stored about a member in a server, as JSON"),
        ("forget", "erase a member's results and ratings in a server"),
    ):
        cmd = sub.add_parser(name, help=text)
        cmd.add_argument("guild", type=int)
        cmd.add_argument("user", type=int)
    sub.add_parser("erase", help="erase every row of a server").add_argument("guild", type=int)
    purge = sub.add_parser("purge", help="erase the servers the bot left DAYS days ago or more")
    purge.add_argument("--days", type=float, default=30.0)
    return asyncio.run(_command(parser.parse_args(argv)))


if __name__ == "__main__":
    raise SystemExit(main())

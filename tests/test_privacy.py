"""Members' data: the export, /privacy forget, a server's erasure and the departed-server purge."""

from __future__ import annotations

import asyncio
import json

import pytest
from example_counts import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.ops.departures import PRIVATE, Departures
from storage import Database, Result, Seat, TableStatus
from storage.privacy import (
    FORMER_MEMBER,
    StillPlaying,
    departed_guilds,
    erase_guild,
    forget_member,
    guilds_with_data,
    mark_guild_departed,
    mark_guild_returned,
    member_data,
    purge_departed,
)
from storage.privacy import main as privacy_main

HOME, AWAY = 10, 20
ALICE, BOB, CAROL = 1, 2, 3
DAY = 86400.0


async def finished_game(db, guild, channel, kind, results, seats=None, ui=None, by=ALICE):
    """A game played to its end through the repository (results and ratings written with it)."""
    seats = seats or [Seat(r.name, r.user_id) for r in results]
    table = await db.create_table(
        guild_id=guild,
        channel_id=channel,
        kind=kind,
        status=TableStatus.ACTIVE,
        seats=seats,
        options={},
        state={"over": False},
        ui=ui,
        created_by=by,
    )
    table.state = {"over": True}
    assert await db.finish_table(table, results)
    return table


def res(user, outcome, change=0.0, points=0, name=None, **extra):
    names = {ALICE: "alice", BOB: "bob", CAROL: "carol"}
    return Result(user, outcome, points, False, change, extra, name or names[user])


@pytest.fixture
async def db(db_path):
    """A database on each back-end (a SQLite file, a PostgreSQL schema)."""
    db = await Database.open(db_path)
    yield db
    await db.close()


@pytest.fixture
async def world(db):
    """Alice, Bob and Carol played in two servers; Alice left a Hearts game midway."""
    await finished_game(db, HOME, 100, "checkers", [res(ALICE, "win", 8), res(BOB, "loss", -8)])
    await finished_game(db, HOME, 100, "checkers", [res(BOB, "win", 9), res(CAROL, "loss", -9)])
    hearts_seats = [
        Seat("alice (computer)", None, "hard"),
        Seat("bob", BOB),
        Seat("carol", CAROL),
        Seat("Computer", None, "easy"),
    ]
    left = [{"seat": 0, "user_id": ALICE, "name": "alice", "points": 12, "hands": 2, "moons": 0}]
    await finished_game(
        db,
        HOME,
        101,
        "hearts",
        [res(BOB, "win", points=40, moons=1), res(CAROL, "loss", points=70, moons=0)],
        seats=hearts_seats,
        ui={"left": left, "closed_by": "alice"},
    )
    await finished_game(db, AWAY, 200, "checkers", [res(ALICE, "win", 7), res(BOB, "loss", -7)])
    await db.set_guild_setting(HOME, "idle_claim_minutes", "5.0")
    await db.set_guild_setting(AWAY, "idle_claim_minutes", "7.0")
    return db


async def rows(db, guild):
    """Every row of a server, in a comparable form."""
    found = {}
    async with db.backend.session() as s:
        for table, order, where in (
            ("game_tables", "id", "guild_id = ?"),
            ("results", "id", "guild_id = ?"),
            ("ratings", "kind, user_id", "place = 'server' AND place_id = ?"),
            ("guild_settings", "name", "guild_id = ?"),
        ):
            found[table] = [
                tuple(r)
                for r in await s.fetch(
                    f"SELECT * FROM {table} WHERE {where} ORDER BY {order}", guild
                )
            ]
    return found


async def boards(db, guild, kinds=("checkers", "hearts")):
    return {kind: {s.user_id: s for s in await db.standings(guild, kind)} for kind in kinds}


async def test_the_export_lists_the_members_games_results_ratings_and_settings(world):
    data = await member_data(world, HOME, ALICE)
    assert json.loads(json.dumps(data)) == data  # a JSON file as it is
    assert (data["server"], data["member"]) == (str(HOME), str(ALICE))
    assert [(g["game"], g["status"]) for g in data["games"]] == [
        ("checkers", "finished"),  # alice played
        ("checkers", "finished"),  # alice started it (created_by)
        ("hearts", "finished"),  # alice left; the computer took her seat
    ]
    assert data["games"][0]["your_seats"] == [0] and data["games"][2]["your_seats"] == []
    assert [(r["game"], r["outcome"], r["rating_change"]) for r in data["results"]] == [
        ("checkers", "win", 8.0)
    ]
    assert data["ratings"] == [
        {"place": "server", "game": "checkers", "rating": 1208.0, "rated_games": 1}
    ]
    assert data["server_settings"] == {"idle_claim_minutes": "5.0"}
    away = await member_data(world, AWAY, ALICE)
    assert [r["rating_change"] for r in away["results"]] == [7.0]


async def test_forget_leaves_the_other_members_totals_and_ratings_unchanged(world):
    before = await boards(world, HOME)
    ratings = await world.ratings(HOME, "checkers", [BOB, CAROL])
    away = await rows(world, AWAY)
    done = await forget_member(world, HOME, ALICE)
    assert (done.results, done.ratings, done.tables) == (1, 1, 3)
    after = await boards(world, HOME)
    assert ALICE not in after["checkers"]
    for kind in before:
        others = {u: s for u, s in before[kind].items() if u != ALICE}
        assert after[kind] == others
    assert await world.ratings(HOME, "checkers", [BOB, CAROL]) == ratings
    assert await rows(world, AWAY) == away  # another server is another server


async def test_forget_renames_the_members_past_seats_a_former_member(world):
    await forget_member(world, HOME, ALICE)
    first, second, hearts = [t for t in await all_tables(world) if t.guild_id == HOME]
    assert [(s.name, s.user_id) for s in first.seats] == [(FORMER_MEMBER, 0), ("bob", BOB)]
    assert first.created_by == 0 and second.created_by == 0
    assert hearts.seats[0].name == f"{FORMER_MEMBER} (computer)" and hearts.seats[0].is_ai
    assert hearts.ui["left"][0]["name"] == FORMER_MEMBER and hearts.ui["left"][0]["user_id"] == 0
    assert hearts.ui["closed_by"] == FORMER_MEMBER
    assert "alice" not in json.dumps(await rows(world, HOME))
    data = await member_data(world, HOME, ALICE)
    assert (data["games"], data["results"], data["ratings"]) == ([], [], [])


async def all_tables(db):
    async with db.backend.session() as s:
        ids = [r[0] for r in await s.fetch("SELECT id FROM game_tables ORDER BY id")]
    return [await db.get_table(i) for i in ids]


async def test_forget_is_refused_while_the_member_plays_and_changes_nothing(world):
    table = await world.create_table(
        guild_id=HOME,
        channel_id=102,
        kind="quarters",
        status=TableStatus.ACTIVE,
        seats=[Seat("carol", CAROL), Seat("alice", ALICE)],
        options={},
        state={"piles": [3]},
        created_by=CAROL,
    )
    before = await rows(world, HOME)
    with pytest.raises(StillPlaying, match="<#102>") as refused:
        await forget_member(world, HOME, ALICE)
    assert refused.value.tables == [(table.id, 102)]
    assert await rows(world, HOME) == before


async def test_erasing_a_server_removes_its_rows_and_no_others(world):
    away = await rows(world, AWAY)
    erased = await erase_guild(world, HOME)
    assert (erased.tables, erased.results, erased.ratings, erased.settings) == (3, 6, 3, 1)
    assert await rows(world, HOME) == {
        "game_tables": [],
        "results": [],
        "ratings": [],
        "guild_settings": [],
    }
    assert await rows(world, AWAY) == away
    assert await guilds_with_data(world) == {AWAY}


async def test_a_departed_server_stops_its_tables_at_once_and_is_purged_after_retention(world):
    db = world
    table = await world.create_table(
        guild_id=HOME,
        channel_id=103,
        kind="checkers",
        status=TableStatus.ACTIVE,
        seats=[Seat("bob", BOB), Seat("Computer", None, "easy")],
        options={},
        state={"ply": 3},
        created_by=BOB,
    )
    away = await rows(world, AWAY)
    left_at = 1_000_000.0
    assert await mark_guild_departed(db, HOME, left_at) == [table.id]
    assert (await world.get_table(table.id)).status is TableStatus.STOPPED
    assert await world.open_table_in_channel(103) is None
    assert await departed_guilds(db) == {HOME: left_at}
    assert await purge_departed(db, 30 * DAY, left_at + 30 * DAY - 1) == {}
    assert len((await rows(world, HOME))["results"]) == 6
    purged = await purge_departed(db, 30 * DAY, left_at + 30 * DAY)
    assert list(purged) == [HOME] and purged[HOME].tables == 4
    assert all(not r for r in (await rows(world, HOME)).values())
    assert await rows(world, AWAY) == away
    assert await departed_guilds(db) == {}


async def test_start_up_marks_servers_the_bot_left_but_not_dms_and_group_dms(world):
    """The games of DMs and group DMs are stored without a server (guild 0): the start-up
    check of the servers the bot is still in must not stop them as a departed server's."""
    private = await world.create_table(
        guild_id=PRIVATE,
        channel_id=300,
        kind="quarters",
        status=TableStatus.ACTIVE,
        seats=[Seat("alice", ALICE), Seat("Computer", None, "perfect")],
        options={},
        state={"piles": [3, 4, 5]},
        created_by=ALICE,
    )
    stopped: list[int] = []
    departures = Departures(world, 30, stop_tables=stopped.extend, clock=lambda: 5.0)
    await departures.reconcile([HOME])
    assert await departed_guilds(world) == {AWAY: 5.0}
    assert stopped == [] and (await world.get_table(private.id)).status is TableStatus.ACTIVE


async def test_a_server_that_invites_the_bot_back_keeps_its_data(world):
    db = world
    await mark_guild_departed(db, HOME, 5.0)
    assert await mark_guild_returned(db, HOME)
    assert not await mark_guild_returned(db, HOME)
    assert await purge_departed(db, 0.0, 10 * DAY) == {}
    assert len((await rows(world, HOME))["results"]) == 6


@settings(max_examples=examples(25), deadline=None)
@given(
    games=st.lists(
        st.tuples(
            st.sampled_from(["checkers", "kabu"]),
            st.permutations([ALICE, BOB, CAROL]),
            st.integers(0, 30),
        ),
        min_size=1,
        max_size=8,
    ),
    gone=st.sampled_from([ALICE, BOB, CAROL]),
)
def test_forgetting_anyone_keeps_everyone_elses_scoreboard_lines(games, gone):
    async def run() -> None:
        db = await Database.open(":memory:")
        try:
            for channel, (kind, (winner, loser, _), change) in enumerate(games):
                await finished_game(
                    db,
                    HOME,
                    channel,
                    kind,
                    [res(winner, "win", change, points=3), res(loser, "loss", -change)],
                )
            before = await boards(db, HOME, ("checkers", "kabu"))
            ratings = {k: await db.ratings(HOME, k, [ALICE, BOB, CAROL]) for k in before}
            await forget_member(db, HOME, gone)
            after = await boards(db, HOME, ("checkers", "kabu"))
            for kind in before:
                assert after[kind] == {u: s for u, s in before[kind].items() if u != gone}
                now = await db.ratings(HOME, kind, [ALICE, BOB, CAROL])
                assert {u: r for u, r in now.items() if u != gone} == {
                    u: r for u, r in ratings[kind].items() if u != gone
                }
                assert now[gone] == 1200.0  # no rating left: the default again
        finally:
            await db.close()

    asyncio.run(run())


async def test_the_operators_command_exports_and_forgets(world, db_path, capsys):
    url = db_path if isinstance(db_path, str) else f"sqlite:///{db_path}"
    argv = ["--database", url, "export", str(HOME), str(ALICE)]
    assert await asyncio.to_thread(privacy_main, argv) == 0
    assert json.loads(capsys.readouterr().out)["ratings"][0]["rating"] == 1208.0
    argv = ["--database", url, "forget", str(HOME), str(ALICE)]
    assert await asyncio.to_thread(privacy_main, argv) == 0
    assert "results=1" in capsys.readouterr().out
    assert ALICE not in {s.user_id for s in await world.standings(HOME, "checkers")}

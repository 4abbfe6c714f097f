"""The playground without a browser: the real bot, the fake Discord, the page's HTTP API.

Each test starts the playground in this event loop on a free port of 127.0.0.1 with a fresh
database, and plays through the same JSON API and websocket the page uses.
"""

from __future__ import annotations

import asyncio
import json
import socket
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from bot.__main__ import main
from playground import Playground
from playground import store as playground_store

BOARD_TIMEOUT = 10.0


@pytest.fixture
async def playground(tmp_path: Path) -> AsyncIterator[Playground]:
    async with Playground(database=tmp_path / "playground.db", port=0, ai_workers=1) as pg:
        await pg.wait_ready(20)
        yield pg
    assert pg.fake.problems() == []


@pytest.fixture
async def http(playground: Playground) -> AsyncIterator[aiohttp.ClientSession]:
    async with aiohttp.ClientSession(playground.url) as session:
        yield session


async def post(http: aiohttp.ClientSession, path: str, **body: Any) -> dict[str, Any]:
    async with http.post(path, json=body) as resp:
        data = await resp.json()
        assert resp.status == (200 if data["ok"] else 400), data
        return data


class Live:
    """The page's websocket: updates of what one member sees."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.ws = ws
        self.latest: dict[str, Any] | None = None

    async def until(self, predicate: Callable[[dict[str, Any]], Any]) -> dict[str, Any]:
        """Read updates until one satisfies ``predicate``; return it."""
        if self.latest is not None and predicate(self.latest):
            return self.latest

        async def read() -> dict[str, Any]:
            while True:
                update = json.loads((await self.ws.receive()).data)
                assert update["type"] == "update", update
                self.latest = update
                if predicate(update):
                    return update

        return await asyncio.wait_for(read(), BOARD_TIMEOUT)


async def live(http: aiohttp.ClientSession, member: str, channel: str = "games") -> Live:
    ws = await http.ws_connect("/api/ws")
    await ws.send_json({"member": member, "channel": channel})
    watcher = Live(ws)
    await watcher.until(lambda u: u["member"] == member)
    return watcher


def board_of(update: dict[str, Any]) -> dict[str, Any] | None:
    """The newest message with an image (the board), once it is not loading."""
    boards = [m for m in update["messages"] if m["attachments"] and not m["loading"]]
    return boards[-1] if boards else None


def buttons(message: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {
        b["label"]: b
        for row in message["components"]
        for b in row["components"]
        if b["type"] == 2 and b.get("label")
    }


async def test_state_lists_channels_members_and_commands(
    playground: Playground, http: aiohttp.ClientSession
) -> None:
    async with http.get("/api/state") as resp:
        state = await resp.json()
    assert state["online"] is True
    assert [c["name"] for c in state["channels"]] == [
        "games",
        "lobby",
        "friends",
        "dm-alice",
        "dm-bob",
        "dm-carol",
        "dm-dave",
    ]
    assert [m["name"] for m in state["members"]] == ["alice", "bob", "carol", "dave"]
    start = next(c for c in state["commands"] if c["path"] == "quarters start")
    options = {o["name"]: o for o in start["options"]}
    assert set(options) == {"opponent", "piles", "level"}
    assert options["opponent"]["type"] == 6
    assert [c["value"] for c in options["level"]["choices"]][-1] == "perfect"
    async with http.get("/") as resp:
        assert resp.status == 200 and "Parlour playground" in await resp.text()
    for name in ("app.js", "style.css"):
        async with http.get(f"/static/{name}") as resp:
            assert resp.status == 200, name


async def test_quarters_start_click_coins_and_the_computer_answers(
    playground: Playground, http: aiohttp.ClientSession
) -> None:
    alice = await live(http, "alice")
    assert alice.latest is not None and alice.latest["messages"] == []

    answer = await post(http, "/api/command", member="alice", command="quarters start")
    assert answer["ok"] and not answer["ephemeral"]
    update = await alice.until(lambda u: board_of(u) and board_of(u)["id"] == answer["message_id"])
    board = board_of(update)
    assert board["command"]["name"] == "quarters start"
    assert board["command"]["user"]["name"] == "alice"
    first_image = board["attachments"][0]
    assert first_image["image"] and first_image["description"]
    async with http.get(first_image["url"]) as resp:
        assert resp.status == 200 and (await resp.read()).startswith(b"\x89PNG")

    for coin in ("1·1", "1·2"):
        custom_id = buttons(board)[coin]["custom_id"]
        await post(http, "/api/click", member="alice", message_id=board["id"], custom_id=custom_id)
        update = await alice.until(lambda u, c=coin: buttons(board_of(u))[c]["style"] == 3)
        board = board_of(update)

    remove = buttons(board)["Remove Coins"]
    assert not remove.get("disabled")
    await post(
        http, "/api/click", member="alice", message_id=board["id"], custom_id=remove["custom_id"]
    )
    update = await alice.until(lambda u: "Computer (perfect) took" in board_of(u)["content"])
    board = board_of(update)
    assert board["edited"]
    assert board["attachments"][0]["url"] != first_image["url"]
    coins = [label for label in buttons(board) if "·" in label]
    assert len(coins) < 12 - 2


async def test_ephemeral_answers_only_for_the_member_who_caused_them(
    playground: Playground, http: aiohttp.ClientSession
) -> None:
    answer = await post(http, "/api/command", member="alice", command="quarters start")
    bob = await live(http, "bob")
    board = board_of(await bob.until(board_of))
    coin = buttons(board)["1·1"]["custom_id"]
    refused = await post(
        http, "/api/click", member="bob", message_id=answer["message_id"], custom_id=coin
    )
    assert refused["ephemeral"]
    update = await bob.until(lambda u: any(m["ephemeral"] for m in u["messages"]))
    private = [m for m in update["messages"] if m["ephemeral"]]
    assert len(private) == 1 and private[0]["id"] == refused["message_id"]
    async with http.get("/api/messages", params={"member": "alice", "channel": "games"}) as resp:
        seen_by_alice = await resp.json()
    assert [m["id"] for m in seen_by_alice["messages"]] == [answer["message_id"]]
    async with http.get("/api/messages", params={"member": "bob", "channel": "lobby"}) as resp:
        assert (await resp.json())["messages"] == []


async def test_refusals_say_what_a_member_would_be_told(
    playground: Playground, http: aiohttp.ClientSession
) -> None:
    missing = await post(http, "/api/command", member="alice", command="rules")
    assert not missing["ok"] and "game" in missing["error"]
    unknown = await post(http, "/api/command", member="alice", command="nope")
    assert not unknown["ok"] and "not one of the bot's commands" in unknown["error"]
    bad_choice = await post(
        http, "/api/command", member="alice", command="quarters start", options={"level": "godlike"}
    )
    assert not bad_choice["ok"] and "choices" in bad_choice["error"]
    stranger = await post(http, "/api/command", member="mallory", command="quarters start")
    assert not stranger["ok"] and "mallory" in stranger["error"]
    lacking = await post(http, "/api/click", member="alice")
    assert not lacking["ok"]
    async with http.get("/api/state", headers={"Host": "evil.example:80"}) as resp:
        assert resp.status == 403
    async with http.post(
        "/api/command",
        data=json.dumps({"member": "alice", "command": "quarters start"}),
        headers={"Origin": "https://evil.example", "Content-Type": "text/plain"},
    ) as resp:
        assert resp.status == 403
    async with http.get("/api/state", headers={"Origin": playground.url}) as resp:
        assert resp.status == 200


async def test_a_member_and_the_server_switch_language(
    playground: Playground, http: aiohttp.ClientSession
) -> None:
    """The page switches bob's Discord language and the server's: bob is then answered in
    his, and the board is drawn in the server's."""
    state = await post(http, "/api/language", member="bob", locale="ja")
    assert next(m for m in state["members"] if m["name"] == "bob")["locale"] == "ja"
    state = await post(http, "/api/language", locale="de")
    assert state["guild"]["locale"] == "de"
    assert {"locale": "pt-BR", "name": "Português do Brasil"} in state["languages"]
    unknown = await post(http, "/api/language", locale="tlh")
    assert not unknown["ok"] and "no language 'tlh'" in unknown["error"]
    answer = await post(http, "/api/command", member="alice", command="quatorze start")
    assert answer["ok"]
    refused = await post(http, "/api/command", member="bob", command="game resign")
    assert refused["ok"] and refused["ephemeral"], refused
    said = playground.fake.messages[int(refused["message_id"])].content
    assert said == "あなたはこのテーブルの席についていません。観戦はできます。"


async def test_settings_are_for_members_with_manage_server(
    playground: Playground, http: aiohttp.ClientSession
) -> None:
    """/settings asks for Manage Server (default_member_permissions): alice owns the server,
    bob is a moderator (Manage Messages only), carol a plain member."""
    async with http.get("/api/state") as resp:
        members = {m["name"]: m for m in (await resp.json())["members"]}
    assert members["alice"]["hidden_commands"] == []
    assert "settings" in members["bob"]["hidden_commands"]
    assert "settings" in members["carol"]["hidden_commands"]
    assert "quarters start" not in members["carol"]["hidden_commands"]
    for who in ("bob", "carol"):
        refused = await post(
            http, "/api/command", member=who, command="settings", options={"claim_minutes": "5"}
        )
        assert not refused["ok"] and "Manage Server" in refused["error"], refused
    assert playground.fake.interactions == {} or all(
        i.payload["data"]["name"] != "settings" for i in playground.fake.interactions.values()
    )  # refused by the "client": the bot never saw it
    done = await post(
        http, "/api/command", member="alice", command="settings", options={"claim_minutes": "5"}
    )
    assert done["ok"] and done["ephemeral"]
    alice = await live(http, "alice")
    update = await alice.until(
        lambda u: any("claim the win after" in m["content"] for m in u["messages"])
    )
    assert any("after 5 minutes without a move" in m["content"] for m in update["messages"])


async def test_option_values_are_checked_as_discords_client_does(
    playground: Playground, http: aiohttp.ClientSession
) -> None:
    async def refusal(command: str, **options: str) -> str:
        answer = await post(http, "/api/command", member="alice", command=command, options=options)
        assert not answer["ok"]
        return answer["error"]

    assert await refusal("settings", claim_minutes="abc") == "claim_minutes: enter a number."
    assert await refusal("settings", end_hours="0") == "end_hours: enter a value from 1 to 720."
    assert "from 1 to 30 characters" in await refusal("quarters start", piles="1" * 31)
    assert "choose a member" in await refusal("quarters start", opponent="mallory")
    assert "pick one of the choices" in await refusal("quarters start", level="godlike")
    assert playground.fake.interactions == {}  # none of them reached the bot


async def test_a_challenge_with_a_member_option(
    playground: Playground, http: aiohttp.ClientSession
) -> None:
    answer = await post(
        http,
        "/api/command",
        member="alice",
        command="quarters start",
        options={"opponent": "bob", "piles": "1,2"},
    )
    bob = await live(http, "bob")
    update = await bob.until(lambda u: u["messages"] and "Accept" in buttons(u["messages"][-1]))
    challenge = update["messages"][-1]
    assert challenge["id"] == answer["message_id"]
    assert "Bob" in challenge["content"]
    assert "Decline" in buttons(challenge)


async def test_channels_and_commands_survive_a_restart(tmp_path: Path) -> None:
    database = tmp_path / "playground.db"
    async with Playground(database=database, port=0, ai_workers=1) as pg:
        await pg.wait_ready(20)
        answer = await pg.run_command("alice", "games", "quarters start", {})
        board_id = answer.message.id
    assert playground_store.store_path(database).exists()

    async with Playground(database=database, port=0, ai_workers=1) as pg:
        await pg.wait_ready(20)
        assert pg.fake.command_syncs == []  # the bot saw its commands were already registered
        board = pg.fake.messages[board_id]
        coin = next(b for b in board.buttons() if b.get("label") == "1·1")
        await pg.click("alice", str(board_id), coin["custom_id"])
        await pg.fake.wait_for(lambda: board.buttons()[0].get("style") == 3, BOARD_TIMEOUT)
        assert pg.view("alice", "games")["messages"][0]["command"]["name"] == "quarters start"
        assert pg.fake.problems() == []


def test_playground_port_taken_is_a_clear_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path}/playground.db")
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert main(["--playground", "--port", str(port)]) == 2
    err = capsys.readouterr().err
    assert f"port {port}" in err and "--port" in err
    assert not (tmp_path / "playground.discord.json").exists()


def test_port_without_playground_is_refused() -> None:
    with pytest.raises(SystemExit) as exc:
        main(["--port", "8081"])
    assert exc.value.code == 2


async def test_a_game_in_the_group_dm_is_answered_through_interactions_only(
    playground: Playground, http: aiohttp.ClientSession
) -> None:
    """The four members' group DM, where the bot is not a member: the board comes as the
    command's answer, says it updates when someone acts, and no channel route is used."""
    bob = await live(http, "bob", channel="friends")
    answer = await post(
        http, "/api/command", member="bob", channel="friends", command="quarters start"
    )
    assert answer["ok"] and not answer["ephemeral"]
    update = await bob.until(lambda u: board_of(u) and board_of(u)["id"] == answer["message_id"])
    assert "updates when someone acts" in board_of(update)["content"]
    friends = playground.channel("friends")
    assert not [p for _, p, _ in playground.fake.requests if f"/channels/{friends.id}" in p]


async def test_a_member_plays_in_their_dm_with_the_bot_and_only_there(
    playground: Playground, http: aiohttp.ClientSession
) -> None:
    """Each member's DM with the bot: the bot is a member there (channel routes, no note that
    the board waits for a click); another member can neither see it nor play in it."""
    alice = await live(http, "alice", channel="dm-alice")
    answer = await post(
        http, "/api/command", member="alice", channel="dm-alice", command="quarters start"
    )
    assert answer["ok"] and not answer["ephemeral"]
    update = await alice.until(lambda u: board_of(u) and board_of(u)["id"] == answer["message_id"])
    assert "updates when someone acts" not in board_of(update)["content"]
    refused = await post(
        http, "/api/command", member="bob", channel="dm-alice", command="quarters start"
    )
    assert refused["error"] == "bob is not in dm-alice."
    async with http.get("/api/messages", params={"member": "bob", "channel": "dm-alice"}) as resp:
        assert resp.status == 400


async def test_a_game_thread_is_a_channel_of_the_playground(
    playground: Playground, http: aiohttp.ClientSession
) -> None:
    """With threads on, the game's thread can be opened and played in like a channel."""
    on = await post(
        http, "/api/command", member="alice", command="settings", options={"threads": True}
    )
    assert on["ok"], on
    started = await post(http, "/api/command", member="alice", command="quarters start")
    assert started["ok"] and not started["ephemeral"]
    thread = await playground.fake.wait_for(lambda: playground.guild.threads, 10, "the thread")
    alice = await live(http, "alice", channel=str(thread[0].id))
    update = await alice.until(board_of)
    assert board_of(update)["content"]
    async with http.get("/api/state") as resp:
        state = await resp.json()
    assert "Quarters · Alice" in [c["name"] for c in state["channels"]]

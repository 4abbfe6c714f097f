"""The fake Discord's fault handling: resume, restarts via the launcher, late answers, misuse."""

from __future__ import annotations

import aiohttp
import pytest
from fake_discord_tinybot import TinyBot

from fakediscord import Driver, DriverError, FakeDiscord
from fakediscord.gateway import CLOSE_CODES


async def test_resume_after_dropped_connection_replays_missed_events(
    fake: FakeDiscord, driver: Driver, in_process
) -> None:
    await in_process(TinyBot())
    assert (await driver.slash("alice", "ping")).content == "pong"
    await driver.drop_connection()
    # An interaction dispatched while the socket is down reaches the bot when it resumes.
    interaction = fake.new_interaction(
        itype=2,
        user=driver.user("bob"),
        channel=driver.channel("games"),
        data=driver._command_data("ping", driver.channel("games"), {}),
    )
    await fake.send_interaction(interaction)
    await fake.wait_client_event("resumed")
    await driver.wait_for(lambda: interaction.responded)
    assert fake.gateway.identify_count == 1
    assert fake.gateway.resume_count == 1
    assert (await driver.slash("carol", "ping")).content == "pong"


async def test_reconnect_request_is_resumed(fake: FakeDiscord, driver: Driver, in_process) -> None:
    await in_process(TinyBot())
    await fake.gateway.send_reconnect()
    await fake.wait_client_event("resumed")
    assert fake.gateway.identify_count == 1
    assert (await driver.slash("carol", "ping")).content == "pong"


async def test_late_first_response_is_recorded(
    fake: FakeDiscord, driver: Driver, in_process
) -> None:
    fake.response_deadline = 0.3
    await in_process(TinyBot())
    with pytest.raises(DriverError, match="late"):
        await driver.slash("alice", "slow")
    assert [p.kind for p in fake.problems()] == ["late-response"]
    fake.expect_problem("late-response")


async def test_limit_violation_by_the_bot_is_recorded_and_refused(
    fake: FakeDiscord, driver: Driver, in_process
) -> None:
    await in_process(TinyBot())
    with pytest.raises(DriverError, match="did not answer"):
        await driver.slash("alice", "bad", timeout=1.0)
    assert any("content is 2001 characters" in str(p) for p in fake.problems())
    assert driver.channel_messages() == []
    fake.expect_problem("content is 2001")


async def test_unknown_route_fails_loudly(fake: FakeDiscord) -> None:
    headers = {"Authorization": "Bot fake"}
    async with (
        aiohttp.ClientSession() as session,
        session.get(fake.api_url + "/guilds/1/bans", headers=headers) as resp,
    ):
        assert resp.status == 404
        assert "no such route" in (await resp.json())["message"]
    assert [p.kind for p in fake.problems()] == ["unknown-route"]
    fake.expect_problem("unknown-route")


async def test_wrong_token_is_refused(fake: FakeDiscord) -> None:
    async with (
        aiohttp.ClientSession() as session,
        session.get(fake.api_url + "/users/@me", headers={"Authorization": "Bot nope"}) as resp,
    ):
        assert resp.status == 401


async def test_driver_refuses_what_a_member_cannot_do(driver: Driver, in_process) -> None:
    await in_process(TinyBot())
    with pytest.raises(DriverError, match="not a registered command"):
        await driver.slash("alice", "nosuch")
    with pytest.raises(DriverError, match="required option 'opponent'"):
        await driver.slash("alice", "game challenge")
    with pytest.raises(DriverError, match="no options"):
        await driver.slash("alice", "ping", loud=True)
    secret = (await driver.slash("alice", "secret")).message
    with pytest.raises(DriverError, match="someone else's ephemeral"):
        await driver.click("bob", secret, label="x")
    board = (await driver.slash("alice", "board")).message
    with pytest.raises(DriverError, match="no button labelled 'Nope'"):
        await driver.click("bob", board, label="Nope")
    with pytest.raises(DriverError, match="not an option"):
        await driver.select("bob", board, ["green"])
    board.components[0]["components"][0]["disabled"] = True
    with pytest.raises(DriverError, match="disabled"):
        await driver.click("bob", board, label="Count 0")


async def test_bot_process_via_launcher_survives_restart(
    fake: FakeDiscord, driver: Driver, start_bot
) -> None:
    guild = fake.world.guild("Parlour Test")
    bot = await start_bot("fake_discord_tinybot", env={"DISCORD_GUILD_ID": str(guild.id)})
    assert fake.sync_count(guild.id) == 1 and fake.sync_count() == 0
    r = await driver.slash("alice", "board")
    board = r.message
    assert await driver.attachment_bytes(board) == board.attachments[0].data

    await bot.kill()
    await bot.start()
    assert fake.gateway.identify_count == 2
    # The DynamicItem button on the old message still works in the new process.
    click = await driver.click("bob", board, label="Count 0")
    assert click.message.content == "count is 1"
    assert fake.client_events.count("ready") == 2
    assert bot.errors() == []


# -- the fault API: REST failures per route --------------------------------------------------

POST_MESSAGE = "POST /channels/{channel}/messages"
EDIT_MESSAGE = "PATCH /channels/{channel}/messages/{mid}"


async def _call(
    fake: FakeDiscord, method: str, path: str, body: dict | None = None
) -> tuple[int, object]:
    """One REST call as the bot would make it: (status, JSON body), or (0, the exception)
    when the connection closed without an answer."""
    headers = {"Authorization": f"Bot {fake.world.token}"}
    async with aiohttp.ClientSession(headers=headers) as session:
        try:
            async with session.request(method, fake.api_url + path, json=body) as resp:
                return resp.status, await resp.json()
        except aiohttp.ServerDisconnectedError as exc:
            return 0, exc


async def test_a_server_error_before_processing_changes_nothing(fake: FakeDiscord) -> None:
    games = fake.world.channel("games")
    fake.faults.rest(POST_MESSAGE, status=503)
    status, body = await _call(fake, "POST", f"/channels/{games.id}/messages", {"content": "hi"})
    assert status == 503 and body == {"message": "503: Service Unavailable", "code": 0}
    assert fake.channel_messages(games) == []
    # The fault was armed for one request: the next goes through.
    status, _ = await _call(fake, "POST", f"/channels/{games.id}/messages", {"content": "hi"})
    assert status == 200 and len(fake.channel_messages(games)) == 1
    assert [(i.kind, i.detail) for i in fake.faults.applied()] == [("rest", "answered 503")]
    assert fake.problems() == []


async def test_a_server_error_after_processing_has_done_the_work(fake: FakeDiscord) -> None:
    games = fake.world.channel("games")
    fake.faults.rest(POST_MESSAGE, status=500, after_processing=True)
    status, _ = await _call(fake, "POST", f"/channels/{games.id}/messages", {"content": "hi"})
    assert status == 500
    [posted] = fake.channel_messages(games)
    assert posted.content == "hi"  # a blind retry would post it twice
    fake.faults.rest(EDIT_MESSAGE, disconnect=True, after_processing=True)
    path = f"/channels/{games.id}/messages/{posted.id}"
    status, error = await _call(fake, "PATCH", path, {"content": "edited"})
    assert status == 0 and isinstance(error, aiohttp.ServerDisconnectedError)
    assert posted.content == "edited"
    assert ("PATCH", path, 0) in fake.requests  # recorded as answered with nothing


async def test_skip_times_and_delay_pick_the_requests_hit(fake: FakeDiscord) -> None:
    games = fake.world.channel("games")
    path = f"/channels/{games.id}/messages"
    fault = fake.faults.rest(POST_MESSAGE, status=502, skip=1, times=2)
    statuses = [(await _call(fake, "POST", path, {"content": f"{i}"}))[0] for i in range(4)]
    assert statuses == [200, 502, 502, 200]
    assert fault.spent and fake.faults.armed == []
    assert [m.content for m in fake.channel_messages(games)] == ["0", "3"]

    fake.faults.rest(POST_MESSAGE, delay=0.3)  # a slow answer, then the request goes through
    before = fake.faults.clock()
    status, _ = await _call(fake, "POST", path, {"content": "slow"})
    assert status == 200 and fake.faults.clock() - before >= 0.3
    assert fake.faults.applied()[-1].detail == "held 0.3s"


async def test_a_fault_must_name_a_route_of_the_fake_and_a_failure(fake: FakeDiscord) -> None:
    with pytest.raises(ValueError, match="no route"):
        fake.faults.rest("POST /channels/{channel}/pins")
    with pytest.raises(ValueError, match="5xx"):
        fake.faults.rest(POST_MESSAGE, status=404)
    with pytest.raises(ValueError, match="needs a status"):
        fake.faults.rest(POST_MESSAGE, after_processing=True)
    with pytest.raises(ValueError, match="needs a status, disconnect or a delay"):
        fake.faults.rest(POST_MESSAGE)


async def test_enforce_nonce_returns_the_first_message_and_creates_none(fake: FakeDiscord) -> None:
    games = fake.world.channel("games")
    path = f"/channels/{games.id}/messages"
    board = {"content": "board", "nonce": "t7v3p0", "enforce_nonce": True}
    (_, first), (_, again) = [await _call(fake, "POST", path, board) for _ in range(2)]
    assert isinstance(first, dict) and isinstance(again, dict)
    assert again["id"] == first["id"] and first["nonce"] == "t7v3p0"
    # Without enforce_nonce the nonce is only echoed: Discord creates a second message.
    await _call(fake, "POST", path, {"content": "board", "nonce": "t7v3p0"})
    assert len(fake.channel_messages(games)) == 2
    status, _ = await _call(fake, "POST", path, {"content": "x", "nonce": "n" * 26})
    assert status == 400
    assert [p.detail for p in fake.problems()] == [
        "POST #games message: nonce is 26 characters (max 25)"
    ]
    fake.expect_problem("nonce is 26")


async def test_a_callback_repeated_after_its_answer_was_lost_is_no_misuse(
    fake: FakeDiscord, driver: Driver
) -> None:
    interaction = fake.new_interaction(
        itype=2,
        user=driver.user("alice"),
        channel=driver.channel("games"),
        data={"id": "1", "name": "ping", "type": 1},
    )
    interaction.sent_at = fake.faults.clock()  # as if dispatched just now
    path = f"/interactions/{interaction.id}/{interaction.token}/callback"
    answer = {"type": 4, "data": {"content": "pong"}}
    fake.faults.rest("POST /interactions/{iid}/{token}/callback", status=500, after_processing=True)
    statuses = [(await _call(fake, "POST", path, answer))[0] for _ in range(2)]
    # The first took effect; asking again is how a client learns so: Discord answers
    # "already acknowledged" (40060), and that is no misuse of the interaction.
    assert statuses == [500, 400] and interaction.response_type == 4
    assert fake.problems() == []
    # A third callback is: the client knew by then.
    assert (await _call(fake, "POST", path, answer))[0] == 400
    assert [p.kind for p in fake.problems()] == ["protocol"]
    fake.expect_problem("already acknowledged")


# -- the fault API: the gateway ---------------------------------------------------------------


async def _identify(ws: aiohttp.ClientWebSocketResponse, token: str) -> tuple[str, int]:
    """HELLO, IDENTIFY, READY and the GUILD_CREATEs: (session id, last sequence)."""
    assert (await ws.receive_json())["op"] == 10
    await ws.send_json({"op": 2, "d": {"token": token, "intents": 1, "properties": {}}})
    ready = await ws.receive_json()
    assert ready["t"] == "READY"
    seq = ready["s"]
    for _ in ready["d"]["guilds"]:
        seq = (await ws.receive_json())["s"]
    return ready["d"]["session_id"], seq


@pytest.mark.parametrize("code", sorted(CLOSE_CODES))
async def test_each_close_code_keeps_or_ends_the_session_as_discord_documents(
    fake: FakeDiscord, code: int
) -> None:
    token = fake.world.token
    async with aiohttp.ClientSession() as session:
        async with session.ws_connect(fake.ws_url) as ws:
            session_id, seq = await _identify(ws, token)
            await fake.faults.close(code)
            await ws.receive()
            assert ws.close_code == code
        async with session.ws_connect(fake.ws_url) as ws:
            assert (await ws.receive_json())["op"] == 10
            resume = {"token": token, "session_id": session_id, "seq": seq}
            await ws.send_json({"op": 6, "d": resume})
            answer = await ws.receive_json()
    _, resumable = CLOSE_CODES[code]
    if resumable:  # Discord's table: Resume true
        assert answer["t"] == "RESUMED" and fake.gateway.resume_count == 1
    else:
        assert answer == {"op": 9, "d": False} and fake.gateway.resume_refused == 1
    assert [i.what for i in fake.faults.applied("gateway")] == [f"close {code}"]


async def test_a_client_saying_goodbye_with_1000_ends_its_session(fake: FakeDiscord) -> None:
    """Discord: "When you close the connection with close code 1000 or 1001, your session
    will be invalidated"; any other code keeps it for a RESUME."""
    token = fake.world.token
    async with aiohttp.ClientSession() as session:
        ended = []
        for code in (4000, 1000):
            async with session.ws_connect(fake.ws_url) as ws:
                session_id, seq = await _identify(ws, token)
                await ws.close(code=code)
            await fake.wait_for(lambda: not fake.gateway.connections)
            async with session.ws_connect(fake.ws_url) as ws:
                assert (await ws.receive_json())["op"] == 10
                resume = {"token": token, "session_id": session_id, "seq": seq}
                await ws.send_json({"op": 6, "d": resume})
                ended.append((await ws.receive_json()).get("op") == 9)
    assert ended == [False, True]


async def test_discord_py_resumes_or_identifies_as_the_fake_tells_it(
    fake: FakeDiscord, driver: Driver, in_process
) -> None:
    """discord.py against each kind of fault: a resumable close or op 9 true are resumed; a
    session-ending close is resumed, refused (op 9 false), then identified anew; op 9 false is
    identified anew at once. An interaction while no session exists is lost, as on Discord
    (the member sees "This interaction failed")."""
    await in_process(TinyBot())
    gateway = fake.gateway

    async def back(identifies: int, resumes: int) -> None:
        await driver.wait_for(
            lambda: (
                gateway.connected
                and (gateway.identify_count, gateway.resume_count) == (identifies, resumes)
            ),
            what=f"{identifies} identifies and {resumes} resumes",
        )
        assert (await driver.slash("carol", "ping")).content == "pong"

    await fake.faults.close(4000)
    await back(1, 1)
    await fake.faults.invalid_session(True)
    await back(1, 2)
    lost = fake.new_interaction(
        itype=2,
        user=driver.user("bob"),
        channel=driver.channel("games"),
        data=driver._command_data("ping", driver.channel("games"), {}),
    )
    await fake.faults.close(4009)
    await fake.send_interaction(lost)  # no session now: Discord cannot deliver it
    await back(2, 2)
    assert gateway.resume_refused == 1
    assert [m["t"] for m in gateway.lost] == ["INTERACTION_CREATE"]
    assert fake.unanswered() == [lost]
    await fake.faults.invalid_session(False)
    await back(3, 2)
    assert gateway.resume_refused == 1  # discord.py did as op 9 said: no RESUME tried

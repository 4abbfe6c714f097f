"""The fake Discord's fault handling: resume, restarts via the launcher, late answers, misuse."""

from __future__ import annotations

import aiohttp
import pytest
from fake_discord_tinybot import TinyBot

from fakediscord import Driver, DriverError, FakeDiscord


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


@pytest.mark.parametrize(
    ("code", "resumed"),
    [(4000, True), (4008, True), (4009, False), (4007, False), (1000, False), (1001, False)],
)
async def test_each_close_code_is_resumed_or_identified_as_discord_documents(
    fake: FakeDiscord, driver: Driver, in_process, code: int, resumed: bool
) -> None:
    await in_process(TinyBot())
    gateway = fake.gateway
    await fake.faults.close(code)
    await driver.wait_for(
        lambda: gateway.connected and gateway.identify_count + gateway.resume_count == 2
    )
    if resumed:
        assert (gateway.identify_count, gateway.resume_count, gateway.resume_refused) == (1, 1, 0)
    else:  # discord.py tries to resume; the session is gone, so it identifies again
        assert (gateway.identify_count, gateway.resume_count, gateway.resume_refused) == (2, 0, 1)
    assert (await driver.slash("carol", "ping")).content == "pong"


@pytest.mark.parametrize("resumable", [True, False])
async def test_an_invalid_session_is_resumed_only_when_discord_says_so(
    fake: FakeDiscord, driver: Driver, in_process, resumable: bool
) -> None:
    await in_process(TinyBot())
    await fake.faults.invalid_session(resumable)
    gateway = fake.gateway
    await driver.wait_for(
        lambda: gateway.connected and gateway.identify_count + gateway.resume_count == 2
    )
    assert (gateway.identify_count, gateway.resume_count) == ((1, 1) if resumable else (2, 0))
    assert gateway.resume_refused == 0  # discord.py did as op 9 said
    assert (await driver.slash("carol", "ping")).content == "pong"


async def test_a_dispatch_to_an_ended_session_is_lost(
    fake: FakeDiscord, driver: Driver, in_process
) -> None:
    """While a session is over and the next not yet identified, Discord has no one to tell:
    the interaction never reaches the bot (the member sees "This interaction failed")."""
    await in_process(TinyBot())
    interaction = fake.new_interaction(
        itype=2,
        user=driver.user("bob"),
        channel=driver.channel("games"),
        data=driver._command_data("ping", driver.channel("games"), {}),
    )
    await fake.gateway.close_connections(4009, resumable=False)
    await fake.send_interaction(interaction)
    await driver.wait_for(lambda: fake.gateway.connected)
    assert [m["t"] for m in fake.gateway.lost] == ["INTERACTION_CREATE"]
    assert fake.unanswered() == [interaction]
    assert (await driver.slash("carol", "ping")).content == "pong"

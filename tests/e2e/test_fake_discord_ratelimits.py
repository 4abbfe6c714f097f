"""The fake Discord's rate limits: off by default; when on, buckets, headers, 429s, global."""

from __future__ import annotations

import aiohttp

from fakediscord import FakeDiscord
from fakediscord.ratelimits import RateLimits


async def _requests(
    fake: FakeDiscord, calls: list[tuple[str, str, dict | None]]
) -> list[tuple[int, dict, dict]]:
    headers = {"Authorization": f"Bot {fake.world.token}"}
    answers = []
    async with aiohttp.ClientSession(headers=headers) as session:
        for method, path, body in calls:
            async with session.request(method, fake.api_url + path, json=body) as resp:
                answers.append((resp.status, dict(resp.headers), await resp.json()))
    return answers


async def _post(fake: FakeDiscord, channel: str) -> str:
    [(status, _, message)] = await _requests(
        fake, [("POST", f"/channels/{channel}/messages", {"content": "board"})]
    )
    assert status == 200
    return message["id"]


async def test_off_by_default(fake: FakeDiscord) -> None:
    games = str(fake.world.channel("games").id)
    mid = await _post(fake, games)
    edits = [("PATCH", f"/channels/{games}/messages/{mid}", {"content": f"{i}"}) for i in range(8)]
    answers = await _requests(fake, edits)
    assert [s for s, _, _ in answers] == [200] * 8
    assert all("X-RateLimit-Remaining" not in h for _, h, _ in answers)


async def test_message_edits_per_channel_get_headers_then_a_429(fake: FakeDiscord) -> None:
    limits = fake.enable_rate_limits()
    games, lobby = (str(fake.world.channel(n).id) for n in ("games", "lobby"))
    mid, other = await _post(fake, games), await _post(fake, lobby)
    edit = ("PATCH", f"/channels/{games}/messages/{mid}", {"content": "x"})
    answers = await _requests(
        fake, [edit] * 6 + [("PATCH", f"/channels/{lobby}/messages/{other}", {})]
    )
    statuses = [s for s, _, _ in answers]
    assert statuses == [200] * 5 + [429, 200]  # the other channel has its own bucket
    remaining = [h["X-RateLimit-Remaining"] for _, h, _ in answers[:5]]
    assert remaining == ["4", "3", "2", "1", "0"]
    first = answers[0][1]
    assert first["X-RateLimit-Limit"] == "5" and float(first["X-RateLimit-Reset-After"]) <= 5
    assert first["X-RateLimit-Bucket"] == answers[6][1]["X-RateLimit-Bucket"]  # shared hash
    _, headers, body = answers[5]
    assert int(headers["Retry-After"]) >= 1 and headers["X-RateLimit-Scope"] == "user"
    assert 0 < body["retry_after"] <= 5 and body["global"] is False
    assert [h.path for h in limits.hits] == [edit[1]]
    assert fake.problems() == []  # a 429 is Discord's answer, not a problem of the bot's


async def test_the_global_limit_and_the_interaction_webhook_bucket(fake: FakeDiscord) -> None:
    fake.enable_rate_limits(RateLimits(global_per_second=3))
    answers = await _requests(fake, [("GET", "/users/@me", None)] * 4)
    assert [s for s, _, _ in answers] == [200, 200, 200, 429]
    _, headers, body = answers[3]
    assert body["global"] is True and headers["X-RateLimit-Global"] == "true"

    limits = fake.enable_rate_limits(RateLimits(global_per_second=None))
    app = fake.world.application_id
    token = "tok-made-up-for-the-bucket-test"
    calls = [("PATCH", f"/webhooks/{app}/{token}/messages/@original", {})] * 6
    answers = await _requests(fake, calls)
    # Unknown interaction (404) still counts against the token's bucket, as on Discord.
    assert [s for s, _, _ in answers] == [404] * 5 + [429]
    assert len(limits.hits) == 1

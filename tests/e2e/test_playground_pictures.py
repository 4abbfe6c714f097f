"""Replays and charts in the playground, in a real browser (headless Chromium, as in
``test_playground_browser``): a finished checkers game's **Replay** shows an animated GIF that
plays in the page, ``/stats`` a chart of rated games, ``/scoreboard chart:`` the top ten.

Screenshots go to ``artifacts/`` (``playground-replay.png``, ``playground-chart.png``); with
``PARLOUR_DOCS_SCREENSHOT=1`` also to ``docs/`` (the README shows them).
"""

from __future__ import annotations

import os
import re
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from test_playground_browser import ARTIFACTS, MISSING, ROOT, running_playground

pytestmark = pytest.mark.skipif(
    MISSING is not None and not os.environ.get("CI"), reason=f"browser test: {MISSING}"
)
BLACK_TAKES_THE_LAST = "B:W6:B2"  # Black's 2x9 takes Red's only piece
SHOTS = {"replay": "playground-replay.png", "chart": "playground-chart.png"}


async def test_a_replay_and_the_charts_in_the_browser(tmp_path: Path) -> None:
    if MISSING is not None:
        pytest.fail(f"CI must run the browser test, but {MISSING}")
    from playwright.async_api import expect

    docs = bool(os.environ.get("PARLOUR_DOCS_SCREENSHOT"))
    async with running_playground(tmp_path) as (url, browser):
        errors: list[str] = []
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        context = await browser.new_context(viewport={"width": 1280, "height": 860}, locale="en-US")
        page = await context.new_page()
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        expect.set_options(timeout=15_000)
        await page.goto(url + "/?member=alice&channel=games")
        await expect(page.locator("body")).to_have_attribute("data-ready", "true")

        async def shoot(name: str) -> None:
            await page.screenshot(path=str(ARTIFACTS / SHOTS[name]))
            if docs:
                await page.screenshot(path=str(ROOT / "docs" / SHOTS[name]))

        await pictures(page, expect, shoot)
        await context.close()
        assert errors == []


async def command(page, expect, text: str, **options: str) -> None:
    """Type a slash command, fill its options, press Enter."""
    box = page.locator("#command-input")
    await box.click()
    await box.press_sequentially(text)
    await expect(page.locator("#popup")).to_be_hidden()
    for name, value in options.items():
        await page.locator(f".pill input[data-option={name}]").fill(value)
    await box.press("Enter")


async def as_member(page, name: str) -> None:
    await page.select_option("#member", name)


async def pictures(page, expect, shoot: Callable[[str], Awaitable[None]]) -> None:
    """Play the games, open a replay and the charts, and ``shoot`` each."""
    results = page.locator(".msg:not(.ephemeral)", has_text="🏁 Checkers")

    # A short game against the computer, then its Replay.
    await command(
        page, expect, "/checkers start", color="black", level="beginner",
        position=BLACK_TAKES_THE_LAST,
    )  # fmt: skip
    await expect(page.locator(".msg", has_text="to move (Black)").last).to_be_visible()
    await command(page, expect, "/checkers move", move="2x9")
    await expect(results).to_have_count(1)
    finished = page.locator(".msg:not(.ephemeral)", has=page.get_by_role("button", name="Replay"))
    await finished.last.get_by_role("button", name="Replay").click()
    replay = page.locator(".msg.ephemeral", has_text="replay of game").last
    gif = replay.locator("img.attachment-image")
    await expect(gif).to_have_attribute("src", re.compile(r"\.gif"))
    await page.wait_for_function(
        "img => img.complete && img.naturalWidth > 0", arg=await gif.element_handle()
    )
    assert (await gif.get_attribute("alt") or "").startswith("Replay of a checkers game")

    await page.locator("#scroller").evaluate("s => { s.scrollTop = s.scrollHeight; }")
    await shoot("replay")

    # Three rated games between alice and bob (won, won, lost), for a rating line.
    for number, (colour, winner) in enumerate(
        (("black", "alice"), ("black", "alice"), ("red", "bob")), start=2
    ):
        await as_member(page, "alice")
        await command(
            page, expect, "/checkers start", opponent="bob", color=colour,
            position=BLACK_TAKES_THE_LAST,
        )  # fmt: skip
        challenge = page.locator(".msg", has=page.get_by_role("button", name="Accept")).last
        await as_member(page, "bob")
        await challenge.get_by_role("button", name="Accept").click()
        await expect(page.locator(".msg", has_text="to move (Black)").last).to_be_visible()
        await as_member(page, winner)
        await command(page, expect, "/checkers move", move="2x9")
        await expect(results).to_have_count(number)

    await as_member(page, "alice")
    await command(page, expect, "/stats")
    stats = page.locator(".msg", has=page.locator("img[alt*='Checkers rating']")).last
    await expect(stats).to_be_visible()
    alt = await stats.locator("img[alt*='Checkers rating']").get_attribute("alt") or ""
    assert "Games played and won" in alt and "3 rated games" in alt, alt
    await command(page, expect, "/scoreboard", game="Checkers", chart="True")
    bars = page.locator(".msg", has=page.locator("img[alt*='top 2 by rating']")).last
    await expect(bars).to_be_visible()

    await stats.evaluate("m => m.scrollIntoView({block: 'start'})")
    await shoot("chart")

"""The playground in a real browser: ``python -m bot --playground`` driven by headless Chromium.

Uses Debian's ``chromium`` (/usr/bin/chromium) through Playwright for Python, with no browser
download. Skipped, with the reason, when either is missing on a developer's machine; under CI
(``CI`` set) a missing browser fails the test instead, since ``.ci/run`` installs both.

The screenshot goes to ``artifacts/playground.png``; with ``PARLOUR_DOCS_SCREENSHOT=1`` also to
``docs/playground.png`` (the one the README shows).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import signal
import socket
import sys
from pathlib import Path

import aiohttp
import pytest

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ARTIFACT = ROOT / "artifacts" / "playground.png"
DOCS_SHOT = ROOT / "docs" / "playground.png"


def _missing() -> str | None:
    if not CHROMIUM.exists():
        return f"{CHROMIUM} is missing (Debian: apt-get install chromium)"
    try:
        import playwright.async_api  # noqa: F401
    except ImportError:
        return "Playwright for Python is missing (pip install -e '.[browser]')"
    return None


MISSING = _missing()
pytestmark = pytest.mark.skipif(
    MISSING is not None and not os.environ.get("CI"), reason=f"browser test: {MISSING}"
)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


async def _wait_serving(url: str, proc: asyncio.subprocess.Process, log: Path) -> None:
    async with aiohttp.ClientSession() as session:
        for _ in range(200):
            if proc.returncode is not None:
                pytest.fail(f"the playground exited with {proc.returncode}:\n{log.read_text()}")
            with contextlib.suppress(aiohttp.ClientError):
                async with session.get(url + "/api/state") as resp:
                    if resp.status == 200 and (await resp.json())["commands"]:
                        return
            await asyncio.sleep(0.1)
    pytest.fail(f"the playground did not come up:\n{log.read_text()}")


async def test_quarters_in_the_browser(tmp_path: Path) -> None:
    if MISSING is not None:
        pytest.fail(f"CI must run the browser test, but {MISSING}")
    from playwright.async_api import async_playwright, expect

    port = _free_port()
    url = f"http://127.0.0.1:{port}"
    log = tmp_path / "playground.log"
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{tmp_path}/playground.db",
        "PARLOUR_AI_WORKERS": "1",
        "PYTHONUNBUFFERED": "1",
    }
    with log.open("wb") as out:
        proc = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "bot",
            "--playground",
            "--port",
            str(port),
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=asyncio.subprocess.STDOUT,
        )
    try:
        await _wait_serving(url, proc, log)
        async with async_playwright() as pw:
            context = await pw.chromium.launch_persistent_context(
                str(tmp_path / "chromium-profile"),
                executable_path=str(CHROMIUM),
                headless=True,
                args=CHROMIUM_ARGS,
                viewport={"width": 1280, "height": 860},
            )
            try:
                page = context.pages[0] if context.pages else await context.new_page()
                errors: list[str] = []
                page.on("pageerror", lambda exc: errors.append(str(exc)))
                await play(page, url, expect)
                ARTIFACT.parent.mkdir(parents=True, exist_ok=True)
                await page.screenshot(path=str(ARTIFACT))
                if os.environ.get("PARLOUR_DOCS_SCREENSHOT"):
                    DOCS_SHOT.parent.mkdir(parents=True, exist_ok=True)
                    await page.screenshot(path=str(DOCS_SHOT))
                assert errors == []
            finally:
                await context.close()
    finally:
        if proc.returncode is None:
            proc.send_signal(signal.SIGTERM)
            try:
                await asyncio.wait_for(proc.wait(), 15)
            except TimeoutError:
                proc.kill()
                await proc.wait()
    output = log.read_text()
    assert proc.returncode == 0, output
    assert "Traceback" not in output and " ERROR " not in output, output


async def play(page, url: str, expect) -> None:
    """Type /quarters start, take two coins of pile 1, watch the computer answer, then get a
    refusal only alice sees."""
    expect.set_options(timeout=10_000)
    await page.goto(url + "/?member=alice&channel=games")
    await expect(page.locator("body")).to_have_attribute("data-ready", "true")

    command = page.locator("#command-input")
    await command.click()
    await command.press_sequentially("/quarters start")
    await expect(page.locator("#popup")).to_be_hidden()  # the command matched: options shown
    await expect(page.locator(".pill input[data-option=piles]")).to_be_visible()
    await command.press("Enter")

    board = page.locator(".msg", has=page.locator("img.attachment-image")).last
    image = board.locator("img.attachment-image")
    await expect(image).to_be_visible()
    await expect(board.locator(".reply-line")).to_contain_text("alice used /quarters start")
    first_src = await image.get_attribute("src")

    for coin in ("1·1", "1·2"):
        button = board.get_by_role("button", name=coin, exact=True)
        await button.click()
        await expect(button).to_have_class(re.compile(r"\bbtn-3\b"))  # selected: green
    await board.get_by_role("button", name="Remove Coins", exact=True).click()
    await expect(board.locator(".content")).to_contain_text("Computer (perfect) took")
    await expect(image).not_to_have_attribute("src", first_src or "")
    loaded = await image.evaluate("img => img.complete && img.naturalWidth > 0")
    assert loaded, "the new board image did not load"

    # Select two coins of a pile with two or more left, then try another pile: refused, and
    # the refusal is for alice's eyes only.
    labels = await board.locator("button[data-custom-id*=':c='] .label").all_inner_texts()
    coins = [label.strip() for label in labels]
    pile = next(p for p in "123" if f"{p}·2" in coins)
    other = next(c for c in coins if not c.startswith(pile))
    for coin in (f"{pile}·1", f"{pile}·2"):
        button = board.get_by_role("button", name=coin, exact=True)
        await button.click()
        await expect(button).to_have_class(re.compile(r"\bbtn-3\b"))
    await board.get_by_role("button", name=other, exact=True).click()
    refusal = page.locator(".msg.ephemeral").last
    await expect(refusal).to_contain_text("one pile")
    await expect(refusal.locator(".ephemeral-note")).to_contain_text("Only you can see this")
    await page.select_option("#member", "bob")
    await expect(page.locator(".msg.ephemeral")).to_have_count(0)
    await page.select_option("#member", "alice")
    await expect(page.locator(".msg.ephemeral")).to_have_count(1)
    await page.locator("#scroller").evaluate("s => { s.scrollTop = s.scrollHeight; }")

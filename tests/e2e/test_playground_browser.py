"""The playground in a real browser: ``python -m bot --playground`` driven by headless Chromium.

Uses Debian's ``chromium`` (/usr/bin/chromium) through Playwright for Python, with no browser
download. Skipped, with the reason, when either is missing on a developer's machine; under CI
(``CI`` set) a missing browser fails the test instead, since ``.ci/run`` installs both.

One playground and one browser serve two windows: a desktop one (1280x860, #games) and a phone
(390x844, #lobby), where a whole Quarters game and a Hearts trick are played by touch with no
horizontal scrolling. Screenshots go to ``artifacts/`` (``playground.png``,
``playground-phone-*.png``); with ``PARLOUR_DOCS_SCREENSHOT=1`` also to ``docs/playground.png``
and ``docs/playground-phone.png`` (the ones the README shows).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import signal
import socket
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

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
ARTIFACTS = ROOT / "artifacts"
ARTIFACT = ARTIFACTS / "playground.png"
DOCS_SHOT = ROOT / "docs" / "playground.png"
DOCS_PHONE_SHOT = ROOT / "docs" / "playground-phone.png"
PHONE = {"width": 390, "height": 844}


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


@contextlib.asynccontextmanager
async def running_playground(tmp_path: Path) -> AsyncIterator[tuple[str, Any]]:
    """The playground (``python -m bot --playground``) on a free port with its own database,
    and a headless Chromium: yields the page's address and the browser. Afterwards both stop,
    and the playground must have exited cleanly with no error in its log."""
    from playwright.async_api import async_playwright

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
            browser = await pw.chromium.launch(
                executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS
            )
            try:
                yield url, browser
            finally:
                await browser.close()
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


async def test_quarters_and_hearts_in_the_browser_on_a_desktop_and_a_phone(
    tmp_path: Path,
) -> None:
    if MISSING is not None:
        pytest.fail(f"CI must run the browser test, but {MISSING}")
    from playwright.async_api import expect

    async with running_playground(tmp_path) as (url, browser):
        errors: list[str] = []
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        docs = bool(os.environ.get("PARLOUR_DOCS_SCREENSHOT"))
        desktop = await browser.new_context(viewport={"width": 1280, "height": 860}, locale="en-US")
        page = await desktop.new_page()
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        await play(page, url, expect)
        await page.screenshot(path=str(ARTIFACT))
        if docs:
            await page.screenshot(path=str(DOCS_SHOT))
        await desktop.close()

        phone = await browser.new_context(
            viewport=PHONE,
            is_mobile=True,
            has_touch=True,
            device_scale_factor=2,
            locale="en-US",
        )
        page = await phone.new_page()
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        await play_on_a_phone(page, url, expect, DOCS_PHONE_SHOT if docs else None)
        await phone.close()
        assert errors == []


async def play(page, url: str, expect) -> None:
    """Type /quarters start, take two coins of pile 1, watch the computer answer, then get a
    refusal only alice sees."""
    expect.set_options(timeout=10_000)
    await page.goto(url + "/?member=alice&channel=games")
    await expect(page.locator("body")).to_have_attribute("data-ready", "true")

    command = page.locator("#command-input")
    await command.click()
    await command.press_sequentially("/")
    titles = page.locator("#popup .item .title")
    await expect(titles.filter(has_text="/settings")).to_have_count(1)  # alice owns the server
    await command.press_sequentially("quarters start")
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


async def fits_the_phone(page) -> None:
    """Nothing scrolls sideways, every visible control lies inside the window, and the command
    box and Send button are each the element a tap at their centre reaches."""
    trouble = await page.evaluate(
        """() => {
        const out = [];
        const width = window.innerWidth;
        const doc = document.documentElement;
        if (doc.scrollWidth > width) out.push(`the page is ${doc.scrollWidth} px wide`);
        const scroller = document.querySelector("#scroller");
        if (scroller.scrollWidth > scroller.clientWidth) out.push("the messages scroll sideways");
        const controls = document.querySelectorAll(".chat button, .chat input, .chat img");
        for (const node of controls) {
            if (!node.checkVisibility({ checkVisibilityCSS: true })) continue;
            const r = node.getBoundingClientRect();
            if (r.width && (r.left < -0.5 || r.right > width + 0.5)) {
                out.push(`${node.outerHTML.slice(0, 60)} spans ${r.left}..${r.right}`);
            }
        }
        for (const id of ["#command-input", "#send"]) {
            const r = document.querySelector(id).getBoundingClientRect();
            const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
            if (!hit || !hit.closest(id)) {
                out.push(`a tap on ${id} reaches ${hit && hit.outerHTML.slice(0, 60)}`);
            }
        }
        return out;
    }"""
    )
    assert trouble == [], trouble


async def all_buttons_reachable(page, message) -> None:
    """Each enabled button of ``message`` is what a tap at its centre reaches."""
    for button in await message.locator("button.btn:not([disabled])").all():
        await button.scroll_into_view_if_needed()
        reached = await button.evaluate(
            """b => {
                const r = b.getBoundingClientRect();
                const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
                return Boolean(hit && b.contains(hit));
            }"""
        )
        assert reached, await button.inner_text()


async def run_command(page, expect, command: str, **options: str) -> None:
    """Type ``command`` in the command box, fill its option pills, and send it with the button."""
    box = page.locator("#command-input")
    await box.tap()
    await box.press_sequentially(command)
    await expect(page.locator("#popup")).to_be_hidden()
    for name, value in options.items():
        await page.locator(f".pill input[data-option={name}]").fill(value)
    await fits_the_phone(page)
    await page.locator("#send").tap()


async def play_on_a_phone(page, url: str, expect, docs_shot: Path | None) -> None:
    """As carol on a 390 px wide phone in #lobby: the drawers, a refused /settings, a whole
    Quarters game, then a Hearts hand's pass and a whole trick."""
    expect.set_options(timeout=15_000)
    await page.goto(url + "/?member=carol&channel=lobby")
    await expect(page.locator("body")).to_have_attribute("data-ready", "true")
    await expect(page.locator(".sidebar")).not_to_be_in_viewport()
    await expect(page.locator(".members")).not_to_be_in_viewport()
    await fits_the_phone(page)

    # The channel list and the member list are behind the header's buttons.
    await page.get_by_role("button", name="Channels").tap()
    await expect(page.locator(".sidebar")).to_be_in_viewport()
    await page.screenshot(path=str(ARTIFACTS / "playground-phone-channels.png"))
    await page.locator("#channels li", has_text="lobby").tap()
    await expect(page.locator(".sidebar")).not_to_be_in_viewport()
    await page.get_by_role("button", name="Members").tap()
    await expect(page.locator("#member-list li.me")).to_contain_text("carol")
    await page.locator("#scrim").tap(position={"x": 20, "y": 400})
    await expect(page.locator(".members")).not_to_be_in_viewport()

    await discord_markdown(page)

    # carol lacks Manage Server: the command list does not offer /settings.
    box = page.locator("#command-input")
    await box.tap()
    await box.press_sequentially("/")
    titles = page.locator("#popup .item .title")
    await expect(titles.filter(has_text="/quarters start")).to_have_count(1)
    await expect(titles.filter(has_text="/settings")).to_have_count(0)
    await box.fill("")

    # A whole Quarters game against the computer.
    await run_command(page, expect, "/quarters start", piles="1,2")
    board = page.locator(".msg:not(.ephemeral)", has=page.locator("img.attachment-image")).last
    image = board.locator("img.attachment-image")
    await expect(board.locator(".reply-line")).to_contain_text("carol used /quarters start")
    await all_buttons_reachable(page, board)
    for _ in range(6):
        if await board.get_by_role("button", name="Play again").count():
            break
        coin = board.locator("button[data-custom-id*=':c=']:not([disabled])").first
        await coin.tap()
        await expect(coin).to_have_class(re.compile(r"\bbtn-3\b"))
        before = await image.get_attribute("src")
        await board.get_by_role("button", name="Remove Coins", exact=True).tap()
        await expect(image).not_to_have_attribute("src", before or "")
        await expect(
            board.locator(
                "button[data-custom-id*=':c=']:not([disabled]), button:has-text('Play again')"
            ).first
        ).to_be_visible()
    await expect(board.get_by_role("button", name="Play again")).to_be_visible()
    await expect(board.locator(".content")).to_contain_text("wins")
    await fits_the_phone(page)
    await all_buttons_reachable(page, board)
    await page.screenshot(path=str(ARTIFACTS / "playground-phone-quarters.png"))

    # Hearts with three computers: pass three cards, then play a card; the trick completes.
    await run_command(page, expect, "/hearts start", level="beginner", delay="0")
    lobby = page.locator(".msg:not(.ephemeral)", has=page.get_by_role("button", name="Start")).last
    await lobby.get_by_role("button", name="Start").tap()
    board = page.locator(
        ".msg:not(.ephemeral)", has=page.get_by_role("button", name="Your hand")
    ).last
    await all_buttons_reachable(page, board)
    await board.get_by_role("button", name="Your hand").tap()
    hand = page.locator(".msg.ephemeral", has_text="Your hand").last
    await expect(hand).to_contain_text("Tap three cards to pass")
    for picked in range(1, 4):  # a tap a card, then Pass
        await hand.locator("button[data-custom-id*=':pick=']:not(.btn-3)").first.tap()
        await expect(hand.get_by_role("button", name=f"Pass {picked}/3")).to_be_visible()
    await all_buttons_reachable(page, hand)
    await hand.get_by_role("button", name="Pass 3/3").tap()
    # Waiting for the others' passes, or (computers with no delay, faster than the check) past
    # them already: either way the pass was taken.
    await expect(hand).to_contain_text(re.compile("You passed|You received"))
    await expect(board.locator(".content")).to_contain_text("@carol to play")
    # The same private message offers the cards when it is her turn: one tap plays one.
    hand = page.locator(".msg.ephemeral", has_text="Your hand").last
    await expect(hand).to_contain_text(re.compile("Your (turn|lead)"))
    await hand.locator("button:enabled", has_not_text="Refresh").first.tap()
    await expect(hand).to_contain_text("You played")
    await expect(page.locator(".msg.ephemeral", has_text="Your hand")).to_have_count(1)
    await expect(board.locator("img.attachment-image")).to_have_attribute(
        "alt", re.compile("Last trick")
    )
    await page.locator("#scroller").evaluate("s => { s.scrollTop = s.scrollHeight; }")
    await fits_the_phone(page)
    await page.screenshot(path=str(ARTIFACTS / "playground-phone-hearts-hand.png"))
    await board.evaluate("m => m.scrollIntoView({block: 'start'})")
    await page.screenshot(path=str(ARTIFACTS / "playground-phone-hearts.png"))
    if docs_shot is not None:
        await page.screenshot(path=str(docs_shot))


async def discord_markdown(page) -> None:
    """The page renders the markdown Discord renders: small print, quotes, emphasis, code,
    lists, and timestamps in the reader's time zone that count down by themselves."""
    soon = await page.evaluate("() => Math.floor(Date.now() / 1000) + 125")
    text = (
        "**bold** *italic* __under__ ~~gone~~ `code`\n"
        "> quoted\n"
        "- a\n"
        "1. first\n"
        f"-# small print, autoplay <t:{soon}:R>\n"
        ">>> all\nof this"
    )
    html = await page.evaluate("t => markdown(t)", text)
    for part in (
        "<strong>bold</strong>",
        "<em>italic</em>",
        "<u>under</u>",
        "<s>gone</s>",
        "<code>code</code>",
        "<blockquote>quoted</blockquote>",
        "<ul><li>a</li></ul>",
        '<ol start="1"><li>first</li></ol>',
        '<div class="subtext">small print, autoplay <time class="timestamp"',
        "<blockquote>all<br>of this</blockquote>",
    ):
        assert part in html, (part, html)
    assert "-#" not in html and "&gt;" not in html
    assert re.search(r'data-style="R"[^>]*>in 2 minutes</time>', html), html


async def test_typed_moves_menus_and_code_blocks_on_a_phone(tmp_path: Path) -> None:
    """On a 390 px phone: a code block is one box; the checkers move menu opens where every
    move can be seen; a typed move sent at once raises no script error; nonsense typed and
    sent with Enter (twice) is sent as typed and refused, and no move is played for it."""
    if MISSING is not None:
        pytest.fail(f"CI must run the browser test, but {MISSING}")
    from playwright.async_api import expect

    async with running_playground(tmp_path) as (url, browser):
        errors: list[str] = []
        phone = await browser.new_context(
            viewport=PHONE, is_mobile=True, has_touch=True, device_scale_factor=2, locale="en-US"
        )
        page = await phone.new_page()
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        expect.set_options(timeout=15_000)
        await page.goto(url + "/?member=dave&channel=games")
        await expect(page.locator("body")).to_have_attribute("data-ready", "true")
        await code_blocks_are_one_box(page)

        await run_command(page, expect, "/checkers start", color="black", level="beginner")
        board = page.locator(".msg:not(.ephemeral)", has=page.locator("img.attachment-image")).last
        await expect(board.locator(".reply-line")).to_contain_text("dave used /checkers start")
        await menus_open_where_they_fit(page, board)

        # Nonsense, then (with the suggested moves showing) Enter twice: sent as typed and
        # refused; no suggested move is put in its place and played.
        image = board.locator("img.attachment-image")
        before = await image.get_attribute("src")
        await type_option_fast(page, "/checkers move", "move", "hello")
        await expect(page.locator("#popup .item").first).to_be_visible()  # the suggestions
        await page.keyboard.press("Enter")
        await page.keyboard.press("Enter")
        refusal = page.locator(".msg.ephemeral").last
        await expect(refusal).to_contain_text("hello is not a move")
        await expect(page.locator(".msg:not(.ephemeral) .reply-line")).to_have_count(1)
        assert await image.get_attribute("src") == before

        # A legal move typed and sent within a moment of typing: played, and no script error.
        await type_option_fast(page, "/checkers move", "move", "11-15")
        await page.keyboard.press("Enter")
        moved = page.locator(".msg:not(.ephemeral)", has=page.locator(".reply-line")).last
        await expect(moved.locator(".reply-line")).to_contain_text("dave used /checkers move")
        await page.wait_for_timeout(500)  # past the autocomplete's pause: a late answer lands
        await expect(page.locator("#popup")).to_be_hidden()
        await phone.close()
        assert errors == []


async def type_option_fast(page, command: str, option: str, value: str) -> None:
    """Type ``command``, then ``value`` into its ``option`` pill, as fast as a thumb can."""
    box = page.locator("#command-input")
    await box.tap()
    await box.press_sequentially(command)
    field = page.locator(f".pill input[data-option={option}]")
    await field.tap()
    await field.press_sequentially(value)


async def menus_open_where_they_fit(page, message) -> None:
    """The message's first menu, opened by a tap, lies wholly inside the message list, and
    shows every option (or as many as fit, the rest reachable by scrolling the menu)."""
    box = message.locator(".select-box").first
    await box.scroll_into_view_if_needed()
    await box.tap()
    menu = message.locator(".select-menu").first
    await menu.wait_for(state="visible")
    fit = await menu.evaluate(
        """menu => {
            const area = document.querySelector("#scroller").getBoundingClientRect();
            const r = menu.getBoundingClientRect();
            const options = [...menu.querySelectorAll(".select-option")];
            const seen = options.filter((o) => {
                const b = o.getBoundingClientRect();
                return b.top >= r.top - 0.5 && b.bottom <= r.bottom + 0.5;
            }).length;
            return {
                inside: r.top >= area.top - 0.5 && r.bottom <= area.bottom + 0.5,
                scrolls: menu.scrollHeight <= menu.clientHeight + 1
                    || getComputedStyle(menu).overflowY === "auto",
                seen, total: options.length, height: r.height,
            };
        }"""
    )
    assert fit["inside"], fit
    assert fit["scrolls"], fit
    assert fit["seen"] >= min(fit["total"], 6), fit
    await box.tap()  # closes it again
    await expect_hidden(menu)


async def expect_hidden(locator) -> None:
    from playwright.async_api import expect

    await expect(locator).to_be_hidden()


async def code_blocks_are_one_box(page) -> None:
    """A fenced code block, in a message or an embed, is drawn as one box: the inline code
    style (border, background) does not reach the lines inside it."""
    styles = await page.evaluate(
        """() => {
            const out = {};
            for (const [name, cls] of [["message", "content"], ["embed", "embed"]]) {
                const holder = document.createElement("div");
                holder.className = cls;
                holder.innerHTML = markdown("```\\nHand  alice  bob\\n1     3      0\\n```");
                document.body.append(holder);
                const pre = holder.querySelector("pre");
                const code = holder.querySelector("pre code");
                const cs = getComputedStyle(code);
                out[name] = {
                    pre: getComputedStyle(pre).borderTopWidth,
                    code: cs.borderTopWidth,
                    background: cs.backgroundColor,
                };
                holder.remove();
            }
            return out;
        }"""
    )
    for where, style in styles.items():
        assert style["pre"] == "1px", (where, style)
        assert style["code"] == "0px", (where, style)
        assert style["background"] in ("rgba(0, 0, 0, 0)", "transparent"), (where, style)

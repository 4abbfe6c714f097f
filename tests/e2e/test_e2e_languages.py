"""Parlour in every member's language, end to end against the fake Discord."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from e2e_helpers import TableRows, open_hand, pass_three, playable
from i18n_support import english_left

from fakediscord import Driver, FakeDiscord
from fakediscord.limits import COMMAND_NAME_RE
from games.kabu import State as Kabu
from i18n import ENGLISH, LANGUAGES
from render.kabu import render_kabu

# Every Discord locale that reads one of Parlour's languages other than English.
LOCALIZED = {code for language in LANGUAGES if language is not ENGLISH for code in language.discord}


def texts(item: dict[str, Any], where: str = "") -> Iterator[tuple[str, str, dict[str, str]]]:
    """(where, kind, localizations) of every name, description and choice a synced command
    holds, its options and subcommands included."""
    where = f"{where} {item['name']}".strip()
    yield where, "name", item.get("name_localizations") or {}
    if "description" in item:
        yield where, "description", item.get("description_localizations") or {}
    for choice in item.get("choices", ()):
        yield f"{where}={choice['value']}", "choice", choice.get("name_localizations") or {}
    for option in item.get("options", ()):
        yield from texts(option, where)


async def test_the_synced_commands_carry_every_languages_names_and_descriptions(
    fake: FakeDiscord, start_bot
) -> None:
    await start_bot()
    synced = fake.commands()
    assert {c["name"] for c in synced} >= {"quarters", "checkers", "kabu", "hearts", "rules"}
    names = descriptions = 0
    for command in synced:
        for where, kind, found in texts(command):
            assert set(found) <= LOCALIZED, where
            if kind == "name":
                # a name the same in a language ("kabu" in French) is left to the English
                assert all(COMMAND_NAME_RE.match(n) and n == n.lower() for n in found.values())
                names += bool(found)
                continue
            assert all(1 <= len(text) <= 100 for text in found.values()), where
            if kind == "description":
                assert set(found) == LOCALIZED, (where, found)
                descriptions += 1
    assert names > 40 and descriptions > 50
    by_name = {c["name"]: c for c in synced}
    assert by_name["hearts"]["name_localizations"] == {
        "ja": "ハーツ",
        "fr": "dame-de-pique",
        "es-ES": "corazones",
        "es-419": "corazones",
        "pt-BR": "copas",
    }  # German players call it Hearts too
    assert by_name["checkers"]["name_localizations"]["de"] == "dame"
    assert by_name["kabu"]["name_localizations"] == {"ja": "カブ"}
    assert fake.problems() == []


async def test_a_refusal_follows_the_members_language_not_the_servers(
    fake: FakeDiscord, driver: Driver, start_bot
) -> None:
    """A Japanese member in a German server is refused in Japanese; an English one in
    English; a member whose language Parlour lacks, in English too."""
    fake.world.guild("Parlour Test").locale = "de"
    driver.user("alice").locale = "ja"
    driver.user("carol").locale = "ko"
    await start_bot()
    await driver.slash("alice", "checkers start", opponent="bob", color="black")
    board = driver.last_message("games")
    await driver.click("bob", board, label="Annehmen")  # the channel's language

    illegal = await driver.slash("alice", "checkers move", move="5-9")
    assert illegal.ephemeral
    assert illegal.content.startswith("`5-9` はここでは指せません。指せる手：")
    turn = await driver.slash("bob", "checkers move", move="22-18")
    assert turn.ephemeral and turn.content == "It is not your turn.", turn.content
    not_seated = await driver.slash("carol", "game resign")
    assert not_seated.ephemeral and "not" in not_seated.content


async def test_a_japanese_member_plays_kabu_in_a_german_server(
    fake: FakeDiscord, driver: Driver, start_bot, rows: TableRows
) -> None:
    """The table's picture is in the server's language (German) for everyone, and what only
    she reads is in hers (Japanese)."""
    fake.world.guild("Parlour Test").locale = "de"
    driver.user("alice").locale = "ja"
    await start_bot()
    lobby = (await driver.slash("alice", "kabu start")).message
    assert lobby is not None
    assert lobby.button_labels() == ["Beitreten", "Verlassen", "Geben"]  # the channel's
    assert "Am Tisch (1/5): " in lobby.content, lobby.content
    board = (await driver.click("alice", lobby, label="Geben")).message
    assert board is lobby
    table = rows.last()
    assert table.ui["lang"] == "de" and table.state is not None
    state = Kabu.from_dict(table.state)
    names = {0: driver.user("alice").name.title()}
    german = render_kabu(state.view(None), names, "de").png
    assert await driver.attachment_bytes(board) == german
    assert german != render_kabu(state.view(None), names, "ja").png

    position = next(label for label in board.button_labels() if label.startswith("2 · "))
    await driver.click("alice", board, label=position)
    assert board.button_labels() == ["Ziehen", "Halten", "Tipp"]
    assert "**Ziehen**" in board.content and "Platz 2" in board.content, board.content
    await driver.click("alice", board, label="Tipp")  # hers alone: in Japanese
    await driver.wait_for(
        lambda: any("**あなたの勝率**" in m.content for m in driver.ephemerals("alice")), timeout=15
    )
    await driver.click("alice", board, label="Halten")
    await driver.wait_for(lambda: "Neu geben" in board.button_labels())
    assert "Bank: " in board.content and "(Platz 2)" in board.content, board.content
    state = Kabu.from_dict(rows.last().state)
    assert state.is_over()
    assert await driver.attachment_bytes(board) == render_kabu(state.view(None), names, "de").png


async def test_settings_language_sets_what_the_channels_read(
    driver: Driver, start_bot, rows: TableRows
) -> None:
    """Manage Server (olivia owns the server) may choose the boards' language; "the server's
    language" undoes it."""
    await start_bot()
    refused = await driver.slash("bob", "settings", language="Deutsch")
    assert refused.ephemeral and "Manage Server" in refused.content
    done = await driver.slash("olivia", "settings", language="Deutsch")
    assert done.ephemeral and "Idle games" in done.content, done.content
    await driver.slash("alice", "quatorze start")
    assert rows.last().ui["lang"] == "de"
    asked = await driver.slash("alice", "game stop")  # asks first
    await driver.click("alice", asked.message, label="Stop the game")
    await driver.slash("olivia", "settings", language="The server's language in Discord")
    await driver.slash("alice", "quatorze start")
    assert "lang" not in rows.last().ui  # the server's language in Discord: English here


async def test_a_japanese_member_plays_a_whole_hearts_game_in_a_german_server(
    fake: FakeDiscord, driver: Driver, start_bot, rows: TableRows
) -> None:
    """Her hand, its buttons and its picture's alt text are in Japanese from the first pass to
    the last card; the board the channel sees is in German throughout. The game is shortened
    as in test_e2e_hearts: totals of 0/99/99/99 make the first hand the last."""
    fake.world.guild("Parlour Test").locale = "de"
    driver.user("alice").locale = "ja"
    await start_bot()
    alice = driver.user("alice")
    lobby = (await driver.slash("alice", "hearts start", level="beginner", delay=0)).message
    assert lobby is not None
    assert "Tisch für vier" in lobby.content and "Computer: **Anfänger**" in lobby.content
    board = (await driver.click("alice", lobby, label="Starten")).message
    assert board is lobby
    await driver.wait_for(
        lambda: (s := rows.last().state) is not None and None not in s["passes"][1:]
    )
    table = rows.last()
    assert table.ui["lang"] == "de"
    rows.set_state(table.id, {**table.state, "totals": [0, 99, 99, 99]})

    # the board's buttons in the channel's language (German), her hand's in hers (Japanese)
    assert board.button_labels() == ["Deine Hand", "Punkte", "Spiel verlassen"]
    assert "**Hearts** — Runde 1 · " in board.content, board.content
    hand = await open_hand(driver, "alice", board, heading="**手札**", button="Deine Hand")
    assert "パスするカードを3枚タップ" in hand.content, hand.content
    assert "**手札** — ラウンド 1。" in hand.content, hand.content
    assert hand.attachments[0].description.startswith("手札：")
    assert "Refresh" not in hand.button_labels() and "更新" in hand.button_labels()
    passed = await pass_three(driver, "alice", hand, label="パス 3/3")
    assert "パスしました。" in passed.text(), passed.text()
    assert board.attachments[0].description.startswith("Hearts, Runde 1, ")

    hand = await open_hand(driver, "alice", board, heading="**手札**", button="Deine Hand")
    plays = 0
    while True:
        await driver.wait_for(lambda: bool(playable(hand)) or "🏆" in board.content, timeout=15)
        if "🏆" in board.content:
            break
        await driver.wait_for(lambda: f"<@{alice.id}>" in board.content, timeout=15)
        assert "**あなたの番です**" in hand.content or "**あなたのリードです**" in hand.content
        assert hand.attachments[0].description.startswith("手札：")
        board_alt = board.attachments[0].description or ""
        assert board_alt.startswith("Hearts, Runde 1, ")
        assert " Punkte in dieser Runde, " in board_alt
        drawn_for = board.buttons()[-1]["custom_id"]
        played = await driver.click("alice", hand, label=playable(hand)[0])
        assert played.message is hand and "を出しました。" in played.text(), played.text()
        await driver.wait_for(
            lambda was=drawn_for: board.buttons()[-1]["custom_id"] != was, timeout=15
        )
        plays += 1
        assert plays <= 13
    assert plays == 13
    assert "Spiel vorbei: " in (board.attachments[0].description or "")
    assert "Nochmal" in board.button_labels() and "🏆 **" in board.content
    assert rows.last().status == "finished"
    assert fake.problems() == []


async def test_a_board_moved_on_says_so_in_the_servers_language_and_asks_in_the_members(
    fake: FakeDiscord, driver: Driver, start_bot, rows: TableRows
) -> None:
    """The retired board (the channel's) says it moved on in German; /game stop's question
    and its buttons (hers alone) are in Japanese, the game busy in this channel too."""
    fake.world.guild("Parlour Test").locale = "de"
    driver.user("alice").locale = "ja"
    await start_bot()
    old = (await driver.slash("alice", "quarters start")).message
    assert old is not None
    busy = await driver.slash("alice", "quatorze start")
    assert busy.ephemeral and busy.content.startswith("ここではもうクォーターズのゲーム")
    new = (await driver.slash("bob", "game show")).message
    assert new is not None and new is not old
    await driver.wait_for(lambda: old.buttons() == [])
    assert old.content.startswith("⏭️ Weitergezogen – hier ist das [neueste Brett](")
    asked = await driver.slash("alice", "game stop")
    assert asked.ephemeral and asked.content.startswith("⚠️ 本当にこのゲームを中止しますか？")
    assert asked.message.button_labels() == ["ゲームを中止", "キャンセル"]
    await driver.click("alice", asked.message, label="ゲームを中止")
    await driver.wait_for(lambda: rows.last().status == "stopped")


async def test_the_commands_answer_the_member_in_theirs_and_post_in_the_servers_language(
    fake: FakeDiscord, driver: Driver, start_bot
) -> None:
    """/rules, /settings and /privacy (answers, buttons, what a click says) answer a Japanese
    owner in Japanese and a German member in German; /scoreboard and /stats, which the channel
    sees, are in the German server's language."""
    fake.world.guild("Parlour Test").locale = "de"
    driver.user("olivia").locale = "ja"  # the owner: may change the settings and erase
    driver.user("bob").locale = "de"
    await start_bot()
    said = []

    rules = await driver.slash("olivia", "rules", game="Quarters")
    assert rules.ephemeral and rules.content.startswith("**クォーターズ**")
    saved = await driver.slash("olivia", "settings", claim_minutes=15)
    assert saved.content.startswith("✅ 保存しました：15 分のあいだ手がないと")
    assert saved.content.endswith("新しいゲームを専用のスレッドで始める：**オフ**。")
    refused = await driver.slash("bob", "settings", end_hours=2)
    assert refused.ephemeral and "„Server verwalten“" in refused.content
    shown = await driver.slash("bob", "privacy show")
    assert shown.content.startswith("Was Parlour auf diesem Server über dich speichert:")
    assert shown.message.button_labels() == ["JSON herunterladen"]
    file = await driver.click("bob", shown.message, label="JSON herunterladen")
    assert file.ephemeral and file.content.startswith("Alles, was Parlour")
    asked = await driver.slash("olivia", "privacy erase-server")
    assert asked.message.button_labels() == ["すべて消す", "キャンセル"]
    cancelled = await driver.click("olivia", asked.message, label="キャンセル")
    assert cancelled.message.content == "何も消していません。"
    said += [rules.content, saved.content, refused.content, shown.content, asked.content]

    board = await driver.slash("olivia", "scoreboard", game="Quarters")
    assert not board.ephemeral and board.text().startswith("Quarters — Rangliste")
    stats = await driver.slash("olivia", "stats")
    assert not stats.ephemeral and stats.text().startswith("Olivia — Parlour-Bilanz")
    said += [board.text(), stats.text()]
    for text in said:
        assert len(text) <= 2000 and english_left("", text) == [], text  # no English word
    assert fake.problems() == []

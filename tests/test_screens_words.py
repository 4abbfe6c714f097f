"""What members read, checked across games (issue 42): the one question before an action that
ends a game, the one "channel busy" answer, acknowledgements that name the action, sentences for
empty stats, and no internal identifier or file-format code in any message."""

from __future__ import annotations

import re

from support import CHANNEL, GUILD

from bot.ops.privacy import summary
from bot.tables.core.events import Answer as Reply
from bot.tables.screens import Button, Embed, Screen, Select
from bot.tables.service import Member
from bot.tables.wording import busy_text, settings_text
from games.checkers.state import DECLINE_DRAW, OFFER_DRAW
from i18n import render

ALICE = Member(1, "Alice", GUILD, CHANNEL)
BOB = Member(2, "Bob", GUILD, CHANNEL)
CAROL = Member(3, "Carol", GUILD, CHANNEL)
ENDING_LABELS = {"Resign", "Give up", "Leave game"}


def buttons(screen: Screen) -> list[Button]:
    return [b for row in screen.rows if isinstance(row, tuple) for b in row]


def ending_button(screen: Screen) -> Button:
    [found] = [b for b in buttons(screen) if b.label in ENDING_LABELS]
    return found


def texts(screen: Screen | None) -> list[str]:
    """Every text of a screen a member reads: content, embed, labels, options, placeholders."""
    if screen is None:
        return []
    found = [screen.content]
    embed: Embed | None = screen.embed
    if embed is not None:
        found += [embed.title, embed.description, embed.footer]
        found += [text for f in embed.fields for text in (f.name, f.value)]
    for row in screen.rows:
        if isinstance(row, Select):
            found.append(row.placeholder)
            found += [o.label for o in row.options] + [o.description or "" for o in row.options]
        else:
            found += [b.label for b in row]
    found += [a.description for a in screen.attachments]
    return [t for t in found if t]


def reply_texts(reply: Reply | None) -> list[str]:
    if reply is None:
        return []
    screens = (reply.board, reply.private, *reply.posts)
    return [reply.error or ""] + [t for s in screens for t in texts(s)]


async def open_games(service) -> list[tuple[Member, Reply]]:
    """A running game of each kind with an action that ends it, one channel each."""
    games = []
    for channel, (kind, options) in enumerate(
        [
            ("checkers", {"color": "black", "level": "beginner"}),
            ("quarters", {"level": "beginner"}),
            ("quatorze", {}),
        ],
        start=1,
    ):
        who = Member(ALICE.user_id, "Alice", GUILD, CHANNEL + channel)
        reply = await service.start(who, kind, options)
        if reply.ai_next:
            reply = await service.play_computer(reply.table_id) or reply
        games.append((who, reply))
    hearts = Member(ALICE.user_id, "Alice", GUILD, CHANNEL + 9)
    reply = await service.start(hearts, "hearts", {"level": "beginner", "delay": 0})
    reply = await service.act(hearts, reply.table_id, reply.version, "start")
    games.append((hearts, reply))
    return games


async def test_every_action_that_ends_a_game_asks_once_the_same_way(service):
    for who, reply in await open_games(service):
        button = ending_button(reply.board)
        assert button.action.startswith("ask="), (button.label, button.action)
        asked = await service.act(who, reply.table_id, reply.version, button.action)
        assert asked.error is None and asked.board is None, asked.error
        assert asked.private.content.startswith("⚠️ Really ")
        [[confirm, cancel]] = asked.private.rows
        assert cancel.label == "Cancel" and confirm.any_version and cancel.any_version
        assert confirm.action == button.action.removeprefix("ask=")
        table = await service.db.get_table(reply.table_id)
        assert table.status.is_open  # asking changed nothing
        done = await service.act(who, reply.table_id, None, confirm.action)
        assert done.error is None, done.error
        table = await service.db.get_table(reply.table_id)
        assert not table.status.is_open or table.seats[0].is_ai  # ended, or Hearts' seat left


async def test_cancel_says_nothing_changed_and_the_game_goes_on(service):
    reply = await service.start(ALICE, "quarters", {"level": "beginner"})
    asked = await service.act(ALICE, reply.table_id, reply.version, "ask=resign")
    [[_, cancel]] = asked.private.rows
    answer = await service.act(ALICE, reply.table_id, None, cancel.action)
    assert answer.update_private and "nothing changed" in answer.private.content
    assert (await service.db.get_table(reply.table_id)).status.is_open


async def test_the_question_its_buttons_and_cancel_are_in_the_members_language(service):
    """A German member is asked in German; the buttons' actions are those of every language."""
    german = Member(ALICE.user_id, "Alice", GUILD, CHANNEL, locale="de")
    reply = await service.start(german, "quarters", {"level": "beginner"})
    asked = await service.act(german, reply.table_id, reply.version, "ask=resign")
    assert asked.private.content == "⚠️ Wirklich aufgeben? Die Partie zählt als Niederlage für dich."
    [[confirm, cancel]] = asked.private.rows
    assert (confirm.label, confirm.action) == ("Aufgeben", "resign")
    assert (cancel.label, cancel.action) == ("Abbrechen", "cancel")
    answer = await service.act(german, reply.table_id, None, cancel.action)
    assert answer.private.content.startswith("Abgebrochen: Nichts hat sich geändert")
    stop = await service.stop_question(Member(ALICE.user_id, "Alice", GUILD, CHANNEL, locale="ja"))
    [[confirm, cancel]] = stop.private.rows
    assert (confirm.label, confirm.action, cancel.label) == ("ゲームを中止", "stop", "キャンセル")


async def test_only_a_seated_member_is_asked(service):
    reply = await service.start(ALICE, "quarters", {"level": "beginner"})
    refused = await service.act(CAROL, reply.table_id, reply.version, "ask=resign")
    assert "not seated" in refused.error


async def test_game_stop_asks_first_and_its_button_stops_the_game(service):
    reply = await service.start(ALICE, "quarters", {"level": "beginner"})
    asked = await service.stop_question(ALICE)
    [[confirm, cancel]] = asked.private.rows
    assert (confirm.label, confirm.action, cancel.label) == ("Stop the game", "stop", "Cancel")
    assert (await service.db.get_table(reply.table_id)).status.is_open
    stopped = await service.act(ALICE, reply.table_id, None, confirm.action)
    assert "stopped by Alice" in stopped.board.content
    assert not (await service.db.get_table(reply.table_id)).status.is_open


async def test_the_busy_answer_is_the_same_from_start_and_play_again(service):
    reply = await service.start(ALICE, "quarters", {"level": "beginner"})
    await service.act(ALICE, reply.table_id, None, "resign")
    running = await service.start(BOB, "checkers", {"color": "black", "level": "beginner"})
    expected = busy_text("Checkers", ["Bob", "Computer (beginner)"])
    from_start = await service.start(ALICE, "hearts", {})
    from_again = await service.act(ALICE, reply.table_id, None, "again")
    assert from_start.error == from_again.error == expected
    assert "`/game show`" in expected and "`/game stop`" in expected
    assert "Bob v Computer (beginner)" in expected and "http" not in expected
    assert from_start.board_message_id == running.board_message_id
    for refusal in (from_start.error, from_again.error):
        assert render(refusal, "de") == (
            "Hier läuft schon eine Partie Dame (Bob v Computer (Anfänger)). Zeig sie mit "
            "`/spiel zeigen` an oder beende sie mit `/spiel stoppen`."
        )
        assert render(refusal, "ja").startswith("ここではもうチェッカーのゲームが進行中です")


async def test_settings_answer_says_saved_with_what_changed():
    values = {"idle_claim_minutes": 15.0, "idle_end_hours": 1.0}
    saved = settings_text(values, ["idle_claim_minutes"])
    assert saved.startswith("✅ Saved: the waiting player may claim the win after 15 minutes")
    assert "ends by itself after 1 hour without a move" in saved
    assert not settings_text(values).startswith("✅ Saved")


async def test_privacy_shows_the_servers_settings_as_sentences_with_units():
    data = {
        "games": [],
        "results": [],
        "ratings": [],
        "server_settings": {"idle_claim_minutes": "15.0", "departed_at": "1.0"},
    }
    text = summary(data)
    assert "may claim the win after 15 minutes without a move." in text
    assert "idle_claim_minutes" not in text and " = " not in text and "departed" not in text


async def test_the_move_line_names_the_members_move_and_the_computers_reply(service):
    reply = await service.start(ALICE, "checkers", {"color": "black", "level": "beginner"})
    reply = await service.act(ALICE, reply.table_id, reply.version, "m=11-15")
    reply = await service.play_computer(reply.table_id)
    line = reply.board.content.splitlines()[1]
    assert line.startswith("Alice played **11-15**. Computer (beginner) replied **"), line


async def test_a_declined_draw_offer_is_told_on_the_board(service):
    reply = await service.start(ALICE, "checkers", {"color": "black"}, opponent=BOB)
    reply = await service.act(BOB, reply.table_id, reply.version, "accept")
    reply = await service.act(ALICE, reply.table_id, reply.version, f"m={OFFER_DRAW}")
    reply = await service.act(ALICE, reply.table_id, reply.version, "m=11-15")
    reply = await service.act(BOB, reply.table_id, reply.version, f"m={DECLINE_DRAW}")
    assert reply.error is None, reply.error
    assert "🤝 Bob declined Alice's draw offer." in reply.board.content
    reply = await service.act(BOB, reply.table_id, reply.version, "m=22-18")
    assert "declined" not in reply.board.content  # said once, then the game moves on


async def test_moving_on_declines_a_draw_offer_in_words(service):
    reply = await service.start(ALICE, "checkers", {"color": "black"}, opponent=BOB)
    reply = await service.act(BOB, reply.table_id, reply.version, "accept")
    reply = await service.act(ALICE, reply.table_id, reply.version, f"m={OFFER_DRAW}")
    reply = await service.act(ALICE, reply.table_id, reply.version, "m=11-15")
    reply = await service.act(BOB, reply.table_id, reply.version, "m=22-18")
    assert "🤝 Bob declined Alice's draw offer." in reply.board.content


async def test_stats_with_no_data_give_sentences_and_no_chart(service):
    screen = await service.stats(GUILD, ALICE.user_id, "Alice")
    shown = await service.pictures.stats_screen(screen, GUILD, ALICE.user_id, "Alice", {})
    assert not shown.attachments
    assert "No finished games yet." in shown.embed.description
    assert "No rated games yet." in shown.embed.description
    reply = await service.start(ALICE, "quarters", {"level": "beginner"})
    await service.act(ALICE, reply.table_id, None, "resign")
    screen = await service.stats(GUILD, ALICE.user_id, "Alice")
    shown = await service.pictures.stats_screen(screen, GUILD, ALICE.user_id, "Alice", {})
    [chart] = shown.attachments
    assert chart.filename == "stats.png"
    assert shown.embed.description == "No rated games yet."
    german = await service.pictures.stats_screen(screen, GUILD, ALICE.user_id, "Alice", {}, "de")
    [chart] = german.attachments  # the chart in the channel's language, game names too
    assert chart.description == (
        "Bilanz von Alice. Elo-Wertung (Dame): noch keine gewerteten Partien. "
        "Gespielte und gewonnene Partien: Quarters: 1 gespielt, 0 gewonnen."
    )


# Internal identifiers and file-format codes a member must never read.
INTERNAL = [
    re.compile(r"\b[a-z]+_[a-z_]+\b"),  # snake_case identifiers
    re.compile(r"\w ?= ?\w"),  # key = value
    re.compile(r"\bpl(y|ies)\b", re.IGNORECASE),  # "move" is the players' word
    re.compile(r"result [*01]|(?<![\d-])(1-0|0-1|1/2-1/2)(?![\d-])"),  # PDN result codes
    re.compile(r"\bCPU\b|\bAI\b"),  # "Computer 1"
    re.compile(r"\bseed\b"),
]


def assert_plain(text: str) -> None:
    for pattern in INTERNAL:
        assert not pattern.search(text), f"{pattern.pattern!r} in {text!r}"


async def test_no_internal_word_reaches_a_member(service):
    seen: list[str] = []

    async def act(who, reply, action):
        answer = await service.act(who, reply.table_id, None, action)
        seen.extend(reply_texts(answer))
        return answer

    for who, reply in await open_games(service):
        seen.extend(reply_texts(reply))
        kind = (await service.db.get_table(reply.table_id)).kind
        extra = {"checkers": ["record", f"m={OFFER_DRAW}"], "hearts": ["scores", "hand"]}
        for action in extra.get(kind, []):
            await act(who, reply, action)
        asked = await act(who, reply, ending_button(reply.board).action)
        [[confirm, _]] = asked.private.rows
        done = await act(who, reply, confirm.action)
        table = await service.db.get_table(reply.table_id)
        if kind == "checkers":
            record = service.controllers[kind].record(
                table, service.controllers[kind].load(table.state)
            )
            seen.extend(texts(record))
        if not table.status.is_open:
            replay = await service.act(who, reply.table_id, None, "replay")
            seen.extend(reply_texts(replay))
        seen.extend(reply_texts(done))
    lobby = await service.start(BOB, "hearts", {})  # Bob's channel: the Hearts lobby
    seen.extend(reply_texts(lobby))
    seen.extend(reply_texts(await service.stop_question(BOB)))
    seen.append(settings_text({"idle_claim_minutes": 10.0, "idle_end_hours": 24.0}))
    seen.append(busy_text("Hearts", ["Alice", "Computer 1"]))
    seen.append(
        summary(
            {"games": [], "results": [], "ratings": [], "server_settings": {"idle_end_hours": 2}}
        )
    )
    for text in seen:
        assert_plain(text)
    assert len(seen) > 40  # the screens above were reached


def test_the_check_catches_the_words_issue_42_found():
    found = [
        "idle_claim_minutes = 15.0",
        "📜 Checkers record: Alice (Black) vs Bob (Red), 9 moves, result *.",
        "final position · 9 plies",
        "Hand    Alice   CPU 1",
        "Classic (the seed's rules)",
        "1. 11-15 23-19 1-0",
    ]
    for text in found:
        try:
            assert_plain(text)
        except AssertionError:
            continue
        raise AssertionError(f"not caught: {text!r}")


def menu_moves(screen: Screen) -> list[str]:
    [menu] = [row for row in screen.rows if isinstance(row, Select) and row.action == "m"]
    return [option.value for option in menu.options]


async def test_the_checkers_menu_lists_crowning_and_safe_moves_first(service):
    # Black: a man on 26 crowns either way; 9-14 walks into Red's jump from 18, 9-13 does not.
    options = {"color": "black", "position": "B:W18:B9,26"}
    reply = await service.start(ALICE, "checkers", options, opponent=BOB)
    reply = await service.act(BOB, reply.table_id, reply.version, "accept")
    assert menu_moves(reply.board) == ["26-30", "26-31", "9-13", "9-14"]


async def test_the_checkers_menu_puts_the_piece_moved_last_before_the_others(service):
    options = {"color": "black", "position": "B:W32:B1,10"}
    reply = await service.start(ALICE, "checkers", options, opponent=BOB)
    reply = await service.act(BOB, reply.table_id, reply.version, "accept")
    reply = await service.act(ALICE, reply.table_id, reply.version, "m=10-14")
    reply = await service.act(BOB, reply.table_id, reply.version, "m=32-28")
    assert menu_moves(reply.board) == ["14-17", "14-18", "1-5", "1-6"]


async def test_the_quarters_line_names_the_members_move_and_the_computers_reply(service):
    reply = await service.start(ALICE, "quarters", {"level": "beginner"})
    state = (await service.db.get_table(reply.table_id)).state
    assert state["first"] == 0, "Alice moves first in this deal"
    pile = next(i for i, n in enumerate(state["start"], start=1) if n > 1)
    reply = await service.act(ALICE, reply.table_id, reply.version, f"m={pile}-1")
    reply = await service.play_computer(reply.table_id)
    line = reply.board.content.splitlines()[1]
    assert line.startswith(f"Alice took 1 from pile {pile}. Computer (beginner) took ")


async def test_an_old_stop_question_does_not_stop_a_newer_game(service):
    first = await service.start(ALICE, "quarters", {"level": "beginner"})
    asked = await service.stop_question(ALICE)
    [[confirm, _]] = asked.private.rows
    await service.act(ALICE, first.table_id, None, "resign")
    newer = await service.start(ALICE, "quarters", {"level": "beginner"})
    late = await service.act(ALICE, first.table_id, None, confirm.action)
    assert "nothing was stopped" in late.error
    assert (await service.db.get_table(newer.table_id)).status.is_open

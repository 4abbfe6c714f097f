"""The checks Discord's client makes before sending a slash command, as the playground makes
them: permissions, option types, choices, ranges and lengths, with short messages."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from playground.checks import (
    BOOLEAN,
    CHANNEL,
    INTEGER,
    NUMBER,
    STRING,
    USER,
    OptionError,
    check_command,
    check_value,
    missing_permissions,
)

MANAGE_GUILD, MANAGE_MESSAGES, ADMINISTRATOR = 1 << 5, 1 << 13, 1 << 3
START = {
    "path": "quarters start",
    "options": [
        {"name": "opponent", "type": USER},
        {"name": "piles", "type": STRING, "min_length": 1, "max_length": 30},
        {"name": "level", "type": STRING, "choices": [{"name": "Perfect", "value": "perfect"}]},
        {"name": "where", "type": CHANNEL},
    ],
}


def test_a_command_for_manage_server_is_hidden_from_members_without_it() -> None:
    settings = {"default_member_permissions": str(MANAGE_GUILD)}
    assert missing_permissions(settings, MANAGE_MESSAGES) == ["Manage Server"]
    assert missing_permissions(settings, MANAGE_GUILD | MANAGE_MESSAGES) == []
    assert missing_permissions(settings, ADMINISTRATOR) == []


def test_zero_permissions_means_administrators_only_and_none_means_everyone() -> None:
    assert missing_permissions({"default_member_permissions": "0"}, MANAGE_GUILD) == [
        "Administrator"
    ]
    assert missing_permissions({"default_member_permissions": None}, 0) == []
    assert missing_permissions({}, 0) == []


def test_whole_numbers_and_numbers_are_checked_and_converted() -> None:
    whole = {"name": "n", "type": INTEGER, "min_value": 1, "max_value": 9}
    assert check_value(whole, " 7 ") == 7
    for bad, message in (
        ("abc", "n: enter a whole number."),
        ("2.5", "n: enter a whole number."),
        ("0", "n: enter a value from 1 to 9."),
        ("10", "n: enter a value from 1 to 9."),
    ):
        with pytest.raises(OptionError) as exc:
            check_value(whole, bad)
        assert str(exc.value) == message
    real = {"name": "x", "type": NUMBER, "min_value": 1}
    assert check_value(real, "2.5") == 2.5
    for bad in ("nan", "inf", "abc"):
        with pytest.raises(OptionError, match=r"x: enter a number\."):
            check_value(real, bad)
    with pytest.raises(OptionError, match="at least 1"):
        check_value(real, "0.5")


def test_choices_accept_a_name_or_value_in_any_case_and_send_the_value() -> None:
    level = START["options"][2]
    assert check_value(level, "perfect") == "perfect"
    assert check_value(level, "PERFECT") == "perfect"
    with pytest.raises(OptionError, match=r"pick one of the choices \(Perfect\)"):
        check_value(level, "godlike")


def test_string_lengths_and_booleans() -> None:
    piles = START["options"][1]
    assert check_value(piles, "3,4,5") == "3,4,5"
    with pytest.raises(OptionError, match="from 1 to 30 characters"):
        check_value(piles, "9" * 31)
    flag = {"name": "ranked", "type": BOOLEAN}
    assert check_value(flag, "True") is True and check_value(flag, "no") is False
    with pytest.raises(OptionError, match="pick True or False"):
        check_value(flag, "maybe")


def test_a_command_needs_its_required_options_and_knows_its_members_and_channels() -> None:
    command = {
        **START,
        "options": [{**START["options"][0], "required": True}, *START["options"][1:]],
    }
    with pytest.raises(OptionError, match=r"/quarters start needs opponent\."):
        check_command(command, {"piles": "3"})
    with pytest.raises(OptionError, match="has no option colour"):
        check_command(command, {"opponent": "bob", "colour": "red"})
    with pytest.raises(OptionError, match="opponent: choose a member"):
        check_command(command, {"opponent": "mallory"}, members=["bob"])
    with pytest.raises(OptionError, match="where: choose a channel"):
        check_command(command, {"opponent": "bob", "where": "#nowhere"}, channels=["games"])
    checked = check_command(
        command,
        {"opponent": "@bob", "piles": "", "level": "Perfect", "where": "#games"},
        members=["bob"],
        channels=["games"],
    )
    assert checked == {"opponent": "bob", "level": "perfect", "where": "games"}


@given(st.integers(-1000, 1000))
def test_an_integer_is_accepted_exactly_when_it_is_in_range(n: int) -> None:
    spec = {"name": "n", "type": INTEGER, "min_value": -5, "max_value": 50}
    if -5 <= n <= 50:
        assert check_value(spec, str(n)) == n
    else:
        with pytest.raises(OptionError):
            check_value(spec, str(n))

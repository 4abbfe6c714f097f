"""Discord's limits, as the fake checks them (pure functions fed bad payloads directly)."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from fakediscord import limits


def button(label: str = "Go", custom_id: str = "b", **extra: Any) -> dict[str, Any]:
    return {"type": 2, "style": 1, "label": label, "custom_id": custom_id, **extra}


def row(*children: dict[str, Any]) -> dict[str, Any]:
    return {"type": 1, "components": list(children)}


def select(n: int = 3, **extra: Any) -> dict[str, Any]:
    options = [{"label": f"Option {i}", "value": f"v{i}"} for i in range(n)]
    return {"type": 3, "custom_id": "s", "options": options, **extra}


GOOD_MESSAGE: dict[str, Any] = {
    "content": "x" * 2000,
    "embeds": [
        {
            "title": "t" * 256,
            "description": "d" * 1000,
            "fields": [{"name": "n", "value": "v" * 100}] * 25,
            "footer": {"text": "f" * 100},
            "image": {"url": "attachment://board.png"},
        }
    ],
    "components": [
        row(*(button(custom_id=f"b{i}") for i in range(5))),
        row(select(25, placeholder="p" * 150)),
        row(button(custom_id="c" * 100, label="l" * 80)),
        row(button(style=5, url="https://example.com", custom_id=None)),
        row(button(custom_id="last")),
    ],
    "attachments": [{"id": 0, "filename": "board.png", "description": "a" * 1024}],
}
del GOOD_MESSAGE["components"][3]["components"][0]["custom_id"]


def bad(path: str, value: Any) -> dict[str, Any]:
    """GOOD_MESSAGE with one thing changed (path like 'embeds.0.title')."""
    payload = copy.deepcopy(GOOD_MESSAGE)
    *parents, last = path.split(".")
    node: Any = payload
    for key in parents:
        node = node[int(key)] if key.isdigit() else node[key]
    node[int(last) if last.isdigit() else last] = value
    return payload


def test_a_message_at_every_limit_passes() -> None:
    assert limits.check_message(GOOD_MESSAGE, attachment_names={"board.png"}) == []


@pytest.mark.parametrize(
    ("path", "value", "expected"),
    [
        ("content", "x" * 2001, "content is 2001"),
        ("embeds.0.title", "t" * 257, "title is 257"),
        ("embeds.0.description", "d" * 4097, "description is 4097"),
        ("embeds.0.fields", [{"name": "n", "value": "v"}] * 26, "26 fields"),
        ("embeds.0.fields", [{"name": "n" * 257, "value": "v"}], "name is 257"),
        ("embeds.0.fields", [{"name": "n", "value": "v" * 1025}], "value is 1025"),
        ("embeds.0.fields", [{"name": "", "value": "v"}], "(min 1)"),
        ("embeds.0.footer", {"text": "f" * 2049}, "footer text is 2049"),
        ("embeds.0.description", "d" * 4000, "embeds total"),
        ("embeds", [{"title": "t"}] * 11, "11 embeds"),
        ("components", [row(button())] * 6, "6 action rows"),
        ("components.0.components", [button(custom_id=f"b{i}") for i in range(6)], "6 buttons"),
        ("components.0.components", [button(), select()], "mixes buttons and a select"),
        ("components.0.components", [button(custom_id="s")], "not unique"),
        ("components.0", button(custom_id="x"), "not an action row"),
        ("components.1.components", [select(0)], "0 options"),
        ("components.1.components", [select(26)], "26 options"),
        ("components.1.components", [select(3, placeholder="p" * 151)], "placeholder is 151"),
        ("components.1.components", [select(3, max_values=4)], "max_values 4 > 3"),
        ("components.2.components", [button(custom_id="c" * 101)], "custom_id is 101"),
        ("components.2.components", [button(custom_id="")], "custom_id is 0"),
        ("components.2.components", [button(label="l" * 81)], "label is 81"),
        ("components.2.components", [button(label="", custom_id="e")], "neither label nor emoji"),
        ("components.2.components", [{"type": 2, "style": 5, "label": "x"}], "without url"),
        ("attachments.0.description", "a" * 1025, "description is 1025"),
        ("embeds.0.image.url", "attachment://missing.png", "attachment://missing.png"),
        ("flags", 1 << 7, "cannot send"),
    ],
)
def test_each_limit_is_enforced(path: str, value: Any, expected: str) -> None:
    problems = limits.check_message(bad(path, value), attachment_names={"board.png"})
    assert any(expected in p for p in problems), problems


def test_select_option_limits() -> None:
    long_value = select(2)
    long_value["options"][0]["value"] = "v" * 101
    long_label = select(2)
    long_label["options"][1]["label"] = "l" * 81
    dup = select(2)
    dup["options"][1]["value"] = "v0"
    for component, expected in [
        (long_value, "value is 101"),
        (long_label, "label is 81"),
        (dup, "not unique in the select"),
    ]:
        problems = limits.check_components([row(component)])
        assert any(expected in p for p in problems), problems


def test_empty_message_is_refused_but_an_edit_may_be_empty() -> None:
    assert limits.check_message({"content": ""}) == [
        "empty message (no content, embeds, components or files)"
    ]
    assert limits.check_message({"content": ""}, creating=False) == []


def test_components_v2_limits() -> None:
    texts = [{"type": 10, "content": "t" * 100} for _ in range(41)]
    problems = limits.check_message({"flags": 1 << 15, "components": texts})
    assert any("41 components" in p for p in problems)
    problems = limits.check_message(
        {"flags": 1 << 15, "content": "x", "components": [{"type": 10, "content": "t" * 4001}]}
    )
    assert any("not allowed with Components V2" in p for p in problems)
    assert any("4001 characters" in p for p in problems)


def command(**extra: Any) -> dict[str, Any]:
    return {"name": "quarters", "description": "Play Quarters", "type": 1, **extra}


def option(name: str = "piles", otype: int = 3, **extra: Any) -> dict[str, Any]:
    return {"name": name, "description": "An option", "type": otype, **extra}


def test_a_good_command_tree_passes() -> None:
    start = option("start", 1, options=[option(required=True), option("level", 4)])
    group = option("admin", 2, options=[option("reset", 1)])
    assert limits.check_commands([command(options=[start, group])]) == []


@pytest.mark.parametrize(
    ("cmd", "expected"),
    [
        (command(name="Quarters"), "lowercase"),
        (command(name="q" * 33), "lowercase"),
        (command(name="two words"), "lowercase"),
        (command(description=""), "(min 1)"),
        (command(description="d" * 101), "description is 101"),
        (command(options=[option(f"o{i}") for i in range(26)]), "26 options"),
        (command(options=[option(choices=[{"name": "c", "value": "v"}] * 26)]), "26 choices"),
        (command(options=[option(choices=[{"name": "c", "value": "v" * 101}])]), "value is 101"),
        (command(options=[option("a"), option("b", required=True)]), "required option 'b'"),
        (command(options=[option("a"), option("a")]), "duplicate option names"),
        (
            command(options=[option(autocomplete=True, choices=[{"name": "c", "value": "v"}])]),
            "both choices and autocomplete",
        ),
        (command(options=[option("g", 2, options=[option("h", 2, options=[])])]), "group nested"),
        (command(options=[option("s", 1, options=[option("t", 1)])]), "holding subcommands"),
        (command(options=[option("s", 1), option("x")]), "mixes subcommands"),
        (command(options=[option("Upper")]), "lowercase"),
        (command(name_localizations={"fr": "Nouvelle partie"}), "name_localizations[fr]"),
        (command(name_localizations={"xx": "partie"}), "not a Discord locale"),
        (command(description_localizations={"ja": "説" * 101}), "[ja] is 101"),
        (command(options=[option(name_localizations={"de": "Haufen"})]), "lowercase"),
        (
            command(
                options=[
                    option(
                        choices=[{"name": "c", "value": "v", "name_localizations": {"es-ES": ""}}]
                    )
                ]
            ),
            "(min 1)",
        ),
    ],
)
def test_each_command_limit_is_enforced(cmd: dict[str, Any], expected: str) -> None:
    problems = limits.check_commands([cmd])
    assert any(expected in p for p in problems), problems


def test_localized_names_in_other_scripts_pass() -> None:
    localized = {"name_localizations": {"ja": "クォーターズ", "es-419": "montones"}}
    assert limits.check_commands([command(**localized, options=[option(**localized)])]) == []


def test_duplicate_command_names_are_refused() -> None:
    assert any("duplicate command names" in p for p in limits.check_commands([command()] * 2))


def test_autocomplete_and_modal_limits() -> None:
    many = {"choices": [{"name": "n", "value": "v"}] * 26}
    assert any("26 autocomplete choices" in p for p in limits.check_autocomplete(many))
    modal = {"title": "t" * 46, "custom_id": "m", "components": []}
    problems = limits.check_modal(modal)
    assert any("title is 46" in p for p in problems)
    assert any("0 top-level" in p for p in problems)

"""Discord's documented limits as pure functions.

Each ``check_*`` function takes the JSON a bot sends and returns a list of human-readable
problems (empty when the payload is fine). The fake server runs them on every request and
records each problem; tests can also call them directly.

>>> check_message({"content": "x" * 2001})
['content is 2001 characters (max 2000)']
>>> check_message({"content": "hi"})
[]
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable
from typing import Any

CONTENT_MAX = 2000
EMBEDS_MAX = 10
EMBED_TITLE_MAX = 256
EMBED_DESCRIPTION_MAX = 4096
EMBED_FIELDS_MAX = 25
EMBED_FIELD_NAME_MAX = 256
EMBED_FIELD_VALUE_MAX = 1024
EMBED_FOOTER_MAX = 2048
EMBED_AUTHOR_MAX = 256
EMBED_TOTAL_MAX = 6000
ACTION_ROWS_MAX = 5
BUTTONS_PER_ROW_MAX = 5
SELECT_OPTIONS_MAX = 25
CUSTOM_ID_MAX = 100
LABEL_MAX = 80
OPTION_VALUE_MAX = 100
OPTION_DESCRIPTION_MAX = 100
PLACEHOLDER_MAX = 150
ATTACHMENTS_MAX = 10
ATTACHMENT_DESCRIPTION_MAX = 1024
V2_COMPONENTS_MAX = 40
V2_TEXT_MAX = 4000
COMMAND_NAME_RE = re.compile(r"^[-_\w]{1,32}$")
# The locales Discord accepts as keys of name_localizations and description_localizations.
# fmt: off
DISCORD_LOCALES = frozenset((
    "id", "da", "de", "en-GB", "en-US", "es-ES", "es-419", "fr", "hr", "it", "lt", "hu", "nl",
    "no", "pl", "pt-BR", "ro", "fi", "sv-SE", "vi", "tr", "cs", "el", "bg", "ru", "uk", "hi",
    "th", "zh-CN", "ja", "zh-TW", "ko",
))
# fmt: on
COMMAND_DESCRIPTION_MAX = 100
COMMAND_OPTIONS_MAX = 25
COMMAND_CHOICES_MAX = 25
COMMAND_TOTAL_CHARS_MAX = 4000
GLOBAL_CHAT_COMMANDS_MAX = 100
AUTOCOMPLETE_CHOICES_MAX = 25
MODAL_TITLE_MAX = 45
TEXT_INPUT_LABEL_MAX = 45
TEXT_INPUT_VALUE_MAX = 4000
NONCE_MAX = 25

FLAG_SUPPRESS_EMBEDS = 1 << 2
FLAG_EPHEMERAL = 1 << 6
FLAG_SUPPRESS_NOTIFICATIONS = 1 << 12
FLAG_COMPONENTS_V2 = 1 << 15
SENDABLE_FLAGS = (
    FLAG_SUPPRESS_EMBEDS | FLAG_EPHEMERAL | FLAG_SUPPRESS_NOTIFICATIONS | FLAG_COMPONENTS_V2
)

SELECT_TYPES = frozenset({3, 5, 6, 7, 8})
V2_TYPES = frozenset({9, 10, 11, 12, 13, 14, 17})
SUBCOMMAND = 1
SUBCOMMAND_GROUP = 2
STRING, INTEGER, NUMBER = 3, 4, 10


def _len(value: Any) -> int:
    return len(value) if isinstance(value, str) else 0


def _too_long(what: str, value: Any, limit: int, *, minimum: int = 0) -> list[str]:
    if value is None:
        return [f"{what} is missing"] if minimum else []
    if not isinstance(value, str):
        return [f"{what} is not a string ({type(value).__name__})"]
    if len(value) > limit:
        return [f"{what} is {len(value)} characters (max {limit})"]
    if len(value) < minimum:
        return [f"{what} is {len(value)} characters (min {minimum})"]
    return []


def attachment_refs(payload: dict[str, Any]) -> list[str]:
    """Filenames referenced as ``attachment://name`` anywhere in embeds or components."""
    found: list[str] = []

    def visit(node: Any) -> None:
        if isinstance(node, dict):
            for value in node.values():
                visit(value)
        elif isinstance(node, list):
            for value in node:
                visit(value)
        elif isinstance(node, str) and node.startswith("attachment://"):
            found.append(node.removeprefix("attachment://"))

    visit(payload.get("embeds") or [])
    visit(payload.get("components") or [])
    return found


def check_embeds(embeds: Any) -> list[str]:
    """Embed count and text limits, including the 6000-character total."""
    if embeds is None:
        return []
    if not isinstance(embeds, list):
        return ["embeds is not a list"]
    problems: list[str] = []
    if len(embeds) > EMBEDS_MAX:
        problems.append(f"{len(embeds)} embeds (max {EMBEDS_MAX})")
    total = 0
    for i, embed in enumerate(embeds):
        where = f"embed {i}"
        problems += _too_long(f"{where} title", embed.get("title"), EMBED_TITLE_MAX)
        problems += _too_long(
            f"{where} description", embed.get("description"), EMBED_DESCRIPTION_MAX
        )
        fields = embed.get("fields") or []
        if len(fields) > EMBED_FIELDS_MAX:
            problems.append(f"{where} has {len(fields)} fields (max {EMBED_FIELDS_MAX})")
        for j, f in enumerate(fields):
            problems += _too_long(
                f"{where} field {j} name", f.get("name"), EMBED_FIELD_NAME_MAX, minimum=1
            )
            problems += _too_long(
                f"{where} field {j} value", f.get("value"), EMBED_FIELD_VALUE_MAX, minimum=1
            )
            total += _len(f.get("name")) + _len(f.get("value"))
        footer = embed.get("footer") or {}
        problems += _too_long(f"{where} footer text", footer.get("text"), EMBED_FOOTER_MAX)
        author = embed.get("author") or {}
        problems += _too_long(f"{where} author name", author.get("name"), EMBED_AUTHOR_MAX)
        total += _len(embed.get("title")) + _len(embed.get("description"))
        total += _len(footer.get("text")) + _len(author.get("name"))
    if total > EMBED_TOTAL_MAX:
        problems.append(f"embeds total {total} characters (max {EMBED_TOTAL_MAX})")
    return problems


def _check_custom_id(where: str, comp: dict[str, Any], seen: set[str]) -> list[str]:
    custom_id = comp.get("custom_id")
    problems = _too_long(f"{where} custom_id", custom_id, CUSTOM_ID_MAX, minimum=1)
    if isinstance(custom_id, str):
        if custom_id in seen:
            problems.append(f"{where} custom_id {custom_id!r} is not unique in the message")
        seen.add(custom_id)
    return problems


def _check_button(where: str, button: dict[str, Any], seen: set[str]) -> list[str]:
    problems: list[str] = []
    style = button.get("style")
    if style not in (1, 2, 3, 4, 5, 6):
        problems.append(f"{where} has invalid style {style!r}")
    if style == 5:
        if not button.get("url"):
            problems.append(f"{where} is a link button without url")
        if "custom_id" in button:
            problems.append(f"{where} is a link button with a custom_id")
    elif style == 6:
        if not button.get("sku_id"):
            problems.append(f"{where} is a premium button without sku_id")
    else:
        problems += _check_custom_id(where, button, seen)
    problems += _too_long(f"{where} label", button.get("label"), LABEL_MAX)
    if style != 6 and not button.get("label") and not button.get("emoji"):
        problems.append(f"{where} has neither label nor emoji")
    return problems


def _check_select(where: str, select: dict[str, Any], seen: set[str]) -> list[str]:
    problems = _check_custom_id(where, select, seen)
    problems += _too_long(f"{where} placeholder", select.get("placeholder"), PLACEHOLDER_MAX)
    min_values = select.get("min_values", 1)
    max_values = select.get("max_values", 1)
    if not 0 <= min_values <= 25:
        problems.append(f"{where} min_values {min_values} (0-25)")
    if not 1 <= max_values <= 25:
        problems.append(f"{where} max_values {max_values} (1-25)")
    if min_values > max_values:
        problems.append(f"{where} min_values {min_values} > max_values {max_values}")
    if select.get("type") == 3:
        options = select.get("options") or []
        if not 1 <= len(options) <= SELECT_OPTIONS_MAX:
            problems.append(f"{where} has {len(options)} options (1-{SELECT_OPTIONS_MAX})")
        if max_values > len(options) and options:
            problems.append(f"{where} max_values {max_values} > {len(options)} options")
        values: set[str] = set()
        for k, opt in enumerate(options):
            ow = f"{where} option {k}"
            problems += _too_long(f"{ow} label", opt.get("label"), LABEL_MAX, minimum=1)
            problems += _too_long(f"{ow} value", opt.get("value"), OPTION_VALUE_MAX, minimum=1)
            problems += _too_long(
                f"{ow} description", opt.get("description"), OPTION_DESCRIPTION_MAX
            )
            value = opt.get("value")
            if value in values:
                problems.append(f"{ow} value {value!r} is not unique in the select")
            values.add(value)
    return problems


def _check_rows(components: list[Any], seen: set[str]) -> list[str]:
    problems: list[str] = []
    if len(components) > ACTION_ROWS_MAX:
        problems.append(f"{len(components)} action rows (max {ACTION_ROWS_MAX})")
    for i, row in enumerate(components):
        where = f"row {i}"
        if not isinstance(row, dict) or row.get("type") != 1:
            problems.append(f"{where} is not an action row (type 1)")
            continue
        children = row.get("components") or []
        if not children:
            problems.append(f"{where} is empty")
        buttons = [c for c in children if c.get("type") == 2]
        selects = [c for c in children if c.get("type") in SELECT_TYPES]
        others = [c for c in children if c not in buttons and c not in selects]
        if others:
            problems.append(f"{where} holds unsupported component types")
        if buttons and selects:
            problems.append(f"{where} mixes buttons and a select")
        if len(buttons) > BUTTONS_PER_ROW_MAX:
            problems.append(f"{where} has {len(buttons)} buttons (max {BUTTONS_PER_ROW_MAX})")
        if len(selects) > 1:
            problems.append(f"{where} has {len(selects)} selects (max 1)")
        for j, b in enumerate(buttons):
            problems += _check_button(f"{where} button {j}", b, seen)
        for j, s in enumerate(selects):
            problems += _check_select(f"{where} select {j}", s, seen)
    return problems


def _check_v2(components: list[Any], seen: set[str]) -> list[str]:
    problems: list[str] = []
    count = 0
    text = 0

    def visit(nodes: Iterable[Any], depth: int) -> None:
        nonlocal count, text
        for node in nodes:
            if not isinstance(node, dict):
                problems.append("a component is not an object")
                continue
            count += 1
            ctype = node.get("type")
            if ctype == 10:
                text += _len(node.get("content"))
            elif ctype == 2:
                problems.extend(_check_button(f"v2 button #{count}", node, seen))
            elif ctype in SELECT_TYPES:
                problems.extend(_check_select(f"v2 select #{count}", node, seen))
            elif ctype == 1:
                kids = node.get("components") or []
                if len([k for k in kids if k.get("type") == 2]) > BUTTONS_PER_ROW_MAX:
                    problems.append(f"v2 row #{count} has more than {BUTTONS_PER_ROW_MAX} buttons")
            if ctype == 12:
                items = node.get("items") or []
                if not 1 <= len(items) <= 10:
                    problems.append(f"media gallery #{count} has {len(items)} items (1-10)")
                for item in items:
                    problems.extend(
                        _too_long(
                            "media gallery item description",
                            item.get("description"),
                            ATTACHMENT_DESCRIPTION_MAX,
                        )
                    )
            children = node.get("components")
            if isinstance(children, list):
                visit(children, depth + 1)
            if isinstance(node.get("accessory"), dict):
                visit([node["accessory"]], depth + 1)

    visit(components, 0)
    if count > V2_COMPONENTS_MAX:
        problems.append(f"{count} components (max {V2_COMPONENTS_MAX} with Components V2)")
    if text > V2_TEXT_MAX:
        problems.append(f"text displays total {text} characters (max {V2_TEXT_MAX})")
    return problems


def check_components(components: Any, *, v2: bool = False) -> list[str]:
    """Action rows, buttons, selects, custom_ids (unique in the message) and labels."""
    if components is None:
        return []
    if not isinstance(components, list):
        return ["components is not a list"]
    seen: set[str] = set()
    return _check_v2(components, seen) if v2 else _check_rows(components, seen)


def check_message(
    payload: dict[str, Any],
    *,
    attachment_names: Collection[str] | None = None,
    creating: bool = True,
) -> list[str]:
    """Everything about one message create/edit payload.

    ``attachment_names`` are the filenames the message will carry after this request (for
    ``attachment://`` references); ``None`` skips that check. ``creating`` requires some content.
    """
    problems: list[str] = []
    content = payload.get("content")
    if content is not None:
        problems += _too_long("content", content, CONTENT_MAX)
    problems += check_embeds(payload.get("embeds"))
    flags = payload.get("flags") or 0
    if not isinstance(flags, int):
        problems.append(f"flags is not an integer: {flags!r}")
        flags = 0
    elif flags & ~SENDABLE_FLAGS:
        problems.append(f"flags {flags} include bits a bot cannot send")
    v2 = bool(flags & FLAG_COMPONENTS_V2)
    problems += check_components(payload.get("components"), v2=v2)
    if v2 and (payload.get("content") or payload.get("embeds")):
        problems.append("content/embeds are not allowed with Components V2")
    problems += check_nonce(payload)
    attachments = payload.get("attachments") or []
    if len(attachments) > ATTACHMENTS_MAX:
        problems.append(f"{len(attachments)} attachments (max {ATTACHMENTS_MAX})")
    for i, att in enumerate(attachments):
        problems += _too_long(
            f"attachment {i} description", att.get("description"), ATTACHMENT_DESCRIPTION_MAX
        )
    if attachment_names is not None:
        for name in attachment_refs(payload):
            if name not in attachment_names:
                problems.append(f"attachment://{name} refers to no attachment of the message")
    if creating and not (
        payload.get("content")
        or payload.get("embeds")
        or payload.get("components")
        or attachments
        or payload.get("sticker_ids")
        or payload.get("poll")
    ):
        problems.append("empty message (no content, embeds, components or files)")
    return problems


def check_nonce(payload: dict[str, Any]) -> list[str]:
    """A message's ``nonce`` (an integer, or a string of up to 25 characters) and
    ``enforce_nonce`` (a boolean).

    >>> check_nonce({"nonce": "t42v7p1", "enforce_nonce": True})
    []
    >>> check_nonce({"nonce": "x" * 26})
    ['nonce is 26 characters (max 25)']
    """
    problems: list[str] = []
    nonce = payload.get("nonce")
    if nonce is not None and not (isinstance(nonce, int) and not isinstance(nonce, bool)):
        problems += _too_long("nonce", nonce, NONCE_MAX)
    enforce = payload.get("enforce_nonce")
    if enforce is not None and not isinstance(enforce, bool):
        problems.append(f"enforce_nonce is not a boolean: {enforce!r}")
    return problems


def check_modal(data: dict[str, Any]) -> list[str]:
    """A modal (callback type 9): title, custom_id, 1-5 rows/labels, text inputs."""
    problems = _too_long("modal title", data.get("title"), MODAL_TITLE_MAX, minimum=1)
    problems += _too_long("modal custom_id", data.get("custom_id"), CUSTOM_ID_MAX, minimum=1)
    comps = data.get("components") or []
    if not 1 <= len(comps) <= 5:
        problems.append(f"modal has {len(comps)} top-level components (1-5)")
    for comp in comps:
        inner = list(comp.get("components") or [])
        if isinstance(comp.get("component"), dict):
            inner.append(comp["component"])
        if comp.get("type") == 18:
            problems += _too_long("modal label", comp.get("label"), TEXT_INPUT_LABEL_MAX, minimum=1)
        for item in inner:
            if item.get("type") == 4:
                problems += _too_long(
                    "text input custom_id", item.get("custom_id"), CUSTOM_ID_MAX, minimum=1
                )
                problems += _too_long("text input label", item.get("label"), TEXT_INPUT_LABEL_MAX)
                problems += _too_long("text input value", item.get("value"), TEXT_INPUT_VALUE_MAX)
                problems += _too_long("text input placeholder", item.get("placeholder"), 100)
    return problems


def check_autocomplete(data: dict[str, Any]) -> list[str]:
    """An autocomplete result (callback type 8): at most 25 choices of valid names/values."""
    choices = data.get("choices")
    if not isinstance(choices, list):
        return ["autocomplete result has no choices list"]
    problems: list[str] = []
    if len(choices) > AUTOCOMPLETE_CHOICES_MAX:
        problems.append(f"{len(choices)} autocomplete choices (max {AUTOCOMPLETE_CHOICES_MAX})")
    for i, choice in enumerate(choices):
        problems += _too_long(f"choice {i} name", choice.get("name"), 100, minimum=1)
        value = choice.get("value")
        if isinstance(value, str):
            problems += _too_long(f"choice {i} value", value, 100)
    return problems


def _check_localizations(where: str, item: dict[str, Any], *, named: bool = True) -> list[str]:
    """The per-locale names and descriptions of a command, option or (``named=False``) choice:
    known locales, and each text within the rules of the English one."""
    problems: list[str] = []
    for field in ("name_localizations", "description_localizations"):
        found = item.get(field) or {}
        if not isinstance(found, dict):
            problems.append(f"{where} {field} is not an object")
            continue
        for locale, text in found.items():
            at = f"{where} {field}[{locale}]"
            if locale not in DISCORD_LOCALES:
                problems.append(f"{at}: {locale!r} is not a Discord locale")
            elif field == "name_localizations" and named:
                if (
                    not isinstance(text, str)
                    or not COMMAND_NAME_RE.match(text)
                    or (text != text.lower())
                ):
                    problems.append(f"{at} {text!r} is not 1-32 lowercase letters, digits, - or _")
            else:
                problems += _too_long(at, text, COMMAND_DESCRIPTION_MAX, minimum=1)
    return problems


def _check_option(where: str, opt: dict[str, Any], depth: int) -> tuple[list[str], int]:
    problems: list[str] = _check_localizations(where, opt)
    name = opt.get("name")
    chars = _len(name) + _len(opt.get("description"))
    if not isinstance(name, str) or not COMMAND_NAME_RE.match(name) or name != name.lower():
        problems.append(f"{where} name {name!r} is not 1-32 lowercase letters, digits, - or _")
    problems += _too_long(
        f"{where} description", opt.get("description"), COMMAND_DESCRIPTION_MAX, minimum=1
    )
    otype = opt.get("type")
    children = opt.get("options") or []
    if otype == SUBCOMMAND_GROUP:
        if depth != 0:
            problems.append(f"{where} is a subcommand group nested inside another")
        if any(c.get("type") != SUBCOMMAND for c in children):
            problems.append(f"{where} is a group holding something other than subcommands")
    elif otype == SUBCOMMAND:
        if any(c.get("type") in (SUBCOMMAND, SUBCOMMAND_GROUP) for c in children):
            problems.append(f"{where} is a subcommand holding subcommands")
    elif children:
        problems.append(f"{where} is a plain option with sub-options")
    if otype in (SUBCOMMAND, SUBCOMMAND_GROUP):
        sub_problems, sub_chars = _check_options(where, children, depth + 1)
        problems += sub_problems
        chars += sub_chars
    choices = opt.get("choices") or []
    if len(choices) > COMMAND_CHOICES_MAX:
        problems.append(f"{where} has {len(choices)} choices (max {COMMAND_CHOICES_MAX})")
    if choices and otype not in (STRING, INTEGER, NUMBER):
        problems.append(f"{where} has choices but is not a string/integer/number option")
    if choices and opt.get("autocomplete"):
        problems.append(f"{where} has both choices and autocomplete")
    for j, choice in enumerate(choices):
        problems += _too_long(f"{where} choice {j} name", choice.get("name"), 100, minimum=1)
        problems += _check_localizations(f"{where} choice {j}", choice, named=False)
        value = choice.get("value")
        if isinstance(value, str):
            problems += _too_long(f"{where} choice {j} value", value, 100, minimum=1)
        chars += _len(choice.get("name")) + _len(value)
    if opt.get("min_length") is not None and not 0 <= opt["min_length"] <= 6000:
        problems.append(f"{where} min_length out of 0-6000")
    if opt.get("max_length") is not None and not 1 <= opt["max_length"] <= 6000:
        problems.append(f"{where} max_length out of 1-6000")
    return problems, chars


def _check_options(where: str, options: list[dict[str, Any]], depth: int) -> tuple[list[str], int]:
    problems: list[str] = []
    chars = 0
    if len(options) > COMMAND_OPTIONS_MAX:
        problems.append(f"{where} has {len(options)} options (max {COMMAND_OPTIONS_MAX})")
    names = [o.get("name") for o in options]
    dupes = sorted({n for n in names if names.count(n) > 1 and isinstance(n, str)})
    if dupes:
        problems.append(f"{where} has duplicate option names {dupes}")
    optional_seen = False
    for opt in options:
        if opt.get("type") in (SUBCOMMAND, SUBCOMMAND_GROUP):
            continue
        if opt.get("required"):
            if optional_seen:
                problems.append(f"{where} has required option {opt.get('name')!r} after optional")
        else:
            optional_seen = True
    kinds = {o.get("type") in (SUBCOMMAND, SUBCOMMAND_GROUP) for o in options}
    if len(kinds) > 1:
        problems.append(f"{where} mixes subcommands with plain options")
    for opt in options:
        sub_problems, sub_chars = _check_option(f"{where} {opt.get('name')}", opt, depth)
        problems += sub_problems
        chars += sub_chars
    return problems, chars


def check_command(command: dict[str, Any]) -> list[str]:
    """One application command payload (name, description, options, choices, nesting)."""
    ctype = command.get("type", 1)
    name = command.get("name")
    where = f"command /{name}"
    problems: list[str] = _check_localizations(where, command, named=ctype == 1)
    if ctype == 1:
        if not isinstance(name, str) or not COMMAND_NAME_RE.match(name) or name != name.lower():
            problems.append(f"{where}: name is not 1-32 lowercase letters, digits, - or _")
        problems += _too_long(
            f"{where} description", command.get("description"), COMMAND_DESCRIPTION_MAX, minimum=1
        )
        sub_problems, chars = _check_options(where, command.get("options") or [], 0)
        problems += sub_problems
        chars += _len(name) + _len(command.get("description"))
        if chars > COMMAND_TOTAL_CHARS_MAX:
            problems.append(f"{where} totals {chars} characters (max {COMMAND_TOTAL_CHARS_MAX})")
    else:
        problems += _too_long(f"{where} name", name, 32, minimum=1)
        if command.get("description"):
            problems.append(f"{where}: context menu commands have no description")
    return problems


def check_commands(commands: Any) -> list[str]:
    """A bulk overwrite (PUT) of commands: each command plus counts and unique names."""
    if not isinstance(commands, list):
        return ["commands payload is not a list"]
    problems: list[str] = []
    for command in commands:
        problems += check_command(command)
    by_type: dict[int, list[str]] = {}
    for command in commands:
        by_type.setdefault(command.get("type", 1), []).append(command.get("name"))
    for ctype, names in by_type.items():
        dupes = sorted({n for n in names if names.count(n) > 1})
        if dupes:
            problems.append(f"duplicate command names {dupes} (type {ctype})")
    if len(by_type.get(1, [])) > GLOBAL_CHAT_COMMANDS_MAX:
        problems.append(f"{len(by_type[1])} slash commands (max {GLOBAL_CHAT_COMMANDS_MAX})")
    return problems

"""What the page is sent: messages as a member sees them, and the bot's commands as a menu.

Ids are strings (snowflakes do not fit a JavaScript number). Attachments are served by the
playground at ``/attachments/<id>/<filename>``, and ``attachment://name`` references in embeds
and components point there too.
"""

from __future__ import annotations

from typing import Any

from fakediscord.state import Interaction, Message, User

SUBCOMMAND, SUBCOMMAND_GROUP = 1, 2
APPLICATION_COMMAND = 2


def attachment_url(att_id: int, filename: str) -> str:
    """Where the page loads an attachment."""
    return f"/attachments/{att_id}/{filename}"


def command_label(data: dict[str, Any]) -> str:
    """``quarters start`` from an application command interaction's data.

    >>> command_label({"name": "quarters", "options": [{"name": "start", "type": 1}]})
    'quarters start'
    """
    words = [str(data.get("name", ""))]
    options = data.get("options") or []
    while options and options[0].get("type") in (SUBCOMMAND, SUBCOMMAND_GROUP):
        words.append(str(options[0].get("name", "")))
        options = options[0].get("options") or []
    return " ".join(words)


def interaction_label(interaction: Interaction) -> str | None:
    """The command a slash-command interaction ran (None for clicks and the rest)."""
    if interaction.type != APPLICATION_COMMAND:
        return None
    return command_label(interaction.payload.get("data") or {})


def user_json(user: User) -> dict[str, Any]:
    """A user as the page shows them."""
    return {"id": str(user.id), "name": user.name, "bot": user.bot}


def _rewrite(node: Any, urls: dict[str, str], used: set[str]) -> Any:
    if isinstance(node, dict):
        return {k: _rewrite(v, urls, used) for k, v in node.items()}
    if isinstance(node, list):
        return [_rewrite(v, urls, used) for v in node]
    if isinstance(node, str) and node.startswith("attachment://"):
        name = node.removeprefix("attachment://")
        used.add(name)
        return urls.get(name, "")
    return node


def message_json(message: Message, label: str | None = None) -> dict[str, Any]:
    """One message for the page; ``label`` is the slash command that made it, if any."""
    urls = {a.filename: attachment_url(a.id, a.filename) for a in message.attachments}
    used: set[str] = set()
    embeds = _rewrite(message.embeds, urls, used)
    components = _rewrite(message.components, urls, used)
    attachments = []
    for att in message.attachments:
        data = att.payload()
        attachments.append(
            {
                "id": str(att.id),
                "url": urls[att.filename],
                "filename": att.filename,
                "description": att.description,
                "size": len(att.data),
                "width": data.get("width"),
                "height": data.get("height"),
                "image": (att.content_type or "").startswith("image/"),
                "shown_elsewhere": att.filename in used,
            }
        )
    by = message.interaction_user
    return {
        "id": str(message.id),
        "channel_id": str(message.channel_id),
        "author": user_json(message.author),
        "content": message.content,
        "embeds": embeds,
        "components": components,
        "attachments": attachments,
        "flags": message.flags,
        "ephemeral": message.ephemeral,
        "loading": message.loading,
        "edited": message.edited,
        "timestamp": message.created_at,
        "command": {"user": user_json(by), "name": label} if label and by else None,
    }


def _option_json(option: dict[str, Any]) -> dict[str, Any]:
    keep = (
        "name",
        "description",
        "type",
        "required",
        "autocomplete",
        "choices",
        "min_value",
        "max_value",
        "min_length",
        "max_length",
        "channel_types",
    )
    found = {k: option[k] for k in keep if option.get(k) is not None}
    found.setdefault("required", False)
    found.setdefault("autocomplete", False)
    return found


def command_menu(commands: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every runnable slash command path with its options, sorted, as the command box lists them.

    >>> cmd = {"name": "game", "type": 1, "description": "Game", "options": [
    ...     {"name": "show", "type": 1, "description": "Show it", "options": []}]}
    >>> [c["path"] for c in command_menu([cmd])]
    ['game show']
    """
    found: list[dict[str, Any]] = []

    def visit(node: dict[str, Any], path: list[str], permissions: str | None) -> None:
        options = node.get("options") or []
        subs = [o for o in options if o.get("type") in (SUBCOMMAND, SUBCOMMAND_GROUP)]
        if subs:
            for sub in subs:
                visit(sub, [*path, sub["name"]], permissions)
            return
        found.append(
            {
                "path": " ".join(path),
                "description": node.get("description", ""),
                "options": [_option_json(o) for o in options],
                "default_member_permissions": permissions,
            }
        )

    for command in commands:
        if command.get("type", 1) == 1:
            visit(command, [command["name"]], command.get("default_member_permissions"))
    return sorted(found, key=lambda c: c["path"])

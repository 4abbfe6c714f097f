"""What the playground's stand-in for Discord remembers across restarts, in one JSON file.

Discord keeps a channel's messages and the bot's registered commands while the bot restarts;
so does the playground, so a game's buttons still work after ``python -m bot --playground`` is
stopped and started again (which is how a developer tries a change). The file lives beside the
database (``data/playground.db`` -> ``data/playground.discord.json``). Edit histories, deleted
and still-loading messages are not kept; at most :data:`KEEP_PER_CHANNEL` messages a channel.
"""

from __future__ import annotations

import base64
import contextlib
import json
import logging
import os
from pathlib import Path
from typing import Any

from fakediscord.server import FakeDiscord
from fakediscord.state import Attachment, Message

log = logging.getLogger(__name__)

SCHEMA = 1
KEEP_PER_CHANNEL = 200
HISTORY_KEPT = 3  # old versions of a message kept in memory


def store_path(database: Path | str) -> Path:
    """The file kept beside the database, or in ``data/`` for a PostgreSQL database's URL.

    >>> store_path(Path("data/playground.db"))
    PosixPath('data/playground.discord.json')
    >>> store_path("postgresql://parlour@localhost/parlour")
    PosixPath('data/playground.discord.json')
    """
    if isinstance(database, str):
        return Path("data/playground.discord.json")
    return database.with_name(database.stem + ".discord.json")


def _attachment(att: Attachment) -> dict[str, Any]:
    return {
        "id": att.id,
        "filename": att.filename,
        "description": att.description,
        "content_type": att.content_type,
        "data": base64.b64encode(att.data).decode(),
    }


def _message(message: Message, label: str | None) -> dict[str, Any]:
    return {
        "id": message.id,
        "channel_id": message.channel_id,
        "guild_id": message.guild_id,
        "author": message.author.id,
        "content": message.content,
        "embeds": message.embeds,
        "components": message.components,
        "attachments": list(message.attachments),  # encoded by write()
        "flags": message.flags,
        "type": message.type,
        "created_at": message.created_at,
        "edited_at": message.edited_at,
        "ephemeral_for": message.ephemeral_for,
        "interaction_id": message.interaction_id,
        "interaction_type": message.interaction_type,
        "interaction_user": message.interaction_user.id if message.interaction_user else None,
        "application_id": message.application_id,
        "label": label,
    }


def collect(fake: FakeDiscord, labels: dict[int, str | None]) -> dict[str, Any]:
    """What to keep, taken in the event loop (cheap; :func:`write` does the encoding).

    Edit histories are trimmed here too, so a long session does not hold every old image.
    """
    by_channel: dict[int, list[Message]] = {}
    for message in sorted(fake.messages.values(), key=lambda m: m.id):
        del message.history[:-HISTORY_KEPT]
        if not message.deleted and not message.loading:
            by_channel.setdefault(message.channel_id, []).append(message)
    kept = sorted(
        (m for messages in by_channel.values() for m in messages[-KEEP_PER_CHANNEL:]),
        key=lambda m: m.id,
    )
    return {
        "schema": SCHEMA,
        "global_commands": list(fake.global_commands),
        "guild_commands": {str(k): list(v) for k, v in fake.guild_commands.items()},
        "messages": [_message(m, labels.get(m.interaction_id or 0)) for m in kept],
    }


def write(data: dict[str, Any], path: Path) -> None:
    """Write what :func:`collect` took to ``path``, atomically (fine in a worker thread)."""

    def encode(value: Any) -> Any:
        if isinstance(value, Attachment):
            return _attachment(value)
        raise TypeError(f"cannot keep {type(value).__name__}")

    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(data, separators=(",", ":"), default=encode))
    os.replace(tmp, path)


def save(fake: FakeDiscord, labels: dict[int, str | None], path: Path) -> None:
    """Keep the fake's channels and commands in ``path``."""
    write(collect(fake, labels), path)


def load(fake: FakeDiscord, labels: dict[int, str | None], path: Path) -> int:
    """Bring back what :func:`save` wrote (after ``fake.start()``); returns the message count.

    A missing, unreadable or foreign file is ignored: the playground starts empty.
    """
    if not path.exists():
        return 0
    try:
        data = json.loads(path.read_text())
        if data.get("schema") != SCHEMA:
            raise ValueError(f"schema {data.get('schema')!r}")
        world = fake.world
        messages = []
        for item in data["messages"]:
            attachments = []
            for a in item["attachments"]:
                att = Attachment(
                    id=a["id"],
                    filename=a["filename"],
                    data=base64.b64decode(a["data"]),
                    description=a["description"],
                    content_type=a["content_type"],
                    url=f"{fake.url}/attachments/{a['id']}/{a['filename']}",
                )
                attachments.append(att)
            by = item["interaction_user"]
            messages.append(
                Message(
                    id=item["id"],
                    channel_id=world.channel(item["channel_id"]).id,
                    guild_id=item["guild_id"],
                    author=world.user(item["author"]),
                    content=item["content"],
                    embeds=item["embeds"],
                    components=item["components"],
                    attachments=attachments,
                    flags=item["flags"],
                    type=item["type"],
                    created_at=item["created_at"],
                    edited_at=item["edited_at"],
                    ephemeral_for=item["ephemeral_for"],
                    interaction_id=item["interaction_id"],
                    interaction_type=item["interaction_type"],
                    interaction_user=world.user(by) if by is not None else None,
                    application_id=item["application_id"],
                )
            )
            if item.get("label") and item["interaction_id"]:
                labels[item["interaction_id"]] = item["label"]
        global_commands = list(data["global_commands"])
        guild_commands = {int(k): list(v) for k, v in data["guild_commands"].items()}
    except (OSError, ValueError, KeyError, TypeError) as exc:
        log.warning("ignoring %s (%s); the playground starts empty", path, exc)
        with contextlib.suppress(OSError):
            path.rename(path.with_name(path.name + ".bad"))
        return 0
    for message in messages:
        fake.messages[message.id] = message
        for att in message.attachments:
            fake.attachments[att.id] = att
    fake.global_commands = global_commands
    fake.guild_commands = guild_commands
    return len(messages)

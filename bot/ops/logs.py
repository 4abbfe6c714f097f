"""Logging set-up: ``LOG_LEVEL``, ``LOG_FORMAT`` (``text`` or ``json``), and no secrets in logs.

``json`` writes one JSON object per line (``time``, ``level``, ``logger``, ``message``, the
``extra`` fields such as an interaction's ``guild``/``table``/``outcome``, and ``exc`` for a
traceback). Every handler gets a :class:`RedactSecrets` filter, which replaces the bot token,
anything shaped like a Discord token, and the interaction and webhook tokens in API paths.

``LOG_LEVEL=DEBUG`` applies to Parlour's own loggers only; the libraries' loggers stay at INFO
or above, because at DEBUG they dump whole gateway events and request bodies (discord.py) and
every query with its parameters (aiosqlite): members' private hands, and stored game states.
"""

from __future__ import annotations

import datetime as dt
import json
import logging
import re
import sys
from collections.abc import Iterable
from typing import Any, TextIO

FORMATS = ("text", "json")
TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
REDACTED = "[redacted]"
OWN_LOGGERS = ("parlour", "bot", "storage", "render", "games")

_PATTERNS = (
    # A bot token: base64 user id, timestamp, HMAC.
    re.compile(r"[A-Za-z0-9_-]{20,30}\.[A-Za-z0-9_-]{5,8}\.[A-Za-z0-9_-]{25,}"),
    # The token in an interaction callback or a webhook (follow-up) path.
    re.compile(r"(?<=/interactions/)(\d+/)[A-Za-z0-9_.-]{20,}"),
    re.compile(r"(?<=/webhooks/)(\d+/)[A-Za-z0-9_.-]{20,}"),
    # An Authorization header's value.
    re.compile(r"(?<=Bot )[A-Za-z0-9_.-]{20,}"),
)
# The record attributes every LogRecord has; anything else came in through ``extra=``.
_STANDARD = set(vars(logging.makeLogRecord({}))) | {"message", "asctime", "taskName"}


class RedactSecrets(logging.Filter):
    """Rewrites a record's message (and traceback text) with secrets replaced."""

    def __init__(self, secrets: Iterable[str] = ()) -> None:
        super().__init__()
        self.secrets = [s for s in secrets if s]

    def redact(self, text: str) -> str:
        for secret in self.secrets:
            text = text.replace(secret, REDACTED)
        for pattern in _PATTERNS:
            text = pattern.sub(lambda m: (m.group(1) if m.groups() else "") + REDACTED, text)
        return text

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        clean = self.redact(message)
        if clean != message:
            record.msg, record.args = clean, None
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = self.redact(record.exc_text)
            record.exc_info = None  # the redacted text is what gets printed
        return True


class JsonFormatter(logging.Formatter):
    """One JSON object per record, on one line."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "time": dt.datetime.fromtimestamp(record.created, dt.UTC).isoformat(
                timespec="milliseconds"
            ),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        for key, value in vars(record).items():
            if key not in _STANDARD and not key.startswith("_"):
                entry[key] = value
        if record.exc_info and not record.exc_text:
            record.exc_text = self.formatException(record.exc_info)
        if record.exc_text:
            entry["exc"] = record.exc_text
        if record.stack_info:
            entry["stack"] = self.formatStack(record.stack_info)
        return json.dumps(entry, default=str, ensure_ascii=False)


def setup_logging(
    level: str = "INFO",
    fmt: str = "text",
    *,
    secrets: Iterable[str] = (),
    stream: TextIO | None = None,
) -> logging.Handler:
    """Configure the root logger with one stream handler; return the handler."""
    if fmt not in FORMATS:
        raise ValueError(f"log format must be one of {', '.join(FORMATS)}, not {fmt!r}")
    handler = logging.StreamHandler(sys.stderr if stream is None else stream)
    handler.setFormatter(JsonFormatter() if fmt == "json" else logging.Formatter(TEXT_FORMAT))
    handler.addFilter(RedactSecrets(secrets))
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    wanted = logging.getLevelNamesMapping()[level.upper()]
    root.setLevel(max(wanted, logging.INFO))  # the libraries
    for name in OWN_LOGGERS:
        logging.getLogger(name).setLevel(wanted)
    return handler

"""``python -m bot --playground [--port 8080]``: run the playground until Ctrl+C."""

from __future__ import annotations

import asyncio
import contextlib
import errno
import logging
import os
import signal
import sys
from pathlib import Path

from bot.config import Config, ConfigError
from playground.playground import Playground

DEFAULT_DATABASE_URL = "sqlite:///data/playground.db"


def settings_from_env(env: dict[str, str] | None = None) -> tuple[Path | str, int | None]:
    """The database file and AI workers, from ``DATABASE_URL`` (default
    ``sqlite:///data/playground.db``) and ``PARLOUR_AI_WORKERS`` as the bot reads them.

    >>> settings_from_env({})
    (PosixPath('data/playground.db'), None)
    """
    values = dict(os.environ if env is None else env)
    values.pop("DISCORD_GUILD_ID", None)
    values["DISCORD_TOKEN"] = "playground"
    values["DATABASE_URL"] = values.get("DATABASE_URL") or DEFAULT_DATABASE_URL
    config = Config.from_env(values)
    return config.database, config.ai_workers


class _NoVoiceWarnings(logging.Filter):
    """discord.py warns that voice needs PyNaCl; nobody talks in the playground."""

    def filter(self, record: logging.LogRecord) -> bool:
        return "voice will NOT be supported" not in record.getMessage()


async def serve(port: int, database: Path | str, ai_workers: int | None) -> None:
    """Run the playground until cancelled (Ctrl+C) or sent SIGTERM."""
    stop = asyncio.Event()
    with contextlib.suppress(NotImplementedError, RuntimeError):
        asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
    playground = Playground(database=database, port=port, ai_workers=ai_workers)
    try:
        await playground.start()
        print(
            f"Parlour playground: open {playground.url} in a browser (Ctrl+C stops it). "
            f"Games are kept in {database}.",
            flush=True,
        )
        await stop.wait()
    finally:
        await playground.stop()


def run(port: int = 8080) -> int:
    """Run the playground; 0 once stopped, 2 when it cannot start (port taken, bad setting)."""
    try:
        database, workers = settings_from_env()
    except ConfigError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    logging.getLogger("discord.client").addFilter(_NoVoiceWarnings())
    try:
        asyncio.run(serve(port, database, workers))
    except KeyboardInterrupt:
        pass
    except OSError as exc:
        if exc.errno != errno.EADDRINUSE:
            raise
        print(
            f"error: port {port} on 127.0.0.1 is taken; "
            f"try another: python -m bot --playground --port {port + 1}",
            file=sys.stderr,
        )
        return 2
    return 0

"""Configuration from the environment."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from bot.shards import Shards, parse_shard_ids
from storage import DEFAULT_POOL_SIZE, parse_database_url

DEFAULT_DATABASE_URL = "sqlite:///data/parlour.db"


class ConfigError(Exception):
    """A setting is missing or wrong; the message says what to set."""


@dataclass(frozen=True, slots=True)
class Config:
    token: str
    database: Path | str  # a SQLite file, or a postgresql:// URL
    guild_id: int | None = None
    ai_workers: int | None = None
    shards: Shards | None = None  # None: one unsharded process
    pool_size: int = DEFAULT_POOL_SIZE  # PostgreSQL connections at most

    @classmethod
    def from_env(cls, env: dict[str, str] | None = None) -> Config:
        env = dict(os.environ if env is None else env)
        token = env.get("DISCORD_TOKEN", "").strip()
        if not token:
            raise ConfigError(
                "DISCORD_TOKEN is not set: export DISCORD_TOKEN=<your bot token> "
                "(see README.md), or try the bot without Discord: python -m bot --playground"
            )
        try:
            database = parse_database_url(env.get("DATABASE_URL") or DEFAULT_DATABASE_URL)
        except ValueError as exc:
            raise ConfigError(f"DATABASE_URL: {exc}") from None
        guild = env.get("DISCORD_GUILD_ID", "").strip()
        if guild and not guild.isdigit():
            raise ConfigError("DISCORD_GUILD_ID must be a server id (a number).")
        workers = env.get("PARLOUR_AI_WORKERS", "").strip()
        pool = env.get("DATABASE_POOL_SIZE", "").strip()
        if pool and not (pool.isdigit() and int(pool) >= 1):
            raise ConfigError(
                "DATABASE_POOL_SIZE must be a whole number of connections, 1 or more."
            )
        return cls(
            token=token,
            database=database,
            guild_id=int(guild) if guild else None,
            ai_workers=int(workers) if workers.isdigit() else None,
            shards=shards_from_env(env),
            pool_size=int(pool) if pool else DEFAULT_POOL_SIZE,
        )


def shards_from_env(env: dict[str, str]) -> Shards | None:
    """``SHARD_COUNT`` and ``SHARD_IDS`` (``0-3``, ``0,2``); unset: one unsharded process.

    ``SHARD_COUNT`` alone runs every shard in this process.
    """
    count_text = env.get("SHARD_COUNT", "").strip()
    ids_text = env.get("SHARD_IDS", "").strip()
    if not count_text:
        if ids_text:
            raise ConfigError("SHARD_IDS needs SHARD_COUNT (the total number of shards).")
        return None
    if not count_text.isdigit() or int(count_text) < 1:
        raise ConfigError("SHARD_COUNT must be a whole number of shards, 1 or more.")
    count = int(count_text)
    try:
        ids = parse_shard_ids(ids_text, count) if ids_text else tuple(range(count))
        return Shards(count, ids)
    except ValueError as exc:
        raise ConfigError(str(exc)) from None

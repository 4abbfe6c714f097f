"""Configuration from the environment."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from storage import database_path

DEFAULT_DATABASE_URL = "sqlite:///data/parlour.db"


class ConfigError(Exception):
    """A setting is missing or wrong; the message says what to set."""


@dataclass(frozen=True, slots=True)
class Config:
    token: str
    database: Path
    guild_id: int | None = None
    ai_workers: int | None = None

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
            database = database_path(env.get("DATABASE_URL") or DEFAULT_DATABASE_URL)
        except ValueError as exc:
            raise ConfigError(f"DATABASE_URL: {exc}") from None
        guild = env.get("DISCORD_GUILD_ID", "").strip()
        if guild and not guild.isdigit():
            raise ConfigError("DISCORD_GUILD_ID must be a server id (a number).")
        workers = env.get("PARLOUR_AI_WORKERS", "").strip()
        return cls(
            token=token,
            database=database,
            guild_id=int(guild) if guild else None,
            ai_workers=int(workers) if workers.isdigit() else None,
        )

"""Configuration from the environment."""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from bot.shards import Shards, parse_shard_ids
from games.digits import is_number
from storage import DEFAULT_POOL_SIZE, parse_database_url

DEFAULT_DATABASE_URL = "sqlite:///data/parlour.db"
DEFAULT_RETENTION_DAYS = 30.0
LOG_FORMATS = ("text", "json")


class ConfigError(Exception):
    """A setting is missing or wrong; the message says what to set."""


@dataclass(frozen=True, slots=True)
class Config:
    token: str
    database: Path | str  # a SQLite file, or a postgresql:// URL
    guild_id: int | None = None
    ai_workers: int | None = None
    draw_workers: int | None = None  # processes that draw the boards; 0: drawn in threads
    shards: Shards | None = None  # None: one unsharded process
    pool_size: int = DEFAULT_POOL_SIZE  # PostgreSQL connections at most
    http: tuple[str, int] | None = None  # PARLOUR_HTTP: /healthz and /metrics; None is off
    log_level: str = "INFO"
    log_format: str = "text"
    retention_days: float = DEFAULT_RETENTION_DAYS  # a departed server's data is kept this long

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
        if guild and not is_number(guild):
            raise ConfigError("DISCORD_GUILD_ID must be a server id (a number).")
        workers = env.get("PARLOUR_AI_WORKERS", "").strip()
        drawers = env.get("PARLOUR_DRAW_WORKERS", "").strip()
        if drawers and not is_number(drawers):
            raise ConfigError(
                "PARLOUR_DRAW_WORKERS must be a whole number of processes, 0 or more."
            )
        pool = env.get("DATABASE_POOL_SIZE", "").strip()
        if pool and not (is_number(pool) and int(pool) >= 1):
            raise ConfigError(
                "DATABASE_POOL_SIZE must be a whole number of connections, 1 or more."
            )
        level, fmt = logging_settings(env)
        return cls(
            token=token,
            database=database,
            guild_id=int(guild) if guild else None,
            ai_workers=int(workers) if is_number(workers) else None,
            draw_workers=int(drawers) if drawers else None,
            shards=shards_from_env(env),
            pool_size=int(pool) if pool else DEFAULT_POOL_SIZE,
            http=http_address(env),
            log_level=level,
            log_format=fmt,
            retention_days=retention_days(env),
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
    if not is_number(count_text) or int(count_text) < 1:
        raise ConfigError("SHARD_COUNT must be a whole number of shards, 1 or more.")
    count = int(count_text)
    try:
        ids = parse_shard_ids(ids_text, count) if ids_text else tuple(range(count))
        return Shards(count, ids)
    except ValueError as exc:
        raise ConfigError(str(exc)) from None


def logging_settings(env: Mapping[str, str]) -> tuple[str, str]:
    """``LOG_LEVEL`` (default INFO) and ``LOG_FORMAT`` (text or json; default text)."""
    level = env.get("LOG_LEVEL", "").strip().upper() or "INFO"
    if level not in logging.getLevelNamesMapping():
        raise ConfigError(f"LOG_LEVEL {level!r}: use DEBUG, INFO, WARNING, ERROR or CRITICAL.")
    fmt = env.get("LOG_FORMAT", "").strip().lower() or "text"
    if fmt not in LOG_FORMATS:
        raise ConfigError(f"LOG_FORMAT {fmt!r}: use text or json.")
    return level, fmt


def http_address(env: Mapping[str, str]) -> tuple[str, int] | None:
    """``PARLOUR_HTTP=host:port`` as (host, port); None when unset (the server stays off)."""
    value = env.get("PARLOUR_HTTP", "").strip()
    if not value:
        return None
    try:
        return parse_address(value)
    except ValueError as exc:
        raise ConfigError(f"PARLOUR_HTTP: {exc}") from None


def parse_address(value: str) -> tuple[str, int]:
    """``host:port`` (``[::1]:9100`` for IPv6) as (host, port).

    >>> parse_address("127.0.0.1:9100"), parse_address("[::]:80")
    (('127.0.0.1', 9100), ('::', 80))
    """
    host, sep, port = value.strip().rpartition(":")
    if not sep or not host or not is_number(port) or not 0 <= int(port) <= 65535:
        raise ValueError(f"{value!r} is not host:port (for example 127.0.0.1:9100)")
    return host.removeprefix("[").removesuffix("]"), int(port)


def retention_days(env: Mapping[str, str]) -> float:
    """``PARLOUR_RETENTION_DAYS``: days a departed server's data is kept (0 purges at once)."""
    raw = env.get("PARLOUR_RETENTION_DAYS", "").strip()
    if not raw:
        return DEFAULT_RETENTION_DAYS
    try:
        days = float(raw)
    except ValueError:
        days = -1.0
    if not 0 <= days < float("inf"):
        raise ConfigError(f"PARLOUR_RETENTION_DAYS {raw!r}: use a number of days, 0 or more.")
    return days

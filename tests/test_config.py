"""Start-up configuration: the token, the database URL, the development guild."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.config import Config, ConfigError

ROOT = Path(__file__).resolve().parent.parent


def test_running_without_a_token_exits_2_with_one_clear_line():
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    done = subprocess.run(
        [sys.executable, "-m", "bot"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "DISCORD_TOKEN" in lines[0] and "--playground" in lines[0]


def test_database_url_defaults_to_a_relative_sqlite_file():
    config = Config.from_env({"DISCORD_TOKEN": "t"})
    assert str(config.database) == "data/parlour.db"
    config = Config.from_env({"DISCORD_TOKEN": "t", "DATABASE_URL": "sqlite:////srv/p.db"})
    assert str(config.database) == "/srv/p.db"


def test_bad_settings_are_explained():
    with pytest.raises(ConfigError, match="DATABASE_URL"):
        Config.from_env({"DISCORD_TOKEN": "t", "DATABASE_URL": "mysql://x"})
    with pytest.raises(ConfigError, match="DISCORD_GUILD_ID"):
        Config.from_env({"DISCORD_TOKEN": "t", "DISCORD_GUILD_ID": "abc"})
    assert Config.from_env({"DISCORD_TOKEN": "t", "DISCORD_GUILD_ID": "42"}).guild_id == 42

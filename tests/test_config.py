"""Start-up configuration: the token, the database URL, the development guild."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.config import Config, ConfigError
from bot.shards import Shards, owns_guild, shard_of

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


def test_a_postgres_url_is_kept_whole_and_the_pool_is_sized_by_its_setting():
    url = "postgresql://parlour:secret@db:5432/parlour"
    config = Config.from_env({"DISCORD_TOKEN": "t", "DATABASE_URL": url})
    assert config.database == url and config.pool_size == 10
    config = Config.from_env({"DISCORD_TOKEN": "t", "DATABASE_URL": url, "DATABASE_POOL_SIZE": "4"})
    assert config.pool_size == 4
    for bad in ("0", "many"):
        with pytest.raises(ConfigError, match="DATABASE_POOL_SIZE"):
            Config.from_env({"DISCORD_TOKEN": "t", "DATABASE_POOL_SIZE": bad})


def test_an_unknown_database_scheme_is_one_line_naming_both_that_work():
    with pytest.raises(ConfigError) as caught:
        Config.from_env({"DISCORD_TOKEN": "t", "DATABASE_URL": "mysql://x/y"})
    message = str(caught.value)
    assert "\n" not in message and "sqlite:///" in message and "postgresql://" in message


def shards(**env):
    return Config.from_env({"DISCORD_TOKEN": "t", **env}).shards


def test_no_shard_settings_mean_one_unsharded_process():
    assert shards() is None
    assert owns_guild(None, 123456789)


def test_shard_ids_take_ranges_and_lists():
    assert shards(SHARD_COUNT="4", SHARD_IDS="0-3") == Shards(4, (0, 1, 2, 3))
    assert shards(SHARD_COUNT="4", SHARD_IDS="0,2") == Shards(4, (0, 2))
    assert shards(SHARD_COUNT="8", SHARD_IDS="6-7, 0") == Shards(8, (0, 6, 7))
    assert shards(SHARD_COUNT="3") == Shards(3, (0, 1, 2))  # every shard in this process


@pytest.mark.parametrize(
    ("env", "says"),
    [
        ({"SHARD_IDS": "0"}, "SHARD_IDS needs SHARD_COUNT"),
        ({"SHARD_COUNT": "0"}, "SHARD_COUNT must be"),
        ({"SHARD_COUNT": "two"}, "SHARD_COUNT must be"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "0-2"}, r"\[2\] out of range 0-1"),
        ({"SHARD_COUNT": "4", "SHARD_IDS": "3-1"}, "runs backwards"),
        ({"SHARD_COUNT": "4", "SHARD_IDS": "a,b"}, "like 0-3 or 0,2"),
        ({"SHARD_COUNT": "²"}, "SHARD_COUNT must be"),  # digits are ASCII digits only
        ({"SHARD_COUNT": "４", "SHARD_IDS": "0"}, "SHARD_COUNT must be"),
        ({"SHARD_COUNT": "4", "SHARD_IDS": "0-²"}, "like 0-3 or 0,2"),
    ],
)
def test_bad_shard_settings_are_explained(env, says):
    with pytest.raises(ConfigError, match=says):
        shards(**env)


def test_a_process_owns_the_guilds_of_its_shards_and_only_shard_0_syncs_commands():
    guild = 41771983423143937  # (guild >> 22) % 2 == 0
    first, second = Shards(2, (0,)), Shards(2, (1,))
    assert shard_of(guild, 2) == 0 and shard_of(guild + (1 << 22), 2) == 1
    assert owns_guild(first, guild) and not owns_guild(second, guild)
    assert owns_guild(second, guild + (1 << 22)) and not owns_guild(first, guild + (1 << 22))
    assert first.syncs_commands and not second.syncs_commands


@given(st.integers(0, 2**63 - 1), st.integers(1, 64))
def test_every_guild_is_owned_by_exactly_one_of_the_processes_that_split_the_shards(guild, count):
    processes = [Shards(count, tuple(range(count))[start::3]) for start in range(min(3, count))]
    assert sum(owns_guild(p, guild) for p in processes) == 1


def test_operator_settings_default_to_off_text_info_and_30_days():
    config = Config.from_env({"DISCORD_TOKEN": "t"})
    assert config.http is None
    assert (config.log_level, config.log_format) == ("INFO", "text")
    assert config.retention_days == 30


def test_operator_settings_are_read_from_the_environment():
    config = Config.from_env(
        {
            "DISCORD_TOKEN": "t",
            "PARLOUR_HTTP": "0.0.0.0:9100",
            "LOG_LEVEL": "debug",
            "LOG_FORMAT": "JSON",
            "PARLOUR_RETENTION_DAYS": "7.5",
        }
    )
    assert config.http == ("0.0.0.0", 9100)
    assert (config.log_level, config.log_format) == ("DEBUG", "json")
    assert config.retention_days == 7.5
    assert Config.from_env({"DISCORD_TOKEN": "t", "PARLOUR_HTTP": "[::1]:80"}).http == ("::1", 80)
    assert (
        Config.from_env({"DISCORD_TOKEN": "t", "PARLOUR_RETENTION_DAYS": "0"}).retention_days == 0
    )


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("PARLOUR_HTTP", "9100"),
        ("PARLOUR_HTTP", "localhost:http"),
        ("PARLOUR_HTTP", "127.0.0.1:70000"),
        ("PARLOUR_HTTP", "127.0.0.1:９１００"),
        ("DISCORD_GUILD_ID", "１２３"),
        ("DATABASE_POOL_SIZE", "²"),
        ("LOG_LEVEL", "LOUD"),
        ("LOG_FORMAT", "xml"),
        ("PARLOUR_RETENTION_DAYS", "-1"),
        ("PARLOUR_RETENTION_DAYS", "a month"),
        ("PARLOUR_RETENTION_DAYS", "inf"),
    ],
)
def test_bad_operator_settings_name_the_variable(name, value):
    with pytest.raises(ConfigError, match=name):
        Config.from_env({"DISCORD_TOKEN": "t", name: value})


def test_drawing_workers_default_by_cores_and_0_draws_in_threads():
    assert Config.from_env({"DISCORD_TOKEN": "t"}).draw_workers is None
    config = Config.from_env({"DISCORD_TOKEN": "t", "PARLOUR_DRAW_WORKERS": "0"})
    assert config.draw_workers == 0
    config = Config.from_env({"DISCORD_TOKEN": "t", "PARLOUR_DRAW_WORKERS": " 3 "})
    assert config.draw_workers == 3
    with pytest.raises(ConfigError, match="PARLOUR_DRAW_WORKERS"):
        Config.from_env({"DISCORD_TOKEN": "t", "PARLOUR_DRAW_WORKERS": "many"})

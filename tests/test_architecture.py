"""The layers import only downwards: games is pure, render and the table service know no
discord, and all SQL lives in storage."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


def files(package: str) -> list[Path]:
    return sorted((ROOT / package).rglob("*.py"))


@pytest.mark.parametrize("path", files("games"), ids=lambda p: str(p.relative_to(ROOT)))
def test_games_import_no_discord_pil_sqlite_or_asyncio(path):
    forbidden = {"discord", "PIL", "sqlite3", "aiosqlite", "asyncio", "bot", "render", "storage"}
    assert not imported_modules(path) & (forbidden | {"i18n", "babel"})


@pytest.mark.parametrize("path", files("i18n"), ids=lambda p: str(p.relative_to(ROOT)))
def test_i18n_sits_under_render_and_the_bot(path):
    # games below it (a refusal's phrase); render, bot and the playground above it
    assert not imported_modules(path) & {"discord", "PIL", "bot", "render", "storage", "playground"}


@pytest.mark.parametrize("path", files("render"), ids=lambda p: str(p.relative_to(ROOT)))
def test_render_imports_no_discord_or_storage(path):
    assert not imported_modules(path) & {"discord", "storage", "bot", "sqlite3", "aiosqlite"}


@pytest.mark.parametrize("path", files("bot/tables"), ids=lambda p: str(p.relative_to(ROOT)))
def test_table_service_imports_no_discord(path):
    assert "discord" not in imported_modules(path)


def test_sql_lives_only_in_storage():
    for package in ("bot", "games", "render"):
        for path in files(package):
            if "fakediscord" in path.parts:
                continue
            text = path.read_text(encoding="utf-8")
            assert "sqlite3" not in imported_modules(path), path
            for keyword in ("SELECT ", "INSERT INTO", "UPDATE game_tables"):
                assert keyword not in text, (path, keyword)

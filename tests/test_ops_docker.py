"""The image turns the operator's endpoint on and its health check asks it."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

from bot.config import http_address

ROOT = Path(__file__).resolve().parent.parent


def test_the_image_serves_healthz_and_its_healthcheck_asks_it():
    dockerfile = (ROOT / "Dockerfile").read_text()
    (address,) = re.findall(r"PARLOUR_HTTP=(\S+)", dockerfile)
    host, port = http_address({"PARLOUR_HTTP": address})
    assert host == "0.0.0.0" and re.search(rf"^EXPOSE {port}$", dockerfile, re.M)
    (check,) = re.findall(r'HEALTHCHECK .*?CMD \["python", "-m", "([\w.]+)"\]', dockerfile, re.S)
    assert importlib.util.find_spec(check) is not None
    compose = (ROOT / "compose.yaml").read_text()
    assert f'"python", "-m", "{check}"' in compose and f"PARLOUR_HTTP: {address}" in compose


def test_the_image_ships_the_checkers_data_and_builds_the_endgame_database():
    """The tuned weights and the opening book are package data, and the image builds the
    endgame database where the computer players look for it."""
    dockerfile = (ROOT / "Dockerfile").read_text()
    (where,) = re.findall(r"PARLOUR_EGDB_DIR=(\S+)", dockerfile)
    assert where.startswith("/") and "RUN python -m games.checkers.egdb build" in dockerfile
    pyproject = (ROOT / "pyproject.toml").read_text()
    (data,) = re.findall(r'^"\*" = \[(.*)\]$', pyproject, re.M)
    for name in ("games/checkers/weights.json", "games/checkers/book.txt"):
        assert (ROOT / name).exists() and f'"*{Path(name).suffix}"' in data


def test_the_image_and_ci_install_the_font_for_japanese_pictures():
    """Noto Sans CJK, which the pictures draw Japanese in, comes from one Debian package that
    the image, CI and the README all name."""
    from render.base import WIDE_FONT

    for name in ("Dockerfile", ".ci/run", "README.md"):
        assert "fonts-noto-cjk" in (ROOT / name).read_text(), name
    assert WIDE_FONT.name.startswith("NotoSansCJK")

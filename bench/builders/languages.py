"""Draw the pictures of ``docs/languages/``: one of each kind in each of the six languages.

    python -m bench.builders.languages                  # into docs/languages
    python -m bench.builders.languages --out /somewhere/else

The states are the legibility test's (``tests/test_render_legibility.py``), long names
included, so the docs show what the test measures: a Kabu table, a Hearts table, a checkers
replay's last frame (the result caption) and the ``/stats`` chart (rating over time above the
games played and won).
"""

from __future__ import annotations

import argparse
import importlib
import sys
from pathlib import Path

from i18n import LANGUAGES

ROOT = Path(__file__).resolve().parents[2]
# group of the legibility test's pictures in every language -> which of them, and its file
SHOWN = {
    "kabu": ("pick", "kabu"),
    "hearts": ("table-play-0", "hearts"),
    "replay": ("checkers:frame-5", "replay"),
    "chart": ("stats", "stats"),
}


def draw_all(out: Path) -> list[Path]:
    """Every picture of :data:`SHOWN` in every language, saved as PNG under ``out``."""
    sys.path.insert(0, str(ROOT / "tests"))
    states = importlib.import_module("test_render_legibility")  # the test's own states

    out.mkdir(parents=True, exist_ok=True)
    written = []
    for language in LANGUAGES:
        for group, (case, stem) in SHOWN.items():
            draw = states.IN_EVERY_LANGUAGE[group](language.code)[case]
            path = out / f"{stem}-{language.code}.png"
            draw().convert("RGB").save(path, optimize=True)
            written.append(path)
    return written


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "languages")
    args = parser.parse_args(argv)
    for path in draw_all(args.out):
        print(path)


if __name__ == "__main__":
    main()

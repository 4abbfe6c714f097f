"""Draw one week of daily puzzles as pictures, for the docs and for a look before they go out.

    python -m bench.builders.daily_week                       # the week starting today (UTC)
    python -m bench.builders.daily_week --start 2026-12-07 --out docs/daily-week

Each day gets one PNG with its three puzzles side by side (Quarters, Checkers, Quatorze, as the
player first sees them) and a line in ``README.md`` beside them: the Checkers distance to the
win and the Quarters piles. The answers are not written anywhere.
"""

from __future__ import annotations

import argparse
import io
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

from PIL import Image

from games.checkers.state import State as CheckersState
from games.daily import puzzles_for, verify
from games.quarters.state import State as QuartersState
from games.quatorze.state import State as QuatorzeState
from render.checkers import render_checkers
from render.quarters import render_quarters
from render.quatorze import render_quatorze

HEIGHT = 320  # each puzzle's picture is scaled to this height
GAP = 16
BACKGROUND = (49, 51, 56)  # Discord's dark theme


def day_sheet(day: date) -> Image.Image:
    """The day's three puzzles side by side."""
    puzzles = puzzles_for(day)
    verify(puzzles)
    pictures = [
        render_quarters(QuartersState.new(puzzles.quarters.piles).view()),
        render_checkers(CheckersState.new(puzzles.checkers.fen).view(None)),
        render_quatorze(QuatorzeState.from_deck(list(puzzles.quatorze.deck)).view(0)),
    ]
    images = []
    for picture in pictures:
        image = Image.open(io.BytesIO(picture.png)).convert("RGB")
        width = round(image.width * HEIGHT / image.height)
        images.append(image.resize((width, HEIGHT), Image.Resampling.LANCZOS))
    sheet = Image.new(
        "RGB",
        (sum(i.width for i in images) + GAP * (len(images) + 1), HEIGHT + 2 * GAP),
        BACKGROUND,
    )
    x = GAP
    for image in images:
        sheet.paste(image, (x, GAP))
        x += image.width + GAP
    return sheet


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    today = datetime.now(UTC).date()
    parser.add_argument("--start", type=date.fromisoformat, default=today, help="first day")
    parser.add_argument("--days", type=int, default=7)
    parser.add_argument("--out", type=Path, default=Path("docs/daily-week"))
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    lines = [
        "# One week of daily puzzles",
        "",
        f"Drawn with `python -m bench.builders.daily_week --start {args.start.isoformat()} "
        f"--days {args.days} --out {args.out.as_posix()}`: Quarters, Checkers (Black to move "
        "and win) and Quatorze, as the player first sees them.",
        "",
    ]
    for n in range(args.days):
        day = args.start + timedelta(n)
        name = f"{day.isoformat()}.png"
        sheet = day_sheet(day).quantize(256, Image.Quantize.MEDIANCUT)  # a smaller file
        sheet.save(args.out / name, optimize=True)
        puzzles = puzzles_for(day)
        lines += [
            f"## {day.strftime('%A')} {day.isoformat()}",
            "",
            f"Quarters piles {', '.join(map(str, puzzles.quarters.piles))}; Checkers win in "
            f"{puzzles.checkers.distance} plies (`{puzzles.checkers.fen}`).",
            "",
            f"![The daily puzzles of {day.isoformat()}]({name})",
            "",
        ]
        print(f"{day.isoformat()}: {args.out / name}")
    (args.out / "README.md").write_text("\n".join(lines), encoding="utf-8")


if __name__ == "__main__":
    main()

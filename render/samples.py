"""Example replays and charts from fixed seeds, for the docs: ``python -m render.samples DIR``.

Each picture is written with its alt text beside it (``NAME.txt``), so the words can be checked
against the picture.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

from games.checkers import State as CheckersState
from games.hearts import State as HeartsState
from render.charts import hearts_totals_chart, scoreboard_chart, stats_chart
from render.hearts_replay import replay_hearts_hand
from render.replay import replay_checkers, replay_quarters

NAMES = ("Ann", "Bob", "Cy", "Di")
DAY = 86400.0


def sample_checkers_moves(plies: int = 40, seed: int = 7) -> list[str]:
    """A game of random legal moves from a fixed seed (captures are compulsory anyway)."""
    rng = random.Random(seed)
    state = CheckersState.new()
    moves: list[str] = []
    while len(moves) < plies and not state.is_over():
        move = rng.choice(state.view(None)["legal_moves"])
        state.apply(state.to_act()[0], move)
        moves.append(move)
    return moves


def sample_hearts(seed: int = 5) -> dict:
    """A finished Hearts game of random legal play from a fixed seed, as stored."""
    rng = random.Random(seed)
    state = HeartsState.new(seed=seed)
    while not state.is_over():
        seat = state.to_act()[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    return state.to_dict()


def main(folder: str) -> None:
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    rng = random.Random(1)
    series = {}
    for server, games in (("Parlour HQ", 30), ("Board gamers", 9)):
        rating, points = 1200.0, []
        for i in range(games):
            rating += rng.uniform(-16, 18)
            points.append((1.767e9 + i * DAY * (60 / games), rating))
        series[server] = points
    hearts = sample_hearts()
    pictures: dict[str, Any] = {
        "replay-checkers.gif": replay_checkers(sample_checkers_moves(), names=NAMES[:2]),
        "replay-quarters.gif": replay_quarters(
            [3, 4, 5], ["3-2", "1-3", "2-4", "3-2"], names=NAMES[:2]
        ),
        "replay-hearts-hand.gif": replay_hearts_hand(hearts, 2, NAMES),
        "stats.png": stats_chart(
            "Ann",
            series,
            [
                ("Quarters", 12, 7),
                ("Checkers", 39, 21),
                ("Kabu", 5, 1),
                ("Quatorze", 9, 2),
                ("Hearts", 4, 1),
            ],
        ),
        "scoreboard.png": scoreboard_chart(
            "Checkers",
            [
                (n, 1290 - 11.5 * i)
                for i, n in enumerate(
                    ("Ann", "Bob", "Cy", "Di", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo")
                )
            ],
            "rating",
        ),
        "hearts-totals.png": hearts_totals_chart(
            hearts["history"] and [h["scores"] for h in hearts["history"]], NAMES
        ),
    }
    for name, picture in pictures.items():
        data = getattr(picture, "data", None) or picture.png
        (out / name).write_bytes(data)
        (out / f"{name}.txt").write_text(picture.description + "\n", encoding="utf-8")
        print(f"{out / name}: {len(data) // 1024} KiB")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "docs/pictures")

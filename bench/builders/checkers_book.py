"""Build the checkers opening book from our own searches.

    nice -n 10 python -m bench.builders.checkers_book --workers 2   # every position up to ply 3
    nice -n 10 python -m bench.builders.checkers_book --nodes 40000 --plies 3

Every position reachable in up to ``--plies`` plies from the start (every 3-move opening, so
every ballot) gets a line: each legal move is searched to a fixed node count, and the best move
and any within ``--margin`` of it (hundredths of a man) become the book's replies, best first.
The result replaces ``games/checkers/book.txt``; the search effort is written in its header.
"""

from __future__ import annotations

import argparse
import time
from concurrent.futures import ProcessPoolExecutor
from functools import partial
from pathlib import Path

from games.checkers.board import Board
from games.checkers.search import think

BOOK = Path(__file__).resolve().parent.parent / "games" / "checkers" / "book.txt"
NODES = 4_000_000  # a move's search: about half a second of the compiled search


def positions(plies: int) -> list[list[str]]:
    """Move lists reaching every distinct position of up to ``plies`` plies (first path found)."""
    seen: set[tuple[int, int, int, int]] = set()
    frontier: list[list[str]] = [[]]
    out: list[list[str]] = []
    for depth in range(plies + 1):
        nxt = []
        for line in frontier:
            board = Board()
            for text in line:
                board.push_text(text)
            if board._key() in seen:
                continue
            seen.add(board._key())
            out.append(line)
            if depth < plies:
                nxt += [[*line, str(m)] for m in board.legal_moves]
        frontier = nxt
    return out


def rate(line: list[str], nodes: int) -> list[tuple[int, str]]:
    """(score for the side to move, move) for every legal move, best first."""
    board = Board()
    for text in line:
        board.push_text(text)
    scored = []
    for move in board.legal_moves:
        board.push(move)
        result = think(board, limit=nodes)
        board.pop()
        scored.append((-result.score, str(move)))
    return sorted(scored, key=lambda s: (-s[0], s[1]))


def _entry(line: list[str], scored: list[tuple[int, str]], margin: int) -> str:
    """A book line: the moves, the best reply and those within ``margin`` of it, its score."""
    best = scored[0][0]
    replies = [m for s, m in scored if s >= best - margin]
    return f"{' '.join(line)} : {' '.join(replies)}  # {best:+d}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--plies", type=int, default=3)
    parser.add_argument("--nodes", type=int, default=NODES, help="search nodes per move")
    parser.add_argument("--margin", type=int, default=5)
    parser.add_argument("--workers", type=int, default=1, help="processes searching at once")
    parser.add_argument("--out", type=Path, default=BOOK)
    args = parser.parse_args()
    start = time.perf_counter()
    lines = positions(args.plies)
    body = []
    with ProcessPoolExecutor(args.workers) as pool:
        rated = pool.map(partial(rate, nodes=args.nodes), lines)
        for i, (line, scored) in enumerate(zip(lines, rated, strict=True), 1):
            body.append(_entry(line, scored, args.margin))
            if i % 25 == 0:
                seconds = time.perf_counter() - start
                print(f"{i}/{len(lines)} positions, {seconds:.0f} s", flush=True)
    header = (
        "# Parlour checkers opening book, built by bench/builders/checkers_book.py:\n"
        f"# every position up to ply {args.plies}, each move searched {args.nodes} nodes,\n"
        f"# replies within {args.margin} of the best. Format: moves from the start : replies"
        "  # best score for the side to move\n"
    )
    args.out.write_text(header + "\n".join(body) + "\n")
    print(f"{len(lines)} positions in {time.perf_counter() - start:.0f} s -> {args.out.name}")


if __name__ == "__main__":
    main()

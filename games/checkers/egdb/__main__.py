"""``python -m games.checkers.egdb build``: solve the endgame database and cache it on disk."""

from __future__ import annotations

import argparse
import sys
import time

from games.checkers import egdb
from games.checkers.egdb import DEFAULT_PIECES, MAX_PIECES, Egdb, build, cache_path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m games.checkers.egdb",
        description=egdb.__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub = parser.add_subparsers(dest="command", required=True)
    b = sub.add_parser("build", help="solve and cache the table")
    b.add_argument(
        "--pieces",
        type=int,
        default=DEFAULT_PIECES,
        choices=range(2, MAX_PIECES + 1),
        help=f"most pieces (default {DEFAULT_PIECES}; {egdb.FALLBACK_PIECES} without the C solver)",
    )
    b.add_argument("--force", action="store_true", help="rebuild even if cached")
    v = sub.add_parser("verify", help="check a sample of the cached table against minimax")
    v.add_argument("--pieces", type=int, choices=range(2, MAX_PIECES + 1), help="the table")
    v.add_argument("--samples", type=int, default=300, help="positions a piece count")
    v.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    if args.command == "verify":
        return verify(args.pieces, args.samples, args.seed)
    path = cache_path(args.pieces)
    if path.exists() and not args.force:
        try:
            Egdb.load(path)
        except (OSError, ValueError) as e:
            print(f"rebuilding: {e}")
        else:
            print(f"already built: {path} ({path.stat().st_size:,} bytes)")
            return 0
    start = time.perf_counter()
    solver = "C" if egdb._egdbcore is not None else "Python"
    db = build(args.pieces, log=True)
    db.save(path)
    print(
        f"{len(db):,} slots up to {args.pieces} pieces in {time.perf_counter() - start:.1f} s "
        f"({solver} solver), {path.stat().st_size:,} bytes: {path}"
    )
    return 0


def verify(pieces: int | None, samples: int, seed: int) -> int:
    from games.checkers.egdb.verify import sample

    db = egdb.load(pieces)
    if db is None:
        print("no table on disk: run `python -m games.checkers.egdb build` first")
        return 1
    for n in range(2, db.max_pieces + 1):
        start = time.perf_counter()
        tally = sample(db, n, samples, seed)
        print(
            f"{n} pieces: {samples} positions agree with minimax ({tally.exact} exact wins and "
            f"losses; {tally.draws} draws and {tally.deep} longer results unsettled at 6 plies), "
            f"{time.perf_counter() - start:.1f} s",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())

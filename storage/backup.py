"""``python -m storage.backup DEST``: a consistent copy of the SQLite database, taken online.

It uses SQLite's online backup API, which copies the database as one read transaction sees it,
so the copy is consistent even while the bot keeps writing (in WAL mode the bot is not held
up). The copy is checked (``PRAGMA integrity_check``), switched to a single self-contained
file (rollback journal), and renamed into place only when complete.

DEST is a file, or a directory that gets ``parlour-<UTC time>.db`` (a DEST ending in ``/`` is a
directory, created when missing). The database is the one
``DATABASE_URL`` names (as for the bot), or ``--database``. For PostgreSQL use ``pg_dump``.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import sqlite3
import sys
from pathlib import Path

from storage.database import database_path

DEFAULT_DATABASE_URL = "sqlite:///data/parlour.db"


class BackupError(Exception):
    """The backup could not be made; the message says why."""


def backup_name(now: dt.datetime | None = None) -> str:
    """The file name of a backup taken at ``now`` (UTC).

    >>> backup_name(dt.datetime(2026, 12, 1, 9, 30, 5, tzinfo=dt.UTC))
    'parlour-20261201T093005Z.db'
    """
    now = dt.datetime.now(dt.UTC) if now is None else now
    return f"parlour-{now:%Y%m%dT%H%M%SZ}.db"


def backup(source: str | Path, dest: str | Path, *, force: bool = False) -> Path:
    """Copy the SQLite database ``source`` to ``dest`` (a file or a directory); return the file.

    Raises :class:`BackupError` when the source is missing, the destination exists (unless
    ``force``), or the copy fails its integrity check.
    """
    as_directory = str(dest).endswith(("/", os.sep))  # "backups/" is a directory, made if need be
    source, dest = Path(source), Path(dest)
    if not source.is_file():
        raise BackupError(f"no database at {source}")
    if as_directory:
        dest.mkdir(parents=True, exist_ok=True)
    if dest.is_dir():
        dest = dest / backup_name()
    if dest.exists() and not force:
        raise BackupError(f"{dest} exists; pass --force to replace it")
    partial = dest.with_name(f".{dest.name}.partial")
    partial.unlink(missing_ok=True)
    # Read-only: the backup never writes the live database (nor creates one by mistake).
    src = sqlite3.connect(f"file:{source}?mode=ro", uri=True)
    try:
        dst = sqlite3.connect(partial)
        try:
            src.backup(dst)  # all pages in one step: one consistent snapshot
            dst.execute("PRAGMA journal_mode=DELETE")
            (verdict,) = dst.execute("PRAGMA integrity_check").fetchone()
            if verdict != "ok":
                raise BackupError(f"the copy failed its integrity check: {verdict}")
        finally:
            dst.close()
    except BaseException:
        partial.unlink(missing_ok=True)
        raise
    finally:
        src.close()
    os.replace(partial, dest)
    return dest


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m storage.backup",
        description="Copy Parlour's SQLite database while the bot runs (SQLite's backup API).",
    )
    parser.add_argument(
        "dest", help="a file, or a directory to put parlour-<time>.db in (ending in / : made)"
    )
    parser.add_argument(
        "--database",
        help="the database URL (default: $DATABASE_URL, else " + DEFAULT_DATABASE_URL + ")",
    )
    parser.add_argument("--force", action="store_true", help="replace DEST if it exists")
    args = parser.parse_args(argv)
    url = args.database or os.environ.get("DATABASE_URL") or DEFAULT_DATABASE_URL
    if url.startswith(("postgresql:", "postgres:")):
        print(
            "error: this is a PostgreSQL database: back it up with pg_dump (README, Data)",
            file=sys.stderr,
        )
        return 2
    try:
        done = backup(database_path(url), args.dest, force=args.force)
    except (BackupError, ValueError, sqlite3.Error) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    print(done)
    return 0


if __name__ == "__main__":
    sys.exit(main())

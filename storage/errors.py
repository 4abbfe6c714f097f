"""The store is away: one typed exception for every way the database can stop answering.

A PostgreSQL server restarting, a connection terminated under a query, a server refusing
connections, a SQLite file on a full disk or made read-only: the repository raises
:class:`StoreUnavailable` for all of them, so callers tell "try again in a moment" from a
defect. Everything else (a constraint violated, bad SQL) passes through unchanged.
"""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Iterator

import asyncpg

# SQLite's primary result codes that mean the file cannot be written or read just now.
_SQLITE_BUSY = 5
_SQLITE_READONLY = 8
_SQLITE_IOERR = 10
_SQLITE_FULL = 13
_SQLITE_CANTOPEN = 14
_SQLITE_AWAY = {_SQLITE_BUSY, _SQLITE_READONLY, _SQLITE_IOERR, _SQLITE_FULL, _SQLITE_CANTOPEN}

# asyncpg's errors for a connection lost or refused (SQLSTATE classes 08 and 57P).
_POSTGRES_AWAY: tuple[type[BaseException], ...] = (
    asyncpg.PostgresConnectionError,
    asyncpg.ConnectionDoesNotExistError,
    asyncpg.AdminShutdownError,
    asyncpg.CrashShutdownError,
    asyncpg.CannotConnectNowError,
)


class StoreUnavailable(Exception):
    """The database does not answer just now (restarting, unreachable, full or read-only).

    Nothing was acknowledged: a transaction that raised this either did not commit or, when
    the connection dropped during its commit, left a new version that a repeated move is
    refused against (saves are version-checked), so retrying never applies a move twice.
    """


def sqlite_away(exc: BaseException) -> bool:
    """Whether a SQLite error means the file is out of reach (full, read-only, locked, I/O).

    >>> sqlite_away(sqlite3.OperationalError("database or disk is full"))
    True
    >>> sqlite_away(sqlite3.OperationalError("no such table: t"))
    False
    """
    if not isinstance(exc, sqlite3.OperationalError):
        return False
    code = getattr(exc, "sqlite_errorcode", None)
    if code is not None:
        return code & 0xFF in _SQLITE_AWAY
    text = str(exc)
    return any(
        words in text
        for words in ("disk is full", "readonly database", "disk I/O error", "unable to open")
    )


def postgres_away(exc: BaseException) -> bool:
    """Whether an error from asyncpg (or the socket under it) means the server is out of reach.

    >>> postgres_away(ConnectionRefusedError(111, "Connection refused"))
    True
    >>> postgres_away(asyncpg.UniqueViolationError("duplicate key"))
    False
    """
    if isinstance(exc, (*_POSTGRES_AWAY, OSError, TimeoutError)):
        return True
    return isinstance(exc, asyncpg.InterfaceError) and "connection is closed" in str(exc)


@contextlib.contextmanager
def translated(dialect: str) -> Iterator[None]:
    """Raise :class:`StoreUnavailable` for the back-end's "away" errors met inside."""
    away = sqlite_away if dialect == "sqlite" else postgres_away
    try:
        yield
    except StoreUnavailable:
        raise
    except Exception as exc:
        if not away(exc):
            raise
        raise StoreUnavailable(f"{type(exc).__name__}: {exc}") from exc

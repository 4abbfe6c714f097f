"""The PostgreSQL test server: whether it answers, and one fresh schema per test.

``PARLOUR_TEST_POSTGRES`` names the server (default: the local one, user ``postgres``, database
``test``). Locally the PostgreSQL leg is skipped with a one-line reason when no server answers;
with ``CI=true`` an unreachable server fails the run instead.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import uuid
from collections.abc import AsyncIterator
from urllib.parse import urlencode

import asyncpg
import pytest

SERVER = os.environ.get("PARLOUR_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/test")
_reachable: str | None = None  # "" when reachable, else why not


async def why_unreachable() -> str:
    """Empty when the test server answers; otherwise the reason (checked once per run)."""
    global _reachable
    if _reachable is None:
        try:
            conn = await asyncio.wait_for(asyncpg.connect(SERVER), timeout=5)
        except (OSError, TimeoutError, asyncpg.PostgresError) as exc:
            _reachable = f"{type(exc).__name__}: {exc}"
        else:
            await conn.close()
            _reachable = ""
    return _reachable


async def require_server() -> None:
    """Skip the test (fail it under CI) when the PostgreSQL test server does not answer."""
    reason = await why_unreachable()
    if not reason:
        return
    message = f"PostgreSQL leg: no server at {SERVER} ({reason})"
    if os.environ.get("CI") == "true":
        pytest.fail(message + "; CI requires it", pytrace=False)
    pytest.skip(message)


@contextlib.asynccontextmanager
async def fresh_schema() -> AsyncIterator[str]:
    """A URL whose tables live in a new, empty schema, dropped afterwards."""
    await require_server()
    schema = f"test_{uuid.uuid4().hex[:16]}"
    conn = await asyncpg.connect(SERVER)
    try:
        await conn.execute(f"CREATE SCHEMA {schema}")
        sep = "&" if "?" in SERVER else "?"
        yield f"{SERVER}{sep}{urlencode({'search_path': schema})}"
    finally:
        await conn.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")
        await conn.close()

"""Discord's rate limits, for the fake: per-route buckets, the global limit, 429s.

Off unless a test or the load benchmark turns them on (:meth:`FakeDiscord.enable_rate_limits`).
Like Discord:

- each request of a limited route counts against a bucket: the route's limit, per major
  parameter (the channel for channel messages, the interaction token for interaction webhooks);
- every answer of a limited route carries ``X-RateLimit-Limit``, ``-Remaining``, ``-Reset``,
  ``-Reset-After`` and ``-Bucket``, so a client can wait before it is told to;
- a request over a bucket is answered 429 with ``Retry-After`` and a JSON body with
  ``retry_after`` and ``global``, and ``X-RateLimit-Scope``;
- all requests together are limited per second (the global limit), except the interaction
  endpoints (callbacks and the interaction's webhook), which Discord exempts; interaction
  callbacks have no bucket either (one per interaction).

Windows are fixed: a bucket's window starts at its first request and lasts ``per`` seconds.
"""

from __future__ import annotations

import hashlib
import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class Limit:
    """``count`` requests per ``per`` seconds, per value of the route's major parameter."""

    count: int
    per: float
    major: str


# (method, route template) -> limit. Discord's own figures for a bot's message edits and posts
# in one channel (5 per 5 s) and for an interaction's webhook (5 per 2 s).
DISCORD_ROUTES: dict[tuple[str, str], Limit] = {
    ("POST", "/channels/{channel}/messages"): Limit(5, 5.0, "channel"),
    ("PATCH", "/channels/{channel}/messages/{mid}"): Limit(5, 5.0, "channel"),
    ("DELETE", "/channels/{channel}/messages/{mid}"): Limit(5, 1.0, "channel"),
    ("POST", "/webhooks/{app}/{token}"): Limit(5, 2.0, "token"),
    ("PATCH", "/webhooks/{app}/{token}/messages/{mid}"): Limit(5, 2.0, "token"),
    ("DELETE", "/webhooks/{app}/{token}/messages/{mid}"): Limit(5, 2.0, "token"),
}
GLOBAL_PER_SECOND = 50
EXEMPT_FROM_GLOBAL = ("/interactions/", "/webhooks/")


@dataclass(slots=True)
class Window:
    started: float
    used: int = 0


@dataclass(frozen=True, slots=True)
class Verdict:
    """What the fake answers: allowed or not, and the headers to add."""

    allowed: bool
    headers: dict[str, str]
    retry_after: float = 0.0
    scope: str = ""


@dataclass(slots=True)
class Hit:
    """One 429 the fake answered."""

    method: str
    path: str
    scope: str
    retry_after: float
    at: float


@dataclass
class RateLimits:
    """The buckets and what they refused (``hits``)."""

    routes: dict[tuple[str, str], Limit] = field(default_factory=lambda: dict(DISCORD_ROUTES))
    global_per_second: int | None = GLOBAL_PER_SECOND
    clock: Callable[[], float] = time.monotonic
    wall: Callable[[], float] = time.time
    hits: list[Hit] = field(default_factory=list)
    _windows: dict[tuple[str, str, str], Window] = field(default_factory=dict)
    _global: Window | None = None

    def _take(
        self, key: tuple[str, str, str] | None, limit: int, per: float
    ) -> tuple[bool, Window]:
        now = self.clock()
        window = self._global if key is None else self._windows.get(key)
        if window is None or now >= window.started + per:
            window = Window(now)
            if key is None:
                self._global = window
            else:
                self._windows[key] = window
        if window.used >= limit:
            return False, window
        window.used += 1
        return True, window

    def check(self, method: str, template: str, params: dict[str, str], path: str) -> Verdict:
        """Count one request of ``method template`` (with its path parameters)."""
        now = self.clock()
        if self.global_per_second and not path.startswith(EXEMPT_FROM_GLOBAL):
            ok, window = self._take(None, self.global_per_second, 1.0)
            if not ok:
                retry = max(0.001, window.started + 1.0 - now)
                return self._refuse(method, path, "global", retry, {"X-RateLimit-Global": "true"})
        limit = self.routes.get((method, template))
        if limit is None:
            return Verdict(True, {})
        major = params.get(limit.major, "")
        ok, window = self._take((method, template, major), limit.count, limit.per)
        reset_after = max(0.0, window.started + limit.per - now)
        headers = {
            "X-RateLimit-Limit": str(limit.count),
            "X-RateLimit-Remaining": str(max(0, limit.count - window.used)),
            "X-RateLimit-Reset": f"{self.wall() + reset_after:.3f}",
            "X-RateLimit-Reset-After": f"{reset_after:.3f}",
            "X-RateLimit-Bucket": hashlib.sha1(f"{method} {template}".encode()).hexdigest()[:16],
        }
        if ok:
            return Verdict(True, headers)
        return self._refuse(method, path, "user", max(0.001, reset_after), headers)

    def _refuse(
        self, method: str, path: str, scope: str, retry: float, headers: dict[str, str]
    ) -> Verdict:
        self.hits.append(Hit(method, path, scope, retry, self.clock()))
        headers = {
            **headers,
            "Retry-After": str(math.ceil(retry)),
            "X-RateLimit-Scope": scope,
            "Via": "1.1 google",  # discord.py takes a 429 without it for a Cloudflare ban
        }
        return Verdict(False, headers, retry, scope)

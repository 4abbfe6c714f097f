"""Prometheus metrics of the bot, and the small functions the bot calls to record events.

Every metric lives in :data:`REGISTRY` (with the process, platform and GC collectors), which
``GET /metrics`` serves. Labels stay bounded: a game, a level, an interaction kind, an outcome,
a repository operation or a shard number, never a member, server, channel or table id. Values
that do not look like a short code word are recorded as ``other``, so an id passed by mistake
cannot grow the series without bound.
"""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager

from prometheus_client import (
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    gc_collector,
    generate_latest,
    platform_collector,
    process_collector,
)

log = logging.getLogger("parlour.interactions")

REGISTRY = CollectorRegistry()
process_collector.ProcessCollector(registry=REGISTRY)
platform_collector.PlatformCollector(registry=REGISTRY)
gc_collector.GCCollector(registry=REGISTRY)

KINDS = ("command", "button", "select", "modal", "autocomplete")
OUTCOMES = ("applied", "refused", "unavailable", "error")
OTHER = "other"
_WORD = re.compile(r"^[a-z][a-z0-9_-]{0,23}$")

# Latency buckets in seconds: a click costs milliseconds; Discord wants an answer within 3 s.
_FAST = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 3.0, 5.0, 10.0)
_THINK = (0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 15.0, 30.0)
_QUERY = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0)
_LAG = (0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)

INTERACTIONS = Counter(
    "parlour_interactions",
    "Interactions handled, by game, kind and outcome (applied, refused, unavailable, error).",
    ("game", "kind", "outcome"),
    registry=REGISTRY,
)
FIRST_RESPONSE = Histogram(
    "parlour_first_response_seconds",
    "From receiving an interaction to Discord's first response (reply, edit or defer).",
    ("game",),
    buckets=_FAST,
    registry=REGISTRY,
)
BOARD_UPDATE = Histogram(
    "parlour_board_update_seconds",
    "From receiving an interaction to the table's board message showing the new state.",
    ("game",),
    buckets=_FAST,
    registry=REGISTRY,
)
COMPUTER_THINK = Histogram(
    "parlour_computer_think_seconds",
    "Time the computer took to choose a move, by game and level (queueing included).",
    ("game", "level"),
    buckets=_THINK,
    registry=REGISTRY,
)
OPEN_TABLES = Gauge(
    "parlour_open_tables",
    "Tables waiting for players or being played, by game.",
    ("game",),
    registry=REGISTRY,
)
DB_QUERY = Histogram(
    "parlour_db_query_seconds",
    "Time of a repository call (waiting for the connection included), by operation.",
    ("operation",),
    buckets=_QUERY,
    registry=REGISTRY,
)
GATEWAY_LATENCY = Gauge(
    "parlour_gateway_latency_seconds",
    "Discord gateway heartbeat latency, by shard.",
    ("shard",),
    registry=REGISTRY,
)
SHARD_CONNECTED = Gauge(
    "parlour_shard_connected",
    "1 when the shard's gateway connection is up, else 0.",
    ("shard",),
    registry=REGISTRY,
)
LOOP_LAG = Histogram(
    "parlour_event_loop_lag_seconds",
    "How late the event loop ran a periodic timer.",
    buckets=_LAG,
    registry=REGISTRY,
)
LOOP_LAG_LAST = Gauge(
    "parlour_event_loop_lag_last_seconds",
    "The latest measured event-loop lag.",
    registry=REGISTRY,
)
AI_QUEUE = Gauge(
    "parlour_ai_pool_queue_depth",
    "Computer decisions handed to the AI pool and not finished yet.",
    registry=REGISTRY,
)


def label(value: object) -> str:
    """``value`` as a bounded label: a short lowercase code word, else ``other``.

    >>> label("hearts"), label("Hearts"), label(123456789012345678), label(None)
    ('hearts', 'hearts', 'other', 'other')
    """
    text = str(value).lower() if value is not None else ""
    return text if _WORD.match(text) else OTHER


def _one_of(value: str, allowed: tuple[str, ...]) -> str:
    return value if value in allowed else OTHER


def record_interaction(
    *,
    game: str | None,
    kind: str,
    outcome: str,
    latency: float,
    guild: int | None,
    channel: int | None,
    table: int | None,
    action: str,
    first_response: float | None = None,
) -> None:
    """Count one interaction and write its INFO line (``first_response``, when known, goes to
    the line's fields as ``first_response_ms``).

    Ids go to the log line only, never to labels. Only the action's name is logged (the part
    before ``=``): its argument may be a hidden card, such as the three cards of a Hearts pass.
    """
    name = action.partition("=")[0]
    outcome = _one_of(outcome, OUTCOMES)
    INTERACTIONS.labels(label(game or "none"), _one_of(kind, KINDS), outcome).inc()
    log.info(
        "interaction guild=%s channel=%s table=%s action=%s outcome=%s latency_ms=%.1f",
        guild,
        channel,
        table,
        name,
        outcome,
        latency * 1000,
        extra={
            "guild": guild,
            "channel": channel,
            "table": table,
            "action": name,
            "outcome": outcome,
            "latency_ms": round(latency * 1000, 1),
            **(
                {"first_response_ms": round(first_response * 1000, 1)}
                if first_response is not None
                else {}
            ),
        },
    )


def observe_first_response(game: str | None, seconds: float) -> None:
    FIRST_RESPONSE.labels(label(game or "none")).observe(seconds)


def observe_board_update(game: str | None, seconds: float) -> None:
    BOARD_UPDATE.labels(label(game or "none")).observe(seconds)


def observe_computer_think(game: str, level: str, seconds: float) -> None:
    COMPUTER_THINK.labels(label(game), label(level)).observe(seconds)


def set_open_tables(counts: Mapping[str, int], games: Iterable[str] = ()) -> None:
    """Set the open-table gauge: ``counts`` by game; every game in ``games`` not counted is 0."""
    totals: dict[str, int] = {label(g): 0 for g in games}
    for game, count in counts.items():
        totals[label(game)] = totals.get(label(game), 0) + count
    for game, count in totals.items():
        OPEN_TABLES.labels(game).set(count)


def observe_query(operation: str, seconds: float) -> None:
    """Record one repository call; the shape of a hook ``storage`` can call without importing
    the bot (``Database(..., observe=observe_query)``)."""
    DB_QUERY.labels(label(operation)).observe(seconds)


@contextmanager
def timed_query(operation: str) -> Iterator[None]:
    """Time a repository call: ``with timed_query("save_table"): ...``."""
    start = time.perf_counter()
    try:
        yield
    finally:
        observe_query(operation, time.perf_counter() - start)


@contextmanager
def ai_task() -> Iterator[None]:
    """Around a computer decision handed to the pool: the queue-depth gauge counts it."""
    AI_QUEUE.inc()
    try:
        yield
    finally:
        AI_QUEUE.dec()


def set_shards(shards: Iterable[tuple[int, bool, float | None]]) -> None:
    """Record each shard's (id, connected, gateway latency in seconds or None)."""
    for shard_id, connected, latency in shards:
        SHARD_CONNECTED.labels(str(shard_id)).set(1 if connected else 0)
        if latency is not None and latency == latency and latency != float("inf"):
            GATEWAY_LATENCY.labels(str(shard_id)).set(latency)


def observe_loop_lag(seconds: float) -> None:
    LOOP_LAG.observe(seconds)
    LOOP_LAG_LAST.set(seconds)


def exposition() -> bytes:
    """The registry in the Prometheus text format."""
    return generate_latest(REGISTRY)

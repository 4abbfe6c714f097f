"""Logging set-up: JSON lines parse, and tokens never reach the output."""

from __future__ import annotations

import io
import json
import logging
from collections.abc import Iterator

import pytest

from bot.ops.logs import REDACTED, setup_logging

TOKEN = "MTA5ODc2NTQzMjEwOTg3NjU0.GaBcDe.aVeryLongHmacPartThatIsSecret_12345"
INTERACTION_TOKEN = "aW50ZXJhY3Rpb246MTIzNDU2Nzg5MDEyMzQ1Njc4OnNlY3JldHNlY3JldA"


@pytest.fixture
def output() -> Iterator[io.StringIO]:
    root = logging.getLogger()
    saved = (list(root.handlers), root.level)
    stream = io.StringIO()
    yield stream
    root.handlers[:] = saved[0]
    root.setLevel(saved[1])


def test_json_format_writes_one_object_per_line_with_the_extra_fields(output):
    setup_logging("INFO", "json", stream=output)
    log = logging.getLogger("parlour.test")
    log.info("interaction %s", "play", extra={"guild": 11, "table": 5, "latency_ms": 3.5})
    log.debug("not shown at INFO")
    try:
        raise ValueError("bad\nthing")
    except ValueError:
        log.exception("it failed")
    lines = output.getvalue().splitlines()
    assert len(lines) == 2
    first, second = map(json.loads, lines)
    assert first["message"] == "interaction play" and first["level"] == "INFO"
    assert first["logger"] == "parlour.test"
    assert (first["guild"], first["table"], first["latency_ms"]) == (11, 5, 3.5)
    assert first["time"].endswith("+00:00")
    assert second["level"] == "ERROR" and "ValueError: bad" in second["exc"]


def test_text_format_keeps_the_classic_line(output):
    setup_logging("warning", "text", stream=output)
    logging.getLogger("parlour.test").info("hidden")
    logging.getLogger("parlour.test").warning("shown")
    (line,) = output.getvalue().splitlines()
    assert line.endswith("WARNING parlour.test: shown")


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_tokens_never_reach_the_log(output, fmt):
    setup_logging("DEBUG", fmt, secrets=["s3cr3t-configured-token"], stream=output)
    log = logging.getLogger("parlour.http")
    log.debug("logging in using static token %s", "s3cr3t-configured-token")
    log.debug("headers: {'Authorization': 'Bot %s'}", TOKEN)
    log.debug("POST /api/v10/interactions/123456/%s/callback has returned 204", INTERACTION_TOKEN)
    log.debug("PATCH /api/v10/webhooks/98765/%s/messages/@original", INTERACTION_TOKEN)
    try:
        raise RuntimeError(f"login failed for {TOKEN}")
    except RuntimeError:
        log.exception("could not connect")
    text = output.getvalue()
    assert "s3cr3t-configured-token" not in text
    assert TOKEN not in text and INTERACTION_TOKEN not in text
    assert "/interactions/123456/" + REDACTED in text
    assert "/webhooks/98765/" + REDACTED in text
    assert text.count(REDACTED) == 5  # token, header, two paths, exception


def test_debug_is_for_parlours_loggers_not_the_libraries_payload_dumps(output):
    setup_logging("DEBUG", "json", stream=output)
    logging.getLogger("discord.gateway").debug("For Shard ID None: WebSocket Event: {...}")
    logging.getLogger("aiosqlite").debug("executing UPDATE game_tables SET state = ?")
    logging.getLogger("discord.client").info("logging in")
    logging.getLogger("parlour").debug("parlour detail")
    logging.getLogger("bot.tables.service").debug("service detail")
    assert [json.loads(line)["message"] for line in output.getvalue().splitlines()] == [
        "logging in",
        "parlour detail",
        "service detail",
    ]
    setup_logging("WARNING", "text", stream=output)
    assert logging.getLogger("discord").getEffectiveLevel() == logging.WARNING
    assert logging.getLogger("parlour").getEffectiveLevel() == logging.WARNING


def test_an_unknown_format_is_refused():
    with pytest.raises(ValueError, match="json"):
        setup_logging("INFO", "xml")

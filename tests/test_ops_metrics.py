"""Metric labels stay bounded; the interaction line carries ids but never an action's argument."""

from __future__ import annotations

import logging

from hypothesis import given
from hypothesis import strategies as st

from bot.ops import metrics


def value(name: str, **labels: str) -> float:
    return metrics.REGISTRY.get_sample_value(name, labels) or 0.0


@given(st.integers(min_value=0, max_value=2**64))
def test_an_id_never_becomes_a_label(snowflake):
    assert metrics.label(snowflake) == "other"
    assert metrics.label(str(snowflake)) == "other"


@given(st.text(max_size=60))
def test_every_label_is_a_short_code_word_or_other(text):
    result = metrics.label(text)
    assert result == "other" or (len(result) <= 24 and result[0].isalpha() and result.islower())


def test_unknown_kinds_and_outcomes_are_counted_as_other():
    before = value("parlour_interactions_total", game="kabu", kind="other", outcome="other")
    metrics.record_interaction(
        game="kabu",
        kind="telepathy",
        outcome="maybe",
        latency=0.001,
        guild=None,
        channel=None,
        table=None,
        action="draw",
    )
    after = value("parlour_interactions_total", game="kabu", kind="other", outcome="other")
    assert after == before + 1


def test_the_interaction_line_has_the_ids_and_the_action_name_only(caplog):
    with caplog.at_level(logging.INFO, logger="parlour.interactions"):
        metrics.record_interaction(
            game="hearts",
            kind="select",
            outcome="applied",
            latency=0.0125,
            guild=111,
            channel=222,
            table=333,
            action="pass=QS,KH,AD",
        )
    (record,) = caplog.records
    assert record.levelno == logging.INFO
    line = record.getMessage()
    assert line == (
        "interaction guild=111 channel=222 table=333 action=pass outcome=applied latency_ms=12.5"
    )
    assert "QS" not in line and "QS" not in str(vars(record))
    assert (record.guild, record.table, record.action, record.latency_ms) == (
        111,
        333,
        "pass",
        12.5,
    )


def test_the_ai_queue_gauge_counts_decisions_in_flight():
    start = value("parlour_ai_pool_queue_depth")
    with metrics.ai_task(), metrics.ai_task():
        assert value("parlour_ai_pool_queue_depth") == start + 2
    assert value("parlour_ai_pool_queue_depth") == start


def test_shard_latency_skips_a_shard_without_a_measure():
    metrics.set_shards([(7, True, 0.25), (8, False, float("nan"))])
    assert value("parlour_gateway_latency_seconds", shard="7") == 0.25
    assert value("parlour_shard_connected", shard="8") == 0
    assert (
        metrics.REGISTRY.get_sample_value("parlour_gateway_latency_seconds", {"shard": "8"}) is None
    )

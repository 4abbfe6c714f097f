"""PARLOUR_EXAMPLES_SCALE multiplies the property tests' example counts, and only that."""

from __future__ import annotations

import pytest
from example_counts import SCALE_ENV, examples


def test_without_the_setting_a_count_is_its_own(monkeypatch) -> None:
    monkeypatch.delenv(SCALE_ENV, raising=False)
    assert examples(15) == 15
    monkeypatch.setenv(SCALE_ENV, " ")
    assert examples(15) == 15


def test_the_setting_multiplies_every_count(monkeypatch) -> None:
    monkeypatch.setenv(SCALE_ENV, "10")
    assert [examples(n) for n in (3, 15, 300)] == [30, 150, 3000]


@pytest.mark.parametrize("bad", ["0", "-2", "1.5", "ten", "１０"])
def test_a_scale_that_is_no_whole_number_of_1_or_more_is_refused(monkeypatch, bad) -> None:
    monkeypatch.setenv(SCALE_ENV, bad)
    with pytest.raises(ValueError, match=SCALE_ENV):
        examples(15)

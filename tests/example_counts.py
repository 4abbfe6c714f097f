"""How many examples a property test tries, the fuzz suites' included.

Each test keeps a count small enough for the suite to stay cheap in CI. ``PARLOUR_EXAMPLES_SCALE``
multiplies every count, for a longer hunt by hand (a race in the end-to-end fuzz test showed
only at ten times its examples):

    PARLOUR_EXAMPLES_SCALE=10 .venv/bin/python -m pytest tests/test_fuzz_service.py
"""

from __future__ import annotations

import os

SCALE_ENV = "PARLOUR_EXAMPLES_SCALE"


def examples(count: int) -> int:
    """``count`` times the scale in ``PARLOUR_EXAMPLES_SCALE`` (1 when it is not set)."""
    raw = os.environ.get(SCALE_ENV, "").strip()
    if not raw:
        return count
    if not (raw.isascii() and raw.isdigit() and int(raw) > 0):
        raise ValueError(f"{SCALE_ENV} must be a whole number of 1 or more, not {raw!r}")
    return count * int(raw)

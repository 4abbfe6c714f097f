"""Seeds drawn from the date alone: the same on every machine and every Python version.

>>> seed_for(date(2026, 12, 7), "quarters") == seed_for(date(2026, 12, 7), "quarters")
True
>>> seed_for(date(2026, 12, 7), "quarters") != seed_for(date(2026, 12, 8), "quarters")
True
"""

from __future__ import annotations

import hashlib
from datetime import date

QUARTERS, CHECKERS, QUATORZE = "quarters", "checkers", "quatorze"  # the puzzles, by game kind
KINDS = (QUARTERS, CHECKERS, QUATORZE)


def seed_for(day: date, kind: str, attempt: int = 0) -> int:
    """A 64-bit seed for one puzzle of one day (``attempt`` for a later try of the same day)."""
    text = f"parlour-daily/{day.isoformat()}/{kind}/{attempt}".encode()
    return int.from_bytes(hashlib.sha256(text).digest()[:8], "big")

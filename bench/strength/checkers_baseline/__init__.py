"""The checkers expert as it stood before issue 16, frozen as the match bench's baseline.

A verbatim copy of ``games.checkers.ai`` and ``games.checkers.evaluation`` at that time; it
uses only the rules engine (``bitboard``, ``board``, ``state``), which stays the reference.
Do not improve it: it is the yardstick the new expert is measured against.
"""

from bench.strength.checkers_baseline.ai import choose

__all__ = ["choose"]

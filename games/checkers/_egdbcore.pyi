"""Types of the optional compiled endgame solver (``_egdbcore.c``)."""

from collections.abc import Sequence

def solve_group(table: bytearray, offsets: Sequence[int], keys: Sequence[int]) -> None: ...
def set_layout(
    offsets: Sequence[int], decode: list[tuple[int, int]], lost: tuple[int, int]
) -> None: ...
def probe(
    table: bytes | bytearray | memoryview,
    max_pieces: int,
    me: int,
    opp: int,
    kings: int,
    black: bool,
) -> tuple[int, int] | None: ...

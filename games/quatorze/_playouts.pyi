"""Types of the optional compiled playouts (``_playouts.c``)."""

from collections.abc import Sequence

def playouts(
    grid: bytes,
    unseen: bytes,
    moves: Sequence[tuple[int, int]],
    samples: int,
    seed: int,
    weights: tuple[int, int],
    node_limit: int,
) -> list[bytes]: ...
def rollout(
    grid: bytes, stock: bytes, seed: int, weights: tuple[int, int], node_limit: int
) -> bool: ...

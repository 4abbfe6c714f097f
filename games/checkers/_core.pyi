"""Type stub for the compiled checkers search core (``_core.c``); see ``search.py``."""

from collections.abc import Callable, Sequence

RawMove = tuple[int, int, int, tuple[int, ...]]
Probe = Callable[[int, int, int, bool], tuple[int, int] | None]

MAX_PLY: int
MATE: int
EGDB_WIN: int
DRAW_PLIES: int
NTERMS: int
NPATTERNS: int

def init(keys: Sequence[int], red_to_move: int) -> None: ...
def iterate(
    me: int,
    opp: int,
    kings: int,
    black: bool,
    path: Sequence[int],
    clock: int,
    weights: Sequence[int],
    max_depth: int,
    limit: int = -1,
    budget: float = -1.0,
    probe: Probe | None = None,
    egdb_pieces: int = 0,
    threat_plies: int = 1,
    lmr: bool = True,
    prune: bool = True,
    tt_bits: int = 21,
    keep_table: bool = False,
    soft: float = -1.0,
) -> tuple[RawMove, int, int, int, int]: ...
def root_scores(
    me: int,
    opp: int,
    kings: int,
    black: bool,
    path: Sequence[int],
    clock: int,
    weights: Sequence[int],
    max_depth: int,
    limit: int = -1,
    budget: float = -1.0,
    probe: Probe | None = None,
    egdb_pieces: int = 0,
    threat_plies: int = 1,
    lmr: bool = True,
    prune: bool = True,
    tt_bits: int = 21,
    keep_table: bool = False,
    soft: float = -1.0,
) -> tuple[list[tuple[int, RawMove]], int]: ...
def moves(me: int, opp: int, kings: int, black: bool) -> list[RawMove]: ...
def perft(me: int, opp: int, kings: int, black: bool, depth: int) -> int: ...
def evaluate(
    me: int, opp: int, kings: int, black: bool, weights: Sequence[int], steps: int = -1
) -> int: ...
def features(me: int, opp: int, kings: int, black: bool, steps: int = -1) -> list[int]: ...
def patterns(me: int, opp: int, black: bool) -> list[int]: ...

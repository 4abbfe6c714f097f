"""Endgame database: exact win/loss/draw and distance for every position with few pieces.

Built by the project's own retrograde-style solver (``python -m games.checkers.egdb build``)
and cached on disk outside the repository. Positions are stored with Black to move; a position
with Red to move is turned 180 degrees and its colours swapped first (square ``i`` becomes
``31 - i``), which halves the table. The 40-move rule is ignored, as endgame databases do.

A value is ``WIN``/``LOSS``/``DRAW`` for the side to move with the distance in plies to the end
of the game under best play (the winner hurries, the loser holds out).

>>> db = build(2)
>>> db.probe(1, 1 << 31, 1 | 1 << 31, True)  # a king on 1 against a king on 32: drawn
(0, 0)
"""

from __future__ import annotations

import itertools
import os
import struct
import time
from collections.abc import Iterator
from pathlib import Path

from games.checkers import bitboard as bb

WIN, DRAW, LOSS = 1, 0, -1
DEFAULT_PIECES = 3
_HEADER = b"PCEGDB1\n"


def _byte_reverse() -> list[int]:
    return [int(f"{b:08b}"[::-1], 2) for b in range(256)]


_REV = _byte_reverse()


def flip(x: int) -> int:
    """The 32-bit board turned 180 degrees: bit ``i`` becomes bit ``31 - i``.

    >>> flip(1) == 1 << 31, flip(flip(0x1234)) == 0x1234
    (True, True)
    """
    r = _REV
    return r[x & 255] << 24 | r[x >> 8 & 255] << 16 | r[x >> 16 & 255] << 8 | r[x >> 24]


def pack(black: int, red: int, kings: int) -> int:
    """One int for a position with Black to move."""
    return black | red << 32 | kings << 64


def canonical(me: int, opp: int, kings: int, black: bool) -> int:
    """The packed key of a position given from the mover's side (``me`` to move)."""
    if black:
        return me | opp << 32 | kings << 64
    return flip(me) | flip(opp) << 32 | flip(kings) << 64


def _encode(result: int, distance: int) -> int:
    return result * (distance + 1) if result else 0


def _decode(value: int) -> tuple[int, int]:
    if value == 0:
        return DRAW, 0
    return (WIN, value - 1) if value > 0 else (LOSS, -value - 1)


class Egdb:
    """A solved table: packed position (Black to move) -> encoded value."""

    def __init__(self, max_pieces: int, values: dict[int, int]) -> None:
        self.max_pieces = max_pieces
        self.values = values

    def __len__(self) -> int:
        return len(self.values)

    def probe(self, me: int, opp: int, kings: int, black: bool) -> tuple[int, int] | None:
        """(result, distance in plies) for the side to move, or None when not in the table."""
        if not me:
            return LOSS, 0
        value = self.values.get(canonical(me, opp, kings, black))
        return None if value is None else _decode(value)

    def covers(self, me: int, opp: int) -> bool:
        return (me | opp).bit_count() <= self.max_pieces

    # -- disk ----------------------------------------------------------------------------------
    def save(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        with tmp.open("wb") as f:
            f.write(_HEADER + struct.pack("<BI", self.max_pieces, len(self.values)))
            chunk = bytearray()
            for key, value in self.values.items():
                chunk += key.to_bytes(12, "little") + value.to_bytes(1, "little", signed=True)
                if len(chunk) > 1 << 20:
                    f.write(chunk)
                    chunk.clear()
            f.write(chunk)
        os.replace(tmp, path)

    @classmethod
    def load(cls, path: Path) -> Egdb:
        data = path.read_bytes()
        if not data.startswith(_HEADER):
            raise ValueError(f"{path.name} is not an endgame database")
        max_pieces, count = struct.unpack_from("<BI", data, len(_HEADER))
        offset = len(_HEADER) + 5
        values = {}
        frombytes = int.from_bytes
        for i in range(offset, offset + 13 * count, 13):
            values[frombytes(data[i : i + 12], "little")] = frombytes(
                data[i + 12 : i + 13], "little", signed=True
            )
        return cls(max_pieces, values)


# -- building ------------------------------------------------------------------------------------
def _placements(count: int, man_squares: int) -> Iterator[tuple[int, int]]:
    """Every (pieces, kings) for ``count`` pieces of one colour; men only on ``man_squares``."""
    for squares in itertools.combinations(range(32), count):
        bits = [1 << s for s in squares]
        for kinds in itertools.product((0, 1), repeat=count):
            pieces = kings = 0
            ok = True
            for bit, king in zip(bits, kinds, strict=True):
                pieces |= bit
                if king:
                    kings |= bit
                elif not bit & man_squares:
                    ok = False
                    break
            if ok:
                yield pieces, kings


def positions(n: int) -> Iterator[int]:
    """Every packed position with exactly ``n`` pieces, both sides present, Black to move."""
    black_men = bb.FULL & ~bb.BOTTOM_ROW
    red_men = bb.FULL & ~bb.TOP_ROW
    for nb in range(1, n):
        reds = list(_placements(n - nb, red_men))
        for black, bk in _placements(nb, black_men):
            for red, rk in reds:
                if not black & red:
                    yield black | red << 32 | (bk | rk) << 64


_MASK = bb.FULL


def _successors(key: int) -> list[int] | None:
    """Packed successors (each with its own mover = Black after turning); None: no moves.

    A successor of 0 means the move took the opponent's last piece.
    """
    black, red, kings = key & _MASK, key >> 32 & _MASK, key >> 64
    moves = bb.gen_moves(black, red, kings, True)
    if not moves:
        return None
    out = []
    for move in moves:
        nme, nopp, nk = bb.apply(black, red, kings, True, move)
        out.append(0 if not nopp else flip(nopp) | flip(nme) << 32 | flip(nk) << 64)
    return out


def build(max_pieces: int = DEFAULT_PIECES, log: bool = False) -> Egdb:
    """Solve every position with 2..``max_pieces`` pieces (the smaller tables first)."""
    values: dict[int, int] = {0: _encode(LOSS, 0)}  # 0: the side to move has no pieces left
    for n in range(2, max_pieces + 1):
        start = time.perf_counter()
        succ: dict[int, list[int]] = {}
        pending: list[int] = []
        for key in positions(n):
            moves = _successors(key)
            if moves is None:
                values[key] = _encode(LOSS, 0)
            else:
                succ[key] = moves
                pending.append(key)
        ply = 1
        horizon = 1
        while pending and ply <= horizon:
            solved: list[tuple[int, int]] = []
            left = []
            for key in pending:
                best_win = -1
                worst_loss = -1
                unknown = False
                for s in succ[key]:
                    v = values.get(s)
                    if v is None or v == 0:
                        unknown = True
                    elif v < 0:  # the opponent loses in -v-1: we win in -v
                        if best_win < 0 or -v < best_win:
                            best_win = -v
                    elif v > worst_loss:
                        worst_loss = v
                if best_win >= 0:
                    if best_win == ply:
                        solved.append((key, _encode(WIN, ply)))
                        continue
                    horizon = max(horizon, best_win)
                elif not unknown:
                    if worst_loss == ply:
                        solved.append((key, _encode(LOSS, ply)))
                        continue
                    horizon = max(horizon, worst_loss)
                left.append(key)
            for key, value in solved:
                values[key] = value
            if solved:
                horizon = max(horizon, ply + 1)
            pending = left
            ply += 1
        for key in pending:
            values[key] = _encode(DRAW, 0)
        del values[0]
        if log:
            print(
                f"{n} pieces: {len(succ)} positions with moves, {len(pending)} drawn, "
                f"longest win {ply - 1} plies, {time.perf_counter() - start:.1f} s",
                flush=True,
            )
        values[0] = _encode(LOSS, 0)
    del values[0]
    return Egdb(max_pieces, values)


# -- the cache on disk -----------------------------------------------------------------------------
def cache_path(max_pieces: int) -> Path:
    """Where the table is kept: ``$PARLOUR_EGDB_DIR`` or the user's cache directory."""
    root = os.environ.get("PARLOUR_EGDB_DIR")
    base = Path(root) if root else Path(os.environ.get("XDG_CACHE_HOME", "~/.cache")).expanduser()
    if not root:
        base = base / "parlour"
    return base / f"checkers-egdb-{max_pieces}.bin"


_LOADED: dict[int, Egdb | None] = {}


def load(max_pieces: int = DEFAULT_PIECES) -> Egdb | None:
    """The cached table (loaded once per process), or None when it was never built."""
    if max_pieces not in _LOADED:
        path = cache_path(max_pieces)
        try:
            _LOADED[max_pieces] = Egdb.load(path)
        except (OSError, ValueError):
            _LOADED[max_pieces] = None
    return _LOADED[max_pieces]

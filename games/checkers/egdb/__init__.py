"""Endgame database: exact win/loss/draw and distance for every position with few pieces.

Built by the project's own retrograde solver (``python -m games.checkers.egdb build``) and
cached on disk outside the repository. Positions are stored with Black to move; a position with
Red to move is turned 180 degrees and its colours swapped first (square ``i`` becomes
``31 - i``), which halves the table. The 40-move rule is ignored, as endgame databases do.

A value is ``WIN``/``LOSS``/``DRAW`` for the side to move with the distance in plies to the end
of the game under best play (the winner hurries, the loser holds out).

Storage: one byte per position in one flat table, ``0`` for a draw and ``distance + 1``
otherwise (a win is always an odd number of plies away, a loss an even number). Positions are
grouped by material (how many black kings and men, red kings and men) and each group is
indexed by combinatorial ranks: the black men on their 28 squares, the red men on theirs, then
the black kings on the squares the men leave free and the red kings on what is left. The index
has holes only where a black and a red man would share a square (a few percent).

The solver works one pair of material groups at a time (a quiet move turns one into the other
once the colours are swapped), smallest first, so that a capture or a crowning always leads to
a group already solved: each position is seeded from its moves out of the pair and the rest is
settled ply by ply by walking un-moves back from every position decided (retrograde analysis).
The compiled helper ``games.checkers._egdbcore`` does that in C; without it the same
algorithm runs in Python, fine for three pieces, slow above.

Figures (``python -m games.checkers.egdb build --pieces N``; the C solver, CPU seconds of one
core, file size, peak memory of the build; measured on a shared 2-core machine):

=======  ===========  ==========  ======  =======  ==========================
pieces   positions    file        time    memory   longest result (plies)
=======  ===========  ==========  ======  =======  ==========================
3        199,520      0.2 MB      0.2 s   24 MB    62
4        6.4 million  6.6 MB      1.7 s   34 MB    109
5        146 million  151 MB      68 s    256 MB   162
=======  ===========  ==========  ======  =======  ==========================

The build step makes 5 pieces with the C solver and 3 without it (the Python solver takes
4 s for 3 pieces and about 150 s and 260 MB for 4). A loaded table is mapped from its file,
so the bot's worker processes share one copy; a probe ranks the position and reads one byte.

>>> db = build(2)
>>> db.probe(1, 1 << 31, 1 | 1 << 31, True)  # a king on 1 against a king on 32: drawn
(0, 0)
"""

from __future__ import annotations

import functools
import itertools
import mmap
import os
import struct
import time
import zlib
from collections.abc import Callable, Iterator
from math import comb
from pathlib import Path
from typing import TYPE_CHECKING

from games.checkers import bitboard as bb

# The compiled solver: mypy reads its stub (_egdbcore.pyi); at run time it is None when setup.py
# did not build it (no C compiler at install), or when ``PARLOUR_EGDB_CORE=python`` (read at
# import) asks for the Python solver and probe.
if TYPE_CHECKING:
    import games.checkers._egdbcore as _egdbcore
else:
    try:
        import games.checkers._egdbcore as _egdbcore
    except ImportError:  # pragma: no cover - depends on the installation
        _egdbcore = None
    if os.environ.get("PARLOUR_EGDB_CORE", "").strip().lower() == "python":
        _egdbcore = None  # pragma: no cover - the pure-Python CI leg (.ci/c-safety) sets it

WIN, DRAW, LOSS = 1, 0, -1
FALLBACK_PIECES = 3  # what the build step makes when only the Python solver is there
DEFAULT_PIECES = 5 if _egdbcore is not None else FALLBACK_PIECES
MAX_PIECES = 5  # 6 pieces would take 2.7 GB and is not offered
_MAGIC = b"PCEGDB\x00\x02"  # format 2: the ranked byte table (format 1 was a key/value list)
_HEADER = struct.Struct("<8sBBQI")  # magic, max pieces, reserved, table length, crc32

_MAN_SHIFT_RED = 4  # red men live on squares 4..31 (bits), black men on 0..27


def _bit_reverse16() -> list[int]:
    return [int(f"{b:016b}"[::-1], 2) for b in range(1 << 16)]


_REV16 = _bit_reverse16()


def flip(x: int) -> int:
    """The 32-bit board turned 180 degrees: bit ``i`` becomes bit ``31 - i``.

    >>> flip(1) == 1 << 31, flip(flip(0x1234)) == 0x1234
    (True, True)
    """
    return _REV16[x & 0xFFFF] << 16 | _REV16[x >> 16]


# -- the index -----------------------------------------------------------------------------------
Signature = tuple[int, int, int, int]  # black kings, black men, red kings, red men

_B = [[comb(n, k) for k in range(MAX_PIECES + 2)] for n in range(33)]


def sig_key(sig: Signature) -> int:
    """A small int naming a material signature (3 bits a count)."""
    bk, bm, rk, rm = sig
    return bk | bm << 3 | rk << 6 | rm << 9


def swap(sig: Signature) -> Signature:
    """The signature with the colours exchanged (what a quiet move leads to, once turned)."""
    bk, bm, rk, rm = sig
    return rk, rm, bk, bm


def sig_size(sig: Signature) -> int:
    """Slots in the table for one signature (holes included)."""
    bk, bm, rk, rm = sig
    nm = bm + rm
    return _B[28][bm] * _B[28][rm] * _B[32 - nm][bk] * _B[32 - nm - bk][rk]


def signatures(n: int) -> list[Signature]:
    """Every signature of exactly ``n`` pieces with both sides present, in solving order.

    Fewer men first (a crowning leads to one more king), each next to its colour swap.
    """
    out: list[Signature] = []
    for nb in range(1, n):
        nr = n - nb
        for bk in range(nb + 1):
            for rk in range(nr + 1):
                out.append((bk, nb - bk, rk, nr - rk))
    seen: set[Signature] = set()
    ordered: list[Signature] = []
    for sig in sorted(out, key=lambda s: (s[1] + s[3], min(s, swap(s)))):
        if sig in seen:
            continue
        pair = sorted({sig, swap(sig)})
        ordered.extend(pair)
        seen.update(pair)
    return ordered


def pairs(n: int) -> list[tuple[Signature, ...]]:
    """The signatures of ``n`` pieces grouped as they are solved (one or two at a time)."""
    sigs = signatures(n)
    out: list[tuple[Signature, ...]] = []
    i = 0
    while i < len(sigs):
        if swap(sigs[i]) == sigs[i]:
            out.append((sigs[i],))
            i += 1
        else:
            out.append((sigs[i], sigs[i + 1]))
            i += 2
    return out


class Layout:
    """Where each signature's block starts in the flat table of up to ``max_pieces`` pieces."""

    def __init__(self, max_pieces: int) -> None:
        if not 2 <= max_pieces <= MAX_PIECES:
            raise ValueError(f"max_pieces must be 2..{MAX_PIECES}")
        self.max_pieces = max_pieces
        # Per signature key: (offset, red-men ranks, black-king ranks, red-king ranks); None
        # for a signature outside the table.
        self.blocks: list[tuple[int, int, int, int] | None] = [None] * 4096
        self.order: list[Signature] = []
        offset = 0
        for n in range(2, max_pieces + 1):
            for sig in signatures(n):
                bk, bm, rk, rm = sig
                nm = bm + rm
                self.blocks[sig_key(sig)] = (
                    offset,
                    _B[28][rm],
                    _B[32 - nm][bk],
                    _B[32 - nm - bk][rk],
                )
                self.order.append(sig)
                offset += sig_size(sig)
        self.size = offset

    def offset(self, sig: Signature) -> int:
        block = self.blocks[sig_key(sig)]
        assert block is not None
        return block[0]

    def offsets(self) -> list[int]:
        """Offsets by signature key, -1 where absent (what the C solver reads)."""
        return [-1 if b is None else b[0] for b in self.blocks]


def _colex(bits: int, shift: int) -> int:
    b = _B
    r = 0
    i = 1
    while bits:
        low = bits & -bits
        r += b[low.bit_length() - 1 - shift][i]
        bits ^= low
        i += 1
    return r


def _colex_free(bits: int, occupied: int) -> int:
    b = _B
    r = 0
    i = 1
    while bits:
        low = bits & -bits
        r += b[low.bit_length() - 1 - (occupied & (low - 1)).bit_count()][i]
        bits ^= low
        i += 1
    return r


def signature_of(black: int, red: int, kings: int) -> Signature:
    bk = (black & kings).bit_count()
    rk = (red & kings).bit_count()
    return bk, black.bit_count() - bk, rk, red.bit_count() - rk


def rank(black: int, red: int, kings: int) -> tuple[Signature, int]:
    """(signature, index within it) of a position with Black to move."""
    sig = signature_of(black, red, kings)
    bk, bm, rk, rm = sig
    nm = bm + rm
    men_b = black & ~kings
    men_r = red & ~kings
    occupied = men_b | men_r
    index = (
        (_colex(men_b, 0) * _B[28][rm] + _colex(men_r, _MAN_SHIFT_RED)) * _B[32 - nm][bk]
        + _colex_free(black & kings, occupied)
    ) * _B[32 - nm - bk][rk] + _colex_free(red & kings, occupied | black & kings)
    return sig, index


@functools.cache
def _colex_sets(n: int, k: int) -> list[tuple[int, ...]]:
    """Every k-subset of range(n) in colex order (its position is its rank)."""
    return sorted(itertools.combinations(range(n), k), key=lambda c: c[::-1])


def _bits(squares: tuple[int, ...], base: list[int] | None = None, shift: int = 0) -> int:
    x = 0
    for s in squares:
        x |= 1 << (base[s] if base is not None else s + shift)
    return x


def enumerate_sig(sig: Signature) -> Iterator[tuple[int, int, int, int]]:
    """(index, black, red, kings) for every legal position of a signature, in index order."""
    bk, bm, rk, rm = sig
    nm = bm + rm
    men_b_sets = [_bits(c) for c in _colex_sets(28, bm)]
    men_r_sets = [_bits(c, shift=_MAN_SHIFT_RED) for c in _colex_sets(28, rm)]
    bk_sets = _colex_sets(32 - nm, bk)
    rk_sets = _colex_sets(32 - nm - bk, rk)
    n_rm, n_bk, n_rk = len(men_r_sets), len(bk_sets), len(rk_sets)
    for i_bm, mb in enumerate(men_b_sets):
        for i_rm, mr in enumerate(men_r_sets):
            if mb & mr:
                continue  # a hole in the index
            occupied = mb | mr
            free = [s for s in range(32) if not occupied >> s & 1]
            base = (i_bm * n_rm + i_rm) * n_bk
            for i_bk, cb in enumerate(bk_sets):
                kb = _bits(cb, free)
                free2 = [s for s in free if not kb >> s & 1]
                base2 = (base + i_bk) * n_rk
                for i_rk, cr in enumerate(rk_sets):
                    kr = _bits(cr, free2)
                    yield base2 + i_rk, mb | kb, mr | kr, kb | kr


def unrank(sig: Signature, index: int) -> tuple[int, int, int] | None:
    """The position (black, red, kings) at ``index`` of ``sig``; None for a hole."""
    bk, bm, rk, rm = sig
    nm = bm + rm
    rest, i_rk = divmod(index, _B[32 - nm - bk][rk])
    rest, i_bk = divmod(rest, _B[32 - nm][bk])
    i_bm, i_rm = divmod(rest, _B[28][rm])
    mb = _bits(_colex_sets(28, bm)[i_bm])
    mr = _bits(_colex_sets(28, rm)[i_rm], shift=_MAN_SHIFT_RED)
    if mb & mr:
        return None
    free = [s for s in range(32) if not (mb | mr) >> s & 1]
    kb = _bits(_colex_sets(32 - nm, bk)[i_bk], free)
    free2 = [s for s in free if not kb >> s & 1]
    kr = _bits(_colex_sets(32 - nm - bk, rk)[i_rk], free2)
    return mb | kb, mr | kr, kb | kr


# -- values --------------------------------------------------------------------------------------
def _decode_table() -> list[tuple[int, int]]:
    out = [(DRAW, 0)]
    for v in range(1, 256):
        d = v - 1
        out.append((WIN, d) if d & 1 else (LOSS, d))
    return out


_DECODE = _decode_table()
_LOST = (LOSS, 0)
_BOTTOM, _TOP = bb.BOTTOM_ROW, bb.TOP_ROW


def encode(result: int, distance: int) -> int:
    """The stored byte of a value."""
    if result == DRAW:
        return 0
    assert (distance & 1) == (result == WIN) and distance < 255
    return distance + 1


def decode(value: int) -> tuple[int, int]:
    return _DECODE[value]


if _egdbcore is not None:  # offsets are the same for every table size: one layout serves all
    _egdbcore.set_layout(Layout(MAX_PIECES).offsets(), _DECODE, _LOST)


class Egdb:
    """A solved table of every position of 2..``max_pieces`` pieces (Black to move).

    ``probe(me, opp, kings, black)``: (result, distance in plies) for the side to move, or None
    when the position is not in the table; the compiled probe when there is one, else
    ``probe_py``.
    """

    probe: Callable[[int, int, int, bool], tuple[int, int] | None]

    def __init__(self, max_pieces: int, table: bytes | bytearray | memoryview) -> None:
        self.layout = Layout(max_pieces)
        if len(table) != self.layout.size:
            raise ValueError(f"a {max_pieces}-piece table has {self.layout.size} bytes")
        self.max_pieces = max_pieces
        self.table = table
        self._blocks = self.layout.blocks
        if _egdbcore is not None:
            self.probe = functools.partial(_egdbcore.probe, table, max_pieces)
        else:
            self.probe = self.probe_py

    def __len__(self) -> int:
        """Slots in the table (positions plus the holes of the index)."""
        return len(self.table)

    def probe_py(self, me: int, opp: int, kings: int, black: bool) -> tuple[int, int] | None:
        """``probe`` in Python (what runs without the compiled helper)."""
        if not me:
            return _LOST
        if not black:
            r = _REV16
            me = r[me & 0xFFFF] << 16 | r[me >> 16]
            opp = r[opp & 0xFFFF] << 16 | r[opp >> 16]
            kings = r[kings & 0xFFFF] << 16 | r[kings >> 16]
        kb = me & kings
        kr = opp & kings
        mb = me ^ kb
        mr = opp ^ kr
        nbk = kb.bit_count()
        nrk = kr.bit_count()
        block = self._blocks[nbk | mb.bit_count() << 3 | nrk << 6 | mr.bit_count() << 9]
        if block is None or not opp or mb & _BOTTOM or mr & _TOP:
            return None
        offset, n_rm, n_bk, n_rk = block
        b = _B
        r_bm = r_rm = r_bk = r_rk = 0
        i = 1
        while mb:
            low = mb & -mb
            r_bm += b[low.bit_length() - 1][i]
            mb ^= low
            i += 1
        i = 1
        while mr:
            low = mr & -mr
            r_rm += b[low.bit_length() - 5][i]
            mr ^= low
            i += 1
        men = me & ~kings | opp & ~kings
        i = 1
        while kb:
            low = kb & -kb
            r_bk += b[low.bit_length() - 1 - (men & (low - 1)).bit_count()][i]
            kb ^= low
            i += 1
        men |= me & kings
        i = 1
        while kr:
            low = kr & -kr
            r_rk += b[low.bit_length() - 1 - (men & (low - 1)).bit_count()][i]
            kr ^= low
            i += 1
        return _DECODE[self.table[offset + ((r_bm * n_rm + r_rm) * n_bk + r_bk) * n_rk + r_rk]]

    def covers(self, me: int, opp: int) -> bool:
        return (me | opp).bit_count() <= self.max_pieces

    # -- disk ----------------------------------------------------------------------------------
    def save(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        header = _HEADER.pack(_MAGIC, self.max_pieces, 0, len(self.table), zlib.crc32(self.table))
        with tmp.open("wb") as f:
            f.write(header)
            f.write(self.table)
        os.replace(tmp, path)

    @classmethod
    def load(cls, path: Path) -> Egdb:
        """The table saved at ``path``; ValueError for another format or a damaged file.

        The file is mapped, not read: the worker processes that load it share one copy.
        """
        with path.open("rb") as f:
            head = f.read(_HEADER.size)
            if len(head) < _HEADER.size:
                raise ValueError(f"{path.name} is not an endgame database")
            magic, max_pieces, _, length, crc = _HEADER.unpack(head)
            if magic != _MAGIC:
                raise ValueError(f"{path.name} is not an endgame database of this format")
            if not 2 <= max_pieces <= MAX_PIECES or Layout(max_pieces).size != length:
                raise ValueError(f"{path.name} has a bad header")
            if os.fstat(f.fileno()).st_size != _HEADER.size + length:
                raise ValueError(f"{path.name} is truncated or damaged")
            mapped = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
        table = memoryview(mapped)[_HEADER.size :]
        if zlib.crc32(table) != crc:
            table.release()
            mapped.close()
            raise ValueError(f"{path.name} is damaged")
        return cls(max_pieces, table)


# -- building ------------------------------------------------------------------------------------
def positions(n: int) -> Iterator[tuple[int, int, int]]:
    """Every position (black, red, kings) with exactly ``n`` pieces, Black to move."""
    for sig in signatures(n):
        for _, black, red, kings in enumerate_sig(sig):
            yield black, red, kings


_LEVELS = 256


def _solve_pair_py(table: bytearray, layout: Layout, group: tuple[Signature, ...]) -> None:
    """Solve one group (a signature and its colour swap) in Python, by the rules of bitboard.

    Same algorithm as the C solver, but the graph inside the group is kept as explicit
    predecessor lists built from forward moves, so it checks the C un-move generator too.
    """
    base = layout.offset(group[0])
    size = sum(sig_size(s) for s in group)
    end = base + size
    blocks = layout.blocks
    preds: dict[int, list[int]] = {}
    count = [0] * size  # moves still undecided inside the group
    can_not_lose = bytearray(size)  # a move out of the group reaches a draw or a win
    worst = bytearray(size)  # the longest loss through moves out of the group
    buckets: list[list[int]] = [[] for _ in range(_LEVELS)]
    legal = bytearray(size)
    for sig in group:
        for index, black, red, kings in enumerate_sig(sig):
            node = layout.offset(sig) + index - base
            legal[node] = 1
            moves = bb.gen_moves(black, red, kings, True)
            if not moves:
                buckets[0].append(node)
                continue
            best = 0
            for move in moves:
                nme, nopp, nk = bb.apply(black, red, kings, True, move)
                if not nopp:
                    value = 1  # the opponent has no piece left: lost in 0
                else:
                    child = flip(nopp), flip(nme), flip(nk)
                    csig, cindex = rank(*child)
                    block = blocks[sig_key(csig)]
                    assert block is not None
                    where = block[0] + cindex
                    if base <= where < end:
                        count[node] += 1
                        preds.setdefault(where - base, []).append(node)
                        continue
                    value = table[where]
                if value == 0:
                    can_not_lose[node] = 1
                elif value & 1:  # the child is lost in value - 1: a win in value
                    can_not_lose[node] = 1
                    if not best or value < best:
                        best = value
                else:  # the child wins in value - 1: a loss in value
                    worst[node] = max(worst[node], value)
            if best:
                buckets[best].append(node)
            elif not count[node] and not can_not_lose[node]:
                buckets[worst[node]].append(node)
    done = bytearray(size)
    for level in range(_LEVELS):
        for node in buckets[level]:
            if done[node]:
                continue
            done[node] = 1
            table[base + node] = level + 1
            for p in preds.get(node, ()):
                if done[p]:
                    continue
                if not level & 1:  # node is lost: p wins next ply
                    if level + 1 >= _LEVELS:
                        raise OverflowError("distance beyond the byte range")
                    buckets[level + 1].append(p)
                    can_not_lose[p] = 1
                else:
                    count[p] -= 1
                    if not count[p] and not can_not_lose[p]:
                        buckets[max(worst[p], level + 1)].append(p)
        buckets[level] = []


def build(
    max_pieces: int = DEFAULT_PIECES,
    log: bool | Callable[[str], None] = False,
    *,
    compiled: bool | None = None,
) -> Egdb:
    """Solve every position with 2..``max_pieces`` pieces (the smaller tables first).

    ``compiled`` picks the solver (default: the C one when it is installed).
    """
    layout = Layout(max_pieces)
    table = bytearray(layout.size)
    use_c = _egdbcore is not None if compiled is None else compiled
    if use_c and _egdbcore is None:
        raise RuntimeError("the compiled solver games.checkers._egdbcore is not installed")
    say: Callable[[str], None] | None = (
        log if callable(log) else (lambda s: print(s, flush=True)) if log else None
    )
    offsets = layout.offsets()
    for n in range(2, max_pieces + 1):
        start = time.perf_counter()
        for group in pairs(n):
            if use_c:
                assert _egdbcore is not None
                _egdbcore.solve_group(table, offsets, [sig_key(s) for s in group])
            else:
                _solve_pair_py(table, layout, group)
        if say:
            lo = layout.offset(signatures(n)[0])
            hi = layout.size if n == max_pieces else layout.offset(signatures(n + 1)[0])
            part = memoryview(table)[lo:hi]
            longest = max(part) - 1 if hi > lo else 0
            say(
                f"{n} pieces: {hi - lo:,} slots, longest result {longest} plies, "
                f"{time.perf_counter() - start:.1f} s"
            )
    return Egdb(max_pieces, table)


# -- the cache on disk -----------------------------------------------------------------------------
def cache_path(max_pieces: int) -> Path:
    """Where the table is kept: ``$PARLOUR_EGDB_DIR`` or the user's cache directory."""
    root = os.environ.get("PARLOUR_EGDB_DIR")
    base = Path(root) if root else Path(os.environ.get("XDG_CACHE_HOME", "~/.cache")).expanduser()
    if not root:
        base = base / "parlour"
    return base / f"checkers-egdb-{max_pieces}.bin"


_LOADED: dict[int | None, Egdb | None] = {}


def load(max_pieces: int | None = None) -> Egdb | None:
    """The cached table (loaded once per process), or None when it was never built.

    Without ``max_pieces``, the largest table on disk (whatever the build step made).
    """
    if max_pieces not in _LOADED:
        sizes = [max_pieces] if max_pieces is not None else range(MAX_PIECES, 1, -1)
        found = None
        for n in sizes:
            try:
                found = Egdb.load(cache_path(n))
                break
            except (OSError, ValueError):
                continue
        _LOADED[max_pieces] = found
    return _LOADED[max_pieces]

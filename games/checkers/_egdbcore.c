/* The checkers endgame database solver in C (optional; games/checkers/egdb has the same
 * algorithm in Python). solve_group(table, offsets, keys) fills the bytes of one group of
 * material signatures (a signature and its colour swap) in the flat table laid out by
 * games.checkers.egdb.Layout, reading the smaller groups already solved.
 *
 * The rules mirror games/checkers/bitboard.py: square n is bit n-1, Black moves down (towards
 * higher bits) and crowns on bits 28-31, Red moves up and crowns on bits 0-3; captures are
 * compulsory, a man's jump ends when it is crowned, a king jumps in all four directions and
 * may not jump a piece twice nor land on one it has jumped.
 *
 * Index of a position (Black to move), as egdb.rank: colex ranks of the black men on bits 0-27,
 * of the red men on bits 4-31 (minus 4), of the black kings on the squares the men leave free
 * (counted in order), of the red kings on what is left;
 * index = ((r_bm * C(28, rm) + r_rm) * C(32 - men, bk) + r_bk) * C(32 - men - bk, rk) + r_rk.
 * A value byte is 0 for a draw (or a hole, or not yet decided) and distance + 1 otherwise.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* obj's items as a new tuple (PySequence_Fast, but a copy): reading the items may run Python
   code (__index__), which must not be able to shrink the sequence under the reader. */
static PyObject *frozen_seq(PyObject *obj, const char *message) {
    PyObject *items = PySequence_Tuple(obj);
    if (!items && PyErr_ExceptionMatches(PyExc_TypeError)) {
        PyErr_Clear();
        PyErr_SetString(PyExc_TypeError, message);
    }
    return items;
}

#define MAXK 8
#define LEVELS 256
#define MAXCHILD 256
#define BOTTOM_ROW 0xF0000000u
#define TOP_ROW 0x0000000Fu

static uint64_t B[33][MAXK];
static int NEIGH[4][32]; /* DL, DR, UL, UR */
static int LAND[4][32];
#define MAXSET 7                /* at most 6 pieces of one kind */
static uint32_t *COMBOS[MAXSET]; /* colex-ordered k-subsets of 0..31 as bit sets */
static int ready = 0, combos_ready = 0;
static uint32_t SMASK[4][2]; /* per direction: the squares that move by SSHIFT[d][k] */
static int SSHIFT[4][2];
static const int OPPOSITE[4] = {3, 2, 1, 0}; /* DL<->UR, DR<->UL */

/* Every piece of b moved one step in direction d (off-board steps vanish). */
static inline uint32_t step(int d, uint32_t b) {
    uint32_t r = 0;
    for (int k = 0; k < 2; k++) {
        int sh = SSHIFT[d][k];
        uint32_t m = b & SMASK[d][k];
        r |= sh > 0 ? m << sh : m >> -sh;
    }
    return r;
}

static void init_tables(void) {
    if (ready) return;
    for (int n = 0; n <= 32; n++)
        for (int k = 0; k < MAXK; k++)
            B[n][k] = k == 0 ? 1 : (n == 0 ? 0 : B[n - 1][k - 1] + B[n - 1][k]);
    static const int dr[4] = {1, 1, -1, -1}, dc[4] = {-1, 1, -1, 1};
    for (int d = 0; d < 4; d++)
        for (int i = 0; i < 32; i++) {
            int r = i / 4, c = 2 * (i % 4) + (r % 2 == 0 ? 1 : 0);
            int r1 = r + dr[d], c1 = c + dc[d], r2 = r + 2 * dr[d], c2 = c + 2 * dc[d];
            int n = (r1 >= 0 && r1 < 8 && c1 >= 0 && c1 < 8) ? 4 * r1 + c1 / 2 : -1;
            int f = (r2 >= 0 && r2 < 8 && c2 >= 0 && c2 < 8) ? 4 * r2 + c2 / 2 : -1;
            NEIGH[d][i] = n;
            LAND[d][i] = n < 0 ? -1 : f;
            if (n >= 0) {
                int sh = n - i, k = 0;
                if (SMASK[d][0] && SSHIFT[d][0] != sh) k = 1;
                SSHIFT[d][k] = sh;
                SMASK[d][k] |= 1u << i;
            }
        }
    ready = 1;
}

static int init_combos(void) {
    if (combos_ready) return 0;
    for (int k = 0; k < MAXSET; k++) {
        uint64_t count = B[32][k];
        COMBOS[k] = (uint32_t *)malloc(sizeof(uint32_t) * (size_t)count);
        if (!COMBOS[k]) return -1;
        for (uint64_t r = 0; r < count; r++) {
            uint64_t rest = r;
            uint32_t set = 0;
            int top = 32;
            for (int i = k; i >= 1; i--) {
                int c = top - 1;
                while (B[c][i] > rest) c--;
                rest -= B[c][i];
                set |= 1u << c;
                top = c;
            }
            COMBOS[k][r] = set;
        }
    }
    combos_ready = 1;
    return 0;
}

static inline uint32_t flip32(uint32_t x) {
    x = ((x >> 1) & 0x55555555u) | ((x & 0x55555555u) << 1);
    x = ((x >> 2) & 0x33333333u) | ((x & 0x33333333u) << 2);
    x = ((x >> 4) & 0x0F0F0F0Fu) | ((x & 0x0F0F0F0Fu) << 4);
    x = ((x >> 8) & 0x00FF00FFu) | ((x & 0x00FF00FFu) << 8);
    return (x >> 16) | (x << 16);
}

/* Portable popcount (without -mpopcnt, __builtin_popcount is a library call). */
static inline int popc(uint32_t x) {
    x = x - ((x >> 1) & 0x55555555u);
    x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
    return (int)((((x + (x >> 4)) & 0x0F0F0F0Fu) * 0x01010101u) >> 24);
}

static inline uint64_t colex(uint32_t bits, int shift) {
    uint64_t r = 0;
    int i = 1;
    while (bits) {
        int s = __builtin_ctz(bits);
        r += B[s - shift][i++];
        bits &= bits - 1;
    }
    return r;
}

static inline uint64_t colex_free(uint32_t bits, uint32_t occupied) {
    uint64_t r = 0;
    int i = 1;
    while (bits) {
        int s = __builtin_ctz(bits);
        r += B[s - popc(occupied & ((1u << s) - 1))][i++];
        bits &= bits - 1;
    }
    return r;
}

/* The squares of a set of compacted indices (the c-th square not in occupied, for each c). */
static inline uint32_t deposit(uint32_t combo, uint32_t occupied) {
    uint32_t out = 0;
    for (; combo; combo &= combo - 1) {
        int s = __builtin_ctz(combo);
        for (uint32_t o = occupied; o; o &= o - 1) {
            if (__builtin_ctz(o) <= s)
                s++;
            else
                break;
        }
        out |= 1u << s;
    }
    return out;
}

static inline int key_of(uint32_t black, uint32_t red, uint32_t kings) {
    int bk = popc(black & kings), rk = popc(red & kings);
    int bm = popc(black) - bk, rm = popc(red) - rk;
    return bk | bm << 3 | rk << 6 | rm << 9;
}

static inline uint64_t rank_in(uint32_t black, uint32_t red, uint32_t kings) {
    uint32_t kb = black & kings, kr = red & kings, mb = black & ~kings, mr = red & ~kings;
    int bk = popc(kb), rk = popc(kr), nm = popc(mb) + popc(mr);
    uint32_t occupied = mb | mr;
    return ((colex(mb, 0) * B[28][popc(mr)] + colex(mr, 4)) * B[32 - nm][bk] +
            colex_free(kb, occupied)) *
               B[32 - nm - bk][rk] +
           colex_free(kr, occupied | kb);
}

/* -- moves of Black (the side to move in canonical form) ------------------------------------ */
typedef struct {
    uint32_t me, opp, kings;
} Pos;

typedef struct {
    Pos *out;
    int n;
} Sink;

static inline void emit(Sink *s, uint32_t me, uint32_t opp, uint32_t kings) {
    if (s->n < MAXCHILD) {
        s->out[s->n].me = me;
        s->out[s->n].opp = opp;
        s->out[s->n].kings = kings;
    }
    s->n++;
}

/* A man of Black at i (started at start) jumping down; opp: pieces still to jump. */
static void man_chain(int i, uint32_t opp, uint32_t empty, uint32_t captured, uint32_t start,
                      uint32_t me0, uint32_t opp0, uint32_t kings0, Sink *s) {
    int more = 0;
    for (int d = 0; d < 2; d++) { /* DL, DR */
        int over = NEIGH[d][i], land = LAND[d][i];
        if (land < 0) continue;
        uint32_t ob = 1u << over, lb = 1u << land;
        if ((opp & ob) && (empty & lb)) {
            more = 1;
            if (lb & BOTTOM_ROW) {
                uint32_t cap = captured | ob;
                emit(s, me0 ^ start ^ lb, opp0 & ~cap, (kings0 & ~cap) | lb);
            } else {
                man_chain(land, opp ^ ob, empty, captured | ob, start, me0, opp0, kings0, s);
            }
        }
    }
    if (!more) {
        uint32_t to = 1u << i;
        emit(s, me0 ^ start ^ to, opp0 & ~captured, kings0 & ~captured);
    }
}

static void king_chain(int i, uint32_t opp, uint32_t empty, uint32_t captured, uint32_t start,
                       uint32_t me0, uint32_t opp0, uint32_t kings0, Sink *s) {
    int more = 0;
    for (int d = 0; d < 4; d++) {
        int over = NEIGH[d][i], land = LAND[d][i];
        if (land < 0) continue;
        uint32_t ob = 1u << over, lb = 1u << land;
        if ((opp & ob) && (empty & lb)) {
            more = 1;
            king_chain(land, opp ^ ob, empty, captured | ob, start, me0, opp0, kings0, s);
        }
    }
    if (!more) {
        uint32_t to = 1u << i;
        uint32_t k = kings0 & ~captured;
        emit(s, me0 ^ start ^ to, opp0 & ~captured, k ^ start ^ to);
    }
}

/* Every position after a capture of Black (call it only when Black has one): the count. */
static int gen_captures(uint32_t me, uint32_t opp, uint32_t kings, Pos *out) {
    Sink s = {out, 0};
    uint32_t empty = ~(me | opp);
    for (uint32_t p = me; p; p &= p - 1) {
        int i = __builtin_ctz(p);
        uint32_t bit = 1u << i;
        if (kings & bit)
            king_chain(i, opp, empty | bit, 0, bit, me, opp, kings, &s);
        else
            man_chain(i, opp, empty, 0, bit, me, opp, kings, &s);
    }
    /* man_chain/king_chain emit a "no jump" move too; keep only real captures. */
    if (s.n > MAXCHILD) return s.n;
    int n = 0;
    for (int j = 0; j < s.n; j++)
        if (out[j].opp != opp) out[n++] = out[j];
    return n;
}

/* Pieces in ``movers`` that can jump a piece of ``victims`` in direction d. */
static inline uint32_t jumpers(int d, uint32_t movers, uint32_t victims, uint32_t empty) {
    int back = OPPOSITE[d];
    return step(back, step(back, empty) & victims) & movers;
}

/* Does Black (moving down; kings both ways) have a capture? */
static inline int black_can_capture(uint32_t black, uint32_t red, uint32_t kings) {
    uint32_t empty = ~(red | black), bk = black & kings;
    if (jumpers(0, black, red, empty) | jumpers(1, black, red, empty)) return 1;
    return bk && (jumpers(2, bk, red, empty) | jumpers(3, bk, red, empty));
}

/* Does Red (moving up; kings both ways) have a capture? */
static inline int red_can_capture(uint32_t red, uint32_t black, uint32_t kings) {
    uint32_t empty = ~(red | black), rk = red & kings;
    if (jumpers(2, red, black, empty) | jumpers(3, red, black, empty)) return 1;
    return rk && (jumpers(0, rk, black, empty) | jumpers(1, rk, black, empty));
}

/* -- the solver ------------------------------------------------------------------------------ */
typedef struct {
    uint32_t *items;
    size_t n, cap;
} Vec;

static int push(Vec *v, uint32_t x) {
    if (v->n == v->cap) {
        size_t cap = v->cap ? v->cap * 2 : 1024;
        uint32_t *items = (uint32_t *)realloc(v->items, cap * sizeof(uint32_t));
        if (!items) return -1;
        v->items = items;
        v->cap = cap;
    }
    v->items[v->n++] = x;
    return 0;
}

typedef struct {
    int key;
    uint64_t offset, size;
    int bk, bm, rk, rm;
} Block;

static int solve(uint8_t *table, Py_ssize_t table_len, const int64_t *offsets, const int *keys,
                 int nkeys) {
    Block blk[2];
    for (int j = 0; j < nkeys; j++) {
        int key = keys[j];
        Block *b = &blk[j];
        b->key = key;
        b->bk = key & 7;
        b->bm = key >> 3 & 7;
        b->rk = key >> 6 & 7;
        b->rm = key >> 9 & 7;
        int nm = b->bm + b->rm;
        b->offset = (uint64_t)offsets[key];
        b->size = B[28][b->bm] * B[28][b->rm] * B[32 - nm][b->bk] * B[32 - nm - b->bk][b->rk];
    }
    uint64_t base = blk[0].offset;
    for (int j = 1; j < nkeys; j++)
        if (blk[j].offset < base) base = blk[j].offset;
    uint64_t size = 0;
    for (int j = 0; j < nkeys; j++) size += blk[j].size;
    if (base + size > (uint64_t)table_len || size >= 0xFFFFFFFFu) return -2;
    /* Two blocks are one run of the table: each starts where the other ends. */
    if (nkeys == 2 && !(blk[0].offset + blk[0].size == blk[1].offset ||
                        blk[1].offset + blk[1].size == blk[0].offset))
        return -8;
    uint8_t *count = (uint8_t *)calloc(size, 1);
    uint8_t *flags = (uint8_t *)calloc(size, 1); /* 1: can not lose */
    uint8_t *worst = (uint8_t *)calloc(size, 1);
    Vec buckets[LEVELS];
    memset(buckets, 0, sizeof(buckets));
    Pos children[MAXCHILD];
    int rc = 0;
    if (!count || !flags || !worst) {
        rc = -1;
        goto done;
    }
    /* Seed every position from its moves. */
    for (int j = 0; j < nkeys; j++) {
        Block *b = &blk[j];
        int nm = b->bm + b->rm;
        uint64_t n_rm = B[28][b->rm], n_bk = B[32 - nm][b->bk], n_rk = B[32 - nm - b->bk][b->rk];
        uint64_t n_bm = B[28][b->bm];
        for (uint64_t i_bm = 0; i_bm < n_bm; i_bm++) {
            uint32_t mb = COMBOS[b->bm][i_bm];
            for (uint64_t i_rm = 0; i_rm < n_rm; i_rm++) {
                uint32_t mr = COMBOS[b->rm][i_rm] << 4;
                if (mb & mr) continue;
                uint32_t occupied = mb | mr;
                for (uint64_t i_bk = 0; i_bk < n_bk; i_bk++) {
                    uint32_t kb = deposit(COMBOS[b->bk][i_bk], occupied);
                    for (uint64_t i_rk = 0; i_rk < n_rk; i_rk++) {
                        uint32_t kr = deposit(COMBOS[b->rk][i_rk], occupied | kb);
                        uint64_t index = ((i_bm * n_rm + i_rm) * n_bk + i_bk) * n_rk + i_rk;
                        uint32_t node = (uint32_t)(b->offset + index - base);
                        uint32_t me = mb | kb, opp = mr | kr, kings = kb | kr;
                        int best = 0, cnt = 0, safe = 0, wl = 0, nc = 0;
                        if (black_can_capture(me, opp, kings)) {
                            nc = gen_captures(me, opp, kings, children);
                            if (nc > MAXCHILD) {
                                rc = -3;
                                goto done;
                            }
                        } else {
                            /* Quiet steps: a crowning leads out of the group, the rest stay. */
                            uint32_t empty = ~(me | opp);
                            for (uint32_t p = me; p; p &= p - 1) {
                                int i = __builtin_ctz(p);
                                uint32_t bit = 1u << i;
                                int king = (kings & bit) != 0;
                                for (int d = 0; d < (king ? 4 : 2); d++) {
                                    int t = NEIGH[d][i];
                                    if (t < 0 || !(empty >> t & 1)) continue;
                                    uint32_t tb = 1u << t;
                                    if (!king && (tb & BOTTOM_ROW)) {
                                        children[nc].me = me ^ bit ^ tb;
                                        children[nc].opp = opp;
                                        children[nc].kings = kings | tb;
                                        nc++;
                                    } else {
                                        cnt++;
                                    }
                                }
                            }
                        }
                        if (nc == 0 && cnt == 0) {
                            if (push(&buckets[0], node)) rc = -1;
                            if (rc) goto done;
                            continue;
                        }
                        for (int c = 0; c < nc; c++) {
                            int value;
                            if (!children[c].opp) {
                                value = 1;
                            } else {
                                uint32_t cb = flip32(children[c].opp), cr = flip32(children[c].me),
                                         ck = flip32(children[c].kings);
                                int key = key_of(cb, cr, ck);
                                int64_t off = offsets[key];
                                if (off < 0) {
                                    rc = -4;
                                    goto done;
                                }
                                uint64_t where = (uint64_t)off + rank_in(cb, cr, ck);
                                if (where >= (uint64_t)table_len) {
                                    rc = -9; /* the smaller table is not in the buffer */
                                    goto done;
                                }
                                if (where >= base && where < base + size) {
                                    rc = -7; /* a capture or a crowning never stays in the group */
                                    goto done;
                                }
                                value = table[where];
                            }
                            if (value == 0) {
                                safe = 1;
                            } else if (value & 1) {
                                safe = 1;
                                if (!best || value < best) best = value;
                            } else if (value > wl) {
                                wl = value;
                            }
                        }
                        count[node] = (uint8_t)cnt;
                        flags[node] = (uint8_t)safe;
                        worst[node] = (uint8_t)wl;
                        if (best) {
                            if (push(&buckets[best], node)) rc = -1;
                        } else if (!cnt && !safe) {
                            if (push(&buckets[wl], node)) rc = -1;
                        }
                        if (rc) goto done;
                    }
                }
            }
        }
    }
    /* Settle ply by ply, walking un-moves back from every position decided. */
    for (int level = 0; level < LEVELS; level++) {
        Vec *v = &buckets[level];
        for (size_t q = 0; q < v->n; q++) {
            uint32_t node = v->items[q];
            uint8_t *slot = &table[base + node];
            if (*slot) continue;
            *slot = (uint8_t)(level + 1);
            /* Which block, which position. */
            uint64_t where = base + node;
            const Block *b = &blk[0];
            for (int j = 0; j < nkeys; j++)
                if (where >= blk[j].offset && where < blk[j].offset + blk[j].size) b = &blk[j];
            uint64_t index = where - b->offset;
            int nm = b->bm + b->rm;
            uint64_t n_rm = B[28][b->rm], n_bk = B[32 - nm][b->bk], n_rk = B[32 - nm - b->bk][b->rk];
            uint64_t i_rk = index % n_rk, rest = index / n_rk;
            uint64_t i_bk = rest % n_bk;
            rest /= n_bk;
            uint64_t i_rm = rest % n_rm, i_bm = rest / n_rm;
            uint32_t mb = COMBOS[b->bm][i_bm], mr = COMBOS[b->rm][i_rm] << 4;
            uint32_t occupied = mb | mr;
            uint32_t kb = deposit(COMBOS[b->bk][i_bk], occupied);
            uint32_t kr = deposit(COMBOS[b->rk][i_rk], occupied | kb);
            uint32_t black = mb | kb, red = mr | kr, kings = kb | kr;
            uint32_t empty = ~(black | red);
            /* Red (in these coordinates) has just made a quiet move from s to t. */
            for (uint32_t p = red; p; p &= p - 1) {
                int t = __builtin_ctz(p);
                uint32_t tb = 1u << t;
                int king = (kings & tb) != 0;
                for (int d = 0; d < (king ? 4 : 2); d++) { /* men came from below: DL, DR */
                    int s = NEIGH[d][t];
                    if (s < 0) continue;
                    uint32_t sb = 1u << s;
                    if (!(empty & sb)) continue;
                    uint32_t pred_red = red ^ tb ^ sb;
                    uint32_t pred_kings = king ? kings ^ tb ^ sb : kings;
                    if (red_can_capture(pred_red, black, pred_kings)) continue;
                    uint32_t qb = flip32(pred_red), qr = flip32(black), qk = flip32(pred_kings);
                    uint64_t qwhere = (uint64_t)offsets[key_of(qb, qr, qk)] + rank_in(qb, qr, qk);
                    if (qwhere < base || qwhere >= base + size) {
                        rc = -5;
                        goto done;
                    }
                    uint32_t pnode = (uint32_t)(qwhere - base);
                    if (table[qwhere]) continue;
                    if (!(level & 1)) { /* node lost: the predecessor wins next ply */
                        if (level + 1 >= LEVELS) {
                            rc = -6;
                            goto done;
                        }
                        flags[pnode] = 1;
                        if (push(&buckets[level + 1], pnode)) {
                            rc = -1;
                            goto done;
                        }
                    } else {
                        if (--count[pnode] == 0 && !flags[pnode]) {
                            int at = worst[pnode] > level + 1 ? worst[pnode] : level + 1;
                            if (at >= LEVELS || push(&buckets[at], pnode)) {
                                rc = -6;
                                goto done;
                            }
                        }
                    }
                }
            }
        }
        free(v->items);
        v->items = NULL;
        v->n = v->cap = 0;
    }
done:
    for (int level = 0; level < LEVELS; level++) free(buckets[level].items);
    free(count);
    free(flags);
    free(worst);
    return rc;
}

/* A signature the solver can enumerate: at most MAX_PIECES pieces, each kind's count a row of
   COMBOS, both sides on the board. */
#define MAX_PIECES (MAXSET - 1)
static int solvable_key(int key) {
    int bk = key & 7, bm = key >> 3 & 7, rk = key >> 6 & 7, rm = key >> 9 & 7;
    return bk + bm + rk + rm <= MAX_PIECES && bk + bm > 0 && rk + rm > 0;
}

static PyObject *solve_group(PyObject *self, PyObject *args) {
    (void)self;
    Py_buffer buf;
    PyObject *offsets_obj, *keys_obj;
    init_tables();
    if (init_combos()) return PyErr_NoMemory();
    if (!PyArg_ParseTuple(args, "w*OO", &buf, &offsets_obj, &keys_obj)) return NULL;
    int64_t *offsets = NULL;
    int keys[2];
    PyObject *fo = frozen_seq(offsets_obj, "offsets must be a sequence");
    PyObject *fk = fo ? frozen_seq(keys_obj, "keys must be a sequence") : NULL;
    int rc = 0;
    if (!fo || !fk) goto fail;
    Py_ssize_t no = PySequence_Fast_GET_SIZE(fo), nk = PySequence_Fast_GET_SIZE(fk);
    if (no != 4096 || nk < 1 || nk > 2) {
        PyErr_SetString(PyExc_ValueError, "4096 offsets and one or two signature keys");
        goto fail;
    }
    offsets = (int64_t *)malloc(sizeof(int64_t) * 4096);
    if (!offsets) {
        PyErr_NoMemory();
        goto fail;
    }
    for (Py_ssize_t i = 0; i < no; i++) {
        offsets[i] = PyLong_AsLongLong(PySequence_Fast_GET_ITEM(fo, i));
        if (offsets[i] == -1 && PyErr_Occurred()) goto fail;
    }
    for (Py_ssize_t i = 0; i < nk; i++) {
        long k = PyLong_AsLong(PySequence_Fast_GET_ITEM(fk, i));
        if (k < 0 || k >= 4096 || offsets[k] < 0 || !solvable_key((int)k)) {
            if (!PyErr_Occurred() || PyErr_ExceptionMatches(PyExc_OverflowError)) {
                PyErr_Clear();
                PyErr_SetString(PyExc_ValueError, "unknown signature key");
            }
            goto fail;
        }
        keys[i] = (int)k;
    }
    Py_BEGIN_ALLOW_THREADS;
    rc = solve((uint8_t *)buf.buf, buf.len, offsets, keys, (int)nk);
    Py_END_ALLOW_THREADS;
    if (rc == -1) {
        PyErr_NoMemory();
        goto fail;
    }
    if (rc) { /* every other failure comes from what the table and offsets hold */
        PyErr_Format(PyExc_ValueError,
                     "the table and offsets do not hold this group and the groups it leads to "
                     "(solver code %d)",
                     rc);
        goto fail;
    }
    free(offsets);
    Py_DECREF(fo);
    Py_DECREF(fk);
    PyBuffer_Release(&buf);
    Py_RETURN_NONE;
fail:
    free(offsets);
    Py_XDECREF(fo);
    Py_XDECREF(fk);
    PyBuffer_Release(&buf);
    return NULL;
}


/* -- probing --------------------------------------------------------------------------------- */
static int64_t PROBE_OFFSETS[4096];
static PyObject *DECODE = NULL; /* tuple of 256 (result, distance) tuples */
static PyObject *LOST = NULL;   /* (LOSS, 0) */

static PyObject *set_layout(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *offsets_obj, *decode, *lost;
    if (!PyArg_ParseTuple(args, "OO!O", &offsets_obj, &PyList_Type, &decode, &lost)) return NULL;
    if (PyList_GET_SIZE(decode) != 256) {
        PyErr_SetString(PyExc_ValueError, "256 decoded values");
        return NULL;
    }
    PyObject *fo = frozen_seq(offsets_obj, "offsets must be a sequence");
    if (!fo) return NULL;
    if (PySequence_Fast_GET_SIZE(fo) != 4096) {
        Py_DECREF(fo);
        PyErr_SetString(PyExc_ValueError, "4096 offsets");
        return NULL;
    }
    int64_t offsets[4096]; /* all read before any is used: a bad one leaves the layout as it was */
    for (Py_ssize_t i = 0; i < 4096; i++) {
        offsets[i] = PyLong_AsLongLong(PySequence_Fast_GET_ITEM(fo, i));
        if (offsets[i] == -1 && PyErr_Occurred()) {
            Py_DECREF(fo);
            return NULL;
        }
    }
    Py_DECREF(fo);
    PyObject *frozen = PyList_AsTuple(decode);
    if (!frozen) return NULL;
    memcpy(PROBE_OFFSETS, offsets, sizeof offsets);
    init_tables();
    /* DECODE is a tuple copy: the caller's list may change size later, probe indexes it by a
       byte. */
    Py_XSETREF(DECODE, frozen);
    Py_INCREF(lost);
    Py_XSETREF(LOST, lost);
    Py_RETURN_NONE;
}

/* The decoded value of (me, opp, kings, black) in the table's bytes, or None off the table. */
static PyObject *lookup(const uint8_t *data, Py_ssize_t len, long max_pieces, uint32_t b,
                        uint32_t r, uint32_t k, int black) {
    if (!black) {
        b = flip32(b);
        r = flip32(r);
        k = flip32(k);
    }
    /* Men on the row where they would be crowned are not positions of the table. */
    int pieces = popc(b | r);
    if (!r || pieces > max_pieces || pieces > MAX_PIECES || (b & ~k & BOTTOM_ROW) ||
        (r & ~k & TOP_ROW))
        Py_RETURN_NONE;
    int64_t off = PROBE_OFFSETS[key_of(b, r, k)];
    if (off < 0) Py_RETURN_NONE;
    uint64_t where = (uint64_t)off + rank_in(b, r, k);
    if (where >= (uint64_t)len) Py_RETURN_NONE;
    PyObject *value = PyTuple_GET_ITEM(DECODE, data[where]);
    Py_INCREF(value);
    return value;
}

/* probe(table, max_pieces, me, opp, kings, black): the decoded value, or None off the table. */
static PyObject *probe(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (nargs != 6 || !DECODE) {
        PyErr_SetString(PyExc_TypeError, "probe(table, max_pieces, me, opp, kings, black)");
        return NULL;
    }
    PyObject *t = args[0];
    if (!PyBytes_CheckExact(t) && !PyByteArray_CheckExact(t) && !PyMemoryView_Check(t)) {
        PyErr_SetString(PyExc_TypeError, "the table must be bytes, a bytearray or a memoryview");
        return NULL;
    }
    /* The numbers first: converting them may run Python code, which could resize a bytearray. */
    long max_pieces = PyLong_AsLong(args[1]);
    unsigned long me = PyLong_AsUnsignedLong(args[2]);
    unsigned long opp = PyLong_AsUnsignedLong(args[3]);
    unsigned long kings = PyLong_AsUnsignedLong(args[4]);
    int black = PyObject_IsTrue(args[5]);
    if (PyErr_Occurred() || black < 0) return NULL;
    if ((me | opp | kings) > 0xFFFFFFFFul || (me & opp)) {
        PyErr_SetString(PyExc_ValueError, "boards are 32-bit, the two sides disjoint");
        return NULL;
    }
    if (!me) {
        Py_INCREF(LOST);
        return LOST;
    }
    if (PyBytes_CheckExact(t)) /* immutable: read in place */
        return lookup((const uint8_t *)PyBytes_AS_STRING(t), PyBytes_GET_SIZE(t), max_pieces,
                      (uint32_t)me, (uint32_t)opp, (uint32_t)kings, black);
    /* Through the buffer protocol: a released view raises, a strided one is refused. */
    Py_buffer view;
    if (PyObject_GetBuffer(t, &view, PyBUF_SIMPLE) < 0) return NULL;
    PyObject *value = lookup((const uint8_t *)view.buf, view.len, max_pieces, (uint32_t)me,
                             (uint32_t)opp, (uint32_t)kings, black);
    PyBuffer_Release(&view);
    return value;
}

static PyMethodDef methods[] = {
    {"solve_group", solve_group, METH_VARARGS,
     "solve_group(table, offsets, keys): solve one group of signatures in place."},
    {"set_layout", set_layout, METH_VARARGS,
     "set_layout(offsets, decode, lost): the offsets and decoded values probe uses."},
    {"probe", (PyCFunction)(void (*)(void))probe, METH_FASTCALL,
     "probe(table, max_pieces, me, opp, kings, black): (result, distance) or None."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_egdbcore", "The checkers endgame database solver in C.", -1, methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__egdbcore(void) { return PyModule_Create(&module); }

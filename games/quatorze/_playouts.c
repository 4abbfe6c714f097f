/* The Quatorze hint's playouts, compiled: fair.playouts_python, sample for sample.
 *
 * playouts(grid, unseen, moves, samples, seed, weights, node_limit) -> list[bytes]
 *
 * grid: 25 bytes (values 1..13, 0 empty); unseen: the stock's values as bytes (their order is
 * not used: each sample shuffles them); moves: (first, second) cells. For each move, the
 * samples it won as bits, little-endian (bit k: sample k). Same generator (SplitMix64), same shuffles, same
 * rating in whole numbers, same tie-breaks and the same exact endgame check as the Python
 * code, so the two agree exactly while the endgame search stays under its node limit.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <limits.h>
#include <string.h>

/* obj's items as a new tuple (PySequence_Fast, but a copy): reading the items may run Python
   code (__index__), which must not be able to shrink the sequence under the reader. */
static PyObject *frozen_seq(PyObject *obj, const char *message)
{
    PyObject *items = PySequence_Tuple(obj);
    if (!items && PyErr_ExceptionMatches(PyExc_TypeError)) {
        PyErr_Clear();
        PyErr_SetString(PyExc_TypeError, message);
    }
    return items;
}

#define CELLS 25
#define TARGET 14
#define MAX_STOCK 52

static int line_pairs[100][2];
static int n_line_pairs;
static int mates[CELLS][8];

static void init_tables(void)
{
    /* Every unordered pair of cells in one row or column, sorted (as board.LINE_PAIRS). */
    n_line_pairs = 0;
    for (int a = 0; a < CELLS; a++)
        for (int b = a + 1; b < CELLS; b++)
            if (a / 5 == b / 5 || a % 5 == b % 5) {
                line_pairs[n_line_pairs][0] = a;
                line_pairs[n_line_pairs][1] = b;
                n_line_pairs++;
            }
    for (int c = 0; c < CELLS; c++) {
        int k = 0;
        for (int m = 0; m < CELLS; m++)
            if (m != c && (m / 5 == c / 5 || m % 5 == c % 5))
                mates[c][k++] = m;
    }
}

/* ---- SplitMix64, as fair.SplitMix ---- */

static inline uint64_t next64(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static inline int below(uint64_t *state, int n) { return (int)(next64(state) % (uint64_t)n); }

static void shuffle(uint64_t *state, unsigned char *cards, int n)
{
    for (int i = n - 1; i > 0; i--) {
        int j = below(state, i + 1);
        unsigned char t = cards[i];
        cards[i] = cards[j];
        cards[j] = t;
    }
}

/* ---- The endgame (stock gone): fair.Endgame ---- */

typedef struct {
    uint64_t hash;
    unsigned char grid[CELLS];
    unsigned char used, won;
} Slot;

#define MEMO_BITS 14
#define MEMO_SIZE (1 << MEMO_BITS)

typedef struct {
    Slot *slots;
    int filled;
    long nodes, limit;
    int cut;
} Endgame;

static uint64_t grid_hash(const unsigned char *g)
{
    uint64_t h = 1469598103934665603ULL;
    for (int i = 0; i < CELLS; i++) {
        h ^= g[i];
        h *= 1099511628211ULL;
    }
    return h;
}

static Slot *memo_find(Endgame *e, const unsigned char *g, uint64_t h)
{
    uint32_t i = (uint32_t)(h >> (64 - MEMO_BITS));
    for (;;) {
        Slot *s = &e->slots[i];
        if (!s->used || (s->hash == h && memcmp(s->grid, g, CELLS) == 0))
            return s;
        i = (i + 1) & (MEMO_SIZE - 1);
    }
}

static void memo_put(Endgame *e, const unsigned char *g, int won)
{
    if (e->filled >= MEMO_SIZE * 3 / 4) { /* full: forget everything (answers stay exact) */
        memset(e->slots, 0, sizeof(Slot) * MEMO_SIZE);
        e->filled = 0;
    }
    uint64_t h = grid_hash(g);
    Slot *s = memo_find(e, g, h);
    if (!s->used) {
        s->used = 1;
        s->hash = h;
        memcpy(s->grid, g, CELLS);
        e->filled++;
    }
    s->won = (unsigned char)won;
}

static int memo_get(Endgame *e, const unsigned char *g)
{
    Slot *s = memo_find(e, g, grid_hash(g));
    return s->used ? s->won : -1;
}

static int clears(Endgame *e, const unsigned char *g)
{
    if (!g[0])
        return 1;
    int known = memo_get(e, g);
    if (known >= 0)
        return known;
    if (++e->nodes > e->limit) {
        e->cut = 1;
        return 0;
    }
    for (int k = 0; k < n_line_pairs; k++) {
        int a = line_pairs[k][0], b = line_pairs[k][1];
        int va = g[a];
        if (!va)
            break;
        if (va + g[b] != TARGET)
            continue;
        unsigned char child[CELLS];
        int n = 0;
        for (int i = 0; i < CELLS; i++)
            if (i != a && i != b)
                child[n++] = g[i];
        child[n++] = 0;
        child[n++] = 0;
        if (clears(e, child))
            return 1;
        if (e->cut)
            return 0;
    }
    memo_put(e, g, 0);
    return 0;
}

/* A closed-up grid can be cleared; a search cut off by the node limit counts as a loss. */
static int endgame_won(Endgame *e, const unsigned char *g)
{
    int known = memo_get(e, g);
    if (known >= 0)
        return known;
    e->nodes = 0;
    e->cut = 0;
    int won = clears(e, g);
    if (e->cut)
        won = 0;
    memo_put(e, g, won);
    return won;
}

/* ---- Playing: board.play and fair.rollout ---- */

/* The cards close up in reading order, keeping their order: the empty cells come last. */
static void close_up(unsigned char *g)
{
    int k = 0;
    for (int i = 0; i < CELLS; i++)
        if (g[i])
            g[k++] = g[i];
    while (k < CELLS)
        g[k++] = 0;
}

/* Take first and second, refill from stock[top..]; close up once the stock is gone. */
static int play(unsigned char *g, const unsigned char *stock, int n, int top, int first, int second)
{
    g[first] = 0;
    g[second] = 0;
    if (top < n)
        g[first] = stock[top++];
    if (top < n)
        g[second] = stock[top++];
    if (top >= n)
        close_up(g);
    return top;
}

/* The rating's two terms, weighted by fair.ROLLOUT_RATING (whole numbers, scaled by the cards
 * left so that nothing is divided): pairs left, pairs the two refills are expected to make. */
#define TERMS 2
/* A rating weight's bound: the rating multiplies it by counts of at most 100 * 52 in a long
   (32 bits on some platforms). */
#define MAX_WEIGHT (1L << 16)
/* The most samples one call plays: 2**24 stock orders (the hint plays a few thousand). */
#define MAX_SAMPLES (1L << 24)

static int check_weights(const long *w)
{
    for (int k = 0; k < TERMS; k++)
        if (w[k] < -MAX_WEIGHT || w[k] > MAX_WEIGHT) {
            PyErr_Format(PyExc_ValueError, "weights are within +-%ld", MAX_WEIGHT);
            return 0;
        }
    return 1;
}

static int rollout(const unsigned char *grid, const unsigned char *stock, int n, int top,
                   uint64_t seed, const long *w, Endgame *e)
{
    unsigned char g[CELLS];
    int counts[15] = {0};
    memcpy(g, grid, CELLS);
    for (int i = top; i < n; i++)
        counts[stock[i]]++;
    uint64_t rng = seed;
    for (;;) {
        int left = n - top;
        if (left == 0) {
            close_up(g);
            return endgame_won(e, g);
        }
        int found[100], total = 0, deg[CELLS] = {0};
        for (int k = 0; k < n_line_pairs; k++) {
            int a = line_pairs[k][0], b = line_pairs[k][1];
            if (g[a] && g[a] + g[b] == TARGET) {
                found[total++] = k;
                deg[a]++;
                deg[b]++;
            }
        }
        if (!total)
            return 0;
        int need[CELLS], near[CELLS];
        for (int c = 0; c < CELLS; c++)
            need[c] = counts[TARGET - g[c]];
        for (int c = 0; c < CELLS; c++) {
            int s = 0;
            for (int j = 0; j < 8; j++)
                s += need[mates[c][j]];
            near[c] = s;
        }
        int best_a = 0, best_b = 0, ties = 0;
        long top_value = LONG_MIN;
        for (int f = 0; f < total; f++) {
            int a = line_pairs[found[f]][0], b = line_pairs[found[f]][1];
            int rest = total - deg[a] - deg[b] + 1;
            long base = w[0] * rest * left;
            int xs[2], ys[2], m;
            long vs[2];
            if (left == 1) {
                xs[0] = a, ys[0] = b, vs[0] = base + w[1] * (near[a] - need[b]);
                xs[1] = b, ys[1] = a, vs[1] = base + w[1] * (near[b] - need[a]);
                m = 2;
            } else {
                xs[0] = a, ys[0] = b;
                vs[0] = base + w[1] * (near[a] + near[b] - need[a] - need[b]);
                m = 1;
            }
            for (int i = 0; i < m; i++) {
                if (vs[i] > top_value) {
                    best_a = xs[i], best_b = ys[i], top_value = vs[i], ties = 1;
                } else if (vs[i] == top_value) {
                    ties++;
                    if (below(&rng, ties) == 0)
                        best_a = xs[i], best_b = ys[i];
                }
            }
        }
        int a = best_a, b = best_b;
        if (left > 2 && (next64(&rng) & 1)) {
            a = best_b;
            b = best_a;
        }
        if (left <= 2) {
            top = play(g, stock, n, top, a, b);
            return endgame_won(e, g);
        }
        counts[stock[top]]--;
        counts[stock[top + 1]]--;
        top = play(g, stock, n, top, a, b);
    }
}

/* Check a grid (25 values 0..13) and a stock (values 1..13) into C arrays. */
static int read_cards(Py_buffer *grid_buf, Py_buffer *stock_buf, unsigned char *grid,
                      unsigned char *stock)
{
    if (grid_buf->len != CELLS || stock_buf->len > MAX_STOCK) {
        PyErr_SetString(PyExc_ValueError, "a grid of 25 values, at most 52 unseen");
        return 0;
    }
    memcpy(grid, grid_buf->buf, CELLS);
    memcpy(stock, stock_buf->buf, (size_t)stock_buf->len);
    for (int i = 0; i < CELLS; i++)
        if (grid[i] > 13) {
            PyErr_SetString(PyExc_ValueError, "grid values are 0..13");
            return 0;
        }
    for (Py_ssize_t i = 0; i < stock_buf->len; i++)
        if (stock[i] < 1 || stock[i] > 13) {
            PyErr_SetString(PyExc_ValueError, "unseen values are 1..13");
            return 0;
        }
    return 1;
}

static PyObject *py_playouts(PyObject *self, PyObject *args)
{
    (void)self;
    Py_buffer grid_buf, pool_buf;
    PyObject *moves_obj;
    long samples, node_limit;
    unsigned long long seed;
    long w[TERMS];
    if (!PyArg_ParseTuple(args, "y*y*OlK(ll)l", &grid_buf, &pool_buf, &moves_obj, &samples, &seed,
                          &w[0], &w[1], &node_limit))
        return NULL;
    PyObject *result = NULL;
    int *moves = NULL;
    uint64_t *bits = NULL;
    Endgame e = {0};
    Py_ssize_t n_moves = 0, words = 0;
    unsigned char grid[CELLS], pool[MAX_STOCK];
    int n = (int)pool_buf.len;
    if (samples < 0 || samples > MAX_SAMPLES) {
        PyErr_Format(PyExc_ValueError, "samples is 0..%ld", MAX_SAMPLES);
        goto done;
    }
    if (!check_weights(w))
        goto done;
    if (!read_cards(&grid_buf, &pool_buf, grid, pool))
        goto done;
    PyObject *seq = frozen_seq(moves_obj, "moves must be a sequence of (first, second)");
    if (!seq)
        goto done;
    n_moves = PySequence_Fast_GET_SIZE(seq);
    moves = PyMem_Malloc(sizeof(int) * 2 * (size_t)(n_moves ? n_moves : 1));
    if (!moves) {
        Py_DECREF(seq);
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t i = 0; i < n_moves; i++) {
        int a, b;
        PyObject *move = PySequence_Fast_GET_ITEM(seq, i);
        if (!PyTuple_Check(move)) { /* PyArg_ParseTuple would raise SystemError */
            Py_DECREF(seq);
            PyErr_SetString(PyExc_TypeError, "each move is a tuple (first, second)");
            goto done;
        }
        if (!PyArg_ParseTuple(move, "ii", &a, &b) || a < 0 ||
            b < 0 || a >= CELLS || b >= CELLS || a == b || !grid[a] ||
            grid[a] + grid[b] != TARGET) {
            Py_DECREF(seq);
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_ValueError, "each move takes a pair of the grid");
            goto done;
        }
        moves[2 * i] = a;
        moves[2 * i + 1] = b;
    }
    Py_DECREF(seq);
    words = (samples + 63) / 64;
    bits = calloc((size_t)(n_moves * words + 1), sizeof(uint64_t));
    e.slots = calloc(MEMO_SIZE, sizeof(Slot));
    if (!bits || !e.slots) {
        PyErr_NoMemory();
        goto done;
    }
    e.limit = node_limit;
    Py_BEGIN_ALLOW_THREADS
    uint64_t rng = (uint64_t)seed;
    for (long k = 0; k < samples; k++) {
        shuffle(&rng, pool, n);
        uint64_t policy_seed = next64(&rng);
        for (Py_ssize_t i = 0; i < n_moves; i++) {
            unsigned char child[CELLS];
            memcpy(child, grid, CELLS);
            int top = play(child, pool, n, 0, moves[2 * i], moves[2 * i + 1]);
            int won = top >= n ? endgame_won(&e, child)
                               : rollout(child, pool, n, top, policy_seed, w, &e);
            if (won)
                bits[i * words + k / 64] |= 1ULL << (k % 64);
        }
    }
    Py_END_ALLOW_THREADS
    result = PyList_New(n_moves);
    if (!result)
        goto done;
    for (Py_ssize_t i = 0; i < n_moves; i++) {
        PyObject *value = PyBytes_FromStringAndSize(NULL, words * 8);
        if (!value) {
            Py_CLEAR(result);
            goto done;
        }
        unsigned char *out = (unsigned char *)PyBytes_AS_STRING(value);
        for (Py_ssize_t w = 0; w < words; w++)
            for (int j = 0; j < 8; j++)
                out[w * 8 + j] = (unsigned char)(bits[i * words + w] >> (8 * j));
        PyList_SET_ITEM(result, i, value);
    }
done:
    PyBuffer_Release(&grid_buf);
    PyBuffer_Release(&pool_buf);
    PyMem_Free(moves);
    free(bits);
    free(e.slots);
    return result;
}

static PyObject *py_rollout(PyObject *self, PyObject *args)
{
    (void)self;
    Py_buffer grid_buf, stock_buf;
    unsigned long long seed;
    long w[TERMS], node_limit;
    if (!PyArg_ParseTuple(args, "y*y*K(ll)l", &grid_buf, &stock_buf, &seed, &w[0], &w[1],
                          &node_limit))
        return NULL;
    unsigned char grid[CELLS], stock[MAX_STOCK];
    int ok = check_weights(w) && read_cards(&grid_buf, &stock_buf, grid, stock);
    int n = (int)stock_buf.len;
    PyBuffer_Release(&grid_buf);
    PyBuffer_Release(&stock_buf);
    if (!ok)
        return NULL;
    Endgame e = {0};
    e.slots = calloc(MEMO_SIZE, sizeof(Slot));
    if (!e.slots)
        return PyErr_NoMemory();
    e.limit = node_limit;
    int won = rollout(grid, stock, n, 0, (uint64_t)seed, w, &e);
    free(e.slots);
    return PyBool_FromLong(won);
}

static PyMethodDef methods[] = {
    {"rollout", py_rollout, METH_VARARGS,
     "rollout(grid, stock, seed, weights, node_limit) -> bool: fair.rollout on this stock order "
     "(from its first card)."},
    {"playouts", py_playouts, METH_VARARGS,
     "playouts(grid, unseen, moves, samples, seed, weights, node_limit) -> list[bytes]: for each "
     "move, the sampled stock orders it won, as little-endian bits."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_playouts",
                                    "The Quatorze hint's playouts, compiled.", -1, methods,
                                    NULL,   NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__playouts(void)
{
    init_tables();
    return PyModule_Create(&module);
}

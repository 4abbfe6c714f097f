/* The checkers search in C: the same algorithm as games/checkers/search.py, compiled.
 *
 * Mirrors games/checkers/bitboard.py (move generation, in the same order), evaluation.py (the
 * same terms, weights passed in from Python) and search.py (iterative-deepening PVS with a
 * path-respecting transposition table, killers, history, LMR, the threat extension at the
 * horizon, endgame database probes through a Python callback, node limit and deadline).
 *
 * Differences from search.py, on purpose:
 * - the transposition table is a fixed array of two-entry buckets (a deep entry and a recent
 *   one) instead of a dict that is cleared when full;
 * - history scores used for ordering are capped below the killers' rank;
 * - searches by time may read what earlier searches stored (keep_table): the entries of the
 *   previous moves give the next search a head start.
 *
 * All search state lives in one struct per call, so concurrent calls from several threads
 * never share anything but read-only tables (and the kept transposition table, which one call
 * at a time owns). The search runs without the GIL and takes it back only for the endgame
 * database's probe, which is Python code.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

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

typedef uint32_t u32;
typedef uint64_t u64;
typedef int64_t i64;

#define FULL 0xFFFFFFFFu
#define TOP_ROW 0x0000000Fu
#define BOTTOM_ROW 0xF0000000u

#define MATE 100000
#define INF 1000000
#define EGDB_WIN (MATE - 1000)
#define MAX_PLY 128
#define WIN_BOUND (EGDB_WIN - 400)
#define DRAW_PLIES 80
#define EXACT 0
#define LOWER 1
#define UPPER 2
#define NBASIC 15 /* the named terms before the squares' tables (evaluation.BASIC) */
#define NTERMS 123
#define MAN_EARLY NBASIC
#define MAN_LATE (NBASIC + 28)
#define KING_SQ (NBASIC + 56)
#define HOME (NBASIC + 88)
#define KING_MOBILITY (HOME + 15)
#define TRAPPED (HOME + 16)
#define BALANCE (HOME + 17)
#define SOLE_KINGS (HOME + 18)
#define THE_MOVE (HOME + 19)
#define NREGIONS 16       /* the patterns' regions (evaluation.REGIONS): 7 bands, 9 boxes */
#define REGION_SIZE 6561  /* 3^8 fillings of a region's eight squares */
#define NPATTERNS (NREGIONS * REGION_SIZE)
#define MAXMOVES 320
#define MAXPATH 20
#define NO_MOVE 0xFFFF
#define FAR_OFF 120 /* a static score this far outside a null window: two plies less */
#define OFF 60      /* this far: one ply less (search.py's FAR_OFF and OFF) */

#define POPCOUNT(x) __builtin_popcount(x)
#define CTZ(x) __builtin_ctz(x)

/* -- tables (built once, at import) ---------------------------------------------------------- */
enum { DOWN_LEFT, DOWN_RIGHT, UP_LEFT, UP_RIGHT };
static const int STEPS[4][2] = {{1, -1}, {1, 1}, {-1, -1}, {-1, 1}};
static int NEIGHBOUR[4][32], LANDING[4][32];

typedef struct {
    u32 over;
    int land;
    u32 lbit;
} Jump;

/* Jumps per square in the order of bitboard._jumps: down = (DL, DR), up = (UL, UR), king = all. */
static Jump J_DOWN[32][2], J_UP[32][2], J_KING[32][4];
static int N_DOWN[32], N_UP[32], N_KING[32];
static u32 DL4, DL3, DR5, DR4, UL4, UL5, UR3, UR4;

static u32 CONE_BLACK[32], CONE_RED[32];
static int DIST[32][32];

static u64 ZOBRIST[2][2][32];
static u64 Z_RED_TO_MOVE;
static int zobrist_ready = 0;

#define CENTRE ((1u << 13) | (1u << 14) | (1u << 17) | (1u << 18))
#define NEAR_CENTRE                                                                        \
    ((1u << 9) | (1u << 10) | (1u << 21) | (1u << 22) | (1u << 12) | (1u << 15) | (1u << 16) | \
     (1u << 19))
#define BLACK_BRIDGE ((1u << 0) | (1u << 2))
#define RED_BRIDGE ((1u << 29) | (1u << 31))
#define BLACK_DOG (1u << 27)
#define RED_CORNER (1u << 31)
#define RED_DOG (1u << 4)
#define BLACK_CORNER (1u << 0)
static u32 EDGES, LEFT_HALF, SYSTEM[2];
static int REVERSED[16];
/* evaluation._REGION_TABLES: per region, the board rows it covers and each row's part of the
   region's base-3 number by the row's pieces ([16 * mine + theirs]). */
static int REGION_ROWS[NREGIONS], REGION_ROW[NREGIONS][4], REGION_CODE[NREGIONS][4][256];
static const u32 ROW_MASK[8] = {0xFu,       0xF0u,       0xF00u,       0xF000u,
                                0xF0000u,   0xF00000u,   0xF000000u,   0xF0000000u};

static void coords(int i, int *row, int *col) {
    *row = i / 4;
    *col = 2 * (i % 4) + ((*row % 2 == 0) ? 1 : 0);
}

static int index_at(int row, int col) {
    if (row < 0 || row >= 8 || col < 0 || col >= 8 || (row + col) % 2 == 0) return -1;
    return 4 * row + col / 2;
}

static void build_tables(void) {
    for (int d = 0; d < 4; d++) {
        for (int i = 0; i < 32; i++) {
            int r, c;
            coords(i, &r, &c);
            int n = index_at(r + STEPS[d][0], c + STEPS[d][1]);
            int f = index_at(r + 2 * STEPS[d][0], c + 2 * STEPS[d][1]);
            NEIGHBOUR[d][i] = n;
            LANDING[d][i] = (f < 0 || n < 0) ? -1 : f;
        }
    }
    u32 masks[4][11];
    memset(masks, 0, sizeof masks);
    for (int d = 0; d < 4; d++)
        for (int i = 0; i < 32; i++) {
            int j = NEIGHBOUR[d][i];
            if (j >= 0) masks[d][j - i + 5] |= 1u << i;
        }
    DL4 = masks[DOWN_LEFT][4 + 5];
    DL3 = masks[DOWN_LEFT][3 + 5];
    DR5 = masks[DOWN_RIGHT][5 + 5];
    DR4 = masks[DOWN_RIGHT][4 + 5];
    UL4 = masks[UP_LEFT][-4 + 5];
    UL5 = masks[UP_LEFT][-5 + 5];
    UR3 = masks[UP_RIGHT][-3 + 5];
    UR4 = masks[UP_RIGHT][-4 + 5];
    static const int down[2] = {DOWN_LEFT, DOWN_RIGHT}, up[2] = {UP_LEFT, UP_RIGHT};
    static const int all[4] = {DOWN_LEFT, DOWN_RIGHT, UP_LEFT, UP_RIGHT};
    for (int i = 0; i < 32; i++) {
        N_DOWN[i] = N_UP[i] = N_KING[i] = 0;
        for (int k = 0; k < 4; k++) {
            int d = all[k];
            if (LANDING[d][i] < 0) continue;
            Jump jp = {1u << NEIGHBOUR[d][i], LANDING[d][i], 1u << LANDING[d][i]};
            J_KING[i][N_KING[i]++] = jp;
            if (k < 2 && d == down[k]) J_DOWN[i][N_DOWN[i]++] = jp;
            if (k >= 2 && d == up[k - 2]) J_UP[i][N_UP[i]++] = jp;
        }
    }
    /* Runaway cones (evaluation._cones). */
    for (int i = 0; i < 32; i++) {
        int row, col;
        coords(i, &row, &col);
        for (int t = 0; t < 2; t++) {
            int step = t == 0 ? 1 : -1, last = t == 0 ? 7 : 0;
            u32 mask = 0;
            int r = row + step, width = 2;
            while (r >= 0 && r <= 7) {
                for (int c = col - width; c <= col + width; c++) {
                    int j = index_at(r, c);
                    if (j >= 0) mask |= 1u << j;
                }
                if (r == last) break;
                r += step;
                width += 1;
            }
            if (t == 0)
                CONE_BLACK[i] = mask;
            else
                CONE_RED[i] = mask;
        }
    }
    for (int i = 0; i < 32; i++)
        for (int j = 0; j < 32; j++) {
            int ri, ci, rj, cj;
            coords(i, &ri, &ci);
            coords(j, &rj, &cj);
            int dr = abs(ri - rj), dc = abs(ci - cj);
            DIST[i][j] = dr > dc ? dr : dc;
        }
    static const int edges[14] = {5, 13, 21, 12, 20, 28, 1, 2, 3, 4, 29, 30, 31, 32};
    EDGES = 0;
    for (int k = 0; k < 14; k++) EDGES |= 1u << (edges[k] - 1);
    LEFT_HALF = SYSTEM[0] = SYSTEM[1] = 0;
    for (int i = 0; i < 32; i++) {
        int row, col;
        coords(i, &row, &col);
        if (col < 4) LEFT_HALF |= 1u << i;
        SYSTEM[row % 2 == 0] |= 1u << i; /* [0]: Red's system, [1]: Black's */
    }
    for (int p = 0; p < 16; p++)
        REVERSED[p] = (p & 1) << 3 | (p & 2) << 1 | (p & 4) >> 1 | (p & 8) >> 3;
    /* The regions: bands of rows r, r + 1 (r = 0..6), then boxes of rows and columns
     * top..top + 3, left..left + 3 (top, left = 0, 2, 4); squares lowest index first. */
    for (int g = 0; g < NREGIONS; g++) {
        int squares[8], n = 0;
        for (int i = 0; i < 32; i++) {
            int r, c;
            coords(i, &r, &c);
            int in = g < 7 ? (r >= g && r < g + 2)
                           : (r >= 2 * ((g - 7) / 3) && r < 2 * ((g - 7) / 3) + 4 &&
                              c >= 2 * ((g - 7) % 3) && c < 2 * ((g - 7) % 3) + 4);
            if (in && n < 8) squares[n++] = i;
        }
        REGION_ROWS[g] = 0;
        for (int k = 0; k < n; k++) {
            int row = squares[k] / 4, j = 0;
            while (j < REGION_ROWS[g] && REGION_ROW[g][j] != row) j++;
            if (j == REGION_ROWS[g]) REGION_ROW[g][REGION_ROWS[g]++] = row;
        }
        for (int j = 0; j < REGION_ROWS[g]; j++)
            for (int mine = 0; mine < 16; mine++)
                for (int theirs = 0; theirs < 16; theirs++) {
                    int code = 0, place = 1;
                    for (int k = 0; k < n; k++, place *= 3) {
                        if (squares[k] / 4 != REGION_ROW[g][j]) continue;
                        int bit = squares[k] % 4;
                        code += place * ((mine >> bit & 1) ? 1 : (theirs >> bit & 1) ? 2 : 0);
                    }
                    REGION_CODE[g][j][16 * mine + theirs] = (mine & theirs) ? 0 : code;
                }
    }
}

static inline u32 down_left(u32 b) { return ((b & DL4) << 4) | ((b & DL3) << 3); }
static inline u32 down_right(u32 b) { return ((b & DR5) << 5) | ((b & DR4) << 4); }
static inline u32 up_left(u32 b) { return ((b & UL4) >> 4) | ((b & UL5) >> 5); }
static inline u32 up_right(u32 b) { return ((b & UR3) >> 3) | ((b & UR4) >> 4); }

/* -- move generation (bitboard.py, same order) ------------------------------------------------ */
typedef struct {
    u32 fb, tb, cap;
    uint8_t n; /* path length */
    uint8_t path[MAXPATH];
} Move;

typedef struct {
    Move *m;
    int n;
    int overflow;
} MoveList;

static inline void add_move(MoveList *ml, u32 fb, u32 tb, u32 cap, const uint8_t *path, int n) {
    if (ml->n >= MAXMOVES || n > MAXPATH) {
        ml->overflow = 1;
        return;
    }
    Move *m = &ml->m[ml->n++];
    m->fb = fb;
    m->tb = tb;
    m->cap = cap;
    m->n = (uint8_t)n;
    memcpy(m->path, path, (size_t)n);
}

static void man_chain(int i, u32 opp, u32 empty, const Jump (*table)[2], const int *ntab,
                      u32 crown, uint8_t *path, int plen, u32 captured, MoveList *ml, u32 start) {
    int more = 0;
    for (int k = 0; k < ntab[i]; k++) {
        const Jump *j = &table[i][k];
        if ((opp & j->over) && (empty & j->lbit)) {
            more = 1;
            if (plen >= MAXPATH) {
                ml->overflow = 1;
                continue;
            }
            path[plen] = (uint8_t)j->land;
            if (j->lbit & crown)
                add_move(ml, start, j->lbit, captured | j->over, path, plen + 1);
            else
                man_chain(j->land, opp ^ j->over, empty, table, ntab, crown, path, plen + 1,
                          captured | j->over, ml, start);
        }
    }
    if (!more) add_move(ml, start, 1u << i, captured, path, plen);
}

static void king_chain(int i, u32 opp, u32 empty, uint8_t *path, int plen, u32 captured,
                       MoveList *ml, u32 start) {
    int more = 0;
    for (int k = 0; k < N_KING[i]; k++) {
        const Jump *j = &J_KING[i][k];
        if ((opp & j->over) && (empty & j->lbit)) {
            more = 1;
            if (plen >= MAXPATH) {
                ml->overflow = 1;
                continue;
            }
            path[plen] = (uint8_t)j->land;
            king_chain(j->land, opp ^ j->over, empty, path, plen + 1, captured | j->over, ml,
                       start);
        }
    }
    if (!more) add_move(ml, start, 1u << i, captured, path, plen);
}

static inline u32 jumpers(u32 me, u32 opp, u32 kings, u32 empty, int black) {
    u32 back = me & kings, r;
    if (black) {
        r = (up_right(up_right(empty) & opp) | up_left(up_left(empty) & opp)) & me;
        if (back)
            r |= (down_right(down_right(empty) & opp) | down_left(down_left(empty) & opp)) & back;
    } else {
        r = (down_right(down_right(empty) & opp) | down_left(down_left(empty) & opp)) & me;
        if (back) r |= (up_right(up_right(empty) & opp) | up_left(up_left(empty) & opp)) & back;
    }
    return r;
}

static int gen_captures(u32 me, u32 opp, u32 kings, int black, MoveList *ml) {
    u32 empty = ~(me | opp);
    u32 js = jumpers(me, opp, kings, empty, black);
    ml->n = 0;
    ml->overflow = 0;
    if (!js) return 0;
    u32 crown = black ? BOTTOM_ROW : TOP_ROW;
    uint8_t path[MAXPATH + 1];
    while (js) {
        u32 bit = js & -js;
        js ^= bit;
        int i = CTZ(bit);
        path[0] = (uint8_t)i;
        if (bit & kings)
            king_chain(i, opp, empty | bit, path, 1, 0, ml, bit);
        else if (black)
            man_chain(i, opp, empty, J_DOWN, N_DOWN, crown, path, 1, 0, ml, bit);
        else
            man_chain(i, opp, empty, J_UP, N_UP, crown, path, 1, 0, ml, bit);
    }
    return ml->n;
}

static inline void add_steps(MoveList *ml, u32 targets, const int *back) {
    while (targets) {
        u32 bit = targets & -targets;
        targets ^= bit;
        int j = CTZ(bit);
        int i = back[j];
        uint8_t path[2] = {(uint8_t)i, (uint8_t)j};
        add_move(ml, 1u << i, bit, 0, path, 2);
    }
}

static int gen_moves(u32 me, u32 opp, u32 kings, int black, MoveList *ml) {
    if (gen_captures(me, opp, kings, black, ml)) return ml->n;
    u32 empty = ~(me | opp), mk = me & kings;
    if (black) {
        add_steps(ml, down_left(me) & empty, NEIGHBOUR[UP_RIGHT]);
        add_steps(ml, down_right(me) & empty, NEIGHBOUR[UP_LEFT]);
        if (mk) {
            add_steps(ml, up_left(mk) & empty, NEIGHBOUR[DOWN_RIGHT]);
            add_steps(ml, up_right(mk) & empty, NEIGHBOUR[DOWN_LEFT]);
        }
    } else {
        add_steps(ml, up_left(me) & empty, NEIGHBOUR[DOWN_RIGHT]);
        add_steps(ml, up_right(me) & empty, NEIGHBOUR[DOWN_LEFT]);
        if (mk) {
            add_steps(ml, down_left(mk) & empty, NEIGHBOUR[UP_RIGHT]);
            add_steps(ml, down_right(mk) & empty, NEIGHBOUR[UP_LEFT]);
        }
    }
    return ml->n;
}

static inline int count_steps(u32 me, u32 opp, u32 kings, int black) {
    u32 empty = ~(me | opp), mk = me & kings;
    int n;
    if (black) {
        n = POPCOUNT(down_left(me) & empty) + POPCOUNT(down_right(me) & empty);
        if (mk) n += POPCOUNT(up_left(mk) & empty) + POPCOUNT(up_right(mk) & empty);
    } else {
        n = POPCOUNT(up_left(me) & empty) + POPCOUNT(up_right(me) & empty);
        if (mk) n += POPCOUNT(down_left(mk) & empty) + POPCOUNT(down_right(mk) & empty);
    }
    return n;
}

static inline int has_capture(u32 me, u32 opp, u32 kings, int black) {
    return jumpers(me, opp, kings, ~(me | opp), black) != 0;
}

static inline void apply_move(u32 *me, u32 *opp, u32 *kings, int black, const Move *m) {
    *me ^= m->fb ^ m->tb;
    if (m->cap) {
        *opp &= ~m->cap;
        *kings &= ~m->cap;
    }
    if (*kings & m->fb)
        *kings ^= m->fb ^ m->tb;
    else if (m->tb & (black ? BOTTOM_ROW : TOP_ROW))
        *kings |= m->tb;
}

static u64 perft_c(u32 me, u32 opp, u32 kings, int black, int depth, Move *arena) {
    MoveList ml = {arena, 0, 0};
    if (depth <= 1) {
        if (depth < 1) return 1;
        if (gen_captures(me, opp, kings, black, &ml)) return (u64)ml.n;
        return (u64)count_steps(me, opp, kings, black);
    }
    int n = gen_moves(me, opp, kings, black, &ml);
    u64 total = 0;
    for (int i = 0; i < n; i++) {
        u32 m = me, o = opp, k = kings;
        apply_move(&m, &o, &k, black, &arena[i]);
        total += perft_c(o, m, k, !black, depth - 1, arena + MAXMOVES);
    }
    return total;
}

/* -- evaluation (evaluation.py) ---------------------------------------------------------------- */
static inline int advancement(u32 men, int black) {
    int total = 0;
    for (int r = 0; r < 8; r++) {
        u32 x = men & ROW_MASK[r];
        if (x) total += POPCOUNT(x) * (black ? r : 7 - r);
    }
    return total;
}

static int runaways(u32 men, u32 opp, int black) {
    int bonus = 0;
    const u32 *cones = black ? CONE_BLACK : CONE_RED;
    while (men) {
        u32 bit = men & -men;
        men ^= bit;
        int i = CTZ(bit);
        if (!(opp & cones[i])) {
            int row = i / 4;
            int distance = black ? 7 - row : row;
            bonus += 7 - distance;
        }
    }
    return bonus;
}

static int chase(u32 my_kings, u32 opp) {
    int total = 0;
    while (my_kings) {
        u32 bit = my_kings & -my_kings;
        my_kings ^= bit;
        const int *row = DIST[CTZ(bit)];
        int best = 1000;
        u32 t = opp;
        while (t) {
            u32 b = t & -t;
            t ^= b;
            int d = row[CTZ(b)];
            if (d < best) best = d;
        }
        total += 7 - best;
    }
    return total;
}

static void basic_c(u32 me, u32 opp, u32 kings, int black, int my_steps, const int *w, int *f) {
    u32 my_men = me & ~kings, opp_men = opp & ~kings;
    u32 my_kings = me & kings, opp_kings = opp & kings;
    int nm = POPCOUNT(my_men), nk = POPCOUNT(my_kings);
    int om = POPCOUNT(opp_men), ok = POPCOUNT(opp_kings);
    int pieces = nm + nk + om + ok, lead = nm + nk - om - ok;
    int adv, dog;
    u32 my_back, opp_back, my_bridge, opp_bridge;
    if (black) {
        adv = advancement(my_men, 1) - advancement(opp_men, 0);
        my_back = my_men & TOP_ROW;
        opp_back = opp_men & BOTTOM_ROW;
        my_bridge = my_men & BLACK_BRIDGE;
        opp_bridge = opp_men & RED_BRIDGE;
        dog = ((my_men & BLACK_DOG) && (opp_men & RED_CORNER)) -
              ((opp_men & RED_DOG) && (my_men & BLACK_CORNER));
    } else {
        adv = advancement(my_men, 0) - advancement(opp_men, 1);
        my_back = my_men & BOTTOM_ROW;
        opp_back = opp_men & TOP_ROW;
        my_bridge = my_men & RED_BRIDGE;
        opp_bridge = opp_men & BLACK_BRIDGE;
        dog = ((my_men & RED_DOG) && (opp_men & BLACK_CORNER)) -
              ((opp_men & BLACK_DOG) && (my_men & RED_CORNER));
    }
    int back = (om ? POPCOUNT(my_back) : 0) - (nm ? POPCOUNT(opp_back) : 0);
    int bridge = (om ? POPCOUNT(my_bridge) : 0) - (nm ? POPCOUNT(opp_bridge) : 0);
    int run = 0, ch = 0;
    if (pieces <= 16) {
        if (!w || w[12])
            run = (nm ? runaways(my_men, opp, black) : 0) - (om ? runaways(opp_men, me, !black) : 0);
        if (pieces <= 10 && lead && (!w || w[13])) {
            if (lead > 0 && my_kings && opp)
                ch = chase(my_kings, opp);
            else if (lead < 0 && opp_kings && me)
                ch = -chase(opp_kings, me);
        }
    }
    int mob = 0;
    if (!w || w[14]) {
        if (my_steps < 0) my_steps = count_steps(me, opp, kings, black);
        mob = my_steps - count_steps(opp, me, kings, !black);
    }
    f[0] = nm - om;
    f[1] = nk - ok;
    f[2] = (nm + nk && om + ok) ? lead * (24 - pieces) : 0;
    f[3] = back;
    f[4] = bridge;
    f[5] = dog;
    f[6] = POPCOUNT(me & CENTRE) - POPCOUNT(opp & CENTRE);
    f[7] = POPCOUNT(me & NEAR_CENTRE) - POPCOUNT(opp & NEAR_CENTRE);
    f[8] = POPCOUNT(my_kings & EDGES) - POPCOUNT(opp_kings & EDGES);
    f[9] = pieces > 16 ? adv : 0;
    f[10] = (pieces > 8 && pieces <= 16) ? adv : 0;
    f[11] = pieces <= 8 ? adv : 0;
    f[12] = run;
    f[13] = ch;
    f[14] = mob;
}

/* The squares' terms (evaluation._tables), mine minus theirs: added to f[] when f is given,
   and their weighted sum returned when w is given. */
static int tables_c(u32 me, u32 opp, u32 kings, int black, const int *w, int *f) {
    u32 occupied = me | opp, empty = ~occupied;
    int pieces = POPCOUNT(occupied), total = 0;
    int men_base = pieces > 16 ? MAN_EARLY : MAN_LATE;
#define ADD(index, amount)                        \
    do {                                          \
        int idx_ = (index), amt_ = (amount);      \
        if (f) f[idx_] += amt_;                   \
        if (w) total += w[idx_] * amt_;           \
    } while (0)
    for (int s = 0; s < 2; s++) {
        u32 side = s ? opp : me, other = s ? me : opp;
        int sign = s ? -1 : 1, own_black = s ? !black : black;
        int flip = own_black ? 0 : 31;
        u32 men = side & ~kings, mk = side & kings;
        for (u32 t = men; t; t &= t - 1) ADD(men_base + (CTZ(t) ^ flip), sign);
        for (u32 t = mk; t; t &= t - 1) ADD(KING_SQ + (CTZ(t) ^ flip), sign);
        if (other & ~kings) {
            int home = flip ? REVERSED[men >> 28] : (int)(men & 0xF);
            if (home) ADD(HOME + home - 1, sign);
        }
        if (mk) {
            u32 dl = down_left(mk) & empty, dr = down_right(mk) & empty;
            u32 ul = up_left(mk) & empty, ur = up_right(mk) & empty;
            u32 free = up_right(dl) | up_left(dr) | down_right(ul) | down_left(ur);
            ADD(KING_MOBILITY, sign * (POPCOUNT(dl) + POPCOUNT(dr) + POPCOUNT(ul) + POPCOUNT(ur)));
            ADD(TRAPPED, sign * POPCOUNT(mk & ~free));
        }
        int left = POPCOUNT(men & LEFT_HALF);
        ADD(BALANCE, sign * abs(2 * left - POPCOUNT(men)));
    }
    u32 my_kings = me & kings, opp_kings = opp & kings;
    int sole = (my_kings && !opp_kings) - (opp_kings && !my_kings);
    if (sole) ADD(SOLE_KINGS, sole);
    if (pieces <= 12 && POPCOUNT(me) == POPCOUNT(opp))
        ADD(THE_MOVE, POPCOUNT(occupied & SYSTEM[black ? 1 : 0]) % 2 ? 1 : -1);
#undef ADD
    return total;
}

static void features_c(u32 me, u32 opp, u32 kings, int black, int my_steps, const int *w, int *f) {
    basic_c(me, opp, kings, black, my_steps, w, f);
    memset(f + NBASIC, 0, (NTERMS - NBASIC) * sizeof(int));
    tables_c(me, opp, kings, black, NULL, f);
}

/* evaluation.pattern_indices: each region's filling as an index into the patterns. */
static inline void pattern_indices_c(u32 me, u32 opp, int black, int *idx) {
    int rows[8];
    for (int r = 0; r < 8; r++) {
        if (black)
            rows[r] = 16 * ((me >> 4 * r) & 15) + ((opp >> 4 * r) & 15);
        else
            rows[r] = 16 * REVERSED[(me >> 4 * (7 - r)) & 15] + REVERSED[(opp >> 4 * (7 - r)) & 15];
    }
    for (int g = 0; g < NREGIONS; g++) {
        int code = g * REGION_SIZE;
        for (int j = 0; j < REGION_ROWS[g]; j++) code += REGION_CODE[g][j][rows[REGION_ROW[g][j]]];
        idx[g] = code;
    }
}

/* The static score: the terms' weights w, and the patterns' values pat when not NULL. */
static inline int evaluate_c(const int *w, const int *pat, u32 me, u32 opp, u32 kings, int black,
                             int steps) {
    int f[NBASIC];
    basic_c(me, opp, kings, black, steps, w, f);
    int total = 0;
    for (int k = 0; k < NBASIC; k++) total += w[k] * f[k];
    if (pat) {
        int idx[NREGIONS];
        pattern_indices_c(me, opp, black, idx);
        for (int g = 0; g < NREGIONS; g++) total += pat[idx[g]];
    }
    return total + tables_c(me, opp, kings, black, w, NULL);
}

/* -- the search (search.py) -------------------------------------------------------------------- */
typedef struct {
    u64 key;
    int32_t score;
    uint16_t move; /* from << 5 | to, or NO_MOVE */
    int8_t depth;  /* -1: only the move is kept (a score that leaned on the path) */
    uint8_t flag;  /* generation << 2 | (EXACT/LOWER/UPPER + 1); other generations are empty */
} TTEntry;

/* One table kept between searches and emptied in O(1) by bumping the generation (a search
 * sees exactly what a fresh table would show, so node-limited searches stay repeatable). A
 * second search running at the same time (another thread) gets a private table. */
static TTEntry *tt_cache = NULL;
static int tt_cache_bits = 0, tt_cache_busy = 0, tt_cache_gen = 0;

typedef struct {
    TTEntry *tt;
    u64 tt_mask; /* bucket index mask (two entries a bucket) */
    int tt_gen, tt_shared, tt_keep; /* keep: earlier searches' entries are read too */
    uint16_t killers[MAX_PLY][2];
    i64 history[32][32];
    i64 nodes, limit; /* limit < 0: none */
    double deadline;  /* < 0: none */
    double soft;      /* iterate() starts no new depth after this (< 0: none) */
    int can_stop, stop, error;
    PyObject *probe;
    PyThreadState *ts; /* while the search runs without the GIL; NULL when it holds it */
    int egdb_pieces;
    i64 egdb_hits, path_draws;
    u64 *path;
    int pathlen, pathcap;
    int root_clock, threat_plies, lmr, prune;
    int cut[MAX_PLY]; /* plies taken off the path to each ply, given back when it levels out */
    int w[NTERMS];
    int *pat; /* the patterns' values (NPATTERNS), or NULL for none */
    Move root_move, root_partial;
    int have_root_move, have_root_partial;
    Move *arena; /* MAXMOVES moves per ply */
} S;

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static inline uint16_t ident(const Move *m) { return (uint16_t)(CTZ(m->fb) << 5 | CTZ(m->tb)); }

/* LIVE: written by this search. SEEN: readable by it (with tt_keep, also earlier searches'). */
#define LIVE(s, e) ((e).flag && ((e).flag >> 2) == (s)->tt_gen)
#define SEEN(s, e) ((e).flag && ((s)->tt_keep || ((e).flag >> 2) == (s)->tt_gen))

static inline TTEntry *tt_find(S *s, u64 key) {
    TTEntry *b = &s->tt[(key & s->tt_mask) << 1];
    if (SEEN(s, b[0]) && b[0].key == key) return &b[0];
    if (SEEN(s, b[1]) && b[1].key == key) return &b[1];
    return NULL;
}

static inline void tt_store(S *s, u64 key, int depth, int flag, int score, uint16_t move) {
    TTEntry *b = &s->tt[(key & s->tt_mask) << 1];
    TTEntry *e;
    if (SEEN(s, b[0]) && b[0].key == key)
        e = &b[0];
    else if (SEEN(s, b[1]) && b[1].key == key)
        e = &b[1];
    else if (!LIVE(s, b[0]) || depth >= b[0].depth) {
        b[1] = b[0]; /* the deep slot's old entry moves to the recent slot */
        e = &b[0];
    } else
        e = &b[1];
    if (depth > 127) depth = 127;
    e->key = key;
    e->score = score;
    e->move = move;
    e->depth = (int8_t)depth;
    e->flag = (uint8_t)(s->tt_gen << 2 | (flag + 1));
}

static inline int tick(S *s) {
    if (!s->can_stop) return 0;
    if (s->limit >= 0 && s->nodes >= s->limit) return s->stop = 1;
    if (s->deadline >= 0 && !(s->nodes & 1023) && now() > s->deadline) return s->stop = 1;
    return 0;
}

/* 1 and *out set when the database knows the position; 0 otherwise (or on error: s->error). */
static int probe_locked(S *s, u32 me, u32 opp, u32 kings, int black, int ply, int *out) {
    PyObject *r = PyObject_CallFunction(s->probe, "kkkO", (unsigned long)me, (unsigned long)opp,
                                        (unsigned long)kings, black ? Py_True : Py_False);
    if (!r) {
        s->error = s->stop = 1;
        return 0;
    }
    if (r == Py_None) {
        Py_DECREF(r);
        return 0;
    }
    long result, distance;
    if (!PyTuple_Check(r)) { /* PyArg_ParseTuple would raise SystemError on a non-tuple */
        PyErr_SetString(PyExc_TypeError, "the probe answers None or (result, distance)");
        Py_DECREF(r);
        s->error = s->stop = 1;
        return 0;
    }
    if (!PyArg_ParseTuple(r, "ll", &result, &distance)) {
        Py_DECREF(r);
        s->error = s->stop = 1;
        return 0;
    }
    Py_DECREF(r);
    if (distance < 0 || distance > MAX_PLY * 8) {
        PyErr_Format(PyExc_ValueError, "the probe's distance is 0..%d", MAX_PLY * 8);
        s->error = s->stop = 1;
        return 0;
    }
    s->egdb_hits++;
    if (result > 0)
        *out = EGDB_WIN - ply - (int)distance;
    else if (result < 0)
        *out = -EGDB_WIN + ply + (int)distance;
    else
        *out = 0;
    return 1;
}

/* The probe is Python code: it takes the GIL back for the call. */
static int probe(S *s, u32 me, u32 opp, u32 kings, int black, int ply, int *out) {
    if (!s->probe) return 0;
    if (s->ts) PyEval_RestoreThread(s->ts);
    int found = probe_locked(s, me, opp, kings, black, ply, out);
    if (s->ts) s->ts = PyEval_SaveThread();
    return found;
}

static inline void child(const S *s, u32 me, u32 opp, u32 kings, int black, u64 key, const Move *m,
                         u32 *nme, u32 *nopp, u32 *nkings, u64 *nkey, int *irreversible) {
    int colour = black ? 0 : 1;
    int was_king = (kings & m->fb) ? 1 : 0;
    u32 a = me, b = opp, k = kings;
    apply_move(&a, &b, &k, black, m);
    int is_king = (k & m->tb) ? 1 : 0;
    (void)s;
    key ^= ZOBRIST[colour][was_king][CTZ(m->fb)] ^ ZOBRIST[colour][is_king][CTZ(m->tb)] ^
           Z_RED_TO_MOVE;
    u32 c = m->cap;
    while (c) {
        u32 bit = c & -c;
        c ^= bit;
        key ^= ZOBRIST[1 - colour][(kings & bit) ? 1 : 0][CTZ(bit)];
    }
    *nme = a;
    *nopp = b;
    *nkings = k;
    *nkey = key;
    *irreversible = m->cap || !was_king;
}

static int quiesce(S *s, u32 me, u32 opp, u32 kings, int black, int ply, int extend, int alpha,
                   int beta) {
    s->nodes++;
    if (POPCOUNT(me | opp) <= s->egdb_pieces) {
        int found;
        if (probe(s, me, opp, kings, black, ply, &found)) return found;
        if (s->error) return 0;
    }
    MoveList ml = {s->arena + (size_t)ply * MAXMOVES, 0, 0};
    int n = gen_captures(me, opp, kings, black, &ml);
    if (!n) {
        int steps = count_steps(me, opp, kings, black);
        if (!steps) return -MATE + ply;
        if (!(extend && ply < MAX_PLY - 2 && has_capture(opp, me, kings, !black)))
            return evaluate_c(s->w, s->pat, me, opp, kings, black, steps);
        n = gen_moves(me, opp, kings, black, &ml);
        extend -= 1;
    } else if (ply >= MAX_PLY - 2) {
        return evaluate_c(s->w, s->pat, me, opp, kings, black, -1);
    }
    for (int i = 0; i < n; i++) {
        u32 a = me, b = opp, k = kings;
        apply_move(&a, &b, &k, black, &ml.m[i]);
        int score = -quiesce(s, b, a, k, !black, ply + 1, extend, -beta, -alpha);
        if (s->stop) return 0;
        if (score > alpha) {
            alpha = score;
            if (alpha >= beta) break;
        }
    }
    return alpha;
}

static void order(S *s, Move *moves, int n, uint16_t hash_move, int ply) {
    if (n < 2) return;
    i64 sc[MAXMOVES];
    const uint16_t *killers = s->killers[ply < MAX_PLY ? ply : MAX_PLY - 1];
    for (int i = 0; i < n; i++) {
        const Move *m = &moves[i];
        uint16_t id = ident(m);
        i64 v;
        if (id == hash_move)
            v = (i64)1 << 30;
        else if (m->cap)
            v = ((i64)1 << 28) + POPCOUNT(m->cap) * 1000 + m->n;
        else if (id == killers[0])
            v = (i64)1 << 26;
        else if (id == killers[1])
            v = ((i64)1 << 26) - 1;
        else {
            v = s->history[CTZ(m->fb)][CTZ(m->tb)];
            if (v > ((i64)1 << 26) - 2) v = ((i64)1 << 26) - 2;
        }
        sc[i] = v;
    }
    /* Stable insertion sort, highest first (Python's sorted(..., reverse=True)). */
    for (int i = 1; i < n; i++) {
        i64 v = sc[i];
        if (v <= sc[i - 1]) continue;
        Move m = moves[i];
        int j = i;
        while (j > 0 && sc[j - 1] < v) {
            sc[j] = sc[j - 1];
            moves[j] = moves[j - 1];
            j--;
        }
        sc[j] = v;
        moves[j] = m;
    }
}

static int search(S *s, u32 me, u32 opp, u32 kings, int black, u64 key, int depth, int alpha,
                  int beta, int ply, int clock) {
    s->nodes++;
    if (tick(s)) return 0;
    if (ply) {
        if (clock >= DRAW_PLIES) {
            s->path_draws++;
            return 0;
        }
        if (clock >= 4) {
            /* A position seen before with the same side to move: a draw from here. */
            int n = s->pathlen;
            int stop = n - 2 - clock;
            if (stop < -1) stop = -1;
            for (int back = n - 5; back > stop; back -= 2)
                if (s->path[back] == key) {
                    s->path_draws++;
                    return 0;
                }
        }
        if (POPCOUNT(me | opp) <= s->egdb_pieces) {
            int found;
            if (probe(s, me, opp, kings, black, ply, &found)) return found;
            if (s->error) return 0;
        }
    }
    if (depth <= 0 || ply >= MAX_PLY - 4)
        return quiesce(s, me, opp, kings, black, ply, s->threat_plies, alpha, beta);

    TTEntry *entry = tt_find(s, key);
    uint16_t hash_move = NO_MOVE;
    if (entry) {
        hash_move = entry->move;
        if (entry->depth >= depth && ply) {
            int e_score = entry->score;
            int e_flag = (entry->flag & 3) - 1;
            if (e_score > WIN_BOUND)
                e_score -= ply;
            else if (e_score < -WIN_BOUND)
                e_score += ply;
            if (e_flag == EXACT) return e_score;
            if (e_flag == LOWER && e_score >= beta) return e_score;
            if (e_flag == UPPER && e_score <= alpha) return e_score;
        }
    }

    MoveList ml = {s->arena + (size_t)ply * MAXMOVES, 0, 0};
    int n = gen_moves(me, opp, kings, black, &ml);
    if (!n) return -MATE + ply;
    if (n == 1 && ply < MAX_PLY / 2) depth += 1; /* a forced move costs nothing */
    int cut = ply ? s->cut[ply - 1] : 0;
    if (s->prune && ply && beta - alpha == 1 && n > 1 && !ml.m[0].cap && depth >= 2 &&
        !has_capture(opp, me, kings, !black)) {
        /* A quiet position whose score is far from the window: search it shallower. */
        int e = evaluate_c(s->w, s->pat, me, opp, kings, black, n);
        int off = alpha - e > e - beta ? alpha - e : e - beta;
        int r = off > FAR_OFF ? 2 : (off > OFF ? 1 : 0);
        if (r) {
            if (r > depth - 1) r = depth - 1;
            cut += r;
            depth -= r;
        } else {
            depth += cut;
            cut = 0;
        }
    }
    s->cut[ply] = cut;
    Move *moves = ml.m;
    order(s, moves, n, hash_move, ply);

    i64 draws_before = s->path_draws;
    int best = -INF, best_i = -1;
    int orig_alpha = alpha;
    int quiet = !moves[0].cap;
    uint16_t *killers = s->killers[ply];
    for (int i = 0; i < n; i++) {
        const Move *m = &moves[i];
        u32 nme, nopp, nkings;
        u64 nkey;
        int irreversible, score;
        child(s, me, opp, kings, black, key, m, &nme, &nopp, &nkings, &nkey, &irreversible);
        int nclock = irreversible ? 0 : clock + 1;
        int d = depth - 1;
        s->path[s->pathlen++] = nkey;
        if (i == 0) {
            score = -search(s, nopp, nme, nkings, !black, nkey, d, -beta, -alpha, ply + 1, nclock);
        } else {
            int r = 0;
            uint16_t id = ident(m);
            if (s->lmr && quiet && depth >= 3 && i >= 3 && id != killers[0] && id != killers[1])
                r = (i >= 8 && depth >= 5) ? 2 : 1;
            score = -search(s, nopp, nme, nkings, !black, nkey, d - r, -alpha - 1, -alpha,
                            ply + 1, nclock);
            if (!s->stop && r && score > alpha)
                score = -search(s, nopp, nme, nkings, !black, nkey, d, -alpha - 1, -alpha,
                                ply + 1, nclock);
            if (!s->stop && alpha < score && score < beta)
                score =
                    -search(s, nopp, nme, nkings, !black, nkey, d, -beta, -alpha, ply + 1, nclock);
        }
        s->pathlen--;
        if (s->stop) return 0;
        if (score > best) {
            best = score;
            best_i = i;
            if (score > alpha) {
                alpha = score;
                if (ply == 0) { /* the best root move so far at this depth, fully searched */
                    s->root_partial = *m;
                    s->have_root_partial = 1;
                }
                if (alpha >= beta) {
                    if (!m->cap) {
                        uint16_t id = ident(m);
                        if (killers[0] != id) {
                            killers[1] = killers[0];
                            killers[0] = id;
                        }
                        s->history[CTZ(m->fb)][CTZ(m->tb)] += (i64)depth * depth;
                    }
                    break;
                }
            }
        }
    }
    uint16_t id = best_i >= 0 ? ident(&moves[best_i]) : NO_MOVE;
    if (s->path_draws != draws_before) {
        /* The score leans on this path's history: keep the move, not the score. */
        tt_store(s, key, -1, EXACT, 0, id);
    } else {
        int flag = best <= orig_alpha ? UPPER : (best >= beta ? LOWER : EXACT);
        int stored = best;
        if (stored > WIN_BOUND)
            stored += ply;
        else if (stored < -WIN_BOUND)
            stored -= ply;
        tt_store(s, key, depth, flag, stored, id);
    }
    if (ply == 0 && best_i >= 0) {
        s->root_move = moves[best_i];
        s->have_root_move = 1;
    }
    return best;
}

/* -- Python glue -------------------------------------------------------------------------------- */
static PyObject *move_to_py(const Move *m) {
    PyObject *path = PyTuple_New(m->n);
    if (!path) return NULL;
    for (int k = 0; k < m->n; k++) PyTuple_SET_ITEM(path, k, PyLong_FromLong(m->path[k]));
    return Py_BuildValue("(kkkN)", (unsigned long)m->fb, (unsigned long)m->tb,
                         (unsigned long)m->cap, path);
}

/* A weight's bound: the score adds up the weights times small counts in an int, which must not
   overflow (the tuned weights are in the hundreds). */
#define MAX_WEIGHT (1 << 16)
/* A step count given to evaluate() or features(): -1 (count them) or 0..MAX_STEPS. */
#define MAX_STEPS 4 * 32
/* The longest clock: a move clock past the draw rule is not a game; this keeps clock + 1 exact. */
#define MAX_CLOCK (1 << 20)
/* The most plies of quiet moves the capture search extends by (each one widens it a lot). */
#define MAX_THREAT_PLIES 8

/* The last weights parsed (a tuple is kept with them, so the same tuple is parsed once): the
   terms, then the patterns when the sequence has them (NTERMS + NPATTERNS values). */
static PyObject *weights_seen = NULL;
static int *weights_parsed = NULL, weights_have_patterns = 0;

static int parse_weights(PyObject *weights) {
    if (weights_seen && weights == weights_seen) return 0;
    PyObject *seq = frozen_seq(weights, "weights must be a sequence");
    if (!seq) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    if (n != NTERMS && n != NTERMS + NPATTERNS) {
        Py_DECREF(seq);
        PyErr_Format(PyExc_ValueError, "weights must have %d terms, or %d with the patterns",
                     NTERMS, NTERMS + NPATTERNS);
        return -1;
    }
    int *w = malloc(sizeof(int) * (size_t)n);
    if (!w) {
        Py_DECREF(seq);
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t k = 0; k < n; k++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, k));
        if ((v == -1 && PyErr_Occurred()) || v < -MAX_WEIGHT || v > MAX_WEIGHT) {
            Py_DECREF(seq);
            free(w);
            if (!PyErr_Occurred() || PyErr_ExceptionMatches(PyExc_OverflowError)) {
                PyErr_Clear();
                PyErr_Format(PyExc_ValueError, "weights are whole numbers within +-%d",
                             MAX_WEIGHT);
            }
            return -1;
        }
        w[k] = (int)v;
    }
    Py_DECREF(seq);
    free(weights_parsed);
    weights_parsed = w;
    weights_have_patterns = n > NTERMS;
    Py_XDECREF(weights_seen);
    weights_seen = NULL;
    if (PyTuple_CheckExact(weights)) { /* immutable: the next call may reuse the parse */
        Py_INCREF(weights);
        weights_seen = weights;
    }
    return 0;
}

static void free_state(S *s) {
    if (s->tt_shared)
        tt_cache_busy = 0;
    else
        free(s->tt);
    free(s->path);
    free(s->arena);
    free(s->pat);
    free(s);
}

/* A search state from the common keyword arguments; NULL with an exception set on error. */
static S *new_state(PyObject *path, int clock, PyObject *weights, long long limit, double budget,
                    double soft, PyObject *probe_fn, int egdb_pieces, int threat_plies, int lmr,
                    int prune, int tt_bits, int keep_table) {
    if (!zobrist_ready) {
        PyErr_SetString(PyExc_RuntimeError, "_core.init() was not called");
        return NULL;
    }
    S *s = calloc(1, sizeof(S));
    if (!s) return (S *)PyErr_NoMemory();
    if (parse_weights(weights) < 0) {
        free(s);
        return NULL;
    }
    memcpy(s->w, weights_parsed, sizeof s->w);
    if (weights_have_patterns) {
        s->pat = malloc(sizeof(int) * NPATTERNS);
        if (!s->pat) {
            free(s);
            return (S *)PyErr_NoMemory();
        }
        memcpy(s->pat, weights_parsed + NTERMS, sizeof(int) * NPATTERNS);
    }
    if (tt_bits < 10) tt_bits = 10;
    if (tt_bits > 26) tt_bits = 26;
    s->tt_mask = ((u64)1 << (tt_bits - 1)) - 1;
    if (!tt_cache_busy) {
        if (tt_cache_bits != tt_bits) {
            free(tt_cache);
            tt_cache = calloc((size_t)1 << tt_bits, sizeof(TTEntry));
            tt_cache_bits = tt_cache ? tt_bits : 0;
            tt_cache_gen = 0;
        }
        if (tt_cache) {
            if (++tt_cache_gen > 63) {
                /* Out of generations: every entry becomes generation 1, "an earlier search's",
                 * which a search reads only with keep_table, and the next is generation 2. (To
                 * empty the table here would take the head start from a search by time once
                 * in 63 searches.) */
                for (size_t i = 0; i < (size_t)1 << tt_bits; i++) {
                    uint8_t flag = tt_cache[i].flag;
                    if (flag) tt_cache[i].flag = (uint8_t)(1 << 2 | (flag & 3));
                }
                tt_cache_gen = 2;
            }
            s->tt = tt_cache;
            s->tt_gen = tt_cache_gen;
            s->tt_shared = tt_cache_busy = 1;
            s->tt_keep = keep_table;
        }
    } else {
        s->tt = calloc((size_t)1 << tt_bits, sizeof(TTEntry));
        s->tt_gen = 1;
    }
    s->arena = malloc(sizeof(Move) * MAXMOVES * (MAX_PLY + 4));
    PyObject *seq = frozen_seq(path, "path must be a sequence");
    if (!seq || !s->tt || !s->arena) {
        Py_XDECREF(seq);
        free_state(s);
        return seq ? (S *)PyErr_NoMemory() : NULL;
    }
    /* Keys since the last irreversible move: path[-(clock + 1):], or the last one. */
    Py_ssize_t total = PySequence_Fast_GET_SIZE(seq);
    if (total == 0) {
        Py_DECREF(seq);
        free_state(s);
        PyErr_SetString(PyExc_ValueError, "path must hold at least the position's key");
        return NULL;
    }
    Py_ssize_t keep = clock ? (Py_ssize_t)clock + 1 : 1;
    if (keep > total) keep = total;
    s->pathcap = (int)keep + MAX_PLY + 8;
    s->path = malloc(sizeof(u64) * (size_t)s->pathcap);
    if (!s->path) {
        Py_DECREF(seq);
        free_state(s);
        return (S *)PyErr_NoMemory();
    }
    for (Py_ssize_t k = 0; k < keep; k++) {
        u64 v = PyLong_AsUnsignedLongLongMask(PySequence_Fast_GET_ITEM(seq, total - keep + k));
        if (v == (u64)-1 && PyErr_Occurred()) {
            Py_DECREF(seq);
            free_state(s);
            return NULL;
        }
        s->path[k] = v;
    }
    Py_DECREF(seq);
    s->pathlen = (int)keep;
    s->root_clock = clock;
    s->limit = limit;
    s->deadline = budget >= 0 ? now() + budget : -1.0;
    s->soft = soft >= 0 ? now() + soft : -1.0;
    s->probe = (probe_fn && probe_fn != Py_None) ? probe_fn : NULL;
    s->egdb_pieces = s->probe ? egdb_pieces : 0;
    s->threat_plies = threat_plies;
    s->lmr = lmr;
    s->prune = prune;
    memset(s->killers, 0xFF, sizeof s->killers);
    return s;
}

static int check_board(unsigned long me, unsigned long opp, unsigned long kings) {
    if (me > FULL || opp > FULL || kings > FULL || (me & opp)) {
        PyErr_SetString(PyExc_ValueError, "not a board: 32-bit, disjoint sides expected");
        return -1;
    }
    return 0;
}

static int check_steps(int steps) {
    if (steps < -1 || steps > MAX_STEPS) {
        PyErr_Format(PyExc_ValueError, "steps is -1 (count them) or 0..%d", MAX_STEPS);
        return -1;
    }
    return 0;
}

static char *SEARCH_KW[] = {"me",         "opp",          "kings",        "black",
                            "path",       "clock",        "weights",      "max_depth",
                            "limit",      "budget",       "probe",        "egdb_pieces",
                            "threat_plies", "lmr",        "prune",        "tt_bits",
                            "keep_table",   "soft",       NULL};

/* The arguments iterate() and root_scores() share (SEARCH_KW): the position, its depth, and a
   new search state for them; NULL with the exception set when they are wrong. */
static S *open_search(PyObject *args, PyObject *kw, u32 *me, u32 *opp, u32 *kings, int *black,
                      int *clock, int *depth) {
    unsigned long m, o, k;
    int egdb_pieces = 0, threat_plies = 1, lmr = 1, prune = 1, tt_bits = 21, keep_table = 0;
    PyObject *path, *weights, *probe_fn = Py_None;
    long long limit = -1;
    double budget = -1.0, soft = -1.0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "kkkpOiOi|LdOiippipd", SEARCH_KW, &m, &o, &k, black,
                                     &path, clock, &weights, depth, &limit, &budget, &probe_fn,
                                     &egdb_pieces, &threat_plies, &lmr, &prune, &tt_bits,
                                     &keep_table, &soft))
        return NULL;
    if (check_board(m, o, k) < 0) return NULL;
    if (*clock < 0 || *clock > MAX_CLOCK) {
        PyErr_Format(PyExc_ValueError, "clock is 0..%d", MAX_CLOCK);
        return NULL;
    }
    if (*depth < 0) {
        PyErr_SetString(PyExc_ValueError, "the depth is >= 0");
        return NULL;
    }
    if (*depth > MAX_PLY) *depth = MAX_PLY; /* the search stops at MAX_PLY plies anyway */
    if (threat_plies < 0 || threat_plies > MAX_THREAT_PLIES) {
        PyErr_Format(PyExc_ValueError, "threat_plies is 0..%d", MAX_THREAT_PLIES);
        return NULL;
    }
    *me = (u32)m;
    *opp = (u32)o;
    *kings = (u32)k;
    return new_state(path, *clock, weights, limit, budget, soft, probe_fn, egdb_pieces,
                     threat_plies, lmr, prune, tt_bits, keep_table);
}

static PyObject *py_iterate(PyObject *self, PyObject *args, PyObject *kw) {
    (void)self;
    u32 me, opp, kings;
    int black, clock, max_depth;
    S *s = open_search(args, kw, &me, &opp, &kings, &black, &clock, &max_depth);
    if (!s) return NULL;
    u64 key = s->path[s->pathlen - 1];
    /* iterate(): root moves in order, best move so far, depth by depth. */
    MoveList ml = {s->arena, 0, 0};
    int n = gen_moves(me, opp, kings, black, &ml);
    if (!n) {
        free_state(s);
        PyErr_SetString(PyExc_ValueError, "no legal move");
        return NULL;
    }
    order(s, ml.m, n, NO_MOVE, 0);
    Move best_move = ml.m[0];
    int best_score = 0, done = 0, score = 0;
    if (n == 1 && max_depth > 1) max_depth = 1;
    s->ts = PyEval_SaveThread(); /* other threads run meanwhile; the state is this call's */
    for (int depth = 1; depth <= max_depth; depth++) {
        s->have_root_move = s->have_root_partial = 0;
        if (depth >= 5) {
            int lo = score - 40, hi = score + 40;
            score = search(s, me, opp, kings, black, key, depth, lo, hi, 0, clock);
            if (!s->stop && (score <= lo || score >= hi))
                score = search(s, me, opp, kings, black, key, depth, -INF, INF, 0, clock);
        } else {
            score = search(s, me, opp, kings, black, key, depth, -INF, INF, 0, clock);
        }
        if (s->stop) {
            /* A root move that beat every move searched before it at this depth (the last
             * depth's best comes first) is better than that one: take it. */
            if (s->have_root_partial) best_move = s->root_partial;
            break;
        }
        if (s->have_root_move) best_move = s->root_move;
        best_score = score;
        done = depth;
        s->can_stop = 1;
        if (abs(score) >= EGDB_WIN - MAX_PLY) break;
        if (s->deadline >= 0 && now() > s->deadline) break;
        if (s->soft >= 0 && now() > s->soft) break;
    }
    PyEval_RestoreThread(s->ts);
    s->ts = NULL;
    if (s->error) {
        free_state(s);
        return NULL;
    }
    PyObject *mv = move_to_py(&best_move);
    PyObject *out = mv ? Py_BuildValue("(NiiLL)", mv, best_score, done, (long long)s->nodes,
                                       (long long)s->egdb_hits)
                       : NULL;
    free_state(s);
    return out;
}

static PyObject *py_root_scores(PyObject *self, PyObject *args, PyObject *kw) {
    (void)self;
    u32 me, opp, kings;
    int black, clock, depth;
    S *s = open_search(args, kw, &me, &opp, &kings, &black, &clock, &depth);
    if (!s) return NULL;
    u64 key = s->path[s->pathlen - 1];
    /* Root moves live past the arena's per-ply slots (the search uses ply >= 1 only). */
    Move roots[MAXMOVES];
    MoveList ml = {s->arena, 0, 0};
    int n = gen_moves(me, opp, kings, black, &ml);
    memcpy(roots, ml.m, sizeof(Move) * (size_t)n);
    PyObject *out = PyList_New(0);
    for (int i = 0; out && i < n; i++) {
        u32 nme, nopp, nkings;
        u64 nkey;
        int irreversible;
        child(s, me, opp, kings, black, key, &roots[i], &nme, &nopp, &nkings, &nkey,
              &irreversible);
        int c = irreversible ? 0 : s->root_clock + 1;
        s->path[s->pathlen++] = nkey;
        s->ts = PyEval_SaveThread();
        int score = -search(s, nopp, nme, nkings, !black, nkey, depth - 1, -INF, INF, 1, c);
        PyEval_RestoreThread(s->ts);
        s->ts = NULL;
        s->pathlen--;
        if (s->error) {
            Py_CLEAR(out);
            break;
        }
        PyObject *mv = move_to_py(&roots[i]);
        PyObject *item = mv ? Py_BuildValue("(iN)", score, mv) : NULL;
        if (!item || PyList_Append(out, item) < 0) Py_CLEAR(out);
        Py_XDECREF(item);
    }
    PyObject *result = out ? Py_BuildValue("(NL)", out, (long long)s->nodes) : NULL;
    free_state(s);
    return result;
}

static PyObject *py_init(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *keys;
    unsigned long long red;
    if (!PyArg_ParseTuple(args, "OK", &keys, &red)) return NULL;
    PyObject *seq = frozen_seq(keys, "keys must be a sequence");
    if (!seq) return NULL;
    if (PySequence_Fast_GET_SIZE(seq) != 128) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "128 keys expected: [colour][king][square]");
        return NULL;
    }
    u64 keys_read[128]; /* all read before any is used: a bad one leaves the keys as they were */
    for (int k = 0; k < 128; k++) {
        keys_read[k] = PyLong_AsUnsignedLongLongMask(PySequence_Fast_GET_ITEM(seq, k));
        if (keys_read[k] == (u64)-1 && PyErr_Occurred()) {
            Py_DECREF(seq);
            return NULL;
        }
    }
    Py_DECREF(seq);
    for (int k = 0; k < 128; k++) ZOBRIST[k / 64][(k / 32) % 2][k % 32] = keys_read[k];
    Z_RED_TO_MOVE = red;
    zobrist_ready = 1;
    Py_RETURN_NONE;
}

static PyObject *py_moves(PyObject *self, PyObject *args) {
    (void)self;
    unsigned long me, opp, kings;
    int black;
    if (!PyArg_ParseTuple(args, "kkkp", &me, &opp, &kings, &black)) return NULL;
    if (check_board(me, opp, kings) < 0) return NULL;
    Move buf[MAXMOVES];
    MoveList ml = {buf, 0, 0};
    int n = gen_moves((u32)me, (u32)opp, (u32)kings, black, &ml);
    if (ml.overflow) {
        PyErr_SetString(PyExc_ValueError, "too many moves");
        return NULL;
    }
    PyObject *out = PyList_New(n);
    if (!out) return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *m = move_to_py(&buf[i]);
        if (!m) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, i, m);
    }
    return out;
}

static PyObject *py_perft(PyObject *self, PyObject *args) {
    (void)self;
    unsigned long me, opp, kings;
    int black, depth;
    if (!PyArg_ParseTuple(args, "kkkpi", &me, &opp, &kings, &black, &depth)) return NULL;
    if (check_board(me, opp, kings) < 0) return NULL;
    if (depth < 0) {
        PyErr_SetString(PyExc_ValueError, "the depth is >= 0");
        return NULL;
    }
    if (depth > MAX_PLY) depth = MAX_PLY;
    Move *arena = malloc(sizeof(Move) * MAXMOVES * (size_t)(depth + 2));
    if (!arena) return PyErr_NoMemory();
    u64 total;
    Py_BEGIN_ALLOW_THREADS total = perft_c((u32)me, (u32)opp, (u32)kings, black, depth, arena);
    Py_END_ALLOW_THREADS free(arena);
    return PyLong_FromUnsignedLongLong(total);
}

static PyObject *py_evaluate(PyObject *self, PyObject *args) {
    (void)self;
    unsigned long me, opp, kings;
    int black, steps = -1;
    PyObject *weights;
    if (!PyArg_ParseTuple(args, "kkkpO|i", &me, &opp, &kings, &black, &weights, &steps))
        return NULL;
    if (check_board(me, opp, kings) < 0 || check_steps(steps) < 0) return NULL;
    if (parse_weights(weights) < 0) return NULL;
    const int *pat = weights_have_patterns ? weights_parsed + NTERMS : NULL;
    return PyLong_FromLong(
        evaluate_c(weights_parsed, pat, (u32)me, (u32)opp, (u32)kings, black, steps));
}

static PyObject *py_features(PyObject *self, PyObject *args) {
    (void)self;
    unsigned long me, opp, kings;
    int black, steps = -1;
    if (!PyArg_ParseTuple(args, "kkkp|i", &me, &opp, &kings, &black, &steps)) return NULL;
    if (check_board(me, opp, kings) < 0 || check_steps(steps) < 0) return NULL;
    int f[NTERMS];
    features_c((u32)me, (u32)opp, (u32)kings, black, steps, NULL, f);
    PyObject *out = PyList_New(NTERMS);
    for (int k = 0; out && k < NTERMS; k++) PyList_SET_ITEM(out, k, PyLong_FromLong(f[k]));
    return out;
}

static PyObject *py_patterns(PyObject *self, PyObject *args) {
    (void)self;
    unsigned long me, opp;
    int black;
    if (!PyArg_ParseTuple(args, "kkp", &me, &opp, &black)) return NULL;
    if (check_board(me, opp, 0) < 0) return NULL;
    int idx[NREGIONS];
    pattern_indices_c((u32)me, (u32)opp, black, idx);
    PyObject *out = PyList_New(NREGIONS);
    for (int g = 0; out && g < NREGIONS; g++) PyList_SET_ITEM(out, g, PyLong_FromLong(idx[g]));
    return out;
}

static PyMethodDef METHODS[] = {
    {"init", py_init, METH_VARARGS,
     "init(keys, red_to_move): the Zobrist keys, 128 of them ordered [colour][king][square]."},
    {"iterate", (PyCFunction)(void (*)(void))py_iterate, METH_VARARGS | METH_KEYWORDS,
     "iterate(me, opp, kings, black, path, clock, weights, max_depth, limit=-1, budget=-1.0,\n"
     "        probe=None, egdb_pieces=0, threat_plies=1, lmr=True, prune=True, tt_bits=21,\n"
     "        keep_table=False)\n"
     "-> (raw move, score, depth completed, nodes, egdb hits). Iterative deepening PVS."},
    {"root_scores", (PyCFunction)(void (*)(void))py_root_scores, METH_VARARGS | METH_KEYWORDS,
     "root_scores(...same as iterate, max_depth = the depth...) -> ([(score, raw move)], nodes)."},
    {"moves", py_moves, METH_VARARGS,
     "moves(me, opp, kings, black) -> the legal raw moves, as bitboard.gen_moves."},
    {"perft", py_perft, METH_VARARGS, "perft(me, opp, kings, black, depth) -> leaf count."},
    {"evaluate", py_evaluate, METH_VARARGS,
     "evaluate(me, opp, kings, black, weights, steps=-1) -> the static score (weights: the\n"
     "terms, then optionally the patterns' values)."},
    {"features", py_features, METH_VARARGS,
     "features(me, opp, kings, black, steps=-1) -> every evaluation term's value."},
    {"patterns", py_patterns, METH_VARARGS,
     "patterns(me, opp, black) -> each region's index into the patterns' values."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef MODULE = {
    PyModuleDef_HEAD_INIT, "games.checkers._core",
    "The checkers search in C (see games/checkers/search.py for the algorithm).", -1, METHODS, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__core(void) {
    build_tables();
    PyObject *m = PyModule_Create(&MODULE);
    if (!m) return NULL;
    PyModule_AddIntConstant(m, "MAX_PLY", MAX_PLY);
    PyModule_AddIntConstant(m, "MATE", MATE);
    PyModule_AddIntConstant(m, "EGDB_WIN", EGDB_WIN);
    PyModule_AddIntConstant(m, "DRAW_PLIES", DRAW_PLIES);
    PyModule_AddIntConstant(m, "NTERMS", NTERMS);
    PyModule_AddIntConstant(m, "NPATTERNS", NPATTERNS);
    return m;
}

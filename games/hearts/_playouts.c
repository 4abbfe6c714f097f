/* The Hearts expert's roll-outs, compiled: search.play_out with policy.pick (smart), bit for bit.
 *
 * play_out(rules, hands, trick, leader, played, points, broken, first_trick, card=-1,
 *          sharp=False) -> list[int]
 * rollouts(rules, hands, trick, leader, played, points, broken, first_trick, cards, seat,
 *          others_weight, sharp=False) -> list[float]
 *
 * Cards are ints 0..51 (suit * 13 + order, order 0 = two .. 12 = ace), hands 52-bit masks,
 * rules anything with the two flags of rules.Rules. play_out is search.play_out: the points
 * each seat takes to the end of the hand. rollouts is the inner loop of search.search_play for
 * one sampled deal: for each card of ``cards`` (played first by the seat to move),
 * search.objective of that play-out for ``seat``. Same rules, same policy, same tie-breaks and
 * the same floating-point operations in the same order as the Python code, so the answers are
 * identical. Bad input (a card off the deck, hands that overlap, a trick of four, a card the
 * seat to move does not hold, a seat out of cards before the hand ends) raises ValueError. The
 * calls are short (microseconds): the GIL is kept.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>

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

#define HEARTS 2
#define SPADES 3
#define MOON_POINTS 26
#define QUEEN_OF_SPADES (SPADES * 13 + 10)
#define QS_BIT (1ULL << QUEEN_OF_SPADES)
#define FULL_SUIT ((1ULL << 13) - 1)
#define ALL_CARDS ((1ULL << 52) - 1)
#define HEARTS_MASK (FULL_SUIT << (13 * HEARTS))
#define POINT_MASK (HEARTS_MASK | QS_BIT)
#define HIGH_SPADES ((1ULL << (SPADES * 13 + 11)) | (1ULL << (SPADES * 13 + 12)))
#define BELOW(c) ((1ULL << (c)) - 1) /* the cards under c (c in 0..52) */

static const uint64_t SUIT_MASK[4] = {FULL_SUIT, FULL_SUIT << 13, FULL_SUIT << 26,
                                      FULL_SUIT << 39};

typedef struct {
    int two_of_clubs_leads, no_points_on_first_trick;
} Rules;

/* A hand in play: search.play_out's arguments. */
typedef struct {
    uint64_t hands[4];
    int trick[4];
    int n_trick;
    int leader;
    uint64_t played;
    int points[4];
    int broken, first_trick;
} Position;

static inline int popcount(uint64_t m) { return __builtin_popcountll(m); }
static inline int lowest(uint64_t m) { return __builtin_ctzll(m); }       /* m != 0 */
static inline int highest(uint64_t m) { return 63 - __builtin_clzll(m); } /* m != 0 */
static inline int bit_length(uint64_t m) { return m ? 64 - __builtin_clzll(m) : 0; }

/* ---- rules.py ---- */

static uint64_t legal_mask(uint64_t hand, int lead_suit, int first_trick, int broken,
                           const Rules *r)
{
    if (lead_suit < 0) {
        if (first_trick && r->two_of_clubs_leads && (hand & 1))
            return 1;
        if (first_trick && r->no_points_on_first_trick) {
            if (hand & ~POINT_MASK)
                return hand & ~POINT_MASK;
            return (hand & ~HEARTS_MASK) ? hand & ~HEARTS_MASK : hand;
        }
        if (first_trick || !broken)
            return (hand & ~HEARTS_MASK) ? hand & ~HEARTS_MASK : hand;
        return hand;
    }
    uint64_t follow = hand & SUIT_MASK[lead_suit];
    if (follow)
        return follow;
    if (first_trick && r->no_points_on_first_trick)
        return (hand & ~POINT_MASK) ? hand & ~POINT_MASK : hand;
    return hand;
}

static int trick_winner(int leader, const int *cards)
{
    int lead = cards[0] / 13, best = 0;
    for (int i = 1; i < 4; i++)
        if (cards[i] / 13 == lead && cards[i] > cards[best])
            best = i;
    return (leader + best) % 4;
}

/* ---- policy.py, smart ---- */

static int trick_points(const int *trick, int n)
{
    int p = 0;
    for (int i = 0; i < n; i++) {
        if (trick[i] == QUEEN_OF_SPADES)
            p += 13;
        else if (trick[i] / 13 == HEARTS)
            p += 1;
    }
    return p;
}

static int sure_winners(uint64_t hand, uint64_t played)
{
    int n = 0;
    uint64_t rest = ~played & ~hand;
    for (int s = 0; s < 4; s++) {
        uint64_t mine = hand & SUIT_MASK[s];
        if (mine) {
            uint64_t out = SUIT_MASK[s] & rest;
            n += out ? popcount(mine >> bit_length(out)) : popcount(mine);
        }
    }
    return n;
}

static int shooting(int me, uint64_t hand, uint64_t played, const int *points)
{
    int total = points[0] + points[1] + points[2] + points[3];
    if (total != points[me])
        return 0;
    int left = popcount(hand);
    if (left == 0 || (total == 0 && left > 11))
        return 0;
    int wins = sure_winners(hand, played);
    if (total >= 13)
        return wins >= left - 1;
    if (total > 0)
        return wins >= left;
    return left <= 11 && wins >= left;
}

static int moon_threat(int me, const int *points)
{
    int total = points[0] + points[1] + points[2] + points[3];
    for (int s = 0; s < 4; s++)
        if (s != me && points[s] == total && total >= 14)
            return s;
    return -1;
}

static int run(uint64_t legal, const int *trick, int n)
{
    if (!n || (legal & SUIT_MASK[trick[0] / 13]))
        return highest(legal);
    uint64_t safe = legal & ~HEARTS_MASK & ~QS_BIT;
    return lowest(safe ? safe : legal);
}

/* policy._lead: the scores are doubles computed as Python does, one operation a statement (no
 * fused multiply-add), so that comparisons and ties come out the same. */
static int lead(uint64_t legal, uint64_t hand, uint64_t played)
{
    static const int order[4] = {0, 1, 3, 2};
    int best = -1;
    double best_score = 1e9;
    for (int i = 0; i < 4; i++) {
        int s = order[i];
        uint64_t mine = legal & SUIT_MASK[s];
        if (!mine)
            continue;
        int c = lowest(mine);
        uint64_t out = SUIT_MASK[s] & ~played & ~hand;
        int n_out = popcount(out);
        double score;
        if (n_out == 0) {
            score = 50.0 + c % 13;
        } else {
            score = (double)popcount(out & BELOW(c)) / n_out;
            score *= 10;
        }
        if (s == SPADES) {
            if (hand & QS_BIT)
                score += 8;
            else if (!(played & QS_BIT) && c < QUEEN_OF_SPADES)
                score -= 4;
            else if (c > QUEEN_OF_SPADES && !(played & QS_BIT))
                score += 20;
        }
        if (s == HEARTS)
            score += 1;
        if (score < best_score) {
            best = c;
            best_score = score;
        }
    }
    return best;
}

static int lead_high_early(uint64_t legal, uint64_t hand, uint64_t played)
{
    int c = lead(legal, hand, played);
    int s = c / 13;
    if (s >= HEARTS || (played & SUIT_MASK[s]))
        return c;
    uint64_t out = SUIT_MASK[s] & ~played & ~hand;
    uint64_t under = out ? legal & SUIT_MASK[s] & BELOW(highest(out)) : 0;
    return under ? highest(under) : c;
}

static int follow(int me, uint64_t legal, const int *trick, int n, int leader, uint64_t played,
                  const int *points)
{
    int suit = trick[0] / 13;
    int win = -1, win_at = 0;
    for (int i = 0; i < n; i++)
        if (trick[i] / 13 == suit && trick[i] > win) {
            win = trick[i];
            win_at = i;
        }
    if (suit == SPADES && (legal & QS_BIT) && win > QUEEN_OF_SPADES)
        return QUEEN_OF_SPADES;
    int last = n == 3;
    int threat = moon_threat(me, points);
    if (threat >= 0 && threat == (leader + win_at) % 4 && trick_points(trick, n) > 0) {
        uint64_t over = legal & ~BELOW(win);
        if (over)
            return highest(over);
    }
    uint64_t below = legal & BELOW(win);
    if (below)
        return highest(below);
    uint64_t safe = (legal & ~QS_BIT) ? legal & ~QS_BIT : legal;
    if (last)
        return highest(safe);
    if (suit == SPADES)
        return (played & QS_BIT) ? highest(safe) : lowest(safe);
    /* Nobody else is void yet (few cards of the suit gone): take it with the top card. */
    return popcount(played & SUIT_MASK[suit]) <= 4 ? highest(safe) : lowest(safe);
}

static int discard(uint64_t legal, uint64_t hand, uint64_t played)
{
    if (legal & QS_BIT)
        return QUEEN_OF_SPADES;
    uint64_t high_spades = legal & HIGH_SPADES;
    if (high_spades && !(played & QS_BIT))
        return highest(high_spades);
    uint64_t hearts = legal & HEARTS_MASK;
    if (hearts && (highest(hearts) % 13 >= 6 || hearts == legal))
        return highest(hearts);
    int best = -1, key0 = -99, key1 = 0; /* the tuple key, compared as Python does */
    for (int s = 0; s < 4; s++) {
        uint64_t mine = legal & SUIT_MASK[s];
        if (!mine)
            continue;
        int c = highest(mine);
        int out_below = popcount(SUIT_MASK[s] & ~played & ~hand & BELOW(c));
        int k0 = out_below * 2 - popcount(mine), k1 = c % 13;
        if (k0 > key0 || (k0 == key0 && k1 > key1)) {
            best = c;
            key0 = k0;
            key1 = k1;
        }
    }
    return best;
}

/* policy.pick with smart=True; ``legal`` is not empty. */
static int pick(int me, uint64_t hand, uint64_t legal, const int *trick, int n, int leader,
                uint64_t played, const int *points, int sharp)
{
    if (!(legal & (legal - 1)))
        return highest(legal);
    if (shooting(me, hand, played, points))
        return run(legal, trick, n);
    if (!n)
        return sharp ? lead_high_early(legal, hand, played) : lead(legal, hand, played);
    int suit = trick[0] / 13;
    if (legal & SUIT_MASK[suit]) {
        int free = n == 3 && !trick_points(trick, n) && (suit != SPADES || (played & QS_BIT));
        if (sharp && free)
            return highest(legal); /* nothing to take: win it with the top card, or unload */
        return follow(me, legal, trick, n, leader, played, points);
    }
    return discard(legal, hand, played);
}

/* ---- search.py ---- */

/* search.play_out on *p (consumed): ``card`` (if >= 0, in the mover's hand) is played first.
 * 0 when a seat has no card to play before the hand ends (the Python code fails there too). */
static int play_out(const Rules *r, Position *p, int card, int sharp)
{
    int seat = (p->leader + p->n_trick) % 4;
    for (;;) {
        if (card < 0) {
            uint64_t hand = p->hands[seat];
            int lead_suit = p->n_trick ? p->trick[0] / 13 : -1;
            uint64_t legal = legal_mask(hand, lead_suit, p->first_trick, p->broken, r);
            if (!legal)
                return 0;
            card = pick(seat, hand, legal, p->trick, p->n_trick, p->leader, p->played,
                        p->points, sharp);
        }
        p->hands[seat] &= ~(1ULL << card);
        p->trick[p->n_trick++] = card;
        p->played |= 1ULL << card;
        if (card / 13 == HEARTS)
            p->broken = 1;
        card = -1;
        if (p->n_trick == 4) {
            int winner = trick_winner(p->leader, p->trick);
            uint64_t taken = 0;
            for (int i = 0; i < 4; i++)
                taken |= 1ULL << p->trick[i];
            p->points[winner] += popcount(taken & HEARTS_MASK) + (taken & QS_BIT ? 13 : 0);
            p->leader = seat = winner;
            p->n_trick = 0;
            p->first_trick = 0;
            if (!p->hands[seat])
                return 1;
        } else {
            seat = (seat + 1) % 4;
        }
    }
}

/* search.objective: the operations of the Python expression, in its order. */
static double objective(const int *points, int me, double w)
{
    for (int s = 0; s < 4; s++)
        if (points[s] == MOON_POINTS) {
            if (s == me)
                return -w * MOON_POINTS;
            return MOON_POINTS - w * MOON_POINTS * 2 / 3;
        }
    int others = points[0] + points[1] + points[2] + points[3] - points[me];
    return points[me] - w * others / 3;
}

/* ---- Reading the arguments ---- */

static int value_error(const char *message)
{
    PyErr_SetString(PyExc_ValueError, message);
    return 0;
}

/* A Python int in lo..hi into *out. */
static int read_int(PyObject *obj, long lo, long hi, const char *message, int *out)
{
    int overflow;
    long v = PyLong_AsLongAndOverflow(obj, &overflow);
    if (v == -1 && PyErr_Occurred())
        return 0;
    if (overflow || v < lo || v > hi)
        return value_error(message);
    *out = (int)v;
    return 1;
}

/* A Python int that is a set of cards (0 <= mask < 2**52) into *out. */
static int read_mask(PyObject *obj, uint64_t *out)
{
    if (!PyLong_Check(obj)) {
        PyErr_SetString(PyExc_TypeError, "a card mask must be an int");
        return 0;
    }
    unsigned long long v = PyLong_AsUnsignedLongLong(obj);
    if (v == (unsigned long long)-1 && PyErr_Occurred()) {
        if (!PyErr_ExceptionMatches(PyExc_OverflowError))
            return 0;
        PyErr_Clear();
        return value_error("a card mask is 0 <= mask < 2**52");
    }
    if (v & ~ALL_CARDS)
        return value_error("a card mask is 0 <= mask < 2**52");
    *out = v;
    return 1;
}

/* A sequence of least..most ints in lo..hi into out[] (its length into *n). */
static int read_ints(PyObject *obj, Py_ssize_t least, Py_ssize_t most, const char *message,
                     long lo, long hi, const char *range_message, int *out, int *n)
{
    PyObject *seq = frozen_seq(obj, message);
    if (!seq)
        return 0;
    Py_ssize_t len = PySequence_Fast_GET_SIZE(seq);
    int ok = len >= least && len <= most ? 1 : value_error(message);
    for (Py_ssize_t i = 0; ok && i < len; i++)
        ok = read_int(PySequence_Fast_GET_ITEM(seq, i), lo, hi, range_message, &out[i]);
    Py_DECREF(seq);
    *n = (int)len;
    return ok;
}

static int read_flag(PyObject *rules, const char *name, int *out)
{
    PyObject *v = PyObject_GetAttrString(rules, name);
    if (!v) {
        if (PyErr_ExceptionMatches(PyExc_AttributeError)) {
            PyErr_Clear();
            PyErr_Format(PyExc_TypeError, "rules must be a Rules (no %s)", name);
        }
        return 0;
    }
    *out = PyObject_IsTrue(v);
    Py_DECREF(v);
    return *out >= 0;
}

/* The position of play_out's arguments, checked: four disjoint hands, a trick of up to three
 * cards held by nobody, a seat 0..3 to lead, points 0..26. */
static int read_position(PyObject *rules_obj, PyObject *hands_obj, PyObject *trick_obj,
                         PyObject *leader_obj, PyObject *played_obj, PyObject *points_obj,
                         int broken, int first_trick, Rules *r, Position *p)
{
    if (!read_flag(rules_obj, "two_of_clubs_leads", &r->two_of_clubs_leads) ||
        !read_flag(rules_obj, "no_points_on_first_trick", &r->no_points_on_first_trick))
        return 0;
    PyObject *seq = frozen_seq(hands_obj, "hands: a sequence of four masks");
    if (!seq)
        return 0;
    int ok = PySequence_Fast_GET_SIZE(seq) == 4 ? 1 : value_error("hands: four masks");
    for (int i = 0; ok && i < 4; i++)
        ok = read_mask(PySequence_Fast_GET_ITEM(seq, i), &p->hands[i]);
    Py_DECREF(seq);
    if (!ok)
        return 0;
    uint64_t held = 0;
    for (int i = 0; i < 4; i++) {
        if (held & p->hands[i])
            return value_error("the hands overlap");
        held |= p->hands[i];
    }
    int n_points;
    if (!read_ints(trick_obj, 0, 3, "trick: at most three cards", 0, 51, "cards are 0..51",
                   p->trick, &p->n_trick) ||
        !read_ints(points_obj, 4, 4, "points: four numbers", 0, MOON_POINTS,
                   "points are 0..26", p->points, &n_points))
        return 0;
    for (int i = 0; i < p->n_trick; i++) {
        if (held & (1ULL << p->trick[i]))
            return value_error("a card of the trick is also held or played twice");
        held |= 1ULL << p->trick[i];
    }
    if (!read_int(leader_obj, 0, 3, "leader is a seat 0..3", &p->leader))
        return 0;
    p->broken = broken;
    p->first_trick = first_trick;
    return read_mask(played_obj, &p->played);
}

/* Play ``card`` (or, if -1, the policy's card) and the rest of the hand on a copy of *p. */
static int finish(const Rules *r, const Position *p, int card, int sharp, Position *end)
{
    *end = *p;
    if (card >= 0 && !(p->hands[(p->leader + p->n_trick) % 4] & (1ULL << card)))
        return value_error("the card is not in the hand of the seat to play");
    if (!play_out(r, end, card, sharp))
        return value_error("a seat ran out of cards before the end of the hand");
    return 1;
}

static PyObject *py_play_out(PyObject *self, PyObject *args, PyObject *kwargs)
{
    (void)self;
    static char *keywords[] = {"rules",  "hands",       "trick", "leader", "played",
                               "points", "broken",      "first_trick", "card", "sharp", NULL};
    PyObject *rules_obj, *hands_obj, *trick_obj, *leader_obj, *played_obj, *points_obj;
    PyObject *card_obj = NULL;
    int broken, first_trick, card = -1, sharp = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OOOOOOpp|Op", keywords, &rules_obj,
                                     &hands_obj, &trick_obj, &leader_obj, &played_obj,
                                     &points_obj, &broken, &first_trick, &card_obj, &sharp))
        return NULL;
    Rules r;
    Position p, end;
    if (!read_position(rules_obj, hands_obj, trick_obj, leader_obj, played_obj, points_obj,
                       broken, first_trick, &r, &p) ||
        (card_obj && !read_int(card_obj, -1, 51, "card is 0..51, or -1 for the policy's", &card)) ||
        !finish(&r, &p, card, sharp, &end))
        return NULL;
    return Py_BuildValue("[iiii]", end.points[0], end.points[1], end.points[2], end.points[3]);
}

static PyObject *py_rollouts(PyObject *self, PyObject *args, PyObject *kwargs)
{
    (void)self;
    static char *keywords[] = {"rules",  "hands",  "trick",       "leader", "played",
                               "points", "broken", "first_trick", "cards",  "seat",
                               "others_weight",    "sharp",       NULL};
    PyObject *rules_obj, *hands_obj, *trick_obj, *leader_obj, *played_obj, *points_obj;
    PyObject *cards_obj, *seat_obj;
    int broken, first_trick, seat, sharp = 0, cards[52], n;
    double weight;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OOOOOOppOOd|p", keywords, &rules_obj,
                                     &hands_obj, &trick_obj, &leader_obj, &played_obj,
                                     &points_obj, &broken, &first_trick, &cards_obj, &seat_obj,
                                     &weight, &sharp))
        return NULL;
    Rules r;
    Position p, end;
    if (!read_position(rules_obj, hands_obj, trick_obj, leader_obj, played_obj, points_obj,
                       broken, first_trick, &r, &p) ||
        !read_int(seat_obj, 0, 3, "seat is 0..3", &seat) ||
        !read_ints(cards_obj, 0, 52, "cards: at most 52", 0, 51, "cards are 0..51", cards, &n))
        return NULL;
    PyObject *result = PyList_New(n);
    if (!result)
        return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *value;
        if (!finish(&r, &p, cards[i], sharp, &end) ||
            !(value = PyFloat_FromDouble(objective(end.points, seat, weight)))) {
            Py_DECREF(result);
            return NULL;
        }
        PyList_SET_ITEM(result, i, value);
    }
    return result;
}

static PyMethodDef methods[] = {
    {"play_out", (PyCFunction)(void (*)(void))py_play_out, METH_VARARGS | METH_KEYWORDS,
     "play_out(rules, hands, trick, leader, played, points, broken, first_trick, card=-1, "
     "sharp=False) -> list[int]: search.play_out, the points each seat takes."},
    {"rollouts", (PyCFunction)(void (*)(void))py_rollouts, METH_VARARGS | METH_KEYWORDS,
     "rollouts(rules, hands, trick, leader, played, points, broken, first_trick, cards, seat, "
     "others_weight, sharp=False) -> list[float]: for each card, search.objective for seat of "
     "the hand played out after it."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_playouts",
                                    "The Hearts expert's roll-outs, compiled.", -1, methods,
                                    NULL,   NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__playouts(void) { return PyModule_Create(&module); }

/*
 * Data-dependent policies (policy.h): the costs of algos.def's cost column,
 * auto and rules tables.  Pure functions of shared numbers; see
 * docs/policies.md for the formats, the model and the parameters.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "algo_ids.h"
#include "policy.h"
#include "reduce/engine.h"

/* ---- cost model (Hockney alpha-beta plus gamma per combined byte) ------ */

typedef double (*cost_fn)(papcoll_op_t op, const papcoll__pin_t *in);

static double log2c(int P)
{
    return P > 1 ? ceil(log2((double)P)) : 0;
}

/* Segments of m bytes: N = ceil(m / seg), at least 1. */
static double segments(double m, const papcoll__pin_t *in)
{
    double N = in->seg > 0 ? ceil(m / in->seg) : 1;

    return N < 1 ? 1 : N;
}

/* stages + N - 1 steps of fan transfers of a segment: a + (m / N) per_byte each. */
static double pipeline(double stages, double m, const papcoll__pin_t *in, double a, double per_byte,
                       double fan)
{
    double N = segments(m, in);

    return (stages + N - 1) * fan * (a + m / N * per_byte);
}

/* The fixed cost of a round in which every rank (still holding data) sends
 * and receives at once: the round alpha, or alpha where the model has none
 * (model.h; docs/policies.md, "auto").  Every step of a reduction is one. */
static double ra(const papcoll__pin_t *in)
{
    return in->ralpha > 0 ? in->ralpha : in->alpha;
}

/* Per byte each way of an exchange with one peer (recursive doubling and
 * halving, radix-k): the model's xbeta, or beta. */
static double xb(const papcoll__pin_t *in)
{
    return in->xbeta > 0 ? in->xbeta : in->beta;
}

#define P_ ((double)in->P)
#define M_ (in->bytes)
#define L_ log2c(in->P)
#define FLOOR_L floor(log2(in->P > 1 ? in->P : 1))
#define ALL (op == PAPCOLL_OP_ALLREDUCE)

/* Gather and scatter: the root's port carries P - 1 blocks, latencies overlap;
 * a handshake per leaf; a binomial tree forwards each subtree once more. */
static double cost_port(papcoll_op_t op, const papcoll__pin_t *in)
{
    return (void)op, in->alpha + (P_ - 1) * M_ * in->beta;
}
static double cost_handshake(papcoll_op_t op, const papcoll__pin_t *in)
{
    return (void)op, 2 * (P_ - 1) * in->alpha + (P_ - 1) * M_ * in->beta;
}
static double cost_bn_blocks(papcoll_op_t op, const papcoll__pin_t *in)
{
    return (void)op, L_ * in->alpha + 1.5 * (P_ - 1) * M_ * in->beta;
}
/* Bcast; a background form is costed as its foreground tree or chain. */
static double cost_tree(papcoll_op_t op, const papcoll__pin_t *in)
{
    return (void)op, L_ * (in->alpha + M_ * in->beta);
}
static double cost_bin_pipeline(papcoll_op_t op, const papcoll__pin_t *in)
{
    return (void)op, pipeline(FLOOR_L, M_, in, in->alpha, in->beta, 2);
}
static double cost_chain(papcoll_op_t op, const papcoll__pin_t *in)
{
    return (void)op, pipeline(P_ - 1, M_, in, in->alpha, in->beta, 1);
}
static double cost_scatter_allgather(papcoll_op_t op, const papcoll__pin_t *in)
{
    return (void)op, (L_ + P_ - 1) * in->alpha + 2 * (P_ - 1) / P_ * M_ * in->beta;
}
/* Reductions: a round alpha per step; exchanges with one peer at xbeta. */
static double cost_recdoubling(papcoll_op_t op, const papcoll__pin_t *in)
{
    return (void)op, L_ * (ra(in) + M_ * (xb(in) + in->gamma));
}
static double cost_red_tree(papcoll_op_t op, const papcoll__pin_t *in)
{
    return (void)op, L_ * (ra(in) + M_ * (in->beta + in->gamma));
}
static double cost_red_pipeline(papcoll_op_t op, const papcoll__pin_t *in)
{
    return (void)op, pipeline(FLOOR_L, M_, in, ra(in), in->beta + in->gamma, 2);
}
/* Clairvoyant on balanced arrivals: segments through a binary tree (Marendic Eq. 1). */
static double cost_cv_pipeline(papcoll_op_t op, const papcoll__pin_t *in)
{
    return (void)op, pipeline(L_, M_, in, ra(in), in->beta + in->gamma, 1);
}
/* Reduce-scatter by halving (or radix-k), then allgather or gather. */
static double cost_halving(papcoll_op_t op, const papcoll__pin_t *in)
{
    return 2 * L_ * ra(in) + (P_ - 1) / P_ * M_ * (xb(in) + (ALL ? xb(in) : in->beta) + in->gamma);
}
/* Ring reduce-scatter, then a ring allgather or a binomial gather. */
static double cost_ring(papcoll_op_t op, const papcoll__pin_t *in)
{
    return (ALL ? 2 * (P_ - 1) : P_ - 1 + L_) * ra(in) + (P_ - 1) / P_ * M_ * (2 * in->beta + in->gamma);
}

/* algos.def's selection columns, resolved by the compiler. */
#define cost_NONE NULL
static const struct {
    cost_fn cost;
    int fallback, sorted, bsorted;
} algos[] = {
#define PAPCOLL_ALGO(op, name, flags, fallback, planner, bg, cost, sorted, bsorted, summary)                 \
    {cost_##cost, PAPCOLL__A_##op##_##fallback, PAPCOLL__A_##op##_##sorted, PAPCOLL__A_##op##_##bsorted},
#include "algos.def"
#undef PAPCOLL_ALGO
};
static const int first[] = {
#define PAPCOLL_OP(NAME, name, dflt, env, ini, kind) PAPCOLL__AG_##name##_mpi,
#include "papcoll_ops.def"
#undef PAPCOLL_OP
};
#define ROW(op, i) (&algos[first[op] + (i)])

/* A spread less the predictor's noise, at least 0 (NaN: no spread). */
static double less_noise(double spread, double noise)
{
    return isnan(spread) ? NAN : fmax(0, spread - (noise > 0 ? noise : 0));
}

double papcoll__imbalance(const papcoll__pin_t *in)
{
    return less_noise(in->spread, in->noise);
}

double papcoll__cost(papcoll_op_t op, int algo, const papcoll__pin_t *in)
{
    cost_fn f = ROW(op, algo)->cost;

    return f == NULL ? NAN : in->P <= 1 ? 0 : f(op, in);
}

#define PAP_AWARE (PAPCOLL_F_NEEDS_PAT | PAPCOLL_F_BACKGROUND)

/* Whether s serves the call: ok(), and the operation's commutativity. */
static int serves(papcoll_op_t op, int s, const papcoll__pin_t *in, papcoll__eligible_fn ok, void *arg)
{
    return ok(op, s, arg) && (in->commutative || !(papcoll_algo_flags(op, s) & PAPCOLL_F_COMMUTATIVE_ONLY)) &&
           (in->has_monitor || !(papcoll_algo_flags(op, s) & PAPCOLL_F_BACKGROUND));
}

/* base's PAP-aware counterpart (bg: the background one) that serves the
 * call: the column's, or the first of its PAP-aware fallbacks that does
 * (-1: none). */
static int counterpart(papcoll_op_t op, int base, int bg, const papcoll__pin_t *in, papcoll__eligible_fn ok,
                       void *arg)
{
    int s = bg ? ROW(op, base)->bsorted : ROW(op, base)->sorted;

    while (s >= 0 && (papcoll_algo_flags(op, s) & PAP_AWARE) && !serves(op, s, in, ok, arg))
        s = ROW(op, s)->fallback;
    return s >= 0 && (papcoll_algo_flags(op, s) & PAP_AWARE) ? s : -1;
}

double papcoll__model_time(papcoll_op_t op, const papcoll__pin_t *in, papcoll__eligible_fn ok, void *arg,
                           int *base)
{
    double best = NAN, c;
    int i, n = papcoll_algo_count(op);

    *base = -1;
    for (i = 0; i < n; i++) {
        if (papcoll_algo_flags(op, i) & PAPCOLL_F_BACKGROUND)
            continue; /* costed on balanced arrivals, in the foreground */
        c = papcoll__cost(op, i, in);
        if (isnan(c) || !ok(op, i, arg))
            continue;
        /* A tie goes to the algorithm without a plan (lin before sls). */
        if (*base < 0 || c < best ||
            (c == best && (papcoll_algo_flags(op, *base) & PAPCOLL_F_NEEDS_PAT) &&
             !(papcoll_algo_flags(op, i) & PAPCOLL_F_NEEDS_PAT))) {
            best = c;
            *base = i;
        }
    }
    return best;
}

/* ---- auto: the base, or its counterpart under the predicted PAT -------- */

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Predictions that miss the next call by more than half their spread
 * (lag_noise): which rank comes late is then a guess. */
static int stale(const papcoll__pin_t *in)
{
    return in->lag_noise > in->spread / 2;
}

/* The root's arrival a linear model assumes: the predicted one, or, with
 * stale predictions, at least the mean predicted offset. */
static double root_arrival(const papcoll__pin_t *in)
{
    double mean = 0;

    if (!stale(in))
        return in->pred[in->root];
    for (int i = 0; i < in->P; i++)
        mean += in->pred[i] / in->P;
    return fmax(in->pred[in->root], mean);
}

/* A linear gather under the predicted PAT: the root's port carries one
 * block after another, each no earlier than its rank's arrival, in arrival
 * order or in rank order (ordered).  start: when the port starts (the
 * root's arrival, or 0 for a background part); per: the cost of a block
 * beyond m beta (alpha, or a handshake's 2 alpha). */
#define QUEUE_MAX 1024 /* ranks port_queue models (beyond: the tree formulas) */

static double port_queue(const papcoll__pin_t *in, double start, int ordered, double per, double a_root)
{
    double t = start, m = in->bytes * in->beta, a[QUEUE_MAX];
    int i, n = 0;

    for (i = 0; i < in->P; i++)
        if (i != in->root)
            a[n++] = in->pred[i];
    if (!ordered)
        qsort(a, (size_t)n, sizeof a[0], cmp_d);
    for (i = 0; i < n; i++)
        t = fmax(t, a[i]) + per + m;
    return fmax(t, a_root);
}

/* Modelled times of base and of its counterpart s under the predicted PAT;
 * returns 1 when they come from the root's port model.  A gather whose
 * base goes through the root's port (cost port or handshake), predicted
 * for at most QUEUE_MAX ranks: port_queue, a background part starting
 * before the root arrives.  Otherwise a late rank holds a base tree back
 * for the whole collective, imbalance + t_base; in the sorted variant it is
 * a leaf, one message after its arrival, and the variant takes no less
 * than its own balanced time (its cost, else t_base).  In allreduce's
 * sorted_ring it finds the others' vector pre-reduced, and after it
 * arrives N segments pass it and the P - 1 hops of the result ring, no
 * earlier than the ring's balanced 2N + P - 2 steps, each alpha (not the
 * round alpha: the segments stream) + n/N (beta + gamma). */
static int pat_times(papcoll_op_t op, int base, int s, const papcoll__pin_t *in, double imb, double t_base,
                     double *tb, double *ts)
{
    double leaf = in->alpha + in->bytes * (in->beta + (op >= PAPCOLL_OP_REDUCE ? in->gamma : 0));
    double step = in->beta + in->gamma, own, ar;
    cost_fn c = ROW(op, base)->cost;
    int hs = c == cost_handshake;

    if (op == PAPCOLL_OP_GATHER && in->pred != NULL && in->root >= 0 && in->P <= QUEUE_MAX &&
        (c == cost_port || hs)) {
        ar = root_arrival(in);
        *tb = port_queue(in, ar, hs, hs ? 2 * in->alpha : 0, ar) + (hs ? 0 : in->alpha);
        *ts = port_queue(in, papcoll_algo_flags(op, s) & PAPCOLL_F_BACKGROUND ? 0 : ar, 0, 2 * in->alpha, ar);
        return 1;
    }
    *tb = imb + t_base;
    own = papcoll__cost(op, s, in);
    if (op == PAPCOLL_OP_ALLREDUCE && s == PAPCOLL__A_allreduce_sorted_ring)
        *ts = fmax(pipeline(segments(in->bytes, in) + in->P - 1, in->bytes, in, in->alpha, step, 1),
                   imb + pipeline(in->P, in->bytes, in, in->alpha, step, 1));
    else
        *ts = fmax(isnan(own) ? t_base : own, imb + leaf);
    return 0;
}

#define AUTO_MARGIN 0.05 /* of t_base: the least gain for which auto switches */

/* Whether the predicted imbalance is spread over the ranks: the latest
 * predicted arrival is less than half the spread after the second latest. */
static int spread_out(const papcoll__pin_t *in)
{
    double hi = -INFINITY, hi2 = -INFINITY, x;

    for (int i = 0; i < in->P; i++) {
        x = in->pred[i];
        hi2 = x > hi ? hi : fmax(hi2, x);
        hi = fmax(hi, x);
    }
    return in->P > 2 && hi - hi2 < in->spread / 2;
}

/* Whether treedyn streams the call's vector (papcoll__dyn_streams); below
 * that it pairs whole values, and lost to Clairvoyant in every phase with
 * the imbalance spread (128 KiB, docs/policies.md, "reduce"). */
static int treedyn_streams(const papcoll__pin_t *in)
{
    double S = segments(in->bytes, in);

    return papcoll__dyn_streams(in->P, S < INT_MAX ? (int)S : INT_MAX);
}

/* A bcast's imbalance: its data starts at the root, so only the arrivals
 * after the root's count, less the predictor's noise. */
static double after_root(const papcoll__pin_t *in)
{
    double hi = -INFINITY;

    if (in->pred == NULL || in->root < 0 || !isfinite(in->pred[in->root]))
        return papcoll__imbalance(in);
    for (int i = 0; i < in->P; i++)
        hi = isfinite(in->pred[i]) && in->pred[i] > hi ? in->pred[i] : hi;
    return less_noise(fmax(0, hi - in->pred[in->root]), in->noise);
}

/* A base that plans from the prediction itself (Clairvoyant) absorbs one
 * late rank best (Marendic 2016, Prop. 3.7); with the imbalance spread over
 * the ranks, treedyn's arrival-driven pairing was the faster reduce in
 * every phase measured where it streams (docs/policies.md, "reduce"). */
static void auto_planned(papcoll_op_t op, const papcoll__pin_t *in, const papcoll__auto_cfg_t *cfg,
                         papcoll__eligible_fn ok, void *arg, papcoll__auto_out_t *out)
{
    int s = counterpart(op, out->base, 1, in, ok, arg);

    if (op == PAPCOLL_OP_REDUCE && in->pred != NULL && out->ratio >= cfg->ratio && s >= 0 && spread_out(in) &&
        treedyn_streams(in)) {
        out->algo = s;
        out->why = "imbalance spread over the ranks, arrival-driven pairing";
    }
}

void papcoll__auto_choose(papcoll_op_t op, const papcoll__pin_t *in, const papcoll__auto_cfg_t *cfg,
                          papcoll__eligible_fn ok, void *arg, papcoll__auto_out_t *out)
{
    double slow_base, slow_sorted, imb;
    int s, port, bg, bc = op == PAPCOLL_OP_BCAST;

    out->t_base = papcoll__model_time(op, in, ok, arg, &out->base);
    out->algo = out->base >= 0 ? out->base : 0;
    out->ratio = out->gain = NAN;
    out->why = "base algorithm by model cost";
    if (out->base < 0 || isnan(in->spread))
        return;
    imb = bc ? after_root(in) : papcoll__imbalance(in);
    out->ratio = out->t_base > 0 ? imb / out->t_base : INFINITY;
    if (papcoll_algo_flags(op, out->base) & PAPCOLL_F_NEEDS_PAT) {
        auto_planned(op, in, cfg, ok, arg, out);
        return;
    }
    /* A bcast below the ratio threshold: the foreground variant, whose tree
     * or chain is the base's own (docs/policies.md, "bcast"). */
    bg = in->has_monitor && !(bc && out->ratio < cfg->ratio);
    if ((s = counterpart(op, out->base, bg, in, ok, arg)) < 0 &&
        (s = counterpart(op, out->base, 0, in, ok, arg)) < 0)
        return;
    port = pat_times(op, out->base, s, in, imb, out->t_base, &slow_base, &slow_sorted);
    out->gain = slow_base - slow_sorted;
    /* The model prices neither the counterpart's wait for its plan nor its
     * thread: a gain within AUTO_MARGIN of t_base is no reason to switch
     * (the predicted arrivals' jitter flipped the choice).  The port model
     * prices the PAT itself, and a bcast's foreground variant has its
     * balanced cost in its gain: the ratio threshold, which stands in for
     * the PAT in the tree formulas, applies to neither. */
    if ((port || out->ratio >= cfg->ratio || bc) && out->gain > AUTO_MARGIN * out->t_base) {
        out->algo = s;
        out->why = bc && out->ratio < cfg->ratio
                       ? "imbalance after the root below threshold, foreground variant"
                       : "imbalance above threshold, sorted variant";
    } else if (bc && !bg && stale(in) && papcoll__cost(op, s, in) <= out->t_base) {
        /* Predictions that miss the next call do not tell its imbalance
         * after the root, but their order is still the best guess of who
         * comes late, and the foreground variant of the base's own shape
         * costs nothing more on balanced arrivals. */
        out->algo = s;
        out->why = "predictions miss the next call, foreground variant in predicted order";
    }
}

/* ---- rules ------------------------------------------------------------ */

static int num(const char *s, double *v)
{
    char *end;
    double m = 1;

    errno = 0;
    *v = strtod(s, &end);
    if (end == s || errno)
        return -1;
    if (*end == 'K' || *end == 'k')
        m = 1024, end++;
    else if (*end == 'M' || *end == 'm')
        m = 1048576, end++;
    else if (*end == 'G' || *end == 'g')
        m = 1073741824.0, end++;
    *v *= m;
    return *end == '\0' && *v >= 0 ? 0 : -1;
}

/* "*", "X", "LO-HI", "LO-" or "-HI" into [lo, hi]. */
static int range(char *s, double *lo, double *hi)
{
    char *dash;

    *lo = 0;
    *hi = INFINITY;
    if (strcmp(s, "*") == 0)
        return 0;
    if ((dash = strchr(s + 1, '-')) == NULL && s[0] != '-') {
        if (num(s, lo))
            return -1;
        *hi = *lo;
        return 0;
    }
    if (s[0] == '-')
        return num(s + 1, hi);
    *dash = '\0';
    if (num(s, lo) || (dash[1] != '\0' && num(dash + 1, hi)))
        return -1;
    return *lo <= *hi ? 0 : -1;
}

static int rule_line(char *line, const char *name, int ln, papcoll__rule_t *r, char *err, size_t errlen)
{
    char *f[6], *save = NULL;
    int n = 0, op;

    for (char *t = strtok_r(line, " \t\r", &save); t && n < 6; t = strtok_r(NULL, " \t\r", &save))
        f[n++] = t;
    if (n != 5) {
        snprintf(err, errlen, "%s:%d: want 5 fields 'op P bytes ratio algorithm', got %d", name, ln, n);
        return PAPCOLL_ERR_POLICY;
    }
    for (op = 0; op < PAPCOLL_OP_COUNT && strcmp(papcoll_op_name((papcoll_op_t)op), f[0]) != 0; op++)
        ;
    if (op == PAPCOLL_OP_COUNT) {
        snprintf(err, errlen, "%s:%d: unknown operation '%s'", name, ln, f[0]);
        return PAPCOLL_ERR_POLICY;
    }
    r->op = op;
    r->line = ln;
    if (range(f[1], &r->plo, &r->phi) || range(f[2], &r->blo, &r->bhi) || range(f[3], &r->rlo, &r->rhi)) {
        snprintf(err, errlen, "%s:%d: bad range (want *, X, LO-HI, LO- or -HI; sizes may end in K, M, G)",
                 name, ln);
        return PAPCOLL_ERR_POLICY;
    }
    if ((r->algo = papcoll_algo_find((papcoll_op_t)op, f[4])) < 0) {
        char list[512];
        snprintf(err, errlen, "%s:%d: unknown %s algorithm '%s' (valid: %s)", name, ln, f[0], f[4],
                 papcoll_algo_list((papcoll_op_t)op, list, sizeof list));
        return PAPCOLL_ERR_ALGO;
    }
    return PAPCOLL_OK;
}

int papcoll__rules_parse(const char *text, const char *name, papcoll__rules_t *out, char *err, size_t errlen)
{
    char line[512];
    const char *p = text, *nl;
    int ln = 0, rc;
    unsigned long long h = 1469598103934665603ULL;

    memset(out, 0, sizeof(*out));
    for (const char *q = text; *q; q++)
        h = (h ^ (unsigned char)*q) * 1099511628211ULL;
    out->hash = h;
    for (; *p; p = *nl ? nl + 1 : nl) {
        size_t len;
        char *hash, *s;

        nl = strchr(p, '\n');
        nl = nl ? nl : p + strlen(p);
        len = (size_t)(nl - p);
        ln++;
        if (len >= sizeof line) {
            snprintf(err, errlen, "%s:%d: line longer than %zu characters", name, ln, sizeof line - 1);
            return PAPCOLL_ERR_POLICY;
        }
        memcpy(line, p, len);
        line[len] = '\0';
        if ((hash = strchr(line, '#')) != NULL)
            *hash = '\0';
        for (s = line; isspace((unsigned char)*s); s++)
            ;
        if (*s == '\0')
            continue;
        if (out->n == PAPCOLL__RULES_MAX) {
            snprintf(err, errlen, "%s:%d: more than %d rules", name, ln, PAPCOLL__RULES_MAX);
            return PAPCOLL_ERR_POLICY;
        }
        if ((rc = rule_line(s, name, ln, &out->r[out->n], err, errlen)) != PAPCOLL_OK)
            return rc;
        out->n++;
    }
    if (out->n == 0) {
        snprintf(err, errlen, "%s: no rules", name);
        return PAPCOLL_ERR_POLICY;
    }
    return PAPCOLL_OK;
}

int papcoll__rules_load(const char *path, papcoll__rules_t *out, char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    char *text = NULL;
    long n;
    int rc = PAPCOLL_ERR_POLICY;

    if (f == NULL) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return PAPCOLL_ERR_POLICY;
    }
    if (fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) < 0 || n > (1L << 20) || fseek(f, 0, SEEK_SET) != 0 ||
        (text = calloc((size_t)n + 1, 1)) == NULL || fread(text, 1, (size_t)n, f) != (size_t)n)
        snprintf(err, errlen, "%s: cannot read (at most 1 MiB)", path);
    else
        rc = papcoll__rules_parse(text, path, out, err, errlen);
    free(text);
    fclose(f);
    return rc;
}

static int in_range(double x, double lo, double hi)
{
    return x >= lo && x <= hi;
}

int papcoll__rules_match(const papcoll__rules_t *t, papcoll_op_t op, int P, double bytes, double ratio)
{
    int i;

    for (i = 0; i < t->n; i++) {
        const papcoll__rule_t *r = &t->r[i];
        int any_ratio = r->rlo == 0 && isinf(r->rhi);

        if (r->op != (int)op || !in_range(P, r->plo, r->phi) || !in_range(bytes, r->blo, r->bhi))
            continue;
        if (isnan(ratio) ? any_ratio : (ratio >= r->rlo && (ratio < r->rhi || any_ratio || r->rlo == r->rhi)))
            return i;
    }
    return -1;
}

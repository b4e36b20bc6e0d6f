/*
 * Data-dependent policies (policy.h): rules tables, costs and auto.  Pure
 * functions of shared numbers; see docs/policies.md for the formats, the model and the parameters.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "policy.h"
#include "reduce/engine.h"

/* ---- cost model (Hockney alpha-beta plus gamma per combined byte) ------ */

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Whether algo is the algorithm called name (one comparison: the costs
 * ask this many times per call of a data-dependent policy). */
static int is(papcoll_op_t op, int algo, const char *name)
{
    const char *own = papcoll_algo_name(op, algo);

    return own != NULL && strcmp(own, name) == 0;
}

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

/* A pipeline of `stages` stages of cost per segment: (stages + N - 1) (a + s b),
 * a the fixed cost of a step. */
static double pipeline(double stages, double m, const papcoll__pin_t *in, double a, double per_byte,
                       double fan)
{
    double N = segments(m, in);

    return (stages + N - 1) * fan * (a + m / N * per_byte);
}

static double cost_blocks(papcoll_op_t op, int algo, const papcoll__pin_t *in)
{
    double P = in->P, m = in->bytes, L = log2c(in->P), a = in->alpha, b = in->beta;

    if (is(op, algo, "lin") || is(op, algo, "slin") || is(op, algo, "sls"))
        return a + (P - 1) * m * b; /* the root's port carries P - 1 blocks, latencies overlap */
    if (is(op, algo, "ls"))
        return 2 * (P - 1) * a + (P - 1) * m * b; /* one handshake per leaf */
    if (is(op, algo, "bnom") || is(op, algo, "sbn"))
        return L * a + (P - 1) * m * b + (P - 1) * m * b / 2; /* subtrees forwarded once more */
    return NAN;
}

static double cost_bcast(papcoll_op_t op, int algo, const papcoll__pin_t *in)
{
    double P = in->P, m = in->bytes, L = log2c(in->P), a = in->alpha, b = in->beta;

    /* The background forms on balanced arrivals: their foreground tree or
     * chain (papcoll__model_time never takes them as the base). */
    if (is(op, algo, "binomial") || is(op, algo, "sorted") || is(op, algo, "arrival") || is(op, algo, "bsorted"))
        return L * (a + m * b);
    if (is(op, algo, "pipelined") || is(op, algo, "spipelined"))
        return pipeline(floor(log2(P > 1 ? P : 1)), m, in, a, b, 2);
    if (is(op, algo, "chain") || is(op, algo, "schain") || is(op, algo, "bchain"))
        return pipeline(P - 1, m, in, a, b, 1);
    if (is(op, algo, "scatter_allgather"))
        return (L + P - 1) * a + 2 * (P - 1) / P * m * b;
    return NAN;
}

/* Per byte each way of an exchange with one peer: the model's xbeta, or
 * beta where the model has none. */
static double xbeta(const papcoll__pin_t *in)
{
    return in->xbeta > 0 ? in->xbeta : in->beta;
}

/* The fixed cost of one round of a reduction: the round alpha, or alpha
 * where the model has none.  Every step of the ring, of recursive doubling
 * and halving, of radix-k and of Clairvoyant's balanced pipeline is a
 * round in which every rank (or every rank still holding data) sends and
 * receives at once, which costs more than a ping-pong's latency where ranks
 * share cores (model.h; docs/policies.md, "auto"). */
static double round_alpha(const papcoll__pin_t *in)
{
    return in->ralpha > 0 ? in->ralpha : in->alpha;
}

/* Reductions, per round the round alpha; recursive halving and radix-k's
 * rounds, and every round of recursive doubling, are exchanges with one
 * peer (xbeta); the other transfers go one way (beta). */
static double cost_reduce(papcoll_op_t op, int algo, const papcoll__pin_t *in)
{
    double P = in->P, m = in->bytes, L = log2c(in->P), a = round_alpha(in), b = in->beta, g = in->gamma;
    double x = xbeta(in);
    int all = op == PAPCOLL_OP_ALLREDUCE;

    if (is(op, algo, "recdoubling"))
        return L * (a + m * (x + g));
    if (is(op, algo, "binomial") || is(op, algo, "fibonacci"))
        return L * (a + m * (b + g));
    if (is(op, algo, "pipelined") || is(op, algo, "inorder"))
        return pipeline(floor(log2(P > 1 ? P : 1)), m, in, a, b + g, 2);
    if (is(op, algo,
           "clairvoyant")) /* on balanced arrivals: segments through a binary tree (Marendic Eq. 1) */
        return pipeline(L, m, in, a, b + g, 1);
    if (is(op, algo, "rabenseifner") || is(op, algo, "radixk")) /* reduce-scatter, then allgather or gather */
        return 2 * L * a + (P - 1) / P * m * (x + (all ? x : b)) + (P - 1) / P * m * g;
    if (is(op, algo, "ring")) /* reduce: ring reduce-scatter, binomial gather */
        return (all ? 2 * (P - 1) : P - 1 + L) * a + 2 * (P - 1) / P * m * b + (P - 1) / P * m * g;
    return NAN;
}

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
    if (in->P <= 1)
        return 0;
    switch (op) {
    case PAPCOLL_OP_GATHER:
    case PAPCOLL_OP_SCATTER:
        return cost_blocks(op, algo, in);
    case PAPCOLL_OP_BCAST:
        return cost_bcast(op, algo, in);
    default:
        return cost_reduce(op, algo, in);
    }
}

/* Counterparts: base -> foreground and background variant. */
static const struct {
    const char *op, *base, *fg, *bg;
} sorted_tab[] = {
    {"gather", "lin", "sls", "bsls"},
    {"gather", "ls", "sls", "bsls"},
    {"gather", "bnom", "sbn", "bsbn"},
    {"scatter", "lin", "slin", "bsln"},
    {"scatter", "bnom", "sbn", "bsbn"},
    {"bcast", "binomial", "sorted", "bsorted"},
    {"bcast", "pipelined", "spipelined", "bsorted"},
    {"bcast", "chain", "schain", "bchain"},
    {"bcast", "scatter_allgather", "schain", "bchain"},
};

/* The row of sorted_tab for base, or -1. */
static int sorted_row(papcoll_op_t op, int base)
{
    size_t i;

    for (i = 0; i < sizeof sorted_tab / sizeof sorted_tab[0]; i++)
        if (strcmp(sorted_tab[i].op, papcoll_op_name(op)) == 0 && is(op, base, sorted_tab[i].base))
            return (int)i;
    return -1;
}

int papcoll__sorted_of(papcoll_op_t op, int base, int commutative, int bg)
{
    int r;

    if (op == PAPCOLL_OP_REDUCE)
        return papcoll_algo_find(op, commutative ? (bg ? "treedyn" : "clairvoyant") : "noncommut_treedyn");
    if (op == PAPCOLL_OP_ALLREDUCE) /* no ORDERED allreduce plans from the prediction */
        return commutative ? papcoll_algo_find(op, "sorted_ring") : -1;
    r = sorted_row(op, base);
    return r < 0 ? -1 : papcoll_algo_find(op, bg ? sorted_tab[r].bg : sorted_tab[r].fg);
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

/* Predictions that miss the next call by more than half their spread
 * (lag_noise): which rank comes late is then a guess. */
static int stale(const papcoll__pin_t *in)
{
    return in->lag_noise > in->spread / 2;
}

/* The root's arrival offset a model of a linear algorithm assumes: the
 * predicted one, or, with stale predictions, at least the mean predicted
 * offset. */
static double root_arrival(const papcoll__pin_t *in)
{
    double mean = 0;
    int i;

    if (!stale(in))
        return in->pred[in->root];
    for (i = 0; i < in->P; i++)
        mean += in->pred[i] / in->P;
    return fmax(in->pred[in->root], mean);
}

/*
 * A linear gather or scatter under the predicted PAT: the root's port
 * carries one block after another, each no earlier than its rank's
 * arrival, in arrival order (all) or in rank order (ordered).  start: when
 * the port starts (the root's arrival, or 0 for a background part, whose
 * root still ends no earlier than its own arrival); per: the cost of a
 * block beyond m beta (alpha, or a handshake's 2 alpha).
 */
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

/* Modelled times of base and of its PAP-aware counterpart s under the
 * predicted PAT; returns 1 when they come from the root's port model.
 * Gather from lin or ls, with a prediction for at most QUEUE_MAX ranks:
 * the root's port (port_queue), a background part (bsls) starting before
 * the root arrives.  Otherwise: a late rank holds a base tree back for the
 * whole collective, imbalance + t_base; in the sorted variant it is a leaf,
 * one message after its arrival, and the variant takes no less than its own
 * balanced time (its cost, else t_base: a chain is slower than a tree when
 * latency dominates).  In sorted_ring it finds the others'
 * vector pre-reduced, and after it arrives N segments pass it and the P - 1
 * hops of the result ring, (N + P - 1)(alpha + n/N (beta + gamma)), no
 * earlier than the ring's balanced (2N + P - 2) such steps: alpha, not the
 * round alpha, since both stream their segments, several in flight, rather
 * than step in rounds. */
static int pat_times(papcoll_op_t op, int base, int s, const papcoll__pin_t *in, double imb, double t_base,
                     double *tb, double *ts)
{
    double leaf = in->alpha + in->bytes * (in->beta + (op >= PAPCOLL_OP_REDUCE ? in->gamma : 0)), ar;

    if (op == PAPCOLL_OP_GATHER && in->pred != NULL && in->root >= 0 && in->P <= QUEUE_MAX &&
        (is(op, base, "lin") || is(op, base, "ls"))) {
        ar = root_arrival(in);
        *tb = port_queue(in, ar, is(op, base, "ls"), is(op, base, "ls") ? 2 * in->alpha : 0, ar) +
              (is(op, base, "lin") ? in->alpha : 0);
        *ts = port_queue(in, is(op, s, "bsls") ? 0 : ar, 0, 2 * in->alpha, ar);
        return 1;
    }
    *tb = imb + t_base;
    if (is(op, s, "sorted_ring")) {
        *ts = fmax(
            pipeline(segments(in->bytes, in) + in->P - 1, in->bytes, in, in->alpha, in->beta + in->gamma, 1),
            imb + pipeline(in->P, in->bytes, in, in->alpha, in->beta + in->gamma, 1));
    } else {
        double own = papcoll__cost(op, s, in);

        *ts = fmax(isnan(own) ? t_base : own, imb + leaf);
    }
    return 0;
}

#define AUTO_MARGIN 0.05 /* of t_base: the least gain for which auto switches */

/* Whether the predicted imbalance is spread over the ranks: the latest
 * predicted arrival is less than half the spread (in->spread, max - min of
 * pred) after the second latest, so no single rank carries it. */
static int spread_out(const papcoll__pin_t *in)
{
    double hi = -INFINITY, hi2 = -INFINITY, x;
    int i;

    for (i = 0; i < in->P; i++) {
        x = in->pred[i];
        if (x > hi) {
            hi2 = hi;
            hi = x;
        } else if (x > hi2) {
            hi2 = x;
        }
    }
    return in->P > 2 && hi - hi2 < in->spread / 2;
}

/* Whether treedyn streams the call's vector (papcoll__dyn_streams, its
 * segments counted by segments()).  Below that it pairs whole values,
 * ceil(log2 P) transfers deep, and lost to Clairvoyant in every phase with
 * the imbalance spread (128 KiB, docs/policies.md, "reduce"). */
static int treedyn_streams(const papcoll__pin_t *in)
{
    double S = segments(in->bytes, in);

    return papcoll__dyn_streams(in->P, S < INT_MAX ? (int)S : INT_MAX);
}

/* The imbalance a bcast can act on: its data starts at the root, so the
 * ranks predicted before the root only wait for it, and what a variant can
 * gain is the spread of the arrivals after the root's, less the
 * predictor's noise (all of papcoll__imbalance without a root's prediction). */
static double after_root(const papcoll__pin_t *in)
{
    double hi = -INFINITY;
    int i;

    if (in->pred == NULL || in->root < 0 || !isfinite(in->pred[in->root]))
        return papcoll__imbalance(in);
    for (i = 0; i < in->P; i++)
        hi = isfinite(in->pred[i]) && in->pred[i] > hi ? in->pred[i] : hi;
    return less_noise(fmax(0, hi - in->pred[in->root]), in->noise);
}

void papcoll__auto_choose(papcoll_op_t op, const papcoll__pin_t *in, const papcoll__auto_cfg_t *cfg,
                          papcoll__eligible_fn ok, void *arg, papcoll__auto_out_t *out)
{
    double slow_base, slow_sorted, imb;
    int s, port, bg;

    out->t_base = papcoll__model_time(op, in, ok, arg, &out->base);
    out->algo = out->base >= 0 ? out->base : 0;
    out->ratio = out->gain = NAN;
    out->why = "base algorithm by model cost";
    if (out->base < 0 || isnan(in->spread))
        return;
    imb = op == PAPCOLL_OP_BCAST ? after_root(in) : papcoll__imbalance(in);
    out->ratio = out->t_base > 0 ? imb / out->t_base : INFINITY;
    if (papcoll_algo_flags(op, out->base) & PAPCOLL_F_NEEDS_PAT) {
        /* The base plans from the prediction itself (Clairvoyant), and its
         * schedule absorbs one late rank best (Marendic 2016, Prop. 3.7).
         * With the imbalance spread over the ranks, the arrival-driven
         * pairing of treedyn was the faster reduce in every phase measured
         * where it streams (docs/policies.md, "reduce"); the model prices
         * neither. */
        s = papcoll__sorted_of(op, out->base, in->commutative, 1);
        if (op == PAPCOLL_OP_REDUCE && in->has_monitor && in->pred != NULL && out->ratio >= cfg->ratio &&
            s >= 0 && ok(op, s, arg) && spread_out(in) && treedyn_streams(in)) {
            out->algo = s;
            out->why = "imbalance spread over the ranks, arrival-driven pairing";
        }
        return;
    }
    /* A bcast below the ratio threshold: the foreground variant, whose tree
     * or chain is the base's own (docs/policies.md, "bcast"). */
    bg = in->has_monitor && !(op == PAPCOLL_OP_BCAST && out->ratio < cfg->ratio);
    s = papcoll__sorted_of(op, out->base, in->commutative, bg);
    if (s < 0 || !ok(op, s, arg)) /* the foreground variant when the background one cannot run */
        s = papcoll__sorted_of(op, out->base, in->commutative, 0);
    if (s < 0 || !ok(op, s, arg))
        return;
    port = pat_times(op, out->base, s, in, imb, out->t_base, &slow_base, &slow_sorted);
    out->gain = slow_base - slow_sorted;
    /* The model prices neither the counterpart's wait for its plan nor its
     * thread: a gain within AUTO_MARGIN of t_base is no reason to switch
     * (measured: the predicted arrivals' jitter flipped the choice).  The
     * port model prices the predicted PAT itself, so the ratio threshold,
     * which stands in for it in the tree formulas, does not apply to it
     * (measured: it kept lin in a phase of real fft arrivals where bsls
     * was 6 % faster).  Nor does it to a bcast's foreground variant, whose
     * balanced cost (the base's tree or chain, or more) is in its gain. */
    if ((port || out->ratio >= cfg->ratio || op == PAPCOLL_OP_BCAST) &&
        out->gain > AUTO_MARGIN * out->t_base) {
        out->algo = s;
        out->why = op == PAPCOLL_OP_BCAST && out->ratio < cfg->ratio
                       ? "imbalance after the root below threshold, foreground variant"
                       : "imbalance above threshold, sorted variant";
    } else if (op == PAPCOLL_OP_BCAST && !bg && stale(in) && papcoll__cost(op, s, in) <= out->t_base) {
        /* Predictions that miss the next call by more than half their
         * spread do not tell this call's imbalance after the root, but
         * their order is still the best guess of who comes late, and the
         * foreground variant with the base's own shape costs nothing more
         * on balanced arrivals (docs/policies.md, "bcast"). */
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

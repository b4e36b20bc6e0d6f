/* The data policies (policy.h): algos.def's cost column, auto and rules
 * tables; docs/policies.md gives the formats, the model and the parameters. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "algo_ids.h"
#include "base.h"
#include "policy.h"
#include "sched/dyn.h"

/* ---- cost model: Hockney alpha-beta plus gamma per combined byte ------- */
typedef double (*cost_fn)(papcoll_op_t op, const papcoll__pin_t *in);

static double segments(double m, const papcoll__pin_t *in)
{
    double N = in->seg > 0 ? ceil(m / in->seg) : 1;

    return N < 1 ? 1 : N;
}

/* stages + N - 1 steps of fan transfers of a segment, each a + (m / N) per_byte. */
static double pipeline(double stages, double m, const papcoll__pin_t *in, double a, double per_byte,
                       double fan)
{
    double N = segments(m, in);

    return (stages + N - 1) * fan * (a + m / N * per_byte);
}

#define P_ ((double)in->P)
#define M_ (in->bytes)
#define L_ (in->P > 1 ? ceil(log2(P_)) : 0)
#define FL_ floor(log2(in->P > 1 ? P_ : 1))
/* A round in which every rank sends and receives at once (every step of a
 * reduction): the model's round alpha, else alpha (model.h). */
#define RA (in->ralpha > 0 ? in->ralpha : in->alpha)
/* Per byte each way of an exchange with one peer: xbeta, else beta. */
#define XB (in->xbeta > 0 ? in->xbeta : in->beta)
#define ALL (op == PAPCOLL_OP_ALLREDUCE)
#define COST(name, expr)                                                                                     \
    static double cost_##name(papcoll_op_t op, const papcoll__pin_t *in)                                     \
    {                                                                                                        \
        return (void)op, (expr);                                                                             \
    }

/* Gather, scatter: the root's port carries P - 1 blocks, latencies overlap;
 * a handshake per leaf; a binomial tree forwards each subtree once more. */
COST(port, in->alpha + (P_ - 1) * M_ * in->beta)
COST(handshake, 2 * (P_ - 1) * in->alpha + (P_ - 1) * M_ * in->beta)
COST(bn_blocks, L_ * in->alpha + 1.5 * (P_ - 1) * M_ * in->beta)
/* Bcast; a background form is costed as its foreground tree or chain. */
COST(tree, (in->alpha + M_ * in->beta) * L_)
COST(bin_pipeline, pipeline(FL_, M_, in, in->alpha, in->beta, 2))
COST(chain, pipeline(P_ - 1, M_, in, in->alpha, in->beta, 1))
/* Two trees: k segments in k + 2 floor(log2 P) full-duplex steps (sched/twotree.h). */
COST(two_tree, pipeline(2 * FL_ + 1, M_, in, in->alpha, in->beta, 1))
COST(scatter_allgather, (L_ + P_ - 1) * in->alpha + 2 * (P_ - 1) / P_ * M_ * in->beta)
/* Reductions. */
COST(recdoubling, (RA + M_ * (XB + in->gamma)) * L_)
COST(red_tree, (RA + M_ * (in->beta + in->gamma)) * L_)
COST(red_pipeline, pipeline(FL_, M_, in, RA, in->beta + in->gamma, 2))
/* Two trees backwards: k + 2 floor(log2 P) steps in which every rank sends and receives; a
 * non-commutative op off rank 0 also forwards the result, and the root receives it besides. */
COST(red_two_tree, pipeline(2 * FL_ + 1, M_, in, RA, in->beta + in->gamma, 1) +
                       (!in->commutative && in->root > 0 ? M_ * in->beta : 0))
/* Clairvoyant on balanced arrivals: segments through a binary tree (Marendic Eq. 1). */
COST(cv_pipeline, pipeline(L_, M_, in, RA, in->beta + in->gamma, 1))
/* Reduce-scatter by halving (or radix-k), then allgather or gather. */
COST(halving, 2 * L_ * RA + (P_ - 1) / P_ * M_ * (XB + (ALL ? XB : in->beta) + in->gamma))
/* Ring reduce-scatter, then a ring allgather or a binomial gather. */
COST(ring, (ALL ? 2 * (P_ - 1) : P_ - 1 + L_) * RA + (P_ - 1) / P_ * M_ * (2 * in->beta + in->gamma))

#define cost_NONE NULL
static const struct {
    cost_fn cost;
    unsigned flags;
    int fallback, sorted, bsorted;
} algos[] = {
#define PAPCOLL_ALGO(op, name, flags, fallback, planner, bg, cost, sorted, bsorted, summary)                 \
    {cost_##cost, (flags), PAPCOLL__A_##op##_##fallback, PAPCOLL__A_##op##_##sorted, PAPCOLL__A_##op##_##bsorted},
#include "algos.def"
#undef PAPCOLL_ALGO
};
static const int first[] = {
#define PAPCOLL_OP(NAME, name, dflt, env, ini, kind) PAPCOLL__AG_##name##_mpi,
#include "papcoll_ops.def"
#undef PAPCOLL_OP
    PAPCOLL__AG_COUNT};
#define ROW(op, i) (&algos[first[op] + (i)])
#define FLAGS(op, i) (ROW(op, i)->flags)
#define COUNT(op) (first[(op) + 1] - first[op])
#define PAP_AWARE (PAPCOLL_F_NEEDS_PAT | PAPCOLL_F_BACKGROUND)

double papcoll__imbalance(const papcoll__pin_t *in)
{
    return isnan(in->spread) ? NAN : fmax(0, in->spread - fmax(in->noise, 0));
}

double papcoll__cost(papcoll_op_t op, int algo, const papcoll__pin_t *in)
{
    cost_fn f = ROW(op, algo)->cost;

    return f == NULL ? NAN : in->P <= 1 ? 0 : f(op, in);
}

/* base's PAP-aware counterpart (bg: the background one) that serves the
 * call, its commutativity and monitor threads included: the column's, or
 * the first of its PAP-aware fallbacks that does (-1: none). */
static int counterpart(papcoll_op_t op, int base, int bg, const papcoll__pin_t *in, papcoll__eligible_fn ok,
                       void *arg)
{
    int s = bg ? ROW(op, base)->bsorted : ROW(op, base)->sorted;

    while (s >= 0 && (FLAGS(op, s) & PAP_AWARE) &&
           !(ok(op, s, arg) && (in->commutative || !(FLAGS(op, s) & PAPCOLL_F_COMMUTATIVE_ONLY)) &&
             (in->has_monitor || !(FLAGS(op, s) & PAPCOLL_F_BACKGROUND))))
        s = ROW(op, s)->fallback;
    return s >= 0 && (FLAGS(op, s) & PAP_AWARE) ? s : -1;
}

#define AUTO_MARGIN 0.05 /* of t_base: the least gain for which auto switches */

double papcoll__model_time(papcoll_op_t op, const papcoll__pin_t *in, papcoll__eligible_fn ok, void *arg,
                           int *base, int *planner)
{
    double best[2] = {NAN, NAN}, c;
    int b[2] = {-1, -1}, k;

    for (int i = 0; i < COUNT(op); i++) {
        c = papcoll__cost(op, i, in);
        k = (FLAGS(op, i) & PAPCOLL_F_NEEDS_PAT) != 0;
        if (!(FLAGS(op, i) & PAPCOLL_F_BACKGROUND) && !isnan(c) && ok(op, i, arg) &&
            (b[k] < 0 || c < best[k]))
            best[k] = c, b[k] = i;
    }
    k = b[0] < 0 || (b[1] >= 0 && best[0] > best[1] * (1 + AUTO_MARGIN));
    *base = b[k];
    *planner = !k && b[1] >= 0 && best[1] < best[0] ? b[1] : -1;
    return best[k];
}

/* ---- auto: the base, or its counterpart under the predicted PAT -------- */

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Predictions that miss the next call by more than half their spread: who comes late is a guess. */
#define STALE(in) ((in)->lag_noise > (in)->spread / 2)

/* A linear gather under the predicted PAT: the root's port carries one block after another, each no
 * earlier than its rank's arrival, in arrival order or in rank order (ordered), from start (the root's
 * arrival, or 0 for a background part); per: a block's cost beyond m beta. */
#define QUEUE_MAX 1024

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

/* Modelled times of base and its counterpart s under the predicted PAT; 1 when from the root's port model.
 * Otherwise a late rank holds a base tree back for imbalance + t_base; in the sorted variant it is a leaf,
 * one message after its arrival; in stwotree it is interior above leaves, which wait one segment more.  In
 * sorted_ring it finds the others' vector pre-reduced; then N segments pass it and the P - 1 hops of the
 * result ring, each alpha (the segments stream) + n/N (beta + gamma). */
static int pat_times(papcoll_op_t op, int base, int s, const papcoll__pin_t *in, double imb, double t_base,
                     double *tb, double *ts)
{
    double seg = op == PAPCOLL_OP_BCAST && s == PAPCOLL__A_bcast_stwotree
                     ? in->alpha + in->bytes / segments(in->bytes, in) * in->beta
                     : 0;
    double leaf = seg + in->alpha + in->bytes * (in->beta + (op >= PAPCOLL_OP_REDUCE ? in->gamma : 0));
    double step = in->beta + in->gamma, own = papcoll__cost(op, s, in), ar = 0;
    cost_fn c = ROW(op, base)->cost;
    int hs = c == cost_handshake;

    if (op == PAPCOLL_OP_GATHER && in->pred != NULL && in->root >= 0 && in->P <= QUEUE_MAX &&
        (c == cost_port || hs)) {
        /* The root's arrival: the predicted one, with stale predictions at least the mean. */
        for (int i = 0; i < in->P; i++)
            ar += in->pred[i] / in->P;
        ar = STALE(in) ? fmax(in->pred[in->root], ar) : in->pred[in->root];
        *tb = port_queue(in, ar, hs, hs ? 2 * in->alpha : 0, ar) + (hs ? 0 : in->alpha);
        *ts = port_queue(in, FLAGS(op, s) & PAPCOLL_F_BACKGROUND ? 0 : ar, 0, 2 * in->alpha, ar);
        return 1;
    }
    *tb = imb + t_base;
    if (op == PAPCOLL_OP_ALLREDUCE && s == PAPCOLL__A_allreduce_sorted_ring)
        *ts = fmax(pipeline(segments(in->bytes, in) + in->P - 1, in->bytes, in, in->alpha, step, 1),
                   imb + pipeline(in->P, in->bytes, in, in->alpha, step, 1));
    else
        *ts = fmax(isnan(own) ? t_base : own, imb + leaf);
    return 0;
}

/* The imbalance is spread over the ranks: the latest predicted arrival is
 * less than half the spread after the second latest. */
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

/* A bcast's imbalance: its data starts at the root, so only the arrivals
 * after the root's count, less the predictor's noise. */
static double after_root(const papcoll__pin_t *in)
{
    double hi = -INFINITY;

    if (in->pred == NULL || in->root < 0 || !isfinite(in->pred[in->root]))
        return papcoll__imbalance(in);
    for (int i = 0; i < in->P; i++)
        hi = isfinite(in->pred[i]) && in->pred[i] > hi ? in->pred[i] : hi;
    return fmax(0, hi - in->pred[in->root] - fmax(in->noise, 0));
}

void papcoll__auto_choose(papcoll_op_t op, const papcoll__pin_t *in, double threshold,
                          papcoll__eligible_fn ok, void *arg, papcoll__auto_out_t *out)
{
    double slow_base, slow_sorted, imb, S = segments(in->bytes, in);
    int s, port, bg, planner, bc = op == PAPCOLL_OP_BCAST;

    out->t_base = papcoll__model_time(op, in, ok, arg, &out->base, &planner);
    out->algo = out->base >= 0 ? out->base : 0;
    out->ratio = out->gain = NAN;
    out->why = "base algorithm by model cost";
    if (out->base < 0 || isnan(in->spread))
        return;
    imb = bc ? after_root(in) : papcoll__imbalance(in);
    out->ratio = out->t_base > 0 ? imb / out->t_base : INFINITY;
    if (planner >= 0 && out->ratio >= threshold) { /* the planner passed over takes the imbalance */
        out->algo = out->base = planner;
        out->t_base = papcoll__cost(op, planner, in);
        out->ratio = out->t_base > 0 ? imb / out->t_base : INFINITY;
        out->why = "imbalance above threshold, planned from the prediction";
    }
    if (FLAGS(op, out->base) & PAPCOLL_F_NEEDS_PAT) {
        /* A base that plans from the prediction (Clairvoyant) absorbs one late rank best (Marendic 2016,
         * Prop. 3.7); with the imbalance spread over the ranks, treedyn's pairing was the faster reduce in
         * every phase measured where it streams (docs/results/policies.md). */
        s = counterpart(op, out->base, 1, in, ok, arg);
        if (op == PAPCOLL_OP_REDUCE && in->pred != NULL && out->ratio >= threshold && s >= 0 &&
            spread_out(in) && papcoll__dyn_streams(in->P, S < INT_MAX ? (int)S : INT_MAX)) {
            out->algo = s;
            out->why = "imbalance spread over the ranks, arrival-driven pairing";
        }
        return;
    }
    /* A bcast below the threshold: the foreground variant, the base's own tree or chain. */
    bg = in->has_monitor && !(bc && out->ratio < threshold);
    s = counterpart(op, out->base, bg, in, ok, arg);
    if (s < 0 && (s = counterpart(op, out->base, 0, in, ok, arg)) < 0)
        return;
    port = pat_times(op, out->base, s, in, imb, out->t_base, &slow_base, &slow_sorted);
    out->gain = slow_base - slow_sorted;
    /* The model prices neither the counterpart's wait for its plan nor its thread: a gain within
     * AUTO_MARGIN of t_base is jitter.  The ratio stands in for the PAT in the tree formulas only: the
     * port model prices the PAT itself, and a bcast's foreground variant has its balanced cost in its gain. */
    if ((port || out->ratio >= threshold || bc) && out->gain > AUTO_MARGIN * out->t_base) {
        out->algo = s;
        out->why = bc && out->ratio < threshold
                       ? "imbalance after the root below threshold, foreground variant"
                       : "imbalance above threshold, sorted variant";
    } else if (bc && !bg && STALE(in) && papcoll__cost(op, s, in) <= out->t_base) {
        /* Stale predictions do not tell the imbalance after the root, but their order is still the best
         * guess of who comes late, and the base's own shape costs nothing more on balanced arrivals. */
        out->algo = s;
        out->why = "predictions miss the next call, foreground variant in predicted order";
    }
}

/* ---- rules ------------------------------------------------------------ */

/* A number, K/M/G = 2^10/2^20/2^30. */
static int num(const char *s, double *v)
{
    static const char units[] = "KkMmGg";
    const char *u;
    char *end;

    errno = 0;
    *v = strtod(s, &end);
    if (end == s || errno)
        return -1;
    if (*end != '\0' && (u = strchr(units, *end)) != NULL)
        *v = ldexp(*v, 10 * (int)((u - units) / 2 + 1)), end++;
    return *end == '\0' && *v >= 0 ? 0 : -1;
}

/* "*", "X", "LO-HI", "LO-" or "-HI" into [lo, hi]. */
static int range(char *s, double *lo, double *hi)
{
    char *dash = strchr(s + 1, '-');

    *lo = 0, *hi = INFINITY;
    if (strcmp(s, "*") == 0)
        return 0;
    if (s[0] == '-')
        return num(s + 1, hi);
    if (dash == NULL)
        return num(s, lo) ? -1 : (*hi = *lo, 0);
    *dash = '\0';
    return num(s, lo) || (dash[1] != '\0' && num(dash + 1, hi)) || *lo > *hi ? -1 : 0;
}

static int rule_line(const char *line, const char *name, int ln, papcoll__rule_t *r, char *err, size_t errlen)
{
    char f[6][64], list[512];
    int n = sscanf(line, "%63s %63s %63s %63s %63s %63s", f[0], f[1], f[2], f[3], f[4], f[5]), op;

    for (op = 0; op < PAPCOLL_OP_COUNT && strcmp(papcoll_op_name((papcoll_op_t)op), f[0]) != 0; op++)
        ;
    r->op = op;
    r->line = ln;
    if (n != 5)
        snprintf(err, errlen, "%s:%d: want 5 fields 'op P bytes ratio algorithm', got %d", name, ln, n);
    else if (op == PAPCOLL_OP_COUNT)
        snprintf(err, errlen, "%s:%d: unknown operation '%s'", name, ln, f[0]);
    else if (range(f[1], &r->plo, &r->phi) || range(f[2], &r->blo, &r->bhi) || range(f[3], &r->rlo, &r->rhi))
        snprintf(err, errlen, "%s:%d: bad range (want *, X, LO-HI, LO- or -HI; sizes may end in K, M, G)",
                 name, ln);
    else if ((r->algo = papcoll_algo_find((papcoll_op_t)op, f[4])) < 0) {
        snprintf(err, errlen, "%s:%d: unknown %s algorithm '%s' (valid: %s)", name, ln, f[0], f[4],
                 papcoll_algo_list((papcoll_op_t)op, list, sizeof list));
        return PAPCOLL_ERR_ALGO;
    } else
        return PAPCOLL_OK;
    return PAPCOLL_ERR_POLICY;
}

int papcoll__rules_parse(const char *text, const char *name, papcoll__rules_t *out, char *err, size_t errlen)
{
    char line[512], word[2];
    const char *p, *nl;
    int ln = 0, rc;

    memset(out, 0, sizeof(*out));
    out->hash = papcoll__fnv(0xCBF29CE484222325ULL, text, strlen(text));
    for (p = text; *p; p = *nl ? nl + 1 : nl) {
        nl = p + strcspn(p, "\n");
        if ((size_t)(nl - p) >= sizeof line) {
            snprintf(err, errlen, "%s:%d: line longer than %zu characters", name, ln + 1, sizeof line - 1);
            return PAPCOLL_ERR_POLICY;
        }
        snprintf(line, sizeof line, "%.*s", (int)(nl - p), p);
        line[strcspn(line, "#")] = '\0';
        ln++;
        if (sscanf(line, "%1s", word) != 1)
            continue;
        if (out->n == PAPCOLL__RULES_MAX) {
            snprintf(err, errlen, "%s:%d: more than %d rules", name, ln, PAPCOLL__RULES_MAX);
            return PAPCOLL_ERR_POLICY;
        }
        if ((rc = rule_line(line, name, ln, &out->r[out->n++], err, errlen)) != PAPCOLL_OK)
            return rc;
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
    char *text = f != NULL ? calloc((1 << 20) + 1, 1) : NULL;
    int rc = PAPCOLL_ERR_POLICY;

    if (f == NULL)
        return snprintf(err, errlen, "%s: %s", path, strerror(errno)), rc;
    if (text == NULL || fread(text, 1, (size_t)1 << 20, f) == (size_t)1 << 20 || ferror(f))
        snprintf(err, errlen, "%s: cannot read (at most 1 MiB)", path);
    else
        rc = papcoll__rules_parse(text, path, out, err, errlen);
    free(text);
    fclose(f);
    return rc;
}

int papcoll__rules_match(const papcoll__rules_t *t, papcoll_op_t op, int P, double bytes, double ratio)
{
    for (int i = 0; i < t->n; i++) {
        const papcoll__rule_t *r = &t->r[i];
        int any_ratio = r->rlo == 0 && isinf(r->rhi);

        if (r->op != (int)op || P < r->plo || P > r->phi || bytes < r->blo || bytes > r->bhi)
            continue;
        if (isnan(ratio) ? any_ratio : (ratio >= r->rlo && (ratio < r->rhi || any_ratio || r->rlo == r->rhi)))
            return i;
    }
    return -1;
}

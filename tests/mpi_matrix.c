/*
 * MPI correctness matrix of libpapcoll: every algorithm of every operation
 * against the MPI library's own collective of the same inputs on the same
 * communicator, byte for byte (MPI_SUM on floating point: within 2 P eps,
 * and the same bytes on every rank of an allreduce).  Operations come from
 * papcoll_ops.def, each through its adapter (matrix_ops.h); algorithms and
 * their flags from papcoll_algo_count/name/flags and algos.def.  No name of
 * an algorithm is written here.  docs/testing.md says what a run covers
 * and what tests/run samples.
 *
 * Phases (one mpirun runs them all, or --phase picks some, e.g. matrix,stress):
 *   api      tables and lists (names unique, algos.def against the API,
 *            one of ORDERED / COMMUTATIVE_ONLY per reduction, fallback
 *            chains reach an unrestricted algorithm within 4 steps, a
 *            BASELINE per op), choice by name, environment and INI file
 *            (precedence options > environment > file > default), refusals
 *            under PAPCOLL_FALLBACK=error with and without monitor threads
 *            (nothing written), error codes of misuse, each followed by a
 *            call that must still work
 *   matrix   algorithm x root {0, P-1, P/2} x PAT kind, each such slot
 *            running its share of the operation's combinations (count x
 *            datatype layout x reduction op x in place: about 64 per
 *            algorithm and P, rotating with P so that the process counts of
 *            a run cover them all) plus large ones; random 0-2 ms delays
 *   stress   the monitor path over --iters calls per site, a context per
 *            predictor (edge: every algorithm, a fifth of the calls with an
 *            explicit PAT, one site per op switching algorithm every 3
 *            calls; last, sma:3, ewma:0.5: the algorithms that read
 *            predictions, half the calls): edges at random fractions,
 *            missing, late and double edges, ranks without
 *            processing_start, roots, layouts and reduction ops that change
 *            (fallback for one call and back), counts 0 to 1000
 *   multi    two sites of one context used in the same iteration, each
 *            rank running the other site's monitor API in its own order
 *   nomon    a context without monitor thread: background algorithms report
 *            their chain's fallback, every algorithm works
 *   subcomm  contexts on the two halves of MPI_COMM_WORLD (even and odd
 *            ranks, reversed) at once: any use of world ranks fails
 *   (nomon and subcomm run with PAPCOLL_SEGMENT_BYTES=1000, which cuts
 *   elements of 12, 13, 16 and 24 bytes if an algorithm cuts at bytes.)
 *
 * Every call runs with PAPCOLL_CHECK=1 (set here before papcoll_init): the
 * library verifies that all ranks chose the same algorithm and plan.
 * PAT kinds: none (the normal entry with the monitor API), null (pat ==
 * NULL), exact (the injected delays), stale (reversed rank order), random
 * (from the shared seed, with ties), adversarial (latest predicted =
 * earliest real).  All ranks derive delays, PATs and data from the shared
 * seed and the case id, so every rank knows every other rank's inputs.
 *
 * A failing case prints one line per failing rank; rank 0 prints a summary
 * line per phase.  Exit status 1 when anything failed or a phase ran no
 * case.  A watchdog (SIGALRM, re-armed for every case) turns a deadlock
 * into a failure naming the case.
 */
#include <ctype.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "matrix_ops.h"
#include "papcoll.h"

#define MAX_PRINTED 20
#define MAX_DELAY_US 2000
#define MAX_CHAIN 4 /* fallback steps to an algorithm without restriction */

/* ------------------------------------------------------------ options */

typedef struct {
    int only_background;
    const char *algo;  /* only these algorithm names, comma-separated */
    int op;            /* -1 or papcoll_op_t */
    const char *phase; /* NULL: all phases */
    int stride;        /* run 1 of stride of the small combinations (0: per op, see stride_of) */
    int iters;         /* stress iterations per site and predictor */
    int watchdog;      /* seconds per case */
    int no_large;
    int all_pats; /* algorithms without NEEDS_PAT also run the PAT kinds stale, random, adversarial */
    uint64_t seed;
} opts_t;

static opts_t g_opt = {0, NULL, -1, NULL, 0, 24, 60, 0, 0, 20200601};
static long g_printed;

/* ------------------------------------------------------------ watchdog */

/* The whole line the watchdog prints (one write, so ranks do not interleave). */
static char g_where[600];
static size_t g_where_len;

static void on_alarm(int sig)
{
    ssize_t w;

    (void)sig;
    w = write(STDOUT_FILENO, g_where, g_where_len);
    (void)w;
    _exit(3);
}

/* Names what this rank is doing and re-arms the watchdog. */
static void watch(const char *what)
{
    static const char head[] = "FAIL mpi_matrix: watchdog expired after %d s (deadlock?) in %s rank=%d";
    int n = snprintf(g_where, sizeof(g_where) - 1, head, g_opt.watchdog, what, g_w.rank);

    g_where_len = n > 0 && (size_t)n < sizeof(g_where) - 1 ? (size_t)n : sizeof(g_where) - 2;
    g_where[g_where_len++] = '\n';
    alarm((unsigned)g_opt.watchdog);
}

/* Sleeps us microseconds (usleep is not in POSIX.1-2008). */
static void sleep_us(long us)
{
    struct timespec ts = {us / 1000000, (us % 1000000) * 1000};

    if (us > 0)
        while (nanosleep(&ts, &ts) != 0)
            ;
}

/* ------------------------------------------------------------ randomness */

typedef struct {
    uint64_t s;
} rng_t;

static rng_t rng_for(uint64_t id)
{
    rng_t r = {mix64(g_w.seed ^ mix64(id))};
    return r;
}

static uint64_t rng_next(rng_t *r)
{
    return mix64(r->s++);
}

static int rng_below(rng_t *r, int n)
{
    return (int)(rng_next(r) % (uint64_t)n);
}

static double rng_unit(rng_t *r)
{
    return (double)(rng_next(r) >> 11) * 0x1p-53;
}

/* ------------------------------------------------------------ the algorithm list */

/* algos.def read directly, for what the public API does not list: the
 * declared fallback of each algorithm. */
typedef struct {
    const char *op, *name, *fallback;
    unsigned flags;
} def_t;

static const def_t g_def[] = {
#define PAPCOLL_ALGO(op, name, flags, fallback, planner, bg, cost, sorted, bsorted, summary) \
    {#op, #name, #fallback, (flags)},
#include "algos.def"
#undef PAPCOLL_ALGO
};
#define NDEF ((int)(sizeof(g_def) / sizeof(g_def[0])))

/* The flags that make an algorithm refuse a call (papcoll.h).  CONTIG_ONLY
 * refuses nothing (buffers are packed) and ORDERED is a promise. */
#define REFUSING                                                                                             \
    (PAPCOLL_F_COMMUTATIVE_ONLY | PAPCOLL_F_BUILTIN_OP_ONLY | PAPCOLL_F_POW2 | PAPCOLL_F_BACKGROUND)

/* Entry i of op in algos.def (the i-th of that op), or NULL. */
static const def_t *def_of(papcoll_op_t op, int i)
{
    int k, seen = 0;

    for (k = 0; k < NDEF; k++)
        if (papcoll_op_find(g_def[k].op) == (int)op && seen++ == i)
            return &g_def[k];
    return NULL;
}

static int fallback_of(papcoll_op_t op, int i)
{
    const def_t *d = def_of(op, i);
    return d ? papcoll_algo_find(op, d->fallback) : -1;
}

/* What a call asks of the algorithm that serves it. */
typedef struct {
    int commutative, builtin, P, monitor;
} needs_t;

static int can_serve(unsigned f, const needs_t *n)
{
    return !((f & PAPCOLL_F_BACKGROUND) && !n->monitor) && !((f & PAPCOLL_F_POW2) && (n->P & (n->P - 1))) &&
           !((f & PAPCOLL_F_COMMUTATIVE_ONLY) && !n->commutative) &&
           !((f & PAPCOLL_F_BUILTIN_OP_ONLY) && !n->builtin);
}

/* The algorithm that serves a call of algorithm algo's site: algo, or the
 * first of its fallback chain that can; -1 for a broken chain. */
static int served_by(papcoll_op_t op, int algo, const needs_t *n)
{
    int steps;

    for (steps = 0; algo >= 0 && steps < 16; steps++, algo = fallback_of(op, algo))
        if (can_serve(papcoll_algo_flags(op, algo), n))
            return algo;
    return -1;
}

/* ------------------------------------------------------------ combinations */

static struct {
    combo_t small[MAX_COMBOS], large[MAX_LARGE];
    int nsmall, nlarge;
    int reduction; /* the op takes an MPI_Op */
} g_combos[PAPCOLL_OP_COUNT];

static void combos_init(void)
{
    int op;

    for (op = 0; op < PAPCOLL_OP_COUNT; op++) {
        g_combos[op].nsmall = g_adapters[op].combos(g_combos[op].small, 0);
        g_combos[op].nlarge = g_adapters[op].combos(g_combos[op].large, 1);
        g_combos[op].reduction = g_combos[op].small[0].rop >= 0;
    }
}

/* A small combination of op with count >= 1 (of a predefined op for reductions). */
static combo_t plain_combo(papcoll_op_t op, int rop)
{
    int k;

    for (k = 0; k < g_combos[op].nsmall; k++) {
        combo_t c = g_combos[op].small[k];
        if (c.count > 0 && !c.inplace && c.leaf == c.root && (c.rop == rop || !g_combos[op].reduction) &&
            (c.leaf == L_INT || c.leaf == L_MAT2))
            return c;
    }
    return g_combos[op].small[0];
}

/* ------------------------------------------------------------ cases */

enum { PAT_NONE, PAT_NULL, PAT_EXACT, PAT_STALE, PAT_RANDOM, PAT_ADVERSARIAL, NPATS };
static const char *const g_pat_names[NPATS] = {"none", "null", "exact", "stale", "random", "adversarial"};

/* How ranks use the monitor API in a PAT_NONE case. */
enum { POL_EDGE, POL_NOEDGE, POL_MIXED };
enum { M_EDGE, M_NOEDGE, M_LATE, M_BARE, M_TWICE, NMODES };
static const char *const g_mode_names[NMODES] = {"edge", "no-edge", "late-edge", "no-start", "two-edges"};

/* Receive buffer bound to the site (papcoll_site_bind_recv) for a case. */
enum { BIND_NONE, BIND_RECVBUF, BIND_OTHER, NBINDS };
static const char *const g_bind_names[NBINDS] = {"none", "recvbuf", "other"};

/* Per-case inputs every rank derives identically from the case id. */
typedef struct {
    int *delay_us;
    int *mode;
    double *frac_real, *frac_told;
    double *pat;
    int sloppy; /* zero counts (or NULL) for insignificant arguments */
    int bind;   /* BIND_* */
} inputs_t;

static void make_inputs(const case_t *c, inputs_t *in)
{
    rng_t r = rng_for(c->id);
    int P = g_w.size, i, root_late = rng_below(&r, 4) == 0, calm = rng_below(&r, 10) == 0;

    in->sloppy = rng_below(&r, 3) == 0;
    in->bind = c->no_bind ? BIND_NONE : rng_below(&r, NBINDS);
    for (i = 0; i < P; i++) {
        in->delay_us[i] = calm ? 0 : rng_below(&r, MAX_DELAY_US + 1);
        in->frac_real[i] = 0.05 + 0.9 * rng_unit(&r);
        in->frac_told[i] = rng_below(&r, 2) ? in->frac_real[i] : 0.05 + 0.95 * rng_unit(&r);
        in->mode[i] = c->policy == POL_EDGE     ? M_EDGE
                      : c->policy == POL_NOEDGE ? M_NOEDGE
                                                : rng_below(&r, NMODES);
    }
    if (root_late && !calm)
        in->delay_us[c->root >= 0 ? c->root : P - 1] = MAX_DELAY_US + 500;
    for (i = 0; i < P; i++) {
        switch (c->pat) {
        case PAT_EXACT:
            in->pat[i] = 1000.0 + 1e-6 * in->delay_us[i];
            break;
        case PAT_STALE:
            in->pat[i] = (double)(P - 1 - i);
            break;
        case PAT_RANDOM:
            in->pat[i] = rng_below(&r, 2) ? (double)rng_below(&r, 3) : 1e9 * rng_unit(&r);
            break;
        case PAT_ADVERSARIAL:
            in->pat[i] = -1e-6 * in->delay_us[i];
            break;
        default:
            in->pat[i] = NAN;
            break;
        }
    }
}

static void describe(const case_t *c, const inputs_t *in, char *buf, size_t len)
{
    const combo_t *k = &c->k;
    char type[120];

    if (k->leaf == k->root)
        snprintf(type, sizeof(type), "%s", g_layouts[k->leaf].name);
    else
        snprintf(type, sizeof(type), "%s (root: %s)", g_layouts[k->leaf].name, g_layouts[k->root].name);
    snprintf(
        buf, len,
        "%s: op=%s algo=%s P=%d root=%d count=%d type=%s%s%s inplace=%d pat=%s bind=%s sloppy=%d (case %llu)",
        c->phase, papcoll_op_name(c->op), papcoll_algo_name(c->op, c->algo), g_w.size, c->root, k->count,
        type, k->rop >= 0 ? " mpi_op=" : "", k->rop >= 0 ? g_rops[k->rop].name : "", k->inplace,
        g_pat_names[c->pat], g_bind_names[in->bind], in->sloppy, (unsigned long long)c->id);
}

/* Prints one failure of a case on this rank; returns 1. */
static int report(const case_t *c, const inputs_t *in, const char *fmt, ...)
{
    char d[500], why[300];
    va_list ap;

    if (g_printed++ >= MAX_PRINTED)
        return 1;
    va_start(ap, fmt);
    vsnprintf(why, sizeof(why), fmt, ap);
    va_end(ap);
    describe(c, in, d, sizeof(d));
    printf("FAIL mpi_matrix %s rank=%d: %s\n", d, g_w.rank, why);
    fflush(stdout);
    return 1;
}

/* Keeps the first error of a sequence of calls. */
static void first_error(int *rc, int r)
{
    if (*rc == 0)
        *rc = r;
}

/* The monitor API around the injected delay, as this rank's mode says. */
static int arrive_monitored(const case_t *c, const inputs_t *in, int *rc_api)
{
    papcoll_site_t *s = c->site;
    int me = g_w.rank, mode = in->mode[me], d = in->delay_us[me];
    int d1 = (int)(d * in->frac_real[me]);

    *rc_api = 0;
    if (mode != M_BARE)
        first_error(rc_api, papcoll_processing_start(s));
    sleep_us(d1);
    if (mode == M_EDGE || mode == M_TWICE)
        first_error(rc_api, papcoll_edge(s, in->frac_told[me]));
    sleep_us(d - d1);
    if (mode == M_TWICE || mode == M_LATE)
        first_error(rc_api, papcoll_edge(s, 1.0));
    if (mode != M_BARE)
        first_error(rc_api, papcoll_processing_end(s));
    return mode;
}

/* Where two buffers first differ, or -1. */
static long first_diff(const char *x, const char *y, size_t n)
{
    size_t i;

    if (memcmp(x, y, n) == 0)
        return -1;
    for (i = 0; i < n && x[i] == y[i]; i++)
        ;
    return (long)i;
}

static const char *data_of(const region_t *g)
{
    return g->p + g->lo;
}

static int guards_intact(const region_t *g)
{
    const unsigned char *u = (const unsigned char *)data_of(g);
    int i;

    for (i = 0; i < GUARD; i++)
        if (u[-1 - i] != 0x5A || u[g->len + i] != 0x5A)
            return 0;
    return 1;
}

/* "MPI_Gather" for gather, ... */
static const char *mpi_name(papcoll_op_t op)
{
    static char names[PAPCOLL_OP_COUNT][32];

    if (names[op][0] == '\0') {
        snprintf(names[op], sizeof(names[op]), "MPI_%s", papcoll_op_name(op));
        names[op][4] = (char)toupper((unsigned char)names[op][4]);
    }
    return names[op];
}

/* What the case's call asks of the algorithm that serves it. */
static needs_t needs_of(const case_t *c)
{
    needs_t n = {1, 1, g_w.size, c->monitor};

    if (c->k.rop >= 0)
        n.commutative = g_rops[c->k.rop].commutes, n.builtin = g_rops[c->k.rop].builtin;
    return n;
}

/* Binds this rank's receive buffer (or another one) as the case says;
 * returns the bound region or NULL. */
static const region_t *bind_case(const case_t *c, const inputs_t *in, const xfer_t *x, region_t *other,
                                 int *bad)
{
    const region_t *bound;
    int rc;

    if (in->bind == BIND_NONE || !x->bind)
        return NULL;
    bound = &x->r;
    if (in->bind == BIND_OTHER) {
        *other = x->r;
        other->p = g_buf.bind + (x->r.p - g_buf.a);
        memset(g_buf.bind, 0x5A, GUARD);
        memset(g_buf.bind + GUARD, 0x77, (size_t)x->r.len);
        memset(g_buf.bind + GUARD + x->r.len, 0x5A, GUARD);
        bound = other;
    }
    if ((rc = papcoll_site_bind_recv(c->site, bound->p, x->ref.rc, x->ref.rt)) != 0)
        *bad |= report(c, in, "papcoll_site_bind_recv returned %s", papcoll_err_name(rc));
    return bound;
}

/* The checks of a case after both calls; returns 1 when it failed here. */
static int check_case(const case_t *c, const inputs_t *in, const xfer_t *x, int rc)
{
    int bad = 0, run, want;
    char why[300];
    long at;

    if (rc != c->expect)
        bad |= report(c, in, "returned %s, expected %s", papcoll_err_name(rc), papcoll_err_name(c->expect));
    if (atomic_exchange(&g_uop_misuse, 0))
        bad |= report(c, in, "a user operation was called with a datatype other than the call's");
    if (rc == 0 && c->expect == 0) {
        needs_t n = needs_of(c);
        run = papcoll_site_algo_index(c->site), want = served_by(c->op, c->algo, &n);
        if (run != want)
            bad |= report(c, in, "the site runs %s; its restrictions and fallbacks say %s",
                          run >= 0 ? papcoll_algo_name(c->op, run) : "?",
                          want >= 0 ? papcoll_algo_name(c->op, want) : "?");
    }
    /* The reference leaves rr as it was when it did not run or got NULL. */
    at = x->r_mode == R_NONE ? -1 : first_diff(data_of(&x->r), data_of(&x->rr), (size_t)x->r.len);
    if (at >= 0 && x->r_mode == R_UNTOUCHED)
        bad |= report(c, in, "the insignificant receive buffer was written at byte %ld", at);
    else if (at >= 0 && c->expect != 0)
        bad |= report(c, in, "the refused call wrote into the receive buffer at byte %ld", at);
    else if (at >= 0 && c->k.rop >= 0 && g_rops[c->k.rop].inexact && x->r_mode == R_COMPARE) {
        if ((at = inexact_diff(c, x)) >= 0)
            bad |= report(c, in, "result element %ld further than 2 P eps from the MPI library's %s", at,
                          mpi_name(c->op));
    } else if (at >= 0)
        bad |= report(c, in, "result differs from the MPI library's %s at byte %ld", mpi_name(c->op), at);
    if (!guards_intact(&x->r))
        bad |= report(c, in, "write outside the receive buffer");
    if (x->s_check && (at = first_diff(data_of(&x->s), g_buf.keep + GUARD, (size_t)x->s.len)) >= 0)
        bad |= report(c, in, "send buffer modified at byte %ld", at);
    if (!guards_intact(&x->s))
        bad |= report(c, in, "write outside the send buffer");
    if (c->expect == 0 && g_adapters[c->op].verify(c, x, why, sizeof(why)))
        bad |= report(c, in, "%s", why);
    return bad;
}

/* Runs one case on this rank; returns 1 when it failed here. */
static int run_case(const case_t *c, inputs_t *in)
{
    const adapter_t *ad = &g_adapters[c->op];
    int rc, rc_api = 0, bad = 0, mode = -1, rc_unbind;
    const region_t *bound;
    region_t other;
    xfer_t x;
    char d[500];

    memset(&x, 0, sizeof(x));
    make_inputs(c, in);
    describe(c, in, d, sizeof(d));
    watch(d);
    ad->prepare(c, in->sloppy, &x);
    MPI_Barrier(g_w.comm);
    bound = bind_case(c, in, &x, &other, &bad);
    if (c->pat == PAT_NONE)
        mode = arrive_monitored(c, in, &rc_api);
    else
        sleep_us(in->delay_us[g_w.rank]);
    rc = ad->call(c->site, c->pat != PAT_NONE, c->pat == PAT_NULL ? NULL : in->pat, &x.lib);
    if (c->expect == 0)
        ad->reference(&x.ref);
    if (bound != NULL && (rc_unbind = papcoll_site_bind_recv(c->site, NULL, 0, MPI_BYTE)) != 0)
        bad |= report(c, in, "unbinding returned %s", papcoll_err_name(rc_unbind));
    if (bound != NULL && !guards_intact(bound))
        bad |= report(c, in, "write outside the bound buffer");
    if (rc_api != 0)
        bad |= report(c, in, "monitor API call failed (mode %s, %s)", g_mode_names[mode],
                      papcoll_err_name(rc_api));
    return bad | check_case(c, in, &x, rc);
}

/* Segment size of the nomon and subcomm contexts: many segments already at
 * small counts, and boundaries inside the elements of derived types (12, 13,
 * 16 and 24 bytes do not divide it). */
#define ODD_SEGMENT "1000"

/* papcoll_init with PAPCOLL_SEGMENT_BYTES = segment (NULL: the default). */
static int init_ctx(MPI_Comm comm, const papcoll_options_t *o, const char *segment, papcoll_ctx_t **ctx)
{
    int rc;

    if (segment != NULL)
        setenv("PAPCOLL_SEGMENT_BYTES", segment, 1);
    rc = papcoll_init(comm, o, ctx);
    unsetenv("PAPCOLL_SEGMENT_BYTES");
    return rc;
}

/* ------------------------------------------------------------ tallies */

typedef struct {
    long run, failed;
    long by_op[PAPCOLL_OP_COUNT];
} tally_t;

/* Counts a case everywhere; returns 1 when it failed on any rank. */
static int tally(tally_t *t, papcoll_op_t op, int bad)
{
    int any = 0;

    MPI_Allreduce(&bad, &any, 1, MPI_INT, MPI_MAX, g_w.comm);
    t->run++, t->by_op[op]++;
    t->failed += any;
    return any;
}

/* A failure outside any case (setup), counted once. */
static void tally_setup_failure(tally_t *t, papcoll_op_t op)
{
    t->run++, t->by_op[op]++, t->failed++;
}

/* ------------------------------------------------------------ selection */

/* 1 when name is one of the comma-separated names in list. */
static int in_list(const char *list, const char *name)
{
    size_t n = strlen(name);
    const char *p = list;

    while ((p = strstr(p, name)) != NULL) {
        if ((p == list || p[-1] == ',') && (p[n] == '\0' || p[n] == ','))
            return 1;
        p += n;
    }
    return 0;
}

static int selected(papcoll_op_t op, int i)
{
    if (g_opt.op >= 0 && (int)op != g_opt.op)
        return 0;
    if (g_opt.algo != NULL && !in_list(g_opt.algo, papcoll_algo_name(op, i)))
        return 0;
    if (g_opt.only_background && !(papcoll_algo_flags(op, i) & PAPCOLL_F_BACKGROUND))
        return 0;
    return 1;
}

/* The distinct roots {0, P-1, P/2} of a rooted op, {-1} otherwise. */
static int roots_of(papcoll_op_t op, int *roots)
{
    int n = 0, P = g_w.size;

    if (!g_adapters[op].rooted) {
        roots[0] = -1;
        return 1;
    }
    roots[n++] = 0;
    if (P - 1 != 0)
        roots[n++] = P - 1;
    if (P / 2 != 0 && P / 2 != P - 1)
        roots[n++] = P / 2;
    return n;
}

/* The PAT kinds an algorithm runs: all six for one that reads predictions
 * (or with --all-pats); the others ignore the vector, so the monitor path,
 * no vector and one vector suffice. */
static int pats_of(papcoll_op_t op, int algo, int *pats)
{
    int n = 0, p;

    for (p = 0; p < NPATS; p++)
        if (g_opt.all_pats || (papcoll_algo_flags(op, algo) & PAPCOLL_F_NEEDS_PAT) || p <= PAT_EXACT)
            pats[n++] = p;
    return n;
}

/* Creates a site, counting a failure. */
static papcoll_site_t *make_site(papcoll_ctx_t *ctx, const char *phase, papcoll_op_t op, int algo, tally_t *t)
{
    papcoll_site_t *s = NULL;
    int rc;

    watch("papcoll_site_create");
    if ((rc = papcoll_site_create(ctx, phase, op, papcoll_algo_name(op, algo), &s)) != 0) {
        printf("FAIL mpi_matrix %s: op=%s algo=%s P=%d rank=%d: papcoll_site_create returned %s\n", phase,
               papcoll_op_name(op), papcoll_algo_name(op, algo), g_w.size, g_w.rank, papcoll_err_name(rc));
        tally_setup_failure(t, op);
        return NULL;
    }
    return s;
}

static void free_site(papcoll_site_t **s)
{
    watch("papcoll_site_free");
    papcoll_site_free(s);
}

/* ------------------------------------------------------------ phase: matrix */

/* The case id of a matrix case: loop indices only, so that filters (--algo,
 * --op, --phase) reproduce a case of a full run.  k: the small combination,
 * or 512 + the large one. */
static uint64_t matrix_id(papcoll_op_t op, int algo, int ri, int pat, int k)
{
    return (((((uint64_t)op * 64 + (uint64_t)algo) * 4 + (uint64_t)ri) * 8 + (uint64_t)pat) * 1024) +
           (uint64_t)k;
}

static void matrix_case(case_t c, const combo_t *k, int kid, int ri, inputs_t *in, tally_t *t)
{
    c.k = *k;
    c.id = matrix_id(c.op, c.algo, ri, c.pat, kid);
    /* half the monitor-path cases with edges everywhere, a fifth without, the rest mixed */
    c.policy = mix64(c.id) % 10 < 5 ? POL_EDGE : mix64(c.id) % 10 < 7 ? POL_NOEDGE : POL_MIXED;
    tally(t, c.op, run_case(&c, in));
}

/* Small combinations per algorithm and P by default: an op with more runs
 * one in ceil(n / SMALL_PER_P) of them at each P. */
#define SMALL_PER_P 64

/* One in how many small combinations of op run per algorithm and P. */
static int stride_of(papcoll_op_t op)
{
    return g_opt.stride > 0 ? g_opt.stride : (g_combos[op].nsmall + SMALL_PER_P - 1) / SMALL_PER_P;
}

/*
 * One site.  Its slots (root x PAT kind) run every slot; the small
 * combinations are sampled twice over:
 *   which ones run at this P: with stride s, combination k runs at the P
 *     with P = k + sel (mod s), sel a hash of (op, algorithm), so a list
 *     of process counts that holds s consecutive ones (tests/run's holds
 *     1 to 5) runs every combination of every algorithm;
 *   in which slot: the j-th that runs goes to slot (j + rot) mod nslots,
 *     rot a hash of (op, algorithm, P), so that over the run a combination
 *     meets different roots and PAT kinds.
 * The large combinations are dealt out to the slots the same way, every
 * one at least once and every slot at least one.
 */
static void matrix_site(const case_t *base, inputs_t *in, tally_t *t)
{
    papcoll_op_t op = base->op;
    int roots[3], nroot = roots_of(op, roots), pats[NPATS], npat = pats_of(op, base->algo, pats);
    int nslots = nroot * npat, s, k, j, nl = g_combos[op].nlarge, stride = stride_of(op);
    uint64_t h = mix64(((uint64_t)op << 40) ^ ((uint64_t)base->algo << 20));
    int sel = (int)(h % (uint64_t)stride), rot = (int)(mix64(h ^ (uint64_t)g_w.size) % (uint64_t)nslots);
    case_t c = *base;

    for (s = 0; s < nslots; s++) {
        c.root = roots[s / npat], c.pat = pats[s % npat];
        for (k = 0, j = 0; k < g_combos[op].nsmall; k++)
            if ((k + sel) % stride == g_w.size % stride && (j++ + rot) % nslots == s)
                matrix_case(c, &g_combos[op].small[k], k, s / npat, in, t);
        for (j = s; !g_opt.no_large && nl > 0 && j < (nslots > nl ? nslots : nl); j += nslots)
            matrix_case(c, &g_combos[op].large[(j + rot) % nl], 512 + (j + rot) % nl, s / npat, in, t);
    }
}

/* Rank 0 prints what the matrix phase samples at this P. */
static void print_sampling(void)
{
    int op;

    if (g_w.rank != 0)
        return;
    printf("mpi_matrix: P=%d matrix: small combinations run per algorithm, 1 in stride, rotating with P:", g_w.size);
    for (op = 0; op < PAPCOLL_OP_COUNT; op++)
        printf("%s %s %d (stride %d)", op ? "," : "", papcoll_op_name((papcoll_op_t)op), g_combos[op].nsmall,
               stride_of((papcoll_op_t)op));
    printf("; large %s\n", g_opt.no_large ? "none" : "all");
}

static void phase_matrix(papcoll_ctx_t *ctx, inputs_t *in, tally_t *t)
{
    papcoll_site_t *site;
    int op, i;

    print_sampling();
    for (op = 0; op < PAPCOLL_OP_COUNT; op++) {
        for (i = 0; i < papcoll_algo_count((papcoll_op_t)op); i++) {
            if (!selected((papcoll_op_t)op, i) ||
                (site = make_site(ctx, "matrix", (papcoll_op_t)op, i, t)) == NULL)
                continue;
            matrix_site(
                &(case_t){.phase = "matrix", .site = site, .op = (papcoll_op_t)op, .algo = i, .monitor = 1},
                in, t);
            free_site(&site);
        }
    }
}

/* ------------------------------------------------------------ phase: stress */

/* Iterations on one site; explicit_pats: also calls with an explicit PAT
 * vector now and then (the monitor path and the explicit one alternate on
 * a site).  switch_every > 0: papcoll_site_set_algo to the next selected
 * algorithm of the operation every that many iterations. */
typedef struct {
    const char *phase;
    uint64_t seed;
    int iters, explicit_pats, switch_every, monitor;
} run_plan_t;

/* The next selected algorithm of op after algo (itself when it is the only one). */
static int next_selected(papcoll_op_t op, int algo)
{
    int n = papcoll_algo_count(op), k, i;

    for (k = 1; k <= n; k++)
        if (selected(op, i = (algo + k) % n))
            return i;
    return algo;
}

/* Switches the site to the next selected algorithm; returns 1 when that failed. */
static int switch_algo(papcoll_site_t *site, papcoll_op_t op, int *algo, const char *phase)
{
    int rc;

    *algo = next_selected(op, *algo);
    rc = papcoll_site_set_algo(site, papcoll_algo_name(op, *algo));
    if (rc == 0 && strcmp(papcoll_site_policy(site) + strlen("fixed:"), papcoll_algo_name(op, *algo)) == 0)
        return 0;
    printf("FAIL mpi_matrix %s: op=%s P=%d rank=%d: papcoll_site_set_algo(%s) returned %s, policy %s\n",
           phase, papcoll_op_name(op), g_w.size, g_w.rank, papcoll_algo_name(op, *algo), papcoll_err_name(rc),
           papcoll_site_policy(site));
    return 1;
}

/* A random call of op: a combination with a count of its own, a root that
 * changes now and then (r draws in the same order on every rank). */
static void draw_call(rng_t *r, case_t *c)
{
    static const int counts[] = {0, 1, 5, 33, 100, 1000};
    int roots[3], nroot = roots_of(c->op, roots);

    if (nroot > 1 && rng_below(r, 4) == 0)
        c->root = rng_below(r, g_w.size); /* the root changes now and then */
    c->k = g_combos[c->op].small[rng_below(r, g_combos[c->op].nsmall)];
    c->k.count = counts[rng_below(r, 6)];
}

static void iterate_site(case_t c, const run_plan_t *rp, inputs_t *in, tally_t *t)
{
    rng_t r = rng_for(rp->seed);
    int it, bad, pol;
    papcoll_timing_t tm;

    c.root = g_adapters[c.op].rooted ? rng_below(&r, g_w.size) : -1;
    for (it = 0; it < rp->iters; it++) {
        bad = 0;
        if (rp->switch_every > 0 && it > 0 && it % rp->switch_every == 0)
            bad |= switch_algo(c.site, c.op, &c.algo, rp->phase);
        draw_call(&r, &c);
        /* one draw per statement: every rank must draw in the same order */
        pol = rng_below(&r, 10);
        c.policy = pol < 7 ? POL_MIXED : pol < 9 ? POL_EDGE : POL_NOEDGE;
        c.pat = PAT_NONE;
        if (rp->explicit_pats && rng_below(&r, 5) == 0)
            c.pat = 1 + rng_below(&r, NPATS - 1);
        c.id = rp->seed + ((uint64_t)it << 32);
        bad |= run_case(&c, in);
        if (papcoll_site_last_timing(c.site, &tm) != 0 || !(tm.exit >= tm.arrival))
            bad |= report(&c, in, "papcoll_site_last_timing: exit before arrival");
        tally(t, c.op, bad);
    }
}

/* Every selected algorithm on ctx with plan rp (seeds differ per site); pat
 * only: just the algorithms that read predictions (under a predictor other
 * than edge nothing else changes); switching: one more site per operation
 * that switches between them. */
static void iterate_all(papcoll_ctx_t *ctx, run_plan_t rp, int pat_only, int switching, inputs_t *in,
                        tally_t *t)
{
    papcoll_site_t *site;
    uint64_t base = rp.seed;
    int op, i, first;
    case_t c = {.phase = rp.phase, .monitor = rp.monitor};

    for (op = 0; op < PAPCOLL_OP_COUNT; op++) {
        c.op = (papcoll_op_t)op;
        for (i = 0, first = -1; i < papcoll_algo_count(c.op); i++) {
            if (!selected(c.op, i) || (pat_only && !(papcoll_algo_flags(c.op, i) & PAPCOLL_F_NEEDS_PAT)))
                continue;
            first = first < 0 ? i : first;
            if ((site = make_site(ctx, rp.phase, c.op, i, t)) == NULL)
                continue;
            rp.seed = base + (uint64_t)op * 64 + (uint64_t)i;
            c.site = site, c.algo = i;
            iterate_site(c, &rp, in, t);
            free_site(&site);
        }
        if (!switching || first < 0 || (site = make_site(ctx, rp.phase, c.op, first, t)) == NULL)
            continue;
        rp.seed = base + (uint64_t)op * 64 + 63;
        rp.switch_every = 3;
        c.site = site, c.algo = first;
        iterate_site(c, &rp, in, t);
        rp.switch_every = 0;
        free_site(&site);
    }
}

/* The monitor path under each predictor: a context per predictor. */
static void phase_stress(papcoll_ctx_t *main_ctx, inputs_t *in, tally_t *t)
{
    static const char *const preds[] = {"edge", "last", "sma:3", "ewma:0.5"};
    papcoll_options_t o = {.quiet = 1};
    papcoll_ctx_t *ctx;
    char phase[64];
    size_t pi;
    int rc;

    (void)main_ctx;
    for (pi = 0; pi < sizeof(preds) / sizeof(preds[0]); pi++) {
        snprintf(phase, sizeof(phase), "stress predictor=%s", preds[pi]);
        watch("stress: papcoll_init");
        o.predictor = preds[pi];
        if ((rc = papcoll_init(g_w.comm, &o, &ctx)) != 0) {
            printf("FAIL mpi_matrix %s P=%d rank=%d: papcoll_init returned %s\n", phase, g_w.size, g_w.rank,
                   papcoll_err_name(rc));
            tally_setup_failure(t, PAPCOLL_OP_GATHER);
            continue;
        }
        if (strcmp(papcoll_predictor(ctx), preds[pi]) != 0) {
            printf("FAIL mpi_matrix %s P=%d rank=%d: papcoll_predictor() = \"%s\"\n", phase, g_w.size,
                   g_w.rank, papcoll_predictor(ctx));
            tally_setup_failure(t, PAPCOLL_OP_GATHER);
        }
        /* edge: every algorithm, the switching sites and explicit PATs; the
         * others: the algorithms that read predictions, half the iterations */
        iterate_all(ctx,
                    (run_plan_t){phase, ((uint64_t)2 << 40) + ((uint64_t)pi << 20),
                                 pi == 0 ? g_opt.iters : g_opt.iters / 2, pi == 0, 0, 1},
                    pi != 0, pi == 0, in, t);
        watch("stress: papcoll_finalize");
        papcoll_finalize(&ctx);
    }
}

/* ------------------------------------------------------------ phase: nomon */

/* A context without monitor thread: background algorithms run their
 * fallbacks, PAT-sorted ones exchange inside the collective. */
static void phase_nomon(papcoll_ctx_t *main_ctx, inputs_t *in, tally_t *t)
{
    papcoll_options_t o = {.no_monitor = 1, .quiet = 1};
    papcoll_ctx_t *ctx;
    papcoll_site_t *site;
    needs_t n = {1, 1, g_w.size, 0};
    int op, i, rc, run, want;

    (void)main_ctx;
    watch("nomon: papcoll_init");
    if ((rc = init_ctx(g_w.comm, &o, ODD_SEGMENT, &ctx)) != 0) {
        printf("FAIL mpi_matrix nomon P=%d rank=%d: papcoll_init(no_monitor) returned %s\n", g_w.size,
               g_w.rank, papcoll_err_name(rc));
        tally_setup_failure(t, PAPCOLL_OP_GATHER);
        return;
    }
    for (op = 0; op < PAPCOLL_OP_COUNT; op++) {
        for (i = 0; i < papcoll_algo_count((papcoll_op_t)op); i++) {
            if (!selected((papcoll_op_t)op, i) ||
                (site = make_site(ctx, "nomon", (papcoll_op_t)op, i, t)) == NULL)
                continue;
            run = papcoll_site_algo_index(site), want = served_by((papcoll_op_t)op, i, &n);
            rc = papcoll_has_monitor(ctx) || run != want || run < 0 ||
                 (papcoll_algo_flags((papcoll_op_t)op, run) & PAPCOLL_F_BACKGROUND);
            if (rc)
                printf("FAIL mpi_matrix nomon: op=%s algo=%s P=%d rank=%d: without monitor the site runs %s, "
                       "not %s\n",
                       papcoll_op_name((papcoll_op_t)op), papcoll_algo_name((papcoll_op_t)op, i), g_w.size,
                       g_w.rank, papcoll_site_algo(site),
                       want >= 0 ? papcoll_algo_name((papcoll_op_t)op, want) : "?");
            tally(t, (papcoll_op_t)op, rc);
            free_site(&site);
        }
    }
    iterate_all(ctx, (run_plan_t){"nomon", (uint64_t)4 << 40, g_opt.iters / 2, 1, 0, 0}, 0, 1, in, t);
    watch("nomon: papcoll_finalize");
    papcoll_finalize(&ctx);
}

/* ------------------------------------------------------------ phase: subcomm */

/* Contexts on the two halves of MPI_COMM_WORLD (even and odd ranks, in
 * reverse order), working at the same time: ranks are the sub-communicator's. */
static void phase_subcomm(papcoll_ctx_t *main_ctx, inputs_t *in, tally_t *t)
{
    papcoll_options_t o = {.quiet = 1};
    MPI_Comm sub;
    papcoll_ctx_t *ctx;
    tally_t half;
    long mine[2 + PAPCOLL_OP_COUNT], sum[2 + PAPCOLL_OP_COUNT];
    int wrank = g_w.rank, wsize = g_w.size, rc, op;

    (void)main_ctx;
    memset(&half, 0, sizeof(half));
    MPI_Comm_split(MPI_COMM_WORLD, wrank % 2, wsize - wrank, &sub);
    g_w.comm = sub;
    MPI_Comm_rank(sub, &g_w.rank);
    MPI_Comm_size(sub, &g_w.size);
    watch("subcomm: papcoll_init");
    if ((rc = init_ctx(sub, &o, ODD_SEGMENT, &ctx)) != 0) {
        printf("FAIL mpi_matrix subcomm: P=%d rank=%d: papcoll_init returned %s\n", g_w.size, g_w.rank,
               papcoll_err_name(rc));
        tally_setup_failure(&half, PAPCOLL_OP_GATHER);
    } else {
        iterate_all(ctx, (run_plan_t){"subcomm", (uint64_t)5 << 40, g_opt.iters / 2, 1, 0, 1}, 0, 0, in,
                    &half);
        watch("subcomm: papcoll_finalize");
        papcoll_finalize(&ctx);
    }
    /* each half's verdicts count once: from its rank 0 */
    mine[0] = g_w.rank == 0 ? half.run : 0;
    mine[1] = g_w.rank == 0 ? half.failed : 0;
    for (op = 0; op < PAPCOLL_OP_COUNT; op++)
        mine[2 + op] = g_w.rank == 0 ? half.by_op[op] : 0;
    MPI_Comm_free(&sub);
    g_w.comm = MPI_COMM_WORLD, g_w.rank = wrank, g_w.size = wsize;
    MPI_Allreduce(mine, sum, 2 + PAPCOLL_OP_COUNT, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    t->run += sum[0], t->failed += sum[1];
    for (op = 0; op < PAPCOLL_OP_COUNT; op++)
        t->by_op[op] += sum[2 + op];
}

/* ------------------------------------------------------------ phase: multi */

#define MULTI_SITES 2

/* Before the iteration's cases each rank runs the monitor API of the other
 * sites in an order and with edges of its own (the first site's case does
 * its own): the monitor must not serve the sites' exchanges in an order
 * that differs between ranks. */
static void edge_others(papcoll_site_t **sites, int n, uint64_t id)
{
    rng_t r = rng_for(id ^ ((uint64_t)(g_w.rank + 1) << 48));
    int order[MULTI_SITES], i, j, tmp, mode;

    for (i = 0; i < n; i++)
        order[i] = i;
    for (i = n - 1; i > 0; i--) /* Fisher-Yates, this rank's own order */
        j = rng_below(&r, i + 1), tmp = order[i], order[i] = order[j], order[j] = tmp;
    for (i = 0; i < n; i++) {
        if (order[i] == 0)
            continue;
        mode = rng_below(&r, NMODES);
        if (mode != M_BARE)
            papcoll_processing_start(sites[order[i]]);
        if (mode == M_EDGE || mode == M_TWICE || mode == M_LATE)
            papcoll_edge(sites[order[i]], 0.5);
        if (mode != M_BARE)
            papcoll_processing_end(sites[order[i]]);
    }
}

/* One round: sites of the given (op, algorithm) pairs used together, the
 * others edged first by each rank in its own way. */
static void multi_round(papcoll_ctx_t *ctx, const int (*items)[2], int n, rng_t *r, inputs_t *in, tally_t *t)
{
    papcoll_site_t *sites[MULTI_SITES];
    case_t cs[MULTI_SITES];
    int i, it, made = 0;

    for (i = 0; i < n; i++) {
        if ((sites[made] = make_site(ctx, "multi", (papcoll_op_t)items[i][0], items[i][1], t)) == NULL)
            continue;
        /* no_bind: another site's edge may come before this one's bind */
        cs[made] = (case_t){.phase = "multi",
                            .site = sites[made],
                            .op = (papcoll_op_t)items[i][0],
                            .algo = items[i][1],
                            .pat = PAT_NONE,
                            .policy = POL_MIXED,
                            .no_bind = 1,
                            .monitor = 1};
        made++;
    }
    for (it = 0; it < g_opt.iters / 3 + 1; it++) {
        uint64_t id = ((uint64_t)3 << 40) + rng_next(r) % ((uint64_t)1 << 39);
        for (i = 0; i < made; i++) {
            cs[i].root = g_adapters[cs[i].op].rooted ? rng_below(r, g_w.size) : -1;
            draw_call(r, &cs[i]);
            cs[i].id = id + (uint64_t)i;
        }
        edge_others(sites, made, id);
        for (i = 0; i < made; i++)
            tally(t, cs[i].op, run_case(&cs[i], in));
    }
    for (i = 0; i < made; i++)
        free_site(&sites[i]);
}

/*
 * Every selected algorithm, operations interleaved (the first algorithm of
 * each op, then the second, ...), taken two by two: each round uses the two
 * sites in the same iterations.
 */
static void phase_multi(papcoll_ctx_t *ctx, inputs_t *in, tally_t *t)
{
    rng_t r = rng_for((uint64_t)3 << 40);
    int(*items)[2] = NULL, n = 0, cap = 0, op, i, k, more = 1;

    for (k = 0; more; k++) {
        for (op = 0, more = 0; op < PAPCOLL_OP_COUNT; op++) {
            int seen = -1;
            for (i = 0; i < papcoll_algo_count((papcoll_op_t)op) && seen < k; i++)
                seen += selected((papcoll_op_t)op, i);
            if (seen < k)
                continue;
            more = 1;
            cap = n >= cap ? 2 * cap + 8 : cap;
            items = realloc(items, sizeof(*items) * (size_t)cap);
            items[n][0] = op, items[n][1] = i - 1, n++;
        }
    }
    for (k = 0; k < n; k += MULTI_SITES)
        multi_round(ctx, items + k, n - k < MULTI_SITES ? n - k : MULTI_SITES, &r, in, t);
    free(items);
}

/* ------------------------------------------------------------ phase: api */

/* papcoll_ops.def: the default policy, environment variable and INI key of each op. */
static const struct {
    const char *dflt, *env, *ini;
} g_opdef[PAPCOLL_OP_COUNT] = {
#define PAPCOLL_OP(NAME, name, dflt, env, ini, kind) {dflt, env, ini},
#include "papcoll_ops.def"
#undef PAPCOLL_OP
};

static long g_api_run, g_api_failed;

static void api_check(int ok, const char *fmt, ...)
{
    char what[400];
    va_list ap;

    g_api_run++;
    if (ok)
        return;
    g_api_failed++;
    va_start(ap, fmt);
    vsnprintf(what, sizeof(what), fmt, ap);
    va_end(ap);
    if (g_w.rank == 0 || g_printed < MAX_PRINTED)
        printf("FAIL mpi_matrix api: P=%d rank=%d: %s\n", g_w.size, g_w.rank, what);
    g_printed++;
}

/* A case of the api phase: counted like a check. */
static void api_case(case_t c, inputs_t *in)
{
    g_api_run++;
    g_api_failed += run_case(&c, in);
}

static void api_tables(void)
{
    char list[1024];
    int op, i, j, n;

    for (op = 0; op < PAPCOLL_OP_COUNT; op++) {
        papcoll_op_t o = (papcoll_op_t)op;
        n = papcoll_algo_count(o);
        api_check(n > 0, "papcoll_algo_count = 0 for %s", papcoll_op_name(o));
        api_check(papcoll_op_find(papcoll_op_name(o)) == op, "papcoll_op_find(\"%s\") != %d",
                  papcoll_op_name(o), op);
        papcoll_algo_list(o, list, sizeof(list));
        for (i = 0; i < n; i++) {
            const char *name = papcoll_algo_name(o, i);
            api_check(name != NULL && papcoll_algo_find(o, name) == i,
                      "papcoll_algo_find(papcoll_algo_name(%d)) != %d", i, i);
            api_check(name != NULL && strstr(list, name) != NULL, "papcoll_algo_list misses %s",
                      name ? name : "(null)");
            for (j = 0; j < i; j++)
                api_check(name == NULL || strcmp(name, papcoll_algo_name(o, j)) != 0,
                          "duplicate algorithm name %s", name);
        }
        api_check(papcoll_algo_name(o, n) == NULL && papcoll_algo_flags(o, n) == 0,
                  "algorithm tables answer past the end for %s", papcoll_op_name(o));
        api_check(papcoll_algo_find(o, "no-such-algorithm") == PAPCOLL_ERR_ALGO,
                  "papcoll_algo_find(\"no-such-algorithm\") succeeds for %s", papcoll_op_name(o));
    }
    api_check(papcoll_op_find("no-such-op") == PAPCOLL_ERR_INVAL, "papcoll_op_find(\"no-such-op\") succeeds");
    api_check(strcmp(papcoll_err_name(PAPCOLL_ERR_ALGO), "PAPCOLL_ERR_ALGO") == 0,
              "papcoll_err_name(PAPCOLL_ERR_ALGO) = %s", papcoll_err_name(PAPCOLL_ERR_ALGO));
}

/* One algorithm's entry of the list: flags agree with the library, the
 * reduction flags are where they belong, the fallback chain ends. */
static void api_list_algo(papcoll_op_t op, int i)
{
    const def_t *d = def_of(op, i);
    const char *name = papcoll_algo_name(op, i);
    unsigned f = papcoll_algo_flags(op, i), order = f & (PAPCOLL_F_ORDERED | PAPCOLL_F_COMMUTATIVE_ONLY);
    int j = fallback_of(op, i), steps = 1;

    api_check(d != NULL && strcmp(d->name, name) == 0 && d->flags == f,
              "%s %s: algos.def and papcoll_algo_name/flags disagree", papcoll_op_name(op), name);
    if (g_combos[op].reduction)
        api_check(order == PAPCOLL_F_ORDERED || order == PAPCOLL_F_COMMUTATIVE_ONLY,
                  "%s %s declares %s of ORDERED and COMMUTATIVE_ONLY (exactly one is required)",
                  papcoll_op_name(op), name, order ? "both" : "neither");
    else
        api_check(!(f & (PAPCOLL_F_ORDERED | PAPCOLL_F_COMMUTATIVE_ONLY | PAPCOLL_F_BUILTIN_OP_ONLY)),
                  "%s %s declares a reduction flag", papcoll_op_name(op), name);
    api_check(j >= 0, "%s %s: fallback \"%s\" is no algorithm of %s", papcoll_op_name(op), name,
              d ? d->fallback : "?", papcoll_op_name(op));
    while (j >= 0 && (papcoll_algo_flags(op, j) & REFUSING) && steps < MAX_CHAIN)
        j = fallback_of(op, j), steps++;
    api_check(j >= 0 && !(papcoll_algo_flags(op, j) & REFUSING),
              "%s %s: the fallback chain does not reach an algorithm without restriction within %d steps",
              papcoll_op_name(op), name, MAX_CHAIN);
    if (f & PAPCOLL_F_BASELINE)
        api_check(!(f & REFUSING), "%s %s: a baseline with a restriction", papcoll_op_name(op), name);
}

/* The lists: every algorithm of algos.def is listed, each op has a baseline
 * and a default that exists. */
static void api_lists(void)
{
    int op, i, n, base, total = 0;
    char dflt[64];

    for (op = 0; op < PAPCOLL_OP_COUNT; op++) {
        n = papcoll_algo_count((papcoll_op_t)op);
        for (i = 0, base = 0; i < n; i++) {
            api_list_algo((papcoll_op_t)op, i);
            base += (papcoll_algo_flags((papcoll_op_t)op, i) & PAPCOLL_F_BASELINE) != 0;
        }
        total += n;
        api_check(base >= 1, "%s has no BASELINE algorithm", papcoll_op_name((papcoll_op_t)op));
        snprintf(dflt, sizeof(dflt), "%s",
                 strncmp(g_opdef[op].dflt, "fixed:", 6) ? g_opdef[op].dflt : g_opdef[op].dflt + 6);
        api_check(papcoll_algo_find((papcoll_op_t)op, dflt) >= 0, "the default %s of %s is no algorithm",
                  dflt, papcoll_op_name((papcoll_op_t)op));
        api_check(strcmp(papcoll_op_default((papcoll_op_t)op), g_opdef[op].dflt) == 0 &&
                      strcmp(papcoll_op_env((papcoll_op_t)op), g_opdef[op].env) == 0 &&
                      strcmp(papcoll_op_ini_key((papcoll_op_t)op), g_opdef[op].ini) == 0,
                  "papcoll_op_default/env/ini_key of %s differ from papcoll_ops.def",
                  papcoll_op_name((papcoll_op_t)op));
    }
    api_check(papcoll_op_env(PAPCOLL_OP_COUNT) == NULL && papcoll_op_default((papcoll_op_t)-1) == NULL &&
                  papcoll_op_ini_key(PAPCOLL_OP_COUNT) == NULL,
              "papcoll_op_env/default/ini_key out of range are not NULL");
    api_check(total == NDEF, "algos.def has %d entries, the operations list %d algorithms", NDEF, total);
}

/* Every algorithm by name: the site runs it (or, where its restrictions
 * refuse P, its fallback). */
static void api_by_name(papcoll_ctx_t *ctx)
{
    needs_t n = {1, 1, g_w.size, 1};
    papcoll_site_t *s;
    int op, i, rc, want;

    for (op = 0; op < PAPCOLL_OP_COUNT; op++) {
        for (i = 0; i < papcoll_algo_count((papcoll_op_t)op); i++) {
            const char *name = papcoll_algo_name((papcoll_op_t)op, i);
            watch("api: papcoll_site_create by name");
            rc = papcoll_site_create(ctx, "api", (papcoll_op_t)op, name, &s);
            want = served_by((papcoll_op_t)op, i, &n);
            api_check(rc == 0 && papcoll_site_algo_index(s) == want,
                      "site_create(%s, %s): site runs %s, expected %s", papcoll_op_name((papcoll_op_t)op),
                      name, rc == 0 ? papcoll_site_algo(s) : "(none)",
                      want >= 0 ? papcoll_algo_name((papcoll_op_t)op, want) : "?");
            if (rc == 0)
                papcoll_site_free(&s);
        }
    }
}

static void api_unknown_names(papcoll_ctx_t *ctx)
{
    papcoll_site_t *s = NULL;
    int op, other, i, rc;

    for (op = 0; op < PAPCOLL_OP_COUNT; op++) {
        rc = papcoll_site_create(ctx, "bad", (papcoll_op_t)op, "no-such-algorithm", &s);
        api_check(rc == PAPCOLL_ERR_ALGO && s == NULL,
                  "site_create with an unknown algorithm name for %s returned %s",
                  papcoll_op_name((papcoll_op_t)op), papcoll_err_name(rc));
        rc = papcoll_site_create(ctx, "bad", (papcoll_op_t)op, "nosuch:policy", &s);
        api_check(rc == PAPCOLL_ERR_POLICY && s == NULL,
                  "site_create with policy \"nosuch:policy\" for %s returned %s",
                  papcoll_op_name((papcoll_op_t)op), papcoll_err_name(rc));
        /* A name that only other operations have is unknown here too. */
        for (other = 0; other < PAPCOLL_OP_COUNT; other++) {
            for (i = 0; other != op && i < papcoll_algo_count((papcoll_op_t)other); i++) {
                const char *name = papcoll_algo_name((papcoll_op_t)other, i);
                if (papcoll_algo_find((papcoll_op_t)op, name) >= 0)
                    continue;
                rc = papcoll_site_create(ctx, "bad", (papcoll_op_t)op, name, &s);
                api_check(rc == PAPCOLL_ERR_ALGO && s == NULL, "%s site_create accepts %s's algorithm %s",
                          papcoll_op_name((papcoll_op_t)op), papcoll_op_name((papcoll_op_t)other), name);
                if (rc == 0)
                    papcoll_site_free(&s);
            }
        }
    }
}

/* The environment variables of one round: algorithm idx[op] of every op, or
 * an unknown name in the last round. */
static void env_round(const int *idx, int last)
{
    int op;

    for (op = 0; op < PAPCOLL_OP_COUNT; op++)
        setenv(g_opdef[op].env, last ? "no-such-algorithm" : papcoll_algo_name((papcoll_op_t)op, idx[op]), 1);
}

/* A NULL policy takes the environment's algorithm; an explicit name wins. */
static void env_sites(papcoll_ctx_t *ctx, const int *idx, int last)
{
    papcoll_site_t *s;
    int op, rc;

    for (op = 0; op < PAPCOLL_OP_COUNT; op++) {
        papcoll_op_t o = (papcoll_op_t)op;
        const char *want = papcoll_algo_name(o, idx[op]);
        const char *expl = papcoll_algo_name(o, (idx[op] + 1) % papcoll_algo_count(o));
        s = NULL;
        rc = papcoll_site_create(ctx, "env", o, NULL, &s);
        if (last)
            api_check(rc == PAPCOLL_ERR_ALGO, "%s=no-such-algorithm: site_create(NULL) returned %s",
                      g_opdef[op].env, papcoll_err_name(rc));
        else
            api_check(rc == 0 && strcmp(papcoll_site_policy(s) + 6, want) == 0,
                      "%s=%s: site_create(NULL) has policy %s", g_opdef[op].env, want,
                      rc == 0 ? papcoll_site_policy(s) : "(none)");
        if (rc == 0)
            papcoll_site_free(&s);
        if (last)
            continue;
        rc = papcoll_site_create(ctx, "env", o, expl, &s);
        api_check(rc == 0 && strcmp(papcoll_site_policy(s) + 6, expl) == 0,
                  "%s set, explicit name %s: policy %s", g_opdef[op].env, expl,
                  rc == 0 ? papcoll_site_policy(s) : "(none)");
        if (rc == 0)
            papcoll_site_free(&s);
    }
}

/* Names from the environment: set before papcoll_init and site_create. */
static void api_env(void)
{
    papcoll_options_t o = {.quiet = 1};
    int k, op, rc, rounds = 0, idx[PAPCOLL_OP_COUNT];
    papcoll_ctx_t *ctx;

    for (op = 0; op < PAPCOLL_OP_COUNT; op++)
        rounds =
            papcoll_algo_count((papcoll_op_t)op) > rounds ? papcoll_algo_count((papcoll_op_t)op) : rounds;
    for (k = 0; k <= rounds; k++) {
        for (op = 0; op < PAPCOLL_OP_COUNT; op++)
            idx[op] = k % papcoll_algo_count((papcoll_op_t)op);
        env_round(idx, k == rounds);
        watch("api: papcoll_init with algorithms from the environment");
        rc = papcoll_init(MPI_COMM_WORLD, &o, &ctx);
        if (k == rounds && rc == PAPCOLL_ERR_ALGO)
            break; /* rejected at init: fine too */
        api_check(rc == 0, "papcoll_init with algorithm names in the environment returned %s",
                  papcoll_err_name(rc));
        if (rc != 0)
            break;
        env_sites(ctx, idx, k == rounds);
        papcoll_finalize(&ctx);
    }
    for (op = 0; op < PAPCOLL_OP_COUNT; op++)
        unsetenv(g_opdef[op].env);
}

/* Writes an INI file of this rank's own; returns 0 on success. */
static int write_ini(char *path, size_t len, const char *text)
{
    FILE *f;
    int fd;

    snprintf(path, len, "/tmp/papcoll_mpi_matrix_XXXXXX");
    if ((fd = mkstemp(path)) < 0 || (f = fdopen(fd, "w")) == NULL)
        return -1;
    fputs(text, f);
    return fclose(f);
}

/* Creates a context with o, a site of each op without a policy, and checks
 * their policies (want[op], NULL: the op's default) and the predictor. */
static void expect_choice(const papcoll_options_t *o, const char *const *want, const char *want_pred,
                          const char *what)
{
    papcoll_ctx_t *ctx = NULL;
    papcoll_site_t *s = NULL;
    char expected[80];
    int op, rc;

    watch("api: algorithm and predictor from the configuration");
    rc = papcoll_init(MPI_COMM_WORLD, o, &ctx);
    api_check(rc == 0, "%s: papcoll_init returned %s", what, papcoll_err_name(rc));
    if (rc != 0)
        return;
    api_check(strcmp(papcoll_predictor(ctx), want_pred) == 0, "%s: predictor %s expected, got %s", what,
              want_pred, papcoll_predictor(ctx));
    for (op = 0; op < PAPCOLL_OP_COUNT; op++) {
        const char *w = want[op] ? want[op] : g_opdef[op].dflt;
        snprintf(expected, sizeof(expected), "%s%s", strncmp(w, "fixed:", 6) ? "fixed:" : "", w);
        rc = papcoll_site_create(ctx, "cfg", (papcoll_op_t)op, NULL, &s);
        api_check(rc == 0 && strcmp(papcoll_site_policy(s), expected) == 0,
                  "%s: %s site has policy %s, expected %s", what, papcoll_op_name((papcoll_op_t)op),
                  rc == 0 ? papcoll_site_policy(s) : "(none)", expected);
        if (rc == 0)
            papcoll_site_free(&s);
    }
    papcoll_finalize(&ctx);
}

/* An init that must fail with PAPCOLL_ERR_CONFIG. */
static void expect_config_error(const papcoll_options_t *o, const char *what)
{
    papcoll_ctx_t *ctx = NULL;
    int rc = papcoll_init(MPI_COMM_WORLD, o, &ctx);

    api_check(rc == PAPCOLL_ERR_CONFIG, "%s must give PAPCOLL_ERR_CONFIG, not %s", what,
              papcoll_err_name(rc));
    if (rc == 0)
        papcoll_finalize(&ctx);
}

/* The INI file ([papcoll] <op>_algorithm keys, predictor), the defaults and
 * the precedence argument > environment > file > default; bad switches. */
static void api_config(void)
{
    const char *none[PAPCOLL_OP_COUNT] = {NULL}, *file[PAPCOLL_OP_COUNT], *mixed[PAPCOLL_OP_COUNT];
    papcoll_options_t o = {.quiet = 1};
    char path[64], bad[64], text[1024];
    size_t used;
    int op, n;

    used = (size_t)snprintf(text, sizeof(text), "[papcoll]\npredictor = sma:2\n");
    for (op = 0; op < PAPCOLL_OP_COUNT; op++) {
        n = papcoll_algo_count((papcoll_op_t)op);
        file[op] = papcoll_algo_name((papcoll_op_t)op, n - 1);
        mixed[op] = op == 0 ? papcoll_algo_name((papcoll_op_t)op, n > 1 ? 1 : 0) : file[op];
        used += (size_t)snprintf(text + used, sizeof(text) - used, "%s = %s\n", g_opdef[op].ini, file[op]);
    }
    if (write_ini(path, sizeof(path), text) != 0 ||
        write_ini(bad, sizeof(bad), "[papcoll]\nno_such_key = 1\n") != 0) {
        api_check(0, "cannot write an INI file in /tmp");
        return;
    }
    expect_choice(&o, none, "edge", "no configuration: the defaults of papcoll_ops.def");
    o.config_file = path;
    expect_choice(&o, file, "sma:2", "config_file");
    setenv("PAPCOLL_PREDICTOR", "last", 1);
    setenv(g_opdef[0].env, mixed[0], 1);
    expect_choice(&o, mixed, "last", "config_file + environment");
    o.predictor = "ewma:0.5";
    expect_choice(&o, mixed, "ewma:0.5", "config_file + environment + options.predictor");
    unsetenv("PAPCOLL_PREDICTOR");
    unsetenv(g_opdef[0].env);
    o.config_file = NULL, o.predictor = NULL;
    setenv("PAPCOLL_CONFIG", path, 1);
    expect_choice(&o, file, "sma:2", "$PAPCOLL_CONFIG");
    setenv("PAPCOLL_CONFIG", bad, 1);
    expect_config_error(&o, "an INI file with an unknown key");
    unsetenv("PAPCOLL_CONFIG");
    setenv("PAPCOLL_FALLBACK", "sometimes", 1);
    expect_config_error(&o, "PAPCOLL_FALLBACK=sometimes");
    setenv("PAPCOLL_FALLBACK", "warn", 1);
    setenv("PAPCOLL_CHECK", "2", 1);
    expect_config_error(&o, "PAPCOLL_CHECK=2");
    setenv("PAPCOLL_CHECK", "1", 1);
    setenv("PAPCOLL_SEGMENT_BYTES", "0", 1);
    expect_config_error(&o, "PAPCOLL_SEGMENT_BYTES=0");
    unsetenv("PAPCOLL_SEGMENT_BYTES");
    o.config_file = "/nonexistent/papcoll.ini";
    expect_config_error(&o, "a missing INI file");
    remove(path);
    remove(bad);
}

/* The first algorithm of op that is not the baseline (the baseline if none). */
static int plain_algo(papcoll_op_t op)
{
    int i;

    for (i = 0; i < papcoll_algo_count(op); i++)
        if (!(papcoll_algo_flags(op, i) & (PAPCOLL_F_BASELINE | REFUSING)))
            return i;
    return 0;
}

/* Calls that must fail on every rank before any communication, on a site
 * of op; then the site still works. */
static void api_misuse_op(papcoll_ctx_t *ctx, papcoll_op_t op, inputs_t *in)
{
    papcoll_op_t other = (papcoll_op_t)((op + 1) % PAPCOLL_OP_COUNT);
    case_t c = {
        .phase = "api misuse", .op = op, .algo = plain_algo(op), .pat = PAT_NULL, .monitor = 1, .no_bind = 1};
    xfer_t x;
    call_t a;
    int rc;

    if ((c.site = make_site(ctx, "misuse", op, c.algo, &(tally_t){0})) == NULL) {
        api_check(0, "cannot create a %s site for the misuse checks", papcoll_op_name(op));
        return;
    }
    c.root = g_adapters[op].rooted ? 0 : -1;
    c.k = plain_combo(op, R_SUM);
    c.id = (uint64_t)6 << 40 | (uint64_t)op;
    memset(&x, 0, sizeof(x));
    g_adapters[op].prepare(&c, 0, &x);
    rc = g_adapters[other].call(c.site, 0, NULL, &x.lib);
    api_check(rc == PAPCOLL_ERR_OP, "papcoll_%s on a %s site returned %s", papcoll_op_name(other),
              papcoll_op_name(op), papcoll_err_name(rc));
    a = x.lib, a.root = g_w.size;
    rc = g_adapters[op].rooted ? g_adapters[op].call(c.site, 0, NULL, &a) : PAPCOLL_ERR_INVAL;
    api_check(rc == PAPCOLL_ERR_INVAL, "papcoll_%s with root = P returned %s", papcoll_op_name(op),
              papcoll_err_name(rc));
    a = x.lib, a.sc = a.rc = -1;
    rc = g_adapters[op].call(c.site, 0, NULL, &a);
    api_check(rc == PAPCOLL_ERR_INVAL, "papcoll_%s with count -1 returned %s", papcoll_op_name(op),
              papcoll_err_name(rc));
    a = x.lib, a.st = a.rt = MPI_DATATYPE_NULL;
    rc = g_adapters[op].call(c.site, 1, NULL, &a);
    api_check(rc == PAPCOLL_ERR_DATATYPE, "papcoll_%s_pat with MPI_DATATYPE_NULL returned %s",
              papcoll_op_name(op), papcoll_err_name(rc));
    a = x.lib, a.mop = MPI_OP_NULL;
    rc = g_combos[op].reduction ? g_adapters[op].call(c.site, 0, NULL, &a) : PAPCOLL_ERR_INVAL;
    api_check(rc == PAPCOLL_ERR_INVAL, "papcoll_%s with MPI_OP_NULL returned %s", papcoll_op_name(op),
              papcoll_err_name(rc));
    rc = papcoll_edge(c.site, 0.5);
    api_check(rc == PAPCOLL_ERR_STATE, "papcoll_edge without papcoll_processing_start returned %s",
              papcoll_err_name(rc));
    rc = papcoll_processing_end(c.site);
    api_check(rc == PAPCOLL_ERR_STATE, "papcoll_processing_end without start returned %s",
              papcoll_err_name(rc));
    papcoll_processing_start(c.site);
    api_check(papcoll_edge(c.site, 0.0) == PAPCOLL_ERR_INVAL,
              "papcoll_edge(0.0) must return PAPCOLL_ERR_INVAL");
    api_check(papcoll_edge(c.site, 1.5) == PAPCOLL_ERR_INVAL,
              "papcoll_edge(1.5) must return PAPCOLL_ERR_INVAL");
    api_check(papcoll_edge(c.site, NAN) == PAPCOLL_ERR_INVAL,
              "papcoll_edge(NaN) must return PAPCOLL_ERR_INVAL");
    papcoll_processing_end(c.site);
    api_case(c, in); /* after all that the site still works */
    free_site(&c.site);
}

/*
 * Refusals under PAPCOLL_FALLBACK=error: a call that an algorithm's flags
 * refuse (a non-commutative op for COMMUTATIVE_ONLY, a user op for
 * BUILTIN_OP_ONLY, P not a power of two for POW2, no monitor thread for
 * BACKGROUND) returns PAPCOLL_ERR_RESTRICT on every rank and writes
 * nothing; the next call that it serves (a non-commutative op, for an
 * ORDERED algorithm) works.
 */
static void api_refusals_site(papcoll_ctx_t *ctx, int monitor, papcoll_op_t op, int i, inputs_t *in)
{
    unsigned f = papcoll_algo_flags(op, i);
    int red = g_combos[op].reduction, pow2 = (g_w.size & (g_w.size - 1)) == 0;
    int refused_all = (!monitor && (f & PAPCOLL_F_BACKGROUND)) || (!pow2 && (f & PAPCOLL_F_POW2));
    case_t c = {.phase = monitor ? "api fallback=error" : "api fallback=error nomon",
                .op = op,
                .algo = i,
                .policy = POL_EDGE,
                .no_bind = 1,
                .monitor = monitor};
    int probe;

    if ((c.site = make_site(ctx, c.phase, op, i, &(tally_t){0})) == NULL) {
        api_check(0, "cannot create a %s site for the refusal checks", papcoll_op_name(op));
        return;
    }
    c.root = g_adapters[op].rooted ? g_w.size - 1 : -1;
    for (probe = 0; probe < (red ? 3 : 1); probe++) {
        /* probes: a predefined op, the commutative user op, the non-commutative one */
        int rop = probe == 0 ? R_SUM : probe == 1 ? R_UCOMM : R_UNONC;
        needs_t n = {rop != R_UNONC, rop == R_SUM, g_w.size, monitor};
        c.k = plain_combo(op, red ? rop : -1);
        if (red)
            c.k.leaf = c.k.root = rop == R_UNONC ? L_MAT2 : L_INT, c.k.rop = rop, c.k.count = 3;
        c.expect = refused_all || !can_serve(f, &n) ? PAPCOLL_ERR_RESTRICT : 0;
        c.pat = c.expect ? PAT_NONE : PAT_EXACT;
        c.id =
            ((uint64_t)7 << 40) + ((uint64_t)op << 24) + ((uint64_t)i << 8) + (uint64_t)(probe * 2 + monitor);
        api_case(c, in);
    }
    free_site(&c.site);
}

static void api_refusals(inputs_t *in)
{
    papcoll_options_t o = {.quiet = 1};
    papcoll_ctx_t *ctx;
    int monitor, op, i, rc;

    setenv("PAPCOLL_FALLBACK", "error", 1);
    for (monitor = 1; monitor >= 0; monitor--) {
        o.no_monitor = !monitor;
        watch("api: papcoll_init with PAPCOLL_FALLBACK=error");
        rc = papcoll_init(MPI_COMM_WORLD, &o, &ctx);
        api_check(rc == 0, "papcoll_init with PAPCOLL_FALLBACK=error returned %s", papcoll_err_name(rc));
        if (rc != 0)
            continue;
        for (op = 0; op < PAPCOLL_OP_COUNT; op++)
            for (i = 0; i < papcoll_algo_count((papcoll_op_t)op); i++)
                api_refusals_site(ctx, monitor, (papcoll_op_t)op, i, in);
        watch("api: papcoll_finalize");
        papcoll_finalize(&ctx);
    }
    setenv("PAPCOLL_FALLBACK", "warn", 1);
}

static void phase_api(papcoll_ctx_t *ctx, inputs_t *in, tally_t *t)
{
    papcoll_options_t o = {.predictor = "sma:0", .quiet = 1};
    papcoll_ctx_t *bad = NULL;
    int op, rc;

    g_api_run = g_api_failed = 0;
    api_check(papcoll_has_monitor(ctx), "no monitor thread although MPI_THREAD_MULTIPLE was requested");
    api_tables();
    api_lists();
    api_by_name(ctx);
    api_unknown_names(ctx);
    api_env();
    api_config();
    for (op = 0; op < PAPCOLL_OP_COUNT; op++)
        api_misuse_op(ctx, (papcoll_op_t)op, in);
    api_refusals(in);
    rc = papcoll_init(MPI_COMM_WORLD, &o, &bad);
    api_check(rc == PAPCOLL_ERR_PREDICTOR && bad == NULL, "papcoll_init with predictor \"sma:0\" returned %s",
              papcoll_err_name(rc));
    if (rc == 0)
        papcoll_finalize(&bad);
    /* every check is a case; the failures are the most any rank saw */
    t->run += g_api_run;
    MPI_Allreduce(MPI_IN_PLACE, &g_api_failed, 1, MPI_LONG, MPI_MAX, MPI_COMM_WORLD);
    t->failed += g_api_failed;
}

/* ------------------------------------------------------------ main */

static void usage(void)
{
    char ops[200];
    size_t used = 0;
    int op;

    for (op = 0; op < PAPCOLL_OP_COUNT; op++)
        used += (size_t)snprintf(ops + used, sizeof(ops) - used, "%s%s", op ? "|" : "",
                                 papcoll_op_name((papcoll_op_t)op));
    printf("usage: mpi_matrix [--phase api|matrix|stress|multi|nomon|subcomm[,...]] [--op %s]\n"
           "                  [--algo NAME[,NAME...]] [--only-background] [--stride N] [--iters N] "
           "[--no-large]\n"
           "                  [--all-pats] [--seed N] [--watchdog S]\n"
           "Runs every algorithm of libpapcoll against the MPI library's collectives (docs/testing.md).\n",
           ops);
}

/* Every name of --algo must be an algorithm (of --op when given); prints
 * what is wrong on rank 0 and returns -1 otherwise. */
static int check_algo_names(void)
{
    char name[64], list[1024];
    const char *p = g_opt.algo, *e;
    int op, found;

    while (p != NULL && *p != '\0') {
        e = strchr(p, ',');
        snprintf(name, sizeof(name), "%.*s", (int)(e ? e - p : (long)strlen(p)), p);
        for (op = 0, found = 0; op < PAPCOLL_OP_COUNT; op++)
            found |= (g_opt.op < 0 || op == g_opt.op) && papcoll_algo_find((papcoll_op_t)op, name) >= 0;
        if (!found) {
            if (g_w.rank == 0) {
                printf("mpi_matrix: --algo: unknown algorithm '%s'%s%s; the algorithms are:\n", name,
                       g_opt.op >= 0 ? " of " : "",
                       g_opt.op >= 0 ? papcoll_op_name((papcoll_op_t)g_opt.op) : "");
                for (op = 0; op < PAPCOLL_OP_COUNT; op++)
                    if (g_opt.op < 0 || op == g_opt.op)
                        printf("  %s: %s\n", papcoll_op_name((papcoll_op_t)op),
                               papcoll_algo_list((papcoll_op_t)op, list, sizeof(list)));
            }
            return -1;
        }
        p = e ? e + 1 : NULL;
    }
    return 0;
}

/* Reads one option with a value; returns -1 for a bad one (said on rank 0). */
static int parse_value(const char *a, const char *v)
{
    if (strcmp(a, "--phase") == 0)
        g_opt.phase = v;
    else if (strcmp(a, "--algo") == 0)
        g_opt.algo = v;
    else if (strcmp(a, "--op") == 0) {
        if ((g_opt.op = papcoll_op_find(v)) < 0) {
            if (g_w.rank == 0)
                printf("mpi_matrix: --op: unknown operation '%s'\n", v);
            return -1;
        }
    } else if (strcmp(a, "--stride") == 0)
        g_opt.stride = atoi(v);
    else if (strcmp(a, "--iters") == 0)
        g_opt.iters = atoi(v);
    else if (strcmp(a, "--seed") == 0)
        g_opt.seed = strtoull(v, NULL, 10);
    else if (strcmp(a, "--watchdog") == 0)
        g_opt.watchdog = atoi(v);
    else
        return -1;
    return 0;
}

static int parse_args(int argc, char **argv)
{
    int i;

    for (i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--only-background") == 0)
            g_opt.only_background = 1;
        else if (strcmp(a, "--all-pats") == 0)
            g_opt.all_pats = 1;
        else if (strcmp(a, "--no-large") == 0)
            g_opt.no_large = 1;
        else if (v == NULL || parse_value(a, v) != 0)
            return -1;
        else
            i++;
    }
    if (g_opt.stride < 0 || g_opt.iters < 0 || g_opt.watchdog < 1)
        return -1;
    return check_algo_names();
}

/* The phases in running order; each takes the main context (only some use it). */
typedef struct {
    const char *name;
    void (*run)(papcoll_ctx_t *ctx, inputs_t *in, tally_t *t);
    int background_too; /* runs under --only-background */
} phase_t;

static const phase_t g_phases[] = {
    {"api", phase_api, 0},     {"matrix", phase_matrix, 1}, {"stress", phase_stress, 1},
    {"multi", phase_multi, 1}, {"nomon", phase_nomon, 0},   {"subcomm", phase_subcomm, 1},
};
#define NPHASES ((int)(sizeof(g_phases) / sizeof(g_phases[0])))

/* Every name of --phase is a phase. */
static int known_phases(const char *list)
{
    char name[32];
    const char *p = list, *e;
    int k, found;

    do {
        e = strchr(p, ',');
        snprintf(name, sizeof(name), "%.*s", (int)(e ? e - p : (long)strlen(p)), p);
        for (k = 0, found = 0; k < NPHASES; k++)
            found |= strcmp(g_phases[k].name, name) == 0;
        if (!found)
            return 0;
        p = e + 1;
    } while (e != NULL);
    return 1;
}

static void alloc_inputs(inputs_t *in)
{
    in->delay_us = calloc((size_t)g_w.size, sizeof(int));
    in->mode = calloc((size_t)g_w.size, sizeof(int));
    in->frac_real = calloc((size_t)g_w.size, sizeof(double));
    in->frac_told = calloc((size_t)g_w.size, sizeof(double));
    in->pat = calloc((size_t)g_w.size, sizeof(double));
    if (!in->delay_us || !in->mode || !in->frac_real || !in->frac_told || !in->pat) {
        printf("FAIL mpi_matrix: rank %d: out of memory\n", g_w.rank);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
}

static void free_inputs(inputs_t *in)
{
    free(in->delay_us), free(in->mode), free(in->frac_real), free(in->frac_told), free(in->pat);
}

/* Buffers for P blocks of the largest span, guards and a negative lower bound. */
static void alloc_buffers(void)
{
    g_buf.cap = (size_t)LARGE_SPAN * (size_t)g_w.size + 2 * GUARD + 64;
    g_buf.a = malloc(g_buf.cap), g_buf.b = malloc(g_buf.cap);
    g_buf.s = malloc(g_buf.cap), g_buf.sr = malloc(g_buf.cap);
    g_buf.keep = malloc(g_buf.cap), g_buf.bind = malloc(g_buf.cap);
    if (!g_buf.a || !g_buf.b || !g_buf.s || !g_buf.sr || !g_buf.keep || !g_buf.bind) {
        printf("FAIL mpi_matrix: rank %d: out of memory for %zu-byte buffers\n", g_w.rank, g_buf.cap);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
}

static void free_buffers(void)
{
    free(g_buf.a), free(g_buf.b), free(g_buf.s), free(g_buf.sr), free(g_buf.keep), free(g_buf.bind);
}

/*
 * The environment the matrix needs, whatever the caller's: the agreement
 * check on for every call, fallbacks that run (the api phase sets error
 * itself), and no algorithm, predictor, segment size or file chosen from
 * outside.
 */
static void own_environment(void)
{
    int op;

    setenv("PAPCOLL_CHECK", "1", 1);
    setenv("PAPCOLL_FALLBACK", "warn", 1);
    unsetenv("PAPCOLL_CONFIG");
    unsetenv("PAPCOLL_PREDICTOR");
    unsetenv("PAPCOLL_CLOCK_RESYNC");
    unsetenv("PAPCOLL_SEGMENT_BYTES");
    for (op = 0; op < PAPCOLL_OP_COUNT; op++)
        unsetenv(g_opdef[op].env);
}

/* Runs one phase; prints its summary line on rank 0 (a phase that ran no
 * case fails: the filters matched nothing). */
static void run_phase(const phase_t *ph, papcoll_ctx_t *ctx, inputs_t *in, tally_t *total)
{
    char by_op[200];
    size_t used = 0;
    double tp = MPI_Wtime();
    tally_t t;
    int op;

    memset(&t, 0, sizeof(t));
    ph->run(ctx, in, &t);
    MPI_Allreduce(MPI_IN_PLACE, &t.failed, 1, MPI_LONG, MPI_MAX, MPI_COMM_WORLD);
    for (op = 0; op < PAPCOLL_OP_COUNT; op++)
        used += (size_t)snprintf(by_op + used, sizeof(by_op) - used, "%s%s %ld", op ? ", " : "",
                                 papcoll_op_name((papcoll_op_t)op), t.by_op[op]);
    if (g_w.rank == 0 && t.run == 0)
        printf("FAIL mpi_matrix: P=%d %s: no case ran (the filters match nothing)\n", g_w.size, ph->name);
    if (g_w.rank == 0)
        printf("mpi_matrix: P=%d %s: %ld cases run, %ld failed (%.1f s)%s%s%s\n", g_w.size, ph->name, t.run,
               t.failed + (t.run == 0), MPI_Wtime() - tp, ph->run == phase_api ? "" : " [",
               ph->run == phase_api ? "" : by_op, ph->run == phase_api ? "" : "]");
    total->run += t.run, total->failed += t.failed + (t.run == 0);
}

int main(int argc, char **argv)
{
    int provided = 0, rc, k;
    papcoll_options_t o = {.quiet = 1};
    papcoll_ctx_t *ctx = NULL;
    tally_t total;
    inputs_t in;
    double t0;

    /* prolog */
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    g_w.comm = MPI_COMM_WORLD;
    MPI_Comm_rank(MPI_COMM_WORLD, &g_w.rank);
    MPI_Comm_size(MPI_COMM_WORLD, &g_w.size);
    setvbuf(stdout, NULL, _IOLBF, 0);
    memset(&total, 0, sizeof(total));
    if (parse_args(argc, argv) != 0 || (g_opt.phase != NULL && !known_phases(g_opt.phase))) {
        if (g_w.rank == 0)
            usage();
        MPI_Finalize();
        return 2;
    }
    g_w.seed = g_opt.seed;
    own_environment();
    signal(SIGALRM, on_alarm);
    watch("startup: papcoll_init");
    if (provided != MPI_THREAD_MULTIPLE && g_w.rank == 0) {
        printf("FAIL mpi_matrix: P=%d: MPI_THREAD_MULTIPLE not provided (%d)\n", g_w.size, provided);
        total.failed++;
    }
    if (layouts_init() != 0)
        MPI_Abort(MPI_COMM_WORLD, 1);
    rops_init();
    combos_init();
    if ((rc = papcoll_init(MPI_COMM_WORLD, &o, &ctx)) != 0) {
        printf("FAIL mpi_matrix: P=%d rank=%d: papcoll_init returned %s\n", g_w.size, g_w.rank,
               papcoll_err_name(rc));
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    alloc_inputs(&in);
    alloc_buffers();
    t0 = MPI_Wtime();

    /* the phases */
    for (k = 0; k < NPHASES; k++)
        if ((g_opt.phase == NULL || in_list(g_opt.phase, g_phases[k].name)) &&
            (!g_opt.only_background || g_phases[k].background_too))
            run_phase(&g_phases[k], ctx, &in, &total);

    /* epilog */
    watch("shutdown: papcoll_finalize");
    papcoll_finalize(&ctx);
    if (g_w.rank == 0)
        printf("mpi_matrix: P=%d: %ld cases run, %ld failed (%.1f s)\n", g_w.size, total.run, total.failed,
               MPI_Wtime() - t0);
    free_inputs(&in);
    free_buffers();
    rops_free();
    layouts_free();
    alarm(0);
    MPI_Finalize();
    return total.failed ? 1 : 0;
}

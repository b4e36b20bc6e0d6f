/*
 * MPI correctness matrix of libpapcoll: every algorithm of algos.def (taken
 * from papcoll_algo_count/name/flags, never a list written here) against the
 * MPI library's own MPI_Gather / MPI_Scatter of the same inputs on the same
 * communicator, byte for byte.  docs/testing.md describes every phase.
 *
 * Phases (one mpirun runs them all, or --phase picks one):
 *   api      algorithm tables, choice by name, by environment and by INI
 *            file, error codes of misuse
 *   matrix   algorithm x root {0, P-1, P/2} x PAT kind x (count {0, 1, 7} x
 *            datatype {BYTE, INT, FLOAT, DOUBLE} x in-place, plus one large
 *            count: 65536 + 3 floats, not in place); random 0-3 ms delays
 *            before every call, sometimes with the root last; per case a
 *            bound receive buffer or not, and zero counts for the arguments
 *            MPI declares insignificant
 *   stress   the monitor path over many iterations per site, a context per
 *            predictor: edges at random fractions, missing, late and double
 *            edges, ranks without processing_start, roots that change,
 *            explicit PATs in between, algorithm switches
 *   multi    two sites of one context used in the same iteration, with
 *            edges missing on some ranks
 *   nomon    a context without monitor thread (degraded algorithms)
 *   subcomm  contexts on the two halves of MPI_COMM_WORLD at once
 *
 * PAT kinds: none (papcoll_gather/scatter with the monitor API), null (pat ==
 * NULL), exact (the injected delays), stale (reversed rank order), random
 * (from the shared seed, with ties), adversarial (latest predicted =
 * earliest real).  With --fewer-pats, algorithms without PAPCOLL_F_NEEDS_PAT
 * (which ignore the vector) run only none, null and exact.  All ranks
 * derive delays, PATs and data from the shared seed and the case id, so
 * every rank knows every other rank's inputs.
 *
 * A failing case prints one line per failing rank; rank 0 prints a summary
 * line per phase.  Exit status 1 when anything failed.  A watchdog (SIGALRM,
 * re-armed for every case) turns a deadlock into a failure naming the case.
 */
#include <ctype.h>
#include <math.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "papcoll.h"

#define GUARD 64
#define LARGE_COUNT (65536 + 3)
#define MAX_PRINTED 20
#define MAX_DELAY_US 3000

/* ------------------------------------------------------------ options */

typedef struct {
    int only_background;
    const char *algo;     /* only these algorithm names, comma-separated (both ops) */
    int op;               /* -1 or papcoll_op_t */
    const char *phase;    /* NULL: all phases */
    int stride;           /* run 1 of stride small-count combinations */
    int iters;            /* stress iterations per site and predictor */
    int watchdog;         /* seconds per case */
    int no_large;
    int fewer_pats;       /* algorithms without NEEDS_PAT: PAT kinds none, null, exact only */
    uint64_t seed;
} opts_t;

static opts_t g_opt = {0, NULL, -1, NULL, 1, 24, 60, 0, 0, 20200601};

/* The communicator the cases run on (MPI_COMM_WORLD, or a half of it in
 * the subcomm phase): references, barriers and verdicts use it. */
static MPI_Comm g_comm;
static int g_rank, g_size;
static long g_printed;

/* ------------------------------------------------------------ watchdog */

/* The whole line the watchdog prints (one write, so ranks do not interleave). */
static char g_where[480];
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
static void watch(const char *fmt, const char *what, int rank)
{
    static const char head[] = "FAIL mpi_matrix: watchdog expired after %d s (deadlock?) in ";
    int n = snprintf(g_where, sizeof(g_where) - 1, head, g_opt.watchdog), m;

    m = snprintf(g_where + n, sizeof(g_where) - 1 - (size_t)n, fmt, what, rank);
    n += m < 0 ? 0 : m;
    g_where_len = (size_t)n < sizeof(g_where) - 1 ? (size_t)n : sizeof(g_where) - 2;
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

static uint64_t mix64(uint64_t z)
{
    z += 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

typedef struct {
    uint64_t s;
} rng_t;

static rng_t rng_for(uint64_t id)
{
    rng_t r = {mix64(g_opt.seed ^ mix64(id))};
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

/* ------------------------------------------------------------ data */

/*
 * Datatypes: the matrix runs the four predefined ones; the other phases also
 * a derived contiguous type (3 ints) whose peer side is described as 3n
 * MPI_INT, a different type with the same signature, as MPI allows.
 */
static struct {
    MPI_Datatype type;
    const char *name;
    size_t size;
} g_types[] = {{MPI_BYTE, "MPI_BYTE", 1},
               {MPI_INT, "MPI_INT", 4},
               {MPI_FLOAT, "MPI_FLOAT", 4},
               {MPI_DOUBLE, "MPI_DOUBLE", 8},
               {MPI_DATATYPE_NULL, "contiguous(3,MPI_INT)/MPI_INT", 12}};

enum { T_BYTE, T_INT, T_FLOAT, T_DOUBLE, NTYPES, T_CONTIG3 = NTYPES, NTYPES_ALL };

/* The type and count the other side of the transfer describes n elements
 * of type with (the root's side of a scatter, the root's receive of a gather). */
static MPI_Datatype peer_type(int type, int n, int *peer_n)
{
    *peer_n = type == T_CONTIG3 ? 3 * n : n;
    return type == T_CONTIG3 ? MPI_INT : g_types[type].type;
}

/* Element j of block `block` in case `id`: differs per block, element and case. */
static void fill_block(void *buf, int type, int count, uint64_t id, int block)
{
    int j;

    if (type == T_CONTIG3)
        type = T_INT, count *= 3;
    for (j = 0; j < count; j++) {
        uint64_t h = mix64(g_opt.seed ^ (id * 0x100000001B3ull) ^ ((uint64_t)block << 40) ^ (uint64_t)j);
        switch (type) {
        case T_BYTE: ((unsigned char *)buf)[j] = (unsigned char)(h ^ (h >> 8) ^ (uint64_t)j); break;
        case T_INT: ((int32_t *)buf)[j] = (int32_t)(uint32_t)h; break;
        case T_FLOAT: ((float *)buf)[j] = (float)((int32_t)(h >> 40) - (1 << 23)) / 16.0f; break;
        default: ((double *)buf)[j] = (double)(int64_t)(h >> 11) / 1024.0; break;
        }
    }
}

/* A buffer with GUARD bytes of 0x5A on both sides; returns the user part. */
static char *guarded(char *raw, size_t n, int fill)
{
    memset(raw, 0x5A, GUARD);
    memset(raw + GUARD, fill, n);
    memset(raw + GUARD + n, 0x5A, GUARD);
    return raw + GUARD;
}

static int guards_intact(const char *user, size_t n)
{
    size_t i;

    for (i = 0; i < GUARD; i++)
        if ((unsigned char)user[-1 - (long)i] != 0x5A || (unsigned char)user[n + i] != 0x5A)
            return 0;
    return 1;
}

/* Work buffers, sized once for the largest case. */
static struct {
    size_t cap;   /* bytes of P blocks */
    char *a, *b;  /* raw: library result, reference result */
    char *s, *sr; /* raw: library send, reference send */
    char *keep;   /* pristine copy of the send data */
    char *bind;   /* raw: a bound receive buffer other than recvbuf */
} g_buf;

static void alloc_buffers(size_t block_max)
{
    g_buf.cap = block_max * (size_t)g_size;
    g_buf.a = malloc(g_buf.cap + 2 * GUARD);
    g_buf.b = malloc(g_buf.cap + 2 * GUARD);
    g_buf.s = malloc(g_buf.cap + 2 * GUARD);
    g_buf.sr = malloc(g_buf.cap + 2 * GUARD);
    g_buf.keep = malloc(g_buf.cap + 1);
    g_buf.bind = malloc(g_buf.cap + 2 * GUARD);
    if (!g_buf.a || !g_buf.b || !g_buf.s || !g_buf.sr || !g_buf.keep || !g_buf.bind) {
        printf("FAIL mpi_matrix: rank %d: out of memory for %zu-byte buffers\n", g_rank, g_buf.cap);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
}

/* ------------------------------------------------------------ cases */

enum { PAT_NONE, PAT_NULL, PAT_EXACT, PAT_STALE, PAT_RANDOM, PAT_ADVERSARIAL, NPATS };
static const char *const g_pat_names[NPATS] = {"none", "null", "exact", "stale", "random", "adversarial"};

/* How ranks use the monitor API in a PAT_NONE case. */
enum { POL_EDGE, POL_NOEDGE, POL_MIXED };
enum { M_EDGE, M_NOEDGE, M_LATE, M_BARE, M_TWICE, NMODES };
static const char *const g_mode_names[NMODES] = {"edge", "no-edge", "late-edge", "no-start", "two-edges"};

typedef struct {
    const char *phase;
    papcoll_site_t *site;
    papcoll_op_t op;
    int algo;
    int root, count, type, inplace, pat, policy;
    uint64_t id;
    int no_bind; /* 1: never bind a receive buffer */
} case_t;

/* Per-case inputs every rank derives identically from the case id. */
typedef struct {
    int *delay_us;
    int *mode;
    double *frac_real, *frac_told;
    double *pat;
    int sloppy; /* pass zero counts for insignificant arguments */
    int bind;   /* BIND_*: papcoll_site_bind_recv before the call */
} inputs_t;

/* Receive buffer bound to the site (papcoll_site_bind_recv) for a case. */
enum { BIND_NONE, BIND_RECVBUF, BIND_OTHER, NBINDS };
static const char *const g_bind_names[NBINDS] = {"none", "recvbuf", "other"};

static void make_inputs(const case_t *c, inputs_t *in)
{
    rng_t r = rng_for(c->id);
    int P = g_size, i, root_late = rng_below(&r, 4) == 0, calm = rng_below(&r, 10) == 0;

    in->sloppy = rng_below(&r, 3) == 0;
    in->bind = rng_below(&r, NBINDS);
    if (c->no_bind)
        in->bind = BIND_NONE;
    for (i = 0; i < P; i++) {
        in->delay_us[i] = calm ? 0 : rng_below(&r, MAX_DELAY_US + 1);
        in->frac_real[i] = 0.05 + 0.9 * rng_unit(&r);
        in->frac_told[i] = rng_below(&r, 2) ? in->frac_real[i] : 0.05 + 0.95 * rng_unit(&r);
        switch (c->policy) {
        case POL_EDGE: in->mode[i] = M_EDGE; break;
        case POL_NOEDGE: in->mode[i] = M_NOEDGE; break;
        default: in->mode[i] = rng_below(&r, NMODES); break;
        }
    }
    if (root_late && !calm)
        in->delay_us[c->root] = MAX_DELAY_US + 500;
    for (i = 0; i < P; i++) {
        switch (c->pat) {
        case PAT_EXACT: in->pat[i] = 1000.0 + 1e-6 * in->delay_us[i]; break;
        case PAT_STALE: in->pat[i] = (double)(P - 1 - i); break;
        case PAT_RANDOM: in->pat[i] = rng_below(&r, 2) ? (double)rng_below(&r, 3) : 1e9 * rng_unit(&r); break;
        case PAT_ADVERSARIAL: in->pat[i] = -1e-6 * in->delay_us[i]; break;
        default: in->pat[i] = NAN; break;
        }
    }
}

static void describe(const case_t *c, const inputs_t *in, char *buf, size_t len)
{
    snprintf(buf, len, "%s: op=%s algo=%s P=%d root=%d count=%d type=%s inplace=%d pat=%s bind=%s (case %llu)",
             c->phase, papcoll_op_name(c->op), papcoll_algo_name(c->op, c->algo), g_size, c->root,
             c->count, g_types[c->type].name, c->inplace, g_pat_names[c->pat], g_bind_names[in->bind],
             (unsigned long long)c->id);
}

static int report(const case_t *c, const inputs_t *in, const char *fmt, const char *a, long b)
{
    char d[300], why[200];

    if (g_printed++ >= MAX_PRINTED)
        return 1;
    describe(c, in, d, sizeof(d));
    snprintf(why, sizeof(why), fmt, a, b);
    printf("FAIL mpi_matrix %s rank=%d: %s\n", d, g_rank, why);
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
    int me = g_rank, mode = in->mode[me], d = in->delay_us[me];
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

/* Arguments of one call: (send count, type), (receive count, type). */
typedef struct {
    int sc, rc;
    MPI_Datatype st, rt;
} sig_t;

/* The arguments of the reference call: the leaves use the case's type, the
 * root its peer type (the same for predefined types). */
static sig_t signature(const case_t *c)
{
    sig_t g;
    int n = c->count, pn;
    MPI_Datatype t = g_types[c->type].type, pt = peer_type(c->type, n, &pn);

    if (c->op == PAPCOLL_OP_GATHER)
        g = (sig_t){.sc = n, .st = t, .rc = pn, .rt = pt};
    else
        g = (sig_t){.sc = pn, .st = pt, .rc = n, .rt = t};
    return g;
}

/* The library's arguments: the reference's, with zero counts of MPI_BYTE for
 * the insignificant ones when the case is sloppy (receive arguments off the
 * root of a gather, send arguments off the root of a scatter, the in-place
 * side at the root). */
static int call_library(const case_t *c, const inputs_t *in, void *sb, void *rb)
{
    sig_t g = signature(c);
    int root = c->root, at_root = g_rank == root, gather = c->op == PAPCOLL_OP_GATHER;
    const double *pat = c->pat == PAT_NULL ? NULL : in->pat;

    if (in->sloppy && (gather ? !at_root : at_root && c->inplace))
        g.rc = 0, g.rt = MPI_BYTE;
    if (in->sloppy && (gather ? at_root && c->inplace : !at_root))
        g.sc = 0, g.st = MPI_BYTE;
    if (gather && c->pat == PAT_NONE)
        return papcoll_gather(c->site, sb, g.sc, g.st, rb, g.rc, g.rt, root);
    if (gather)
        return papcoll_gather_pat(c->site, pat, sb, g.sc, g.st, rb, g.rc, g.rt, root);
    if (c->pat == PAT_NONE)
        return papcoll_scatter(c->site, sb, g.sc, g.st, rb, g.rc, g.rt, root);
    return papcoll_scatter_pat(c->site, pat, sb, g.sc, g.st, rb, g.rc, g.rt, root);
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

/* Runs one case on this rank; returns 1 when it failed here. */
static int run_case(const case_t *c, inputs_t *in)
{
    int P = g_size, me = g_rank, root = c->root, k, rc, rc_api = 0, rc_unbind, bad = 0, mode = -1, binds;
    sig_t sig = signature(c);
    size_t blk = (size_t)c->count * g_types[c->type].size, all = blk * (size_t)P;
    int gather = c->op == PAPCOLL_OP_GATHER, at_root = me == root;
    size_t rlen = gather ? (at_root ? all : 0) : blk, slen = gather ? blk : (at_root ? all : 0);
    char *ra = guarded(g_buf.a, rlen, 0xEE), *rb = guarded(g_buf.b, rlen, 0xEE);
    char *sa = guarded(g_buf.s, slen, 0), *sr = guarded(g_buf.sr, slen, 0), *bound = NULL;
    void *lib_s, *lib_r, *ref_s, *ref_r;
    char d[300];
    long at;

    make_inputs(c, in);
    describe(c, in, d, sizeof(d));
    watch("%s rank=%d", d, me);
    if (gather) {
        fill_block(sa, c->type, c->count, c->id, me);
        if (at_root && c->inplace) {
            memcpy(ra + (size_t)root * blk, sa, blk);
            memcpy(rb + (size_t)root * blk, sa, blk);
        }
    } else if (at_root) {
        for (k = 0; k < P; k++)
            fill_block(sa + (size_t)k * blk, c->type, c->count, c->id, k);
    }
    memcpy(sr, sa, slen);
    memcpy(g_buf.keep, sa, slen);
    lib_s = (gather && at_root && c->inplace) ? MPI_IN_PLACE : (slen ? sa : (gather ? sa : NULL));
    ref_s = (gather && at_root && c->inplace) ? MPI_IN_PLACE : (slen ? sr : (gather ? sr : NULL));
    lib_r = (!gather && at_root && c->inplace) ? MPI_IN_PLACE : (gather && !at_root ? NULL : ra);
    ref_r = (!gather && at_root && c->inplace) ? MPI_IN_PLACE : (gather && !at_root ? NULL : rb);

    MPI_Barrier(g_comm);
    /* Bound receive buffers: the gather root's, a scatter leaf's. */
    binds = in->bind != BIND_NONE && (gather ? at_root : !at_root);
    if (binds) {
        bound = in->bind == BIND_RECVBUF ? ra : guarded(g_buf.bind, rlen, 0x77);
        if ((rc = papcoll_site_bind_recv(c->site, bound, sig.rc, sig.rt)) != 0)
            bad |= report(c, in, "papcoll_site_bind_recv returned %s (%ld)", papcoll_err_name(rc), rc);
    }
    if (c->pat == PAT_NONE)
        mode = arrive_monitored(c, in, &rc_api);
    else
        sleep_us(in->delay_us[me]);
    rc = call_library(c, in, lib_s, lib_r);
    if (gather)
        MPI_Gather(ref_s, sig.sc, sig.st, ref_r, sig.rc, sig.rt, root, g_comm);
    else
        MPI_Scatter(ref_s, sig.sc, sig.st, ref_r, sig.rc, sig.rt, root, g_comm);

    if (binds && (rc_unbind = papcoll_site_bind_recv(c->site, NULL, 0, MPI_BYTE)) != 0)
        bad |= report(c, in, "unbinding returned %s (%ld)", papcoll_err_name(rc_unbind), rc_unbind);
    if (rc_api != 0)
        bad |= report(c, in, "monitor API call failed (mode %s, rc %ld)", g_mode_names[mode], rc_api);
    if (rc != 0)
        bad |= report(c, in, "returned %s (%ld)", papcoll_err_name(rc), rc);
    if ((at = first_diff(ra, rb, rlen)) >= 0)
        bad |= report(c, in, "result differs from the MPI library's %s at byte %ld", gather ? "MPI_Gather" : "MPI_Scatter", at);
    if (!guards_intact(ra, rlen) || (bound != NULL && !guards_intact(bound, rlen)))
        bad |= report(c, in, "%swrite outside the receive (or bound) buffer", "", 0);
    if ((at = first_diff(sa, g_buf.keep, slen)) >= 0)
        bad |= report(c, in, "%ssend buffer modified at byte %ld", "", at);
    if (!guards_intact(sa, slen))
        bad |= report(c, in, "%swrite outside the send buffer", "", 0);
    return bad;
}

/* Counts a case everywhere; returns 1 when it failed on any rank. */
static int agree_failed(int bad)
{
    int any = 0;

    MPI_Allreduce(&bad, &any, 1, MPI_INT, MPI_MAX, g_comm);
    return any;
}

/* ------------------------------------------------------------ phase: matrix */

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
    if (op != PAPCOLL_OP_GATHER && op != PAPCOLL_OP_SCATTER)
        return 0;
    if (g_opt.op >= 0 && (int)op != g_opt.op)
        return 0;
    if (g_opt.algo != NULL && !in_list(g_opt.algo, papcoll_algo_name(op, i)))
        return 0;
    if (g_opt.only_background && !(papcoll_algo_flags(op, i) & PAPCOLL_F_BACKGROUND))
        return 0;
    return 1;
}

/* The distinct roots {0, P-1, P/2}. */
static int roots_of(int P, int *roots)
{
    int n = 0;

    roots[n++] = 0;
    if (P - 1 != 0)
        roots[n++] = P - 1;
    if (P / 2 != 0 && P / 2 != P - 1)
        roots[n++] = P / 2;
    return n;
}

typedef struct {
    long run, failed;
} tally_t;

static void tally(tally_t *t, int bad)
{
    t->run++;
    t->failed += agree_failed(bad);
}

/* Small combinations (count x type x in-place) plus the large one. */
enum { NSMALL = 3 * NTYPES * 2 };

static void combo(int k, case_t *c)
{
    static const int counts[3] = {0, 1, 7};

    if (k == NSMALL) {
        c->count = LARGE_COUNT, c->type = T_FLOAT, c->inplace = 0;
        return;
    }
    c->count = counts[k / (NTYPES * 2)];
    c->type = (k / 2) % NTYPES;
    c->inplace = k % 2;
}

/* PAT kinds an algorithm runs: all, or with --fewer-pats for an algorithm
 * that ignores predictions the monitor path, no vector and one vector. */
static int pat_wanted(papcoll_op_t op, int algo, int pat)
{
    if (!g_opt.fewer_pats || (papcoll_algo_flags(op, algo) & PAPCOLL_F_NEEDS_PAT))
        return 1;
    return pat == PAT_NONE || pat == PAT_NULL || pat == PAT_EXACT;
}

/* Every root x PAT kind x combination on one site.  The case id depends on
 * the loop indices only, so filters (--algo, --op) reproduce a case. */
static void matrix_site(papcoll_site_t *site, papcoll_op_t op, int algo, inputs_t *in, tally_t *t)
{
    int roots[3], nroot = roots_of(g_size, roots), ri, p, k;
    uint64_t id;
    case_t c;

    for (ri = 0; ri < nroot; ri++) {
        for (p = 0; p < NPATS; p++) {
            if (!pat_wanted(op, algo, p))
                continue;
            for (k = 0; k <= NSMALL; k++) {
                if ((k < NSMALL && (k + ri * NPATS + p) % g_opt.stride != 0) || (k == NSMALL && g_opt.no_large))
                    continue;
                id = (((((uint64_t)op * 64 + (uint64_t)algo) * 4 + (uint64_t)ri) * 8 + (uint64_t)p) * 64) + (uint64_t)k;
                c = (case_t){.phase = "matrix", .site = site, .op = op, .algo = algo, .root = roots[ri], .pat = p, .id = id};
                combo(k, &c);
                /* half the monitor-path cases with edges everywhere, a fifth without, the rest mixed */
                c.policy = mix64(id) % 10 < 5 ? POL_EDGE : mix64(id) % 10 < 7 ? POL_NOEDGE : POL_MIXED;
                tally(t, run_case(&c, in));
            }
        }
    }
}

static void phase_matrix(papcoll_ctx_t *ctx, inputs_t *in, tally_t *t)
{
    papcoll_site_t *site;
    int op, i;

    for (op = 0; op < PAPCOLL_OP_COUNT; op++) {
        for (i = 0; i < papcoll_algo_count((papcoll_op_t)op); i++) {
            const char *name = papcoll_algo_name((papcoll_op_t)op, i);
            if (!selected((papcoll_op_t)op, i))
                continue;
            watch("%s rank=%d", "matrix: papcoll_site_create", g_rank);
            if (papcoll_site_create(ctx, "matrix", (papcoll_op_t)op, name, &site) != 0) {
                if (g_rank == 0)
                    printf("FAIL mpi_matrix matrix: op=%s algo=%s P=%d: papcoll_site_create failed\n",
                           papcoll_op_name((papcoll_op_t)op), name, g_size);
                t->run++, t->failed++;
                continue;
            }
            matrix_site(site, (papcoll_op_t)op, i, in, t);
            watch("%s rank=%d", "matrix: papcoll_site_free", g_rank);
            papcoll_site_free(&site);
        }
    }
}

/* ------------------------------------------------------------ phase: stress */

/* Iterations on one site; explicit: also calls with an explicit PAT vector
 * now and then (the monitor path and the explicit one alternate on a site).
 * switch_every > 0: papcoll_site_set_algo to the next selected algorithm of
 * the operation every that many iterations. */
typedef struct {
    const char *phase;
    uint64_t seed;
    int iters, explicit_pats, switch_every;
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

static void iterate_site(papcoll_site_t *site, papcoll_op_t op, int algo, const run_plan_t *rp, inputs_t *in,
                         tally_t *t)
{
    static const int counts[] = {0, 1, 5, 33, 100, 1000};
    rng_t r = rng_for(rp->seed);
    int it, root = rng_below(&r, g_size), bad, pol, rc;
    papcoll_timing_t tm;
    case_t c;

    for (it = 0; it < rp->iters; it++) {
        bad = 0;
        if (rp->switch_every > 0 && it > 0 && it % rp->switch_every == 0) {
            algo = next_selected(op, algo);
            rc = papcoll_site_set_algo(site, papcoll_algo_name(op, algo));
            if (rc != 0 || strcmp(papcoll_site_algo(site), papcoll_algo_name(op, algo)) != 0) {
                printf("FAIL mpi_matrix %s: op=%s P=%d rank=%d: papcoll_site_set_algo(%s) returned %s, site runs %s\n",
                       rp->phase, papcoll_op_name(op), g_size, g_rank, papcoll_algo_name(op, algo),
                       papcoll_err_name(rc), papcoll_site_algo(site));
                bad = 1;
            }
        }
        if (rng_below(&r, 4) == 0)
            root = rng_below(&r, g_size); /* the root changes now and then */
        c = (case_t){.phase = rp->phase, .site = site, .op = op, .algo = algo, .root = root, .pat = PAT_NONE};
        /* one draw per statement: every rank must draw in the same order */
        c.count = counts[rng_below(&r, 6)];
        c.type = rng_below(&r, NTYPES_ALL);
        c.inplace = rng_below(&r, 2);
        pol = rng_below(&r, 10);
        c.policy = pol < 7 ? POL_MIXED : pol < 9 ? POL_EDGE : POL_NOEDGE;
        if (rp->explicit_pats && rng_below(&r, 5) == 0)
            c.pat = 1 + rng_below(&r, NPATS - 1);
        c.id = rp->seed + ((uint64_t)it << 32);
        bad |= run_case(&c, in);
        if (papcoll_site_last_timing(site, &tm) != 0 || !(tm.exit >= tm.arrival))
            bad |= report(&c, in, "%spapcoll_site_last_timing: exit before arrival (%ld)", "", 0);
        tally(t, bad);
    }
}

/* Every selected algorithm on ctx with plan rp (seeds differ per site), then
 * one site per operation that switches between them. */
static void iterate_all(papcoll_ctx_t *ctx, run_plan_t rp, int switching, inputs_t *in, tally_t *t)
{
    papcoll_site_t *site;
    uint64_t base = rp.seed;
    int op, i, first;

    for (op = 0; op < PAPCOLL_OP_COUNT; op++) {
        for (i = 0, first = -1; i < papcoll_algo_count((papcoll_op_t)op); i++) {
            if (!selected((papcoll_op_t)op, i))
                continue;
            first = first < 0 ? i : first;
            watch("%s rank=%d: papcoll_site_create", rp.phase, g_rank);
            if (papcoll_site_create(ctx, rp.phase, (papcoll_op_t)op, papcoll_algo_name((papcoll_op_t)op, i), &site) != 0) {
                t->run++, t->failed++;
                continue;
            }
            rp.seed = base + (uint64_t)op * 64 + (uint64_t)i;
            iterate_site(site, (papcoll_op_t)op, i, &rp, in, t);
            watch("%s rank=%d: papcoll_site_free", rp.phase, g_rank);
            papcoll_site_free(&site);
        }
        if (!switching || first < 0 ||
            papcoll_site_create(ctx, rp.phase, (papcoll_op_t)op, papcoll_algo_name((papcoll_op_t)op, first), &site) != 0)
            continue;
        rp.seed = base + (uint64_t)op * 64 + 63;
        rp.switch_every = 3;
        iterate_site(site, (papcoll_op_t)op, first, &rp, in, t);
        rp.switch_every = 0;
        watch("%s rank=%d: papcoll_site_free", rp.phase, g_rank);
        papcoll_site_free(&site);
    }
}

/* The monitor path under each predictor: a context per predictor. */
static void phase_stress(inputs_t *in, tally_t *t)
{
    static const char *const preds[] = {"edge", "last", "sma:3", "ewma:0.5"};
    papcoll_options_t o = {.quiet = 1};
    papcoll_ctx_t *ctx;
    char phase[64];
    size_t pi;
    int rc;

    for (pi = 0; pi < sizeof(preds) / sizeof(preds[0]); pi++) {
        snprintf(phase, sizeof(phase), "stress predictor=%s", preds[pi]);
        watch("%s rank=%d: papcoll_init", phase, g_rank);
        o.predictor = preds[pi];
        if ((rc = papcoll_init(g_comm, &o, &ctx)) != 0) {
            printf("FAIL mpi_matrix %s P=%d rank=%d: papcoll_init returned %s\n", phase, g_size, g_rank, papcoll_err_name(rc));
            t->run++, t->failed++;
            continue;
        }
        if (strcmp(papcoll_predictor(ctx), preds[pi]) != 0 && g_rank == 0) {
            printf("FAIL mpi_matrix %s P=%d: papcoll_predictor() = \"%s\"\n", phase, g_size, papcoll_predictor(ctx));
            t->failed++;
        }
        iterate_all(ctx, (run_plan_t){phase, ((uint64_t)2 << 40) + ((uint64_t)pi << 20), g_opt.iters, pi == 0, 0},
                    pi == 0, in, t);
        watch("%s rank=%d: papcoll_finalize", phase, g_rank);
        papcoll_finalize(&ctx);
    }
}

/* ------------------------------------------------------------ phase: nomon */

/* A context without monitor thread: background algorithms run as their
 * foreground versions, PAT-sorted ones exchange inside the collective. */
static void phase_nomon(inputs_t *in, tally_t *t)
{
    papcoll_options_t o = {.no_monitor = 1, .quiet = 1};
    papcoll_ctx_t *ctx;
    papcoll_site_t *site;
    int op, i, rc, bad;

    watch("%s rank=%d: papcoll_init", "nomon", g_rank);
    if ((rc = papcoll_init(g_comm, &o, &ctx)) != 0) {
        printf("FAIL mpi_matrix nomon P=%d rank=%d: papcoll_init(no_monitor) returned %s\n", g_size, g_rank, papcoll_err_name(rc));
        t->run++, t->failed++;
        return;
    }
    for (op = 0; op < PAPCOLL_OP_COUNT; op++) {
        for (i = 0; i < papcoll_algo_count((papcoll_op_t)op); i++) {
            if (!selected((papcoll_op_t)op, i) ||
                papcoll_site_create(ctx, "nomon", (papcoll_op_t)op, papcoll_algo_name((papcoll_op_t)op, i), &site) != 0)
                continue;
            rc = papcoll_site_algo_index(site);
            bad = papcoll_has_monitor(ctx) || rc < 0 || (papcoll_algo_flags((papcoll_op_t)op, rc) & PAPCOLL_F_BACKGROUND);
            if (bad)
                printf("FAIL mpi_matrix nomon: op=%s algo=%s P=%d rank=%d: without monitor the site runs %s\n",
                       papcoll_op_name((papcoll_op_t)op), papcoll_algo_name((papcoll_op_t)op, i), g_size, g_rank,
                       papcoll_site_algo(site));
            tally(t, bad);
            papcoll_site_free(&site);
        }
    }
    iterate_all(ctx, (run_plan_t){"nomon", (uint64_t)4 << 40, g_opt.iters / 2, 1, 0}, 1, in, t);
    watch("%s rank=%d: papcoll_finalize", "nomon", g_rank);
    papcoll_finalize(&ctx);
}

/* ------------------------------------------------------------ phase: subcomm */

/* Contexts on the two halves of MPI_COMM_WORLD (even and odd ranks, in
 * reverse order), working at the same time: ranks are the sub-communicator's. */
static void phase_subcomm(inputs_t *in, tally_t *t)
{
    papcoll_options_t o = {.quiet = 1};
    MPI_Comm sub;
    papcoll_ctx_t *ctx;
    tally_t half = {0, 0};
    long mine[2], sum[2];
    int wrank = g_rank, wsize = g_size, rc;

    MPI_Comm_split(MPI_COMM_WORLD, wrank % 2, wsize - wrank, &sub);
    g_comm = sub;
    MPI_Comm_rank(sub, &g_rank);
    MPI_Comm_size(sub, &g_size);
    watch("%s rank=%d: papcoll_init", "subcomm", g_rank);
    if ((rc = papcoll_init(sub, &o, &ctx)) != 0) {
        printf("FAIL mpi_matrix subcomm: P=%d rank=%d: papcoll_init returned %s\n", g_size, g_rank, papcoll_err_name(rc));
        half.run++, half.failed++;
    } else {
        iterate_all(ctx, (run_plan_t){"subcomm", (uint64_t)5 << 40, g_opt.iters / 2, 1, 0}, 0, in, &half);
        watch("%s rank=%d: papcoll_finalize", "subcomm", g_rank);
        papcoll_finalize(&ctx);
    }
    /* each half's verdicts count once: from its rank 0 */
    mine[0] = g_rank == 0 ? half.run : 0;
    mine[1] = g_rank == 0 ? half.failed : 0;
    MPI_Comm_free(&sub);
    g_comm = MPI_COMM_WORLD, g_rank = wrank, g_size = wsize;
    MPI_Allreduce(mine, sum, 2, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    t->run += sum[0], t->failed += sum[1];
}

/* ------------------------------------------------------------ phase: multi */

/*
 * Two sites of one context in the same iteration (a gather site and a
 * scatter site), each rank choosing its own edges: the monitor must not
 * serve the sites' exchanges in an order that differs between ranks.
 */
static void phase_multi(papcoll_ctx_t *ctx, inputs_t *in, tally_t *t)
{
    papcoll_site_t *sg = NULL, *ss = NULL;
    int ng = papcoll_algo_count(PAPCOLL_OP_GATHER), ns = papcoll_algo_count(PAPCOLL_OP_SCATTER);
    int pair, it, bad;
    rng_t r = rng_for((uint64_t)3 << 40);
    case_t cg, cs;

    for (pair = 0; pair < (ng > ns ? ng : ns); pair++) {
        int ig = pair % ng, is = pair % ns, rc = 0;
        if (!selected(PAPCOLL_OP_GATHER, ig) && !selected(PAPCOLL_OP_SCATTER, is))
            continue;
        watch("%s rank=%d", "multi: papcoll_site_create", g_rank);
        rc |= papcoll_site_create(ctx, "multi-g", PAPCOLL_OP_GATHER, papcoll_algo_name(PAPCOLL_OP_GATHER, ig), &sg);
        rc |= papcoll_site_create(ctx, "multi-s", PAPCOLL_OP_SCATTER, papcoll_algo_name(PAPCOLL_OP_SCATTER, is), &ss);
        if (rc != 0) {
            t->run++, t->failed++;
            continue;
        }
        for (it = 0; it < g_opt.iters; it++) {
            /* no_bind: the scatter site's edge comes before its bind would */
            cg = (case_t){.phase = "multi", .site = sg, .op = PAPCOLL_OP_GATHER, .algo = ig, .type = T_INT,
                          .pat = PAT_NONE, .policy = POL_MIXED, .no_bind = 1};
            cg.root = rng_below(&r, g_size);
            cg.count = 1 + rng_below(&r, 50);
            cg.id = ((uint64_t)3 << 40) + rng_next(&r) % ((uint64_t)1 << 39);
            cs = cg;
            cs.site = ss, cs.op = PAPCOLL_OP_SCATTER, cs.algo = is, cs.type = T_DOUBLE;
            cs.id = cg.id + 1;
            /* Both sites' edges fall inside one computation: run the scatter
             * site's monitor API first, then the gather case does its own. */
            make_inputs(&cs, in);
            {
                int mode = in->mode[g_rank];
                if (mode != M_BARE)
                    papcoll_processing_start(ss);
                if (mode == M_EDGE || mode == M_TWICE || mode == M_LATE)
                    papcoll_edge(ss, 0.5);
                if (mode != M_BARE)
                    papcoll_processing_end(ss);
            }
            bad = run_case(&cg, in);
            tally(t, bad);
            bad = run_case(&cs, in);
            tally(t, bad);
        }
        watch("%s rank=%d", "multi: papcoll_site_free", g_rank);
        papcoll_site_free(&sg);
        papcoll_site_free(&ss);
    }
}

/* ------------------------------------------------------------ phase: api */

static long g_api_run, g_api_failed;

static void api_check(int ok, const char *what, const char *detail, int rc)
{
    g_api_run++;
    if (ok)
        return;
    g_api_failed++;
    if (g_rank == 0 || g_printed < MAX_PRINTED)
        printf("FAIL mpi_matrix api: P=%d rank=%d: %s%s (rc %s)\n", g_size, g_rank, what, detail, papcoll_err_name(rc));
    g_printed++;
}

static void api_tables(void)
{
    char list[512];
    int op, i, j, n;

    for (op = 0; op < PAPCOLL_OP_COUNT; op++) {
        n = papcoll_algo_count((papcoll_op_t)op);
        api_check(n > 0, "papcoll_algo_count = 0 for ", papcoll_op_name((papcoll_op_t)op), 0);
        papcoll_algo_list((papcoll_op_t)op, list, sizeof(list));
        for (i = 0; i < n; i++) {
            const char *name = papcoll_algo_name((papcoll_op_t)op, i);
            api_check(name != NULL && papcoll_algo_find((papcoll_op_t)op, name) == i,
                      "papcoll_algo_find(papcoll_algo_name(i)) != i for ", name ? name : "(null)", 0);
            api_check(name != NULL && strstr(list, name) != NULL, "papcoll_algo_list misses ", name ? name : "(null)", 0);
            for (j = 0; j < i; j++)
                api_check(name == NULL || strcmp(name, papcoll_algo_name((papcoll_op_t)op, j)) != 0,
                          "duplicate algorithm name ", name ? name : "(null)", 0);
        }
        api_check(papcoll_algo_name((papcoll_op_t)op, n) == NULL && papcoll_algo_flags((papcoll_op_t)op, n) == 0,
                  "algorithm tables answer past the end for ", papcoll_op_name((papcoll_op_t)op), 0);
        api_check(papcoll_algo_find((papcoll_op_t)op, "no-such-algorithm") == PAPCOLL_ERR_ALGO,
                  "papcoll_algo_find(\"no-such-algorithm\") succeeds for ", papcoll_op_name((papcoll_op_t)op), 0);
    }
    api_check(strcmp(papcoll_err_name(PAPCOLL_ERR_ALGO), "PAPCOLL_ERR_ALGO") == 0, "papcoll_err_name(PAPCOLL_ERR_ALGO) = ",
              papcoll_err_name(PAPCOLL_ERR_ALGO), 0);
}

static void api_unknown_names(papcoll_ctx_t *ctx)
{
    papcoll_site_t *s = NULL;
    int op, i, rc;

    for (op = 0; op < PAPCOLL_OP_COUNT; op++) {
        papcoll_op_t other = op == PAPCOLL_OP_GATHER ? PAPCOLL_OP_SCATTER : PAPCOLL_OP_GATHER;
        rc = papcoll_site_create(ctx, "bad", (papcoll_op_t)op, "no-such-algorithm", &s);
        api_check(rc == PAPCOLL_ERR_ALGO && s == NULL, "site_create with an unknown algorithm name for ",
                  papcoll_op_name((papcoll_op_t)op), rc);
        /* A name of the other operation only is unknown here too. */
        for (i = 0; i < papcoll_algo_count(other); i++) {
            const char *name = papcoll_algo_name(other, i);
            if (papcoll_algo_find((papcoll_op_t)op, name) >= 0)
                continue;
            rc = papcoll_site_create(ctx, "bad", (papcoll_op_t)op, name, &s);
            api_check(rc == PAPCOLL_ERR_ALGO && s == NULL, "site_create accepts the other operation's algorithm ", name, rc);
            if (rc == 0)
                papcoll_site_free(&s);
        }
    }
}

/* Names from the environment: set before papcoll_init and site_create. */
static void api_env(void)
{
    static char var[PAPCOLL_OP_COUNT][40];
    papcoll_options_t o = {.quiet = 1};
    int k, op, rc, rounds = 0, idx[PAPCOLL_OP_COUNT];
    papcoll_ctx_t *ctx;
    papcoll_site_t *s;
    char what[512];
    size_t j;

    for (op = 0; op < PAPCOLL_OP_COUNT; op++) {
        snprintf(var[op], sizeof(var[op]), "PAPCOLL_%s_ALGORITHM", papcoll_op_name((papcoll_op_t)op));
        for (j = 0; var[op][j]; j++)
            var[op][j] = (char)toupper((unsigned char)var[op][j]);
        if (papcoll_algo_count((papcoll_op_t)op) > rounds)
            rounds = papcoll_algo_count((papcoll_op_t)op);
    }
    for (k = 0; k <= rounds; k++) {
        for (op = 0; op < PAPCOLL_OP_COUNT; op++) {
            idx[op] = k % papcoll_algo_count((papcoll_op_t)op);
            setenv(var[op], k == rounds ? "no-such-algorithm" : papcoll_algo_name((papcoll_op_t)op, idx[op]), 1);
        }
        watch("%s rank=%d", "api: papcoll_init with algorithms from the environment", g_rank);
        rc = papcoll_init(MPI_COMM_WORLD, &o, &ctx);
        if (k == rounds && rc == PAPCOLL_ERR_ALGO)
            break; /* rejected at init: fine too */
        api_check(rc == 0, "papcoll_init with algorithm names in the environment", "", rc);
        if (rc != 0)
            break;
        for (op = 0; op < PAPCOLL_OP_COUNT; op++) {
            const char *want = papcoll_algo_name((papcoll_op_t)op, idx[op]);
            s = NULL;
            rc = papcoll_site_create(ctx, "env", (papcoll_op_t)op, NULL, &s);
            if (k == rounds) {
                snprintf(what, sizeof(what), "%s=no-such-algorithm: site_create(NULL) must fail with PAPCOLL_ERR_ALGO", var[op]);
                api_check(rc == PAPCOLL_ERR_ALGO, what, "", rc);
            } else {
                snprintf(what, sizeof(what), "%s=%s: site_create(NULL) runs ", var[op], want);
                api_check(rc == 0 && (strcmp(papcoll_site_algo(s), want) == 0 || !papcoll_has_monitor(ctx)),
                          what, rc == 0 ? papcoll_site_algo(s) : "(none)", rc);
            }
            if (rc == 0)
                papcoll_site_free(&s);
            if (k < rounds) {
                /* an explicit name wins over the environment */
                const char *expl = papcoll_algo_name((papcoll_op_t)op, (idx[op] + 1) % papcoll_algo_count((papcoll_op_t)op));
                rc = papcoll_site_create(ctx, "env", (papcoll_op_t)op, expl, &s);
                snprintf(what, sizeof(what), "%s set, explicit name %s: site runs ", var[op], expl);
                api_check(rc == 0 && (strcmp(papcoll_site_algo(s), expl) == 0 || !papcoll_has_monitor(ctx)), what,
                          rc == 0 ? papcoll_site_algo(s) : "(none)", rc);
                if (rc == 0)
                    papcoll_site_free(&s);
            }
        }
        papcoll_finalize(&ctx);
    }
    for (op = 0; op < PAPCOLL_OP_COUNT; op++)
        unsetenv(var[op]);
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

/* Creates a context with o, a site of each op without a name, and checks
 * what they run and which predictor the context uses. */
static void expect_choice(const papcoll_options_t *o, const char *want_g, const char *want_s,
                          const char *want_pred, const char *what)
{
    const char *want[PAPCOLL_OP_COUNT] = {want_g, want_s};
    papcoll_ctx_t *ctx = NULL;
    papcoll_site_t *s = NULL;
    char msg[200];
    int op, rc;

    watch("%s rank=%d", "api: algorithm and predictor from the configuration", g_rank);
    rc = papcoll_init(MPI_COMM_WORLD, o, &ctx);
    snprintf(msg, sizeof(msg), "%s: papcoll_init", what);
    api_check(rc == 0, msg, "", rc);
    if (rc != 0)
        return;
    snprintf(msg, sizeof(msg), "%s: predictor %s expected, got ", what, want_pred);
    api_check(strcmp(papcoll_predictor(ctx), want_pred) == 0, msg, papcoll_predictor(ctx), 0);
    for (op = 0; op < PAPCOLL_OP_COUNT && want[op] != NULL; op++) {
        rc = papcoll_site_create(ctx, "cfg", (papcoll_op_t)op, NULL, &s);
        snprintf(msg, sizeof(msg), "%s: %s site runs %s, expected ", what, papcoll_op_name((papcoll_op_t)op),
                 rc == 0 ? papcoll_site_algo(s) : "(none)");
        api_check(rc == 0 && strcmp(papcoll_site_algo(s), want[op]) == 0, msg, want[op], rc);
        if (rc == 0)
            papcoll_site_free(&s);
    }
    papcoll_finalize(&ctx);
}

/* The INI file ([papcoll] gather_algorithm, scatter_algorithm, predictor)
 * and the precedence argument > environment > file. */
static void api_config(void)
{
    int ng = papcoll_algo_count(PAPCOLL_OP_GATHER), ns = papcoll_algo_count(PAPCOLL_OP_SCATTER), rc;
    const char *g = papcoll_algo_name(PAPCOLL_OP_GATHER, ng - 1);
    const char *sc = papcoll_algo_name(PAPCOLL_OP_SCATTER, ns > 1 ? 1 : 0);
    const char *g2 = papcoll_algo_name(PAPCOLL_OP_GATHER, ng > 1 ? 1 : 0);
    papcoll_options_t o = {.quiet = 1};
    papcoll_ctx_t *ctx = NULL;
    char path[64], bad[64], text[200];

    snprintf(text, sizeof(text), "[papcoll]\ngather_algorithm = %s\nscatter_algorithm = %s\npredictor = sma:2\n", g, sc);
    if (write_ini(path, sizeof(path), text) != 0 || write_ini(bad, sizeof(bad), "[papcoll]\nno_such_key = 1\n") != 0) {
        api_check(0, "cannot write an INI file in /tmp", "", 0);
        return;
    }
    o.config_file = path;
    expect_choice(&o, g, sc, "sma:2", "config_file");
    setenv("PAPCOLL_PREDICTOR", "last", 1);
    setenv("PAPCOLL_GATHER_ALGORITHM", g2, 1);
    expect_choice(&o, g2, sc, "last", "config_file + environment");
    o.predictor = "ewma:0.5";
    expect_choice(&o, g2, sc, "ewma:0.5", "config_file + environment + options.predictor");
    unsetenv("PAPCOLL_PREDICTOR");
    unsetenv("PAPCOLL_GATHER_ALGORITHM");
    o.config_file = NULL, o.predictor = NULL;
    setenv("PAPCOLL_CONFIG", path, 1);
    expect_choice(&o, g, sc, "sma:2", "$PAPCOLL_CONFIG");
    setenv("PAPCOLL_CONFIG", bad, 1);
    rc = papcoll_init(MPI_COMM_WORLD, &o, &ctx);
    api_check(rc == PAPCOLL_ERR_CONFIG, "INI file with an unknown key", " must give PAPCOLL_ERR_CONFIG", rc);
    if (rc == 0)
        papcoll_finalize(&ctx);
    unsetenv("PAPCOLL_CONFIG");
    o.config_file = "/nonexistent/papcoll.ini";
    rc = papcoll_init(MPI_COMM_WORLD, &o, &ctx);
    api_check(rc == PAPCOLL_ERR_CONFIG, "missing INI file", " must give PAPCOLL_ERR_CONFIG", rc);
    if (rc == 0)
        papcoll_finalize(&ctx);
    remove(path);
    remove(bad);
}

/* Calls that must fail on every rank before any communication. */
static void api_misuse(papcoll_ctx_t *ctx)
{
    papcoll_site_t *g = NULL;
    MPI_Datatype vec;
    int buf[64] = {0}, rc, i, plain = -1;
    char *all = calloc((size_t)g_size * 64, sizeof(int));

    for (i = 0; i < papcoll_algo_count(PAPCOLL_OP_GATHER); i++)
        if (!(papcoll_algo_flags(PAPCOLL_OP_GATHER, i) & PAPCOLL_F_BASELINE)) {
            plain = i;
            break;
        }
    if (all == NULL || plain < 0 ||
        papcoll_site_create(ctx, "misuse", PAPCOLL_OP_GATHER, papcoll_algo_name(PAPCOLL_OP_GATHER, plain), &g) != 0) {
        api_check(0, "cannot set up the misuse checks", "", 0);
        free(all);
        return;
    }
    rc = papcoll_scatter(g, buf, 1, MPI_INT, buf, 1, MPI_INT, 0);
    api_check(rc == PAPCOLL_ERR_OP, "papcoll_scatter on a gather site", " must return PAPCOLL_ERR_OP", rc);
    rc = papcoll_edge(g, 0.5);
    api_check(rc == PAPCOLL_ERR_STATE, "papcoll_edge without papcoll_processing_start", " must return PAPCOLL_ERR_STATE", rc);
    rc = papcoll_processing_end(g);
    api_check(rc == PAPCOLL_ERR_STATE, "papcoll_processing_end without papcoll_processing_start", " must return PAPCOLL_ERR_STATE", rc);
    rc = papcoll_gather(g, buf, 1, MPI_INT, all, 1, MPI_INT, g_size);
    api_check(rc == PAPCOLL_ERR_INVAL, "papcoll_gather with root = P", " must return PAPCOLL_ERR_INVAL", rc);
    rc = papcoll_gather(g, buf, -1, MPI_INT, all, -1, MPI_INT, 0);
    api_check(rc == PAPCOLL_ERR_INVAL, "papcoll_gather with count -1", " must return PAPCOLL_ERR_INVAL", rc);
    /* A strided datatype is packed locally: the call works and agrees with MPI. */
    MPI_Type_vector(2, 1, 2, MPI_INT, &vec);
    MPI_Type_commit(&vec);
    for (i = 0; i < 3; i++)
        buf[i] = 1000 * g_rank + i;
    memset(all, 0x5A, (size_t)g_size * 64 * sizeof(int));
    rc = papcoll_gather(g, buf, 1, vec, all, 1, vec, 0);
    api_check(rc == 0, "papcoll_gather with a strided datatype (algorithm ", papcoll_algo_name(PAPCOLL_OP_GATHER, plain), rc);
    for (i = 0; g_rank == 0 && rc == 0 && i < g_size; i++)
        api_check(((int *)all)[3 * i] == 1000 * i && ((int *)all)[3 * i + 2] == 1000 * i + 2 &&
                      ((int *)all)[3 * i + 1] == 0x5A5A5A5A,
                  "papcoll_gather with a strided datatype: wrong result (algorithm ",
                  papcoll_algo_name(PAPCOLL_OP_GATHER, plain), 0);
    MPI_Type_free(&vec);
    papcoll_processing_start(g);
    rc = papcoll_edge(g, 0.0);
    api_check(rc == PAPCOLL_ERR_INVAL, "papcoll_edge(0.0)", " must return PAPCOLL_ERR_INVAL", rc);
    rc = papcoll_edge(g, 1.5);
    api_check(rc == PAPCOLL_ERR_INVAL, "papcoll_edge(1.5)", " must return PAPCOLL_ERR_INVAL", rc);
    rc = papcoll_edge(g, NAN);
    api_check(rc == PAPCOLL_ERR_INVAL, "papcoll_edge(NaN)", " must return PAPCOLL_ERR_INVAL", rc);
    papcoll_processing_end(g);
    /* After all that the site still works. */
    buf[0] = 1000 + g_rank;
    watch("%s rank=%d", "api: gather after rejected calls", g_rank);
    rc = papcoll_gather(g, buf, 1, MPI_INT, all, 1, MPI_INT, 0);
    api_check(rc == 0, "papcoll_gather after rejected calls", "", rc);
    for (i = 0; g_rank == 0 && rc == 0 && i < g_size; i++)
        api_check(((int *)all)[i] == 1000 + i, "papcoll_gather after rejected calls: wrong data", "", 0);
    papcoll_site_free(&g);
    free(all);
}

static void phase_api(papcoll_ctx_t *ctx, tally_t *t)
{
    papcoll_site_t *s;
    int op, i, rc;
    char what[256];

    g_api_run = g_api_failed = 0;
    api_check(papcoll_has_monitor(ctx), "no monitor thread although MPI_THREAD_MULTIPLE was requested", "", 0);
    api_tables();
    /* Every algorithm by name: the site runs it (no degradation with a monitor). */
    for (op = 0; op < PAPCOLL_OP_COUNT; op++) {
        for (i = 0; i < papcoll_algo_count((papcoll_op_t)op); i++) {
            const char *name = papcoll_algo_name((papcoll_op_t)op, i);
            watch("%s rank=%d", "api: papcoll_site_create by name", g_rank);
            rc = papcoll_site_create(ctx, "api", (papcoll_op_t)op, name, &s);
            snprintf(what, sizeof(what), "site_create(%s, %s): site runs ", papcoll_op_name((papcoll_op_t)op), name);
            api_check(rc == 0 && strcmp(papcoll_site_algo(s), name) == 0 && papcoll_site_algo_index(s) == i, what,
                      rc == 0 ? papcoll_site_algo(s) : "(none)", rc);
            if (rc == 0)
                papcoll_site_free(&s);
        }
    }
    api_unknown_names(ctx);
    api_env();
    api_config();
    api_misuse(ctx);
    {
        papcoll_options_t o = {.predictor = "sma:0", .quiet = 1};
        papcoll_ctx_t *bad = NULL;
        rc = papcoll_init(MPI_COMM_WORLD, &o, &bad);
        api_check(rc == PAPCOLL_ERR_PREDICTOR && bad == NULL, "papcoll_init with predictor \"sma:0\"",
                  " must return PAPCOLL_ERR_PREDICTOR", rc);
        if (rc == 0)
            papcoll_finalize(&bad);
    }
    /* every check is a case; the failures are the most any rank saw */
    t->run += g_api_run;
    MPI_Allreduce(MPI_IN_PLACE, &g_api_failed, 1, MPI_LONG, MPI_MAX, MPI_COMM_WORLD);
    t->failed += g_api_failed;
}

/* ------------------------------------------------------------ main */

static void usage(void)
{
    printf("usage: mpi_matrix [--only-background] [--phase api|matrix|stress|multi|nomon|subcomm] [--op gather|scatter]\n"
           "                  [--algo NAME[,NAME...]] [--stride N] [--iters N] [--no-large] [--fewer-pats] [--seed N]\n"
           "                  [--watchdog S]\n");
}

static int parse_args(int argc, char **argv)
{
    int i;

    for (i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--only-background") == 0)
            g_opt.only_background = 1;
        else if (strcmp(a, "--fewer-pats") == 0)
            g_opt.fewer_pats = 1;
        else if (strcmp(a, "--no-large") == 0)
            g_opt.no_large = 1;
        else if (v == NULL)
            return -1;
        else if (strcmp(a, "--phase") == 0)
            g_opt.phase = v, i++;
        else if (strcmp(a, "--algo") == 0)
            g_opt.algo = v, i++;
        else if (strcmp(a, "--op") == 0)
            g_opt.op = strcmp(v, "gather") == 0 ? PAPCOLL_OP_GATHER : strcmp(v, "scatter") == 0 ? PAPCOLL_OP_SCATTER : -2, i++;
        else if (strcmp(a, "--stride") == 0)
            g_opt.stride = atoi(v), i++;
        else if (strcmp(a, "--iters") == 0)
            g_opt.iters = atoi(v), i++;
        else if (strcmp(a, "--seed") == 0)
            g_opt.seed = strtoull(v, NULL, 10), i++;
        else if (strcmp(a, "--watchdog") == 0)
            g_opt.watchdog = atoi(v), i++;
        else
            return -1;
    }
    return (g_opt.op == -2 || g_opt.stride < 1 || g_opt.iters < 0 || g_opt.watchdog < 1) ? -1 : 0;
}

/* The phases in running order; each takes the main context (only some use it). */
typedef struct {
    const char *name;
    void (*run)(papcoll_ctx_t *ctx, inputs_t *in, tally_t *t);
    int background_too; /* runs under --only-background */
} phase_t;

static void run_api(papcoll_ctx_t *ctx, inputs_t *in, tally_t *t)
{
    (void)in;
    phase_api(ctx, t);
}

static void run_stress(papcoll_ctx_t *ctx, inputs_t *in, tally_t *t)
{
    (void)ctx;
    phase_stress(in, t);
}

static void run_nomon(papcoll_ctx_t *ctx, inputs_t *in, tally_t *t)
{
    (void)ctx;
    phase_nomon(in, t);
}

static void run_subcomm(papcoll_ctx_t *ctx, inputs_t *in, tally_t *t)
{
    (void)ctx;
    phase_subcomm(in, t);
}

static const phase_t g_phases[] = {
    {"api", run_api, 0},       {"matrix", phase_matrix, 1}, {"stress", run_stress, 1},
    {"multi", phase_multi, 1}, {"nomon", run_nomon, 0},     {"subcomm", run_subcomm, 1},
};

static int known_phase(const char *name)
{
    size_t k;

    for (k = 0; k < sizeof(g_phases) / sizeof(g_phases[0]); k++)
        if (strcmp(g_phases[k].name, name) == 0)
            return 1;
    return 0;
}

static void alloc_inputs(inputs_t *in)
{
    in->delay_us = calloc((size_t)g_size, sizeof(int));
    in->mode = calloc((size_t)g_size, sizeof(int));
    in->frac_real = calloc((size_t)g_size, sizeof(double));
    in->frac_told = calloc((size_t)g_size, sizeof(double));
    in->pat = calloc((size_t)g_size, sizeof(double));
    if (!in->delay_us || !in->mode || !in->frac_real || !in->frac_told || !in->pat) {
        printf("FAIL mpi_matrix: rank %d: out of memory\n", g_rank);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
}

static void free_inputs(inputs_t *in)
{
    free(in->delay_us), free(in->mode), free(in->frac_real), free(in->frac_told), free(in->pat);
}

int main(int argc, char **argv)
{
    int provided = 0, rc;
    papcoll_options_t o = {.quiet = 1};
    papcoll_ctx_t *ctx = NULL;
    tally_t total = {0, 0}, t;
    inputs_t in;
    double t0, tp;
    size_t k;

    /* prolog */
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    g_comm = MPI_COMM_WORLD;
    MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &g_size);
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (parse_args(argc, argv) != 0 || (g_opt.phase != NULL && !known_phase(g_opt.phase))) {
        if (g_rank == 0)
            usage();
        MPI_Finalize();
        return 2;
    }
    signal(SIGALRM, on_alarm);
    watch("%s rank=%d", "startup: papcoll_init", g_rank);
    if (provided != MPI_THREAD_MULTIPLE && g_rank == 0) {
        printf("FAIL mpi_matrix: P=%d: MPI_THREAD_MULTIPLE not provided (%d)\n", g_size, provided);
        total.failed++;
    }
    if ((rc = papcoll_init(MPI_COMM_WORLD, &o, &ctx)) != 0) {
        printf("FAIL mpi_matrix: P=%d rank=%d: papcoll_init returned %s\n", g_size, g_rank, papcoll_err_name(rc));
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    MPI_Type_contiguous(3, MPI_INT, &g_types[T_CONTIG3].type);
    MPI_Type_commit(&g_types[T_CONTIG3].type);
    alloc_inputs(&in);
    alloc_buffers((size_t)LARGE_COUNT * 8);
    t0 = MPI_Wtime();

    /* the phases */
    for (k = 0; k < sizeof(g_phases) / sizeof(g_phases[0]); k++) {
        const phase_t *ph = &g_phases[k];
        if ((g_opt.phase != NULL && strcmp(g_opt.phase, ph->name) != 0) || (g_opt.only_background && !ph->background_too))
            continue;
        tp = MPI_Wtime(), t = (tally_t){0, 0};
        ph->run(ctx, &in, &t);
        if (g_rank == 0)
            printf("mpi_matrix: P=%d %s: %ld cases run, %ld failed (%.1f s)\n", g_size, ph->name, t.run, t.failed,
                   MPI_Wtime() - tp);
        total.run += t.run, total.failed += t.failed;
    }

    /* epilog */
    watch("%s rank=%d", "shutdown: papcoll_finalize", g_rank);
    papcoll_finalize(&ctx);
    if (g_rank == 0)
        printf("mpi_matrix: P=%d: %ld cases run, %ld failed (%.1f s)\n", g_size, total.run, total.failed,
               MPI_Wtime() - t0);
    free_inputs(&in);
    free(g_buf.a), free(g_buf.b), free(g_buf.s), free(g_buf.sr), free(g_buf.keep), free(g_buf.bind);
    MPI_Type_free(&g_types[T_CONTIG3].type);
    alarm(0);
    MPI_Finalize();
    return total.failed ? 1 : 0;
}

/*
 * Defects of the old core, shown fixed (tests/core.sh runs it at P = 3, 4).
 *
 * alloc   After the sites exist, every allocation made by code of this
 *         program (libpapcoll is linked in statically) fails; MPI's own
 *         allocations (shared libraries) go on.  Calls with edges must still
 *         complete and be right with PAPCOLL_CHECK=1: the exchange, the
 *         predictor, the selection, the plan and the sorting allocate nothing,
 *         so no rank can skip an exchange the others entered (the old monitor
 *         did, for want of a prediction buffer) or fall back to rank order
 *         alone (the old sort did).  Algorithms that need no buffer of their
 *         own with a bound receive buffer: lin, ls, sls, bsls, slin, bsln.
 * error   A call that fails after its exchange was queued leaves the site
 *         usable: the next call runs, and its edge queues an exchange again
 *         (the old error path skipped the call's bookkeeping and later edges
 *         did nothing).
 * given   Times given by a caller that did part of the call first (the
 *         interposer agrees on the site, or runs the collective itself):
 *         papcoll_site_set_arrival's time is the call's arrival (the
 *         interposer's traces once showed the arrivals after its agreement,
 *         all within a message latency); papcoll_site_observe records the
 *         given times as a call of "mpi", and the site's calls go on;
 *         observing is refused on a site with a monitor thread, and for
 *         times out of order, a root out of range, negative sizes.
 *
 * Sanitizer builds replace malloc themselves: there the alloc part is
 * skipped (it says so).  Exit status 1 when anything failed.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "papcoll.h"

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define CAN_INJECT 0
#else
#define CAN_INJECT 1
/* Allocations from this program's text fail while g_fail is set. */
extern char __executable_start[], etext[];
extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
static volatile int g_fail;
static volatile long g_refused;

static int refuse(const void *caller)
{
    if (!g_fail || (const char *)caller < __executable_start || (const char *)caller >= etext)
        return 0;
    __atomic_add_fetch(&g_refused, 1, __ATOMIC_RELAXED);
    return 1;
}

void *malloc(size_t n)
{
    return refuse(__builtin_return_address(0)) ? NULL : __libc_malloc(n);
}

void *calloc(size_t n, size_t m)
{
    return refuse(__builtin_return_address(0)) ? NULL : __libc_calloc(n, m);
}

void *realloc(void *p, size_t n)
{
    return refuse(__builtin_return_address(0)) ? NULL : __libc_realloc(p, n);
}
#endif

#define N 1000
#define ITERS 30

static int g_rank, g_size, g_failed;

static void fail(const char *what, const char *algo, int rc)
{
    printf("FAIL mpi_core: rank %d: %s (%s): %s\n", g_rank, what, algo, papcoll_err_name(rc));
    g_failed = 1;
}

/* One iteration of a site with the monitor API; blocks identify (iter, rank). */
static int iterate(papcoll_site_t *s, papcoll_op_t op, int k, int *snd, int *rcv)
{
    int i, P = g_size, me = g_rank, rc;

    for (i = 0; i < (op == PAPCOLL_OP_GATHER ? N : N * P); i++)
        snd[i] = k * 1000003 + (op == PAPCOLL_OP_GATHER ? me : i / N) * 7919 + i % N;
    papcoll_processing_start(s);
    papcoll_edge(s, 0.5);
    papcoll_processing_end(s);
    if (op == PAPCOLL_OP_GATHER)
        rc = papcoll_gather(s, snd, N, MPI_INT, rcv, N, MPI_INT, 0);
    else
        rc = papcoll_scatter(s, snd, N, MPI_INT, rcv, N, MPI_INT, 0);
    for (i = 0; rc == 0 && i < (op == PAPCOLL_OP_GATHER ? (me == 0 ? N * P : 0) : N); i++)
        if (rcv[i] != k * 1000003 + (op == PAPCOLL_OP_GATHER ? i / N : me) * 7919 + i % N)
            return -1000;
    return rc;
}

static void part_alloc(papcoll_ctx_t *ctx)
{
    static const char *const algos[][2] = {{"gather", "lin"}, {"gather", "ls"},   {"gather", "sls"},
                                           {"gather", "bsls"}, {"scatter", "slin"}, {"scatter", "bsln"}};
    enum { NS = sizeof(algos) / sizeof(algos[0]) };
    papcoll_site_t *s[NS];
    int *snd = malloc(sizeof(int) * N * g_size), *rcv = malloc(sizeof(int) * N * g_size), i, k, rc;
    papcoll_op_t op[NS];

    for (i = 0; i < NS; i++) {
        op[i] = (papcoll_op_t)papcoll_op_find(algos[i][0]);
        if ((rc = papcoll_site_create(ctx, algos[i][1], op[i], algos[i][1], &s[i])) != 0 ||
            (rc = papcoll_site_bind_recv(s[i], rcv, op[i] == PAPCOLL_OP_GATHER ? N : N, MPI_INT)) != 0)
            fail("site setup", algos[i][1], rc);
    }
#if CAN_INJECT
    g_fail = 1;
    if (malloc(16) != NULL) /* the injection is live: code of this program gets NULL */
        fail("allocation failures are not injected", "-", -1000);
#endif
    for (k = 0; k < ITERS && !g_failed; k++)
        for (i = 0; i < NS; i++)
            if ((rc = iterate(s[i], op[i], k, snd, rcv)) != 0)
                fail("call with allocations failing", algos[i][1], rc);
#if CAN_INJECT
    g_fail = 0;
    if (g_rank == 0)
        printf("mpi_core: alloc: %d calls, no allocation of papcoll's (%ld refused: the live check), P=%d\n",
               ITERS * NS, g_refused, g_size);
#else
    if (g_rank == 0)
        printf("SKIP mpi_core: alloc: allocation failures are not injected in sanitizer builds\n");
#endif
    for (i = 0; i < NS; i++)
        papcoll_site_free(&s[i]);
    free(snd);
    free(rcv);
}

static void part_error(papcoll_ctx_t *ctx)
{
    papcoll_site_t *s = NULL;
    papcoll_timing_t t;
    int *snd = malloc(sizeof(int) * N * g_size), *rcv = malloc(sizeof(int) * N * g_size), k, rc;
    double pat[64] = {0};

    if ((rc = papcoll_site_create(ctx, "error", PAPCOLL_OP_GATHER, "sls", &s)) != 0) {
        fail("site setup", "sls", rc);
        return;
    }
    for (k = 0; k < 6 && !g_failed; k++) {
        papcoll_processing_start(s);
        papcoll_edge(s, 0.5);
        papcoll_processing_end(s);
        /* An explicit PAT after the edge queued this call's exchange: refused, nothing started. */
        rc = papcoll_gather_pat(s, pat, snd, N, MPI_INT, rcv, N, MPI_INT, 0);
        if (rc != PAPCOLL_ERR_STATE)
            fail("papcoll_gather_pat after an edge must return PAPCOLL_ERR_STATE", "sls", rc);
        /* A root out of range: refused before any communication. */
        rc = papcoll_gather(s, snd, N, MPI_INT, rcv, N, MPI_INT, g_size);
        if (rc != PAPCOLL_ERR_INVAL)
            fail("root = P must return PAPCOLL_ERR_INVAL", "sls", rc);
        if ((rc = papcoll_gather(s, snd, N, MPI_INT, rcv, N, MPI_INT, 0)) != 0)
            fail("the call after refused ones", "sls", rc);
        /* The edge's exchange gave this call a prediction (its plan is this call's). */
        papcoll_site_last_timing(s, &t);
        if (t.plan_iter != k || isnan(t.predicted))
            fail("the call after refused ones has no plan from its edge", "sls", -1000);
    }
    papcoll_site_free(&s);
    free(snd);
    free(rcv);
}

static void part_given(papcoll_ctx_t *threaded)
{
    papcoll_options_t o;
    papcoll_ctx_t *ctx = NULL;
    papcoll_site_t *s = NULL, *t = NULL;
    papcoll_timing_t tm;
    papcoll_observed_t obs, bad[4];
    int x[4] = {g_rank, 1, 2, 3}, y[4] = {-7, -7, -7, -7}, rc, i;
    double t0;

    memset(&o, 0, sizeof o);
    o.no_monitor = o.quiet = 1;
    if ((rc = papcoll_init(MPI_COMM_WORLD, &o, &ctx)) != 0 ||
        (rc = papcoll_site_create(ctx, "given", PAPCOLL_OP_REDUCE, "mpi", &s)) != 0) {
        fail("given: setup", "mpi", rc);
        return;
    }
    t0 = papcoll_wtime(ctx) - 0.25 - g_rank;
    if ((rc = papcoll_site_set_arrival(s, t0)) != 0 ||
        (rc = papcoll_reduce(s, x, y, 4, MPI_INT, MPI_SUM, 0)) != 0)
        fail("given: a call after set_arrival", "mpi", rc);
    papcoll_site_last_timing(s, &tm);
    if (tm.arrival != t0 || !(tm.exit >= t0 + 0.25 + g_rank) ||
        (g_rank == 0 && y[0] != g_size * (g_size - 1) / 2))
        fail("given: set_arrival's time is not the call's arrival, or the call went wrong", "mpi", -1000);
    papcoll_reduce(s, x, y, 4, MPI_INT, MPI_SUM, 0);
    papcoll_site_last_timing(s, &tm);
    if (tm.arrival < t0 + 0.25 + g_rank)
        fail("given: set_arrival's time outlived its call", "mpi", -1000);
    obs = (papcoll_observed_t){t0, t0 + 0.5, 0, 16, 4, "MPI_INT"};
    if ((rc = papcoll_site_observe(s, &obs)) != 0)
        fail("given: an observed call", "mpi", rc);
    papcoll_site_last_timing(s, &tm);
    if (tm.arrival != t0 || tm.exit != t0 + 0.5 || tm.algo != papcoll_algo_find(PAPCOLL_OP_REDUCE, "mpi"))
        fail("given: an observed call did not record the given times", "mpi", -1000);
    bad[0] = bad[1] = bad[2] = bad[3] = obs;
    bad[0].exit = t0 - 1;
    bad[1].arrival = NAN;
    bad[2].root = g_size;
    bad[3].bytes = -1;
    for (i = 0; i < 4; i++)
        if (papcoll_site_observe(s, &bad[i]) != PAPCOLL_ERR_INVAL)
            fail("given: an observation out of order or range is accepted", "mpi", -1000 - i);
    if (papcoll_site_set_arrival(s, INFINITY) != PAPCOLL_ERR_INVAL)
        fail("given: an arrival that is not finite is accepted", "mpi", -1000);
    if ((rc = papcoll_reduce(s, x, y, 4, MPI_INT, MPI_SUM, 0)) != 0 ||
        (g_rank == 0 && y[0] != g_size * (g_size - 1) / 2))
        fail("given: the call after observations", "mpi", rc);
    papcoll_site_free(&s);
    papcoll_finalize(&ctx);
    if ((rc = papcoll_site_create(threaded, "given-thread", PAPCOLL_OP_REDUCE, "binomial", &t)) != 0)
        fail("given: setup", "binomial", rc);
    else if (papcoll_site_observe(t, &obs) != PAPCOLL_ERR_STATE)
        fail("given: observing is accepted on a site with a monitor thread", "binomial", -1000);
    papcoll_site_free(&t);
    if (g_rank == 0)
        printf("mpi_core: given: set_arrival and observe, P=%d\n", g_size);
}

int main(int argc, char **argv)
{
    papcoll_ctx_t *ctx = NULL;
    int provided, rc, any;

    (void)argc;
    (void)argv;
    setenv("PAPCOLL_CHECK", "1", 1);
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &g_size);
    if (g_size > 64 || (rc = papcoll_init(MPI_COMM_WORLD, NULL, &ctx)) != 0) {
        printf("FAIL mpi_core: setup (P <= 64 and papcoll_init)\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    part_alloc(ctx);
    part_error(ctx);
    part_given(ctx);
    papcoll_finalize(&ctx);
    MPI_Allreduce(&g_failed, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (g_rank == 0)
        printf("mpi_core: P=%d: %s\n", g_size, any ? "FAILED" : "passed");
    MPI_Finalize();
    return any;
}

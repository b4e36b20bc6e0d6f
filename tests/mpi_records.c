/*
 * MPI test of the record sink (papcoll_set_sink): every call of every site
 * reaches rank 0's sink exactly once, in order, with every rank's part and
 * consistent timestamps, with and without monitor threads, when ranks skip
 * their edges, when the root changes, when the sink is removed in the middle
 * of a run and when the sink fails (both also without monitor threads,
 * where the application thread ships the batches).  Run by tests/records.sh at several P.
 *
 * usage: mpirun -np P mpi_records [--iters N]
 */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "papcoll.h"

#define MAXSITES 4
#define MAXITERS 200

typedef struct {
    int calls[MAXSITES];          /* records seen per site id */
    int algo[MAXSITES][MAXITERS]; /* algorithm index per record */
    int clocks;                   /* clock samples seen */
    int fail_after;               /* >= 0: the record callback fails after this many */
    int seen;
    long bad;
} sink_state_t;

static int g_rank, g_size, g_failed;
static int g_root[MAXITERS];      /* root of each iteration, same on every rank */

static void fail(const char *what, int site, int iter, int rank)
{
    printf("FAIL mpi_records P=%d: %s (site %d iter %d rank %d)\n", g_size, what, site, iter, rank);
    g_failed++;
}

/* NaN (not called) or a <= b. */
static int ordered(double a, double b)
{
    return isnan(a) || isnan(b) || a <= b;
}

static int on_record(void *arg, const papcoll_record_t *r)
{
    sink_state_t *s = arg;
    int i, k;

    if (s->fail_after >= 0 && s->seen++ >= s->fail_after)
        return -1;
    if (r->site_id < 0 || r->site_id >= MAXSITES || r->nranks != g_size) {
        fail("site id or nranks out of range", r->site_id, r->iter, -1);
        return 0;
    }
    k = s->calls[r->site_id]++;
    if (r->iter != k)
        fail("records out of order or missing", r->site_id, r->iter, -1);
    if (k < MAXITERS) {
        s->algo[r->site_id][k] = r->algo;
        if (r->root != g_root[k])
            fail("root differs from the call's", r->site_id, r->iter, -1);
    }
    if (r->bytes != (long long)(r->iter % 5) * (long long)sizeof(int) || r->count != r->iter % 5 ||
        r->datatype == NULL || strcmp(r->datatype, "MPI_INT") != 0)
        fail("bytes, count or datatype differ from the call's", r->site_id, r->iter, -1);
    if (!(isnan(r->plan_time) || (r->plan_time >= 0 && r->plan_time < 1)))
        fail("plan time out of range", r->site_id, r->iter, -1);
    for (i = 0; i < r->nranks; i++) {
        const papcoll_rank_record_t *x = &r->ranks[i];
        if (!(x->arrival <= x->exit) || isnan(x->arrival))
            fail("arrival after exit or missing", r->site_id, r->iter, i);
        if (!ordered(x->compute_start, x->edge) || !ordered(x->edge, x->compute_end) ||
            !ordered(x->compute_end, x->arrival) || !ordered(x->compute_start, x->arrival))
            fail("monitor API times out of order", r->site_id, r->iter, i);
    }
    return 0;
}

static int on_clock(void *arg, const papcoll_clock_sample_t *c)
{
    sink_state_t *s = arg;
    int i;

    s->clocks++;
    if (c->nranks != g_size)
        fail("clock sample has the wrong rank count", -1, -1, -1);
    for (i = 0; i < c->nranks; i++)
        if (!isfinite(c->offset[i]) || !isfinite(c->drift[i]) || !(c->error[i] >= 0))
            fail("clock sample not finite", -1, -1, i);
    return 0;
}

static void nap_us(long us)
{
    struct timespec ts = {us / 1000000, (us % 1000000) * 1000};
    nanosleep(&ts, NULL);
}

/* One iteration on a site: monitor API (some ranks skip the edge), call. */
static void iterate(papcoll_site_t *site, papcoll_op_t op, int it, int *buf)
{
    int n = it % 5, root = g_root[it];

    papcoll_processing_start(site);
    nap_us(100 * ((g_rank * 7 + it) % 4));
    if ((g_rank + it) % 3 != 0)
        papcoll_edge(site, 0.5);
    nap_us(100);
    papcoll_processing_end(site);
    if (op == PAPCOLL_OP_GATHER)
        papcoll_gather(site, buf, n, MPI_INT, buf + 8, n, MPI_INT, root);
    else
        papcoll_scatter(site, buf + 8, n, MPI_INT, buf, n, MPI_INT, root);
}

/* A gather and a scatter site; the sink is removed after `remove_at`
 * iterations (or never), the records up to then must all be there. */
static void run_context(const char *label, int no_monitor, int iters, int remove_at, int fail_after)
{
    papcoll_options_t o = {.no_monitor = no_monitor, .quiet = 1};
    sink_state_t st = {.fail_after = fail_after};
    papcoll_sink_t sink = {&st, on_record, on_clock};
    papcoll_ctx_t *ctx = NULL;
    papcoll_site_t *sg = NULL, *ss = NULL;
    int *buf = calloc((size_t)(8 + 5 * g_size), sizeof(int));
    int it, expect = remove_at >= 0 ? remove_at : iters;

    if (papcoll_init(MPI_COMM_WORLD, &o, &ctx) != 0 ||
        papcoll_site_create(ctx, "g", PAPCOLL_OP_GATHER, "bsls", &sg) != 0 ||
        papcoll_site_create(ctx, "s", PAPCOLL_OP_SCATTER, "slin", &ss) != 0 ||
        papcoll_set_sink(ctx, g_rank == 0 ? &sink : NULL) != 0) {
        fail("setup failed", -1, -1, g_rank);
        return;
    }
    for (it = 0; it < iters; it++) {
        if (it == remove_at && papcoll_set_sink(ctx, NULL) != 0)
            fail("removing the sink failed", -1, it, g_rank);
        iterate(sg, PAPCOLL_OP_GATHER, it, buf);
        iterate(ss, PAPCOLL_OP_SCATTER, it, buf);
    }
    if (papcoll_finalize(&ctx) != PAPCOLL_ERR_STATE || ctx == NULL)
        fail("papcoll_finalize with live sites did not refuse", -1, -1, g_rank);
    papcoll_site_free(&sg);
    papcoll_site_free(&ss);
    if (g_rank == 0 && fail_after < 0) {
        if (st.calls[0] != expect || st.calls[1] != expect) {
            printf("FAIL mpi_records P=%d %s: %d and %d records, expected %d each\n", g_size, label,
                   st.calls[0], st.calls[1], expect);
            g_failed++;
        }
        for (it = 0; it < expect && it < MAXITERS; it++)
            if (strcmp(papcoll_algo_name(PAPCOLL_OP_GATHER, st.algo[0][it]), no_monitor ? "sls" : "bsls") &&
                strcmp(papcoll_algo_name(PAPCOLL_OP_GATHER, st.algo[0][it]), "sls"))
                fail("gather record names another algorithm", 0, it, -1);
        if (st.clocks != 1)
            fail("expected one clock sample", -1, -1, -1);
    }
    if (g_rank == 0 && fail_after >= 0 && st.calls[0] + st.calls[1] != fail_after)
        fail("a failed sink was called again", -1, -1, -1);
    if (papcoll_finalize(&ctx) != 0)
        fail("papcoll_finalize failed", -1, -1, g_rank);
    free(buf);
    if (g_rank == 0)
        printf("mpi_records: P=%d %s: done\n", g_size, label);
}

int main(int argc, char **argv)
{
    int provided, iters = 37, it, total;

    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &g_size);
    if (argc == 3 && strcmp(argv[1], "--iters") == 0)
        iters = atoi(argv[2]);
    if (iters < 1 || iters > MAXITERS) {
        if (g_rank == 0)
            fprintf(stderr, "usage: mpi_records [--iters 1..%d]\n", MAXITERS);
        MPI_Finalize();
        return 2;
    }
    for (it = 0; it < iters; it++)
        g_root[it] = (it / 7) % g_size; /* the root changes every 7 calls */
    run_context("monitor", 0, iters, -1, -1);
    run_context("no-monitor", 1, iters, -1, -1);
    run_context("removed", 0, iters, iters / 2, -1);
    run_context("failing-sink", 0, iters, -1, 5);
    run_context("no-monitor-removed", 1, iters, iters / 2, -1);
    run_context("no-monitor-failing-sink", 1, iters, -1, 5);
    MPI_Allreduce(&g_failed, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (g_rank == 0)
        printf("mpi_records: P=%d: %s\n", g_size, total ? "FAILED" : "passed");
    MPI_Finalize();
    return total ? 1 : 0;
}

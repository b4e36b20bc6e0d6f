/*
 * papbench prolog and measurement loop.
 *
 * One iteration of one algorithm (Proficz 2020, Fig. 13, with the double
 * barrier of Marendic 2016, Alg. 2):
 *
 *   fill send data, poison receive buffer        (untimed)
 *   MPI_Barrier; MPI_Barrier                     (balanced start)
 *   processing start, sleep half, edge(0.5), sleep half, processing end
 *                                                 half = (base + delay) / 2
 *   a = papcoll_wtime(); papcoll_<op>(); f = papcoll_wtime()   (global clock)
 *   validate; gather (a, f) to rank 0;
 *   rank 0: r, e, I and the root-port lower bound of r (papmetrics.h)   (untimed)
 *
 * The iterations are run in rounds: round k runs every algorithm once under
 * the delay vector of iteration k.  Interleaving (as Marendic's Alg. 2 does)
 * spreads slow drifts of the machine evenly over the algorithms, and since
 * the delays are a function of (seed, k) alone, every algorithm meets the
 * same arrival patterns.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "data.h"
#include "lowerbound.h"
#include "output.h"
#include "timer.h"

#define PROGRESS_PERIOD 2.0 /* seconds between progress lines */
#define MODEL_REPS 10       /* ping-pongs per message size for alpha and beta */

/* Timestamps and check of one call on this rank. */
typedef struct {
    double arrival, exit; /* local MPI_Wtime */
    int bad;              /* validation failed on this rank */
} sample_t;

static MPI_Datatype mpi_type(elem_type_t t)
{
    switch (t) {
    case ELEM_FLOAT:
        return MPI_FLOAT;
    case ELEM_DOUBLE:
        return MPI_DOUBLE;
    case ELEM_INT:
        return MPI_INT;
    default:
        return MPI_BYTE;
    }
}

/* Bytes of one rank's block. */
static size_t block_bytes(const bench_config_t *c)
{
    return (size_t)c->block * elem_size(c->type);
}

/* Round k (warm-ups included), algorithm a: identifies the call's data. */
static uint64_t call_tag(const bench_t *b, long k, int a)
{
    return (uint64_t)k * (uint64_t)b->cfg->nalgos + (uint64_t)a;
}

/* "iteration 3/20" or "warm-up iteration 1/2" for round k (counted from 1). */
static const char *iter_label(const bench_config_t *c, long k, char *buf, size_t len)
{
    if (k < c->warmup)
        snprintf(buf, len, "warm-up iteration %ld/%ld", k + 1, c->warmup);
    else
        snprintf(buf, len, "iteration %ld/%ld", k - c->warmup + 1, c->iters);
    return buf;
}

/* Agrees on a status: the largest of all ranks'. */
static int agree(int status)
{
    int all = status;

    MPI_Allreduce(&status, &all, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    return all;
}

/* Rank 0 creates the output directory now, so that a bad --out fails before the run. */
static int make_out_dir(const bench_t *b)
{
    char err[512];

    if (b->rank != 0 || b->cfg->out_dir == NULL)
        return STATUS_OK;
    if (output_mkdir_p(b->cfg->out_dir, err, sizeof err) != 0) {
        fprintf(stderr, "papbench: --out: %s\n", err);
        return STATUS_USAGE;
    }
    return STATUS_OK;
}

/* Names the option at fault when papcoll_init refuses what the user gave. */
static void init_error(const bench_config_t *c, int rc)
{
    if (rc == PAPCOLL_ERR_PREDICTOR && c->predictor != NULL)
        fprintf(stderr, "papbench: --predictor: '%s': %s\n", c->predictor, papcoll_strerror(rc));
    else if (rc == PAPCOLL_ERR_CONFIG && c->config_file != NULL)
        fprintf(stderr, "papbench: --config: '%s': %s\n", c->config_file, papcoll_strerror(rc));
    else
        fprintf(stderr, "papbench: papcoll_init: %s\n", papcoll_strerror(rc));
}

static int start_papcoll(bench_t *b)
{
    const bench_config_t *c = b->cfg;
    papcoll_options_t opts = {0};
    char name[64];
    int rc, a;

    opts.predictor = c->predictor;
    opts.config_file = c->config_file;
    opts.no_monitor = c->no_monitor;
    rc = papcoll_init(MPI_COMM_WORLD, &opts, &b->ctx);
    if (rc != PAPCOLL_OK) {
        if (b->rank == 0)
            init_error(c, rc);
        return rc == PAPCOLL_ERR_PREDICTOR || rc == PAPCOLL_ERR_CONFIG ? STATUS_USAGE : STATUS_FAILED;
    }
    papcoll_clock_info(b->ctx, &b->clock);
    for (a = 0; a < c->nalgos; a++) {
        const char *algo = papcoll_algo_name(c->op, c->algos[a]);

        snprintf(name, sizeof name, "papbench-%s", algo);
        rc = papcoll_site_create(b->ctx, name, c->op, algo, &b->res[a].site);
        if (rc == PAPCOLL_OK && !c->no_bind && (c->op == PAPCOLL_OP_GATHER) == (b->rank == c->root))
            rc = papcoll_site_bind_recv(b->res[a].site, b->recvbuf, (int)c->block, mpi_type(c->type));
        if (rc != PAPCOLL_OK) {
            fprintf(stderr, "papbench: rank %d: papcoll_site_create(%s): %s\n", b->rank, algo,
                    papcoll_strerror(rc));
            return STATUS_FAILED;
        }
    }
    return STATUS_OK;
}

/* Zeroed allocation of n items of size sz; never NULL for n == 0. */
static void *alloc(size_t n, size_t sz, int *ok)
{
    void *p = calloc(n ? n : 1, sz ? sz : 1);

    *ok = *ok && p != NULL;
    return p;
}

static int alloc_results(bench_t *b)
{
    const bench_config_t *c = b->cfg;
    size_t n = (size_t)c->iters, P = (size_t)b->nprocs, d = sizeof(double);
    int a, ok = 1;

    for (a = 0; a < c->nalgos; a++) {
        algo_result_t *r = &b->res[a];

        if (b->rank == 0) {
            r->runtime = alloc(n, d, &ok);
            r->elapsed = alloc(n, d, &ok);
            r->imbalance = alloc(n, d, &ok);
            r->min_arrival = alloc(n, d, &ok);
            r->arrival = alloc(n * P, d, &ok);
            r->exit = alloc(n * P, d, &ok);
            r->lower_bound = alloc(n, d, &ok);
        }
    }
    return ok;
}

static int alloc_buffers(bench_t *b)
{
    const bench_config_t *c = b->cfg;
    size_t blk = block_bytes(c), all = blk * (size_t)b->nprocs;
    int is_root = b->rank == c->root, ok = 1;

    b->delays = alloc((size_t)b->nprocs, sizeof(double), &ok);
    b->times = alloc(2 * (size_t)b->nprocs, sizeof(double), &ok);
    b->res = alloc((size_t)c->nalgos, sizeof *b->res, &ok);
    if (c->op == PAPCOLL_OP_GATHER) {
        b->sendbuf = alloc(blk, 1, &ok);
        b->recvbuf = is_root ? alloc(all, 1, &ok) : NULL;
    } else {
        b->sendbuf = is_root ? alloc(all, 1, &ok) : NULL;
        b->recvbuf = alloc(blk, 1, &ok);
    }
    if (!ok || !alloc_results(b)) {
        fprintf(stderr, "papbench: rank %d: out of memory\n", b->rank);
        return STATUS_FAILED;
    }
    return STATUS_OK;
}

/* The lower bound's port model, measured before the library starts its traffic. */
static int measure_network(bench_t *b)
{
    const bench_config_t *c = b->cfg;

    if (lb_measure(MPI_COMM_WORLD, c->root, block_bytes(c), MODEL_REPS, &b->model) != 0) {
        fprintf(stderr, "papbench: rank %d: out of memory\n", b->rank);
        return STATUS_FAILED;
    }
    return STATUS_OK;
}

int bench_setup(bench_t *b, const bench_config_t *cfg)
{
    int status;

    b->cfg = cfg;
    status = agree(make_out_dir(b));
    if (status == STATUS_OK)
        status = agree(alloc_buffers(b));
    if (status == STATUS_OK)
        status = agree(measure_network(b));
    if (status == STATUS_OK)
        status = agree(start_papcoll(b));
    if (status == STATUS_OK)
        status = bench_trace_open(b);
    return status;
}

/* Fresh send data and a poisoned receive buffer for the call tagged tag. */
static void prepare_buffers(const bench_t *b, uint64_t tag)
{
    const bench_config_t *c = b->cfg;
    size_t blk = block_bytes(c), n = (size_t)c->block;
    int r;

    if (c->op == PAPCOLL_OP_GATHER) {
        data_fill(b->sendbuf, c->type, n, tag, b->rank);
        if (b->rank == c->root)
            data_poison(b->recvbuf, blk * (size_t)b->nprocs);
        return;
    }
    if (b->rank == c->root)
        for (r = 0; r < b->nprocs; r++)
            data_fill((char *)b->sendbuf + (size_t)r * blk, c->type, n, tag, r);
    data_poison(b->recvbuf, blk);
}

/* Prints the first wrong element of block owner in buf; returns 1 when there is one. */
static int check_block(const bench_t *b, int a, long k, const void *buf, int owner, const char *what)
{
    const bench_config_t *c = b->cfg;
    long long bad = data_check(buf, c->type, (size_t)c->block, call_tag(b, k, a), owner);
    char iter[64];

    if (bad < 0)
        return 0;
    fprintf(stderr,
            "papbench: validation FAILED: %s %s, %s, rank %d: %s, first bad element "
            "%lld (block of rank %d, index %lld)\n",
            papcoll_op_name(c->op), papcoll_algo_name(c->op, c->algos[a]),
            iter_label(c, k, iter, sizeof iter), b->rank, what, (long long)owner * c->block + bad, owner,
            bad);
    return 1;
}

/*
 * Checks what this rank received, and that the send data is intact (the
 * library takes it const).  Returns 1 on a mismatch (already printed).
 */
static int validate(const bench_t *b, int a, long k)
{
    const bench_config_t *c = b->cfg;
    size_t blk = block_bytes(c);
    int r, bad = 0;

    if (c->op == PAPCOLL_OP_GATHER) {
        bad = check_block(b, a, k, b->sendbuf, b->rank, "send buffer modified");
        for (r = 0; !bad && b->rank == c->root && r < b->nprocs; r++)
            bad = check_block(b, a, k, (char *)b->recvbuf + (size_t)r * blk, r, "received data");
        return bad;
    }
    for (r = 0; !bad && b->rank == c->root && r < b->nprocs; r++)
        bad = check_block(b, a, k, (char *)b->sendbuf + (size_t)r * blk, r, "send buffer modified");
    return bad || check_block(b, a, k, b->recvbuf, b->rank, "received data");
}

static int collective(const bench_t *b, papcoll_site_t *site)
{
    const bench_config_t *c = b->cfg;
    MPI_Datatype t = mpi_type(c->type);
    int n = (int)c->block;

    if (c->op == PAPCOLL_OP_GATHER)
        return papcoll_gather(site, b->sendbuf, n, t, b->recvbuf, n, t, c->root);
    return papcoll_scatter(site, b->sendbuf, n, t, b->recvbuf, n, t, c->root);
}

/* The paper's emulated computation: two sleeps around the PAT monitor's edge. */
static int emulate_compute(papcoll_site_t *site, double seconds, const char **what)
{
    double t0;
    int rc;

    *what = "papcoll_processing_start";
    if ((rc = papcoll_processing_start(site)) != PAPCOLL_OK)
        return rc;
    /* Absolute deadlines: the edge's own cost does not lengthen the computation. */
    t0 = timer_now();
    timer_sleep_until(t0 + 0.5 * seconds);
    *what = "papcoll_edge";
    if ((rc = papcoll_edge(site, 0.5)) != PAPCOLL_OK)
        return rc;
    timer_sleep_until(t0 + seconds);
    *what = "papcoll_processing_end";
    return papcoll_processing_end(site);
}

/* A library error leaves the other ranks inside a collective: abort the job. */
static void die(const bench_t *b, int a, long k, const char *what, int rc)
{
    char iter[64];

    fprintf(stderr, "papbench: rank %d: %s (%s, %s): %s\n", b->rank, what,
            papcoll_algo_name(b->cfg->op, b->cfg->algos[a]), iter_label(b->cfg, k, iter, sizeof iter),
            papcoll_strerror(rc));
    MPI_Abort(MPI_COMM_WORLD, STATUS_FAILED);
}

/* One synchronised, emulated-compute, timed and validated call. */
static void timed_call(bench_t *b, int a, long k, sample_t *s)
{
    const bench_config_t *c = b->cfg;
    papcoll_site_t *site = b->res[a].site;
    const char *what = NULL;
    int rc;

    prepare_buffers(b, call_tag(b, k, a));
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);
    rc = emulate_compute(site, 1e-3 * c->base_ms + b->delays[b->rank], &what);
    if (rc != PAPCOLL_OK)
        die(b, a, k, what, rc);
    s->arrival = papcoll_wtime(b->ctx);
    rc = collective(b, site);
    s->exit = papcoll_wtime(b->ctx);
    if (rc != PAPCOLL_OK)
        die(b, a, k, c->op == PAPCOLL_OP_GATHER ? "papcoll_gather" : "papcoll_scatter", rc);
    s->bad = validate(b, a, k);
}

/*
 * The untimed bookkeeping of a call: the (a_i, f_i) pairs gathered to rank
 * 0, which computes the call's metrics.  Returns 1 when any rank's
 * validation failed, so that all ranks stop together.
 */
static int record(bench_t *b, int a, long k, const sample_t *s)
{
    const bench_config_t *c = b->cfg;
    double pair[2] = {s->arrival, s->exit}, amin;
    /* Rank p's pair at times[2p]: arrivals and exits two doubles apart. */
    pm_call_t call = {&b->times[0], &b->times[1], b->nprocs, 2 * sizeof(double)};
    algo_result_t *r = &b->res[a];
    long i = k - c->warmup;
    int p, P = b->nprocs, bad = 0;

    MPI_Allreduce(&s->bad, &bad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    MPI_Gather(pair, 2, MPI_DOUBLE, b->times, 2, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    if (bad)
        return 1;
    if (i < 0 || b->rank != 0)
        return 0;
    amin = pm_first_arrival(&call);
    r->runtime[i] = pm_runtime(&call);
    r->elapsed[i] = pm_elapsed(&call);
    r->imbalance[i] = pm_imbalance(&call);
    r->min_arrival[i] = amin - b->t_start;
    for (p = 0; p < P; p++) {
        r->arrival[i * P + p] = b->times[2 * p] - amin;
        r->exit[i * P + p] = b->times[2 * p + 1] - amin;
    }
    r->lower_bound[i] = (c->op == PAPCOLL_OP_GATHER ? pm_lb_gather : pm_lb_scatter)(
        P, &r->arrival[i * P], c->root, &b->model, block_bytes(c));
    return 0;
}

/* Rank 0, at most every PROGRESS_PERIOD seconds, on stderr. */
static void progress(bench_t *b, int a, long k)
{
    const bench_config_t *c = b->cfg;
    double now = timer_now();
    char iter[64];

    if (b->rank != 0 || c->quiet || now - b->last_progress < PROGRESS_PERIOD)
        return;
    b->last_progress = now;
    fprintf(stderr, "papbench: %8.1f s  %s, %s\n", now - b->t_wall, iter_label(c, k, iter, sizeof iter),
            papcoll_algo_name(c->op, c->algos[a]));
}

int bench_measure(bench_t *b)
{
    const bench_config_t *c = b->cfg;
    long k, rounds = c->warmup + c->iters;
    sample_t s;
    int a;

    b->t_start = papcoll_wtime(b->ctx);
    b->t_wall = b->last_progress = timer_now();
    for (k = 0; k < rounds; k++) {
        pattern_delays(&c->pattern, c->seed, k, b->delays);
        for (a = 0; a < c->nalgos; a++) {
            timed_call(b, a, k, &s);
            if (record(b, a, k, &s) != 0)
                return STATUS_FAILED;
            progress(b, a, k);
        }
    }
    return STATUS_OK;
}

static void free_results(algo_result_t *r)
{
    free(r->runtime);
    free(r->elapsed);
    free(r->imbalance);
    free(r->min_arrival);
    free(r->arrival);
    free(r->exit);
    free(r->lower_bound);
}

void bench_teardown(bench_t *b)
{
    int a;

    /* Sites and context are collective to free: every rank frees the same ones. */
    for (a = 0; b->res != NULL && a < b->cfg->nalgos; a++) {
        if (b->res[a].site != NULL)
            papcoll_site_free(&b->res[a].site);
        free_results(&b->res[a]);
    }
    bench_trace_close(b);
    if (b->ctx != NULL)
        papcoll_finalize(&b->ctx);
    free(b->res);
    free(b->sendbuf);
    free(b->recvbuf);
    free(b->delays);
    free(b->times);
}

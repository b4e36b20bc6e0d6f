/*
 * MPI test of the data-dependent policies (docs/policies.md): under random
 * arrivals, ranks that skip their edges at random, and a late-rank regime
 * in the middle of the run, every rank runs the same algorithm at every
 * call of auto and rules:FILE sites, with and without monitor
 * threads, for gather, bcast and allreduce; the results are correct; the policies
 * actually switch.  With PAPCOLL_CHECK=1 the library also checks each
 * call.  tests/policy.sh runs it, and runs it again with the test-only
 * mutant build/tests/mpi_policy_mutant (policies read a local value), which it
 * must report as a disagreement (the run aborts with code 3 at the first
 * one: ranks that disagree may have started different background parts).
 * First, a rules file that only some ranks can read must fail the site's
 * creation and a switch to it on every rank, without leaving any rank
 * waiting in a collective step; a rules site must run each call's rule
 * when the size alternates; an edge must not wait for a rank a call
 * behind.
 *
 * usage: mpirun -np P mpi_policy RULES_FILE [--iters N]
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "papcoll.h"

static int g_rank, g_size, g_failed, g_disagree;

static void fail(const char *what, const char *policy, int iter)
{
    printf("FAIL mpi_policy P=%d rank %d: %s (%s, call %d)\n", g_size, g_rank, what, policy, iter);
    g_failed++;
}

static void sleep_ms(double ms)
{
    struct timespec ts = {(time_t)(ms / 1e3), (long)((ms - 1e3 * (double)(time_t)(ms / 1e3)) * 1e6)};
    nanosleep(&ts, NULL);
}

/* This rank's delay at call it: uniform 0..2 ms, and 8 ms more for rank 0
 * (gather's root, not bcast's) in calls 10..19 (a regime change). */
static double delay_ms(unsigned *seed, int it)
{
    double d = 2.0 * rand_r(seed) / RAND_MAX;

    return d + (it >= 10 && it < 20 && g_rank == 0 ? 8.0 : 0.0);
}

static int one_call(papcoll_site_t *s, papcoll_op_t op, int it, int *buf)
{
    int P = g_size, n = 64, i, rc, bad = 0;

    if (op == PAPCOLL_OP_GATHER) {
        for (i = 0; i < n; i++)
            buf[i] = g_rank * 1000 + it + i;
        rc = papcoll_gather(s, buf, n, MPI_INT, buf + n, n, MPI_INT, 0);
        for (i = 0; rc == 0 && g_rank == 0 && i < P * n; i++)
            bad |= buf[n + i] != (i / n) * 1000 + it + i % n;
    } else if (op == PAPCOLL_OP_BCAST) {
        for (i = 0; i < n; i++)
            buf[i] = g_rank == 1 % P ? it * 7 + i : -1;
        rc = papcoll_bcast(s, buf, n, MPI_INT, 1 % P);
        for (i = 0; rc == 0 && i < n; i++)
            bad |= buf[i] != it * 7 + i;
    } else {
        for (i = 0; i < n; i++)
            buf[i] = 3 * g_rank + it + i;
        rc = papcoll_allreduce(s, buf, buf + n, n, MPI_INT, MPI_SUM);
        for (i = 0; rc == 0 && i < n; i++)
            bad |= buf[n + i] != 3 * P * (P - 1) / 2 + P * (it + i);
    }
    return rc ? rc : bad ? -1000 : 0;
}

static void run_site(const char *policy, papcoll_op_t op, int no_monitor, int iters)
{
    papcoll_options_t o = {.no_monitor = no_monitor, .quiet = 1, .predictor = "last"};
    papcoll_ctx_t *ctx = NULL;
    papcoll_site_t *s = NULL;
    papcoll_timing_t t;
    int *buf = calloc((size_t)(64 * (g_size + 1)), sizeof(int));
    unsigned seed = 12345u + 977u * (unsigned)g_rank;
    int it, rc, mm[2], v[2], switches = 0, last = -1;

    /* allreduce: 16-byte segments, so that the chain's pipeline after
     * the late rank is short enough for auto to choose it (docs/policies.md) */
    if (op == PAPCOLL_OP_ALLREDUCE)
        setenv("PAPCOLL_SEGMENT_BYTES", "16", 1);
    rc = buf == NULL ? -1 : papcoll_init(MPI_COMM_WORLD, &o, &ctx);
    unsetenv("PAPCOLL_SEGMENT_BYTES");
    if (rc != 0 || (rc = papcoll_site_create(ctx, "p", op, policy, &s)) != 0) {
        fail("setup failed", policy, -1);
        exit(1);
    }
    for (it = 0; it < iters; it++) {
        papcoll_processing_start(s);
        sleep_ms(delay_ms(&seed, it) / 2);
        if (rand_r(&seed) % 10 >= 3) /* 30 % of the calls skip the edge */
            papcoll_edge(s, 0.5);
        sleep_ms(delay_ms(&seed, it) / 2);
        papcoll_processing_end(s);
        rc = one_call(s, op, it, buf);
        if (rc == PAPCOLL_ERR_AGREE)
            g_disagree++; /* every rank got it: the check is collective */
        if (rc != 0 && rc != PAPCOLL_ERR_AGREE)
            fail(rc == -1000 ? "wrong result" : papcoll_strerror(rc), policy, it);
        papcoll_site_last_timing(s, &t);
        v[0] = t.algo;
        v[1] = -t.algo;
        MPI_Allreduce(v, mm, 2, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
        if (mm[0] != -mm[1] || rc == PAPCOLL_ERR_AGREE) {
            /* Ranks that disagree may have started different background
             * parts: nothing after this point could complete. */
            if (g_rank == 0)
                printf("mpi_policy P=%d: %s %s: ranks ran different algorithms at call %d\n", g_size, policy,
                       papcoll_op_name(op), it);
            fflush(stdout);
            MPI_Abort(MPI_COMM_WORLD, 3);
        }
        switches += t.algo != last;
        last = t.algo;
    }
    /* auto's gather without monitor threads has one counterpart, sls, which
     * the model never prefers to lin (the same blocks through the root's
     * port, a handshake more each): no switch is due there. */
    if (g_size > 1 && switches < 2 &&
        !(no_monitor && op == PAPCOLL_OP_GATHER && strcmp(policy, "auto") == 0))
        fail("the policy never switched between regimes", policy, iters);
    papcoll_site_free(&s);
    papcoll_finalize(&ctx);
    free(buf);
    if (g_rank == 0)
        printf("mpi_policy: P=%d %s %s%s: %d switches\n", g_size, policy, papcoll_op_name(op),
               no_monitor ? " no-monitor" : "", switches);
}

/* The last rank names a rules file that does not exist; every rank must
 * get an error from papcoll_site_create and from papcoll_site_set_algo. */
static void partial_rules(const char *path)
{
    papcoll_options_t o = {.quiet = 1};
    papcoll_ctx_t *ctx = NULL;
    papcoll_site_t *s = NULL;
    char policy[1100];
    int rc;

    snprintf(policy, sizeof policy, "rules:%s%s", path, g_rank == g_size - 1 ? ".missing" : "");
    if (papcoll_init(MPI_COMM_WORLD, &o, &ctx) != PAPCOLL_OK) {
        fail("papcoll_init", "partial rules", 0);
        return;
    }
    rc = papcoll_site_create(ctx, "partial", PAPCOLL_OP_GATHER, policy, &s);
    if (rc == PAPCOLL_OK)
        fail("site created although one rank cannot read the rules file", policy, 0);
    papcoll_site_free(&s);
    if (papcoll_site_create(ctx, "partial2", PAPCOLL_OP_GATHER, "fixed:lin", &s) != PAPCOLL_OK)
        fail("site creation after the refused one", policy, 0);
    else if (papcoll_site_set_algo(s, policy) == PAPCOLL_OK)
        fail("switch accepted although one rank cannot read the rules file", policy, 0);
    papcoll_site_free(&s);
    papcoll_finalize(&ctx);
}

/* A rules site whose rule depends on the vector's size, called with two
 * sizes in turn, every rank at its edge: the edge decides from the
 * previous call's signature, and the call must not run that choice when
 * its own signature differs (call.c reuses the edge's choice only for the
 * same signature). */
static void sig_change(void)
{
    static const char text[] = "allreduce * 0-256 * recdoubling\nallreduce * 257- * ring\n";
    char path[] = "/tmp/papcoll-mpi-policy-XXXXXX", policy[64];
    papcoll_options_t o = {.quiet = 1, .predictor = "last"};
    papcoll_ctx_t *ctx = NULL;
    papcoll_site_t *s = NULL;
    papcoll_timing_t t;
    int in[128], out[128], it, n, want, fd = mkstemp(path);

    if (fd < 0 || write(fd, text, sizeof text - 1) != (ssize_t)(sizeof text - 1) || close(fd) != 0) {
        fail("cannot write the rules file", path, -1);
        exit(1);
    }
    snprintf(policy, sizeof policy, "rules:%s", path);
    if (papcoll_init(MPI_COMM_WORLD, &o, &ctx) != 0 ||
        papcoll_site_create(ctx, "sig", PAPCOLL_OP_ALLREDUCE, policy, &s) != 0) {
        fail("setup failed", policy, -1);
        exit(1);
    }
    for (it = 0; it < 12; it++) {
        n = it % 2 ? 128 : 16; /* 512 and 64 bytes */
        for (int i = 0; i < n; i++)
            in[i] = g_rank + i;
        papcoll_processing_start(s);
        papcoll_edge(s, 0.5);
        papcoll_processing_end(s);
        if (papcoll_allreduce(s, in, out, n, MPI_INT, MPI_SUM) != 0)
            fail("allreduce failed", policy, it);
        papcoll_site_last_timing(s, &t);
        want = papcoll_algo_find(PAPCOLL_OP_ALLREDUCE, n == 16 ? "recdoubling" : "ring");
        if (it >= 2 && g_size > 1 && t.algo != want)
            fail(n == 16 ? "64-byte call did not run its rule's recdoubling"
                         : "512-byte call did not run its rule's ring",
                 policy, it);
    }
    papcoll_site_free(&s);
    papcoll_finalize(&ctx);
    unlink(path);
    if (g_rank == 0)
        printf("mpi_policy: P=%d rules by size, alternating sizes: done\n", g_size);
}

/* A rank a call behind must not hold the others at their edges.  At call 3
 * the last rank sleeps LATE_MS before its edge, so that call's exchange
 * completes only then.  The ranks between the root and it leave call 3 at
 * once (lin's non-roots send and return), and their edge of call 4 must
 * return without waiting for that exchange (site_api.c); their call 4 waits
 * for it instead.  The margin is wide: the edge takes microseconds when it
 * does not wait, and LATE_MS when it does. */
#define LATE_MS 300.0
static void edge_no_wait(void)
{
    static const char text[] = "gather * * * lin\n";
    char path[] = "/tmp/papcoll-mpi-policy-XXXXXX", policy[64], saved[16];
    const char *check = getenv("PAPCOLL_CHECK");
    papcoll_options_t o = {.quiet = 1, .predictor = "last"};
    papcoll_ctx_t *ctx = NULL;
    papcoll_site_t *s = NULL;
    int P = g_size, n = 16, it, i, bad, rc, fd = mkstemp(path);
    int *buf = calloc((size_t)(n * (P + 1)), sizeof(int));
    double t0, edge;

    if (buf == NULL || fd < 0 || write(fd, text, sizeof text - 1) != (ssize_t)(sizeof text - 1) ||
        close(fd) != 0) {
        fail("cannot write the rules file", path, -1);
        exit(1);
    }
    snprintf(policy, sizeof policy, "rules:%s", path);
    if (check != NULL)
        snprintf(saved, sizeof saved, "%s", check);
    setenv("PAPCOLL_CHECK", "0", 1); /* the check is collective: every call would wait for the late rank */
    rc = papcoll_init(MPI_COMM_WORLD, &o, &ctx);
    if (check != NULL)
        setenv("PAPCOLL_CHECK", saved, 1);
    else
        unsetenv("PAPCOLL_CHECK");
    if (rc != 0 || papcoll_site_create(ctx, "edge", PAPCOLL_OP_GATHER, policy, &s) != 0) {
        fail("setup failed", policy, -1);
        exit(1);
    }
    for (it = 0; it < 6; it++) {
        for (i = 0; i < n; i++)
            buf[i] = g_rank * 100 + it + i;
        papcoll_processing_start(s);
        if (it == 3 && g_rank == P - 1)
            sleep_ms(LATE_MS);
        t0 = MPI_Wtime();
        papcoll_edge(s, 0.5);
        edge = MPI_Wtime() - t0;
        papcoll_processing_end(s);
        if (papcoll_gather(s, buf, n, MPI_INT, buf + n, n, MPI_INT, 0) != 0)
            fail("gather failed", policy, it);
        for (i = 0, bad = 0; g_rank == 0 && i < P * n; i++)
            bad |= buf[n + i] != (i / n) * 100 + it + i % n;
        if (bad)
            fail("wrong result", policy, it);
        if (it == 4 && g_rank > 0 && g_rank < P - 1 && edge > LATE_MS / 3e3)
            fail("the edge waited for a rank a call behind", policy, it);
    }
    papcoll_site_free(&s);
    papcoll_finalize(&ctx);
    unlink(path);
    free(buf);
    if (g_rank == 0)
        printf("mpi_policy: P=%d edge beside a rank a call behind: done\n", g_size);
}

int main(int argc, char **argv)
{
    int provided, iters = 30, total[2], mine[2], m;
    char rules[1024];
    const char *pol[2] = {"auto", rules};
    papcoll_op_t ops[3] = {PAPCOLL_OP_GATHER, PAPCOLL_OP_BCAST, PAPCOLL_OP_ALLREDUCE};

    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &g_size);
    if (argc == 4 && strcmp(argv[2], "--iters") == 0)
        iters = atoi(argv[3]);
    if ((argc != 2 && argc != 4) || iters < 1) {
        if (g_rank == 0)
            fprintf(stderr, "usage: mpi_policy RULES_FILE [--iters N]\n");
        MPI_Finalize();
        return 2;
    }
    snprintf(rules, sizeof rules, "rules:%s", argv[1]);
    if (g_size > 1)
        partial_rules(argv[1]);
    sig_change();
    if (g_size > 2)
        edge_no_wait();
    for (m = 0; m < 2; m++)
        for (int p = 0; p < 2; p++)
            for (int k = 0; k < 3; k++)
                if (m == 0 || k == 0) /* without monitor threads: gather only */
                    run_site(pol[p], ops[k], m, iters);
    mine[0] = g_failed;
    mine[1] = g_disagree;
    MPI_Allreduce(mine, total, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (g_rank == 0)
        printf("mpi_policy: P=%d: %s (%d failures, %d disagreements)\n", g_size,
               total[0] || total[1] ? "FAILED" : "passed", total[0], total[1]);
    MPI_Finalize();
    return total[0] ? 1 : total[1] ? 3 : 0;
}

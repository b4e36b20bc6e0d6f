/*
 * Serial unit test of papbench's pure pieces (apps/papbench, docs/papbench.md):
 *
 *   reduced data: for every type and every operation MPI defines on it and
 *     P in {1, 2, 3, 5, 8, 13, 33}, the contributions of all ranks folded
 *     in rank order and in a shuffled order give exactly the closed form
 *     data_check_reduce expects; a missing rank, a rank counted twice, a
 *     stale call's data and a flipped bit are caught; a rank's
 *     contribution checks against itself;
 *   the operations MPI defines per type (red_valid);
 *   the configuration: --size in each op's meaning, --reduce-op and the
 *     type, --root of allreduce, --maxdelay Fx and --calibrate, every
 *     algorithm of an op by default, and the one-line errors.
 */
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../apps/papbench/config.h"
#include "../apps/papbench/data.h"
#include "unit.h"

#define COUNT 257
#define MAXP 33

/* acc = acc (op) x, element-wise in type t. */
static void combine(void *acc, const void *x, elem_type_t t, red_op_t op)
{
    size_t i;

    for (i = 0; i < COUNT; i++) {
        if (t == ELEM_FLOAT) {
            float *a = (float *)acc + i, v = ((const float *)x)[i];
            *a = op == RED_SUM    ? *a + v
                 : op == RED_PROD ? *a * v
                 : op == RED_MAX  ? fmaxf(*a, v)
                                  : fminf(*a, v);
        } else if (t == ELEM_DOUBLE) {
            double *a = (double *)acc + i, v = ((const double *)x)[i];
            *a = op == RED_SUM ? *a + v : op == RED_PROD ? *a * v : op == RED_MAX ? fmax(*a, v) : fmin(*a, v);
        } else if (t == ELEM_INT) {
            int32_t *a = (int32_t *)acc + i, v = ((const int32_t *)x)[i];
            *a = op == RED_SUM    ? *a + v
                 : op == RED_PROD ? *a * v
                 : op == RED_MAX  ? (*a > v ? *a : v)
                 : op == RED_MIN  ? (*a < v ? *a : v)
                 : op == RED_BAND ? *a & v
                                  : *a | v;
        } else {
            unsigned char *a = (unsigned char *)acc + i, v = ((const unsigned char *)x)[i];
            *a = op == RED_BAND ? *a & v : *a | v;
        }
    }
}

/* The fold of the contributions of the ranks in order[0..n-1] into out. */
static void fold(void *out, unsigned char (*buf)[COUNT * 8], const int *order, int n, elem_type_t t,
                 red_op_t op)
{
    int k;

    memcpy(out, buf[order[0]], COUNT * elem_size(t));
    for (k = 1; k < n; k++)
        combine(out, buf[order[k]], t, op);
}

static void test_reduce_one(elem_type_t t, red_op_t op, int P)
{
    static unsigned char buf[MAXP][COUNT * 8];
    unsigned char out[COUNT * 8];
    int order[MAXP + 1], r, k, tmp;
    uint64_t tag = rnd();
    const char *tn = elem_name(t), *on = red_name(op);
    /* band and bor: from P = W on every bit is cleared or set, whichever rank and call. */
    int detects = !((op == RED_BAND || op == RED_BOR) && P >= (t == ELEM_BYTE ? 8 : 32));

    for (r = 0; r < P; r++) {
        data_fill_reduce(buf[r], t, op, COUNT, tag, r, P);
        check(data_check_contribution(buf[r], t, op, COUNT, tag, r, P) < 0,
              "%s %s P=%d: rank %d's contribution", tn, on, P, r);
        order[r] = r;
    }
    fold(out, buf, order, P, t, op);
    check(data_check_reduce(out, t, op, COUNT, tag, P) < 0, "%s %s P=%d: rank-order fold differs at %lld", tn,
          on, P, data_check_reduce(out, t, op, COUNT, tag, P));
    for (k = P - 1; k > 0; k--) { /* Fisher-Yates */
        r = (int)(rnd() % (uint64_t)(k + 1));
        tmp = order[k], order[k] = order[r], order[r] = tmp;
    }
    fold(out, buf, order, P, t, op);
    check(data_check_reduce(out, t, op, COUNT, tag, P) < 0, "%s %s P=%d: shuffled fold differs", tn, on, P);
    check(!detects || data_check_reduce(out, t, op, COUNT, tag + 1, P) >= 0,
          "%s %s P=%d: stale data accepted", tn, on, P);
    if (P > 1 && detects) {
        fold(out, buf, order, P - 1, t, op);
        check(data_check_reduce(out, t, op, COUNT, tag, P) >= 0, "%s %s P=%d: a missing rank accepted", tn,
              on, P);
    }
    if (P > 1 && (op == RED_SUM || op == RED_PROD)) {
        order[P] = order[0];
        fold(out, buf, order + 1, P, t, op); /* every rank once, then order[0] again */
        combine(out, buf[order[0]], t, op);
        check(data_check_reduce(out, t, op, COUNT, tag, P) >= 0, "%s %s P=%d: a doubled rank accepted", tn,
              on, P);
    }
    fold(out, buf, order, P, t, op);
    out[COUNT / 2 * elem_size(t)] ^= 1;
    check(data_check_reduce(out, t, op, COUNT, tag, P) == COUNT / 2,
          "%s %s P=%d: a flipped bit at %d not found", tn, on, P, COUNT / 2);
}

static void test_reduce_data(void)
{
    static const int procs[] = {1, 2, 3, 5, 8, 13, 33};
    int t, op;
    size_t p;

    unit_name = "test_papbench reduced data";
    for (t = 0; t < ELEM_NTYPES; t++)
        for (op = 0; op < RED_NOPS; op++)
            for (p = 0; red_valid((red_op_t)op, (elem_type_t)t) && p < sizeof procs / sizeof procs[0]; p++)
                test_reduce_one((elem_type_t)t, (red_op_t)op, procs[p]);
    check(red_valid(RED_SUM, ELEM_FLOAT) && red_valid(RED_BOR, ELEM_INT) && red_valid(RED_BAND, ELEM_BYTE) &&
              !red_valid(RED_SUM, ELEM_BYTE) && !red_valid(RED_MAX, ELEM_BYTE) &&
              !red_valid(RED_BAND, ELEM_DOUBLE),
          "red_valid");
    check(red_find("prod") == RED_PROD && red_find("xor") < 0, "red_find");
}

/* Parses the arguments (NULL-terminated) for P ranks; returns the status, err filled. */
static int parse(int P, bench_config_t *cfg, char *err, size_t errlen, ...)
{
    char *argv[32] = {"papbench"};
    int argc = 1, rc;
    va_list ap;

    va_start(ap, errlen);
    while (argc < 31 && (argv[argc] = va_arg(ap, char *)) != NULL)
        argc++;
    va_end(ap);
    err[0] = '\0';
    rc = config_parse(argc, argv, P, cfg, err, errlen);
    return rc;
}

static void test_config(void)
{
    static const struct {
        const char *args[4];
        const char *error;
    } bad[] = {
        {{"--op", "reduce", "--type", "byte"},
         "--reduce-op sum is not defined on --type byte (MPI_BYTE takes band"},
        {{"--op", "allreduce", "--reduce-op", "band"}, "--reduce-op band is not defined on --type float"},
        {{"--reduce-op", "max"}, "--reduce-op: only reduce and allreduce combine data (--op gather)"},
        {{"--op", "reduce", "--reduce-op", "xor"}, "--reduce-op: expected sum, max, min, prod, band or bor"},
        {{"--op", "allreduce", "--root", "1"}, "--root: allreduce has no root"},
        {{"--op", "alltoall"}, "--op: expected gather, scatter, bcast, reduce or allreduce, got 'alltoall'"},
        {{"--maxdelay", "2x", "--calibrate", "0"}, "--maxdelay 2x needs --calibrate N >= 1"},
        {{"--maxdelay", "-1x"},
         "--maxdelay: expected milliseconds (at most 3600000), or a factor 0 <= F <= 10000"},
        {{"--maxdelay", "1e5x"},
         "--maxdelay: expected milliseconds (at most 3600000), or a factor 0 <= F <= 10000"},
        {{"--maxdelay", "3600001"},
         "--maxdelay: expected at most 3600000 milliseconds (one hour), got '3600001'"},
        {{"--base-ms", "1e300"}, "--base-ms: expected at most 3600000 milliseconds (one hour), got '1e300'"},
        {{"--size", "3"},
         "--size: 3 elements leave every one of the 4 ranks an empty block; give at least 4"},
        {{"--op", "bcast", "--algos", "sls"}, "--algos: unknown bcast algorithm 'sls' (valid: mpi"},
        {{"--size", "3G"}, "--size: expected a positive number with optional K/M suffix, got '3G'"},
    };
    bench_config_t c;
    char err[512];
    size_t i;

    unit_name = "test_papbench configuration";
    for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        int rc = parse(4, &c, err, sizeof err, bad[i].args[0], bad[i].args[1], bad[i].args[2], bad[i].args[3],
                       NULL);

        check(rc == CLI_ERROR && strstr(err, bad[i].error) != NULL, "%s %s %s %s: %d '%s', expected '%s'",
              bad[i].args[0], bad[i].args[1], bad[i].args[2] ? bad[i].args[2] : "",
              bad[i].args[3] ? bad[i].args[3] : "", rc, err, bad[i].error);
        config_free(&c);
    }
    check(parse(4, &c, err, sizeof err, "--size", "1000", NULL) == CLI_OK && c.count == 250 &&
              c.op == PAPCOLL_OP_GATHER,
          "gather --size 1000 on 4 ranks: block %lld, expected 250", c.count);
    config_free(&c);
    check(parse(4, &c, err, sizeof err, "--op", "reduce", "--size", "1000", NULL) == CLI_OK &&
              c.count == 1000 && c.reduction && c.reduce_op == RED_SUM && c.calibrate == 0 &&
              c.maxdelay_rel == 0,
          "reduce --size 1000: count %lld, expected 1000 (every rank's vector)", c.count);
    check(c.nalgos == papcoll_algo_count(PAPCOLL_OP_REDUCE),
          "reduce: %d algorithms by default, the list has %d", c.nalgos,
          papcoll_algo_count(PAPCOLL_OP_REDUCE));
    config_free(&c);
    check(parse(3, &c, err, sizeof err, "--op", "allreduce", "--type", "int", "--reduce-op", "bor",
                "--maxdelay", "1.5x", "--pattern", "single:2", NULL) == CLI_OK &&
              c.maxdelay_rel == 1.5 && c.calibrate == CALIBRATE_DEFAULT && c.reduce_op == RED_BOR &&
              c.root == 0,
          "allreduce bor, --maxdelay 1.5x: factor %g, calibrate %ld (%s)", c.maxdelay_rel, c.calibrate, err);
    config_free(&c);
    check(parse(3, &c, err, sizeof err, "--maxdelay", "2x", "--calibrate", "3", NULL) == CLI_OK &&
              c.calibrate == 3,
          "--calibrate 3 with Fx kept: %ld", c.calibrate);
    config_free(&c);
}

int main(void)
{
    unit_rng = 0x13198A2E03707344ull;
    test_reduce_data();
    test_config();
    unit_name = "test_papbench";
    return unit_summary();
}

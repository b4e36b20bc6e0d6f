/*
 * papbench --trace FILE: libpaptrace records every call of every site
 * (docs/trace.md).  The trace stores papbench's effective configuration as
 * INI text, including the measured alpha and beta, which paptrace stats
 * then uses for the lower bound.
 */
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"
#include "data.h"

#define CONFIG_TEXT_MAX 4096

/* The effective configuration: keys are papbench's option names. */
static void config_text(const bench_t *b, char *buf, size_t len)
{
    const bench_config_t *c = b->cfg;
    size_t n;
    int a;

    n = (size_t)snprintf(buf, len, "[papbench]\nop = %s\nalgos = ", papcoll_op_name(c->op));
    for (a = 0; a < c->nalgos && n < len; a++)
        n += (size_t)snprintf(buf + n, len - n, "%s%s", a ? "," : "", papcoll_algo_name(c->op, c->algos[a]));
    if (n < len)
        snprintf(buf + n, len - n,
                 "\nsize = %lld\nblock = %lld\ntype = %s\niters = %ld\nwarmup = %ld\nmaxdelay = %g\n"
                 "base-ms = %g\npattern = %s\nseed = %llu\nsync = %s\nroot = %d\npredictor = %s\n"
                 "config = %s\nmonitor = %s\nbind = %s\nP = %d\n"
                 "# measured before the run (s, s/B): the root-port model of the lower bound\n"
                 "alpha = %.6g\nbeta = %.6g\ncredit = %.6g\n",
                 c->block * b->nprocs, c->block, elem_name(c->type), c->iters, c->warmup, c->maxdelay_ms,
                 c->base_ms, c->pattern_spec, (unsigned long long)c->seed, c->sync, c->root,
                 papcoll_predictor(b->ctx), c->config_file ? c->config_file : "",
                 papcoll_has_monitor(b->ctx) ? "yes" : "no", c->no_bind ? "no" : "yes", b->nprocs,
                 b->model.alpha, b->model.beta, b->model.credit);
}

int bench_trace_open(bench_t *b)
{
    char *text;
    paptrace_meta_t meta = {"papbench", b->argc, b->argv, NULL, 0};
    int rc;

    if (b->cfg->trace_path == NULL)
        return STATUS_OK;
    if ((text = malloc(CONFIG_TEXT_MAX)) != NULL)
        config_text(b, text, CONFIG_TEXT_MAX);
    meta.config_text = text;
    rc = paptrace_open(b->ctx, MPI_COMM_WORLD, b->cfg->trace_path, &meta, &b->trace);
    free(text);
    if (rc != PAPTRACE_OK) {
        if (b->rank == 0)
            fprintf(stderr, "papbench: --trace: '%s': %s\n", b->cfg->trace_path, paptrace_strerror(rc));
        return STATUS_USAGE;
    }
    return STATUS_OK;
}

void bench_trace_close(bench_t *b)
{
    int rc;

    if (b->trace == NULL)
        return;
    rc = paptrace_close(&b->trace);
    if (rc != PAPTRACE_OK && b->rank == 0)
        fprintf(stderr, "papbench: --trace: '%s': %s\n", b->cfg->trace_path, paptrace_strerror(rc));
}

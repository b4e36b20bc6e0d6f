/*
 * papbench --trace FILE: libpaptrace records every call of every site
 * (docs/trace.md).  The trace stores papbench's effective configuration as
 * INI text (config_text, the text all ranks agreed on) and after it what
 * was decided and measured before the loop, including alpha, beta, credit
 * and gamma, which paptrace stats then uses for the lower bound.
 */
#include <stdio.h>

#include "bench.h"

void bench_trace_extra(const bench_t *b, char *buf, size_t len)
{
    const bench_config_t *c = b->cfg;

    snprintf(buf, len,
             "# decided and measured before the run (s, s/B): the port model of the lower bound\n"
             "P = %d\npredictor-used = %s\nmonitor = %s\nbound-ranks = %d\n"
             "alpha = %.6g\nbeta = %.6g\ncredit = %.6g\ngamma = %.6g\n%s",
             b->nprocs, papcoll_predictor(b->app->ctx), papcoll_has_monitor(b->app->ctx) ? "yes" : "no",
             b->bind_ranks, b->model.alpha, b->model.beta, b->model.credit, b->model.gamma,
             c->maxdelay_rel > 0
                 ? "# maxdelay: a factor of the baseline's balanced run time, measured in the run\n"
                 : "");
}

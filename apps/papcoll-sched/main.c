/*
 * papcoll-sched: prints the Clairvoyant reduce schedule for given arrival
 * times (Marendic 2016, with the fixes and the fast generator of Proficz
 * 2020), without its bounces as the reduce executes it (--elide), or
 * benchmarks the two generators (--bench).  No MPI.
 *
 * Usage: papcoll-sched --help; format and examples: docs/clairvoyant.md.
 */
#include <stdio.h>
#include <string.h>

#include "config.h"
#include "papcoll.h"
#include "sched_app.h"
#include "timer.h"

/* From P x N cells on, generating and checking a schedule takes seconds
 * (P = N = 4096: about 15 s fast, 20 s reference): say so on stderr. */
#define LONG_CELLS (1L << 22)

/* Generates, validates and prints one schedule; a STATUS_*. */
static int run_one(const sched_config_t *cfg)
{
    papcoll__cv_sched_t s;
    char why[256];
    int rc, status = STATUS_OK, say = (long)cfg->P * cfg->N >= LONG_CELLS;
    double t0 = timer_now();

    if (say)
        fprintf(stderr, "papcoll-sched: generating the %s schedule for P = %d, N = %d\n",
                papcoll__cv_impl_name(cfg->impl), cfg->P, cfg->N);
    rc = papcoll__cv_generate(cfg->impl, cfg->P, cfg->N, cfg->d, cfg->root, cfg->pat, &s);
    if (rc != 0) {
        fprintf(stderr, "papcoll-sched: generation failed: %s\n", papcoll_strerror(rc));
        return STATUS_FAIL;
    }
    if (say)
        fprintf(stderr, "papcoll-sched: generated in %.1f s (%d rounds); checking and printing\n",
                timer_now() - t0, s.rounds);
    if (cfg->elide && papcoll__cv_check(&s, cfg->pat, why, sizeof why) == 0 && papcoll__cv_elide(&s) != 0) {
        fprintf(stderr, "papcoll-sched: elision failed: out of memory\n");
        papcoll__cv_free(&s);
        return STATUS_FAIL;
    }
    if (papcoll__cv_check(&s, cfg->pat, why, sizeof why) != 0) {
        fprintf(stderr, "papcoll-sched: internal error, the schedule is invalid: %s\n", why);
        status = STATUS_INVALID;
    } else if (print_schedule(stdout, &s, papcoll__cv_impl_name(cfg->impl)) != 0) {
        fprintf(stderr, "papcoll-sched: cannot write the schedule\n");
        status = STATUS_FAIL;
    }
    papcoll__cv_free(&s);
    return status;
}

int main(int argc, char **argv)
{
    sched_config_t cfg;
    char err[512];
    int status;

    /* Prolog: the command line, parsed and validated once. */
    status = config_parse(argc, argv, &cfg, err, sizeof err);
    if (status == CONFIG_HELP) {
        config_usage(stdout);
        return STATUS_OK;
    }
    if (status == CONFIG_ERROR) {
        fprintf(stderr, "papcoll-sched: %s\n", err);
        return STATUS_USAGE;
    }

    /* Loop: one schedule, or the benchmark's cells. */
    status = cfg.bench ? run_bench(&cfg) : run_one(&cfg);

    /* Epilog. */
    config_free(&cfg);
    return status;
}

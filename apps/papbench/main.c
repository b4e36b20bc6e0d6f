/*
 * papbench: micro-benchmark of papcoll's algorithms of one collective
 * (gather, scatter, bcast, reduce, allreduce) under emulated process
 * arrival patterns.
 *
 * The benchmark of Proficz 2020 (Sect. 5, Fig. 13) -- an iterative program
 * whose ranks compute for base + delay_i, report their progress to the PAT
 * monitor and then meet in the collective -- measured as Marendic 2016
 * (Alg. 2) measures: double barrier, interleaved algorithms, every result
 * validated, run time r = max f - min a and average elapsed time
 * e = mean(f_i - a_i) summarised by mean, median, spread and 95% CI, and
 * the efficiency against the op's lower bound (papmetrics.h).
 *
 * Usage and output formats: papbench --help, docs/papbench.md.
 */
#include <string.h>

#include "bench.h"

int main(int argc, char **argv)
{
    app_t app;
    bench_config_t cfg;
    bench_t b;
    int status;

    memset(&b, 0, sizeof b);

    /* Prolog: MPI, configuration agreed by all ranks, output directory, buffers,
     * network model, papcoll sites, trace. */
    app_start(&app, "papbench", &argc, &argv);
    status = app_configure(&app, &bench_config_ops, &cfg);
    if (status == APP_OK)
        status = bench_setup(&b, &app, &cfg);
    if (status == APP_OK)
        report_config(&b);

    /* Loop: calibration, warm-up and measured rounds of every algorithm, each call validated. */
    if (status == APP_OK)
        status = bench_measure(&b);

    /* Epilog: statistics, tables, result files; then the sites, trace and
     * context (app_close), the buffers, MPI, in reverse order of creation. */
    if (status == APP_OK)
        status = report_results(&b);
    status = app_worst(status, app_close(&app));
    bench_free(&b);
    config_free(&cfg);
    return app_finish(&app, status);
}

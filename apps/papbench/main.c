/*
 * papbench: micro-benchmark of papcoll's gather and scatter algorithms under
 * emulated process arrival patterns.
 *
 * The benchmark of Proficz 2020 (Sect. 5, Fig. 13) -- an iterative program
 * whose ranks compute for base + delay_i, report their progress to the PAT
 * monitor and then meet in the collective -- measured as Marendic 2016
 * (Alg. 2) measures: double barrier, interleaved algorithms, every result
 * validated, run time r = max f - min a and average elapsed time
 * e = mean(f_i - a_i) summarised by mean, median, spread and 95% CI.
 *
 * Usage and output formats: papbench --help, docs/papbench.md.
 */
#include <stdio.h>
#include <string.h>

#include "bench.h"
#include "config.h"

/* Internal status of read_config: --help was answered, stop without error. */
enum { STATUS_HELP_DONE = -1 };

static void start_mpi(int *argc, char ***argv, bench_t *b)
{
    /* Background algorithms need the monitor thread to call MPI concurrently. */
    MPI_Init_thread(argc, argv, MPI_THREAD_MULTIPLE, &b->thread_level);
    MPI_Comm_rank(MPI_COMM_WORLD, &b->rank);
    MPI_Comm_size(MPI_COMM_WORLD, &b->nprocs);
}

/*
 * Parses the command line on every rank.  Ranks may disagree (a replay file
 * readable on one node only): then the lowest failing rank tells why.
 */
static int read_config(int argc, char **argv, bench_t *b, bench_config_t *cfg)
{
    char err[1024];
    int rc = config_parse(argc, argv, b->nprocs, cfg, err, sizeof err);
    int mine = rc == CONFIG_ERROR ? b->rank : b->nprocs, first;

    MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (first < b->nprocs) {
        if (b->rank == first)
            fprintf(stderr, "papbench: %s\n", err);
        config_free(cfg);
        return STATUS_USAGE;
    }
    if (rc == CONFIG_HELP) {
        if (b->rank == 0)
            config_usage();
        return STATUS_HELP_DONE;
    }
    return STATUS_OK;
}

int main(int argc, char **argv)
{
    bench_config_t cfg;
    bench_t b;
    int status;

    memset(&b, 0, sizeof b);
    memset(&cfg, 0, sizeof cfg);
    b.argc = argc;
    b.argv = argv;

    /* Prolog: MPI, command line, output directory, buffers, clocks, papcoll sites. */
    start_mpi(&argc, &argv, &b);
    status = read_config(argc, argv, &b, &cfg);
    if (status == STATUS_OK)
        status = bench_setup(&b, &cfg);
    if (status == STATUS_OK)
        report_config(&b);

    /* Loop: warm-up and measured iterations of every algorithm, each validated. */
    if (status == STATUS_OK)
        status = bench_measure(&b);

    /* Epilog: statistics, tables, result files; then tear down in reverse order. */
    if (status == STATUS_OK)
        status = report_results(&b);
    bench_teardown(&b);
    config_free(&cfg);
    MPI_Finalize();
    return status == STATUS_HELP_DONE ? 0 : status;
}

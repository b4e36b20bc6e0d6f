/*
 * fft: the parallel FFT proxy application of Proficz 2020 (Sect. 6, Table 5).
 *
 * Master-slave radix-2 decimation-in-frequency FFT: every iteration rank 0
 * generates a new random signal, runs the first log2(P) DIF stages and sends
 * each rank its independent sub-sequence; every rank transforms its block
 * (own OpenMP kernel or FFTW) between the PAT monitor's processing start,
 * edge and end; the blocks return through one papcoll gather call site and
 * rank 0 restores natural order.  Validated against FFTW.
 *
 * Usage and output formats: fft --help, docs/fft.md.
 */
#include <stdio.h>
#include <string.h>

#include "fft.h"

/* Internal status of read_config: --help was answered, stop without error. */
enum { STATUS_HELP_DONE = -1 };

static void start_mpi(int *argc, char ***argv, fft_t *f)
{
    /* Background gather algorithms need the monitor thread to call MPI concurrently. */
    MPI_Init_thread(argc, argv, MPI_THREAD_MULTIPLE, &f->thread_level);
    MPI_Comm_rank(MPI_COMM_WORLD, &f->rank);
    MPI_Comm_size(MPI_COMM_WORLD, &f->nprocs);
}

/*
 * Parses the command line on every rank.  Ranks may disagree (a file
 * readable on one node only): then the lowest failing rank tells why.
 */
static int read_config(int argc, char **argv, fft_t *f, fft_config_t *cfg)
{
    char err[1024];
    int rc = fft_config_parse(argc, argv, f->nprocs, cfg, err, sizeof err);
    int mine = rc == FFT_CONFIG_ERROR ? f->rank : f->nprocs, first;

    MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (first < f->nprocs) {
        if (f->rank == first)
            fprintf(stderr, "fft: %s\n", err);
        return STATUS_USAGE;
    }
    if (rc == FFT_CONFIG_HELP) {
        if (f->rank == 0)
            fft_config_usage();
        return STATUS_HELP_DONE;
    }
    return STATUS_OK;
}

int main(int argc, char **argv)
{
    fft_config_t cfg;
    fft_t f;
    int status, down;

    memset(&f, 0, sizeof f);
    memset(&cfg, 0, sizeof cfg);
    f.argc = argc;
    f.argv = argv;

    /* Prolog: MPI, configuration, output directory, buffers and plans, papcoll site, trace. */
    start_mpi(&argc, &argv, &f);
    status = read_config(argc, argv, &f, &cfg);
    if (status == STATUS_OK)
        status = fft_setup(&f, &cfg);
    if (status == STATUS_OK)
        fft_report_config(&f);

    /* Loop: distribute, transform, gather, reorder; validate every K iterations. */
    if (status == STATUS_OK)
        status = fft_run(&f);

    /* Epilog: results, files, the validation line; then tear down in reverse order. */
    if (status == STATUS_OK || f.done > 0)
        status = fft_report(&f, status);
    down = fft_teardown(&f);
    if (status == STATUS_OK)
        status = down;
    fft_config_free(&cfg);
    MPI_Finalize();
    return status == STATUS_HELP_DONE ? 0 : status;
}

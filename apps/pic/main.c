/*
 * pic: a 2D electrostatic particle-in-cell proxy application with in-situ
 * sort-last rendering (the Helsim setting of Marendic et al. 2016, Sect. 3).
 *
 * Slabs along x over P ranks.  Every step each rank pushes its particles
 * (leapfrog, OpenMP), migrates those that left its slab to its neighbours
 * and deposits their charge (cloud-in-cell); a papcoll gather brings the
 * charge to rank 0, which solves Poisson's equation with FFTW, and a papcoll
 * scatter returns the field.  Every K steps each rank renders its particles
 * into a full-size RGBA + depth image and the images are composited onto
 * rank 0 (zbuffer or front-to-back over), which writes PNG frames.  The
 * imbalance comes from the physics: particles pile up on some slabs.
 * Validated against linear theory (two-stream growth, Landau damping).
 *
 * Usage and output formats: pic --help, docs/pic.md.
 */
#include <stdio.h>
#include <string.h>

#include "pic.h"

/* Internal status of read_config: --help was answered, stop without error. */
enum { STATUS_HELP_DONE = -1 };

static void start_mpi(int *argc, char ***argv, pic_t *f)
{
    /* Background papcoll algorithms need the monitor thread to call MPI concurrently. */
    MPI_Init_thread(argc, argv, MPI_THREAD_MULTIPLE, &f->thread_level);
    MPI_Comm_rank(MPI_COMM_WORLD, &f->rank);
    MPI_Comm_size(MPI_COMM_WORLD, &f->nprocs);
}

/* Parses the command line on every rank; the lowest failing rank tells why. */
static int read_config(int argc, char **argv, pic_t *f, pic_config_t *cfg)
{
    char err[1024];
    int rc = pic_config_parse(argc, argv, f->nprocs, cfg, err, sizeof err);
    int mine = rc == PIC_CONFIG_ERROR ? f->rank : f->nprocs, first;

    MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (first < f->nprocs) {
        if (f->rank == first)
            fprintf(stderr, "pic: %s\n", err);
        return STATUS_USAGE;
    }
    if (rc == PIC_CONFIG_HELP) {
        if (f->rank == 0)
            pic_config_usage();
        return STATUS_HELP_DONE;
    }
    return STATUS_OK;
}

int main(int argc, char **argv)
{
    pic_config_t cfg;
    pic_t f;
    int status, down;

    memset(&f, 0, sizeof f);
    memset(&cfg, 0, sizeof cfg);
    f.argc = argc;
    f.argv = argv;

    /* Prolog: MPI, configuration, particles, solver, papcoll sites, renderer, trace. */
    start_mpi(&argc, &argv, &f);
    status = read_config(argc, argv, &f, &cfg);
    if (status == STATUS_OK)
        status = pic_setup(&f, &cfg);
    if (status == STATUS_OK)
        pic_report_config(&f);

    /* Loop: push, migrate, deposit, gather, solve, scatter; render and composite every K steps. */
    if (status == STATUS_OK)
        status = pic_run(&f);

    /* Epilog: results, files, the validation line; then tear down in reverse order. */
    if (status == STATUS_OK || f.done > 0)
        status = pic_report(&f, status);
    down = pic_teardown(&f);
    if (status == STATUS_OK)
        status = down;
    pic_config_free(&cfg);
    MPI_Finalize();
    return status == STATUS_HELP_DONE ? 0 : status;
}

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
#include <string.h>

#include "pic.h"

int main(int argc, char **argv)
{
    app_t app;
    pic_config_t cfg;
    pic_t f;
    int status;

    memset(&f, 0, sizeof f);

    /* Prolog: MPI, configuration agreed by all ranks, particles, solver, papcoll sites, renderer, trace. */
    app_start(&app, "pic", &argc, &argv);
    status = app_configure(&app, &pic_config_ops, &cfg);
    if (status == APP_OK)
        status = pic_setup(&f, &app, &cfg);
    if (status == APP_OK)
        pic_report_config(&f);

    /* Loop: push, migrate, deposit, gather, solve, scatter; render and composite every K steps. */
    if (status == APP_OK)
        status = pic_run(&f);

    /* Epilog: results, files, the validation line; then the sites, trace and
     * context (app_close), the rest, MPI, in reverse order of creation. */
    if (status == APP_OK || f.done > 0)
        status = pic_report(&f, status);
    status = app_worst(status, app_close(&app));
    pic_free(&f);
    pic_config_free(&cfg);
    return app_finish(&app, status);
}

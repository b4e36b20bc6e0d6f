/*
 * PIC proxy prolog, loop driver and teardown (the step itself: step.c).
 */
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pic.h"
#include "timer.h"


void pic_die(const pic_t *f, long k, const char *what, int rc)
{
    char where[64];

    snprintf(where, sizeof where, "step %ld", k + 1);
    app_die(f->app, what, where, rc);
}

static void *zalloc(size_t n, size_t sz, int *ok)
{
    void *p = calloc(n ? n : 1, sz);

    *ok = *ok && p != NULL;
    return p;
}

/* Rank 0: DIR, DIR/frames and DIR/openpmd as needed. */
static int make_out_dirs(const pic_t *f)
{
    const pic_config_t *c = f->cfg;
    char path[1024];
    int status = app_mkdir(f->app, c->out_dir);

    if (status == APP_OK && c->out_dir != NULL && c->frames && c->frame_every > 0) {
        snprintf(path, sizeof path, "%s/frames", c->out_dir);
        status = app_mkdir(f->app, path);
    }
    if (status == APP_OK && c->out_dir != NULL && c->snapshot_every > 0) {
        snprintf(path, sizeof path, "%s/openpmd", c->out_dir);
        status = app_mkdir(f->app, path);
    }
    return status;
}

/* The particles this node's ranks keep, about N / P each, must fit its
 * memory.  Every rank walks all N to load its own (the quiet starts index
 * the whole set), so a count far beyond the memory would run for long and
 * then fail.  A necessary condition only: the beam gathers up to about 3
 * times the mean on the slabs its cloud crosses (docs/pic.md). */
static int check_memory(const pic_t *f)
{
    double have = (double)sysconf(_SC_PHYS_PAGES) * (double)sysconf(_SC_PAGESIZE), need;
    MPI_Comm node;
    int local = 1;

    if (MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, f->rank, MPI_INFO_NULL, &node) ==
        MPI_SUCCESS) {
        MPI_Comm_size(node, &local);
        MPI_Comm_free(&node);
    }
    need = (double)f->pb.n_total / f->nprocs * (double)sizeof(pic_particle_t) * local;
    if (have > 0 && need > have) {
        if (f->rank == 0)
            fprintf(stderr,
                    "pic: %lld particles need about %.1f GiB on a node of %d ranks (N/P of %zu bytes each), "
                    "the node has %.1f GiB; use fewer particles or more nodes\n",
                    f->pb.n_total, need / 1073741824.0, local, sizeof(pic_particle_t), have / 1073741824.0);
        return APP_USAGE;
    }
    if (f->rank == 0 && !f->cfg->quiet)
        fprintf(stderr, "pic: loading %lld particles (every rank walks all of them and keeps about %lld)\n",
                f->pb.n_total, f->pb.n_total / f->nprocs);
    return APP_OK;
}

/* Particles, field blocks, the root's solver and diagnostics, records. */
static int alloc_state(pic_t *f)
{
    const pic_config_t *c = f->cfg;
    size_t gb = (size_t)pic_gather_block(&f->grid), sb = (size_t)pic_scatter_block(&f->grid);
    size_t P = (size_t)f->nprocs, n = (size_t)c->steps + 1;
    int ok = pic_problem_load(&f->pb, &f->grid, &f->parts) == 0;

    f->rho = zalloc(gb, sizeof(double), &ok);
    f->efield = zalloc(sb, sizeof(double), &ok);
    f->rec = zalloc(n * REC_FIELDS, sizeof(double), &ok);
    if (f->rank == 0) {
        pic_diag_t *d = &f->diag;

        f->gathered = zalloc(P * gb, sizeof(double), &ok);
        f->scatter_out = zalloc(P * sb, sizeof(double), &ok);
        d->t = zalloc(n, sizeof(double), &ok);
        d->kinetic = zalloc(n, sizeof(double), &ok);
        d->field = zalloc(n, sizeof(double), &ok);
        d->mode1 = zalloc(n, sizeof(double), &ok);
        d->solve = zalloc(n, sizeof(double), &ok);
        d->png = zalloc(n, sizeof(double), &ok);
        d->snapshot = zalloc(n, sizeof(double), &ok);
        d->lost_step = -1;
        ok = ok && pic_solver_init(&f->solver, c->nx, c->ny, f->pb.lx, f->pb.ly) == 0;
    }
    if (!ok) {
        fprintf(stderr, "pic: rank %d: out of memory (or FFTW planning failed)\n", f->rank);
        return APP_FAILED;
    }
    return APP_OK;
}

/* Renderer, pixel operations, the root's frame, IceT. */
static int alloc_render(pic_t *f)
{
    const pic_config_t *c = f->cfg;
    const pic_problem_info_t *in = f->pb.info;
    size_t npix = (size_t)c->width * (size_t)c->height;
    int ok = 1;

    if (c->frame_every == 0)
        return APP_OK;
    ok = pic_renderer_init(&f->render, c->composite, c->width, c->height, f->pb.lx, f->pb.ly, in->vmin,
                           in->vmax) == 0;
    /* create sets every handle first, so teardown may free after any outcome */
    f->ops_ready = ok;
    ok = ok && pic_pixel_ops_create(&f->ops) == 0;
    if (f->rank == 0) {
        f->frame = zalloc(npix, pic_pixel_size(c->composite), &ok);
        f->rgb = zalloc(npix, 3, &ok);
    }
    if (!ok) {
        fprintf(stderr, "pic: rank %d: out of memory for %dx%d images\n", f->rank, c->width, c->height);
        return APP_FAILED;
    }
    return APP_OK;
}

static int start_icet(pic_t *f)
{
    const pic_config_t *c = f->cfg;

    if (c->icet < 0 || c->frame_every == 0)
        return APP_OK;
    if (pic_icet_init(&f->icet, MPI_COMM_WORLD, c->icet, c->composite, c->width, c->height) != 0) {
        fprintf(stderr, "pic: rank %d: IceT could not be set up\n", f->rank);
        return APP_FAILED;
    }
    return APP_OK;
}

/* One line naming what the user gave when papcoll refuses it. */
static void papcoll_error(const pic_t *f, const char *what, int rc)
{
    char valid[256];

    if ((rc == PAPCOLL_ERR_ALGO || rc == PAPCOLL_ERR_POLICY) && strcmp(what, "--composite-algo") == 0)
        fprintf(stderr, "pic: --composite-algo '%s': %s (reduce algorithms: %s)\n",
                pic_config_composite_algo(f->cfg), papcoll_strerror(rc),
                papcoll_algo_list(PAPCOLL_OP_REDUCE, valid, sizeof valid));
    else if (rc == PAPCOLL_ERR_ALGO || rc == PAPCOLL_ERR_POLICY)
        fprintf(stderr, "pic: %s: unknown algorithm from $PAPCOLL_GATHER_ALGORITHM / $PAPCOLL_SCATTER_ALGORITHM "
                        "or the papcoll configuration\n",
                what);
    else if (rc == PAPCOLL_ERR_CONFIG || rc == PAPCOLL_ERR_PREDICTOR)
        fprintf(stderr, "pic: %s: %s (check [papcoll] of --config, $PAPCOLL_CONFIG, $PAPCOLL_PREDICTOR)\n", what,
                papcoll_strerror(rc));
    else
        fprintf(stderr, "pic: rank %d: %s: %s\n", f->rank, what, papcoll_strerror(rc));
}

static int start_papcoll(pic_t *f)
{
    const pic_config_t *c = f->cfg;
    papcoll_options_t opts = {0};
    int gb = (int)pic_gather_block(&f->grid), sb = (int)pic_scatter_block(&f->grid), rc;
    const char *what = "papcoll_init";

    opts.config_file = c->config_papcoll ? c->config_file : NULL;
    opts.policy_default[PAPCOLL_OP_REDUCE] = pic_config_composite_default(c);
    rc = app_papcoll(f->app, &opts);
    if (rc == PAPCOLL_OK && (what = "charge gather site") != NULL)
        rc = app_site(f->app, "pic-charge", PAPCOLL_OP_GATHER, c->gather_algo, &f->gather);
    if (rc == PAPCOLL_OK && (what = "field scatter site") != NULL)
        rc = app_site(f->app, "pic-field", PAPCOLL_OP_SCATTER, c->scatter_algo, &f->scatter);
    /* The compositing reduction, unless IceT composites. */
    if (rc == PAPCOLL_OK && c->icet < 0 && (c->frame_every > 0 || c->composite_algo != NULL) &&
        (what = "--composite-algo") != NULL)
        rc = app_site(f->app, "pic-image", PAPCOLL_OP_REDUCE, c->composite_algo, &f->image);
    if (rc == PAPCOLL_OK && c->frame_every <= 0 &&
        f->image != NULL) /* no frames: it only checked the policy */
        papcoll_site_free(&f->image);
    if (rc == PAPCOLL_OK && f->image != NULL && c->sparse && (what = "the compositing's identity") != NULL) {
        pic_zpixel_t zbg;
        pic_opixel_t obg;
        int over = c->composite == PIC_COMPOSITE_OVER;

        pic_background(c->composite, over ? (void *)&obg : (void *)&zbg);
        rc = papcoll_site_set_identity(f->image, over ? (void *)&obg : (void *)&zbg,
                                       pic_pixel_size(c->composite));
    }
    /* Persistent receive buffers: the root's charge blocks, the other ranks' field block. */
    if (rc == PAPCOLL_OK && f->rank == 0)
        rc = papcoll_site_bind_recv(f->gather, f->gathered, gb, MPI_DOUBLE);
    if (rc == PAPCOLL_OK && f->rank != 0)
        rc = papcoll_site_bind_recv(f->scatter, f->efield, sb, MPI_DOUBLE);
    if (rc != PAPCOLL_OK) {
        if (f->rank == 0 || (rc != PAPCOLL_ERR_ALGO && rc != PAPCOLL_ERR_POLICY))
            papcoll_error(f, what, rc);
    }
    return app_papcoll_status(rc);
}

int pic_setup(pic_t *f, app_t *app, const pic_config_t *cfg)
{
    int status;

    f->cfg = cfg;
    f->app = app;
    f->rank = app->rank;
    f->nprocs = app->nprocs;
    f->push_share = f->render_share = 0.5;
    omp_set_num_threads(cfg->threads);
    pic_problem_init(&f->pb, cfg->problem, cfg->ny, cfg->particles);
    pic_grid_init(&f->grid, cfg->nx, cfg->ny, f->pb.lx, f->pb.ly, f->nprocs, f->rank);
    status = app_agree(make_out_dirs(f));
    if (status == APP_OK)
        status = app_agree(check_memory(f));
    if (status == APP_OK)
        status = app_agree(alloc_state(f));
    if (status == APP_OK)
        status = app_agree(alloc_render(f));
    if (status == APP_OK)
        status = app_agree(start_icet(f));
    if (status == APP_OK)
        status = app_agree(start_papcoll(f));
    if (status == APP_OK)
        status = app_trace_open(app, cfg->trace_file, NULL);
    return status;
}

/* Rank 0, at most every 2 s, on stderr. */
static void progress(pic_t *f, long k)
{
    const pic_diag_t *d = &f->diag;
    double t = app_progress_due(f->app, f->cfg->quiet);

    if (t >= 0)
        fprintf(stderr, "pic: %8.1f s  step %ld/%ld  t = %.2f  |E1| %.3e  energy drift %.2e  frames %ld\n", t,
                k + 1, f->cfg->steps, (k + 1) * f->cfg->dt, d->mode1[k + 1], d->max_energy_drift,
                f->frames_done);
}

/* Every record to rank 0, after the loop. */
static int collect(pic_t *f)
{
    size_t n = (size_t)f->done * REC_FIELDS, P = (size_t)f->nprocs;
    int ok = 1;

    if (f->rank == 0)
        f->all_rec = zalloc(n * P, sizeof(double), &ok);
    if (app_agree(ok ? APP_OK : APP_FAILED) != APP_OK) {
        if (f->rank == 0)
            fprintf(stderr, "pic: out of memory collecting the records\n");
        return APP_FAILED;
    }
    MPI_Gather(f->rec, (int)n, MPI_DOUBLE, f->all_rec, (int)n, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    return APP_OK;
}

int pic_run(pic_t *f)
{
    int status, cstatus;
    long k;
    double t0 = app_loop_start(f->app);

    status = pic_initial_field(f);
    for (k = 0; k < f->cfg->steps && status == APP_OK; k++) {
        status = pic_step(f, k);
        f->done = k + 1;
        progress(f, k);
    }
    f->total_time = timer_now() - t0;
    cstatus = collect(f);
    return status != APP_OK ? status : cstatus;
}

void pic_free(pic_t *f)
{
    pic_diag_t *d = &f->diag;

    pic_icet_free(&f->icet);
    if (f->ops_ready)
        pic_pixel_ops_free(&f->ops);
    pic_renderer_free(&f->render);
    pic_solver_free(&f->solver);
    pic_parts_free(&f->parts);
    free(f->rho);
    free(f->efield);
    free(f->gathered);
    free(f->scatter_out);
    free(f->frame);
    free(f->rgb);
    free(f->rec);
    free(f->all_rec);
    free(d->t);
    free(d->kinetic);
    free(d->field);
    free(d->mode1);
    free(d->solve);
    free(d->png);
    free(d->snapshot);
}

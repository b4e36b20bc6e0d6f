/*
 * One time step of the PIC proxy (see pic.h):
 *
 *   every rank:  [PAT window of the charge gather]
 *                  push (leapfrog, OpenMP)  -- edge --  migrate  deposit
 *                papcoll_gather(charge blocks -> rank 0)
 *   rank 0:      [PAT window of the field scatter]
 *                  fold, forward FFT, E_k  -- edge --  inverse FFTs, pack
 *                papcoll_scatter(field blocks -> every rank)
 *   every K steps:
 *                [PAT window of the compositing]
 *                  render first half  -- edge --  second half (+ depth sort for over)
 *                papcoll_reduce(images -> rank 0, the pixel op), or IceT
 *                rank 0 writes the PNG
 *   every M steps: openPMD snapshot (snapshot.c)
 *
 * The gather block carries each rank's kinetic energy and particle counts
 * after its charge, and the scatter block carries rank 0's stop flag after
 * the field, so diagnostics and the decision to stop need no extra
 * collective and every rank leaves the loop after the same step.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "frame.h"
#include "pic.h"
#include "timer.h"

#define DEFAULT_SHARE 0.5

/* Share of the work done before the edge (last step's measurement), kept off 0 and 1. */
static double share(double first, double total)
{
    double s = total > 0.0 ? first / total : DEFAULT_SHARE;

    return s < 0.05 ? 0.05 : s > 0.95 ? 0.95 : s;
}

static void mark(pic_t *f, papcoll_site_t *site, long k, int which, double fraction)
{
    int rc = which == 0   ? papcoll_processing_start(site)
             : which == 1 ? papcoll_edge(site, fraction)
                          : papcoll_processing_end(site);

    if (rc != PAPCOLL_OK)
        pic_die(f, k, which == 0 ? "papcoll_processing_start" : which == 1 ? "papcoll_edge" : "papcoll_processing_end",
                rc);
}

/* Counts per species and the status of this rank, after the charge. */
static void fill_extras(pic_t *f, double kinetic, long far, int status)
{
    double *x = f->rho + pic_block_nodes(&f->grid);
    long long count[PIC_MAX_SPECIES] = {0};
    long i;

    for (i = 0; i < f->parts.n; i++)
        count[f->parts.p[i].sp]++;
    x[GX_KINETIC] = kinetic;
    x[GX_COUNT0] = (double)count[0];
    x[GX_COUNT1] = (double)count[1];
    x[GX_FAR] = (double)far;
    x[GX_STATUS] = status;
}

/* Push, migrate, deposit inside the gather site's PAT window; then the gather. */
static void charge_phase(pic_t *f, long k)
{
    double *r = &f->rec[k * REC_FIELDS], t0, t1, t2, t3, ke;
    int gb = (int)pic_gather_block(&f->grid), rc;
    long sent = 0, far = 0;
    papcoll_timing_t tm;

    mark(f, f->gather, k, 0, 0);
    t0 = timer_now();
    ke = pic_push(&f->grid, f->pb.species, f->efield, f->parts.p, 0, f->parts.n, f->cfg->dt);
    t1 = timer_now();
    mark(f, f->gather, k, 1, f->push_share);
    rc = pic_migrate(&f->grid, &f->parts, MPI_COMM_WORLD, &sent, &far);
    /* Test-only (PIC_FAULT_ENV): a lost particle the validation must catch. */
    if (f->cfg->fault == PIC_FAULT_DROP && f->rank == f->cfg->fault_rank && k == 4 && f->parts.n > 0)
        f->parts.n--;
    t2 = timer_now();
    pic_deposit(&f->grid, f->pb.species, f->parts.p, f->parts.n, f->rho);
    t3 = timer_now();
    mark(f, f->gather, k, 2, 0);
    fill_extras(f, ke, far, rc != 0);
    r[REC_PUSH] = t1 - t0;
    r[REC_MIGRATE] = t2 - t1;
    r[REC_DEPOSIT] = t3 - t2;
    r[REC_COUNT] = (double)f->parts.n;
    r[REC_SENT] = (double)sent;
    f->push_share = share(t1 - t0, t3 - t0);
    rc = papcoll_gather(f->gather, f->rho, gb, MPI_DOUBLE, f->gathered, gb, MPI_DOUBLE, 0);
    if (rc != PAPCOLL_OK)
        pic_die(f, k, "papcoll_gather", rc);
    papcoll_site_last_timing(f->gather, &tm);
    r[REC_G_ARR] = tm.arrival;
    r[REC_G_EXIT] = tm.exit;
}

/* Rank 0: the ranks' extras; returns the stop reason. */
static int check_extras(pic_t *f, long k, double *kinetic)
{
    pic_diag_t *d = &f->diag;
    long nb = pic_gather_block(&f->grid), nodes = pic_block_nodes(&f->grid);
    long long count[PIC_MAX_SPECIES] = {0, 0};
    double far = 0, bad = 0;
    int r, s;

    *kinetic = 0.0;
    for (r = 0; r < f->nprocs; r++) {
        const double *x = f->gathered + r * nb + nodes;

        *kinetic += x[GX_KINETIC];
        count[0] += (long long)x[GX_COUNT0];
        count[1] += (long long)x[GX_COUNT1];
        far += x[GX_FAR];
        bad = fmax(bad, x[GX_STATUS]);
    }
    if (k < 0) {
        memcpy(d->count0, count, sizeof count);
        return STOP_NONE;
    }
    for (s = 0; s < PIC_MAX_SPECIES; s++)
        if (count[s] != d->count0[s] && d->lost_step < 0) {
            d->lost_step = (int)k;
            d->lost = d->count0[s] - count[s];
        }
    return bad > 0 ? STOP_MEMORY : far > 0 ? STOP_FAR : d->lost_step >= 0 ? STOP_LOST : STOP_NONE;
}

/* Rank 0: particle charge from the counts (exact), and the grid's charge against it. */
static void check_charge(pic_t *f, long k)
{
    pic_diag_t *d = &f->diag;
    double q = 0.0, scale = 0.0, err;
    int s;

    for (s = 0; s < f->pb.nspecies; s++) {
        const pic_species_t *sp = &f->pb.species[s];

        q += (double)d->count0[s] * sp->q * sp->w;
        scale += (double)d->count0[s] * fabs(sp->q) * sp->w;
    }
    if (k < 0)
        d->charge0 = q;
    err = fabs(f->solver.charge - q) / scale;
    if (!(err <= d->max_charge_err))
        d->max_charge_err = err;
}

/* Rank 0, inside the scatter site's PAT window: diagnostics, the solve, the packed field. */
static void solve_phase(pic_t *f, long k)
{
    pic_diag_t *d = &f->diag;
    double t0, t1, ke, w, w0;
    int stop;

    mark(f, f->scatter, k, 0, 0);
    t0 = timer_now();
    stop = check_extras(f, k, &ke);
    pic_solver_fold(&f->solver, &f->grid, f->gathered);
    pic_solver_forward(&f->solver);
    mark(f, f->scatter, k, 1, DEFAULT_SHARE);
    pic_solver_inverse(&f->solver);
    if (f->cfg->fault == PIC_FAULT_FIELD) /* test-only: wrong physics the rate check must catch */
        pic_solver_scale(&f->solver, 0.5);
    check_charge(f, k);
    if (k >= 0) {
        d->kinetic[k] = ke;
        w = ke + d->field[k];
        w0 = d->kinetic[0] + d->field[0];
        if (!(fabs(w - w0) / w0 <= d->max_energy_drift))
            d->max_energy_drift = fabs(w - w0) / w0;
    }
    d->t[k + 1] = (k + 1) * f->cfg->dt;
    d->field[k + 1] = f->solver.field_energy;
    d->mode1[k + 1] = f->solver.mode1;
    if (stop != STOP_NONE && f->stop_reason == STOP_NONE)
        f->stop_reason = stop;
    pic_solver_pack(&f->solver, &f->grid, f->scatter_out, stop != STOP_NONE);
    t1 = timer_now();
    mark(f, f->scatter, k, 2, 0);
    d->solve[k + 1] = t1 - t0;
}

/* The scatter of the field; returns the stop flag rank 0 packed. */
static int field_phase(pic_t *f, long k)
{
    double *r = k >= 0 ? &f->rec[k * REC_FIELDS] : NULL;
    int sb = (int)pic_scatter_block(&f->grid), rc;
    papcoll_timing_t tm;

    if (f->rank == 0)
        solve_phase(f, k);
    rc = papcoll_scatter(f->scatter, f->scatter_out, sb, MPI_DOUBLE, f->efield, sb, MPI_DOUBLE, 0);
    if (rc != PAPCOLL_OK)
        pic_die(f, k, "papcoll_scatter", rc);
    papcoll_site_last_timing(f->scatter, &tm);
    if (r != NULL) {
        r[REC_S_ARR] = tm.arrival;
        r[REC_S_EXIT] = tm.exit;
    }
    return f->efield[2 * pic_block_nodes(&f->grid) + SX_STOP] != 0.0;
}

int pic_initial_field(pic_t *f)
{
    int gb = (int)pic_gather_block(&f->grid), rc, stop;

    pic_deposit(&f->grid, f->pb.species, f->parts.p, f->parts.n, f->rho);
    fill_extras(f, 0.0, 0, 0);
    rc = papcoll_gather(f->gather, f->rho, gb, MPI_DOUBLE, f->gathered, gb, MPI_DOUBLE, 0);
    if (rc != PAPCOLL_OK)
        pic_die(f, -1, "papcoll_gather", rc);
    stop = field_phase(f, -1);
    pic_push_back_half(&f->grid, f->pb.species, f->efield, f->parts.p, f->parts.n, f->cfg->dt);
    return stop ? STATUS_FAILED : STATUS_OK;
}

/* Renders this rank's particles inside the compositing site's PAT window (when there is a site). */
static void render_phase(pic_t *f, long k)
{
    long half = f->parts.n / 2;
    double t0, t1, t2;

    if (f->image != NULL)
        mark(f, f->image, k, 0, 0);
    t0 = timer_now();
    pic_render_begin(&f->render);
    if (pic_render_add(&f->render, f->parts.p, half) != 0) {
        fprintf(stderr, "pic: rank %d: out of memory rendering step %ld\n", f->rank, k + 1);
        MPI_Abort(MPI_COMM_WORLD, STATUS_FAILED);
    }
    t1 = timer_now();
    if (f->image != NULL)
        mark(f, f->image, k, 1, f->render_share);
    if (pic_render_add(&f->render, f->parts.p + half, f->parts.n - half) != 0) {
        fprintf(stderr, "pic: rank %d: out of memory rendering step %ld\n", f->rank, k + 1);
        MPI_Abort(MPI_COMM_WORLD, STATUS_FAILED);
    }
    pic_render_end(&f->render);
    t2 = timer_now();
    if (f->image != NULL)
        mark(f, f->image, k, 2, 0);
    f->rec[k * REC_FIELDS + REC_RENDER] = t2 - t0;
    f->render_share = share(t1 - t0, t2 - t0);
}

/* The images onto rank 0's frame: the papcoll reduce site, or IceT. */
static void composite_phase(pic_t *f, long k)
{
    const pic_config_t *c = f->cfg;
    int npix = c->width * c->height, zb = c->composite == PIC_COMPOSITE_ZBUFFER, rc;
    double *r = &f->rec[k * REC_FIELDS];
    papcoll_timing_t tm;

    if (f->image != NULL) {
        rc = papcoll_reduce(f->image, f->render.image, f->rank == 0 ? f->frame : NULL, npix,
                            zb ? f->ops.ztype : f->ops.otype, zb ? f->ops.zop : f->ops.oop, 0);
        if (rc != PAPCOLL_OK)
            pic_die(f, k, "papcoll_reduce", rc);
        papcoll_site_last_timing(f->image, &tm);
        r[REC_C_ARR] = tm.arrival;
        r[REC_C_EXIT] = tm.exit;
        return;
    }
    r[REC_C_ARR] = papcoll_wtime(f->ctx);
    rc = pic_icet_composite(f->icet, f->render.image, f->frame);
    r[REC_C_EXIT] = papcoll_wtime(f->ctx);
    if (rc != 0) {
        fprintf(stderr, "pic: rank %d: IceT compositing failed at step %ld\n", f->rank, k + 1);
        MPI_Abort(MPI_COMM_WORLD, STATUS_FAILED);
    }
}

/* Rank 0: the frame as PNG in OUT/frames/. */
static void write_frame(pic_t *f, long k)
{
    const pic_config_t *c = f->cfg;
    char err[1200];
    double t0 = timer_now();

    snprintf(f->last_frame, sizeof f->last_frame, "%s/frames/frame_%06ld.png", c->out_dir, k + 1);
    pic_image_to_rgb(c->composite, f->frame, c->width, c->height, f->rgb);
    if (pic_png_write(f->last_frame, c->width, c->height, f->rgb, err, sizeof err) != 0) {
        fprintf(stderr, "pic: %s\n", err);
        MPI_Abort(MPI_COMM_WORLD, STATUS_FAILED);
    }
    if (f->frames_written++ == 0)
        memcpy(f->first_frame, f->last_frame, sizeof f->first_frame);
    f->diag.png[k + 1] = timer_now() - t0;
}

static int is_every(long k, long every)
{
    return every > 0 && (k + 1) % every == 0;
}

int pic_step(pic_t *f, long k)
{
    const pic_config_t *c = f->cfg;
    double *r = &f->rec[k * REC_FIELDS];
    char err[1200];
    int stop;

    r[REC_RENDER] = 0.0;
    r[REC_C_ARR] = r[REC_C_EXIT] = NAN;
    charge_phase(f, k);
    stop = field_phase(f, k);
    if (is_every(k, c->frame_every)) {
        render_phase(f, k);
        composite_phase(f, k);
        f->frames_done++;
        if (f->rank == 0 && c->frames && c->out_dir != NULL)
            write_frame(f, k);
    }
    if (is_every(k, c->snapshot_every)) {
        double t0 = timer_now();

        if (pic_snapshot(f, k + 1, err, sizeof err) != 0) {
            if (f->rank == 0)
                fprintf(stderr, "pic: snapshot: %s\n", err);
            return STATUS_FAILED;
        }
        if (f->rank == 0)
            f->diag.snapshot[k + 1] = timer_now() - t0;
    }
    return stop ? STATUS_FAILED : STATUS_OK;
}

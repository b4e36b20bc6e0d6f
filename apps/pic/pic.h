/*
 * The PIC proxy's run state, shared by its phases:
 *
 *   run.c       prolog (grid, particles, field solver, papcoll context and
 *               sites, renderer, compositor, trace) and teardown;
 *   step.c      the time step: push, migrate, deposit, gather, solve,
 *               scatter, render, composite, frames, snapshots;
 *   snapshot.c  openPMD snapshots (particles gathered to rank 0);
 *   report.c    configuration banner, validation, summary.json, steps.csv.
 *
 * Every rank keeps its own per-step timings; they reach rank 0 by one
 * MPI_Gather after the loop, off the timed path.
 */
#ifndef PIC_PIC_H
#define PIC_PIC_H

#include "composite.h"
#include "config.h"
#include "field.h"
#include "fit.h"
#include "icet.h"
#include "papcoll.h"
#include "paptrace.h"
#include "particles.h"
#include "problem.h"
#include "render.h"

/* Per-step record of one rank (seconds; call arrival and exit on papcoll's global clock, NaN: no call). */
enum {
    REC_PUSH,
    REC_MIGRATE,
    REC_DEPOSIT,
    REC_RENDER,
    REC_G_ARR, /* charge gather */
    REC_G_EXIT,
    REC_S_ARR, /* field scatter */
    REC_S_EXIT,
    REC_C_ARR, /* image compositing */
    REC_C_EXIT,
    REC_COUNT, /* particles after migration */
    REC_SENT,  /* particles migrated away */
    REC_FIELDS
};

/* Rank 0, per step: diagnostics and its own phases. */
typedef struct {
    double *t;          /* time of the field solve's result: (k + 1) dt */
    double *kinetic;    /* at t_k (time-centred, from the push of step k) */
    double *field;      /* field energy at t_k */
    double *mode1;      /* |E| of the seeded mode at t_k (index 0: initial) */
    double *solve;      /* root's fold + FFTs + pack (s) */
    double *png;        /* frame writing (s) */
    double *snapshot;   /* openPMD writing incl. the particle gather (s) */
    double charge0;     /* total particle charge at t = 0 */
    double max_charge_err;  /* max |grid charge - particle charge| / scale */
    double max_energy_drift;
    long long count0[PIC_MAX_SPECIES];
    int lost_step;      /* first step with a changed count, -1: none */
    long long lost;     /* particles missing there */
} pic_diag_t;

typedef struct {
    const pic_config_t *cfg;
    int rank, nprocs;
    int thread_level;
    int argc;
    char **argv;
    pic_problem_t pb;
    pic_grid_t grid;
    pic_parts_t parts;
    double *rho;     /* gather block: charge nodes + GX_FIELDS */
    double *efield;  /* scatter block: field nodes + SX_FIELDS */
    double *gathered, *scatter_out; /* rank 0: P blocks each */
    pic_solver_t solver;            /* rank 0 */
    papcoll_ctx_t *ctx;
    papcoll_site_t *gather, *scatter, *image; /* image: the compositing reduce (NULL: IceT or no frames) */
    papcoll_clock_t clock;
    paptrace_t *trace;
    pic_renderer_t render;
    pic_pixel_ops_t ops;
    int ops_ready;    /* ops created (MPI handles to free) */
    pic_icet_t *icet;
    void *frame;      /* rank 0: the composited image */
    uint8_t *rgb;     /* rank 0: frame for PNG */
    pic_diag_t diag;  /* rank 0 */
    double *rec;      /* REC_FIELDS per step */
    long done;        /* steps completed (equal on all ranks) */
    long frames_done, frames_written, snapshots;
    char first_frame[512], last_frame[512], last_snapshot[512];
    double push_share, render_share; /* last step's share of the work before the edge */
    double total_time;                /* rank 0: the loop */
    double *all_rec;                  /* rank 0 after the loop: P x done x REC_FIELDS */
    int stop_reason;                  /* rank 0: why the run stopped early (STOP_*) */
    double t_wall, last_progress;
} pic_t;

/* Exit statuses. */
enum { STATUS_OK = 0, STATUS_FAILED = 1, STATUS_USAGE = 2 };

/* Why rank 0 stopped the run (SX_STOP): */
enum { STOP_NONE = 0, STOP_FAR = 1, STOP_MEMORY = 2, STOP_LOST = 3 };

int pic_setup(pic_t *f, const pic_config_t *cfg);
int pic_run(pic_t *f);
int pic_teardown(pic_t *f);

/* One step k (0-based); STATUS_FAILED when the run must stop (all ranks agree through the scatter). */
int pic_step(pic_t *f, long k);

/* The initial field (charge gather, solve, scatter) and the half step back of the velocities. */
int pic_initial_field(pic_t *f);

/* Collective: gathers the particles to rank 0, which writes snapshot iteration `iter`. */
int pic_snapshot(pic_t *f, long iter, char *err, size_t errlen);

/* A library error leaves the other ranks inside a collective: abort the job. */
void pic_die(const pic_t *f, long k, const char *what, int rc);

void pic_report_config(const pic_t *f);
int pic_report(pic_t *f, int status);

#endif /* PIC_PIC_H */

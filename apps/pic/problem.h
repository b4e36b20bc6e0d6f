/*
 * The PIC proxy's test problems: box, species, default numerics, the quiet
 * start that loads each rank's particles, and the linear theory a run is
 * validated against.  Pure (no MPI): every rank derives the same global
 * particle set from the particle index alone and keeps the particles of its
 * own slab, so the initial state does not depend on P.
 *
 * Units: electron charge -1, electron mass 1, epsilon_0 = 1, mean electron
 * density 1, so the electron plasma frequency is 1; velocities in units of
 * the electron thermal speed where there is one (Landau, beam), lengths in
 * Debye lengths there.  docs/pic.md gives the parameters and why.
 */
#ifndef PIC_PROBLEM_H
#define PIC_PROBLEM_H

#include <stdint.h>

#include "particles.h"

typedef enum { PIC_TWO_STREAM = 0, PIC_LANDAU = 1, PIC_BEAM = 2, PIC_NPROBLEMS } pic_problem_kind_t;

#define PIC_MAX_SPECIES 2

/* Defaults and fixed physics of one problem. */
typedef struct {
    const char *name;
    const char *summary;
    double lx, ly_cells; /* box length; box height in cells of the x spacing (dy = dx) */
    int nx, ny;          /* default grid */
    long long particles; /* default macro-particles (all species) */
    long steps;
    double dt;
    long frame_every;
    double energy_tol; /* bound on max |W(t) - W(0)| / W(0) */
    double vmin, vmax; /* velocity range of the rendered phase space */
} pic_problem_info_t;

/* Linear theory and the measured value, for the validation line. */
typedef struct {
    int kind;           /* 0: none, 1: growth rate, 2: frequency and damping */
    double gamma;       /* theory: growth (> 0) or damping (< 0) rate */
    double omega;       /* theory: real frequency (kind 2) */
    double gamma_tol;   /* relative */
    double omega_tol;   /* relative */
} pic_theory_t;

/* A loaded problem: species and the parameters of its initial state. */
typedef struct {
    pic_problem_kind_t kind;
    const pic_problem_info_t *info;
    double lx, ly;
    int nspecies;
    pic_species_t species[PIC_MAX_SPECIES];
    long long n_total;   /* macro-particles actually loaded (may be rounded) */
    double k1;           /* 2 pi / lx: the seeded mode */
    double amplitude;    /* seeded density perturbation (two-stream, Landau) */
    double v0;           /* two-stream: beam speed; beam: cloud drift */
    double omega_b;      /* two-stream: plasma frequency of one beam */
    pic_theory_t theory;
} pic_problem_t;

extern const pic_problem_info_t pic_problems[PIC_NPROBLEMS];

/* Index of the problem called name, or -1. */
int pic_problem_find(const char *name);

/*
 * Fixes the problem's parameters for ny rows of cells and about n_request
 * macro-particles (some problems round it: the two-stream lattice needs a
 * multiple of 2 ny, the beam an even count).  Pure; the same on every rank.
 */
void pic_problem_init(pic_problem_t *pb, pic_problem_kind_t kind, int ny, long long n_request);

/*
 * Appends to parts the particles whose x lies in [xlo, xhi) (cells
 * [c0, c1) of the global grid, see pic_cell_of).  Returns 0 or -1 (memory).
 */
int pic_problem_load(const pic_problem_t *pb, const pic_grid_t *g, pic_parts_t *parts);

/* Two cold symmetric beams of plasma frequency wb at +-v0: growth rate of mode k. */
double pic_two_stream_gamma(double wb, double k, double v0);

/* Inverse of the standard normal CDF (|error| < 1e-14), p in (0, 1). */
double pic_norm_inv(double p);

/* Van der Corput radical inverse of i in base b (b >= 2). */
double pic_radical_inverse(uint64_t i, unsigned b);

#endif /* PIC_PROBLEM_H */

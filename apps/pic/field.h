/*
 * The field solve on the root (master-slave, like the FFT proxy's master):
 * the ranks' charge blocks arrive through a papcoll gather, the root folds
 * them into the full nx x ny grid, solves Poisson's equation spectrally with
 * FFTW (double precision, planned once) and packs each rank's block of the
 * electric field for a papcoll scatter.  Pure apart from FFTW.
 *
 *   -lap(phi) = rho  ->  phi_k = rho_k / |k|^2  (k = 0 dropped: the uniform
 *   neutralising background),  E_k = -i k phi_k  (the Nyquist component of
 *   each derivative set to zero, so E stays real and the operator
 *   antisymmetric: no self-force with CIC on both sides).
 */
#ifndef PIC_FIELD_H
#define PIC_FIELD_H

#include <fftw3.h>

#include "particles.h"

/* Extra doubles after a rank's charge nodes in the gather block. */
enum {
    GX_KINETIC,   /* kinetic energy of the push that produced this charge */
    GX_COUNT0,    /* particles of species 0 and 1 (exact integers) */
    GX_COUNT1,
    GX_FAR,       /* particles lost by migration (jumped past a neighbour) */
    GX_STATUS,    /* nonzero: this rank failed (out of memory) */
    GX_FIELDS
};

/* Extra doubles after a rank's field nodes in the scatter block. */
enum { SX_STOP, SX_FIELDS };

typedef struct {
    int nx, ny;
    double lx, ly, dx, dy;
    double *rho, *ex, *ey; /* nx * ny, [x][y] */
    fftw_complex *rk, *exk, *eyk; /* nx * (ny / 2 + 1) */
    fftw_plan fwd, inv_x, inv_y;
    double charge;       /* sum(rho) dx dy of the last solve */
    double field_energy; /* 1/2 sum(E^2) dx dy */
    double mode1;        /* amplitude of Ex at k = (2 pi / lx, 0) */
} pic_solver_t;

/* Allocates and plans (FFTW_MEASURE); 0 or -1. */
int pic_solver_init(pic_solver_t *s, int nx, int ny, double lx, double ly);
void pic_solver_free(pic_solver_t *s);

/* Doubles of one rank's gather block and scatter block. */
long pic_gather_block(const pic_grid_t *g);
long pic_scatter_block(const pic_grid_t *g);

/* Sums the P gathered blocks (guard columns onto the right neighbour's first column) into s->rho. */
void pic_solver_fold(pic_solver_t *s, const pic_grid_t *g, const double *blocks);

/* First half of the solve: forward transform and E_k. */
void pic_solver_forward(pic_solver_t *s);

/* Second half: inverse transforms, field energy and the mode amplitude. */
void pic_solver_inverse(pic_solver_t *s);

/* Multiplies the field by a (test-only fault injection). */
void pic_solver_scale(pic_solver_t *s, double a);

/* Packs rank r's field block (nxl + 1 columns, Ex Ey interleaved) for every r; stop goes to SX_STOP. */
void pic_solver_pack(const pic_solver_t *s, const pic_grid_t *g, double *blocks, double stop);

#endif /* PIC_FIELD_H */

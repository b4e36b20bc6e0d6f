/*
 * Particles and the grid of the 2D electrostatic PIC proxy.
 *
 * The periodic box [0, lx) x [0, ly) has nx x ny nodes at (i dx, j dy).
 * Slab decomposition along x: rank r owns node columns [i0, i0 + nxl),
 * nxl = nx / P, and the particles whose cell pic_cell_of(x) lies in them.
 * Charge is deposited with cloud-in-cell (bilinear) weights onto a local
 * array of nxl + 1 columns: the extra guard column collects what belongs to
 * the first column of the right neighbour and is folded in by the field
 * solve's root.  Fields come back with the same nxl + 1 columns, so the
 * push interpolates with the same weights (momentum conserving, no self
 * force).  Arrays are C order [x][y].
 */
#ifndef PIC_PARTICLES_H
#define PIC_PARTICLES_H

#include <math.h>
#include <mpi.h>
#include <stdint.h>

typedef struct {
    int nx, ny;
    double lx, ly, dx, dy;
    double inv_dx, inv_dy;
    int nprocs, rank;
    int nxl, i0; /* local columns [i0, i0 + nxl) */
} pic_grid_t;

/* One macro-particle; sp indexes the species table. */
typedef struct {
    double x, y, vx, vy;
    uint64_t id; /* global index at load time (openPMD id) */
    int32_t sp;
    int32_t pad;
} pic_particle_t;

typedef struct {
    char name[16];
    double q, m; /* charge and mass of one real particle */
    double w;    /* macro weight: real particles (density x area) per macro-particle */
    long long n; /* macro-particles loaded (all ranks) */
} pic_species_t;

typedef struct {
    pic_particle_t *p;
    long n, cap;
} pic_parts_t;

/* Sets up the global grid and rank's slab (nx must be a multiple of nprocs). */
void pic_grid_init(pic_grid_t *g, int nx, int ny, double lx, double ly, int nprocs, int rank);

/* Global cell column of x in [0, lx): floor(x / dx) clamped to [0, nx - 1]. */
static inline int pic_cell_of(const pic_grid_t *g, double x)
{
    int c = (int)(x * g->inv_dx);

    return c < 0 ? 0 : c >= g->nx ? g->nx - 1 : c;
}

/* Rank owning x. */
static inline int pic_owner_of(const pic_grid_t *g, double x)
{
    return pic_cell_of(g, x) / g->nxl;
}

/* Wraps v into [0, l). */
static inline double pic_wrap(double v, double l)
{
    if (v >= l)
        v -= l;
    else if (v < 0.0)
        v += l;
    if (v >= l || v < 0.0) { /* more than one box length, or rounding to l */
        v -= l * floor(v / l);
        if (v >= l)
            v = 0.0;
    }
    return v;
}

int pic_parts_reserve(pic_parts_t *ps, long n);
int pic_parts_push(pic_parts_t *ps, const pic_particle_t *p);
void pic_parts_free(pic_parts_t *ps);

/* Number of doubles of a local charge block: (nxl + 1) x ny. */
static inline long pic_block_nodes(const pic_grid_t *g)
{
    return (long)(g->nxl + 1) * g->ny;
}

/* CIC charge deposition of the particles into rho[(nxl + 1) * ny] (zeroed first). */
void pic_deposit(const pic_grid_t *g, const pic_species_t *sp, const pic_particle_t *p, long n, double *rho);

/*
 * Leapfrog push of particles [from, to): v += (q/m) E dt with E interpolated
 * (CIC) from e[((nxl + 1) * ny) * 2] (Ex, Ey interleaved), then x += v dt,
 * wrapped into the box.  OpenMP over particles.  Returns the kinetic energy
 * sum(1/2 m w (v_old^2 + v_new^2) / 2) of the pushed particles (time-centred).
 */
double pic_push(const pic_grid_t *g, const pic_species_t *sp, const double *e, pic_particle_t *p, long from,
                long to, double dt);

/* Half-step back of the velocities (v(-dt/2) from v(0)) at the start of the run. */
void pic_push_back_half(const pic_grid_t *g, const pic_species_t *sp, const double *e, pic_particle_t *p, long n,
                        double dt);

/*
 * Moves particles that left the slab to their owner, a neighbour (point to
 * point with the two neighbours only: no global synchronisation).  A particle
 * owned by any other rank jumped more than one slab in a step: it is removed
 * and counted in *far, and the caller must stop the run with an error (the
 * time step is too long).  *sent counts particles sent.  Returns 0, or -2
 * when memory ran out (the exchanges still complete).
 */
int pic_migrate(const pic_grid_t *g, pic_parts_t *ps, MPI_Comm comm, long *sent, long *far);

#endif /* PIC_PARTICLES_H */

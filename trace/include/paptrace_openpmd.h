/**
 * @file paptrace_openpmd.h
 * @brief libpaptrace: openPMD 1.1.0 snapshots (HDF5) of a 2D particle-in-cell state.
 *
 * One file per snapshot (iterationEncoding fileBased, basePath /data/%T/),
 * written serially by one process, with the base standard's required and
 * recommended attributes and those of the ED-PIC extension (openPMDextension
 * = 1): meshes E (x, y) and chargeDensity, one particle group per species
 * with position, positionOffset, momentum, charge, mass, weighting and id.
 * Values are in the program's units; the *_si factors convert them to SI
 * (unitSI, gridUnitSI, timeUnitSI).  Plain C: only libpaptrace includes
 * hdf5.h.  Errors are PAPTRACE_ERR_* (paptrace_strerror()).
 */
#ifndef PAPTRACE_OPENPMD_H
#define PAPTRACE_OPENPMD_H

#include "paptrace.h"

#ifdef __cplusplus
extern "C" {
#endif

/** One particle species: structure of arrays of n particles. */
typedef struct {
    const char *name;           /**< group name, e.g. "electrons" (letters, digits, _) */
    double charge, mass;        /**< of one real particle */
    double weighting;           /**< real particles per macro-particle */
    unsigned long long n;
    const double *x, *y;        /**< positions */
    const double *px, *py;      /**< momentum of one real particle (mass * velocity) */
    const unsigned long long *id; /**< globally unique ids */
} paptrace_openpmd_species_t;

/** Conversion factors of the program's units to SI. */
typedef struct {
    double time, length, efield, charge_density, charge, mass, momentum;
} paptrace_openpmd_si_t;

/** One snapshot. */
typedef struct {
    const char *software;
    const char *software_version; /**< NULL: the project's git describe */
    const char *iteration_format; /**< file name pattern with %T, e.g. "pic_%T.h5" */
    const char *field_solver;     /**< fieldSolverParameters text (fieldSolver is "other") */
    unsigned long long iteration;
    double time, dt;
    double momentum_offset;       /**< timeOffset of momentum (leapfrog: -dt/2) */
    int nx, ny;
    double dx, dy;
    const double *rho, *ex, *ey;  /**< nx * ny each, C order [x][y], nodes at (i dx, j dy) */
    int nspecies;
    const paptrace_openpmd_species_t *species;
    paptrace_openpmd_si_t si;
} paptrace_openpmd_t;

/** Writes the snapshot to path (created or truncated).  PAPTRACE_OK or a negative code. */
int paptrace_openpmd_write(const char *path, const paptrace_openpmd_t *s);

#ifdef __cplusplus
}
#endif
#endif /* PAPTRACE_OPENPMD_H */

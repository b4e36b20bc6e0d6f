/*
 * openPMD snapshots of the PIC state (trace/include/paptrace_openpmd.h).
 *
 * Rank 0 holds the full charge and field grids after its solve; the
 * particles come to it with one MPI_Gatherv of the records (off the timed
 * path, like I/O), and it writes one file per snapshot with libpaptrace's
 * serial HDF5 writer: OUT/openpmd/pic_<step>.h5.  The memory cost is all
 * particles on rank 0 (48 bytes each, plus 40 in the writer's arrays).
 *
 * SI conversion: the program's units (omega_p = 1, velocities in electron
 * thermal speeds, lengths in Debye lengths) are made concrete for a
 * reference electron density of 1e18 m^-3 at 10 eV (docs/pic.md); the 2D
 * box is taken one Debye length deep for the macro-particle weighting.
 */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "paptrace_openpmd.h"
#include "pic.h"

#define SI_E 1.602176634e-19      /* elementary charge (C) */
#define SI_ME 9.1093837015e-31    /* electron mass (kg) */
#define SI_EPS0 8.8541878128e-12  /* vacuum permittivity (F/m) */
#define REF_DENSITY 1e18          /* m^-3 */
#define REF_TEMPERATURE_EV 10.0   /* eV */

/* Unit factors and the real particles per unit of macro weight (density x area). */
static void si_units(paptrace_openpmd_si_t *si, double *per_weight)
{
    double wp = sqrt(REF_DENSITY * SI_E * SI_E / (SI_EPS0 * SI_ME));
    double v = sqrt(REF_TEMPERATURE_EV * SI_E / SI_ME), l = v / wp;

    si->time = 1.0 / wp;
    si->length = l;
    si->efield = SI_ME * v * wp / SI_E;
    si->charge_density = SI_E * REF_DENSITY;
    si->charge = SI_E;
    si->mass = SI_ME;
    si->momentum = SI_ME * v;
    *per_weight = REF_DENSITY * l * l * l;
}

/* Rank 0: the gathered particles of species s as arrays (x, y, px, py, id). */
static int species_arrays(const pic_t *f, const pic_particle_t *all, long long n, int s,
                          paptrace_openpmd_species_t *out, double *buf, unsigned long long *ids)
{
    const pic_species_t *sp = &f->pb.species[s];
    long long i, k = 0;

    for (i = 0; i < n; i++)
        if (all[i].sp == s)
            k++;
    out->name = sp->name;
    out->charge = sp->q;
    out->mass = sp->m;
    out->n = (unsigned long long)k;
    out->x = buf;
    out->y = buf + k;
    out->px = buf + 2 * k;
    out->py = buf + 3 * k;
    out->id = ids;
    k = 0;
    for (i = 0; i < n; i++)
        if (all[i].sp == s) {
            buf[k] = all[i].x;
            buf[out->n + (unsigned long long)k] = all[i].y;
            buf[2 * out->n + (unsigned long long)k] = sp->m * all[i].vx;
            buf[3 * out->n + (unsigned long long)k] = sp->m * all[i].vy;
            ids[k] = all[i].id;
            k++;
        }
    return 0;
}

static int write_root(const pic_t *f, long iter, const pic_particle_t *all, long long n, char *err, size_t errlen)
{
    const pic_config_t *c = f->cfg;
    paptrace_openpmd_species_t sp[PIC_MAX_SPECIES];
    paptrace_openpmd_t s;
    double *buf = malloc(sizeof(double) * 4 * (size_t)(n ? n : 1) + 1);
    unsigned long long *ids = malloc(sizeof *ids * (size_t)(n ? n : 1) + 1);
    char path[1024];
    double per_weight, *b = buf;
    unsigned long long *id = ids;
    int i, rc;

    if (buf == NULL || ids == NULL) {
        free(buf);
        free(ids);
        snprintf(err, errlen, "out of memory for %lld particles", n);
        return -1;
    }
    memset(&s, 0, sizeof s);
    si_units(&s.si, &per_weight);
    for (i = 0; i < f->pb.nspecies; i++) {
        species_arrays(f, all, n, i, &sp[i], b, id);
        sp[i].weighting = f->pb.species[i].w * per_weight;
        b += 4 * sp[i].n;
        id += sp[i].n;
    }
    s.software = "papcoll pic";
    s.software_version = NULL; /* the writer's default: the project's git describe */
    s.iteration_format = "pic_%T.h5";
    s.field_solver = "electrostatic: spectral Poisson solve (FFTW), E = -grad phi spectrally, no smoothing";
    s.iteration = (unsigned long long)iter;
    s.time = iter * c->dt;
    s.dt = c->dt;
    s.momentum_offset = -0.5 * c->dt;
    s.nx = c->nx;
    s.ny = c->ny;
    s.dx = f->grid.dx;
    s.dy = f->grid.dy;
    s.rho = f->solver.rho;
    s.ex = f->solver.ex;
    s.ey = f->solver.ey;
    s.nspecies = f->pb.nspecies;
    s.species = sp;
    snprintf(path, sizeof path, "%s/openpmd/pic_%ld.h5", c->out_dir, iter);
    rc = paptrace_openpmd_write(path, &s);
    if (rc != 0)
        snprintf(err, errlen, "'%s': %s", path, paptrace_strerror(rc));
    free(buf);
    free(ids);
    return rc == 0 ? 0 : -1;
}

/* The particle records to rank 0 (MPI_Gatherv counts bytes in an int: at most INT_MAX in all). */
static int gather_particles(const pic_t *f, pic_particle_t **all, long long *n, char *err, size_t errlen)
{
    long long total = 0, limit = INT_MAX / (long long)sizeof(pic_particle_t);
    int P = f->nprocs, r, ok = 1, bytes = (int)sizeof(pic_particle_t), mine;
    int *counts = NULL, *displs = NULL;
    long long nl = f->parts.n;

    MPI_Allreduce(&nl, &total, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    if (total > limit) {
        snprintf(err, errlen, "%lld particles exceed what one MPI_Gatherv moves (%lld)", total, limit);
        return -1;
    }
    mine = (int)nl * bytes;
    if (f->rank == 0) {
        counts = calloc((size_t)P, sizeof *counts);
        displs = calloc((size_t)P, sizeof *displs);
        *all = malloc((size_t)(total ? total : 1) * sizeof **all);
        ok = counts && displs && *all;
    }
    MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (ok) {
        MPI_Gather(&mine, 1, MPI_INT, counts, 1, MPI_INT, 0, MPI_COMM_WORLD);
        for (r = 0; f->rank == 0 && r < P; r++)
            displs[r] = r > 0 ? displs[r - 1] + counts[r - 1] : 0;
        MPI_Gatherv(f->parts.p, mine, MPI_BYTE, *all, counts, displs, MPI_BYTE, 0, MPI_COMM_WORLD);
    } else {
        snprintf(err, errlen, "out of memory gathering %lld particles", total);
    }
    free(counts);
    free(displs);
    *n = total;
    return ok ? 0 : -1;
}

int pic_snapshot(pic_t *f, long iter, char *err, size_t errlen)
{
    pic_particle_t *all = NULL;
    long long n = 0;
    int rc;

    rc = gather_particles(f, &all, &n, err, errlen);
    if (rc == 0 && f->rank == 0) {
        rc = write_root(f, iter, all, n, err, errlen);
        if (rc == 0)
            snprintf(f->last_snapshot, sizeof f->last_snapshot, "%s/openpmd/pic_%ld.h5", f->cfg->out_dir, iter);
    }
    MPI_Bcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD);
    free(all);
    if (rc == 0)
        f->snapshots++;
    return rc;
}

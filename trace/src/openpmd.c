/*
 * openPMD 1.1.0 + ED-PIC snapshots (see paptrace_openpmd.h).  The required
 * attributes follow the standard's STANDARD.md (base: root, basePath, mesh
 * records, particle records) and EXT_ED-PIC.md (meshes group, mesh records,
 * species groups, particle records); tests/pic_openpmd.py checks them with
 * h5py.  Every HDF5 status is checked; handles close in reverse order.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "paptrace_openpmd.h"
#include "trace_internal.h"

#ifndef PAPCOLL_GIT_VERSION
#define PAPCOLL_GIT_VERSION "unknown"
#endif

/* unitDimension: powers of L, M, T, I, theta, N, J. */
static const double DIM_NONE[7] = {0, 0, 0, 0, 0, 0, 0};
static const double DIM_LENGTH[7] = {1, 0, 0, 0, 0, 0, 0};
static const double DIM_EFIELD[7] = {1, 1, -3, -1, 0, 0, 0};
static const double DIM_CHARGE_DENSITY[7] = {-3, 0, 1, 1, 0, 0, 0};
static const double DIM_CHARGE[7] = {0, 0, 1, 1, 0, 0, 0};
static const double DIM_MASS[7] = {0, 1, 0, 0, 0, 0, 0};
static const double DIM_MOMENTUM[7] = {1, 1, -1, 0, 0, 0, 0};

static int attr_scalar(hid_t obj, const char *name, hid_t ftype, hid_t mtype, const void *v)
{
    hid_t sp = H5Screate(H5S_SCALAR), a = H5I_INVALID_HID;
    int rc = PAPTRACE_ERR_HDF5;

    if (sp >= 0)
        a = H5Acreate2(obj, name, ftype, sp, H5P_DEFAULT, H5P_DEFAULT);
    if (a >= 0 && H5Awrite(a, mtype, v) >= 0)
        rc = PAPTRACE_OK;
    pt_close(&a);
    pt_close(&sp);
    return rc;
}

static int attr_array(hid_t obj, const char *name, hid_t ftype, hid_t mtype, const void *v, hsize_t n)
{
    hid_t sp = H5Screate_simple(1, &n, NULL), a = H5I_INVALID_HID;
    int rc = PAPTRACE_ERR_HDF5;

    if (sp >= 0)
        a = H5Acreate2(obj, name, ftype, sp, H5P_DEFAULT, H5P_DEFAULT);
    if (a >= 0 && H5Awrite(a, mtype, v) >= 0)
        rc = PAPTRACE_OK;
    pt_close(&a);
    pt_close(&sp);
    return rc;
}

static int attr_double(hid_t obj, const char *name, double v)
{
    return attr_scalar(obj, name, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, &v);
}

static int attr_doubles(hid_t obj, const char *name, const double *v, hsize_t n)
{
    return attr_array(obj, name, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, v, n);
}

static int attr_u32(hid_t obj, const char *name, uint32_t v)
{
    return attr_scalar(obj, name, H5T_STD_U32LE, H5T_NATIVE_UINT32, &v);
}

/* A string array attribute of n copies or of the given values. */
static int attr_strs(hid_t obj, const char *name, const char *const *v, int n)
{
    return pt_attr_write_strs(obj, name, (char *const *)v, n);
}

/* Attributes every record carries (base standard, ED-PIC particle records). */
static int record_attrs(hid_t rec, const double *dim, double time_offset, int particle, uint32_t macro,
                        double power)
{
    int rc = attr_doubles(rec, "unitDimension", dim, 7);

    if (rc == 0)
        rc = attr_double(rec, "timeOffset", time_offset);
    if (rc == 0 && particle)
        rc = attr_u32(rec, "macroWeighted", macro);
    if (rc == 0 && particle)
        rc = attr_double(rec, "weightingPower", power);
    return rc;
}

/* A 1-D or 2-D float64 dataset named name in loc; returns it open (or invalid). */
static hid_t dataset(hid_t loc, const char *name, hid_t ftype, hid_t mtype, const void *data, int rank,
                     const hsize_t *dims)
{
    hid_t sp = H5Screate_simple(rank, dims, NULL), d = H5I_INVALID_HID;

    if (sp >= 0)
        d = H5Dcreate2(loc, name, ftype, sp, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    if (d >= 0 && dims[0] > 0 && H5Dwrite(d, mtype, H5S_ALL, H5S_ALL, H5P_DEFAULT, data) < 0)
        pt_close(&d);
    pt_close(&sp);
    return d;
}

static int root_attrs(hid_t f, const paptrace_openpmd_t *s)
{
    char date[64];
    time_t now = time(NULL);
    struct tm tm;
    int rc;

    localtime_r(&now, &tm);
    strftime(date, sizeof date, "%Y-%m-%d %H:%M:%S %z", &tm);
    rc = pt_attr_write_str(f, "openPMD", "1.1.0");
    if (rc == 0)
        rc = attr_u32(f, "openPMDextension", 1); /* ED-PIC, extension ID 1 */
    if (rc == 0)
        rc = pt_attr_write_str(f, "basePath", "/data/%T/");
    if (rc == 0)
        rc = pt_attr_write_str(f, "meshesPath", "meshes/");
    if (rc == 0)
        rc = pt_attr_write_str(f, "particlesPath", "particles/");
    if (rc == 0)
        rc = pt_attr_write_str(f, "iterationEncoding", "fileBased");
    if (rc == 0)
        rc = pt_attr_write_str(f, "iterationFormat", s->iteration_format);
    if (rc == 0)
        rc = pt_attr_write_str(f, "software", s->software);
    if (rc == 0)
        rc = pt_attr_write_str(f, "softwareVersion",
                               s->software_version ? s->software_version : PAPCOLL_GIT_VERSION);
    if (rc == 0)
        rc = pt_attr_write_str(f, "date", date);
    return rc;
}

/* Attributes of a mesh record (group of a vector, dataset of a scalar). */
static int mesh_attrs(hid_t rec, const paptrace_openpmd_t *s, const double *dim)
{
    static const char *const labels[] = {"x", "y"};
    double spacing[2] = {s->dx, s->dy}, offset[2] = {0.0, 0.0};
    int rc = pt_attr_write_str(rec, "geometry", "cartesian");

    if (rc == 0)
        rc = pt_attr_write_str(rec, "dataOrder", "C");
    if (rc == 0)
        rc = attr_strs(rec, "axisLabels", labels, 2);
    if (rc == 0)
        rc = attr_doubles(rec, "gridSpacing", spacing, 2);
    if (rc == 0)
        rc = attr_doubles(rec, "gridGlobalOffset", offset, 2);
    if (rc == 0)
        rc = attr_double(rec, "gridUnitSI", s->si.length);
    if (rc == 0)
        rc = pt_attr_write_str(rec, "fieldSmoothing", "none");
    if (rc == 0)
        rc = record_attrs(rec, dim, 0.0, 0, 0, 0.0);
    return rc;
}

/* Component attributes of a mesh: unitSI and the position within the cell (nodes: 0, 0). */
static int mesh_component(hid_t loc, const char *name, const double *data, const paptrace_openpmd_t *s,
                          double unit_si, const double *dim)
{
    static const double position[2] = {0.0, 0.0};
    hsize_t dims[2] = {(hsize_t)s->nx, (hsize_t)s->ny};
    hid_t d = dataset(loc, name, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, data, 2, dims);
    int rc = d >= 0 ? 0 : PAPTRACE_ERR_HDF5;

    if (rc == 0)
        rc = attr_double(d, "unitSI", unit_si);
    if (rc == 0)
        rc = attr_doubles(d, "position", position, 2);
    if (rc == 0 && dim != NULL) /* a scalar record: the dataset is the record */
        rc = mesh_attrs(d, s, dim);
    pt_close(&d);
    return rc;
}

static int meshes_group_attrs(hid_t m)
{
    static const char *const periodic[] = {"periodic", "periodic", "periodic", "periodic"};
    int rc = pt_attr_write_str(m, "fieldSolver", "other");

    if (rc == 0)
        rc = attr_strs(m, "fieldBoundary", periodic, 4);
    if (rc == 0)
        rc = attr_strs(m, "particleBoundary", periodic, 4);
    if (rc == 0)
        rc = pt_attr_write_str(m, "currentSmoothing", "none");
    if (rc == 0)
        rc = pt_attr_write_str(m, "chargeCorrection", "none");
    return rc;
}

static int write_meshes(hid_t it, const paptrace_openpmd_t *s)
{
    hid_t m = H5Gcreate2(it, "meshes", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), e = H5I_INVALID_HID;
    int rc = m >= 0 ? 0 : PAPTRACE_ERR_HDF5;

    if (rc == 0)
        rc = meshes_group_attrs(m);
    if (rc == 0)
        rc = pt_attr_write_str(m, "fieldSolverParameters", s->field_solver);
    if (rc == 0 && (e = H5Gcreate2(m, "E", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT)) < 0)
        rc = PAPTRACE_ERR_HDF5;
    if (rc == 0)
        rc = mesh_attrs(e, s, DIM_EFIELD);
    if (rc == 0)
        rc = mesh_component(e, "x", s->ex, s, s->si.efield, NULL);
    if (rc == 0)
        rc = mesh_component(e, "y", s->ey, s, s->si.efield, NULL);
    if (rc == 0)
        rc = mesh_component(m, "chargeDensity", s->rho, s, s->si.charge_density, DIM_CHARGE_DENSITY);
    pt_close(&e);
    pt_close(&m);
    return rc;
}

/* A constant record component: an empty group with value and shape. */
static int constant(hid_t loc, const char *name, double value, unsigned long long n, double unit_si)
{
    hid_t g = H5Gcreate2(loc, name, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    uint64_t shape = n;
    int rc = g >= 0 ? 0 : PAPTRACE_ERR_HDF5;

    if (rc == 0)
        rc = attr_double(g, "value", value);
    if (rc == 0)
        rc = attr_array(g, "shape", H5T_STD_U64LE, H5T_NATIVE_UINT64, &shape, 1);
    if (rc == 0)
        rc = attr_double(g, "unitSI", unit_si);
    pt_close(&g);
    return rc;
}

/* A per-particle component dataset with its unitSI. */
static int component(hid_t loc, const char *name, const double *v, unsigned long long n, double unit_si)
{
    hsize_t dim = n;
    hid_t d = dataset(loc, name, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, v, 1, &dim);
    int rc = d >= 0 ? attr_double(d, "unitSI", unit_si) : PAPTRACE_ERR_HDF5;

    pt_close(&d);
    return rc;
}

/* A vector particle record: group name with x and y (datasets, or constants when vx is NULL). */
static int vector_record(hid_t sp, const char *name, const double *vx, const double *vy, unsigned long long n,
                         double unit_si, const double *dim, double time_offset, double power)
{
    hid_t g = H5Gcreate2(sp, name, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    int rc = g >= 0 ? record_attrs(g, dim, time_offset, 1, 0, power) : PAPTRACE_ERR_HDF5;

    if (rc == 0)
        rc = vx != NULL ? component(g, "x", vx, n, unit_si) : constant(g, "x", 0.0, n, unit_si);
    if (rc == 0)
        rc = vy != NULL ? component(g, "y", vy, n, unit_si) : constant(g, "y", 0.0, n, unit_si);
    pt_close(&g);
    return rc;
}

/* A scalar particle record constant over the species: value and shape on the record's group. */
static int scalar_constant(hid_t sp, const char *name, double value, unsigned long long n, double unit_si,
                           const double *dim, uint32_t macro)
{
    int rc = constant(sp, name, value, n, unit_si);
    hid_t g = rc == 0 ? H5Gopen2(sp, name, H5P_DEFAULT) : H5I_INVALID_HID;

    if (rc == 0 && g < 0)
        rc = PAPTRACE_ERR_HDF5;
    if (rc == 0)
        rc = record_attrs(g, dim, 0.0, 1, macro, 1.0);
    pt_close(&g);
    return rc;
}

static int species_attrs(hid_t sp)
{
    int rc = attr_double(sp, "particleShape", 1.0); /* CIC */

    if (rc == 0)
        rc = pt_attr_write_str(sp, "currentDeposition", "none"); /* electrostatic: charge only */
    if (rc == 0)
        rc = pt_attr_write_str(sp, "particlePush", "Boris"); /* leapfrog = Boris with B = 0 */
    if (rc == 0)
        rc = pt_attr_write_str(sp, "particleInterpolation", "uniform");
    if (rc == 0)
        rc = pt_attr_write_str(sp, "particleSmoothing", "none");
    return rc;
}

static int id_record(hid_t sp, const paptrace_openpmd_species_t *p)
{
    hsize_t dim = p->n;
    hid_t d = dataset(sp, "id", H5T_STD_U64LE, H5T_NATIVE_UINT64, p->id, 1, &dim);
    int rc = d >= 0 ? record_attrs(d, DIM_NONE, 0.0, 1, 0, 0.0) : PAPTRACE_ERR_HDF5;

    if (rc == 0)
        rc = attr_double(d, "unitSI", 1.0);
    pt_close(&d);
    return rc;
}

static int write_species(hid_t parts, const paptrace_openpmd_t *s, const paptrace_openpmd_species_t *p)
{
    hid_t sp = H5Gcreate2(parts, p->name, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    int rc = sp >= 0 ? species_attrs(sp) : PAPTRACE_ERR_HDF5;

    if (rc == 0)
        rc = vector_record(sp, "position", p->x, p->y, p->n, s->si.length, DIM_LENGTH, 0.0, 0.0);
    if (rc == 0)
        rc = vector_record(sp, "positionOffset", NULL, NULL, p->n, s->si.length, DIM_LENGTH, 0.0, 0.0);
    if (rc == 0)
        rc = vector_record(sp, "momentum", p->px, p->py, p->n, s->si.momentum, DIM_MOMENTUM, s->momentum_offset,
                           1.0);
    if (rc == 0)
        rc = scalar_constant(sp, "charge", p->charge, p->n, s->si.charge, DIM_CHARGE, 0);
    if (rc == 0)
        rc = scalar_constant(sp, "mass", p->mass, p->n, s->si.mass, DIM_MASS, 0);
    if (rc == 0)
        rc = scalar_constant(sp, "weighting", p->weighting, p->n, 1.0, DIM_NONE, 1);
    if (rc == 0 && p->id != NULL)
        rc = id_record(sp, p);
    pt_close(&sp);
    return rc;
}

static int write_iteration(hid_t f, const paptrace_openpmd_t *s)
{
    char path[64];
    hid_t data = H5Gcreate2(f, "data", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), it = H5I_INVALID_HID;
    hid_t parts = H5I_INVALID_HID;
    int rc = data >= 0 ? 0 : PAPTRACE_ERR_HDF5, i;

    snprintf(path, sizeof path, "%llu", s->iteration);
    if (rc == 0 && (it = H5Gcreate2(data, path, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT)) < 0)
        rc = PAPTRACE_ERR_HDF5;
    if (rc == 0)
        rc = attr_double(it, "time", s->time);
    if (rc == 0)
        rc = attr_double(it, "dt", s->dt);
    if (rc == 0)
        rc = attr_double(it, "timeUnitSI", s->si.time);
    if (rc == 0)
        rc = write_meshes(it, s);
    if (rc == 0 && (parts = H5Gcreate2(it, "particles", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT)) < 0)
        rc = PAPTRACE_ERR_HDF5;
    for (i = 0; rc == 0 && i < s->nspecies; i++)
        rc = write_species(parts, s, &s->species[i]);
    pt_close(&parts);
    pt_close(&it);
    pt_close(&data);
    return rc;
}

int paptrace_openpmd_write(const char *path, const paptrace_openpmd_t *s)
{
    pt_quiet_t q;
    hid_t f;
    int rc;

    if (path == NULL || s == NULL || s->nx < 1 || s->ny < 1 || !s->rho || !s->ex || !s->ey)
        return PAPTRACE_ERR_INVAL;
    pt_quiet_begin(&q);
    f = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    rc = f >= 0 ? root_attrs(f, s) : PAPTRACE_ERR_CREATE;
    if (rc == 0)
        rc = write_iteration(f, s);
    if (f >= 0 && H5Fclose(f) < 0 && rc == 0)
        rc = PAPTRACE_ERR_HDF5;
    pt_quiet_end(&q);
    return rc;
}

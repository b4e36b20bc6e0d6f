/*
 * HDF5 types and attribute helpers of libpaptrace (see trace_internal.h).
 * Every HDF5 status is checked; handles start as H5I_INVALID_HID and are
 * closed in reverse order of creation.
 */
#include <stdlib.h>
#include <string.h>

#include "trace_internal.h"

void pt_close(hid_t *id)
{
    if (*id < 0)
        return;
    switch (H5Iget_type(*id)) {
    case H5I_FILE:
        H5Fclose(*id);
        break;
    case H5I_GROUP:
        H5Gclose(*id);
        break;
    case H5I_DATASET:
        H5Dclose(*id);
        break;
    case H5I_DATASPACE:
        H5Sclose(*id);
        break;
    case H5I_DATATYPE:
        H5Tclose(*id);
        break;
    case H5I_ATTR:
        H5Aclose(*id);
        break;
    case H5I_GENPROP_LST:
        H5Pclose(*id);
        break;
    default:
        break;
    }
    *id = H5I_INVALID_HID;
}

void pt_quiet_begin(pt_quiet_t *q)
{
    q->func = NULL;
    q->data = NULL;
    if (H5Eget_auto2(H5E_DEFAULT, &q->func, &q->data) < 0)
        q->func = NULL;
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
}

void pt_quiet_end(const pt_quiet_t *q)
{
    H5Eset_auto2(H5E_DEFAULT, q->func, q->data);
}

/* A fixed-length, NUL-terminated C string type of size bytes. */
static hid_t str_type(size_t size)
{
    hid_t t = H5Tcopy(H5T_C_S1);

    if (t >= 0 && (H5Tset_size(t, size) < 0 || H5Tset_strpad(t, H5T_STR_NULLTERM) < 0))
        pt_close(&t);
    return t;
}

static hid_t rec_type(void)
{
    hid_t t = H5Tcreate(H5T_COMPOUND, sizeof(papcoll_rank_record_t));

    if (t < 0 || H5Tinsert(t, "compute_start", HOFFSET(papcoll_rank_record_t, compute_start), H5T_NATIVE_DOUBLE) < 0 ||
        H5Tinsert(t, "edge", HOFFSET(papcoll_rank_record_t, edge), H5T_NATIVE_DOUBLE) < 0 ||
        H5Tinsert(t, "compute_end", HOFFSET(papcoll_rank_record_t, compute_end), H5T_NATIVE_DOUBLE) < 0 ||
        H5Tinsert(t, "arrival", HOFFSET(papcoll_rank_record_t, arrival), H5T_NATIVE_DOUBLE) < 0 ||
        H5Tinsert(t, "exit", HOFFSET(papcoll_rank_record_t, exit), H5T_NATIVE_DOUBLE) < 0 ||
        H5Tinsert(t, "predicted", HOFFSET(papcoll_rank_record_t, predicted), H5T_NATIVE_DOUBLE) < 0)
        pt_close(&t);
    return t;
}

static hid_t iter_type(void)
{
    hid_t t = H5Tcreate(H5T_COMPOUND, sizeof(paptrace_iter_t));

    if (t < 0 || H5Tinsert(t, "iter", HOFFSET(paptrace_iter_t, iter), H5T_NATIVE_INT) < 0 ||
        H5Tinsert(t, "algo", HOFFSET(paptrace_iter_t, algo), H5T_NATIVE_INT) < 0 ||
        H5Tinsert(t, "root", HOFFSET(paptrace_iter_t, root), H5T_NATIVE_INT) < 0 ||
        H5Tinsert(t, "bytes", HOFFSET(paptrace_iter_t, bytes), H5T_NATIVE_LLONG) < 0 ||
        H5Tinsert(t, "plan_time", HOFFSET(paptrace_iter_t, plan_time), H5T_NATIVE_DOUBLE) < 0 ||
        H5Tinsert(t, "runtime", HOFFSET(paptrace_iter_t, runtime), H5T_NATIVE_DOUBLE) < 0 ||
        H5Tinsert(t, "elapsed", HOFFSET(paptrace_iter_t, elapsed), H5T_NATIVE_DOUBLE) < 0)
        pt_close(&t);
    return t;
}

static hid_t clock_type(void)
{
    hid_t t = H5Tcreate(H5T_COMPOUND, sizeof(paptrace_clock_row_t));

    if (t < 0 || H5Tinsert(t, "when", HOFFSET(paptrace_clock_row_t, when), H5T_NATIVE_DOUBLE) < 0 ||
        H5Tinsert(t, "offset", HOFFSET(paptrace_clock_row_t, offset), H5T_NATIVE_DOUBLE) < 0 ||
        H5Tinsert(t, "drift", HOFFSET(paptrace_clock_row_t, drift), H5T_NATIVE_DOUBLE) < 0 ||
        H5Tinsert(t, "error", HOFFSET(paptrace_clock_row_t, error), H5T_NATIVE_DOUBLE) < 0)
        pt_close(&t);
    return t;
}

static hid_t rankinfo_type(void)
{
    hid_t t = H5Tcreate(H5T_COMPOUND, sizeof(pt_rankinfo_t)), s = str_type(PT_HOST_LEN);

    if (t >= 0 && (s < 0 || H5Tinsert(t, "rank", HOFFSET(pt_rankinfo_t, rank), H5T_NATIVE_INT) < 0 ||
                   H5Tinsert(t, "pid", HOFFSET(pt_rankinfo_t, pid), H5T_NATIVE_LLONG) < 0 ||
                   H5Tinsert(t, "host", HOFFSET(pt_rankinfo_t, host), s) < 0))
        pt_close(&t);
    pt_close(&s);
    return t;
}

static hid_t algo_type(void)
{
    hid_t t = H5Tcreate(H5T_COMPOUND, sizeof(pt_algo_t)), s = str_type(PT_ALGO_LEN);

    if (t >= 0 && (s < 0 || H5Tinsert(t, "id", HOFFSET(pt_algo_t, id), H5T_NATIVE_INT) < 0 ||
                   H5Tinsert(t, "name", HOFFSET(pt_algo_t, name), s) < 0))
        pt_close(&t);
    pt_close(&s);
    return t;
}

static hid_t decision_type(void)
{
    hid_t t = H5Tcreate(H5T_COMPOUND, sizeof(paptrace_decision_t));
    hid_t r = str_type(PAPTRACE_REASON_LEN), d = str_type(PAPTRACE_DETAIL_LEN);

    if (t >= 0 &&
        (r < 0 || d < 0 || H5Tinsert(t, "iter", HOFFSET(paptrace_decision_t, iter), H5T_NATIVE_INT) < 0 ||
         H5Tinsert(t, "algo", HOFFSET(paptrace_decision_t, algo), H5T_NATIVE_INT) < 0 ||
         H5Tinsert(t, "reason", HOFFSET(paptrace_decision_t, reason), r) < 0 ||
         H5Tinsert(t, "detail", HOFFSET(paptrace_decision_t, detail), d) < 0))
        pt_close(&t);
    pt_close(&d);
    pt_close(&r);
    return t;
}

int pt_types_create(pt_types_t *t)
{
    t->rec = rec_type();
    t->iter = iter_type();
    t->clock = clock_type();
    t->rankinfo = rankinfo_type();
    t->algo = algo_type();
    t->decision = decision_type();
    if (t->rec >= 0 && t->iter >= 0 && t->clock >= 0 && t->rankinfo >= 0 && t->algo >= 0 && t->decision >= 0)
        return PAPTRACE_OK;
    pt_types_close(t);
    return PAPTRACE_ERR_HDF5;
}

void pt_types_close(pt_types_t *t)
{
    pt_close(&t->decision);
    pt_close(&t->algo);
    pt_close(&t->rankinfo);
    pt_close(&t->clock);
    pt_close(&t->iter);
    pt_close(&t->rec);
}

/* Creates and writes attribute name of type type and space space. */
static int attr_write(hid_t obj, const char *name, hid_t type, hid_t space, const void *buf)
{
    hid_t a = H5I_INVALID_HID;
    int rc = PAPTRACE_ERR_HDF5;

    if (type < 0 || space < 0)
        return rc;
    a = H5Acreate2(obj, name, type, space, H5P_DEFAULT, H5P_DEFAULT);
    if (a >= 0 && H5Awrite(a, type, buf) >= 0)
        rc = PAPTRACE_OK;
    pt_close(&a);
    return rc;
}

int pt_attr_write_str(hid_t obj, const char *name, const char *value)
{
    hid_t type = str_type(strlen(value) + 1), space = H5Screate(H5S_SCALAR);
    int rc = attr_write(obj, name, type, space, value);

    pt_close(&space);
    pt_close(&type);
    return rc;
}

int pt_attr_write_int(hid_t obj, const char *name, long long value)
{
    hid_t space = H5Screate(H5S_SCALAR), a = H5I_INVALID_HID;
    int rc = PAPTRACE_ERR_HDF5;

    if (space >= 0)
        a = H5Acreate2(obj, name, H5T_STD_I64LE, space, H5P_DEFAULT, H5P_DEFAULT);
    if (a >= 0 && H5Awrite(a, H5T_NATIVE_LLONG, &value) >= 0)
        rc = PAPTRACE_OK;
    pt_close(&a);
    pt_close(&space);
    return rc;
}

int pt_attr_write_strs(hid_t obj, const char *name, char *const *values, int n)
{
    hsize_t dim = (hsize_t)n;
    size_t len = 1, i;
    hid_t type = H5I_INVALID_HID, space = H5I_INVALID_HID;
    char *buf;
    int rc;

    for (i = 0; i < (size_t)n; i++)
        len = strlen(values[i]) + 1 > len ? strlen(values[i]) + 1 : len;
    if ((buf = calloc((size_t)n + 1, len)) == NULL)
        return PAPTRACE_ERR_NOMEM;
    for (i = 0; i < (size_t)n; i++)
        memcpy(buf + i * len, values[i], strlen(values[i]));
    type = str_type(len);
    space = H5Screate_simple(1, &dim, NULL);
    rc = attr_write(obj, name, type, space, buf);
    pt_close(&space);
    pt_close(&type);
    free(buf);
    return rc;
}

/* Opens attribute name if it is a fixed-length string; returns its size per element. */
static hid_t open_str_attr(hid_t obj, const char *name, size_t *size)
{
    hid_t a = H5Aopen(obj, name, H5P_DEFAULT), t = H5I_INVALID_HID;
    int ok = 0;

    if (a >= 0)
        t = H5Aget_type(a);
    if (t >= 0 && H5Tget_class(t) == H5T_STRING && H5Tis_variable_str(t) == 0) {
        *size = H5Tget_size(t);
        ok = *size > 0 && *size < ((size_t)1 << 30);
    }
    pt_close(&t);
    if (!ok)
        pt_close(&a);
    return a;
}

/*
 * Reads all n strings of attribute a into a fresh buffer of n slots of size
 * bytes (the file's size plus one: a NUL-padded string of another writer
 * may use every byte of its slot).
 */
static char *read_str_buf(hid_t a, size_t size, size_t n)
{
    hid_t mt = str_type(size);
    char *buf = calloc(n * size + 1, 1);

    if (mt < 0 || buf == NULL || H5Aread(a, mt, buf) < 0) {
        free(buf);
        buf = NULL;
    }
    pt_close(&mt);
    return buf;
}

/* A scalar variable-length string attribute (other writers, e.g. h5py, make these). */
static char *read_vlen_str(hid_t a)
{
    hid_t mt = H5Tcopy(H5T_C_S1);
    char *v = NULL, *out = NULL;

    if (mt >= 0 && H5Tset_size(mt, H5T_VARIABLE) >= 0 && H5Aread(a, mt, &v) >= 0 && v != NULL) {
        out = strdup(v);
        H5free_memory(v);
    }
    pt_close(&mt);
    return out;
}

char *pt_attr_read_str(hid_t obj, const char *name)
{
    size_t size = 0;
    hid_t a = open_str_attr(obj, name, &size), s = H5I_INVALID_HID, t = H5I_INVALID_HID;
    char *buf = NULL;

    if (a < 0 && H5Aexists(obj, name) > 0 && (a = H5Aopen(obj, name, H5P_DEFAULT)) >= 0) {
        t = H5Aget_type(a);
        if (t >= 0 && H5Tget_class(t) == H5T_STRING && H5Tis_variable_str(t) > 0 && (s = H5Aget_space(a)) >= 0 &&
            H5Sget_simple_extent_type(s) == H5S_SCALAR)
            buf = read_vlen_str(a);
        pt_close(&s);
        pt_close(&t);
        pt_close(&a);
        return buf;
    }
    if (a >= 0)
        s = H5Aget_space(a);
    if (s >= 0 && H5Sget_simple_extent_type(s) == H5S_SCALAR)
        buf = read_str_buf(a, size + 1, 1);
    pt_close(&s);
    pt_close(&a);
    return buf;
}

int pt_attr_read_int(hid_t obj, const char *name, long long *value)
{
    hid_t a = H5Aopen(obj, name, H5P_DEFAULT), t = H5I_INVALID_HID, s = H5I_INVALID_HID;
    int rc = PAPTRACE_ERR_CORRUPT;

    if (a >= 0) {
        t = H5Aget_type(a);
        s = H5Aget_space(a);
    }
    if (t >= 0 && s >= 0 && H5Tget_class(t) == H5T_INTEGER && H5Sget_simple_extent_type(s) == H5S_SCALAR &&
        H5Aread(a, H5T_NATIVE_LLONG, value) >= 0)
        rc = PAPTRACE_OK;
    pt_close(&s);
    pt_close(&t);
    pt_close(&a);
    return rc;
}

int pt_attr_read_strs(hid_t obj, const char *name, char ***values, int *n)
{
    size_t size = 0, i, count = 0;
    hid_t a = open_str_attr(obj, name, &size), s = H5I_INVALID_HID;
    hssize_t np = -1;
    char *buf = NULL, **out = NULL;
    int rc = PAPTRACE_ERR_CORRUPT;

    if (a >= 0)
        s = H5Aget_space(a);
    if (s >= 0 && H5Sget_simple_extent_ndims(s) == 1)
        np = H5Sget_simple_extent_npoints(s);
    if (np >= 0 && np < (1 << 24) && (buf = read_str_buf(a, ++size, count = (size_t)np)) != NULL) {
        rc = PAPTRACE_ERR_NOMEM;
        if ((out = calloc(count + 1, sizeof *out)) != NULL) {
            for (i = 0; i < count; i++)
                if ((out[i] = strndup(buf + i * size, size)) == NULL)
                    break;
            rc = i == count ? PAPTRACE_OK : PAPTRACE_ERR_NOMEM;
        }
    }
    if (rc != PAPTRACE_OK && out != NULL) {
        for (i = 0; i < count; i++)
            free(out[i]);
        free(out);
        out = NULL;
    }
    *values = out;
    *n = (int)count;
    free(buf);
    pt_close(&s);
    pt_close(&a);
    return rc;
}

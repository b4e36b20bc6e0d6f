/*
 * The trace reader: paptrace_read() loads a whole file (trace/SCHEMA.md)
 * into plain C structures.  Bad input of any kind -- missing, not HDF5,
 * another format or schema version, truncated or corrupted -- comes back as
 * an error code and one line of text, never as a crash or HDF5's own error
 * stack (silenced for the duration of the call).
 *
 * Files of running or killed jobs are opened in SWMR-read mode (the writer
 * leaves the file marked as open for SWMR writing); a file written to the
 * end is opened in either mode.
 *
 * Versions: schema 1 and 2 (SCHEMA.md, "Changes").  Operations are known
 * by name, never by number: /algorithms may hold the tables of any set of
 * papcoll_ops.def's operations, and a name this reader does not know is
 * refused (a newer papcoll wrote the file).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "trace_internal.h"

#define MAX_RANKS (1 << 24)
#define MAX_ROWS ((hsize_t)1 << 31)

/* Reader state: the file, the types, and where an error happened. */
typedef struct {
    hid_t file;
    pt_types_t mt;
    int head_only;   /* the sites' rows stay in the file (paptrace_stream_open) */
    char where[256]; /* what was being read when something failed */
} reader_t;

#define READER_INIT                                                                                       \
    {H5I_INVALID_HID,                                                                                     \
     {H5I_INVALID_HID, H5I_INVALID_HID, H5I_INVALID_HID, H5I_INVALID_HID, H5I_INVALID_HID, H5I_INVALID_HID}, \
     0, ""}

/* Records where reading failed; the arguments may include r->where itself
 * (an inner failure wrapped by an outer one). */
static int fail_at(reader_t *r, int rc, const char *fmt, ...)
{
    char buf[sizeof r->where];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    memcpy(r->where, buf, sizeof buf);
    return rc;
}

/*
 * Reads dataset loc/name whole: 1-D (cols 0) or 2-D with cols columns, as
 * memory type mtype of elsize bytes.  *rows gets the row count.
 */
static int read_all(reader_t *r, hid_t loc, const char *name, hid_t mtype, size_t elsize, hsize_t cols,
                    void **buf, hsize_t *rows)
{
    hid_t d = H5Dopen2(loc, name, H5P_DEFAULT), s = H5I_INVALID_HID;
    hsize_t dims[2] = {0, 0};
    int ndims = cols > 0 ? 2 : 1, rc = PAPTRACE_ERR_CORRUPT;
    size_t n;

    *buf = NULL;
    *rows = 0;
    if (d >= 0 && (s = H5Dget_space(d)) >= 0 && H5Sget_simple_extent_ndims(s) == ndims &&
        H5Sget_simple_extent_dims(s, dims, NULL) == ndims && dims[0] < MAX_ROWS && (cols == 0 || dims[1] == cols)) {
        n = (size_t)dims[0] * (size_t)(cols ? cols : 1);
        rc = PAPTRACE_ERR_NOMEM;
        if ((*buf = calloc(n ? n : 1, elsize)) != NULL) {
            rc = n == 0 || H5Dread(d, mtype, H5S_ALL, H5S_ALL, H5P_DEFAULT, *buf) >= 0 ? PAPTRACE_OK
                                                                                        : PAPTRACE_ERR_CORRUPT;
            *rows = dims[0];
        }
    }
    pt_close(&s);
    pt_close(&d);
    if (rc != PAPTRACE_OK) {
        free(*buf);
        *buf = NULL;
        return fail_at(r, rc, "reading dataset %s", name);
    }
    return rc;
}

/* Rows of dataset loc/name, checked as read_all checks its shape. */
static int count_rows(reader_t *r, hid_t loc, const char *name, hsize_t cols, hsize_t *rows)
{
    hid_t d = H5Dopen2(loc, name, H5P_DEFAULT), s = H5I_INVALID_HID;
    hsize_t dims[2] = {0, 0};
    int ndims = cols > 0 ? 2 : 1, ok;

    ok = d >= 0 && (s = H5Dget_space(d)) >= 0 && H5Sget_simple_extent_ndims(s) == ndims &&
         H5Sget_simple_extent_dims(s, dims, NULL) == ndims && dims[0] < MAX_ROWS && (cols == 0 || dims[1] == cols);
    pt_close(&s);
    pt_close(&d);
    *rows = ok ? dims[0] : 0;
    return ok ? PAPTRACE_OK : fail_at(r, PAPTRACE_ERR_CORRUPT, "reading dataset %s", name);
}

/* Rows first .. first + n - 1 of the open dataset d (cols columns, 0: 1-D) into buf. */
static int read_slab(hid_t d, hid_t mtype, hsize_t cols, hsize_t first, hsize_t n, void *buf)
{
    hsize_t start[2] = {first, 0}, count[2] = {n, cols}, mdims[2] = {n, cols};
    int ndims = cols > 0 ? 2 : 1;
    hid_t fs = H5Dget_space(d), ms = H5Screate_simple(ndims, mdims, NULL);
    int ok = fs >= 0 && ms >= 0 && H5Sselect_hyperslab(fs, H5S_SELECT_SET, start, NULL, count, NULL) >= 0 &&
             H5Dread(d, mtype, ms, fs, H5P_DEFAULT, buf) >= 0;

    pt_close(&ms);
    pt_close(&fs);
    return ok ? PAPTRACE_OK : PAPTRACE_ERR_CORRUPT;
}

/* The call index of a site's last kept row, read alone (the rows stay in the file). */
static int last_iter(reader_t *r, hid_t g, const paptrace_site_t *s, long *last)
{
    hid_t d;
    paptrace_iter_t it;
    int rc = PAPTRACE_OK;

    *last = -1;
    if (s->niters == 0)
        return rc;
    if (!r->head_only) {
        *last = s->iters[s->niters - 1].iter;
        return rc;
    }
    d = H5Dopen2(g, "iters", H5P_DEFAULT);
    rc = d >= 0 ? read_slab(d, r->mt.iter, 0, (hsize_t)s->niters - 1, 1, &it) : PAPTRACE_ERR_CORRUPT;
    pt_close(&d);
    *last = it.iter;
    return rc == PAPTRACE_OK ? rc : fail_at(r, rc, "reading dataset iters");
}

static int read_str(reader_t *r, hid_t obj, const char *name, char **out)
{
    if ((*out = pt_attr_read_str(obj, name)) == NULL)
        return fail_at(r, PAPTRACE_ERR_CORRUPT, "reading attribute %s", name);
    return PAPTRACE_OK;
}

static int read_int(reader_t *r, hid_t obj, const char *name, long long lo, long long hi, long long *out)
{
    if (pt_attr_read_int(obj, name, out) != PAPTRACE_OK || *out < lo || *out > hi)
        return fail_at(r, PAPTRACE_ERR_CORRUPT, "reading attribute %s", name);
    return PAPTRACE_OK;
}

/* format and schema_version first: they decide whether the rest is ours. */
static int read_identity(reader_t *r, paptrace_file_t *f)
{
    char *format = pt_attr_read_str(r->file, "format");
    long long v = 0;
    int ok = format != NULL && strcmp(format, "paptrace") == 0;

    free(format);
    if (!ok)
        return PAPTRACE_ERR_FORMAT;
    if (pt_attr_read_int(r->file, "schema_version", &v) != PAPTRACE_OK)
        return fail_at(r, PAPTRACE_ERR_CORRUPT, "reading attribute schema_version");
    f->schema_version = (int)v;
    if (v < PAPTRACE_SCHEMA_OLDEST || v > PAPTRACE_SCHEMA_VERSION)
        return fail_at(r, PAPTRACE_ERR_SCHEMA, "schema version %lld, this reader knows %d to %d", v,
                       PAPTRACE_SCHEMA_OLDEST, PAPTRACE_SCHEMA_VERSION);
    f->has_decisions = v >= 2;
    return PAPTRACE_OK;
}

static int read_root(reader_t *r, paptrace_file_t *f)
{
    long long n = 0, k = 0;
    int rc = read_str(r, r->file, "program", &f->program);

    if (rc == PAPTRACE_OK && pt_attr_read_strs(r->file, "argv", &f->argv, &f->argc) != PAPTRACE_OK)
        rc = fail_at(r, PAPTRACE_ERR_CORRUPT, "reading attribute argv");
    rc = rc ? rc : read_str(r, r->file, "config", &f->config);
    rc = rc ? rc : read_str(r, r->file, "mpi_library", &f->mpi_library);
    rc = rc ? rc : read_str(r, r->file, "papcoll_version", &f->version);
    rc = rc ? rc : read_str(r, r->file, "hdf5_version", &f->hdf5_version);
    rc = rc ? rc : read_str(r, r->file, "start_utc", &f->start_utc);
    rc = rc ? rc : read_str(r, r->file, "clock_method", &f->clock_method);
    rc = rc ? rc : read_int(r, r->file, "nranks", 1, MAX_RANKS, &n);
    rc = rc ? rc : read_int(r, r->file, "flush_every", 1, 1LL << 30, &k);
    f->nranks = (int)n;
    f->flush_every = (int)k;
    return rc;
}

static int read_ranks(reader_t *r, paptrace_file_t *f)
{
    pt_rankinfo_t *rows = NULL;
    hsize_t n = 0;
    int i, rc = read_all(r, r->file, "ranks", r->mt.rankinfo, sizeof *rows, 0, (void **)&rows, &n);

    if (rc == PAPTRACE_OK && n != (hsize_t)f->nranks)
        rc = fail_at(r, PAPTRACE_ERR_CORRUPT, "dataset ranks has %llu rows for %d ranks", (unsigned long long)n,
                     f->nranks);
    if (rc == PAPTRACE_OK) {
        f->hosts = calloc((size_t)f->nranks, sizeof *f->hosts);
        f->pids = calloc((size_t)f->nranks, sizeof *f->pids);
        rc = f->hosts && f->pids ? PAPTRACE_OK : PAPTRACE_ERR_NOMEM;
    }
    for (i = 0; rc == PAPTRACE_OK && i < f->nranks; i++) {
        rows[i].host[PT_HOST_LEN - 1] = '\0';
        f->pids[i] = rows[i].pid;
        if ((f->hosts[i] = strdup(rows[i].host)) == NULL)
            rc = PAPTRACE_ERR_NOMEM;
    }
    free(rows);
    return rc;
}

static int read_clock(reader_t *r, paptrace_file_t *f)
{
    hsize_t n = 0;
    int rc = read_all(r, r->file, "clock", r->mt.clock, sizeof(paptrace_clock_row_t), (hsize_t)f->nranks,
                      (void **)&f->clock, &n);

    f->nclock = (long)n;
    return rc;
}

/* "gather, scatter, ...": the operations this reader knows. */
static void known_ops(char *buf, size_t len)
{
    size_t used = 0;
    int op;

    buf[0] = '\0';
    for (op = 0; op < PAPCOLL_OP_COUNT && used < len; op++)
        used += (size_t)snprintf(buf + used, len - used, "%s%s", op ? ", " : "",
                                 papcoll_op_name((papcoll_op_t)op));
}

/* The operation called name, or an ERR_OP naming where it was found. */
static int find_op(reader_t *r, const char *name, const char *where, papcoll_op_t *op)
{
    char known[128];
    int i = papcoll_op_find(name);

    if (i >= 0) {
        *op = (papcoll_op_t)i;
        return PAPTRACE_OK;
    }
    known_ops(known, sizeof known);
    return fail_at(r, PAPTRACE_ERR_OP, "unknown operation '%.32s' in %s (this reader knows %s)", name, where,
                   known);
}

/* /algorithms/<op> into f->algos[op]: row i must have id i. */
static int read_algo_table(reader_t *r, hid_t g, papcoll_op_t op, paptrace_file_t *f)
{
    const char *name = papcoll_op_name(op);
    pt_algo_t *rows = NULL;
    hsize_t n = 0, i;
    int rc = read_all(r, g, name, r->mt.algo, sizeof *rows, 0, (void **)&rows, &n);

    if (rc == PAPTRACE_OK && n > 4096)
        rc =
            fail_at(r, PAPTRACE_ERR_CORRUPT, "algorithm table %s has %llu rows", name, (unsigned long long)n);
    if (rc == PAPTRACE_OK && (f->algos[op] = calloc((size_t)n + 1, sizeof(char *))) == NULL)
        rc = PAPTRACE_ERR_NOMEM;
    for (i = 0; rc == PAPTRACE_OK && i < n; i++) {
        rows[i].name[PT_ALGO_LEN - 1] = '\0';
        if (rows[i].id != (int)i)
            rc = fail_at(r, PAPTRACE_ERR_CORRUPT, "algorithm table %s: id %d in row %llu", name, rows[i].id,
                         (unsigned long long)i);
        else if ((f->algos[op][i] = strdup(rows[i].name)) == NULL)
            rc = PAPTRACE_ERR_NOMEM;
        else
            f->nalgos[op] = (int)i + 1;
    }
    free(rows);
    return rc;
}

/* Every table in /algorithms, whatever set of operations the file describes. */
static int read_algorithms(reader_t *r, paptrace_file_t *f)
{
    hid_t g = H5Gopen2(r->file, "algorithms", H5P_DEFAULT);
    H5G_info_t info;
    papcoll_op_t op = PAPCOLL_OP_GATHER;
    char name[64];
    hsize_t i;
    int rc = g >= 0 && H5Gget_info(g, &info) >= 0 && info.nlinks <= 1024
                 ? PAPTRACE_OK
                 : fail_at(r, PAPTRACE_ERR_CORRUPT, "opening group algorithms");

    for (i = 0; rc == PAPTRACE_OK && i < info.nlinks; i++) {
        if (H5Lget_name_by_idx(g, ".", H5_INDEX_NAME, H5_ITER_INC, i, name, sizeof name, H5P_DEFAULT) < 0)
            rc = fail_at(r, PAPTRACE_ERR_CORRUPT, "listing group algorithms");
        rc = rc ? rc : find_op(r, name, "/algorithms", &op);
        if (rc == PAPTRACE_OK && f->algos[op] != NULL)
            rc = fail_at(r, PAPTRACE_ERR_CORRUPT, "two algorithm tables of %s", name);
        rc = rc ? rc : read_algo_table(r, g, op, f);
    }
    pt_close(&g);
    return rc;
}

/* Decisions of a site (schema 2 on), those of its first niters calls. */
static int read_decisions(reader_t *r, hid_t g, paptrace_site_t *s)
{
    hsize_t n = 0;
    long k, last = -1;
    int rc = last_iter(r, g, s, &last);

    rc = rc ? rc : read_all(r, g, "decisions", r->mt.decision, sizeof *s->decisions, 0, (void **)&s->decisions, &n);

    for (k = 0; rc == PAPTRACE_OK && k < (long)n; k++) {
        s->decisions[k].reason[PAPTRACE_REASON_LEN - 1] = '\0';
        s->decisions[k].detail[PAPTRACE_DETAIL_LEN - 1] = '\0';
        /* A killed writer may have written decisions of calls whose rows are missing. */
        if (s->decisions[k].iter <= last)
            s->ndecisions = k + 1;
    }
    return rc;
}

/* The operation of a site group, by name; its table must be in the file. */
static int read_site_op(reader_t *r, hid_t g, const char *gname, const paptrace_file_t *f, paptrace_site_t *s)
{
    char *name = NULL, where[80];
    int rc = read_str(r, g, "op", &name);

    snprintf(where, sizeof where, "sites/%s", gname);
    rc = rc ? rc : find_op(r, name, where, &s->op);
    if (rc == PAPTRACE_OK && f->nalgos[s->op] == 0)
        rc = fail_at(r, PAPTRACE_ERR_CORRUPT, "operation %s has no table in /algorithms", name);
    free(name);
    return rc;
}

/* One /sites/<id> group into s. */
static int read_site(reader_t *r, hid_t sites, const char *gname, const paptrace_file_t *f,
                     paptrace_site_t *s)
{
    hid_t g = H5Gopen2(sites, gname, H5P_DEFAULT);
    int nranks = f->nranks;
    long long id = 0;
    hsize_t nr = 0, ni = 0;
    int rc = g >= 0 ? PAPTRACE_OK : PAPTRACE_ERR_CORRUPT;

    s->nranks = nranks;
    rc = rc ? rc : read_str(r, g, "name", &s->name);
    rc = rc ? rc : read_int(r, g, "site_id", 0, 1 << 30, &id);
    rc = rc ? rc : read_site_op(r, g, gname, f, s);
    rc = rc ? rc : read_str(r, g, "datatype", &s->datatype);
    rc = rc ? rc : read_int(r, g, "count", 0, (long long)1 << 62, &s->count);
    if (r->head_only) {
        rc = rc ? rc : count_rows(r, g, "ranks", (hsize_t)nranks, &nr);
        rc = rc ? rc : count_rows(r, g, "iters", 0, &ni);
    } else {
        rc = rc ? rc
                : read_all(r, g, "ranks", r->mt.rec, sizeof *s->ranks, (hsize_t)nranks, (void **)&s->ranks, &nr);
        rc = rc ? rc : read_all(r, g, "iters", r->mt.iter, sizeof *s->iters, 0, (void **)&s->iters, &ni);
    }
    s->site_id = (int)id;
    /* A killed writer may have extended one table of a pair further than the other. */
    s->niters = (long)(nr < ni ? nr : ni);
    if (rc == PAPTRACE_OK && f->has_decisions)
        rc = read_decisions(r, g, s);
    pt_close(&g);
    if (rc == PAPTRACE_ERR_OP)
        return rc;
    if (rc != PAPTRACE_OK)
        return fail_at(r, rc, "reading site group sites/%s (%s)", gname, r->where[0] ? r->where : "open");
    return rc;
}

static int cmp_site(const void *a, const void *b)
{
    const paptrace_site_t *x = a, *y = b;

    return (x->site_id > y->site_id) - (x->site_id < y->site_id);
}

static int read_sites(reader_t *r, paptrace_file_t *f)
{
    hid_t g = H5Gopen2(r->file, "sites", H5P_DEFAULT);
    H5G_info_t info;
    char name[64];
    hsize_t i;
    int rc = g >= 0 && H5Gget_info(g, &info) >= 0 && info.nlinks < (1u << 20)
                 ? PAPTRACE_OK
                 : fail_at(r, PAPTRACE_ERR_CORRUPT, "opening group sites");

    if (rc == PAPTRACE_OK && (f->sites = calloc((size_t)info.nlinks + 1, sizeof *f->sites)) == NULL)
        rc = PAPTRACE_ERR_NOMEM;
    for (i = 0; rc == PAPTRACE_OK && i < info.nlinks; i++) {
        if (H5Lget_name_by_idx(g, ".", H5_INDEX_NAME, H5_ITER_INC, i, name, sizeof name, H5P_DEFAULT) < 0)
            rc = fail_at(r, PAPTRACE_ERR_CORRUPT, "listing group sites");
        else
            rc = read_site(r, g, name, f, &f->sites[i]);
        f->nsites = (int)i + 1;
    }
    pt_close(&g);
    if (rc == PAPTRACE_OK)
        qsort(f->sites, (size_t)f->nsites, sizeof *f->sites, cmp_site);
    return rc;
}

/* H5Ewalk2 callback: keeps the description of an entry that says "truncated". */
static herr_t find_truncated(unsigned n, const H5E_error2_t *e, void *data)
{
    char *out = data;

    (void)n;
    if (out[0] == '\0' && e->desc != NULL && strstr(e->desc, "truncated") != NULL)
        snprintf(out, 128, "%s", e->desc);
    return 0;
}

/*
 * Opens path read-only: SWMR-read first (running or killed writers), then
 * plain.  A SWMR reader retries a metadata read whose checksum fails, since
 * the writer may be in the middle of it; a few attempts are enough here,
 * the library's default (100, with growing sleeps) makes a damaged file
 * look like a hang.
 */
static int open_file(reader_t *r, const char *path)
{
    hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
    char why[128] = "";

    /* Closing the file closes every object a failed read of a damaged file
     * left open (otherwise HDF5 reports an infinite loop at exit). */
    if (fapl >= 0 && H5Pset_fclose_degree(fapl, H5F_CLOSE_STRONG) >= 0 &&
        H5Pset_metadata_read_attempts(fapl, 4) >= 0)
        r->file = H5Fopen(path, H5F_ACC_RDONLY | H5F_ACC_SWMR_READ, fapl);
    if (r->file < 0 && fapl >= 0)
        r->file = H5Fopen(path, H5F_ACC_RDONLY, fapl);
    if (r->file < 0)
        H5Ewalk2(H5E_DEFAULT, H5E_WALK_DOWNWARD, find_truncated, why);
    pt_close(&fapl);
    if (why[0])
        return fail_at(r, PAPTRACE_ERR_CORRUPT, "HDF5: %s", why);
    return r->file >= 0 ? PAPTRACE_OK : PAPTRACE_ERR_OPEN;
}

/*
 * HDF5 skips its end-of-file check in SWMR-read mode (a writer may be
 * ahead), and reads past the end as zeros: compare the size with the end
 * of allocated space the superblock records (a flushed file is never
 * shorter; only a truncated one is).
 */
static int check_size(reader_t *r, off_t size)
{
    haddr_t eoa = 0;

    if (H5Fget_eoa(r->file, &eoa) < 0)
        return fail_at(r, PAPTRACE_ERR_CORRUPT, "no end-of-allocation address");
    if (eoa > (haddr_t)size)
        return fail_at(r, PAPTRACE_ERR_CORRUPT, "file is truncated: %lld bytes, its superblock needs %llu",
                       (long long)size, (unsigned long long)eoa);
    return PAPTRACE_OK;
}

static int read_file(reader_t *r, const char *path, paptrace_file_t *f)
{
    struct stat st;
    int rc;

    if (stat(path, &st) != 0)
        return fail_at(r, PAPTRACE_ERR_NOFILE, "%s", strerror(errno));
    if (!S_ISREG(st.st_mode))
        return fail_at(r, PAPTRACE_ERR_NOFILE, "not a regular file");
    if (H5Fis_hdf5(path) <= 0)
        return PAPTRACE_ERR_NOTHDF5;
    rc = open_file(r, path);
    rc = rc ? rc : check_size(r, st.st_size);
    rc = rc ? rc : pt_types_create(&r->mt);
    rc = rc ? rc : read_identity(r, f);
    rc = rc ? rc : read_root(r, f);
    rc = rc ? rc : read_ranks(r, f);
    rc = rc ? rc : read_clock(r, f);
    rc = rc ? rc : read_algorithms(r, f);
    rc = rc ? rc : read_sites(r, f);
    return rc;
}

/* One line about what failed into err. */
static void describe(const reader_t *r, const char *path, int rc, char *err, size_t errlen)
{
    if (rc == PAPTRACE_ERR_SCHEMA || rc == PAPTRACE_ERR_NOFILE || rc == PAPTRACE_ERR_OP)
        snprintf(err, errlen, "%s: %s", path, r->where);
    else if (r->where[0])
        snprintf(err, errlen, "%s: %s (%s)", path, paptrace_strerror(rc), r->where);
    else
        snprintf(err, errlen, "%s: %s", path, paptrace_strerror(rc));
}

int paptrace_read(const char *path, paptrace_file_t **out, char *err, size_t errlen)
{
    reader_t r = READER_INIT;
    paptrace_file_t *f = calloc(1, sizeof *f);
    pt_quiet_t q;
    int rc;

    *out = NULL;
    if (f == NULL)
        return PAPTRACE_ERR_NOMEM;
    pt_quiet_begin(&q);
    rc = read_file(&r, path, f);
    pt_types_close(&r.mt);
    pt_close(&r.file);
    pt_quiet_end(&q);
    if (rc != PAPTRACE_OK) {
        describe(&r, path, rc, err, errlen);
        paptrace_file_free(&f);
        return rc;
    }
    *out = f;
    return PAPTRACE_OK;
}

static void free_strs(char **v, int n)
{
    int i;

    for (i = 0; v != NULL && i < n; i++)
        free(v[i]);
    free(v);
}

void paptrace_file_free(paptrace_file_t **fp)
{
    paptrace_file_t *f = fp ? *fp : NULL;
    int i;

    if (f == NULL)
        return;
    for (i = 0; i < f->nsites; i++) {
        free(f->sites[i].name);
        free(f->sites[i].datatype);
        free(f->sites[i].iters);
        free(f->sites[i].ranks);
        free(f->sites[i].decisions);
    }
    free(f->sites);
    for (i = 0; i < PAPCOLL_OP_COUNT; i++)
        free_strs(f->algos[i], f->nalgos[i]);
    free(f->clock);
    free(f->pids);
    free_strs(f->hosts, f->nranks);
    free_strs(f->argv, f->argc);
    free(f->program);
    free(f->config);
    free(f->mpi_library);
    free(f->version);
    free(f->hdf5_version);
    free(f->start_utc);
    free(f->clock_method);
    free(f);
    *fp = NULL;
}

/* By the full name, or by the part before " [" of a signature site's name
 * (the interposer's "gather/r0/96B [root at ..., others at ...]"). */
const paptrace_site_t *paptrace_find_site(const paptrace_file_t *f, const char *name)
{
    size_t n = strlen(name);
    int i;

    for (i = 0; i < f->nsites; i++)
        if (strcmp(f->sites[i].name, name) == 0)
            return &f->sites[i];
    for (i = 0; i < f->nsites; i++)
        if (strncmp(f->sites[i].name, name, n) == 0 && strncmp(f->sites[i].name + n, " [", 2) == 0)
            return &f->sites[i];
    return NULL;
}

const char *paptrace_algo_name(const paptrace_file_t *f, papcoll_op_t op, int algo)
{
    if (op < 0 || op >= PAPCOLL_OP_COUNT || algo < 0 || algo >= f->nalgos[op])
        return "?";
    return f->algos[op][algo];
}

void paptrace_reader_only(void)
{
    H5dont_atexit();
}

/*
 * Streaming: the head (everything but the sites' rows) in memory, the file
 * open with a dataset pair per site, rows read on demand.
 */
struct paptrace_stream {
    reader_t r;
    paptrace_file_t *head;
    hid_t *ranks, *iters; /* per site of head, in its order */
};

static int open_site_rows(paptrace_stream_t *s, int i)
{
    char path[64];

    snprintf(path, sizeof path, "sites/%d/ranks", s->head->sites[i].site_id);
    s->ranks[i] = H5Dopen2(s->r.file, path, H5P_DEFAULT);
    snprintf(path, sizeof path, "sites/%d/iters", s->head->sites[i].site_id);
    s->iters[i] = H5Dopen2(s->r.file, path, H5P_DEFAULT);
    if (s->ranks[i] < 0 || s->iters[i] < 0)
        return fail_at(&s->r, PAPTRACE_ERR_CORRUPT, "opening the rows of site %d", s->head->sites[i].site_id);
    return PAPTRACE_OK;
}

int paptrace_stream_open(const char *path, paptrace_stream_t **out, char *err, size_t errlen)
{
    paptrace_stream_t *s = calloc(1, sizeof *s);
    pt_quiet_t q;
    int i, rc = PAPTRACE_ERR_NOMEM;

    *out = NULL;
    if (s == NULL || (s->head = calloc(1, sizeof *s->head)) == NULL) {
        free(s);
        snprintf(err, errlen, "%s: %s", path, paptrace_strerror(rc));
        return rc;
    }
    s->r = (reader_t)READER_INIT;
    s->r.head_only = 1;
    pt_quiet_begin(&q);
    rc = read_file(&s->r, path, s->head);
    if (rc == PAPTRACE_OK) {
        s->ranks = malloc(((size_t)s->head->nsites + 1) * sizeof *s->ranks);
        s->iters = malloc(((size_t)s->head->nsites + 1) * sizeof *s->iters);
        rc = s->ranks && s->iters ? PAPTRACE_OK : PAPTRACE_ERR_NOMEM;
    }
    for (i = 0; rc == PAPTRACE_OK && i < s->head->nsites; i++)
        s->ranks[i] = s->iters[i] = H5I_INVALID_HID;
    for (i = 0; rc == PAPTRACE_OK && i < s->head->nsites; i++)
        rc = open_site_rows(s, i);
    pt_quiet_end(&q);
    if (rc != PAPTRACE_OK) {
        describe(&s->r, path, rc, err, errlen);
        paptrace_stream_close(&s);
        return rc;
    }
    *out = s;
    return PAPTRACE_OK;
}

const paptrace_file_t *paptrace_stream_head(const paptrace_stream_t *s)
{
    return s->head;
}

int paptrace_stream_rows(paptrace_stream_t *s, int site, long first, long n, paptrace_iter_t *iters,
                         papcoll_rank_record_t *ranks)
{
    const paptrace_site_t *st;
    pt_quiet_t q;
    int rc;

    if (site < 0 || site >= s->head->nsites)
        return PAPTRACE_ERR_NOSITE;
    st = &s->head->sites[site];
    if (first < 0 || n < 0 || first + n > st->niters)
        return PAPTRACE_ERR_INVAL;
    if (n == 0)
        return PAPTRACE_OK;
    pt_quiet_begin(&q);
    rc = read_slab(s->iters[site], s->r.mt.iter, 0, (hsize_t)first, (hsize_t)n, iters);
    rc = rc ? rc : read_slab(s->ranks[site], s->r.mt.rec, (hsize_t)st->nranks, (hsize_t)first, (hsize_t)n, ranks);
    pt_quiet_end(&q);
    return rc;
}

void paptrace_stream_close(paptrace_stream_t **sp)
{
    paptrace_stream_t *s = sp ? *sp : NULL;
    int i;

    if (s == NULL)
        return;
    for (i = 0; s->ranks && s->iters && i < s->head->nsites; i++) {
        pt_close(&s->ranks[i]);
        pt_close(&s->iters[i]);
    }
    free(s->ranks);
    free(s->iters);
    pt_types_close(&s->r.mt);
    pt_close(&s->r.file);
    paptrace_file_free(&s->head);
    free(s);
    *sp = NULL;
}

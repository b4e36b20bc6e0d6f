/*
 * The trace writer (trace/SCHEMA.md): rank 0's half of libpaptrace.
 *
 * SWMR and call sites.  A reader may follow the file while the job runs,
 * and a killed job must leave a readable file, so the file is in SWMR-write
 * mode from its creation on.  SWMR forbids creating objects, yet a call
 * site becomes known only with its first record.  Records are therefore
 * buffered per site; when a site's buffer first needs writing, the writer
 * leaves SWMR mode for a moment (close, reopen read-write, create the
 * groups of every site known by then, restart SWMR) and appends.  This
 * happens once per batch of new sites, at a flush, never per iteration.
 * The algorithm table of a site's operation (/algorithms/<op>, from
 * papcoll's lists) is created in the same pause, so a file describes
 * exactly the operations its sites use.
 *
 * Each site's rows go to the file every flush_every iterations (one
 * extend + write per dataset) followed by H5Fflush, the crash-safety point:
 * what was flushed survives SIGKILL (SWMR keeps the file consistent).
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "trace_internal.h"

#define CHUNK_BYTES 65536 /* target size of a dataset chunk */
#define ITER_CHUNK 256    /* rows per chunk of an iters dataset */
#define DECISION_CHUNK 64 /* rows per chunk of a decisions dataset */

#ifndef PAPCOLL_GIT_VERSION
#define PAPCOLL_GIT_VERSION "unknown"
#endif

int pt_handle_new(paptrace_t **out)
{
    paptrace_t *t = calloc(1, sizeof *t);

    *out = NULL;
    if (t == NULL)
        return PAPTRACE_ERR_NOMEM;
    if (pthread_mutex_init(&t->lock, NULL) != 0) {
        free(t);
        return PAPTRACE_ERR_NOMEM;
    }
    t->fapl = t->file = t->ft_iter = t->ft_decision = H5I_INVALID_HID;
    t->mt.rec = t->mt.iter = t->mt.clock = t->mt.rankinfo = t->mt.algo = t->mt.decision = H5I_INVALID_HID;
    t->comm = MPI_COMM_NULL;
    *out = t;
    return PAPTRACE_OK;
}

static void free_places(char **places, int n)
{
    int i;

    for (i = 0; places != NULL && i < n; i++)
        free(places[i]);
    free(places);
}

void pt_handle_free(paptrace_t *t)
{
    int i;

    for (i = 0; i < t->nsites; i++) {
        free(t->sites[i].name);
        free(t->sites[i].datatype);
        free_places(t->sites[i].places, t->nranks);
        free(t->sites[i].buf);
        free(t->sites[i].ibuf);
        free(t->sites[i].dbuf);
    }
    free(t->sites);
    pt_close(&t->ft_decision);
    pt_close(&t->ft_iter);
    pt_types_close(&t->mt);
    pt_close(&t->fapl);
    free(t->path);
    pthread_mutex_destroy(&t->lock);
    free(t);
}

/* An empty dataset of rows x cols (cols 0: 1-D) growing along its rows. */
static int create_table(hid_t loc, const char *name, hid_t ftype, hsize_t cols, hsize_t chunk_rows)
{
    hsize_t dims[2] = {0, cols}, maxd[2] = {H5S_UNLIMITED, cols}, chunk[2] = {chunk_rows, cols};
    int ndims = cols > 0 ? 2 : 1, rc = PAPTRACE_ERR_HDF5;
    hid_t space = H5Screate_simple(ndims, dims, maxd), dcpl = H5Pcreate(H5P_DATASET_CREATE);
    hid_t d = H5I_INVALID_HID;

    if (space >= 0 && dcpl >= 0 && H5Pset_chunk(dcpl, ndims, chunk) >= 0)
        d = H5Dcreate2(loc, name, ftype, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
    if (d >= 0)
        rc = PAPTRACE_OK;
    pt_close(&d);
    pt_close(&dcpl);
    pt_close(&space);
    return rc;
}

/* Appends rows x cols (cols 0: 1-D) values of mtype to dataset loc/name. */
static int append_rows(hid_t loc, const char *name, hid_t mtype, const void *buf, hsize_t rows, hsize_t cols)
{
    hsize_t dims[2], start[2] = {0, 0}, count[2] = {rows, cols};
    hid_t d = H5Dopen2(loc, name, H5P_DEFAULT), fs = H5I_INVALID_HID, ms = H5I_INVALID_HID;
    int ndims = cols > 0 ? 2 : 1, rc = PAPTRACE_ERR_HDF5;

    if (d >= 0 && (fs = H5Dget_space(d)) >= 0 && H5Sget_simple_extent_dims(fs, dims, NULL) == ndims) {
        start[0] = dims[0];
        dims[0] += rows;
        pt_close(&fs);
        if (H5Dset_extent(d, dims) >= 0 && (fs = H5Dget_space(d)) >= 0 &&
            H5Sselect_hyperslab(fs, H5S_SELECT_SET, start, NULL, count, NULL) >= 0 &&
            (ms = H5Screate_simple(ndims, count, NULL)) >= 0 && H5Dwrite(d, mtype, ms, fs, H5P_DEFAULT, buf) >= 0)
            rc = PAPTRACE_OK;
    }
    pt_close(&ms);
    pt_close(&fs);
    pt_close(&d);
    return rc;
}

/* Writes a whole 1-D dataset of n rows (memory type mtype, file type ftype). */
static int write_table(hid_t loc, const char *name, hid_t mtype, const void *buf, hsize_t n)
{
    hid_t ftype = H5Tcopy(mtype), space = H5Screate_simple(1, &n, NULL), d = H5I_INVALID_HID;
    int rc = PAPTRACE_ERR_HDF5;

    if (ftype >= 0 && space >= 0 && H5Tpack(ftype) >= 0)
        d = H5Dcreate2(loc, name, ftype, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    if (d >= 0 && (n == 0 || H5Dwrite(d, mtype, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf) >= 0))
        rc = PAPTRACE_OK;
    pt_close(&d);
    pt_close(&space);
    pt_close(&ftype);
    return rc;
}

static void utc_now(char *buf, size_t len)
{
    time_t now = time(NULL);
    struct tm tm;

    if (gmtime_r(&now, &tm) == NULL || strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm) == 0)
        snprintf(buf, len, "unknown");
}

static int write_root_attrs(const paptrace_t *t, const paptrace_meta_t *meta, const paptrace_run_t *run)
{
    char start[64], h5ver[32];
    unsigned maj = 0, min = 0, rel = 0;
    hid_t f = t->file;
    int rc;

    utc_now(start, sizeof start);
    H5get_libversion(&maj, &min, &rel);
    snprintf(h5ver, sizeof h5ver, "%u.%u.%u", maj, min, rel);
    rc = pt_attr_write_str(f, "format", "paptrace");
    rc = rc ? rc : pt_attr_write_int(f, "schema_version", PAPTRACE_SCHEMA_VERSION);
    rc = rc ? rc : pt_attr_write_str(f, "program", meta->program ? meta->program : "");
    rc = rc ? rc : pt_attr_write_strs(f, "argv", meta->argv, meta->argv ? meta->argc : 0);
    rc = rc ? rc : pt_attr_write_str(f, "config", meta->config_text ? meta->config_text : "");
    rc = rc ? rc : pt_attr_write_int(f, "nranks", run->nranks);
    rc = rc ? rc : pt_attr_write_str(f, "mpi_library", run->mpi_library ? run->mpi_library : "unknown");
    rc = rc ? rc : pt_attr_write_str(f, "papcoll_version", PAPCOLL_GIT_VERSION);
    rc = rc ? rc : pt_attr_write_str(f, "hdf5_version", h5ver);
    rc = rc ? rc : pt_attr_write_str(f, "start_utc", start);
    rc = rc ? rc : pt_attr_write_str(f, "clock_method", run->clock_method ? run->clock_method : "unknown");
    rc = rc ? rc : pt_attr_write_int(f, "flush_every", t->flush_every);
    return rc;
}

static int write_ranks(const paptrace_t *t, const paptrace_run_t *run)
{
    pt_rankinfo_t *rows = calloc((size_t)run->nranks, sizeof *rows);
    int i, rc;

    if (rows == NULL)
        return PAPTRACE_ERR_NOMEM;
    for (i = 0; i < run->nranks; i++) {
        rows[i].rank = i;
        rows[i].pid = run->pids ? run->pids[i] : -1;
        snprintf(rows[i].host, sizeof rows[i].host, "%s", run->hosts ? run->hosts[i] : "");
    }
    rc = write_table(t->file, "ranks", t->mt.rankinfo, rows, (hsize_t)run->nranks);
    free(rows);
    return rc;
}

/* /algorithms/<op>: the id -> name table of op in papcoll's algos.def, once. */
static int write_algorithms(paptrace_t *t, papcoll_op_t op)
{
    int i, n = papcoll_algo_count(op), rc = PAPTRACE_ERR_NOMEM;
    pt_algo_t *rows = calloc((size_t)n + 1, sizeof *rows);
    hid_t g = H5I_INVALID_HID;

    if (t->has_algos[op])
        rc = PAPTRACE_OK;
    else if (rows != NULL && (g = H5Gopen2(t->file, "algorithms", H5P_DEFAULT)) < 0)
        rc = PAPTRACE_ERR_HDF5;
    else if (rows != NULL) {
        for (i = 0; i < n; i++) {
            rows[i].id = i;
            snprintf(rows[i].name, sizeof rows[i].name, "%s", papcoll_algo_name(op, i));
        }
        rc = write_table(g, papcoll_op_name(op), t->mt.algo, rows, (hsize_t)n);
        t->has_algos[op] = rc == PAPTRACE_OK;
    }
    pt_close(&g);
    free(rows);
    return rc;
}

/* Rows per chunk so that a chunk of rows x cols x bytes is about CHUNK_BYTES. */
static hsize_t chunk_rows(int cols, size_t bytes, hsize_t cap)
{
    hsize_t r = CHUNK_BYTES / ((hsize_t)cols * bytes);

    return r < 1 ? 1 : r > cap ? cap : r;
}

/* Everything but the sites, then SWMR on (no object is open by then). */
static int create_file(paptrace_t *t, const paptrace_meta_t *meta, const paptrace_run_t *run)
{
    hid_t g = H5I_INVALID_HID;
    int rc = PAPTRACE_ERR_HDF5;

    t->fapl = H5Pcreate(H5P_FILE_ACCESS);
    if (t->fapl < 0 || H5Pset_libver_bounds(t->fapl, H5F_LIBVER_LATEST, H5F_LIBVER_LATEST) < 0)
        return rc;
    t->file = H5Fcreate(t->path, H5F_ACC_TRUNC, H5P_DEFAULT, t->fapl);
    if (t->file < 0)
        return PAPTRACE_ERR_CREATE;
    rc = write_root_attrs(t, meta, run);
    rc = rc ? rc : write_ranks(t, run);
    rc = rc ? rc : create_table(t->file, "clock", t->mt.clock, (hsize_t)t->nranks,
                                chunk_rows(t->nranks, sizeof(paptrace_clock_row_t), 16));
    if (rc == PAPTRACE_OK &&
        (g = H5Gcreate2(t->file, "algorithms", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT)) < 0)
        rc = PAPTRACE_ERR_HDF5;
    pt_close(&g);
    if (rc == PAPTRACE_OK && (g = H5Gcreate2(t->file, "sites", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT)) < 0)
        rc = PAPTRACE_ERR_HDF5;
    pt_close(&g);
    if (rc == PAPTRACE_OK && (H5Fstart_swmr_write(t->file) < 0 || H5Fflush(t->file, H5F_SCOPE_GLOBAL) < 0))
        rc = PAPTRACE_ERR_HDF5;
    return rc;
}

int paptrace_create(const char *path, const paptrace_meta_t *meta, const paptrace_run_t *run,
                    paptrace_t **out)
{
    paptrace_t *t = NULL;
    pt_quiet_t q;
    int rc;

    *out = NULL;
    if (path == NULL || meta == NULL || run == NULL || run->nranks < 1 || meta->flush_every < 0)
        return PAPTRACE_ERR_INVAL;
    if ((rc = pt_handle_new(&t)) != PAPTRACE_OK)
        return rc;
    t->nranks = run->nranks;
    t->flush_every = meta->flush_every > 0 ? meta->flush_every : PAPTRACE_FLUSH_DEFAULT;
    pt_quiet_begin(&q);
    if ((t->path = strdup(path)) == NULL)
        rc = PAPTRACE_ERR_NOMEM;
    rc = rc ? rc : pt_types_create(&t->mt);
    if (rc == PAPTRACE_OK && ((t->ft_iter = H5Tcopy(t->mt.iter)) < 0 || H5Tpack(t->ft_iter) < 0 ||
                              (t->ft_decision = H5Tcopy(t->mt.decision)) < 0 || H5Tpack(t->ft_decision) < 0))
        rc = PAPTRACE_ERR_HDF5;
    rc = rc ? rc : create_file(t, meta, run);
    if (rc != PAPTRACE_OK)
        pt_close(&t->file);
    pt_quiet_end(&q);
    if (rc != PAPTRACE_OK) {
        pt_handle_free(t);
        return rc;
    }
    *out = t;
    return PAPTRACE_OK;
}

/* The group of one site: attributes, then its three empty tables. */
static int create_site_group(paptrace_t *t, hid_t sites, int id)
{
    const pt_wsite_t *s = &t->sites[id];
    char gname[32];
    hid_t g;
    int rc;

    snprintf(gname, sizeof gname, "%d", id);
    if ((g = H5Gcreate2(sites, gname, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT)) < 0)
        return PAPTRACE_ERR_HDF5;
    rc = pt_attr_write_str(g, "name", s->name);
    rc = rc ? rc : pt_attr_write_int(g, "site_id", id);
    rc = rc ? rc : pt_attr_write_str(g, "op", papcoll_op_name(s->op));
    rc = rc ? rc : pt_attr_write_int(g, "root", s->root);
    rc = rc ? rc : pt_attr_write_int(g, "bytes", s->bytes);
    rc = rc ? rc : pt_attr_write_int(g, "count", s->count);
    rc = rc ? rc : pt_attr_write_str(g, "datatype", s->datatype);
    if (rc == PAPTRACE_OK && s->places != NULL)
        rc = pt_attr_write_strs(g, "places", s->places, t->nranks);
    rc = rc ? rc : create_table(g, "ranks", t->mt.rec, (hsize_t)t->nranks,
                                chunk_rows(t->nranks, sizeof(papcoll_rank_record_t), 1024));
    rc = rc ? rc : create_table(g, "iters", t->ft_iter, 0, ITER_CHUNK);
    rc = rc ? rc : create_table(g, "decisions", t->ft_decision, 0, DECISION_CHUNK);
    pt_close(&g);
    return rc;
}

/* The SWMR pause of the header comment: creates every known, missing site
 * and the algorithm table of its operation. */
static int create_sites(paptrace_t *t)
{
    hid_t sites = H5I_INVALID_HID;
    int i, rc = PAPTRACE_ERR_HDF5;

    if (H5Fclose(t->file) < 0)
        return rc;
    t->file = H5Fopen(t->path, H5F_ACC_RDWR, t->fapl);
    if (t->file >= 0 && (sites = H5Gopen2(t->file, "sites", H5P_DEFAULT)) >= 0)
        rc = PAPTRACE_OK;
    for (i = 0; rc == PAPTRACE_OK && i < t->nsites; i++)
        if (t->sites[i].known && !t->sites[i].created) {
            rc = write_algorithms(t, t->sites[i].op);
            rc = rc ? rc : create_site_group(t, sites, i);
            t->sites[i].created = rc == PAPTRACE_OK;
        }
    pt_close(&sites);
    if (rc == PAPTRACE_OK && (t->file < 0 || H5Fstart_swmr_write(t->file) < 0))
        rc = PAPTRACE_ERR_HDF5;
    return rc;
}

/* Appends a site's buffered iterations to its datasets. */
static int site_write(paptrace_t *t, int id)
{
    pt_wsite_t *s = &t->sites[id];
    char gname[32];
    hid_t g;
    int rc = PAPTRACE_OK;

    if (s->nbuf == 0)
        return rc;
    if (!s->created && (rc = create_sites(t)) != PAPTRACE_OK)
        return rc;
    snprintf(gname, sizeof gname, "sites/%d", id);
    if ((g = H5Gopen2(t->file, gname, H5P_DEFAULT)) < 0)
        return PAPTRACE_ERR_HDF5;
    rc = append_rows(g, "ranks", t->mt.rec, s->buf, (hsize_t)s->nbuf, (hsize_t)t->nranks);
    rc = rc ? rc : append_rows(g, "iters", t->mt.iter, s->ibuf, (hsize_t)s->nbuf, 0);
    if (rc == PAPTRACE_OK && s->ndbuf > 0)
        rc = append_rows(g, "decisions", t->mt.decision, s->dbuf, (hsize_t)s->ndbuf, 0);
    pt_close(&g);
    s->nbuf = 0;
    s->ndbuf = 0;
    return rc;
}

/* The writer's entry of site id, grown into. */
static int site_slot(paptrace_t *t, int id)
{
    if (id >= t->nsites) {
        int n = id + 1;
        pt_wsite_t *more = realloc(t->sites, (size_t)n * sizeof *more);

        if (more == NULL)
            return PAPTRACE_ERR_NOMEM;
        memset(more + t->nsites, 0, (size_t)(n - t->nsites) * sizeof *more);
        t->sites = more;
        t->nsites = n;
    }
    return PAPTRACE_OK;
}

/* Registers the site of rec at its first record. */
static int site_learn(paptrace_t *t, const papcoll_record_t *rec)
{
    pt_wsite_t *s;

    if (site_slot(t, rec->site_id) != PAPTRACE_OK)
        return PAPTRACE_ERR_NOMEM;
    s = &t->sites[rec->site_id];
    if (s->known)
        return PAPTRACE_OK;
    if ((s->name = strdup(rec->site ? rec->site : "")) == NULL ||
        (s->datatype = strdup(rec->datatype ? rec->datatype : "")) == NULL)
        return PAPTRACE_ERR_NOMEM;
    s->known = 1;
    s->op = rec->op;
    s->root = rec->root;
    s->bytes = rec->bytes;
    s->count = rec->count;
    return PAPTRACE_OK;
}

/* A call that changed algorithm: its decision row (a reason too long for
 * the row ends in "...", so a cut is visible). */
static int site_decision(pt_wsite_t *s, const papcoll_record_t *rec)
{
    paptrace_decision_t *d;
    size_t len = strlen(rec->reason);

    if (s->ndbuf == s->dcap) {
        long cap = s->dcap ? 2 * s->dcap : 8;
        paptrace_decision_t *more = realloc(s->dbuf, (size_t)cap * sizeof *more);

        if (more == NULL)
            return PAPTRACE_ERR_NOMEM;
        s->dbuf = more;
        s->dcap = cap;
    }
    d = &s->dbuf[s->ndbuf++];
    memset(d, 0, sizeof *d);
    d->iter = rec->iter;
    d->algo = rec->algo;
    if (len < sizeof d->reason)
        memcpy(d->reason, rec->reason, len);
    else
        snprintf(d->reason, sizeof d->reason, "%.*s...", (int)sizeof d->reason - 4, rec->reason);
    if (rec->detail != NULL)
        snprintf(d->detail, sizeof d->detail, "%s", rec->detail);
    return PAPTRACE_OK;
}

/* Copies rec into its site's buffer. */
static int site_buffer(paptrace_t *t, pt_wsite_t *s, const papcoll_record_t *rec)
{
    size_t P = (size_t)t->nranks;
    paptrace_iter_t *it;
    pm_call_t call = paptrace_call(rec->ranks, t->nranks);

    if (s->nbuf == s->cap) {
        long cap = s->cap ? 2 * s->cap : t->flush_every;
        papcoll_rank_record_t *b = realloc(s->buf, (size_t)cap * P * sizeof *b);
        paptrace_iter_t *ib = b ? realloc(s->ibuf, (size_t)cap * sizeof *ib) : NULL;

        if (b != NULL)
            s->buf = b;
        if (ib == NULL)
            return PAPTRACE_ERR_NOMEM;
        s->ibuf = ib;
        s->cap = cap;
    }
    memcpy(s->buf + (size_t)s->nbuf * P, rec->ranks, P * sizeof *rec->ranks);
    it = &s->ibuf[s->nbuf++];
    it->iter = rec->iter;
    it->algo = rec->algo;
    it->root = rec->root;
    it->bytes = rec->bytes;
    it->plan_time = rec->plan_time;
    it->runtime = pm_runtime(&call);
    it->elapsed = pm_elapsed(&call);
    return rec->reason != NULL ? site_decision(s, rec) : PAPTRACE_OK;
}

static int on_record_locked(paptrace_t *t, const papcoll_record_t *rec)
{
    pt_wsite_t *s;
    int rc;

    if (rec->nranks != t->nranks || rec->site_id < 0 || rec->ranks == NULL ||
        rec->op < 0 || rec->op >= PAPCOLL_OP_COUNT)
        return PAPTRACE_ERR_RECORD;
    if ((rc = site_learn(t, rec)) != PAPTRACE_OK)
        return rc;
    s = &t->sites[rec->site_id];
    if ((rc = site_buffer(t, s, rec)) != PAPTRACE_OK)
        return rc;
    if (s->nbuf < t->flush_every)
        return PAPTRACE_OK;
    rc = site_write(t, rec->site_id);
    if (rc == PAPTRACE_OK && H5Fflush(t->file, H5F_SCOPE_GLOBAL) < 0)
        rc = PAPTRACE_ERR_HDF5;
    return rc;
}

static int on_record(void *arg, const papcoll_record_t *rec)
{
    paptrace_t *t = arg;
    pt_quiet_t q;
    int rc;

    pthread_mutex_lock(&t->lock);
    pt_quiet_begin(&q);
    rc = t->err ? t->err : t->file < 0 ? PAPTRACE_ERR_INVAL : on_record_locked(t, rec);
    t->err = rc;
    pt_quiet_end(&q);
    pthread_mutex_unlock(&t->lock);
    return rc;
}

static int on_clock_locked(paptrace_t *t, const papcoll_clock_sample_t *clk)
{
    paptrace_clock_row_t *rows;
    int i, rc;

    if (clk->nranks != t->nranks)
        return PAPTRACE_ERR_RECORD;
    if ((rows = malloc((size_t)t->nranks * sizeof *rows)) == NULL)
        return PAPTRACE_ERR_NOMEM;
    for (i = 0; i < t->nranks; i++) {
        rows[i].when = clk->when;
        rows[i].offset = clk->offset[i];
        rows[i].drift = clk->drift[i];
        rows[i].error = clk->error[i];
    }
    rc = append_rows(t->file, "clock", t->mt.clock, rows, 1, (hsize_t)t->nranks);
    free(rows);
    if (rc == PAPTRACE_OK && H5Fflush(t->file, H5F_SCOPE_GLOBAL) < 0)
        rc = PAPTRACE_ERR_HDF5;
    t->clock_rows += rc == PAPTRACE_OK;
    return rc;
}

static int on_clock(void *arg, const papcoll_clock_sample_t *clk)
{
    paptrace_t *t = arg;
    pt_quiet_t q;
    int rc;

    pthread_mutex_lock(&t->lock);
    pt_quiet_begin(&q);
    rc = t->err ? t->err : t->file < 0 ? PAPTRACE_ERR_INVAL : on_clock_locked(t, clk);
    t->err = rc;
    pt_quiet_end(&q);
    pthread_mutex_unlock(&t->lock);
    return rc;
}

papcoll_sink_t paptrace_sink(paptrace_t *t)
{
    papcoll_sink_t s = {t, on_record, on_clock};

    return s;
}

int pt_finish_file(paptrace_t *t)
{
    pt_quiet_t q;
    int i, rc;

    pthread_mutex_lock(&t->lock);
    pt_quiet_begin(&q);
    rc = t->err;
    for (i = 0; rc == PAPTRACE_OK && t->file >= 0 && i < t->nsites; i++)
        rc = site_write(t, i);
    if (t->file >= 0 && H5Fclose(t->file) < 0 && rc == PAPTRACE_OK)
        rc = PAPTRACE_ERR_HDF5;
    t->file = H5I_INVALID_HID;
    pt_quiet_end(&q);
    pthread_mutex_unlock(&t->lock);
    return rc;
}

int paptrace_finish(paptrace_t **t)
{
    int rc;

    if (t == NULL || *t == NULL)
        return PAPTRACE_ERR_INVAL;
    rc = pt_finish_file(*t);
    pt_handle_free(*t);
    *t = NULL;
    return rc;
}

int paptrace_site_places(paptrace_t *t, int site_id, char *const *places)
{
    char **copy;
    int i, rc = PAPTRACE_OK;

    if (t == NULL || site_id < 0 || places == NULL)
        return PAPTRACE_ERR_INVAL;
    if (t->rank != 0)
        return PAPTRACE_OK;
    pthread_mutex_lock(&t->lock);
    if (site_slot(t, site_id) != PAPTRACE_OK || (copy = calloc((size_t)t->nranks, sizeof *copy)) == NULL) {
        pthread_mutex_unlock(&t->lock);
        return PAPTRACE_ERR_NOMEM;
    }
    for (i = 0; i < t->nranks && rc == PAPTRACE_OK; i++)
        if ((copy[i] = strdup(places[i])) == NULL)
            rc = PAPTRACE_ERR_NOMEM;
    if (rc == PAPTRACE_OK && t->sites[site_id].created)
        rc = PAPTRACE_ERR_INVAL; /* too late: the group is written */
    if (rc == PAPTRACE_OK) {
        free_places(t->sites[site_id].places, t->nranks);
        t->sites[site_id].places = copy;
    } else {
        free_places(copy, t->nranks);
    }
    pthread_mutex_unlock(&t->lock);
    return rc;
}
